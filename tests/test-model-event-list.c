/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The events list's model (tks-event-list-model.h): its rows against the simulated board's
 * ground truth (every marker, handler, run and wake-up a row shows happened, at that time,
 * for that long), its count against the log's entries, its filters and ranges, and the
 * changes it tells a view; a capture without events lists its switches.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tks-event-list-model.h"
#include "tks-simboard.h"
#include "tks-simboard-private.h"
#include "tks-test-data.h"
#include "test-view-synthetic.h"

/* Times of the truth and of the capture agree to the counter's resolution. */
#define EPS 1e-4

static void
collect (const TksTruthEvent *event,
         gpointer             data)
{
  TksTruthEvent copy = *event;

  copy.name = g_intern_string (event->name);
  g_array_append_val ((GArray *) data, copy);
}

/* A dump version 2 of the simulated board with every event, and the truth of its life. */
static TksCapture *
board_capture (guint32   seed,
               guint     ticks,
               GArray   *truth)
{
  TksSimboardOptions opts;
  TksSimboardState *board;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  TksCapture *capture;

  tks_simboard_options_init (&opts);
  opts.seed = seed;
  g_assert_true (tks_simboard_options_check (&opts, NULL));
  g_assert_true (tks_simboard_state_acquire (NULL));
  board = tks_simboard_state_new_traced (&opts, collect, truth);
  tks_simboard_state_advance (board, ticks);
  text = tks_simboard_state_run_command (board, "threads_dump");
  tks_simboard_state_end_truth (board);
  tks_simboard_state_free (board);
  tks_simboard_state_release ();

  capture = tks_capture_new_from_dump (text, strlen (text), &error);
  g_assert_no_error (error);
  g_assert_nonnull (tks_capture_get_events (capture));
  return capture;
}

/* The truth's event of @kind named @name (NULL: any) at @t, NULL when none. */
static const TksTruthEvent *
truth_at (GArray       *truth,
          TksTruthKind  kind,
          const char   *name,
          double        t)
{
  for (guint i = 0; i < truth->len; i++)
    {
      const TksTruthEvent *e = &g_array_index (truth, TksTruthEvent, i);

      if (e->kind == kind && fabs (e->begin - t) < EPS &&
          (name == NULL || strcmp (e->name, name) == 0))
        return e;
    }
  return NULL;
}

static guint n_changed;

/* A view's count of rows, kept from the changes the model tells. */
static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    user_data)
{
  guint *count = user_data;

  g_assert_cmpuint (position + removed, <=, *count);
  *count = *count - removed + added;
  /* the model is already as the change says, and each item is there (as a view asks) */
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, *count);
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      g_assert_nonnull (item);
    }
  n_changed++;
}

