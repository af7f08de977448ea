/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "tks-capture.h"
#include "tks-stats-row.h"
#include "tks-stats.h"
#include "tks-test-fixtures.h"
#include "tks-test-data.h"

/* The row of "worker" (runs [102, 103] and [103.5, 106]) over [from, to), and its figures. */
static TksStatsRow *
worker_row (double          from,
            double          to,
            guint           lane,
            TksThreadStats *stats)
{
  g_autoptr(TksCapture) capture = tks_test_capture_of_text (tks_test_simple_transcript,
                                                            sizeof tks_test_simple_transcript - 1);
  const TksThread *worker;

  worker = tks_capture_get_thread (capture, 2);
  g_assert_cmpstr (worker->name, ==, "worker");
  tks_thread_stats_compute (worker, from, to, stats);
  return tks_stats_row_new (worker, lane, stats);
}

/* A row shows the core's figures as properties, for the table's sorters and cells. */
static void
test_properties (void)
{
  TksThreadStats stats;
  g_autoptr(TksStatsRow) row = worker_row (100, 110, 2, &stats);
  g_autofree char *name = NULL;
  int priority;
  guint lane, activations;
  double run_time, share, min_run, max_run, mean_run, longest_wait;
  guint marks;

  g_object_get (row, "name", &name, "priority", &priority, "lane", &lane,
                "activations", &activations, "run-time", &run_time, "share", &share,
                "min-run", &min_run, "marks", &marks, "max-run", &max_run, "mean-run", &mean_run, "longest-wait", &longest_wait,
                NULL);
  g_assert_cmpstr (name, ==, "worker");
  g_assert_cmpstr (tks_stats_row_get_name (row), ==, "worker");
  g_assert_cmpint (priority, ==, 130);
  g_assert_cmpuint (lane, ==, 2);
  g_assert_cmpuint (tks_stats_row_get_lane (row), ==, 2);
  g_assert_cmpuint (activations, ==, 2);
  g_assert_cmpfloat_with_epsilon (run_time, 3.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (share, 35.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (min_run, 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (max_run, 2.5, 1e-9);
  /* worker is logged: it has runs, no IN or OUT marks */
  g_assert_cmpuint (marks, ==, 0);
  g_assert_cmpfloat_with_epsilon (mean_run, 1.75, 1e-9);
  g_assert_cmpfloat_with_epsilon (longest_wait, 0.5, 1e-9);
  /* the row keeps its own copy of the figures */
  stats.activations = 99;
  g_assert_cmpuint (tks_stats_row_get_stats (row)->activations, ==, 2);
}

/* Figures the core leaves undefined (no run in the range) read as 0, so that a sorter
 * never compares NaN. */
static void
test_undefined_reads_zero (void)
{
  TksThreadStats stats;
  /* worker does not run in [106, 110) */
  g_autoptr(TksStatsRow) row = worker_row (106, 110, 0, &stats);
  double min_run, max_run, mean_run, longest_wait;
  guint activations;

  g_assert_true (isnan (stats.min_run));
  g_assert_true (isnan (stats.max_run));
  g_assert_true (isnan (stats.mean_run));
  g_assert_true (isnan (stats.longest_wait));

  g_object_get (row, "activations", &activations, "max-run", &max_run, "mean-run", &mean_run,
                "longest-wait", &longest_wait, "min-run", &min_run, NULL);
  g_assert_cmpuint (activations, ==, 0);
  g_assert_cmpfloat (min_run, ==, 0);
  g_assert_cmpfloat (max_run, ==, 0);
  g_assert_cmpfloat (mean_run, ==, 0);
  g_assert_cmpfloat (longest_wait, ==, 0);
  g_assert_true (isnan (tks_stats_row_get_stats (row)->max_run));
}

/* A thread that is not logged: its IN and OUT marks in the range, as the "marks" property. */
static void
test_unlogged_marks (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data",
                                                 "board-partly-logged-trigger.raw.txt", NULL);
  g_autoptr(TksCapture) capture = tks_capture_new_from_file (path, &error);
  g_autoptr(GArray) stats = NULL;
  gboolean seen = FALSE;

  g_assert_no_error (error);
  stats = tks_stats_compute (capture, NAN, NAN, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < stats->len; i++)
    {
      const TksThread *thread = tks_capture_get_thread (capture, i);
      const TksThreadStats *s = &g_array_index (stats, TksThreadStats, i);
      g_autoptr(TksStatsRow) row = NULL;
      guint marks;

      if (g_strcmp0 (thread->name, "housekeep") != 0)
        continue;
      g_assert_false (thread->flags & TKS_THREAD_LOGGED);
      row = tks_stats_row_new (thread, 0, s);
      g_object_get (row, "marks", &marks, NULL);
      g_assert_cmpuint (s->n_in_marks, ==, 137);
      g_assert_cmpuint (s->n_out_marks, ==, 171);
      g_assert_cmpuint (marks, ==, 137 + 171);
      seen = TRUE;
    }
  g_assert_true (seen);
}

/* A line of the events' tables: its figures by column, a copy of its histogram, and the
 * order of a column's sorter (lines without a figure first, names by collation). */
static void
test_line (void)
{
  double values[] = { 5, NAN, 30.5 };
  guint counts[] = { 1, 0, 4 };
  g_autoptr(TksStatsLine) a = tks_stats_line_new ("sensor", values, G_N_ELEMENTS (values));
  g_autoptr(TksStatsLine) b = tks_stats_line_new ("filter", (double[]) { 7, 2, 30.5 }, 3);
  g_autoptr(TksStatsLine) none = tks_stats_line_new (NULL, NULL, 0);
  const guint *h;
  guint n = 99;
  double bucket = 0;

  values[0] = 99;
  counts[0] = 99;
  g_assert_cmpstr (tks_stats_line_get_name (a), ==, "sensor");
  g_assert_cmpstr (tks_stats_line_get_name (none), ==, "?");
  g_assert_cmpfloat (tks_stats_line_get_value (a, 0), ==, 5);
  g_assert_true (isnan (tks_stats_line_get_value (a, 1)));
  g_assert_true (isnan (tks_stats_line_get_value (a, 3)));
  g_assert_true (isnan (tks_stats_line_get_value (none, 0)));

  g_assert_null (tks_stats_line_get_histogram (a, &n, &bucket));
  g_assert_cmpuint (n, ==, 0);
  tks_stats_line_set_histogram (a, counts, 1, 0);
  counts[0] = 1;
  tks_stats_line_set_histogram (a, counts, G_N_ELEMENTS (counts), 12.5);
  counts[2] = 99;
  h = tks_stats_line_get_histogram (a, &n, &bucket);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpfloat (bucket, ==, 12.5);
  g_assert_cmpuint (h[0], ==, 1);
  g_assert_cmpuint (h[1], ==, 0);
  g_assert_cmpuint (h[2], ==, 4);

  g_assert_cmpint (tks_stats_line_compare (a, b, 0), <, 0);
  g_assert_cmpint (tks_stats_line_compare (b, a, 0), >, 0);
  g_assert_cmpint (tks_stats_line_compare (a, b, 2), ==, 0);
  /* no figure sorts first */
  g_assert_cmpint (tks_stats_line_compare (a, b, 1), <, 0);
  g_assert_cmpint (tks_stats_line_compare (b, a, 1), >, 0);
  g_assert_cmpint (tks_stats_line_compare (a, none, 1), ==, 0);
  g_assert_cmpint (tks_stats_line_compare (a, b, G_MAXUINT), >, 0);
  g_assert_cmpint (tks_stats_line_compare (b, b, G_MAXUINT), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/view/stats-row/properties", test_properties);
  g_test_add_func ("/view/stats-row/undefined-reads-zero", test_undefined_reads_zero);
  g_test_add_func ("/view/stats-row/unlogged-marks", test_unlogged_marks);
  g_test_add_func ("/view/stats-line", test_line);
  return g_test_run ();
}
