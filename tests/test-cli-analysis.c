/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tickscope-cli stats and export, run as a user runs them. */
#include "config.h"

#include <string.h>

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
  g_autofree char *path = g_build_filename (TEST_DATA_DIR, "board-run-mode.raw.txt", NULL);
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
  g_autofree char *path = g_build_filename (TEST_DATA_DIR, "board-trigger-exits.raw.txt", NULL);
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

static void
test_export_errors (void)
{
  g_autofree char *path = g_build_filename (TEST_DATA_DIR, "board-run-mode.raw.txt", NULL);
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

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/stats", test_stats);
  g_test_add_func ("/cli/stats/errors", test_stats_errors);
  g_test_add_func ("/cli/export/formats", test_export_formats);
  g_test_add_func ("/cli/export/errors", test_export_errors);

  return g_test_run ();
}
