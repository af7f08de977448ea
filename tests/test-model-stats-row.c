/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "tks-capture.h"
#include "tks-stats-row.h"
#include "tks-stats.h"
#include "tks-test-fixtures.h"

/* The row of "worker" (runs [102, 103] and [103.5, 106]) over [from, to), and its figures. */
static TksStatsRow *
worker_row (double          from,
            double          to,
            guint           lane,
            TksThreadStats *stats)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = tks_capture_new_from_data (tks_test_simple_transcript,
                                                             sizeof tks_test_simple_transcript - 1,
                                                             &error);
  const TksThread *worker;

  g_assert_no_error (error);
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
  double run_time, share, max_run, mean_run, longest_wait;

  g_object_get (row, "name", &name, "priority", &priority, "lane", &lane,
                "activations", &activations, "run-time", &run_time, "share", &share,
                "max-run", &max_run, "mean-run", &mean_run, "longest-wait", &longest_wait,
                NULL);
  g_assert_cmpstr (name, ==, "worker");
  g_assert_cmpstr (tks_stats_row_get_name (row), ==, "worker");
  g_assert_cmpint (priority, ==, 130);
  g_assert_cmpuint (lane, ==, 2);
  g_assert_cmpuint (tks_stats_row_get_lane (row), ==, 2);
  g_assert_cmpuint (activations, ==, 2);
  g_assert_cmpfloat_with_epsilon (run_time, 3.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (share, 35.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (max_run, 2.5, 1e-9);
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
  double max_run, mean_run, longest_wait;
  guint activations;

  g_assert_true (isnan (stats.max_run));
  g_assert_true (isnan (stats.mean_run));
  g_assert_true (isnan (stats.longest_wait));

  g_object_get (row, "activations", &activations, "max-run", &max_run, "mean-run", &mean_run,
                "longest-wait", &longest_wait, NULL);
  g_assert_cmpuint (activations, ==, 0);
  g_assert_cmpfloat (max_run, ==, 0);
  g_assert_cmpfloat (mean_run, ==, 0);
  g_assert_cmpfloat (longest_wait, ==, 0);
  g_assert_true (isnan (tks_stats_row_get_stats (row)->max_run));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/view/stats-row/properties", test_properties);
  g_test_add_func ("/view/stats-row/undefined-reads-zero", test_undefined_reads_zero);
  return g_test_run ();
}
