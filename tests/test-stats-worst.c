/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The instances behind the statistics (tks_stats_worst()) against the simulated board's
 * truth: a thread's worst wake-ups, a handler's longest runs and a marker's longest intervals
 * are the truth's worst among those the log holds, with the truth's lengths within a counter
 * step; a thread's longest runs are the truth's runs; and each first instance is the figure
 * of the statistics' table.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib.h>

#include "tks-capture.h"
#include "tks-stats.h"
#include "tks-stats-worst.h"
#include "tks-simboard.h"
#include "tks-simboard-private.h"

#define COUNTER_HZ 168000000U
#define TICK_HZ    1000U
#define TOP        10

typedef struct
{
  TksTruthKind kind;
  const char  *name;    /* interned */
  double       begin;   /* ticks */
  double       end;
} Ev;

static void
collect (const TksTruthEvent *event,
         gpointer             data)
{
  Ev ev = { event->kind, g_intern_string (event->name), event->begin, event->end };

  g_array_append_val ((GArray *) data, ev);
}

/* The counter (32 bits, as the log has it) at @t ticks since boot. */
static guint32
counter_at (double t)
{
  guint64 cycles = (guint64) (t * TKS_SIMBOARD_CYCLES_PER_TICK + 0.5);

  return (guint32) ((unsigned __int128) cycles * COUNTER_HZ
                    / ((guint64) TICK_HZ * TKS_SIMBOARD_CYCLES_PER_TICK));
}

static double
us_of (const Ev *ev)
{
  return (ev->end - ev->begin) * 1e6 / TICK_HZ;
}

static int
compare_desc (gconstpointer a,
              gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x > y ? -1 : x < y ? 1 : 0;
}

/* The instances are worst first, at most TOP of them. */
static void
check_order (GArray *top)
{
  g_assert_cmpuint (top->len, <=, TOP);
  for (guint i = 1; i < top->len; i++)
    g_assert_cmpfloat (g_array_index (top, TksWorst, i - 1).measure, >=,
                       g_array_index (top, TksWorst, i).measure);
}

/* @top's measures against @expected (the truth's, worst first), within a counter step. */
static void
check_measures (GArray     *top,
                GArray     *expected,
                const char *what)
{
  double step = 1e6 / COUNTER_HZ;

  g_assert_cmpuint (top->len, ==, MIN (TOP, expected->len));
  g_array_sort (expected, compare_desc);
  for (guint i = 0; i < top->len; i++)
    if (fabs (g_array_index (top, TksWorst, i).measure - g_array_index (expected, double, i))
        > 1.5 * step)
      g_error ("%s: the %u-th worst is %.4f µs, the truth's %.4f µs", what, i + 1,
               g_array_index (top, TksWorst, i).measure, g_array_index (expected, double, i));
}

typedef struct
{
  GArray     *truth;
  TksCapture *capture;
  TksEvents  *events;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  TksSimboardOptions opts;
  TksSimboardState *board;

  f->truth = g_array_new (FALSE, FALSE, sizeof (Ev));
  tks_simboard_options_init (&opts);
  opts.seed = GPOINTER_TO_UINT (data);
  opts.tick_hz = TICK_HZ;
  g_assert_true (tks_simboard_options_check (&opts, NULL));
  g_assert_true (tks_simboard_state_acquire (NULL));
  board = tks_simboard_state_new_traced (&opts, collect, f->truth);
  tks_simboard_state_advance (board, 4000);
  text = tks_simboard_state_run_command (board, "threads_dump");
  tks_simboard_state_free (board);
  tks_simboard_state_release ();

  f->capture = tks_capture_new_from_dump (text, strlen (text), &error);
  g_assert_no_error (error);
  f->events = tks_capture_get_events (f->capture);
  g_assert_nonnull (f->events);
  g_assert_true (tks_events_has_counter (f->events));
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_clear_object (&f->capture);
  g_array_unref (f->truth);
}

/* Each thread's worst wake-ups: the truth's worst of those the log holds (a wake-up is in the
 * log when its ready and its switch-in are, at the truth's counter values). */
