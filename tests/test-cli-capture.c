/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tickscope-cli info, convert, fetch, trigger and run, run as a user runs them. */
#define _GNU_SOURCE
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "tks-test-board.h"
#include "tks-test-cli.h"
#include "tks-test-fixtures.h"

static char *
data_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", name, NULL);
}

static void
test_info (void)
{
  g_autofree char *path = data_path ("board-trigger-exits.raw.txt");
  g_autofree char *contents = NULL;
  g_auto(TksCliResult) r = tks_run_cli (NULL, "info", path, NULL);
  g_auto(TksCliResult) from_stdin = { 0 };

  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Records:           3000\n"));
  g_assert_nonnull (strstr (r.out, "Trigger:           tick 17154, set by Shell command\n"));
  g_assert_nonnull (strstr (r.out, "Warnings:          0\n"));

  /* "-" reads standard input. */
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  from_stdin = tks_run_cli (contents, "info", "-", NULL);
  g_assert_cmpint (from_stdin.status, ==, 0);
  g_assert_cmpstr (from_stdin.out, ==, r.out);
}

/* What a reader of the capture must know that is not a warning: where the log ended, the
 * threads gone before it, the board's counters since boot. */
static void
test_info_capture_facts (void)
{
  g_autofree char *path = data_path ("board-trigger-exits.raw.txt");
  g_autofree char *dump_path = data_path ("simboard-dump.raw.txt");
  g_autofree char *stale = tks_test_read_with_stale_history (path, 44, NULL);
  g_autofree char *dump = NULL;
  g_auto(TksCliResult) r = tks_run_cli (NULL, "info", path, NULL);
  g_auto(TksCliResult) s = { 0 };
  g_auto(TksCliResult) d = { 0 };
  g_autoptr(GString) counted = NULL;
  g_auto(GStrv) lines = NULL;
  guint lane_lines = 0;
  gboolean in_lanes = FALSE;

  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Log ended:         tick 17991.000, before the capture's end: "
                                   "only 9 thread exits were recorded after it (up to tick 20026)"));
  g_assert_nonnull (strstr (r.out, "  idle                         2  yes      855  running at end\n"));
  g_assert_nonnull (strstr (r.out, "exited after the log ended\n"));
  g_assert_null (strstr (r.out, "exited before the log began"));

  /* 44 threads of the board's history exited before the log: counted, not listed. */
  s = tks_run_cli (stale, "info", "-", NULL);
  g_assert_cmpint (s.status, ==, 0);
  g_assert_nonnull (strstr (s.out, "Threads:           29 (29 logged, 16 exited during the capture)\n"
                                   "                   44 threads exited before the log began (not listed)\n"));
  g_assert_nonnull (strstr (s.out, "Warnings:          0\n"));
  lines = g_strsplit (s.out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "  prio "))
        in_lanes = TRUE;
      else if (in_lanes && lines[i][0] == '\0')
        in_lanes = FALSE;
      else if (in_lanes)
        lane_lines++;
    }
  g_assert_cmpuint (lane_lines, ==, 29);

  /* A dump's counters count since boot: information, not warnings. */
  g_assert_true (g_file_get_contents (dump_path, &dump, NULL, NULL));
  counted = g_string_new (dump);
  g_string_replace (counted, "Dropped while paused: 0", "Dropped while paused: 1767258", 1);
  g_string_replace (counted, "Dropped for history: 0", "Dropped for history: 16066", 1);
  /* And where its log has a hole: between its 13th and 14th records. */
  g_string_replace (counted, "Threads:", "Paused: before record 13, ticks 1 to 2, 7 switches "
                    "dropped\r\nThreads:", 1);
  d = tks_run_cli (counted->str, "info", "-", NULL);
  g_assert_cmpint (d.status, ==, 0);
  g_assert_nonnull (strstr (d.out, "Board counters:    15 records written, 1767258 switches dropped "
                                   "while paused, 16066 records dropped for the history (counted "
                                   "since boot or run mode, not within this capture)\n"));
  g_assert_nonnull (strstr (d.out, "Not recorded:      ticks 1.923 to 2.000 (0.000 s): 7 switches "
                                   "the board dropped while it was sending (a reply, or a recording faster than its link)\n"));
  g_assert_nonnull (strstr (d.out, "Warnings:          0\n"));
}

