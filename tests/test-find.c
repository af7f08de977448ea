/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Find's expressions (tks-find.h) on a board's dump version 2 whose every figure is known
 * (tests/data/board-events-v2.raw.txt: a 168 MHz counter; sensor made ready 5 times, with
 * latencies 10, 20, 30, 40 and 1000 µs, and running 50 µs each time; USART1_IRQHandler
 * running 5, 10, 15 and 5 µs, the last one waking the CPU from its sleep; the marker "tick"
 * with values 7, 8 and 9), and its wrong expressions.
 */
#include "config.h"

#include <math.h>

#include "tks-find.h"
#include "tks-test-data.h"

static guint
count (TksCapture *capture,
       const char *expression)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TksFind) find = tks_find_parse (expression, &error);
  g_autoptr(GArray) matches = NULL;
  guint n_total = 0;

  g_assert_no_error (error);
  g_assert_nonnull (find);
  matches = tks_find_run (find, capture, 0, 0, &n_total);
  g_assert_cmpuint (matches->len, ==, n_total);
  for (guint i = 1; i < matches->len; i++)
    g_assert_cmpfloat (g_array_index (matches, TksFindMatch, i - 1).begin, <=,
                       g_array_index (matches, TksFindMatch, i).begin);
  return n_total;
}

static void
test_matches (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-events-v2.raw.txt");

  /* wake-ups by latency, in every unit */
  g_assert_cmpuint (count (capture, "latency > 15us"), ==, 4);
  g_assert_cmpuint (count (capture, "latency > 15 µs"), ==, 4);
  g_assert_cmpuint (count (capture, "latency >= 20000ns"), ==, 4);
  g_assert_cmpuint (count (capture, "latency sensor >= 1ms"), ==, 1);
  g_assert_cmpuint (count (capture, "latency < 0.5ticks"), ==, 4);
  g_assert_cmpuint (count (capture, "latency = 30us"), ==, 1);
  g_assert_cmpuint (count (capture, "wakeup main"), ==, 0);
  /* runs by thread and length */
  g_assert_cmpuint (count (capture, "run sensor"), ==, 5);
  g_assert_cmpuint (count (capture, "run sensor > 40us"), ==, 5);
  g_assert_cmpuint (count (capture, "RUN SENSOR > 60us"), ==, 0);
  /* handlers */
  g_assert_cmpuint (count (capture, "irq USART1"), ==, 4);
  g_assert_cmpuint (count (capture, "irq > 6us"), ==, 2);
  g_assert_cmpuint (count (capture, "irq usart1 < 6us"), ==, 2);
  g_assert_cmpuint (count (capture, "handler USART2"), ==, 0);
  /* markers by name and value */
  g_assert_cmpuint (count (capture, "marker tick = 8"), ==, 1);
  g_assert_cmpuint (count (capture, "marker tick"), ==, 3);
  g_assert_cmpuint (count (capture, "marker tick != 7"), ==, 2);
  g_assert_cmpuint (count (capture, "marker"), ==, 3);
  /* sleeps by the handler that woke the CPU */
  g_assert_cmpuint (count (capture, "sleep"), ==, 1);
  g_assert_cmpuint (count (capture, "sleep usart1"), ==, 1);
  g_assert_cmpuint (count (capture, "sleep usart2"), ==, 0);
  /* plain words: names of threads, handlers, markers */
  g_assert_cmpuint (count (capture, "sensor"), ==, 5);
  g_assert_cmpuint (count (capture, "usart"), ==, 4);
  g_assert_cmpuint (count (capture, "\"tick\""), ==, 3);
  g_assert_cmpuint (count (capture, "nothing-named-so"), ==, 0);
}

/* The latency found is the exact one, and a match says what it is. */
static void
test_measures (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-events-v2.raw.txt");
  g_autoptr(TksFind) find = tks_find_parse ("latency sensor", NULL);
  guint n_total = 0;
  g_autoptr(GArray) matches = tks_find_run (find, capture, 0, 2, &n_total);
  const TksFindMatch *m = &g_array_index (matches, TksFindMatch, 0);
  g_autofree char *what = tks_find_match_describe (capture, m);
  g_autofree char *described = tks_find_describe (find);

  /* at most 2 kept, all 5 counted */
  g_assert_cmpuint (n_total, ==, 5);
  g_assert_cmpuint (matches->len, ==, 2);
  g_assert_cmpuint (m->kind, ==, TKS_FIND_WAKEUP);
  g_assert_cmpfloat_with_epsilon (m->measure, 10.0, 1e-9);
  g_assert_cmpstr (tks_capture_get_thread (capture, m->thread)->name, ==, "sensor");
  g_assert_cmpstr (what, ==, "wake-up of sensor, latency 10.0 µs");
  g_assert_cmpstr (described, ==, "wake-ups of “sensor”");
}

