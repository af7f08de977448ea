/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tickscope-cli stats and export, run as a user runs them. */
#include "config.h"

#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "tks-test-cli.h"
#include "tks-test-fixtures.h"


static void
test_stats (void)
{
  TksCliResult r = tks_run_cli (tks_test_simple_transcript, "stats", "-", "--from", "101", "--to", "104", NULL);
  g_auto(GStrv) lines = NULL;
  gboolean saw_worker = FALSE;

  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_nonnull (strstr (r.out, "Range:     101.000 to 104.000 ticks (3.000 ms at 1000 Hz)"));
  g_assert_nonnull (strstr (r.out, "Switches:  2 per tick at most"));

  /* Rows in lane order: worker (130), main (128), idle (1); columns aligned. */
  lines = g_strsplit (r.out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "worker"))
        {
          g_auto(GStrv) cols = g_strsplit_set (lines[i], " ", -1);
          g_autoptr(GPtrArray) words = g_ptr_array_new ();

          for (guint c = 0; cols[c] != NULL; c++)
            if (cols[c][0] != '\0')
              g_ptr_array_add (words, cols[c]);
          /* worker: [102,103] and [103.5,104] inside the range */
          g_assert_cmpuint (words->len, >=, 9);
          g_assert_cmpstr (words->pdata[1], ==, "130");
          g_assert_cmpstr (words->pdata[2], ==, "1.500");
          g_assert_cmpstr (words->pdata[3], ==, "50.00");
          g_assert_cmpstr (words->pdata[4], ==, "2");
          g_assert_cmpstr (words->pdata[5], ==, "0.500");
          g_assert_cmpstr (words->pdata[7], ==, "1.000");
          g_assert_cmpstr (words->pdata[8], ==, "0.500");
          g_assert_true (g_str_has_prefix (lines[i + 1], "main"));
          g_assert_true (g_str_has_prefix (lines[i + 2], "idle"));
          g_assert_cmpuint (strlen (lines[i - 1]), >=, strlen ("Thread  Prio  Run ms"));
          g_assert_cmpint (strstr (lines[i - 1], "Prio") - lines[i - 1] + 4, ==,
                           strstr (lines[i], "130") - lines[i] + 3);
          saw_worker = TRUE;
          break;
        }
    }
  g_assert_true (saw_worker);
  tks_cli_result_clear (&r);

  /* Half a tick per millisecond at 2000 Hz. */
  r = tks_run_cli (tks_test_simple_transcript, "stats", "-", "--tick-hz", "2000", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, " at 2000 Hz)"));
  tks_cli_result_clear (&r);
}

static void
test_stats_errors (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data",
                                                 "board-run-mode.raw.txt", NULL);
  TksCliResult r;

  r = tks_run_cli (NULL, "stats", path, "--from", "30000", "--to", "20000", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "range"));
  tks_cli_result_clear (&r);

  r = tks_run_cli (NULL, "stats", NULL);
  g_assert_cmpint (r.status, ==, 2);
  tks_cli_result_clear (&r);

  r = tks_run_cli (NULL, "stats", "/nonexistent/capture.txt", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpstr (r.err, !=, "");
  tks_cli_result_clear (&r);

  r = tks_run_cli ("nothing to see here\r\n", "stats", "-", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpstr (r.err, !=, "");
  tks_cli_result_clear (&r);

  r = tks_run_cli (NULL, "stats", "--help", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "--from"));
  tks_cli_result_clear (&r);

  r = tks_run_cli (NULL, "stats", path, "--bogus", NULL);
  g_assert_cmpint (r.status, ==, 2);
  tks_cli_result_clear (&r);
}