static void
test_info_warnings (void)
{
  /* The log names a thread the list lacks: the capture loads, each warning line says so. */
  const char *text =
    "ch> threads_list\r\n"
    "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
    "Deleted threads: \r\n"
    "ch> threads_timestamps\r\n"
    "From  1 to  2 at      10\r\n"
    "Fr@m garbage\r\n"
    "From  2 to  1 at      12\r\n"
    "ch> ";
  g_auto(TksCliResult) r = tks_run_cli (text, "info", "-", NULL);
  g_auto(GStrv) lines = NULL;
  guint warnings = 0;

  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Warnings:          2\n"));
  lines = g_strsplit (r.out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "line "))
      {
        g_assert_nonnull (strstr (lines[i], "warning"));
        warnings++;
      }
  g_assert_cmpuint (warnings, ==, 2);
}

static void
test_errors (void)
{
  g_auto(TksCliResult) missing = tks_run_cli (NULL, "info", "/nonexistent/capture.txt", NULL);
  g_auto(TksCliResult) garbage = tks_run_cli ("\x01\x02\x03 not a capture\n", "info", "-", NULL);
  g_auto(TksCliResult) usage = tks_run_cli (NULL, "info", NULL);
  g_auto(TksCliResult) unknown = tks_run_cli (NULL, "frobnicate", NULL);
  g_auto(TksCliResult) help = tks_run_cli (NULL, "--help", NULL);
  g_auto(TksCliResult) convert_usage = tks_run_cli (NULL, "convert", "x.txt", NULL);

  g_assert_cmpint (missing.status, ==, 1);
  g_assert_nonnull (strstr (missing.err, "No such file or directory"));
  g_assert_cmpint (garbage.status, ==, 1);
  g_assert_nonnull (strstr (garbage.err, "not a thread capture"));
  g_assert_cmpint (usage.status, ==, 2);
  g_assert_cmpint (unknown.status, ==, 2);
  g_assert_cmpint (help.status, ==, 0);
  g_assert_nonnull (strstr (help.out, "convert TRANSCRIPT -o FILE.txt"));
  g_assert_cmpint (convert_usage.status, ==, 2);
}

static void
test_convert (void)
{
  g_autofree char *path = data_path ("board-partly-logged-trigger.raw.txt");
  g_autofree char *dir = g_dir_make_tmp ("tickscope-cli-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "capture.txt", NULL);
  g_autofree char *contents = NULL;
  g_auto(TksCliResult) r = tks_run_cli (NULL, "convert", path, "-o", out, NULL);
  g_auto(TksCliResult) info = { 0 };
  g_auto(TksCliResult) to_stdout = { 0 };

  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_file_get_contents (out, &contents, NULL, NULL));
  /* The original viewer's layout: the position first, the prompt line last. */
  g_assert_true (g_str_has_prefix (contents, "Saved position\n"));
  g_assert_true (g_str_has_suffix (contents, "\nch> \n"));

  info = tks_run_cli (NULL, "info", out, NULL);
  g_assert_cmpint (info.status, ==, 0);
  g_assert_nonnull (strstr (info.out, "Threads:           18 (10 logged, 7 exited"));

  to_stdout = tks_run_cli (NULL, "convert", path, "-o", "-", NULL);
  g_assert_cmpint (to_stdout.status, ==, 0);
  g_assert_cmpstr (to_stdout.out, ==, contents);

  g_unlink (out);
  g_rmdir (dir);
}

/* Damage stays visible: convert prints what it could not read, and the file it writes says
 * so to every later reader, while staying a file the original viewer opens (its loader
 * searches for "threads_list" and "threads_timestamps" and needs the last line "ch> "). */
