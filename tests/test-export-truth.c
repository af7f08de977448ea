/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Paraver export's thread states against the simulated board's ground truth: between its
 * runs, a thread the export calls Ready was in the ready list, one it calls Waiting was
 * blocked. The truth knows: a thread blocked until the board made it ready (a wake-up, from
 * its making ready to its switch-in), and a thread switched out without a wake-up before its
 * next switch-in was preempted, ready all along.
 *
 * The Perfetto export's slices and wake-up flows, read back as Perfetto binds them (events in
 * time order, those of one time in the file's order after the longer complete slices; a flow's
 * start and end bound to the newest slice of their track): runs are named after their thread,
 * and every flow starts on the waker the truth names (the handler under way, else the thread
 * running), at the moment it made the thread ready, and ends at the run it led to.
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
  const char  *waker;  /* TKS_TRUTH_WAKEUP: interned */
} Ev;

static void
collect (const TksTruthEvent *event,
         gpointer             data)
{
  GArray *events = data;
  Ev ev = { event->kind, event->thread, g_intern_string (event->name), event->begin,
            event->end, event->kind == TKS_TRUTH_WAKEUP ? g_intern_string (event->waker) : NULL };

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

/* The simulated board's dump after @c's ticks, with its truth in @truth. */
static TksCapture *
board_capture (const TruthCase *c,
               GArray          *truth)
{
  TksSimboardOptions opts;
  TksSimboardState *board;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  TksCapture *capture;

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
  return capture;
}

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
  g_auto(GStrv) lines = NULL;
  guint compared[4] = { 0 }, agreed[4] = { 0 };
  guint n_rows = 0, tick_hz;
  double start;

  capture = board_capture (c, truth);
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

/* One event of a Perfetto export as read back: times in ns, as Perfetto keeps them. */
typedef struct
{
  char     ph;
  guint    tid;
  char    *name;
  char    *cat;
  char    *label;           /* thread_name: the track's name */
  gint64   ts;
  gint64   dur;
  guint    id;
  gboolean bind_enclosing;  /* "bp":"e" */
  gboolean on_track;        /* instants: of their thread's track ("s":"t") */
  guint    index;           /* in the file */
} PfEvent;

typedef struct
{
  guint        tid;
  gint64       ts;
  gint64       dur;
  const char  *name;
  const char  *cat;
} PfSlice;

/* The JSON string after "@key":" in @line (before its args), unescaped; NULL when absent. */
static char *
pf_string (const char *line,
           const char *key)
{
  g_autofree char *pattern = g_strdup_printf ("\"%s\":\"", key);
  const char *p = strstr (line, pattern);
  GString *out;

  if (p == NULL)
    return NULL;
  out = g_string_new (NULL);
  for (p += strlen (pattern); *p != '\0' && *p != '"'; p++)
    {
      if (*p == '\\' && p[1] != '\0')
        p++;
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

static gboolean
pf_number (const char *line,
           const char *key,
           double     *value)
{
  g_autofree char *pattern = g_strdup_printf ("\"%s\":", key);
  const char *p = strstr (line, pattern);

  if (p == NULL)
    return FALSE;
  *value = g_ascii_strtod (p + strlen (pattern), NULL);
  return TRUE;
}

static void
pf_event_clear (PfEvent *ev)
{
  g_free (ev->name);
  g_free (ev->cat);
  g_free (ev->label);
}

/* The export's events, one a line as it writes them. */
static GArray *
pf_read (const char *json)
{
  g_auto(GStrv) lines = g_strsplit (json, "\n", -1);
  GArray *events = g_array_new (FALSE, TRUE, sizeof (PfEvent));

  g_array_set_clear_func (events, (GDestroyNotify) pf_event_clear);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *args = strstr (lines[i], "\"args\":");
      g_autofree char *head = g_strndup (lines[i], args != NULL ? (gsize) (args - lines[i])
                                                                : strlen (lines[i]));
      g_autofree char *ph = pf_string (head, "ph");
      PfEvent ev = { 0 };
      double v;

      if (ph == NULL)
        continue;
      ev.ph = ph[0];
      ev.tid = pf_number (head, "tid", &v) ? (guint) v : 0;
      ev.name = pf_string (head, "name");
      ev.cat = pf_string (head, "cat");
      if (args != NULL && g_str_equal (ev.name, "thread_name"))
        ev.label = pf_string (args, "name");
      ev.ts = pf_number (head, "ts", &v) ? llround (v * 1000) : 0;
      ev.dur = pf_number (head, "dur", &v) ? llround (v * 1000) : -1;
      ev.id = pf_number (head, "id", &v) ? (guint) v : 0;
      ev.bind_enclosing = strstr (head, "\"bp\":\"e\"") != NULL;
      ev.on_track = strstr (head, "\"s\":\"t\"") != NULL;
      ev.index = events->len;
      g_array_append_val (events, ev);
    }
  return events;
}

/* Perfetto's order: by time; at one time the complete slices, longer first, then the rest,
 * each in the file's order. */
static gint
pf_order (gconstpointer a,
          gconstpointer b)
{
  const PfEvent *x = *(const PfEvent * const *) a, *y = *(const PfEvent * const *) b;
  gint64 kx = x->ph == 'X' ? G_MAXINT64 - x->dur : G_MAXINT64;
  gint64 ky = y->ph == 'X' ? G_MAXINT64 - y->dur : G_MAXINT64;

  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  if (kx != ky)
    return kx < ky ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* A slice begins on @stack (slice indices): the slices it comes after leave it; FALSE when it
 * overlaps one partly (Perfetto leaves such a slice out). */
static gboolean
pf_close_stack (GArray        *stack,
                const PfSlice *slices,
                gint64         ts,
                gint64         dur)
{
  for (guint i = stack->len; i-- > 0;)
    {
      const PfSlice *sl = &slices[g_array_index (stack, guint, i)];
      gint64 end = sl->ts + sl->dur;

      if (end < ts || (end == ts && !(sl->dur == 0 && dur == 0)))
        {
          g_assert_cmpuint (i, ==, stack->len - 1);
          g_array_set_size (stack, i);
          continue;
        }
      if (ts < end && ts + dur > end)
        return FALSE;
    }
  return TRUE;
}

typedef struct
{
  guint out;   /* slice indices */
  guint in;
  guint id;
} PfFlow;

/* The slices of @events and the flows between them, bound as Perfetto binds them. */
static void
pf_bind (GArray  *events,
         GArray  *slices,
         GArray  *flows,
         guint   *n_dropped)
{
  g_autoptr(GPtrArray) order = g_ptr_array_new ();
  g_autoptr(GPtrArray) stacks = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr(GHashTable) started = g_hash_table_new (NULL, NULL);  /* id -> slice + 1 */

  for (guint i = 0; i < events->len; i++)
    g_ptr_array_add (order, &g_array_index (events, PfEvent, i));
  g_ptr_array_sort (order, pf_order);
  for (guint i = 0; i < order->len; i++)
    {
      const PfEvent *ev = order->pdata[i];
      GArray *stack;
      guint top;

      while (stacks->len <= ev->tid)
        g_ptr_array_add (stacks, g_array_new (FALSE, FALSE, sizeof (guint)));
      stack = stacks->pdata[ev->tid];
      if (ev->ph == 'X' || (ev->ph == 'i' && ev->on_track))
        {
          PfSlice sl = { ev->tid, ev->ts, MAX (0, ev->dur), ev->name, ev->cat };

          if (!pf_close_stack (stack, &g_array_index (slices, PfSlice, 0), sl.ts, sl.dur))
            {
              (*n_dropped)++;
              continue;
            }
          g_array_append_val (slices, sl);
          top = slices->len - 1;
          g_array_append_val (stack, top);
        }
      else if (ev->ph == 's')
        {
          g_assert_cmpuint (stack->len, >, 0);
          g_assert_false (g_hash_table_contains (started, GUINT_TO_POINTER (ev->id)));
          g_hash_table_insert (started, GUINT_TO_POINTER (ev->id),
                               GUINT_TO_POINTER (g_array_index (stack, guint, stack->len - 1) + 1));
        }
      else if (ev->ph == 'f')
        {
          PfFlow flow = { 0, 0, ev->id };

          /* bound to the slice it ends in, and never before it started */
          g_assert_true (ev->bind_enclosing);
          g_assert_cmpuint (stack->len, >, 0);
          g_assert_true (g_hash_table_contains (started, GUINT_TO_POINTER (ev->id)));
          flow.out = GPOINTER_TO_UINT (g_hash_table_lookup (started, GUINT_TO_POINTER (ev->id))) - 1;
          flow.in = g_array_index (stack, guint, stack->len - 1);
          g_array_append_val (flows, flow);
        }
    }
}

static void
test_perfetto_flows (gconstpointer data)
{
  const TruthCase *c = data;
  g_autoptr(GArray) truth = g_array_new (FALSE, FALSE, sizeof (Ev));
  g_autoptr(TksCapture) capture = board_capture (c, truth);
  g_autoptr(GString) json = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) events = NULL;
  g_autoptr(GArray) slices = g_array_new (FALSE, FALSE, sizeof (PfSlice));
  g_autoptr(GArray) flows = g_array_new (FALSE, FALSE, sizeof (PfFlow));
  g_autoptr(GHashTable) labels = g_hash_table_new (NULL, NULL);   /* tid -> track name */
  g_autoptr(GHashTable) shared = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) created = g_hash_table_new (g_str_hash, g_str_equal);
  guint n_threads = tks_capture_get_n_threads (capture);
  double tick_hz = tks_capture_get_tick_hz (capture);
  guint n_runs = 0, n_starts = 0, n_dropped = 0, compared = 0, agreed = 0;

  g_assert_true (tks_export_write (capture, TKS_EXPORT_PERFETTO, 0, json, &error));
  g_assert_no_error (error);
  events = pf_read (json->str);
  for (guint i = 0; i < events->len; i++)
    {
      const PfEvent *ev = &g_array_index (events, PfEvent, i);

      if (ev->label != NULL)
        g_hash_table_insert (labels, GUINT_TO_POINTER (ev->tid), ev->label);
      /* a thread's runs are slices named after it */
      if (ev->ph == 'X' && g_strcmp0 (ev->cat, "run") == 0)
        {
          g_assert_cmpuint (ev->tid, >=, 1);
          g_assert_cmpuint (ev->tid, <=, n_threads);
          g_assert_cmpstr (ev->name, ==, tks_capture_get_thread (capture, ev->tid - 1)->name);
          n_runs++;
        }
      n_starts += ev->ph == 's';
    }
  g_assert_cmpuint (n_runs, >, 100);
  pf_bind (events, slices, flows, &n_dropped);
  /* every flow bound at both ends */
  g_assert_cmpuint (flows->len, ==, n_starts);
  g_assert_cmpuint (flows->len, >, 50);

  /* names several threads share are left out of the comparison with the truth */
  for (guint i = 0; i < truth->len; i++)
    {
      const Ev *ev = &g_array_index (truth, Ev, i);

      if (ev->kind != TKS_TRUTH_CREATE)
        continue;
      if (g_hash_table_contains (created, ev->name))
        g_hash_table_add (shared, (gpointer) ev->name);
      g_hash_table_add (created, (gpointer) ev->name);
    }

  for (guint f = 0; f < flows->len; f++)
    {
      const PfFlow *flow = &g_array_index (flows, PfFlow, f);
      const PfSlice *out = &g_array_index (slices, PfSlice, flow->out);
      const PfSlice *in = &g_array_index (slices, PfSlice, flow->in);
      const TksThread *woken;
      const char *waker;
      double ready, run, best = INFINITY;
      const Ev *match = NULL;

      /* from the waker's moment (a mark of no length on its track) to the woken thread's run:
       * never from the same track, never a run to itself */
      g_assert_cmpuint (out->tid, !=, in->tid);
      g_assert_cmpint (out->dur, ==, 0);
      g_assert_true (g_str_has_prefix (out->name, "wakes "));
      g_assert_cmpstr (in->cat, ==, "run");
      g_assert_cmpuint (in->tid, <=, n_threads);
      woken = tks_capture_get_thread (capture, in->tid - 1);
      g_assert_cmpstr (out->name + strlen ("wakes "), ==, woken->name);
      g_assert_cmpint (out->ts, <=, in->ts);

      /* against the truth: the wake-up of that thread switched in at that time */
      if (g_hash_table_contains (shared, woken->name))
        continue;
      ready = out->ts / 1e9 * tick_hz;
      run = in->ts / 1e9 * tick_hz;
      for (guint i = 0; i < truth->len; i++)
        {
          const Ev *ev = &g_array_index (truth, Ev, i);

          if (ev->kind == TKS_TRUTH_WAKEUP && ev->name == g_intern_string (woken->name) &&
              fabs (ev->end - run) < best)
            {
              best = fabs (ev->end - run);
              match = ev;
            }
        }
      if (match == NULL || best > 1e-3)
        continue;
      waker = g_hash_table_lookup (labels, GUINT_TO_POINTER (out->tid));
      g_assert_nonnull (waker);
      compared++;
      if (fabs (match->begin - ready) < 1e-3 &&
          (out->tid <= n_threads
           ? g_strcmp0 (tks_capture_get_thread (capture, out->tid - 1)->name, match->waker) == 0
           : g_str_has_prefix (waker, "irq ") && g_strcmp0 (waker + 4, match->waker) == 0))
        agreed++;
      else
        g_test_message ("%s switched in at %.4f: made ready at %.4f by %s, the export says %.4f "
                        "by %s", woken->name, run, match->begin, match->waker, ready, waker);
    }
  g_test_message ("seed %u, %u Hz: %u runs, %u flows; %u of %u flows from the waker the truth "
                  "names, at its time; %u slices left out", c->seed, c->tick_hz, n_runs,
                  flows->len, agreed, compared, n_dropped);
  /* no slice overlaps another of its track by a rounding: Perfetto would leave it out */
  g_assert_cmpuint (n_dropped, ==, 0);
  g_assert_cmpuint (compared, >, flows->len / 2);
  g_assert_cmpuint (agreed, ==, compared);
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

      g_autofree char *flows = g_strdup_printf ("/export/truth/perfetto-flows/%u-hz-seed-%u",
                                                cases[i].tick_hz, cases[i].seed);

      g_test_add_data_func (path, &cases[i], test_states);
      g_test_add_data_func (flows, &cases[i], test_perfetto_flows);
    }
  return g_test_run ();
}