static void
test_export_formats (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data",
                                                 "board-trigger-exits.raw.txt", NULL);
  g_autofree char *dir = g_dir_make_tmp ("tickscope-cli-XXXXXX", NULL);
  g_autofree char *out_path = g_build_filename (dir, "trace.json", NULL);
  g_autofree char *written = NULL;
  TksCliResult r;

  r = tks_run_cli (NULL, "export", path, "--format", "perfetto", "-o", out_path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_true (g_file_get_contents (out_path, &written, NULL, NULL));
  g_assert_true (g_str_has_prefix (written, "{\"displayTimeUnit\""));
  g_assert_nonnull (strstr (written, "\"thread_sort_index\""));
  tks_cli_result_clear (&r);

  r = tks_run_cli (tks_test_simple_transcript, "export", "-", "-f", "csv", "-o", "-", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "kind,thread,priority,creation_order,begin,end\r\n"));
  g_assert_nonnull (strstr (r.out, "\r\nrun,worker,130,2,103.5,106\r\n"));
  tks_cli_result_clear (&r);

  r = tks_run_cli (tks_test_simple_transcript, "export", "-", "--format", "ftrace", "--tick-hz", "10000", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "# tracer: nop\n"));
  /* tick 103.5 at 10 kHz */
  g_assert_nonnull (strstr (r.out, " 0.010350: sched_switch: prev_comm=main prev_pid=1"));
  tks_cli_result_clear (&r);

  g_unlink (out_path);
  g_rmdir (dir);
}

/* An export names where the capture comes from: the source the file gives, else the file's
 * name, else "standard input". */
static void
test_export_source (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data",
                                                 "board-trigger-exits.raw.txt", NULL);
  g_autofree char *named = g_strconcat ("Saved position\n0.0\n1.0\n0.0\n1.0\nTickscope capture 1\n"
                                        "Tickscope source tcp:board:29001\n",
                                        tks_test_simple_transcript, NULL);
  TksCliResult r;

  r = tks_run_cli (NULL, "export", path, "--format", "perfetto", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, ",\"source\":\"board-trigger-exits.raw.txt\""));
  tks_cli_result_clear (&r);

  r = tks_run_cli (tks_test_simple_transcript, "export", "-", "--format", "perfetto", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, ",\"source\":\"standard input\""));
  tks_cli_result_clear (&r);

  r = tks_run_cli (named, "export", "-", "--format", "perfetto", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, ",\"source\":\"tcp:board:29001\""));
  tks_cli_result_clear (&r);
}

static void
test_export_errors (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data",
                                                 "board-run-mode.raw.txt", NULL);
  TksCliResult r;

  r = tks_run_cli (NULL, "export", path, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "--format"));
  tks_cli_result_clear (&r);

  r = tks_run_cli (NULL, "export", path, "--format", "xml", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "xml"));
  tks_cli_result_clear (&r);

  r = tks_run_cli (NULL, "export", path, "--format", "csv", "--tick-hz", "-3", NULL);
  g_assert_cmpint (r.status, ==, 2);
  tks_cli_result_clear (&r);

  r = tks_run_cli ("garbage", "export", "-", "--format", "csv", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpstr (r.out, ==, "");
  tks_cli_result_clear (&r);

  r = tks_run_cli (NULL, "export", path, "--format", "csv", "-o", "/nonexistent/dir/out.csv", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpstr (r.err, !=, "");
  tks_cli_result_clear (&r);
}

/* Numbers that are no numbers, and tick rates no board has, are refused before anything is
 * read. */
static void
test_number_options (void)
{
  static const char * const cases[][3] = {
    { "stats", "--tick-hz", "0" }, { "stats", "--tick-hz", "nan" }, { "stats", "--tick-hz", "-5" },
    { "stats", "--tick-hz", "1e-300" }, { "stats", "--tick-hz", "1e300" },
    { "stats", "--tick-hz", "inf" }, { "stats", "--tick-hz", "10x" },
    { "stats", "--from", "nan" }, { "stats", "--to", "inf" }, { "stats", "--from", "-inf" },
    { "stats", "--to", "12abc" },
    { "export", "--tick-hz", "0" }, { "export", "--tick-hz", "nan" },
    { "export", "--tick-hz", "4.9e-324" },
    { "stats", "--from", "1e308" }, { "stats", "--to", "-1e300" },
    { "stats", "--bucket-us", "0" }, { "stats", "--bucket-us", "1e-300" },
    { "stats", "--bucket-us", "inf" }, { "stats", "--bucket-us", "1e300" },
    { "stats", "--bucket-us", "nan" },
  };

  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data",
                                                 "board-run-mode.raw.txt", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gboolean export = strcmp (cases[i][0], "export") == 0;
      g_auto(TksCliResult) r = tks_run_cli (NULL, cases[i][0], path, cases[i][1], cases[i][2],
                                            export ? "--format" : NULL, "csv", NULL);
      g_autofree char *expected = g_strdup_printf ("tickscope-cli %s: %s must be", cases[i][0],
                                                   cases[i][1]);

      g_test_message ("%s %s %s", cases[i][0], cases[i][1], cases[i][2]);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_nonnull (strstr (r.err, expected));
      g_assert_cmpstr (r.out, ==, "");
    }
}