static void
test_convert_damage (void)
{
  static const char transcript[] =
    "ch> threads_list\r\n"
    "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
    "Thr\0\0d num\0er  2 : Prio = 1\0, threads_list Log\r\n"
    "Thread number  3 : Prio =   1, Log = Yes, Name = idle\r\n"
    "Deleted threads: \r\n"
    "ch> threads_timestamps\r\n"
    "From  1 to  3 at      10\r\n"
    "Fr\0m  3 to  1 at      11\r\n"
    "From  3 to  1 at      12\r\n"
    "ch> ";
  g_autofree char *dir = g_dir_make_tmp ("tickscope-cli-XXXXXX", NULL);
  g_autofree char *raw = g_build_filename (dir, "damaged.raw", NULL);
  g_autofree char *out = g_build_filename (dir, "capture.txt", NULL);
  g_autofree char *again = g_build_filename (dir, "again.txt", NULL);
  g_autofree char *again_fr = g_build_filename (dir, "again-fr.txt", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *contents_again = NULL;
  g_autofree char *contents_fr = NULL;
  g_auto(TksCliResult) r = { 0 };
  g_auto(TksCliResult) info = { 0 };
  g_auto(TksCliResult) r2 = { 0 };
  g_auto(TksCliResult) r3 = { 0 };

  g_assert_true (g_file_set_contents (raw, transcript, sizeof transcript - 1, NULL));
  r = tks_run_cli (NULL, "convert", raw, "-o", out, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.err, "tickscope-cli convert: line 3: warning: unreadable thread "
                            "line kept as “Unreadable thread 2”"));
  g_assert_nonnull (strstr (r.err, "tickscope-cli convert: line 8: warning: unreadable log line "
                            "skipped"));

  g_assert_true (g_file_get_contents (out, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "Saved position\n"));
  g_assert_true (g_str_has_suffix (contents, "\nch> \n"));
  g_assert_true (strstr (contents, "threads_list") == strstr (contents, "\nthreads_list\n") + 1);
  g_assert_null (strstr (strstr (contents, "threads_list") + 1, "threads_list"));
  g_assert_nonnull (strstr (contents, "Name = Unreadable thread 2\n"));

  info = tks_run_cli (NULL, "info", out, NULL);
  g_assert_cmpint (info.status, ==, 0);
  g_assert_nonnull (strstr (info.out, "Warnings:          2\n"));
  g_assert_nonnull (strstr (info.out, ": warning: in the input this capture was made from: line 3: "
                            "warning: unreadable thread line kept as “Unreadable thread 2”: "
                            "“Thr\\x00\\x00d num\\x00er  2"));
  g_assert_nonnull (strstr (info.out, "in the input this capture was made from: line 8: warning: "
                            "unreadable log line skipped: “Fr\\x00m  3 to  1 at      11”"));

  /* Converting the converted file again keeps the same record of the damage. */
  r2 = tks_run_cli (NULL, "convert", out, "-o", again, NULL);
  g_assert_cmpint (r2.status, ==, 0);
  g_assert_true (g_file_get_contents (again, &contents_again, NULL, NULL));
  g_assert_cmpstr (contents_again, ==, contents);

  /* Also for a user who reads the warnings in French. */
  r3 = tks_run_cli_in ("fr", NULL, "convert", out, "-o", again_fr, NULL);
  g_assert_cmpint (r3.status, ==, 0);
  g_assert_nonnull (strstr (r3.err, "dans l’entrée d’où vient cette capture : line 3: warning:"));
  g_assert_true (g_file_get_contents (again_fr, &contents_fr, NULL, NULL));
  g_assert_cmpstr (contents_fr, ==, contents);

  g_unlink (raw);
  g_unlink (out);
  g_unlink (again);
  g_unlink (again_fr);
  g_rmdir (dir);
}

/* Nothing a file or a board says reaches the terminal as a control character: names, the
 * source, the trigger's name and warnings are printed with \xNN in their place. */
static void
test_escapes (void)
{
  static const char text[] =
    "Saved position\n0.0\n1.0\n0.0\n1.0\nTickscope capture 1\n"
    "Tickscope source board\x1b]0;title\x07\n"
    "Tickscope trigger-name trig\x1b[2J\n"
    "threads_list\n"
    "Thread number  1 : Prio = 128, Log = Yes, Name = ma\x1b[31min\xc2\x9b\n"
    "Thread number  2 : Prio =   1, Log = Yes, Name = idle\xe2\x80\xae\n"
    "Deleted threads: \nch> \nthreads_timestamps\nTriggered at       6\n"
    "From  1 to  2 at       5\nFrom \x1b[H\x1b[J\nFrom  2 to  1 at       7\nch> \n";
  g_auto(TksCliResult) info = tks_run_cli (text, "info", "-", NULL);
  g_auto(TksCliResult) convert = tks_run_cli (text, "convert", "-", "-o", "-", NULL);

  g_assert_cmpint (info.status, ==, 0);
  g_assert_null (strchr (info.out, '\x1b'));
  g_assert_null (strchr (info.out, '\x07'));
  g_assert_null (strstr (info.out, "\xc2\x9b"));
  g_assert_null (strstr (info.out, "\xe2\x80\xae"));
  g_assert_nonnull (strstr (info.out, "Source:            board\\x1b]0;title\\x07\n"));
  g_assert_nonnull (strstr (info.out, ", set by trig\\x1b[2J\n"));
  g_assert_nonnull (strstr (info.out, "  ma\\x1b[31min\\x9b "));
  g_assert_nonnull (strstr (info.out, "  idle\\u{202e} "));
  g_assert_nonnull (strstr (info.out, "unreadable log line skipped: “From \\x1b[H\\x1b[J”"));

  g_assert_cmpint (convert.status, ==, 0);
  g_assert_null (strchr (convert.err, '\x1b'));
  g_assert_nonnull (strstr (convert.err, "\\x1b[H"));
}

