/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The latency breakdown against the simulated board's truth: for every wake-up of a dump
 * (version 2) the board's scheduler knows what made the thread ready and what held the CPU
 * until it ran (handlers by their own cycles, threads), from its own bookkeeping, not from
 * the log. The rebuild's waker must be the truth's, and each part of its breakdown must be
 * the truth's within one counter step.
 *
 * Left out: the wake-ups the log cannot explain by construction — made ready before the
 * log's first switch or before a handler's leave whose enter the log lost, and those during
 * which an unlogged thread ran (the board does not record a switch between two unlogged
 * threads).
 */
#include "config.h"

#include <string.h>

#include <glib.h>

#include "tks-capture.h"
#include "tks-latency.h"
#include "tks-simboard.h"
#include "tks-simboard-private.h"

#define COUNTER_HZ 168000000U

typedef struct
{
  const char *name;          /* interned */
  int         priority;
  const char *waker;
  gboolean    waker_thread;
  guint64     begin;         /* cycles */
  guint64     end;
  GArray     *causes;        /* TksTruthCause, names interned */
} Wakeup;

static void
wakeup_clear (gpointer data)
{
  g_array_unref (((Wakeup *) data)->causes);
}

static guint64
cycles_of (double t)
{
  return (guint64) (t * TKS_SIMBOARD_CYCLES_PER_TICK + 0.5);
}

static void
collect (const TksTruthEvent *event,
         gpointer             data)
{
  GArray *wakeups = data;
  Wakeup w;

  if (event->kind != TKS_TRUTH_WAKEUP)
    return;
  w = (Wakeup) { g_intern_string (event->name), event->priority, g_intern_string (event->waker),
                 event->waker_thread != G_MAXUINT, cycles_of (event->begin), cycles_of (event->end),
                 g_array_new (FALSE, FALSE, sizeof (TksTruthCause)) };
  for (guint i = 0; i < event->n_causes; i++)
    {
      TksTruthCause c = event->causes[i];

      c.name = g_intern_string (c.name);
      g_array_append_val (w.causes, c);
    }
  g_array_append_val (wakeups, w);
}

/* The counter (unwrapped) at @cycles since boot. */
static gint64
counter_of (guint tick_hz, guint64 cycles)
{
  return (gint64) ((unsigned __int128) cycles * COUNTER_HZ
                   / ((guint64) tick_hz * TKS_SIMBOARD_CYCLES_PER_TICK));
}

static TksCauseKind
expected_kind (const Wakeup *w, const TksTruthCause *c)
{
  if (c->thread == G_MAXUINT)
    return TKS_CAUSE_HANDLER;
  if (c->priority > w->priority)
    return TKS_CAUSE_HIGHER;
  return c->priority == w->priority ? TKS_CAUSE_EQUAL : TKS_CAUSE_LOWER;
}

static guint all_parts[TKS_CAUSE_OTHER + 1];

typedef struct
{
  guint32 seed;
  guint   tick_hz;
  guint64 ticks;
  guint   workers;    /* threads at spread priorities, several at each */
} TruthCase;

static const TruthCase cases[] = {
  { 1, 1000, 3000 },
  { 7, 1000, 6000 },
  { 3, 100, 700 },
  { 2, 1000, 3000, 30 },
};

