/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "tks-capture.h"
#include "tks-stats-row.h"
#include "tks-stats.h"
#include "tks-test-fixtures.h"

static TksCapture *
simple_capture (void)
{
  g_autoptr(GError) error = NULL;
  TksCapture *capture = tks_capture_new_from_data (tks_test_simple_transcript,
                                                   sizeof tks_test_simple_transcript - 1,
                                                   &error);

  g_assert_no_error (error);
  g_assert_nonnull (capture);
  return capture;
}

static const TksThread *
thread_named (TksCapture *capture,
              const char *name)
{
  guint i;

  for (i = 0; i < tks_capture_get_n_threads (capture); i++)
    {
      const TksThread *thread = tks_capture_get_thread (capture, i);

      if (g_strcmp0 (thread->name, name) == 0)
        return thread;
    }
  g_assert_not_reached ();
}

/* A row shows the core's figures as properties, for the table's sorters and cells. */
static void
test_properties (void)
{
  g_autoptr(TksCapture) capture = simple_capture ();
  const TksThread *worker = thread_named (capture, "worker");
  TksThreadStats stats;
  g_autoptr(TksStatsRow) row = NULL;
  g_autofree char *name = NULL;
  int priority;
  guint lane, activations;
  double run_time, share, max_run, mean_run, longest_wait;

  /* worker runs [102, 103] and [103.5, 106] */
  tks_thread_stats_compute (worker, 100, 110, &stats);
  row = tks_stats_row_new (worker, 2, &stats);

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
  g_autoptr(TksCapture) capture = simple_capture ();
  const TksThread *worker = thread_named (capture, "worker");
  TksThreadStats stats;
  g_autoptr(TksStatsRow) row = NULL;
  double max_run, mean_run, longest_wait;
  guint activations;

  /* worker does not run in [106, 110) */
  tks_thread_stats_compute (worker, 106, 110, &stats);
  g_assert_true (isnan (stats.max_run));
  g_assert_true (isnan (stats.mean_run));
  g_assert_true (isnan (stats.longest_wait));
  row = tks_stats_row_new (worker, 0, &stats);

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