static void
test_wakeups (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GArray) stats = tks_events_latency_stats (f->events, NAN, NAN);
  guint n_wakeups, checked = 0;
  const TksWakeup *w = tks_events_get_wakeups (f->events, &n_wakeups);

  for (guint s = 0; s < stats->len; s++)
    {
      const TksLatencyStats *ls = &g_array_index (stats, TksLatencyStats, s);
      const TksThread *th = tks_capture_get_thread (f->capture, ls->thread);
      g_autoptr(GArray) top = tks_stats_worst (f->capture, TKS_WORST_WAKEUP, ls->thread,
                                               NAN, NAN, TOP);
      g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GHashTable) logged = g_hash_table_new (g_int64_hash, g_int64_equal);
      g_autofree gint64 *keys = g_new (gint64, n_wakeups);

      if (ls->count == 0)
        continue;
      for (guint i = 0; i < n_wakeups; i++)
        if (w[i].thread == ls->thread && !w[i].open)
          {
            keys[i] = ((gint64) (guint32) w[i].ready.time << 32) | (guint32) w[i].run.time;
            g_hash_table_add (logged, &keys[i]);
          }
      for (guint i = 0; i < f->truth->len; i++)
        {
          const Ev *ev = &g_array_index (f->truth, Ev, i);
          gint64 key = ((gint64) counter_at (ev->begin) << 32) | counter_at (ev->end);
          double us = us_of (ev);

          if (ev->kind == TKS_TRUTH_WAKEUP && ev->name == g_intern_string (th->name)
              && g_hash_table_contains (logged, &key))
            g_array_append_val (expected, us);
        }
      check_order (top);
      check_measures (top, expected, th->name);
      g_assert_cmpfloat (g_array_index (top, TksWorst, 0).measure, ==, ls->max_us);
      /* each leads to its wake-up: the thread's, made ready at begin, switched in at end */
      for (guint i = 0; i < top->len; i++)
        {
          const TksWorst *x = &g_array_index (top, TksWorst, i);

          g_assert_cmpuint (x->thread, ==, ls->thread);
          g_assert_cmpuint (w[x->index].thread, ==, ls->thread);
          g_assert_cmpfloat (x->begin, ==, w[x->index].ready.pos);
          g_assert_cmpfloat (x->end, ==, w[x->index].run.pos);
        }
      checked++;
    }
  g_assert_cmpuint (checked, >, 2);
}

/* Each handler's longest runs: the truth's longest of those the log holds. */
static void
test_handlers (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GArray) stats = tks_events_handler_stats (f->events, NAN, NAN);
  guint checked = 0;

  for (guint s = 0; s < stats->len; s++)
    {
      const TksHandlerStats *hs = &g_array_index (stats, TksHandlerStats, s);
      g_autoptr(GArray) top = tks_stats_worst (f->capture, TKS_WORST_HANDLER, s, NAN, NAN, TOP);
      g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GHashTable) logged = g_hash_table_new (g_int64_hash, g_int64_equal);
      g_autofree gint64 *keys = g_new (gint64, MAX (hs->track->n_slices, 1));

      if (hs->count == 0)
        continue;
      for (guint i = 0; i < hs->track->n_slices; i++)
        {
          const TksSlice *sl = &hs->track->slices[i];

          keys[i] = ((gint64) (guint32) sl->begin.time << 32) | (guint32) sl->end.time;
          g_hash_table_add (logged, &keys[i]);
        }
      for (guint i = 0; i < f->truth->len; i++)
        {
          const Ev *ev = &g_array_index (f->truth, Ev, i);
          gint64 key = ((gint64) counter_at (ev->begin) << 32) | counter_at (ev->end);
          double us = us_of (ev);

          if (ev->kind == TKS_TRUTH_IRQ && ev->name == g_intern_string (hs->track->name)
              && g_hash_table_contains (logged, &key))
            g_array_append_val (expected, us);
        }
      check_order (top);
      check_measures (top, expected, hs->track->name);
      g_assert_cmpfloat (g_array_index (top, TksWorst, 0).measure, ==, hs->longest_us);
      checked++;
    }
  g_assert_cmpuint (checked, >, 0);
}

/* Each marker's longest intervals: between consecutive occurrences in the truth. */
static void
test_markers (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GArray) stats = tks_events_marker_stats (f->events, NAN, NAN);
  guint checked = 0;

  for (guint s = 0; s < stats->len; s++)
    {
      const TksMarkerStats *ms = &g_array_index (stats, TksMarkerStats, s);
      const TksTrack *track = ms->track;
      g_autoptr(GArray) top = tks_stats_worst (f->capture, TKS_WORST_MARKER, s, NAN, NAN, TOP);
      g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (double));
      guint32 first, last;
      const Ev *prev = NULL;

      if (ms->count < 2)
        continue;
      first = (guint32) track->instants[0].time.time;
      last = (guint32) track->instants[track->n_instants - 1].time.time;
      /* the truth's occurrences from the log's first to its last (the counter does not wrap
       * in the seconds simulated) */
      for (guint i = 0; i < f->truth->len; i++)
        {
          const Ev *ev = &g_array_index (f->truth, Ev, i);

          if (ev->kind != TKS_TRUTH_MARKER || ev->name != g_intern_string (track->name)
              || counter_at (ev->begin) < first || counter_at (ev->begin) > last)
            continue;
          if (prev != NULL)
            {
              double us = (ev->begin - prev->begin) * 1e6 / TICK_HZ;

              g_array_append_val (expected, us);
            }
          prev = ev;
        }
      check_order (top);
      check_measures (top, expected, track->name);
      g_assert_cmpfloat (g_array_index (top, TksWorst, 0).measure, ==, ms->max_interval_us);
      checked++;
    }
  g_assert_cmpuint (checked, >, 0);
}

