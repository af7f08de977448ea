/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tickscope-cli fetch against a board that answers over a pty with bytes a real kernel sent. */
#define _GNU_SOURCE
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>

#include <glib/gstdio.h>

#include "tks-test-board.h"
#include "tks-test-cli.h"

/* Line @n (1-based) of @text, without its line end. */
static char *
nth_line (const char *text,
          guint       n)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  g_assert_cmpuint (n, >=, 1);
  g_assert_cmpuint (n, <=, g_strv_length (lines));
  return g_strdup (lines[n - 1]);
}

/*
 * board-original-list-log-mismatch.raw.txt: the original threads_utilities library on
 * ChibiOS/RT 18.2 (simulator, 1 kHz tick, 40-record log) while short-lived threads come and go.
 * Threads 11 and 12 were created after threads_list was read: the log names them, the list does
 * not. The fetch prints a warning per such thread, once, with the number of the line of the
 * written capture that names it first.
 */
static void
test_fetch_warnings (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tickscope-cli-fetch-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "fetched.txt", NULL);
  g_autofree char *contents = NULL;
  g_auto(TksCliResult) fetch = { 0 };
  g_auto(TksCliResult) info = { 0 };
  g_auto(GStrv) lines = NULL;
  TksTestBoard *board;
  guint n_warnings = 0;
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  board = tks_test_board_start ("board-original-list-log-mismatch.raw.txt", master,
                                TKS_TEST_BOARD_NORMAL, 0, 0);

  fetch = tks_run_cli (NULL, "fetch", ptsname (master), "-o", out, "--no-history", NULL);
  tks_test_board_stop (board);
  g_assert_cmpint (fetch.status, ==, 0);
  g_assert_true (g_file_get_contents (out, &contents, NULL, NULL));

  lines = g_strsplit (fetch.err, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *rest;
      guint64 n;
      char *end = NULL;
      g_autofree char *named = NULL;
      g_autofree char *wanted = NULL;

      if (!g_str_has_prefix (lines[i], "tickscope-cli fetch: ") || strstr (lines[i], "warning") == NULL)
        continue;
      rest = lines[i] + strlen ("tickscope-cli fetch: ");
      n_warnings++;

      /* One "warning:" per line, as `tickscope-cli info` prints them. */
      g_assert_null (strstr (strstr (lines[i], "warning:") + 1, "warning:"));

      /* "line N: ..." names a line of the file written, and that line names the thread. */
      g_assert_true (g_str_has_prefix (rest, "line "));
      n = g_ascii_strtoull (rest + 5, &end, 10);
      g_assert_true (end != NULL && *end == ':');
      g_assert_nonnull (strstr (rest, "the log names thread "));
      named = nth_line (contents, (guint) n);
      wanted = g_strdup_printf (" %2u ", (guint) g_ascii_strtoull (strstr (rest, "thread ") + 7,
                                                                   NULL, 10));
      g_assert_true (g_str_has_prefix (named, "From "));
      g_assert_nonnull (strstr (named, wanted));
    }
  g_assert_cmpuint (n_warnings, ==, 2);
  g_assert_nonnull (strstr (fetch.err, "12 threads, 40 records"));

  /* info on the written file prints the same warnings. */
  info = tks_run_cli (NULL, "info", out, NULL);
  g_assert_cmpint (info.status, ==, 0);
  g_assert_nonnull (strstr (info.out, "Warnings:          2\n"));
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "tickscope-cli fetch: line "))
      g_assert_nonnull (strstr (info.out, lines[i] + strlen ("tickscope-cli fetch: ")));

  g_unlink (out);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/fetch/warnings", test_fetch_warnings);

  return g_test_run ();
}
