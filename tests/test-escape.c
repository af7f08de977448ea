/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Names as they are shown (tks_i18n_escape(): the viewer's lanes, every name the CLI prints):
 * what shows nothing, looks like a plain space or reorders text is written \u{NNNN}, so that
 * two names that differ never look the same; what shows is left as it is.
 */
#include <string.h>

#include <glib.h>

#include "tks-i18n.h"
#include "tks-test-cli.h"
#include "tks-test-data.h"

static void
test_invisible (void)
{
  static const gunichar invisible[] = {
    0x00ad, 0x034f, 0x061c, 0x115f, 0x1160, 0x17b4, 0x180e, 0x200b, 0x200c, 0x200d, 0x200e,
    0x200f, 0x2028, 0x2029, 0x202a, 0x202e, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x2066,
    0x2069, 0x206f, 0x2800, 0x3164, 0xfe0f, 0xfeff, 0xffa0, 0xfff9, 0xe0001, 0xe0041, 0xe0100,
    /* spaces that look like a space */
    0x00a0, 0x2002, 0x2009, 0x202f, 0x205f, 0x3000,
  };
  static const char *const shown[] = { "main", "idle thread", "café", "Ωmega", "日本", "a-b_c" };

  for (guint i = 0; i < G_N_ELEMENTS (invisible); i++)
    {
      char utf8[8] = { 0 };
      g_autofree char *name = NULL;
      g_autofree char *escaped = NULL;
      g_autofree char *expected = g_strdup_printf ("ab\\u{%04x}c", invisible[i]);

      g_unichar_to_utf8 (invisible[i], utf8);
      name = g_strconcat ("ab", utf8, "c", NULL);
      escaped = tks_i18n_escape (name);
      g_assert_cmpstr (escaped, ==, expected);
    }
  for (guint i = 0; i < G_N_ELEMENTS (shown); i++)
    {
      g_autofree char *escaped = tks_i18n_escape (shown[i]);

      g_assert_cmpstr (escaped, ==, shown[i]);
    }
}

/* Two threads whose names differ by a zero-width space: `info` shows them apart. */
static void
test_cli_names (void)
{
  g_autofree char *text = tks_test_data_contents ("simboard-dump.raw.txt", NULL);
  g_autofree char *twins = NULL;
  g_auto(TksCliResult) info = { 0 };
  char *at = strstr (text, "Name = idle");

  g_assert_nonnull (at);
  twins = g_strdup_printf ("%.*sName = ma\xe2\x80\x8bin%s", (int) (at - text), text,
                           at + strlen ("Name = idle"));
  info = tks_run_cli (twins, "info", "-", NULL);
  g_assert_cmpint (info.status, ==, 0);
  g_assert_null (strstr (info.out, "\xe2\x80\x8b"));
  g_assert_nonnull (strstr (info.out, "ma\\u{200b}in"));
}

/* Names from the board in explain's breakdown (what ran meanwhile): shown, never passed to
 * the terminal. Every thread is given a name that would colour the terminal. */
static void
test_cli_explain (void)
{
  g_autofree char *text = tks_test_data_contents ("simboard-record-events.raw.txt", NULL);
  g_auto(GStrv) parts = g_strsplit (text, "Log = Yes, Name = ", -1);
  g_autofree char *hostile = g_strjoinv ("Log = Yes, Name = \x1b[31m", parts);
  g_auto(TksCliResult) explain = tks_run_cli (hostile, "explain", "-", "--worst", "5", NULL);

  g_assert_cmpuint (g_strv_length (parts), >, 3);
  g_assert_cmpint (explain.status, ==, 0);
  g_assert_nonnull (strstr (explain.out, "  higher priority  thread \\x1b[31m"));
  g_assert_null (strchr (explain.out, '\x1b'));
}

/* Every command answers --help with its usage on standard output, and exit status 0. */
static void
test_cli_help (void)
{
  static const char *const commands[] = {
    "info", "stats", "explain", "export", "find", "convert", "fetch", "trigger", "run",
    "record", "check", "diff", "top",
  };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_auto(TksCliResult) help = tks_run_cli (NULL, commands[i], "--help", NULL);
      g_autofree char *usage = g_strdup_printf ("tickscope-cli %s", commands[i]);

      g_test_message ("%s --help: %d, %s", commands[i], help.status, help.err);
      g_assert_cmpint (help.status, ==, 0);
      g_assert_nonnull (strstr (help.out, usage));
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/escape/invisible", test_invisible);
  g_test_add_func ("/escape/cli-names", test_cli_names);
  g_test_add_func ("/escape/cli-explain", test_cli_explain);
  g_test_add_func ("/cli/help", test_cli_help);
  return g_test_run ();
}