/* A board's reply to the trigger is printed the same way. */
static void
test_trigger_reply_escaped (void)
{
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  g_auto(TksCliResult) trigger = { 0 };
  TksTestBoard *board;

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  board = tks_test_board_start ("hostile-escapes.raw.txt", master, TKS_TEST_BOARD_NORMAL, 0, 0);
  trigger = tks_run_cli (NULL, "trigger", ptsname (master), NULL);
  tks_test_board_stop (board);

  g_assert_cmpint (trigger.status, ==, 0);
  g_assert_null (strchr (trigger.out, '\x1b'));
  g_assert_null (strchr (trigger.out, '\x07'));
  g_assert_cmpstr (trigger.out, ==, "Trigger set by \\x1b]0;owned\\x07Shell\\x1b[2J\\x9b31m at    1234\n");
}

/* Output that cannot be written is an error, with the reason, and a device stays a device. */
static void
test_output_errors (void)
{
  g_autofree char *path = data_path ("board-trigger-exits.raw.txt");
  g_autofree char *dir = g_dir_make_tmp ("tickscope-cli-XXXXXX", NULL);
  g_autofree char *full = g_build_filename (dir, "full", NULL);
  g_auto(TksCliResult) info = tks_run_cli_to ("/dev/full", NULL, "info", path, NULL);
  g_auto(TksCliResult) convert = { 0 };
  g_auto(TksCliResult) convert_out = tks_run_cli_to ("/dev/full", NULL, "convert", path, "-o", "-", NULL);
  GStatBuf st;

  /* Through a link to the device: a writer that replaced its target by a file (as root, the
   * device node itself) replaces only the link. */
  g_assert_cmpint (symlink ("/dev/full", full), ==, 0);
  convert = tks_run_cli (NULL, "convert", path, "-o", full, NULL);

  g_assert_cmpint (info.status, ==, 1);
  g_assert_nonnull (strstr (info.err, "tickscope-cli info: cannot write standard output: No space "
                            "left on device"));
  g_assert_cmpint (convert.status, ==, 1);
  g_assert_nonnull (strstr (convert.err, "No space left on device"));
  g_assert_cmpint (convert_out.status, ==, 1);
  g_assert_nonnull (strstr (convert_out.err, "No space left on device"));
  g_assert_cmpint (g_stat (full, &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));
  g_unlink (full);
  g_rmdir (dir);
}

static void
test_board_commands (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tickscope-cli-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "fetched.txt", NULL);
  g_auto(TksCliResult) trigger = { 0 };
  g_auto(TksCliResult) fetch = { 0 };
  g_auto(TksCliResult) run = { 0 };
  g_auto(TksCliResult) info = { 0 };
  g_auto(TksCliResult) refused = { 0 };

  if (!HAVE_SIMBOARD)
    {
      g_test_skip ("built without the simulated board");
      return;
    }

  /* The simulated board, in-process: trigger, fetch, run as a script would; its dump has
   * every kind of event. */
  trigger = tks_run_cli (NULL, "trigger", "demo", NULL);
  g_assert_cmpint (trigger.status, ==, 0);
  g_assert_true (g_str_has_prefix (trigger.out, "Trigger set by "));

  fetch = tks_run_cli (NULL, "fetch", "demo", "-o", out, "--no-history", "-q", NULL);
  g_assert_cmpint (fetch.status, ==, 0);
  info = tks_run_cli (NULL, "info", out, NULL);
  g_assert_cmpint (info.status, ==, 0);
  g_assert_nonnull (strstr (info.out, "Records:"));
  g_assert_null (strstr (info.out, "Records:           0\n"));
  g_assert_nonnull (strstr (info.out, "Events:            dump version 2, counter 168000000 Hz"));

  run = tks_run_cli (NULL, "run", "demo", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, "Run mode\n");

  /* Nothing listens on port 1. */
  refused = tks_run_cli (NULL, "fetch", "tcp:127.0.0.1:1", "-o", out, NULL);
  g_assert_cmpint (refused.status, ==, 1);
  g_assert_nonnull (strstr (refused.err, "refused"));

  g_unlink (out);
  g_rmdir (dir);
}

/* A user who asks for French gets tickscope-cli in French, from the translations of its build
 * tree: errors, labels, states and warnings; the numbers stay as scripts read them. */