/* Every number option of the commands that talk to a board is range-checked before the board
 * is asked: exit status 2 and a message naming the option (the port here takes no connection:
 * a value let through would end in exit status 1 instead). */
static void
test_board_number_options (void)
{
  static const char * const cases[][3] = {
    { "record", "--duration", "inf" }, { "record", "--duration", "1e308" },
    { "record", "--duration", "1e13" }, { "record", "--duration", "-1" },
    { "record", "--duration", "nan" }, { "record", "--duration", "0" },
    { "record", "--duration", "-inf" }, { "record", "--duration", "5s" },
    { "record", "--baud", "0" }, { "record", "--baud", "-5" }, { "record", "--baud", "1e12" },
    { "record", "--baud", "9600.5" }, { "record", "--baud", "nan" },
    { "fetch", "--timeout", "nan" }, { "fetch", "--timeout", "inf" },
    { "fetch", "--timeout", "-1" }, { "fetch", "--timeout", "1e9" },
    { "fetch", "--baud", "99999999999" }, { "trigger", "--timeout", "0" },
    { "trigger", "--timeout", "1e308" }, { "run", "--baud", "nan" }, { "run", "--baud", "-1" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gboolean output = strcmp (cases[i][0], "record") == 0 || strcmp (cases[i][0], "fetch") == 0;
      g_autofree char *path = g_build_filename (g_get_tmp_dir (), "tks-test-number-option.txt",
                                                NULL);
      g_auto(TksCliResult) r = tks_run_cli (NULL, cases[i][0], "tcp:127.0.0.1:1", cases[i][1],
                                            cases[i][2], output ? "-o" : NULL, path, NULL);
      g_autofree char *expected = g_strdup_printf ("tickscope-cli %s: %s must be", cases[i][0],
                                                   cases[i][1]);

      g_test_message ("%s %s %s: %s", cases[i][0], cases[i][1], cases[i][2], r.err);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_nonnull (strstr (r.err, expected));
      g_assert_cmpstr (r.out, ==, "");
      g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    }
}

/* A thread named like a formula cannot run in a spreadsheet, and names and warnings reach the
 * terminal without control characters. */
static void
test_hostile_names (void)
{
  static const char text[] =
    "threads_list\n"
    "Thread number  1 : Prio = 128, Log = Yes, Name = =HYPERLINK(\"http://x\",\"y\")\n"
    "Thread number  2 : Prio =   1, Log = Yes, Name = -2+3\n"
    "Thread number  3 : Prio =   2, Log = Yes, Name = @SUM(A1)\x1b[31m\n"
    "Thread number  4 : Prio =   3, Log = Yes, Name = -42\n"
    "Deleted threads: \nch> \nthreads_timestamps\n"
    "From  1 to  2 at       5\nFrom  2 to  3 at       6\nFrom  3 to  4 at       7\n"
    "From  4 to  1 at       8\nch> \n";
  g_auto(TksCliResult) csv = tks_run_cli (text, "export", "-", "--format", "csv", NULL);
  g_auto(TksCliResult) stats = tks_run_cli (text, "stats", "-", NULL);

  g_assert_cmpint (csv.status, ==, 0);
  g_assert_nonnull (strstr (csv.out, "\r\nrun,\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",128,"));
  g_assert_nonnull (strstr (csv.out, "\r\nrun,'-2+3,1,"));
  g_assert_nonnull (strstr (csv.out, "\r\nrun,'@SUM(A1)"));
  g_assert_nonnull (strstr (csv.out, "\r\nrun,-42,3,"));

  g_assert_cmpint (stats.status, ==, 0);
  g_assert_null (strchr (stats.out, '\x1b'));
  g_assert_nonnull (strstr (stats.out, "@SUM(A1)\\x1b[31m"));
}

/* An export that cannot be written is an error, whether to a file or to standard output. */
static void
test_export_output_errors (void)
{
  /* A link to the device: a writer that replaced its target by a file (as root, the device
   * node itself) replaces only the link. */
  g_autofree char *dir = g_dir_make_tmp ("tickscope-cli-XXXXXX", NULL);
  g_autofree char *full = g_build_filename (dir, "full", NULL);
  g_auto(TksCliResult) to_file = { 0 };
  g_auto(TksCliResult) to_stdout = tks_run_cli_to ("/dev/full", tks_test_simple_transcript,
                                                   "export", "-", "--format", "perfetto", NULL);
  g_auto(TksCliResult) stats = tks_run_cli_to ("/dev/full", tks_test_simple_transcript,
                                               "stats", "-", NULL);

  g_assert_cmpint (symlink ("/dev/full", full), ==, 0);
  to_file = tks_run_cli (tks_test_simple_transcript, "export", "-", "--format", "ftrace",
                         "-o", full, NULL);
  g_assert_cmpint (to_file.status, ==, 1);
  g_assert_nonnull (strstr (to_file.err, "No space left on device"));
  g_unlink (full);
  g_rmdir (dir);
  g_assert_cmpint (to_stdout.status, ==, 1);
  g_assert_nonnull (strstr (to_stdout.err, "No space left on device"));
  g_assert_cmpint (stats.status, ==, 1);
  g_assert_nonnull (strstr (stats.err, "cannot write standard output"));
}

/* Exports are written as they are made, with names cut: their memory does not grow with the
 * export. Measured: the peak resident set of tickscope-cli exporting a capture of 2 threads
 * with 8,000-byte names and 40,000 records (each line of a whole-name ftrace export would be
 * 16 KB, 640 MB in all). */
static void
test_export_memory (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tickscope-cli-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "long-names.txt", NULL);
  g_autoptr(GString) text = g_string_new ("threads_list\n");
  g_autofree char *paraver = g_build_filename (dir, "memory", NULL);
  static const char * const formats[] = { "ftrace", "csv", "perfetto", "vcd", "paraver" };

  for (guint t = 1; t <= 2; t++)
    {
      g_string_append_printf (text, "Thread number  %u : Prio = %3u, Log = Yes, Name = ", t, 10 * t);
      for (guint i = 0; i < 8000; i++)
        g_string_append_c (text, 'a' + (i + t) % 26);
      g_string_append_c (text, '\n');
    }
  g_string_append (text, "Deleted threads: \nch> \nthreads_timestamps\n");
  for (guint i = 0; i < 40000; i += 2)
    g_string_append_printf (text, "From  1 to  2 at %7u\nFrom  2 to  1 at %7u\n", i, i + 1);
  g_string_append (text, "ch> \n");
  g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      gboolean files = g_str_equal (formats[f], "paraver");
      const char *argv[] = { TICKSCOPE_CLI, "export", path, "--format", formats[f], "-o",
                             files ? paraver : "/dev/null", NULL };
      struct rusage usage;
      GPid pid;
      int status = 0;

      g_assert_true (g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                    NULL, NULL, &pid, NULL));
      g_assert_cmpint (wait4 (pid, &status, 0, &usage), ==, pid);
      g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
      g_test_message ("%s: peak resident set %ld KiB", formats[f], usage.ru_maxrss);
      g_assert_cmpint (usage.ru_maxrss, <, 64 * 1024);
    }

  for (const char *suffix = ".prv"; suffix != NULL;
       suffix = g_str_equal (suffix, ".prv") ? ".pcf" : g_str_equal (suffix, ".pcf") ? ".row" : NULL)
    {
      g_autofree char *file = g_strconcat (paraver, suffix, NULL);

      g_unlink (file);
    }
  g_unlink (path);
  g_rmdir (dir);
}