/* Each thread's longest runs: runs of the truth, the first the table's longest run. */
static void
test_runs (Fixture       *f,
           gconstpointer  data)
{
  TksStatsTotals totals;
  g_autoptr(GArray) stats = tks_stats_compute (f->capture, NAN, NAN, &totals, NULL);
  guint checked = 0;

  for (guint t = 0; t < stats->len; t++)
    {
      const TksThreadStats *ts = &g_array_index (stats, TksThreadStats, t);
      const TksThread *th = tks_capture_get_thread (f->capture, ts->thread);
      g_autoptr(GArray) top = tks_stats_worst (f->capture, TKS_WORST_RUN, ts->thread,
                                               totals.from, totals.to, TOP);

      if (ts->n_pieces == 0 || th->name == NULL)
        continue;
      check_order (top);
      g_assert_cmpuint (top->len, ==, MIN (TOP, ts->n_pieces));
      g_assert_cmpfloat (g_array_index (top, TksWorst, 0).measure, ==, ts->max_run);
      for (guint i = 0; i < top->len; i++)
        {
          const TksWorst *x = &g_array_index (top, TksWorst, i);
          gboolean found = x->begin <= totals.from || x->end >= totals.to;

          g_assert_cmpfloat (x->begin, ==, th->runs[x->index].begin);
          /* a run cut by the log's ends is the truth's in part only */
          for (guint k = 0; k < f->truth->len && !found; k++)
            {
              const Ev *ev = &g_array_index (f->truth, Ev, k);

              found = ev->kind == TKS_TRUTH_RUN && ev->name == g_intern_string (th->name)
                      && fabs (ev->begin - x->begin) < 1e-6 && fabs (ev->end - x->end) < 1e-6;
            }
          if (!found)
            g_error ("%s: the run from %.6f to %.6f is not the truth's", th->name, x->begin,
                     x->end);
        }
      checked++;
    }
  g_assert_cmpuint (checked, >, 2);
}

/* The windows of the CPU share: worst first, and the table's figure is their mean. */
static void
test_shares (Fixture       *f,
             gconstpointer  data)
{
  TksStatsTotals totals;
  g_autoptr(GArray) stats = tks_stats_compute (f->capture, NAN, NAN, &totals, NULL);
  guint checked = 0;

  for (guint t = 0; t < stats->len; t++)
    {
      const TksThreadStats *ts = &g_array_index (stats, TksThreadStats, t);
      const TksThread *th = tks_capture_get_thread (f->capture, ts->thread);
      g_autoptr(GArray) all = NULL;
      g_autoptr(GArray) top = NULL;
      double whole, sum = 0;

      if (ts->n_pieces == 0 || !(th->flags & TKS_THREAD_LOGGED))
        continue;
      whole = tks_events_thread_time_without_irqs (f->events, th, totals.from, totals.to);
      all = tks_stats_worst (f->capture, TKS_WORST_SHARE, ts->thread, totals.from, totals.to,
                             TKS_WORST_WINDOWS);
      top = tks_stats_worst (f->capture, TKS_WORST_SHARE, ts->thread, totals.from, totals.to, TOP);
      check_order (top);
      for (guint i = 0; i < all->len; i++)
        {
          const TksWorst *x = &g_array_index (all, TksWorst, i);

          sum += x->measure / 100 * (x->end - x->begin);
          if (i < top->len)
            g_assert_cmpfloat (x->measure, ==, g_array_index (top, TksWorst, i).measure);
          g_assert_cmpfloat (x->measure, <=, 100 + 1e-9);
          g_assert_cmpfloat_with_epsilon (x->measure * (x->end - x->begin) / 100,
                                          tks_events_thread_time_without_irqs (f->events, th,
                                                                               x->begin, x->end),
                                          1e-9);
        }
      g_assert_cmpfloat (fabs (sum - whole), <, 1e-6 * MAX (whole, 1));
      checked++;
    }
  g_assert_cmpuint (checked, >, 2);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/stats-worst/wakeups", Fixture, GUINT_TO_POINTER (1), fixture_set_up,
              test_wakeups, fixture_tear_down);
  g_test_add ("/stats-worst/handlers", Fixture, GUINT_TO_POINTER (1), fixture_set_up,
              test_handlers, fixture_tear_down);
  g_test_add ("/stats-worst/markers", Fixture, GUINT_TO_POINTER (1), fixture_set_up,
              test_markers, fixture_tear_down);
  g_test_add ("/stats-worst/runs", Fixture, GUINT_TO_POINTER (1), fixture_set_up,
              test_runs, fixture_tear_down);
  g_test_add ("/stats-worst/shares", Fixture, GUINT_TO_POINTER (1), fixture_set_up,
              test_shares, fixture_tear_down);
  return g_test_run ();
}