static void
test_truth (gconstpointer data)
{
  const TruthCase *tc = data;
  g_autoptr(GArray) truth = g_array_new (FALSE, FALSE, sizeof (Wakeup));
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autofree char *text = NULL;
  TksSimboardOptions opts;
  TksSimboardState *board;
  TksEvents *events;
  const TksEventEntry *e;
  const TksWakeup *w;
  guint n_entries, n_wakeups, known_from = G_MAXUINT, compared = 0, skipped = 0;
  guint handler_parts = 0, higher_parts = 0, equal_parts = 0, lower_parts = 0;
  guint thread_wakers = 0, handler_wakers = 0;
  double counts_per_cycle;

  g_array_set_clear_func (truth, wakeup_clear);
  tks_simboard_options_init (&opts);
  opts.seed = tc->seed;
  opts.tick_hz = tc->tick_hz;
  opts.workers = tc->workers;
  g_assert_true (tks_simboard_options_check (&opts, NULL));
  g_assert_true (tks_simboard_state_acquire (NULL));
  board = tks_simboard_state_new_traced (&opts, collect, truth);
  tks_simboard_state_advance (board, tc->ticks);
  text = tks_simboard_state_run_command (board, "threads_dump");
  tks_simboard_state_free (board);
  tks_simboard_state_release ();

  capture = tks_capture_new_from_dump (text, strlen (text), &error);
  g_assert_no_error (error);
  events = tks_capture_get_events (capture);
  g_assert_nonnull (events);
  g_assert_true (tks_events_has_counter (events));
  e = tks_events_get_entries (events, &n_entries);
  w = tks_events_get_wakeups (events, &n_wakeups);
  counts_per_cycle = (double) COUNTER_HZ / ((double) tc->tick_hz * TKS_SIMBOARD_CYCLES_PER_TICK);

  /* From where the log knows what held the CPU: its first switch, and past any handler's
   * leave whose enter it lost. */
  for (guint i = 0; i < n_entries; i++)
    {
      guint depth = 1;

      if (e[i].kind == TKS_EVENT_SWITCH && known_from == G_MAXUINT)
        known_from = i;
      if (i > 0)
        tks_events_get_cpu_after (events, i - 1, NULL, NULL, &depth);
      if (e[i].kind == TKS_EVENT_IRQ_LEAVE && (i == 0 || depth == 0))
        known_from = MAX (known_from == G_MAXUINT ? 0 : known_from, i);
    }
  g_assert_cmpuint (known_from, !=, G_MAXUINT);

  for (guint k = 0; k < n_wakeups; k++)
    {
      const TksThread *th;
      const Wakeup *tw = NULL;
      g_autoptr(TksLatencyBreakdown) bd = NULL;
      gboolean unlogged = FALSE;
      gint64 sum = 0;

      if (w[k].open || w[k].thread == G_MAXUINT || w[k].ready_entry < known_from)
        continue;
      th = tks_capture_get_thread (capture, w[k].thread);
      /* the truth's wake-up of that thread at that counter value */
      for (guint t = 0; t < truth->len && tw == NULL; t++)
        {
          const Wakeup *c = &g_array_index (truth, Wakeup, t);

          if (c->name == g_intern_string (th->name)
              && (guint32) counter_of (tc->tick_hz, c->begin) == (guint32) w[k].ready.time
              && (guint32) counter_of (tc->tick_hz, c->end) == (guint32) w[k].run.time)
            tw = c;
        }
      if (tw == NULL)
        g_error ("seed %u: the wake-up of %s at tick %.3f is not in the truth", tc->seed,
                 th->name, w[k].ready.pos);
      for (guint c = 0; c < tw->causes->len; c++)
        unlogged |= !g_array_index (tw->causes, TksTruthCause, c).logged;
      if (unlogged)
        {
          skipped++;
          continue;
        }

      /* what made it ready */
      if (tw->waker_thread)
        {
          g_assert_cmpuint (w[k].waker_kind, ==, TKS_WAKER_THREAD);
          g_assert_cmpstr (tks_capture_get_thread (capture, w[k].waker)->name, ==, tw->waker);
          thread_wakers++;
        }
      else
        {
          g_assert_cmpuint (w[k].waker_kind, ==, TKS_WAKER_HANDLER);
          g_assert_cmpstr (tks_events_get_name (events, TKS_NAME_IRQ, w[k].waker), ==, tw->waker);
          handler_wakers++;
        }

      /* each cause, within a counter step */
      bd = tks_latency_explain (events, &w[k]);
      g_assert_nonnull (bd);
      g_assert_cmpint (bd->handlers + bd->higher + bd->equal + bd->rest, ==, bd->latency);
      for (guint c = 0; c < tw->causes->len; c++)
        {
          const TksTruthCause *tcause = &g_array_index (tw->causes, TksTruthCause, c);
          TksCauseKind kind = expected_kind (tw, tcause);
          double expected = (double) tcause->cycles * counts_per_cycle;
          const TksCause *found = NULL;

          for (guint r = 0; r < bd->n_causes && found == NULL; r++)
            if (bd->causes[r].kind == kind && g_strcmp0 (bd->causes[r].name, tcause->name) == 0)
              found = &bd->causes[r];
          if (found == NULL || ABS ((double) found->time - expected) > 1.0)
            g_error ("seed %u: %s made ready at tick %.3f (latency %" G_GINT64_FORMAT
                     "): %s %s held the CPU %.0f counts in truth, %" G_GINT64_FORMAT " rebuilt",
                     tc->seed, th->name, w[k].ready.pos, w[k].latency,
                     tks_cause_kind_label (kind), tcause->name, expected,
                     found != NULL ? found->time : -1);
          sum += found->time;
          handler_parts += kind == TKS_CAUSE_HANDLER;
          higher_parts += kind == TKS_CAUSE_HIGHER;
          equal_parts += kind == TKS_CAUSE_EQUAL;
          lower_parts += kind == TKS_CAUSE_LOWER;
        }
      /* and nothing the truth does not have */
      g_assert_cmpint (sum, ==, bd->latency);
      g_assert_cmpuint (bd->n_causes, ==, tw->causes->len);
      compared++;
    }
  g_test_message ("seed %u, %u Hz: %u wake-ups compared (%u made ready by a thread, %u by a "
                  "handler), %u left out (an unlogged thread ran); parts: %u handler, %u higher, "
                  "%u same, %u lower", tc->seed, tc->tick_hz, compared, thread_wakers,
                  handler_wakers, skipped, handler_parts, higher_parts, equal_parts, lower_parts);
  g_assert_cmpuint (compared, >, 50);
  g_assert_cmpuint (compared, >, skipped);
  g_assert_cmpuint (thread_wakers, >, 0);
  g_assert_cmpuint (handler_wakers, >, 0);
  g_assert_cmpuint (handler_parts, >, 0);
  all_parts[TKS_CAUSE_HANDLER] += handler_parts;
  all_parts[TKS_CAUSE_HIGHER] += higher_parts;
  all_parts[TKS_CAUSE_EQUAL] += equal_parts;
  all_parts[TKS_CAUSE_LOWER] += lower_parts;
}

/* Over every case, each kind of part but one was compared: the board's kernel switches at
 * the cycle a thread becomes the best ready, so no lower-priority thread ever holds the CPU
 * meanwhile (tests/test-latency.c has those). */
static void
test_coverage (void)
{
  if (all_parts[TKS_CAUSE_HANDLER] == 0)
    {
      g_test_skip ("run with the cases");
      return;
    }
  g_assert_cmpuint (all_parts[TKS_CAUSE_HIGHER], >, 0);
  g_assert_cmpuint (all_parts[TKS_CAUSE_EQUAL], >, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/latency/truth/%u", i + 1);

      g_test_add_data_func (path, &cases[i], test_truth);
    }
  g_test_add_func ("/latency/truth/coverage", test_coverage);
  return g_test_run ();
}