static void
test_french (void)
{
  g_autofree char *missing = data_path ("no-such-capture.txt");
  g_autofree char *path = data_path ("board-trigger-exits.raw.txt");
  g_auto(TksCliResult) error = tks_run_cli_in ("fr", NULL, "info", missing, NULL);
  g_auto(TksCliResult) info = tks_run_cli_in ("fr", NULL, "info", path, NULL);
  g_auto(TksCliResult) usage = tks_run_cli_in ("fr", NULL, "info", NULL);
  g_auto(TksCliResult) english = tks_run_cli (NULL, "info", missing, NULL);

  g_assert_cmpint (error.status, ==, 1);
  g_assert_nonnull (strstr (error.err, "tickscope-cli: Impossible d’ouvrir « "));
  g_assert_nonnull (strstr (error.err, "no-such-capture.txt » : "));
  g_assert_null (strstr (error.err, "Cannot open"));
  /* without a language, the same error in English */
  g_assert_nonnull (strstr (english.err, "Cannot open “"));

  g_assert_cmpint (info.status, ==, 0);
  g_assert_nonnull (strstr (info.out, "Enregistrements :       3000\n"));
  g_assert_nonnull (strstr (info.out, "Threads :               29 (journalisés : 29, "
                                      "terminés pendant la capture : 16)\n"));
  g_assert_nonnull (strstr (info.out, "Déclencheur :           tick 17154, armé par Shell command\n"));
  g_assert_nonnull (strstr (info.out, "Lignes, de la plus haute priorité à la plus basse :\n"));
  g_assert_nonnull (strstr (info.out, "  prio  nom                      ordre journal exécutions  état\n"));
  g_assert_nonnull (strstr (info.out, "oui"));
  g_assert_nonnull (strstr (info.out, "terminé après la fin du journal\n"));
  g_assert_nonnull (strstr (info.out, "Avertissements :        0\n"));
  g_assert_null (strstr (info.out, "Records:"));

  g_assert_cmpint (usage.status, ==, 2);
  g_assert_nonnull (strstr (usage.err, "Utilisation : tickscope-cli info FILE\n"));
}

/* The core's messages too: what is wrong with a file, and the warnings of the reader and of
 * the rebuild. */
static void
test_french_core (void)
{
  static const char garbled[] =
    "threads_list\n"
    "Thread number  1 : Prio = 128, Log = Yes, Name = main\n"
    "Thread number  2 : Prio =   1, Log = Yes, Name = idle\n"
    "ch> threads_timestamps\n"
    "From  1 to  2 at     100\n"
    "From garbage\n"
    "From  2 to  1 at     110\n"
    "From  2 to  1 at     110\n"
    "ch> \n";
  g_auto(TksCliResult) not_capture = tks_run_cli_in ("fr", "hello\n", "info", "-", NULL);
  g_auto(TksCliResult) warned = tks_run_cli_in ("fr", garbled, "info", "-", NULL);

  g_assert_cmpint (not_capture.status, ==, 1);
  g_assert_nonnull (strstr (not_capture.err, "« entrée standard » : Ce n’est pas une capture de "
                                             "threads : elle ne contient ni réponse à threads_list"));
  g_assert_null (strstr (not_capture.err, "This is not"));

  g_assert_cmpint (warned.status, ==, 0);
  g_assert_nonnull (strstr (warned.out, "Avertissements :        2\n"));
  g_assert_nonnull (strstr (warned.out, "ligne 6 : avertissement : ligne illisible du journal, "
                                        "ignorée : « From garbage »"));
  g_assert_nonnull (strstr (warned.out, "ligne 8 : avertissement : ligne du journal répétée, "
                                        "ignorée"));
  g_assert_null (strstr (warned.out, "warning"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/info", test_info);
  g_test_add_func ("/cli/info/warnings", test_info_warnings);
  g_test_add_func ("/cli/info/capture-facts", test_info_capture_facts);
  g_test_add_func ("/cli/info/french", test_french);
  g_test_add_func ("/cli/info/french/core", test_french_core);
  g_test_add_func ("/cli/errors", test_errors);
  g_test_add_func ("/cli/convert", test_convert);
  g_test_add_func ("/cli/convert/damage", test_convert_damage);
  g_test_add_func ("/cli/escapes", test_escapes);
  g_test_add_func ("/cli/escapes/trigger-reply", test_trigger_reply_escaped);
  g_test_add_func ("/cli/output-errors", test_output_errors);
  g_test_add_func ("/cli/board-commands", test_board_commands);

  return g_test_run ();
}
