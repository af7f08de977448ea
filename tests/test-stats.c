/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tks-capture.h"
#include "tks-error.h"
#include "tks-stats.h"
#include "tks-test-data.h"
#include "tks-test-fixtures.h"


/*
 * A dynamic thread that exits, and a thread that is not logged.
 *
 *   200    main → job
 *   204    job exits            (placed at 204)
 *   204    0 → idle             (placed at 204.5)
 *   207    idle → quiet         (quiet is not logged: an IN mark)
 *   209    quiet → main         (an OUT mark)
 *   211    main → idle
 */
static const char exit_transcript[] =
  "threads_list\r\n"
  "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
  "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
  "Thread number  3 : Prio =  20, Log =  No, Name = quiet\r\n"
  "Deleted threads: \r\n"
  "Thread number  4 : Prio = 140, Log = Yes, Name = Exited dynamic thread\r\n"
  "ch> threads_timestamps\r\n"
  "From  1 to  4 at     200\r\n"
  "From  4 to  4 at     204\r\n"
  "From  0 to  2 at     204\r\n"
  "From  2 to  3 at     207\r\n"
  "From  3 to  1 at     209\r\n"
  "From  1 to  2 at     211\r\n"
  "ch> ";

#define EPS 1e-9

static TksCapture *
load (const char *text)
{
  return tks_test_capture_of_text (text, -1);
}

static int
find_thread (TksCapture *capture,
             const char *name)
{
  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    {
      const TksThread *t = tks_capture_get_thread (capture, i);

      if (g_strcmp0 (t->name, name) == 0)
        return (int) i;
    }

  g_assert_not_reached ();
  return -1;
}

static const TksThreadStats *
stats_of (GArray     *stats,
          TksCapture *capture,
          const char *name)
{
  return &g_array_index (stats, TksThreadStats, find_thread (capture, name));
}

static void
test_stats_whole_capture (void)
{
  g_autoptr(TksCapture) capture = load (tks_test_simple_transcript);
  g_autoptr(GArray) stats = NULL;
  g_autoptr(GError) error = NULL;
  TksStatsTotals totals;
  const TksThreadStats *s;
  double start = tks_capture_get_start (capture);
  double end = tks_capture_get_end (capture);
  double main_tail;

  g_assert_cmpfloat_with_epsilon (start, 100, EPS);
  g_assert_cmpfloat (end, >=, 110);
  main_tail = end - 110;

  stats = tks_stats_compute (capture, NAN, NAN, &totals, &error);
  g_assert_no_error (error);
  g_assert_nonnull (stats);
  g_assert_cmpuint (stats->len, ==, 3);
  g_assert_cmpfloat_with_epsilon (totals.from, start, EPS);
  g_assert_cmpfloat_with_epsilon (totals.to, end, EPS);
  g_assert_cmpfloat_with_epsilon (totals.duration, end - 100, EPS);
  g_assert_cmpuint (totals.n_threads, ==, 3);
  g_assert_cmpuint (totals.n_logged_threads, ==, 3);
  g_assert_cmpuint (totals.max_switches_per_tick, ==, 2);
  g_assert_cmpuint (totals.exits, ==, 0);

  /* idle: [100,102] and [106,110] */
  s = stats_of (stats, capture, "idle");
  g_assert_cmpfloat_with_epsilon (s->run_time, 6, EPS);
  g_assert_cmpfloat_with_epsilon (s->share, 600.0 / (end - 100), EPS);
  g_assert_cmpuint (s->activations, ==, 2);
  g_assert_cmpuint (s->n_pieces, ==, 2);
  g_assert_cmpfloat_with_epsilon (s->min_run, 2, EPS);
  g_assert_cmpfloat_with_epsilon (s->mean_run, 3, EPS);
  g_assert_cmpfloat_with_epsilon (s->max_run, 4, EPS);
  g_assert_cmpfloat_with_epsilon (s->longest_wait, 4, EPS);
  g_assert_cmpfloat_with_epsilon (s->longest_wait_begin, 102, EPS);
  g_assert_cmpuint (s->n_in_marks + s->n_out_marks, ==, 0);

  /* worker: [102,103] and [103.5,106] */
  s = stats_of (stats, capture, "worker");
  g_assert_cmpfloat_with_epsilon (s->run_time, 3.5, EPS);
  g_assert_cmpuint (s->activations, ==, 2);
  g_assert_cmpfloat_with_epsilon (s->min_run, 1, EPS);
  g_assert_cmpfloat_with_epsilon (s->mean_run, 1.75, EPS);
  g_assert_cmpfloat_with_epsilon (s->max_run, 2.5, EPS);
  g_assert_cmpfloat_with_epsilon (s->longest_wait, 0.5, EPS);
  g_assert_cmpfloat_with_epsilon (s->longest_wait_begin, 103, EPS);

  /* main: [103,103.5] then from 110 to the end of the capture */
  s = stats_of (stats, capture, "main");
  g_assert_true (s->flags & TKS_THREAD_RUNNING_AT_END);
  g_assert_cmpfloat_with_epsilon (s->run_time, 0.5 + main_tail, EPS);
  g_assert_cmpuint (s->activations, ==, main_tail > 0 ? 2 : 1);
  g_assert_cmpfloat_with_epsilon (s->min_run, MIN (0.5, main_tail > 0 ? main_tail : 0.5), EPS);
  if (main_tail > 0)
    g_assert_cmpfloat_with_epsilon (s->longest_wait, 110 - 103.5, EPS);

  /* Every instant from 100 to the end is covered by exactly one run. */
  g_assert_cmpfloat_with_epsilon (totals.busy_time, end - 100, EPS);
  g_assert_cmpfloat_with_epsilon (totals.covered_share, 100, 1e-6);
  g_assert_cmpuint (totals.activations, ==, 4 + (main_tail > 0 ? 2 : 1));
}