static void
test_next (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-events-v2.raw.txt");
  g_autoptr(TksFind) find = tks_find_parse ("irq", NULL);
  g_autoptr(GArray) matches = tks_find_run (find, capture, 0, 0, NULL);
  double first = g_array_index (matches, TksFindMatch, 0).begin;
  double second = g_array_index (matches, TksFindMatch, 1).begin;
  g_autoptr(GArray) none = g_array_new (FALSE, FALSE, sizeof (TksFindMatch));

  g_assert_cmpuint (matches->len, ==, 4);
  g_assert_cmpuint (tks_find_next (matches, -1, TRUE), ==, 0);
  g_assert_cmpuint (tks_find_next (matches, first, TRUE), ==, 1);
  g_assert_cmpuint (tks_find_next (matches, second, FALSE), ==, 0);
  /* around the ends */
  g_assert_cmpuint (tks_find_next (matches, first, FALSE), ==, 3);
  g_assert_cmpuint (tks_find_next (matches, 1e9, TRUE), ==, 0);
  g_assert_cmpuint (tks_find_next (none, 0, TRUE), ==, G_MAXUINT);
}

typedef struct
{
  const char *expression;
  const char *message;
} Wrong;

/* A wrong expression says what is wrong and where. */
static void
test_errors (void)
{
  static const Wrong wrong[] = {
    { "latency >", "A number is expected after “>” at column 10" },
    { "latency > 100xs", "Unknown unit “xs” at column 14: use ns, us, ms, s or ticks" },
    { "latency > 100 parsecs", "Unknown unit “parsecs” at column 15: use ns, us, ms, s or ticks" },
    { "latency > 100", "“100” at column 11 needs a unit: ns, us, ms, s or ticks (as in 100us)" },
    { "run > fast", "“fast” at column 7 is not a number of zero or more" },
    { "run > -3ms", "“-3ms” at column 7 is not a number of zero or more" },
    { "marker sample = 4ms", "A marker's value is a plain number: “4ms” at column 17 is not one" },
    { "marker sample = 4.5",
      "A marker's value is a whole number from 0 to 4294967295: “4.5” at column 17 is not" },
    { "> 3ms", "“>” at column 1 compares nothing: begin with latency, run, irq, sleep, state or "
               "marker (as in latency > 100us)" },
    { "sensor = 2", "“=” at column 8 compares nothing: begin with latency, run, irq, sleep, "
                    "state or marker (as in latency > 100us)" },
    { "latency > 5us again", "Unexpected “again” at column 15: the expression ends after the value" },
    { "latency > 5us > 6us", "Unexpected “>” at column 15: the expression ends after the value" },
    { "run ! 3ms", "“!” at column 5 is not a comparison: use != (or >, >=, <, <=, =)" },
    { "irq \"USART", "The quote at column 5 is not closed" },
    { "", "Nothing to find: type a name, or an expression such as latency > 100us" },
    { "   ", "Nothing to find: type a name, or an expression such as latency > 100us" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (wrong); i++)
    {
      g_autoptr(GError) error = NULL;
      TksFind *find = tks_find_parse (wrong[i].expression, &error);

      g_test_message ("%s", wrong[i].expression);
      g_assert_null (find);
      g_assert_error (error, TKS_FIND_ERROR, TKS_FIND_ERROR_SYNTAX);
      g_assert_cmpstr (error->message, ==, wrong[i].message);
    }
  {
    g_autoptr(GError) error = NULL;

    g_assert_null (tks_find_parse ("irq \xff", &error));
    g_assert_error (error, TKS_FIND_ERROR, TKS_FIND_ERROR_SYNTAX);
  }
}

/* A capture without events: runs only; the others find nothing. */
static void
test_without_events (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-run-mode.raw.txt");

  g_assert_null (tks_capture_get_events (capture));
  g_assert_cmpuint (count (capture, "run"), >, 0);
  g_assert_cmpuint (count (capture, "latency > 0us"), ==, 0);
  g_assert_cmpuint (count (capture, "irq"), ==, 0);
  g_assert_cmpuint (count (capture, "run > 0ticks") + count (capture, "run = 0ticks"), ==,
                    count (capture, "run"));
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("LC_ALL", "C.UTF-8", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/find/matches", test_matches);
  g_test_add_func ("/find/measures", test_measures);
  g_test_add_func ("/find/next", test_next);
  g_test_add_func ("/find/errors", test_errors);
  g_test_add_func ("/find/without-events", test_without_events);
  return g_test_run ();
}
