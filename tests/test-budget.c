/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Budgets, activation intervals, the per-subject profile and JSON strings (the core of
 * tickscope-cli check, diff and top). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tks-activations.h"
#include "tks-budget.h"
#include "tks-error.h"
#include "tks-events.h"
#include "tks-json.h"
#include "tks-profile.h"
#include "tks-stats.h"
#include "tks-test-data.h"

#define EVENTS_CAPTURE "simboard-record-events.raw.txt"

static void
test_quantity (void)
{
  static const struct { const char *text; TksQuantityKind kind; double value; const char *unit; } ok[] = {
    { "250us", TKS_QUANTITY_TIME, 250e-6, "us" },
    { " 1.5 ms", TKS_QUANTITY_TIME, 1.5e-3, "ms" },
    { "2s", TKS_QUANTITY_TIME, 2, "s" },
    { "40ns", TKS_QUANTITY_TIME, 40e-9, "ns" },
    { "12µs", TKS_QUANTITY_TIME, 12e-6, "µs" },
    { "0ms", TKS_QUANTITY_TIME, 0, "ms" },
    { "40%", TKS_QUANTITY_PERCENT, 40, "%" },
    { "12.5 %", TKS_QUANTITY_PERCENT, 12.5, "%" },
    { "3", TKS_QUANTITY_COUNT, 3, "" },
  };
  static const struct { const char *text; TksQuantityKind kind; const char *says; } bad[] = {
    { "250", TKS_QUANTITY_TIME, "needs a unit" },
    { "2 parsecs", TKS_QUANTITY_TIME, "not “parsecs”" },
    { "2%", TKS_QUANTITY_TIME, "not “%”" },
    { "-1ms", TKS_QUANTITY_TIME, "cannot be negative" },
    { "-0ms", TKS_QUANTITY_TIME, "cannot be negative" },
    { "abc", TKS_QUANTITY_TIME, "not a number" },
    { "", TKS_QUANTITY_TIME, "not a number" },
    { "nan ms", TKS_QUANTITY_TIME, "not a number" },
    { "inf s", TKS_QUANTITY_TIME, "not a number" },
    { "4ms", TKS_QUANTITY_PERCENT, "percentage" },
    { "40", TKS_QUANTITY_PERCENT, "percentage" },
    { "101%", TKS_QUANTITY_PERCENT, "at most 100" },
    { "1.5", TKS_QUANTITY_COUNT, "whole number" },
    { "2 ms", TKS_QUANTITY_COUNT, "whole number" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    {
      g_autoptr(GError) error = NULL;
      const char *unit = NULL;
      double v = -1, scale = 0;

      g_assert_true (tks_quantity_parse (ok[i].text, ok[i].kind, &v, &unit, &scale, &error));
      g_assert_no_error (error);
      g_assert_cmpfloat_with_epsilon (v, ok[i].value, ok[i].value * 1e-12 + 1e-18);
      g_assert_cmpstr (unit, ==, ok[i].unit);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      const char *unit = NULL;
      double v = -1, scale = 0;

      g_assert_false (tks_quantity_parse (bad[i].text, bad[i].kind, &v, &unit, &scale, &error));
      g_assert_error (error, TKS_ERROR, TKS_ERROR_PARSE);
      g_test_message ("%s: %s", bad[i].text, error->message);
      g_assert_nonnull (strstr (error->message, bad[i].says));
    }
}

static void
test_time_offset (void)
{
  static const struct { const char *text; double seconds; } ok[] = {
    { "1.25s", 1.25 }, { "-300ms", -0.3 }, { "420us", 420e-6 }, { "2", 2 }, { "-0.5", -0.5 },
    { "+1s", 1 }, { "0.358004s", 0.358004 },
  };
  const char *bad[] = { "", "s", "--1s", "1 parsec", "1%", "nan", "-inf" };

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    {
      double s = NAN;

      g_assert_true (tks_time_offset_parse (ok[i].text, &s, NULL));
      g_assert_cmpfloat_with_epsilon (s, ok[i].seconds, 1e-12);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      double s = NAN;

      g_assert_false (tks_time_offset_parse (bad[i], &s, &error));
      g_assert_error (error, TKS_ERROR, TKS_ERROR_USAGE);
    }
}

/* The ruler's origin: the trigger when there is one, else the start; a position and its time
 * from the origin go back and forth. */
static void
test_ruler_position (void)
{
  g_autoptr(TksCapture) plain = tks_test_load_data (EVENTS_CAPTURE);
  g_autoptr(TksCapture) triggered = tks_test_load_data ("board-trigger-exits.raw.txt");
  double trigger;

  g_assert_cmpfloat (tks_capture_ruler_origin (plain), ==, tks_capture_get_start (plain));
  g_assert_cmpfloat (tks_capture_ruler_position (plain, 0.5), ==,
                     tks_capture_get_start (plain) + 0.5 * tks_capture_get_tick_hz (plain));
  g_assert_true (tks_capture_get_trigger (triggered, &trigger));
  g_assert_cmpfloat (tks_capture_ruler_origin (triggered), ==, trigger);
  g_assert_cmpfloat (tks_capture_ruler_position (triggered, -0.01), ==,
                     trigger - 0.01 * tks_capture_get_tick_hz (triggered));
}

static void
test_intervals (void)
{
  const double times[] = { 0, 10, 21, 30, 40, 52 };
  TksActivationIntervals iv;

  /* intervals 10 11 9 10 12: mean 10.4 */
  tks_activation_intervals (times, G_N_ELEMENTS (times), NAN, NAN, &iv);
  g_assert_cmpuint (iv.n_intervals, ==, 5);
  g_assert_cmpfloat_with_epsilon (iv.mean, 10.4, 1e-12);
  g_assert_cmpfloat (iv.min, ==, 9);
  g_assert_cmpfloat (iv.max, ==, 12);
  g_assert_cmpfloat_with_epsilon (iv.jitter, 1.6, 1e-12);  /* 12 - 10.4 */
  g_assert_cmpfloat (iv.jitter_at, ==, 52);
  g_assert_cmpuint (iv.n_over, ==, 0);

  /* against a period of 10 with 1 allowed: 12 is over (by 2), at 52 */
  tks_activation_intervals (times, G_N_ELEMENTS (times), 10, 1, &iv);
  g_assert_cmpfloat (iv.reference, ==, 10);
  g_assert_cmpfloat (iv.jitter, ==, 2);
  g_assert_cmpfloat (iv.jitter_at, ==, 52);
  g_assert_cmpuint (iv.n_over, ==, 1);

  /* below two activations: nothing */
  tks_activation_intervals (times, 1, 10, 1, &iv);
  g_assert_cmpuint (iv.n_intervals, ==, 0);
  g_assert_true (isnan (iv.mean) && isnan (iv.jitter) && isnan (iv.jitter_at));
}

/* With events, a thread's activations are the switch-ins that end its wake-ups: one for each
 * wake-up that was not left open, each at its run's place. */
static void
test_activations_from_wakeups (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data (EVENTS_CAPTURE);
  TksEvents *events = tks_capture_get_events (capture);
  guint n_wakeups, expected = 0, sensor = G_MAXUINT;
  const TksWakeup *w = tks_events_get_wakeups (events, &n_wakeups);
  g_autoptr(GArray) times = NULL;
  gboolean from_wakeups = FALSE;
  TksActivationIntervals iv;

  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    if (g_strcmp0 (tks_capture_get_thread (capture, i)->name, "sensor") == 0)
      sensor = i;
  g_assert_cmpuint (sensor, !=, G_MAXUINT);
  for (guint i = 0; i < n_wakeups; i++)
    expected += w[i].thread == sensor && !w[i].open;

  times = tks_thread_activations (capture, sensor, NAN, NAN, &from_wakeups);
  g_assert_true (from_wakeups);
  g_assert_cmpuint (times->len, ==, expected);
  g_assert_cmpuint (times->len, >, 100);
  for (guint i = 1; i < times->len; i++)
    g_assert_cmpfloat (g_array_index (times, double, i), >=, g_array_index (times, double, i - 1));

  /* the simulated board's sensor thread wakes every 2 ticks (2 ms at 1 kHz) */
  tks_activation_intervals (&g_array_index (times, double, 0), times->len, NAN, NAN, &iv);
  g_assert_cmpfloat_with_epsilon (iv.mean, 2.0, 0.01);
  g_assert_cmpfloat (iv.jitter, <, 1.0);
}

/* Without events, every run's beginning, save a run already under way at the start. */
static void
test_activations_from_runs (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("simboard-record-5s.raw.txt");

  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    {
      const TksThread *t = tks_capture_get_thread (capture, i);
      g_autoptr(GArray) times = NULL;
      gboolean from_wakeups = TRUE;
      guint expected = t->n_runs;

      if ((t->flags & TKS_THREAD_LOGGED) == 0)
        continue;
      if (t->n_runs > 0 &&
          (t->flags & (TKS_THREAD_RUNNING_AT_START | TKS_THREAD_ASSUMED_START)) != 0)
        expected--;
      times = tks_thread_activations (capture, i, NAN, NAN, &from_wakeups);
      g_assert_false (from_wakeups);
      g_assert_cmpuint (times->len, ==, expected);
    }
}

/* The busiest window of runs: brute force over every window start on a fine grid agrees. */
static void
test_window_share (void)
{
  const TksRun runs[] = { { 0, 1 }, { 2, 6 }, { 7, 7.5 }, { 9, 10 } };
  double at = NAN, best = 0;

  /* window 4: [2, 6] is fully busy */
  g_assert_cmpfloat_with_epsilon (tks_runs_max_window_share (runs, 4, 0, 10, 4, &at), 100, 1e-9);
  g_assert_cmpfloat (at, >=, 2);
  g_assert_cmpfloat (at + 4, <=, 6 + 1e-9);

  /* window 5 */
  for (double t0 = 0; t0 <= 5 + 1e-9; t0 += 0.01)
    {
      double busy = 0;

      for (guint i = 0; i < 4; i++)
        busy += MAX (0, MIN (runs[i].end, t0 + 5) - MAX (runs[i].begin, t0));
      best = MAX (best, busy);
    }
  g_assert_cmpfloat_with_epsilon (tks_runs_max_window_share (runs, 4, 0, 10, 5, &at),
                                  100 * best / 5, 1e-6);
  /* a window longer than the range: the whole range */
  g_assert_cmpfloat_with_epsilon (tks_runs_max_window_share (runs, 4, 0, 10, 50, &at), 65, 1e-9);
  g_assert_cmpfloat (at, ==, 0);
}

/* The profile agrees with the statistics of tickscope-cli stats and its latency table. */
static void
test_profile (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data (EVENTS_CAPTURE);
  g_autoptr(GArray) rows = tks_profile_compute (capture, NAN, NAN);
  g_autoptr(GArray) stats = tks_stats_compute (capture, NAN, NAN, NULL, NULL);
  g_autoptr(GArray) lat = tks_events_latency_stats (tks_capture_get_events (capture), NAN, NAN);
  g_autoptr(GArray) handlers = tks_events_handler_stats (tks_capture_get_events (capture), NAN, NAN);
  double tick_hz = tks_capture_get_tick_hz (capture);
  guint n_threads = 0, n_handlers = 0;

  for (guint i = 0; i < rows->len; i++)
    {
      const TksProfileRow *r = &g_array_index (rows, TksProfileRow, i);

      if (r->kind == TKS_SUBJECT_HANDLER)
        {
          const TksHandlerStats *h = &g_array_index (handlers, TksHandlerStats, r->index);

          n_handlers++;
          g_assert_cmpuint (r->activations, ==, h->count);
          g_assert_cmpfloat_with_epsilon (r->max_run_us, h->longest_us, 1e-9);
          g_assert_cmpfloat (r->share, >, 0);
          continue;
        }
      n_threads++;
      if (r->measured)
        {
          const TksThreadStats *s = &g_array_index (stats, TksThreadStats, r->index);

          g_assert_cmpfloat_with_epsilon (r->share, s->share, 1e-9);
          g_assert_cmpuint (r->activations, ==, s->activations);
          g_assert_cmpfloat_with_epsilon (r->max_run_us, s->max_run * 1e6 / tick_hz, 1e-6);
        }
      for (guint j = 0; j < lat->len; j++)
        {
          const TksLatencyStats *l = &g_array_index (lat, TksLatencyStats, j);

          if (l->thread != r->index)
            continue;
          g_assert_cmpuint (r->n_latencies, ==, l->count);
          g_assert_cmpfloat_with_epsilon (r->p99_latency_us, l->p99_us, 1e-9);
          g_assert_cmpfloat_with_epsilon (r->max_latency_us, l->max_us, 1e-9);
        }
    }
  g_assert_cmpuint (n_handlers, ==, handlers->len);
  g_assert_cmpuint (n_threads, >, 10);
}

static TksBudgets *
budgets_of (TksCapture  *capture,
            const char  *text,
            GError     **error)
{
  return tks_budgets_new_from_data (text, strlen (text), "b.ini", capture, error);
}

/* Mistakes in a budgets file: each named with its line. */
static void
test_budget_errors (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data (EVENTS_CAPTURE);
  static const struct { const char *text; const char *says; } bad[] = {
    { "[sensor]\nmax-lat = 3ms\n", "b.ini:2: unknown key “max-lat” in [sensor]" },
    { "# c\n[nosuch]\nmax-run = 1ms\n", "b.ini:2: [nosuch]: no thread or handler of that name" },
    { "[sensor]\nmax-run = 3\n", "b.ini:2: max-run: “3” needs a unit" },
    { "[sensor]\n\nmax-share = 3ms\n", "b.ini:3: max-share: “3ms”: a share is a percentage" },
    { "[sensor]\nmax-run = -3ms\n", "b.ini:2: max-run: “-3ms”: a budget cannot be negative" },
    { "[sensor]\nmax-run = fast\n", "b.ini:2: max-run: “fast” is not a number" },
    { "max-run = 1ms\n", "b.ini:1: “max-run = 1ms” comes before any [group]" },
    { "[sensor]\nmax-run 1ms\n", "b.ini:2: “max-run 1ms” is not a [group]" },
    { "[sensor\n", "b.ini:1: “[sensor” is not a group" },
    { "[sensor]\nmax-duration = 1ms\n", "b.ini:2: max-duration is not a budget of a thread" },
    { "[SysTick_Handler]\nmax-run = 1ms\n", "b.ini:2: max-run is not a budget of a handler" },
    { "[capture]\nmax-dropped = 1ms\n", "b.ini:2: max-dropped: “1ms”: a count is a whole number" },
    { "[sensor]\nmax-run = 1ms\nmax-run = 2ms\n", "b.ini:3: max-run is given twice for [sensor] (first on line 2)" },
    { "# only a comment\n", "b.ini: no budget in it" },
    { "[sensor]\nmax-run = 1ms\x01\n", "b.ini:2:" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TksBudgets) b = budgets_of (capture, bad[i].text, &error);

      g_assert_null (b);
      g_assert_error (error, TKS_ERROR, TKS_ERROR_PARSE);
      g_test_message ("%s", error->message);
      g_assert_true (g_str_has_prefix (error->message, bad[i].says));
    }
}

static const TksBudget *
find (TksBudgets *budgets,
      const char *subject,
      guint       kind)
{
  for (guint i = 0; i < tks_budgets_get_n (budgets); i++)
    {
      const TksBudget *b = tks_budgets_get (budgets, i);

      if (strcmp (b->subject, subject) == 0 && b->kind == kind)
        return b;
    }
  g_assert_not_reached ();
}

/* Budgets measured: the figures are the profile's, the verdicts follow the limits, the worst
 * moments are where the profile puts them. */
static void
test_budget_check (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data (EVENTS_CAPTURE);
  g_autoptr(GArray) rows = tks_profile_compute (capture, NAN, NAN);
  g_autoptr(GError) error = NULL;
  g_autoptr(TksBudgets) b = budgets_of (capture,
                                        "[sensor]\nmax-latency = 25us\nmax-run = 1ms\n"
                                        "period = 2ms\nmax-jitter = 0.5ms\n"
                                        "[logger]\nmax-run = 50us\n"
                                        "[SysTick_Handler]\nmax-duration = 100us\nmax-share = 0.1%\n"
                                        "[capture]\nmax-dropped = 0\n", &error);
  const TksProfileRow *sensor = NULL, *logger = NULL;
  const TksBudget *x;

  g_assert_no_error (error);
  for (guint i = 0; i < rows->len; i++)
    {
      const TksProfileRow *r = &g_array_index (rows, TksProfileRow, i);

      if (g_strcmp0 (r->name, "sensor") == 0)
        sensor = r;
      if (g_strcmp0 (r->name, "logger") == 0)
        logger = r;
    }
  g_assert_nonnull (sensor);
  g_assert_nonnull (logger);

  g_assert_cmpuint (tks_budgets_check (b, capture), ==, 3);

  /* sensor's longest latency is 30 µs: above 25 */
  x = find (b, "sensor", TKS_BUDGET_MAX_LATENCY);
  g_assert_cmpint (x->verdict, ==, TKS_BUDGET_VIOLATED);
  g_assert_cmpfloat_with_epsilon (x->measured, sensor->max_latency_us * 1e-6, 1e-12);
  g_assert_cmpfloat (x->at, ==, sensor->max_latency_at);
  g_assert_cmpuint (x->n_over, >, 0);
  g_assert_cmpuint (x->n_over, <, x->n_total);
  g_assert_cmpint (find (b, "sensor", TKS_BUDGET_MAX_RUN)->verdict, ==, TKS_BUDGET_HOLDS);
  g_assert_cmpint (find (b, "sensor", TKS_BUDGET_PERIOD)->verdict, ==, TKS_BUDGET_HOLDS);
  g_assert_cmpint (find (b, "sensor", TKS_BUDGET_MAX_JITTER)->verdict, ==, TKS_BUDGET_HOLDS);
  x = find (b, "logger", TKS_BUDGET_MAX_RUN);
  g_assert_cmpint (x->verdict, ==, TKS_BUDGET_VIOLATED);
  g_assert_cmpfloat_with_epsilon (x->measured, logger->max_run_us * 1e-6, 1e-12);
  g_assert_cmpfloat (x->at, ==, logger->max_run_at);
  g_assert_cmpint (find (b, "SysTick_Handler", TKS_BUDGET_MAX_DURATION)->verdict, ==,
                   TKS_BUDGET_HOLDS);
  /* the tick handler takes about 0.3 % of any second */
  x = find (b, "SysTick_Handler", TKS_BUDGET_MAX_SHARE);
  g_assert_cmpint (x->verdict, ==, TKS_BUDGET_VIOLATED);
  g_assert_cmpfloat (x->measured, >, 0.1);
  g_assert_cmpint (find (b, "capture", TKS_BUDGET_MAX_DROPPED)->verdict, ==, TKS_BUDGET_HOLDS);
}

/* A comment after a value, as the user's guide writes its budgets, is a comment: the limit is
 * the value before it. */
static void
test_budget_comments (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data (EVENTS_CAPTURE);
  g_autoptr(GError) error = NULL;
  g_autoptr(TksBudgets) b = budgets_of (capture,
                                        "# ci/budgets.ini\n"
                                        "[sensor]\n"
                                        "max-latency = 25us   # longest wake-up latency\n"
                                        "max-run = 1ms\t# longest run\n"
                                        "[SysTick_Handler]\n"
                                        "max-share = 0.1%     # of any window\n"
                                        "[capture]\n"
                                        "max-dropped = 0       # entries the board lost\n"
                                        "share-window = 1s     # the window of max-share\n",
                                        &error);

  g_assert_no_error (error);
  g_assert_nonnull (b);
  g_assert_cmpuint (tks_budgets_get_n (b), ==, 4);
  g_assert_cmpuint (tks_budgets_check (b, capture), ==, 2);
  g_assert_cmpint (find (b, "sensor", TKS_BUDGET_MAX_LATENCY)->verdict, ==, TKS_BUDGET_VIOLATED);
  g_assert_cmpint (find (b, "sensor", TKS_BUDGET_MAX_RUN)->verdict, ==, TKS_BUDGET_HOLDS);
  g_assert_cmpint (find (b, "capture", TKS_BUDGET_MAX_DROPPED)->verdict, ==, TKS_BUDGET_HOLDS);
}

/* Budgets a capture without events cannot measure: no data, counted as not holding. */
static void
test_budget_no_data (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("simboard-record-5s.raw.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(TksBudgets) b = budgets_of (capture, "[sensor]\nmax-latency = 1ms\nmax-run = 1ms\n"
                                                 "[watchdog]\nmax-run = 1ms\n", &error);
  const TksBudget *x;

  g_assert_no_error (error);
  g_assert_cmpuint (tks_budgets_check (b, capture), ==, 2);
  x = find (b, "sensor", TKS_BUDGET_MAX_LATENCY);
  g_assert_cmpint (x->verdict, ==, TKS_BUDGET_NO_DATA);
  g_assert_nonnull (strstr (x->note, "no events"));
  g_assert_cmpint (find (b, "sensor", TKS_BUDGET_MAX_RUN)->verdict, ==, TKS_BUDGET_HOLDS);
  /* watchdog is not logged */
  g_assert_cmpint (find (b, "watchdog", TKS_BUDGET_MAX_RUN)->verdict, ==, TKS_BUDGET_NO_DATA);
}

static void
test_json_string (void)
{
  static const struct { const char *text; const char *json; } cases[] = {
    { "sensor", "\"sensor\"" },
    { "a\"b\\c", "\"a\\\"b\\\\c\"" },
    { "tab\there\nnl\rcr", "\"tab\\there\\nnl\\rcr\"" },
    { "\x01\x1b[2J\x7f", "\"\\u0001\\u001b[2J\\u007f\"" },
    { "caf\xc3\xa9 \xe2\x80\xa8", "\"caf\xc3\xa9 \\u2028\"" },
    { "bad\xff\xfe!", "\"bad\\ufffd\\ufffd!\"" },
    { "", "\"\"" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GString) out = g_string_new (NULL);

      tks_json_append_string (out, cases[i].text);
      g_assert_cmpstr (out->str, ==, cases[i].json);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/budget/quantity", test_quantity);
  g_test_add_func ("/budget/time-offset", test_time_offset);
  g_test_add_func ("/budget/ruler-position", test_ruler_position);
  g_test_add_func ("/activations/intervals", test_intervals);
  g_test_add_func ("/activations/from-wakeups", test_activations_from_wakeups);
  g_test_add_func ("/activations/from-runs", test_activations_from_runs);
  g_test_add_func ("/profile/window-share", test_window_share);
  g_test_add_func ("/profile/against-stats", test_profile);
  g_test_add_func ("/budget/errors", test_budget_errors);
  g_test_add_func ("/budget/check", test_budget_check);
  g_test_add_func ("/budget/no-data", test_budget_no_data);
  g_test_add_func ("/budget/comments", test_budget_comments);
  g_test_add_func ("/json/string", test_json_string);
  return g_test_run ();
}