/* Paraver's three files from -o NAME or NAME.prv; without -o, or to standard output, a
 * misuse that writes nothing. VCD like any one-file format. */
static void
test_export_paraver_vcd (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "board-events-v2.raw.txt",
                                                 NULL);
  g_autofree char *dir = g_dir_make_tmp ("tickscope-cli-XXXXXX", NULL);
  g_autofree char *bare = g_build_filename (dir, "trace", NULL);
  g_autofree char *named = g_build_filename (dir, "named.prv", NULL);
  static const char * const suffixes[] = { ".prv", ".pcf", ".row" };
  TksCliResult r;

  r = tks_run_cli (NULL, "export", path, "--format", "paraver", "-o", bare, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "");
  tks_cli_result_clear (&r);
  r = tks_run_cli (NULL, "export", path, "-f", "paraver", "-o", named, NULL);
  g_assert_cmpint (r.status, ==, 0);
  tks_cli_result_clear (&r);
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *a = g_strconcat (bare, suffixes[i], NULL);
      g_autofree char *b = g_build_filename (dir, "named", NULL);
      g_autofree char *b_file = g_strconcat (b, suffixes[i], NULL);
      g_autofree char *text = NULL;

      g_assert_true (g_file_get_contents (a, &text, NULL, NULL));
      if (i == 0)
        g_assert_true (g_str_has_prefix (text, "#Paraver ("));
      else if (i == 1)
        g_assert_nonnull (strstr (text, "USART1_IRQHandler"));
      else
        g_assert_nonnull (strstr (text, "LEVEL THREAD SIZE 5\nmain\nidle\nsensor\n"));
      g_assert_true (g_file_test (b_file, G_FILE_TEST_IS_REGULAR));
      g_unlink (a);
      g_unlink (b_file);
    }

  r = tks_run_cli (NULL, "export", path, "--format", "paraver", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "-o NAME"));
  g_assert_cmpstr (r.out, ==, "");
  tks_cli_result_clear (&r);
  r = tks_run_cli (NULL, "export", path, "--format", "paraver", "-o", "-", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.out, ==, "");
  tks_cli_result_clear (&r);
  r = tks_run_cli ("garbage", "export", "-", "--format", "paraver", "-o", bare, NULL);
  g_assert_cmpint (r.status, ==, 1);
  {
    g_autofree char *prv = g_strconcat (bare, ".prv", NULL);

    g_assert_false (g_file_test (prv, G_FILE_TEST_EXISTS));
  }
  tks_cli_result_clear (&r);

  r = tks_run_cli (NULL, "export", path, "--format", "vcd", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "$date\n"));
  g_assert_nonnull (strstr (r.out, "\n$timescale 1 ns $end\n"));
  g_assert_nonnull (strstr (r.out, "\n$var wire 1 $ USART1_IRQHandler $end\n"));
  g_assert_nonnull (strstr (r.out, "\n$var integer 32 % tick $end\n"));
  tks_cli_result_clear (&r);
  g_rmdir (dir);
}