static void
test_stats_range_clips_runs (void)
{
  g_autoptr(TksCapture) capture = load (tks_test_simple_transcript);
  g_autoptr(GArray) stats = NULL;
  g_autoptr(GError) error = NULL;
  TksStatsTotals totals;
  const TksThreadStats *s;

  stats = tks_stats_compute (capture, 101, 104, &totals, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (totals.duration, 3, EPS);

  /* idle [100,102] → [101,102]: a piece, but not an activation (it began before 101) */
  s = stats_of (stats, capture, "idle");
  g_assert_cmpfloat_with_epsilon (s->run_time, 1, EPS);
  g_assert_cmpfloat_with_epsilon (s->share, 100.0 / 3, 1e-9);
  g_assert_cmpuint (s->activations, ==, 0);
  g_assert_cmpuint (s->n_pieces, ==, 1);
  g_assert_cmpfloat_with_epsilon (s->min_run, 1, EPS);
  g_assert_cmpfloat_with_epsilon (s->max_run, 1, EPS);
  g_assert_true (isnan (s->longest_wait));

  /* worker [102,103] and [103.5,106] → [103.5,104] */
  s = stats_of (stats, capture, "worker");
  g_assert_cmpfloat_with_epsilon (s->run_time, 1.5, EPS);
  g_assert_cmpfloat_with_epsilon (s->share, 50, 1e-9);
  g_assert_cmpuint (s->activations, ==, 2);
  g_assert_cmpfloat_with_epsilon (s->min_run, 0.5, EPS);
  g_assert_cmpfloat_with_epsilon (s->mean_run, 0.75, EPS);
  g_assert_cmpfloat_with_epsilon (s->max_run, 1, EPS);
  g_assert_cmpfloat_with_epsilon (s->longest_wait, 0.5, EPS);

  s = stats_of (stats, capture, "main");
  g_assert_cmpfloat_with_epsilon (s->run_time, 0.5, EPS);
  g_assert_cmpuint (s->activations, ==, 1);
  g_assert_true (isnan (s->longest_wait));

  g_assert_cmpfloat_with_epsilon (totals.busy_time, 3, EPS);
  g_assert_cmpuint (totals.activations, ==, 3);

  /* A range ending exactly where a run begins does not count that run. */
  g_clear_pointer (&stats, g_array_unref);
  stats = tks_stats_compute (capture, 100, 106, NULL, &error);
  g_assert_no_error (error);
  s = stats_of (stats, capture, "idle");
  g_assert_cmpfloat_with_epsilon (s->run_time, 2, EPS);
  g_assert_cmpuint (s->activations, ==, 1);
  g_assert_cmpuint (s->n_pieces, ==, 1);

  /* A range wider than the capture is clamped to it. */
  g_clear_pointer (&stats, g_array_unref);
  stats = tks_stats_compute (capture, 0, 1e9, &totals, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (totals.from, 100, EPS);
  g_assert_cmpfloat_with_epsilon (totals.to, tks_capture_get_end (capture), EPS);
}

static void
test_stats_exit_and_unlogged (void)
{
  g_autoptr(TksCapture) capture = load (exit_transcript);
  g_autoptr(GArray) stats = NULL;
  g_autoptr(GError) error = NULL;
  TksStatsTotals totals;
  const TksThreadStats *s;
  int job = -1;

  stats = tks_stats_compute (capture, NAN, NAN, &totals, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stats->len, ==, 4);
  g_assert_cmpuint (totals.n_logged_threads, ==, 3);
  g_assert_cmpuint (totals.exits, ==, 1);

  for (guint i = 0; i < stats->len; i++)
    if (tks_capture_get_thread (capture, i)->flags & TKS_THREAD_EXITED)
      job = (int) i;
  g_assert_cmpint (job, >=, 0);

  /* The exited thread ran [200,204] and exits inside the range. */
  s = &g_array_index (stats, TksThreadStats, job);
  g_assert_cmpfloat_with_epsilon (s->run_time, 4, EPS);
  g_assert_cmpuint (s->activations, ==, 1);
  g_assert_true (s->exits_in_range);

  /* idle comes in at 204.5, the second record of tick 204. */
  s = stats_of (stats, capture, "idle");
  g_assert_cmpuint (s->activations, ==, 2);
  g_assert_cmpfloat_with_epsilon (s->run_time, (207 - 204.5) + (tks_capture_get_end (capture) - 211), EPS);

  /* quiet is not logged: no runs, one IN and one OUT mark. */
  s = stats_of (stats, capture, "quiet");
  g_assert_false (s->flags & TKS_THREAD_LOGGED);
  g_assert_cmpfloat (s->run_time, ==, 0);
  g_assert_cmpuint (s->n_pieces, ==, 0);
  g_assert_cmpuint (s->n_in_marks, ==, 1);
  g_assert_cmpuint (s->n_out_marks, ==, 1);
  g_assert_true (isnan (s->min_run));

  /* Only the part before the exit: the exit is outside, quiet's marks too. */
  g_clear_pointer (&stats, g_array_unref);
  stats = tks_stats_compute (capture, 203, 204, &totals, &error);
  g_assert_no_error (error);
  s = &g_array_index (stats, TksThreadStats, job);
  g_assert_cmpfloat_with_epsilon (s->run_time, 1, EPS);
  g_assert_cmpuint (s->activations, ==, 0);
  g_assert_false (s->exits_in_range);
  g_assert_cmpuint (totals.exits, ==, 0);
  s = stats_of (stats, capture, "quiet");
  g_assert_cmpuint (s->n_in_marks + s->n_out_marks, ==, 0);

  /* The IN mark at 207 is inside [207,208), the OUT at 209 is not. */
  g_clear_pointer (&stats, g_array_unref);
  stats = tks_stats_compute (capture, 207, 208, NULL, &error);
  g_assert_no_error (error);
  s = stats_of (stats, capture, "quiet");
  g_assert_cmpuint (s->n_in_marks, ==, 1);
  g_assert_cmpuint (s->n_out_marks, ==, 0);
}

/* One thread on its own: the range is half-open, also at the end of the capture. */
static void
test_thread_stats_single (void)
{
  g_autoptr(TksCapture) capture = load (tks_test_simple_transcript);
  const TksThread *idle = tks_capture_get_thread (capture, (guint) find_thread (capture, "idle"));
  TksThreadStats s;

  tks_thread_stats_compute (idle, 100, 102, &s);
  g_assert_cmpuint (s.thread, ==, idle->index);
  g_assert_cmpfloat_with_epsilon (s.run_time, 2, EPS);
  g_assert_cmpfloat_with_epsilon (s.share, 100, EPS);
  g_assert_cmpuint (s.activations, ==, 1);

  tks_thread_stats_compute (idle, 101.5, 108, &s);
  g_assert_cmpfloat_with_epsilon (s.run_time, 0.5 + 2, EPS);
  g_assert_cmpuint (s.activations, ==, 1);
  g_assert_cmpuint (s.n_pieces, ==, 2);
  g_assert_cmpfloat_with_epsilon (s.longest_wait, 4, EPS);
  g_assert_cmpfloat_with_epsilon (s.longest_wait_begin, 102, EPS);
}

static void
test_stats_bad_ranges (void)
{
  g_autoptr(TksCapture) capture = load (tks_test_simple_transcript);
  g_autoptr(GError) error = NULL;
  GArray *stats;

  stats = tks_stats_compute (capture, 105, 104, NULL, &error);
  g_assert_null (stats);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_USAGE);
  g_clear_error (&error);

  stats = tks_stats_compute (capture, 5000, 6000, NULL, &error);
  g_assert_null (stats);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_USAGE);
  g_assert_nonnull (strstr (error->message, "outside"));
  g_clear_error (&error);

  stats = tks_stats_compute (capture, INFINITY, NAN, NULL, &error);
  g_assert_null (stats);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_USAGE);
  g_clear_error (&error);

  /* An empty range is allowed: everything is zero. */
  stats = tks_stats_compute (capture, 104, 104, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < stats->len; i++)
    {
      g_assert_cmpfloat (g_array_index (stats, TksThreadStats, i).run_time, ==, 0);
      g_assert_cmpfloat (g_array_index (stats, TksThreadStats, i).share, ==, 0);
    }
  g_array_unref (stats);
}