static void
test_truth (void)
{
  g_autoptr(GArray) truth = g_array_new (FALSE, FALSE, sizeof (TksTruthEvent));
  g_autoptr(TksCapture) capture = board_capture (1, 3000, truth);
  TksEvents *events = tks_capture_get_events (capture);
  g_autoptr(TksEventListModel) model = tks_event_list_model_new ();
  guint n_entries = 0, n_gaps = 0, n_items, seen[TKS_N_EVENT_ROW_KINDS] = { 0 };
  double offset = NAN;

  tks_events_get_entries (events, &n_entries);
  tks_capture_get_gaps (capture, &n_gaps);
  tks_event_list_model_set_capture (model, capture);
  n_items = g_list_model_get_n_items (G_LIST_MODEL (model));
  /* every entry, and the holes (the log's end is the capture's: no row) */
  g_assert_cmpuint (n_items, ==, n_entries + n_gaps);
  g_assert_cmpuint (tks_event_list_model_get_n_all (model), ==, n_items);

  /* The capture's axis and the truth's differ by whole ticks: the one that puts every marker
   * row on a marker of the truth with its name and value. */
  {
    g_autoptr(GArray) markers = g_array_new (FALSE, FALSE, sizeof (guint));

    for (guint i = 0; i < n_items; i++)
      {
        g_autoptr(TksEventRow) row = g_list_model_get_item (G_LIST_MODEL (model), i);

        if (tks_event_row_get_kind (row) == TKS_EVENT_ROW_MARKER)
          g_array_append_val (markers, i);
      }
    g_assert_cmpuint (markers->len, >, 2);
    for (guint k = 0; k < truth->len && isnan (offset); k++)
      {
        const TksTruthEvent *e = &g_array_index (truth, TksTruthEvent, k);
        g_autoptr(TksEventRow) first = g_list_model_get_item (G_LIST_MODEL (model),
                                                              g_array_index (markers, guint, 0));
        double d = tks_event_row_get_time (first) - e->begin;
        gboolean all = TRUE;

        if (e->kind != TKS_TRUTH_MARKER || fabs (d - round (d)) > EPS)
          continue;
        for (guint m = 0; m < markers->len && all; m++)
          {
            g_autoptr(TksEventRow) row = g_list_model_get_item (G_LIST_MODEL (model),
                                                                g_array_index (markers, guint, m));
            const TksTruthEvent *x = truth_at (truth, TKS_TRUTH_MARKER, tks_event_row_get_who (row),
                                               tks_event_row_get_time (row) - round (d));
            g_autofree char *value = x != NULL ? g_strdup_printf ("value %u", x->value) : NULL;

            all = x != NULL && strcmp (value, tks_event_row_get_detail (row)) == 0;
          }
        if (all)
          offset = round (d);
      }
  }
  g_assert_false (isnan (offset));

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(TksEventRow) row = g_list_model_get_item (G_LIST_MODEL (model), i);
      double t = tks_event_row_get_time (row) - offset;
      double d = tks_event_row_get_duration (row);
      const char *who = tks_event_row_get_who (row);
      const TksTruthEvent *e = NULL;

      if (i > 0)
        {
          g_autoptr(TksEventRow) prev = g_list_model_get_item (G_LIST_MODEL (model), i - 1);

          g_assert_cmpfloat (tks_event_row_get_time (prev), <=, tks_event_row_get_time (row));
        }
      seen[tks_event_row_get_kind (row)]++;
      switch (tks_event_row_get_kind (row))
        {
        case TKS_EVENT_ROW_MARKER:
          {
            g_autofree char *value = NULL;

            e = truth_at (truth, TKS_TRUTH_MARKER, who, t);
            g_assert_nonnull (e);
            value = g_strdup_printf ("value %u", e->value);
            g_assert_cmpstr (tks_event_row_get_detail (row), ==, value);
          }
          break;
        case TKS_EVENT_ROW_HANDLER:
          e = truth_at (truth, TKS_TRUTH_IRQ, who, t);
          g_assert_nonnull (e);
          if (!isnan (d) && !strstr (tks_event_row_get_detail (row), "at least"))
            g_assert_cmpfloat_with_epsilon (d, e->end - e->begin, EPS);
          break;
        case TKS_EVENT_ROW_SWITCH:
          /* the run it begins: of that thread, that long (the last one lasts to the end) */
          e = truth_at (truth, TKS_TRUTH_RUN, who, t);
          if (e == NULL)
            e = truth_at (truth, TKS_TRUTH_RUNNING, who, t);
          g_assert_nonnull (e);
          g_assert_nonnull (strstr (tks_event_row_get_detail (row), " → "));
          if (!isnan (d) && e->kind == TKS_TRUTH_RUN)
            g_assert_cmpfloat_with_epsilon (d, e->end - e->begin, EPS);
          break;
        case TKS_EVENT_ROW_READY:
          e = truth_at (truth, TKS_TRUTH_WAKEUP, who, t);
          g_assert_nonnull (e);
          if (!isnan (d))
            {
              g_assert_cmpfloat_with_epsilon (d, e->end - e->begin, EPS);
              g_assert_nonnull (strstr (tks_event_row_get_detail (row), "latency"));
            }
          break;
        case TKS_EVENT_ROW_SLEEP:
          g_assert_cmpstr (who, ==, "CPU");
          g_assert_true (g_str_has_prefix (tks_event_row_get_detail (row), "sleeps"));
          break;
        case TKS_EVENT_ROW_STATE:
          g_assert_true (g_str_has_suffix (tks_event_row_get_detail (row), " begins"));
          break;
        case TKS_EVENT_ROW_HANDLER_END:
        case TKS_EVENT_ROW_WAKE:
        case TKS_EVENT_ROW_STATE_END:
        case TKS_EVENT_ROW_EXIT:
        case TKS_EVENT_ROW_TRIGGER:
        case TKS_EVENT_ROW_HOLE:
        case TKS_EVENT_ROW_LOG_END:
        case TKS_N_EVENT_ROW_KINDS:
        default:
          break;
        }
    }
  /* every kind the board makes is there */
  g_assert_cmpuint (seen[TKS_EVENT_ROW_SWITCH], >, 50);
  g_assert_cmpuint (seen[TKS_EVENT_ROW_HANDLER], >, 20);
  g_assert_cmpuint (seen[TKS_EVENT_ROW_READY], >, 5);
  g_assert_cmpuint (seen[TKS_EVENT_ROW_MARKER], >, 2);
  g_assert_cmpuint (seen[TKS_EVENT_ROW_STATE], >, 0);
  g_assert_cmpuint (seen[TKS_EVENT_ROW_SLEEP], >, 0);
  g_assert_cmpuint (seen[TKS_EVENT_ROW_HANDLER_END], ==, tks_events_count (events, TKS_EVENT_IRQ_LEAVE));
  g_assert_cmpuint (seen[TKS_EVENT_ROW_MARKER], ==, tks_events_count (events, TKS_EVENT_MARKER));
}

