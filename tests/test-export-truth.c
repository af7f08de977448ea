/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Paraver export's thread states against the simulated board's ground truth: between its
 * runs, a thread the export calls Ready was in the ready list, one it calls Waiting was
 * blocked. The truth knows: a thread blocked until the board made it ready (a wake-up, from
 * its making ready to its switch-in), and a thread switched out without a wake-up before its
 * next switch-in was preempted, ready all along.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>

#include "tks-capture.h"
#include "tks-events.h"
#include "tks-export.h"
#include "tks-simboard.h"
#include "tks-simboard-private.h"

typedef struct
{
  TksTruthKind kind;
  guint        thread;
  const char  *name;   /* interned */
  double       begin;  /* ticks */
  double       end;
} Ev;

static void
collect (const TksTruthEvent *event,
         gpointer             data)
{
  GArray *events = data;
  Ev ev = { event->kind, event->thread, g_intern_string (event->name), event->begin,
            event->end };

  if (event->kind == TKS_TRUTH_WAKEUP || event->kind == TKS_TRUTH_CREATE ||
      event->kind == TKS_TRUTH_RUN || event->kind == TKS_TRUTH_RUNNING)
    g_array_append_val (events, ev);
}

/* What the truth says @thread was at @t, between two of its runs: 2 ready, 3 waiting; 0 after
 * its last run (when the truth ends it could be either). */
static guint
truth_state (GArray *truth,
             guint   thread,
             double  t)
{
  double next = INFINITY;

  /* its next switch-in */
  for (guint i = 0; i < truth->len; i++)
    {
      const Ev *ev = &g_array_index (truth, Ev, i);

      if ((ev->kind == TKS_TRUTH_RUN || ev->kind == TKS_TRUTH_RUNNING) && ev->thread == thread &&
          ev->begin > t && ev->begin < next)
        next = ev->begin;
    }
  if (next == INFINITY)
    return 0;
  /* came from a wake-up: blocked until it was made ready; else it was preempted */
  for (guint i = 0; i < truth->len; i++)
    {
      const Ev *ev = &g_array_index (truth, Ev, i);

      if (ev->kind == TKS_TRUTH_WAKEUP && ev->thread == thread && ev->end == next)
        return ev->begin <= t ? 2 : 3;
    }
  return 2;
}

typedef struct
{
  guint32 seed;
  guint   tick_hz;
  guint64 ticks;
} TruthCase;

static const TruthCase cases[] = {
  { 1, 1000, 3000 },
  { 7, 10000, 20000 },
};

static void
test_states (gconstpointer data)
{
  const TruthCase *c = data;
  g_autoptr(GArray) truth = g_array_new (FALSE, FALSE, sizeof (Ev));
  g_autoptr(GHashTable) thread_of = g_hash_table_new (NULL, NULL);  /* row -> truth thread */
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GString) prv = g_string_new (NULL);
  g_autoptr(GString) pcf = g_string_new (NULL);
  g_autoptr(GString) row = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  TksSimboardOptions opts;
  TksSimboardState *board;
  guint compared[4] = { 0 }, agreed[4] = { 0 };
  guint n_rows = 0, tick_hz;
  double start;

  tks_simboard_options_init (&opts);
  opts.seed = c->seed;
  opts.tick_hz = c->tick_hz;
  g_assert_true (tks_simboard_options_check (&opts, NULL));
  g_assert_true (tks_simboard_state_acquire (NULL));
  board = tks_simboard_state_new_traced (&opts, collect, truth);
  tks_simboard_state_advance (board, c->ticks);
  text = tks_simboard_state_run_command (board, "threads_dump");
  tks_simboard_state_free (board);
  tks_simboard_state_release ();

  capture = tks_capture_new_from_dump (text, strlen (text), &error);
  g_assert_no_error (error);
  g_assert_nonnull (tks_capture_get_events (capture));
  g_assert_true (tks_export_write_paraver (capture, 0, prv, pcf, row, &error));
  g_assert_no_error (error);
  tick_hz = (guint) tks_capture_get_tick_hz (capture);
  g_assert_cmpuint (tick_hz, ==, c->tick_hz);
  start = tks_capture_get_start (capture);

  /* The rows of the threads, in the capture's creation order, against the truth's threads of
   * the same name (names that several threads share are left out). */
  {
    g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
    g_autoptr(GHashTable) shared = g_hash_table_new (g_str_hash, g_str_equal);

    for (guint i = 0; i < truth->len; i++)
      {
        const Ev *ev = &g_array_index (truth, Ev, i);

        if (ev->kind != TKS_TRUTH_CREATE)
          continue;
        if (g_hash_table_contains (by_name, ev->name))
          g_hash_table_add (shared, (gpointer) ev->name);
        g_hash_table_insert (by_name, (gpointer) ev->name, GUINT_TO_POINTER (ev->thread + 1));
      }
    for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
      {
        const TksThread *th = tks_capture_get_thread (capture, i);

        if (th->flags & TKS_THREAD_EXITED_BEFORE_LOG)
          continue;
        n_rows++;
        if (th->name != NULL && !g_hash_table_contains (shared, th->name) &&
            g_hash_table_contains (by_name, th->name))
          g_hash_table_insert (thread_of, GUINT_TO_POINTER (n_rows),
                               g_hash_table_lookup (by_name, th->name));
      }
    g_assert_cmpuint (g_hash_table_size (thread_of), >, n_rows / 2);
  }

  lines = g_strsplit (prv->str, "\n", -1);
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], ":", -1);
      guint r = (guint) atoi (f[4]);
      guint state = (guint) atoi (f[7]);
      gpointer thread = g_hash_table_lookup (thread_of, GUINT_TO_POINTER (r));
      gint64 begin, end;
      guint said;
      double mid;

      if (f[0][0] != '1' || state < 2 || state > 3 || thread == NULL)
        continue;
      begin = g_ascii_strtoll (f[5], NULL, 10);
      end = g_ascii_strtoll (f[6], NULL, 10);
      /* long enough that its middle is well inside it (a cycle is 1/1000 tick) */
      if ((end - begin) * (gint64) tick_hz < 4 * 1000000)
        continue;
      mid = start + (begin + end) / 2.0 * tick_hz / 1e9;
      said = truth_state (truth, GPOINTER_TO_UINT (thread) - 1, mid);
      if (said == 0)
        continue;
      compared[state]++;
      agreed[state] += said == state;
    }
  g_test_message ("seed %u, %u Hz: ready %u of %u, waiting %u of %u as the truth says", c->seed,
                  c->tick_hz, agreed[2], compared[2], agreed[3], compared[3]);
  g_assert_cmpuint (compared[2], >, 20);
  g_assert_cmpuint (compared[3], >, 20);
  g_assert_cmpuint (agreed[2], ==, compared[2]);
  g_assert_cmpuint (agreed[3], ==, compared[3]);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/export/truth/paraver-states/%u-hz-seed-%u",
                                               cases[i].tick_hz, cases[i].seed);

      g_test_add_data_func (path, &cases[i], test_states);
    }
  return g_test_run ();
}