/* On real captures: the sum of run times over the capture equals the sum of run lengths, and
 * splitting the range in two adds up. */
static void
test_stats_real_capture (gconstpointer data)
{
  const char *name = data;
  g_autoptr(TksCapture) capture = tks_test_load_data (name);
  g_autoptr(GArray) all = NULL;
  g_autoptr(GArray) left = NULL;
  g_autoptr(GArray) right = NULL;
  g_autoptr(GError) error = NULL;
  TksStatsTotals totals;
  double start, end, mid;

  start = tks_capture_get_start (capture);
  end = tks_capture_get_end (capture);
  mid = start + (end - start) / 3;

  all = tks_stats_compute (capture, NAN, NAN, &totals, &error);
  g_assert_no_error (error);
  left = tks_stats_compute (capture, start, mid, NULL, &error);
  g_assert_no_error (error);
  right = tks_stats_compute (capture, mid, end, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (totals.max_switches_per_tick, >=, 1);
  g_assert_cmpfloat (totals.covered_share, <=, 100 + 1e-6);

  for (guint i = 0; i < all->len; i++)
    {
      const TksThread *t = tks_capture_get_thread (capture, i);
      const TksThreadStats *a = &g_array_index (all, TksThreadStats, i);
      const TksThreadStats *l = &g_array_index (left, TksThreadStats, i);
      const TksThreadStats *r = &g_array_index (right, TksThreadStats, i);
      double sum = 0;

      for (guint k = 0; k < t->n_runs; k++)
        sum += t->runs[k].end - t->runs[k].begin;

      g_assert_cmpfloat_with_epsilon (a->run_time, sum, 1e-6);
      g_assert_cmpfloat_with_epsilon (l->run_time + r->run_time, a->run_time, 1e-6);
      g_assert_cmpuint (l->activations + r->activations, ==, a->activations);
      g_assert_cmpuint (a->n_in_marks + a->n_out_marks, ==, t->n_marks);
      if (a->n_pieces > 0)
        {
          g_assert_cmpfloat (a->min_run, <=, a->mean_run + 1e-9);
          g_assert_cmpfloat (a->mean_run, <=, a->max_run + 1e-9);
        }
    }
}

/* After the log's end nothing is known: the whole-capture statistics stop there, and the
 * threads that exited before the log began are not counted as threads of it. */
static void
test_stats_log_end_and_gone_threads (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data",
                                                 "board-trigger-exits.raw.txt", NULL);
  g_autofree char *text = NULL;
  g_autofree char *stale = tks_test_read_with_stale_history (path, 40, &text);
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(TksCapture) gone = NULL;
  g_autoptr(GArray) stats = NULL;
  g_autoptr(GArray) gone_stats = NULL;
  g_autoptr(GError) error = NULL;
  TksStatsTotals totals, gone_totals;
  const TksThreadStats *idle;

  capture = load (text);
  stats = tks_stats_compute (capture, NAN, NAN, &totals, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (totals.to, ==, 17991);
  /* Busy all the time up to the log's end: every moment some logged thread ran. */
  g_assert_cmpfloat (totals.covered_share, >, 99.9);
  idle = &g_array_index (stats, TksThreadStats, find_thread (capture, "idle"));
  g_assert_cmpfloat_with_epsilon (idle->share, 100.0 * idle->run_time / (17991 - totals.from), EPS);

  gone = load (stale);
  gone_stats = tks_stats_compute (gone, NAN, NAN, &gone_totals, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (totals.n_threads, ==, 29);
  g_assert_cmpuint (gone_totals.n_threads, ==, 29);
  g_assert_cmpuint (gone_totals.activations, ==, totals.activations);
  g_assert_cmpfloat (gone_totals.busy_time, ==, totals.busy_time);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/stats/whole-capture", test_stats_whole_capture);
  g_test_add_func ("/stats/range-clips-runs", test_stats_range_clips_runs);
  g_test_add_func ("/stats/exit-and-unlogged", test_stats_exit_and_unlogged);
  g_test_add_func ("/stats/bad-ranges", test_stats_bad_ranges);
  g_test_add_func ("/stats/single-thread", test_thread_stats_single);
  g_test_add_func ("/stats/log-end-and-gone-threads", test_stats_log_end_and_gone_threads);
  g_test_add_data_func ("/stats/real/run-mode", "board-run-mode.raw.txt", test_stats_real_capture);
  g_test_add_data_func ("/stats/real/trigger-exits", "board-trigger-exits.raw.txt", test_stats_real_capture);
  g_test_add_data_func ("/stats/real/saved", "board-trigger-exits.saved.txt", test_stats_real_capture);
  g_test_add_data_func ("/stats/real/partly-logged", "board-partly-logged-trigger.raw.txt", test_stats_real_capture);
  g_test_add_data_func ("/stats/real/tick-wrap", "board-tick-wrap.raw.txt", test_stats_real_capture);

  return g_test_run ();
}