static void
test_filter_range (void)
{
  g_autoptr(GArray) truth = g_array_new (FALSE, FALSE, sizeof (TksTruthEvent));
  g_autoptr(TksCapture) capture = board_capture (2, 3000, truth);
  TksEvents *events = tks_capture_get_events (capture);
  g_autoptr(TksEventListModel) model = tks_event_list_model_new ();
  GListModel *list = G_LIST_MODEL (model);
  guint shadow = 0, n, thread = G_MAXUINT;
  double start = tks_capture_get_start (capture), end = tks_capture_get_end (capture);
  double a = start + (end - start) * 0.3, b = start + (end - start) * 0.6;

  g_signal_connect (model, "items-changed", G_CALLBACK (items_changed_cb), &shadow);
  tks_event_list_model_set_capture (model, capture);
  g_assert_cmpuint (shadow, ==, g_list_model_get_n_items (list));

  /* markers only */
  tks_event_list_model_set_filter (model, TKS_EVENT_FILTER_MARKERS, G_MAXUINT);
  g_assert_cmpuint (shadow, ==, g_list_model_get_n_items (list));
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, tks_events_count (events, TKS_EVENT_MARKER));
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(TksEventRow) row = g_list_model_get_item (list, i);

      g_assert_cmpuint (tks_event_row_get_kind (row), ==, TKS_EVENT_ROW_MARKER);
    }

  /* one thread's switches and wake-ups */
  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    if (g_strcmp0 (tks_capture_get_thread (capture, i)->name, "sensor") == 0)
      thread = i;
  g_assert_cmpuint (thread, !=, G_MAXUINT);
  tks_event_list_model_set_filter (model, TKS_EVENT_FILTER_SWITCHES | TKS_EVENT_FILTER_WAKEUPS,
                                   thread);
  n = g_list_model_get_n_items (list);
  g_assert_cmpuint (shadow, ==, n);
  /* a switch in and a switch out per run (the first may have begun before the log) */
  g_assert_cmpuint (n, >=, 2 * tks_capture_get_thread (capture, thread)->n_runs - 2);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TksEventRow) row = g_list_model_get_item (list, i);

      if (tks_event_row_get_kind (row) == TKS_EVENT_ROW_READY)
        g_assert_cmpstr (tks_event_row_get_who (row), ==, "sensor");
      else
        g_assert_nonnull (strstr (tks_event_row_get_detail (row), "sensor"));
    }

  /* a range: the rows inside it, and the view is told what left and came at either end */
  tks_event_list_model_set_filter (model, TKS_EVENT_FILTER_ALL, G_MAXUINT);
  tks_event_list_model_set_range (model, a, b);
  n = g_list_model_get_n_items (list);
  g_assert_cmpuint (shadow, ==, n);
  g_assert_cmpuint (n, >, 10);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TksEventRow) row = g_list_model_get_item (list, i);

      g_assert_cmpfloat (tks_event_row_get_time (row), >=, a);
      g_assert_cmpfloat (tks_event_row_get_time (row), <=, b);
    }
  {
    /* a pan by half the span keeps the rows in common at their place */
    g_autoptr(TksEventRow) last = g_list_model_get_item (list, n - 1);
    double t = tks_event_row_get_time (last);
    guint changes = n_changed;

    tks_event_list_model_set_range (model, a + (b - a) / 2, b + (b - a) / 2);
    g_assert_cmpuint (shadow, ==, g_list_model_get_n_items (list));
    g_assert_cmpuint (n_changed - changes, ==, 2);
    {
      g_autoptr(TksEventRow) same = g_list_model_get_item (list, tks_event_list_model_find_time (model, t));

      g_assert_cmpfloat (tks_event_row_get_time (same), ==, t);
    }
  }
  /* out of every row */
  tks_event_list_model_set_range (model, end + 10, end + 20);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 0);
  g_assert_cmpuint (shadow, ==, 0);
  g_assert_null (g_list_model_get_item (list, 0));
  tks_event_list_model_set_range (model, NAN, NAN);
  g_assert_cmpuint (shadow, ==, tks_event_list_model_get_n_all (model));

  /* the row of a thread's run, and the run of a row */
  {
    const TksThread *th = tks_capture_get_thread (capture, thread);
    guint p = tks_event_list_model_find_run (model, thread, th->runs[1].begin);
    g_autoptr(TksEventRow) row = g_list_model_get_item (list, p);
    guint run_thread, run;

    g_assert_cmpuint (tks_event_row_get_kind (row), ==, TKS_EVENT_ROW_SWITCH);
    g_assert_cmpstr (tks_event_row_get_who (row), ==, "sensor");
    g_assert_cmpfloat (tks_event_row_get_time (row), ==, th->runs[1].begin);
    g_assert_true (tks_event_list_run_at (capture, tks_event_row_get_thread (row),
                                          tks_event_row_get_time (row), &run_thread, &run));
    g_assert_cmpuint (run_thread, ==, thread);
    g_assert_cmpuint (run, ==, 1);
  }

  /* a new capture: the view starts again */
  tks_event_list_model_set_capture (model, NULL);
  g_assert_cmpuint (shadow, ==, 0);
}