/* export --help lists every format on a line of its own, and so does the man page. */
static void
test_export_help (void)
{
  g_autofree char *man_path = g_test_build_filename (G_TEST_DIST, "..", "docs", "man",
                                                     "tickscope-cli.1", NULL);
  g_autofree char *man = NULL;
  static const char * const formats[] = { "perfetto", "csv", "ftrace", "paraver", "vcd" };
  TksCliResult r = tks_run_cli (NULL, "export", "--help", NULL);
  TksCliResult usage = tks_run_cli (NULL, "--help", NULL);

  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_file_get_contents (man_path, &man, NULL, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *line = g_strdup_printf ("\n  %-10s", formats[i]);
      g_autofree char *man_line = g_strdup_printf ("\n.B %s\n", formats[i]);
      TksCliResult unknown;

      g_assert_nonnull (strstr (r.out, line));
      g_assert_nonnull (strstr (usage.out, formats[i]));
      g_assert_nonnull (strstr (man, man_line));
      unknown = tks_run_cli (NULL, "export", "-", "--format", "xml", NULL);
      g_assert_nonnull (strstr (unknown.err, formats[i]));
      tks_cli_result_clear (&unknown);
    }
  tks_cli_result_clear (&r);
  tks_cli_result_clear (&usage);
}

/* find: the matches' times and what they are, grep's exit status, a wrong expression named */
static void
test_find (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "board-events-v2.raw.txt", NULL);
  g_auto(TksCliResult) r = tks_run_cli (NULL, "find", path, "latency > 25us", NULL);

  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
                   "+2.001000 ms  tick 3.001  wake-up of sensor, latency 30.0 µs\n"
                   "+3.001000 ms  tick 4.001  wake-up of sensor, latency 40.0 µs\n"
                   "+4.001000 ms  tick 5.001  wake-up of sensor, latency 1.000 ms\n");
  g_assert_cmpstr (r.err, ==, "3 matches: wake-ups with a wake-up's latency > 25 µs\n");
  tks_cli_result_clear (&r);

  r = tks_run_cli (NULL, "find", path, "marker tick = 8", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, "+19.100000 ms  tick 20.100  marker tick, value 8\n");
  tks_cli_result_clear (&r);

  /* nothing matched: 1 */
  r = tks_run_cli (NULL, "find", path, "irq USART2", NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_cmpstr (r.err, ==, "0 matches: handlers of “usart2”\n");
  tks_cli_result_clear (&r);

  /* a wrong expression, arguments, a file: 2 */
  r = tks_run_cli (NULL, "find", path, "run > 2 parsecs", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.err, ==, "tickscope-cli: Unknown unit “parsecs” at column 9: use ns, us, ms, s or ticks\n");
  tks_cli_result_clear (&r);
  r = tks_run_cli (NULL, "find", path, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_true (g_str_has_prefix (r.err, "Usage: tickscope-cli find FILE EXPRESSION"));
  tks_cli_result_clear (&r);
  r = tks_run_cli (NULL, "find", "/nonexistent/capture.txt", "irq", NULL);
  g_assert_cmpint (r.status, ==, 2);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/stats", test_stats);
  g_test_add_func ("/cli/find", test_find);
  g_test_add_func ("/cli/stats/errors", test_stats_errors);
  g_test_add_func ("/cli/export/formats", test_export_formats);
  g_test_add_func ("/cli/export/errors", test_export_errors);
  g_test_add_func ("/cli/export/source", test_export_source);
  g_test_add_func ("/cli/number-options", test_number_options);
  g_test_add_func ("/cli/board-number-options", test_board_number_options);
  g_test_add_func ("/cli/hostile-names", test_hostile_names);
  g_test_add_func ("/cli/export/output-errors", test_export_output_errors);
  g_test_add_func ("/cli/export/memory", test_export_memory);
  g_test_add_func ("/cli/export/paraver-vcd", test_export_paraver_vcd);
  g_test_add_func ("/cli/export/help", test_export_help);

  return g_test_run ();
}