/* A capture without events lists its switch records, with their runs, the holes, the log's
 * end and the trigger. */
static void
test_switches (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.raw.txt");
  g_autoptr(TksEventListModel) model = tks_event_list_model_new ();
  GListModel *list = G_LIST_MODEL (model);
  guint n, n_gaps = 0, extras = 0, switches = 0, runs = 0, triggers = 0;
  double trigger;

  g_assert_null (tks_capture_get_events (capture));
  tks_event_list_model_set_capture (model, capture);
  n = g_list_model_get_n_items (list);
  tks_capture_get_gaps (capture, &n_gaps);
  extras = n_gaps + (tks_capture_get_log_end (capture, NULL) < tks_capture_get_end (capture))
           + tks_capture_get_trigger (capture, &trigger);
  g_assert_cmpuint (n, ==, tks_capture_get_n_records (capture) + extras);
  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    runs += tks_capture_get_thread (capture, i)->n_runs;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TksEventRow) row = g_list_model_get_item (list, i);
      TksEventRowKind kind = tks_event_row_get_kind (row);

      if (kind == TKS_EVENT_ROW_SWITCH && !isnan (tks_event_row_get_duration (row)))
        {
          guint thread = tks_event_row_get_thread (row);
          const TksThread *th = tks_capture_get_thread (capture, thread);
          guint r = tks_runs_first_beginning_at (th->runs, 0, th->n_runs,
                                                 tks_event_row_get_time (row));

          g_assert_cmpstr (th->name, ==, tks_event_row_get_who (row));
          g_assert_cmpfloat (th->runs[r].end - th->runs[r].begin, ==,
                             tks_event_row_get_duration (row));
          switches++;
        }
      if (kind == TKS_EVENT_ROW_TRIGGER)
        {
          g_assert_cmpfloat (tks_event_row_get_time (row), ==, trigger);
          triggers++;
        }
    }
  g_assert_cmpuint (triggers, ==, 1);
  /* each run of a logged thread begins with a switch, but those that began before the log or
   * after a hole */
  g_assert_cmpuint (switches, <=, runs);
  g_assert_cmpuint (switches + tks_capture_get_n_threads (capture) * (1 + n_gaps), >=, runs);
}

static gboolean
same_number (double a,
             double b)
{
  return a == b || (isnan (a) && isnan (b));
}

/* A recording's next stretch (the same switches and more after them): the rows a view holds
 * are given back, the same objects, at their places, when they say the same; the others are
 * new. Each row says what a model of the next stretch alone says. */
static void
test_next_capture (void)
{
  g_autoptr(GString) text1 = tks_test_synthetic_capture (6, 2000, 4);
  g_autoptr(GString) text2 = tks_test_synthetic_capture (6, 3000, 4);
  g_autoptr(TksCapture) first = tks_test_capture_of_text (text1->str, text1->len);
  g_autoptr(TksCapture) next = tks_test_capture_of_text (text2->str, text2->len);
  g_autoptr(TksEventListModel) model = tks_event_list_model_new ();
  g_autoptr(TksEventListModel) alone = tks_event_list_model_new ();
  g_autoptr(GPtrArray) held = g_ptr_array_new_with_free_func (g_object_unref);
  double start = tks_capture_get_start (first), end = tks_capture_get_end (first);
  guint count, kept = 0, changes = 0;

  /* a view of the first stretch's last quarter, its end included, holding every row */
  tks_event_list_model_set_capture (model, first);
  tks_event_list_model_set_range (model, end - (end - start) / 4, end);
  count = g_list_model_get_n_items (G_LIST_MODEL (model));
  g_assert_cmpuint (count, >, 100);
  for (guint i = 0; i < count; i++)
    g_ptr_array_add (held, g_list_model_get_item (G_LIST_MODEL (model), i));
  g_signal_connect (model, "items-changed", G_CALLBACK (items_changed_cb), &count);

  n_changed = 0;
  tks_event_list_model_set_next_capture (model, next, 0, G_MAXUINT);
  changes = n_changed;
  g_assert_cmpuint (changes, ==, 1);
  g_assert_true (tks_event_list_model_get_capture (model) == next);
  tks_event_list_model_set_capture (alone, next);
  tks_event_list_model_set_range (alone, end - (end - start) / 4, end);
  g_assert_cmpuint (count, ==, g_list_model_get_n_items (G_LIST_MODEL (alone)));
  for (guint i = 0; i < count; i++)
    {
      g_autoptr(TksEventRow) row = g_list_model_get_item (G_LIST_MODEL (model), i);
      g_autoptr(TksEventRow) truth = g_list_model_get_item (G_LIST_MODEL (alone), i);

      g_assert_cmpuint (tks_event_row_get_index (row), ==, tks_event_row_get_index (truth));
      g_assert_cmpfloat (tks_event_row_get_time (row), ==, tks_event_row_get_time (truth));
      g_assert_cmpint (tks_event_row_get_kind (row), ==, tks_event_row_get_kind (truth));
      g_assert_cmpstr (tks_event_row_get_who (row), ==, tks_event_row_get_who (truth));
      g_assert_cmpstr (tks_event_row_get_detail (row), ==, tks_event_row_get_detail (truth));
      g_assert_true (same_number (tks_event_row_get_duration (row), tks_event_row_get_duration (truth)));
      g_assert_cmpuint (tks_event_row_get_thread (row), ==, tks_event_row_get_thread (truth));
      kept += row == g_ptr_array_index (held, i);
    }
  /* all but the rows at the first stretch's end, whose runs it did not see end */
  g_assert_cmpuint (kept, >=, count - 10);
  g_assert_cmpuint (kept, <, count);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("LC_ALL", "C.UTF-8", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/event-list/truth", test_truth);
  g_test_add_func ("/event-list/filter-range", test_filter_range);
  g_test_add_func ("/event-list/switches", test_switches);
  g_test_add_func ("/event-list/next-capture", test_next_capture);
  return g_test_run ();
}
