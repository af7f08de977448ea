/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Why a wake-up was late, on dumps the board library prints on the host stand-in (a 168 MHz
 * counter driven by hand): what made each thread ready, the latency split into handlers,
 * higher-priority, same-priority threads and the rest, periods and deadlines, and
 * tickscope-cli explain and stats --period, with the captures that cannot say (no events, a
 * wake-up never switched in, a thread that never runs).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "ch.h"
#include "host-stream.h"
#include "threads_utilities.h"

#include "tks-capture.h"
#include "tks-latency.h"
#include "tks-periods.h"
#include "tks-test-cli.h"
#include "tks-test-host-board.h"

enum { MAIN, IDLE, SENSOR, PEER, HIGH };

/* main 128, idle 1, sensor 100, peer 100, high 140; main is current. */
static void
boot (void)
{
  host_boot ();
  ch_host_thread_init (&threads[MAIN], "main", 128, CH_FLAG_MODE_STATIC);
  ch_host_switch (&threads[MAIN]);
  ch_host_thread_init (&threads[IDLE], "idle", 1, CH_FLAG_MODE_STATIC);
  ch_host_thread_init (&threads[SENSOR], "sensor", 100, CH_FLAG_MODE_STATIC);
  ch_host_thread_init (&threads[PEER], "peer", 100, CH_FLAG_MODE_STATIC);
  ch_host_thread_init (&threads[HIGH], "high", 140, CH_FLAG_MODE_STATIC);
}

static char *last_dump;   /* the text of the last dump read */

static TksCapture *
read_dump (void)
{
  g_autoptr(GError) error = NULL;
  const char *text;
  TksCapture *capture;

  g_free (last_dump);
  last_dump = host_run (tuCmdThreadsDump, 0, NULL);
  text = last_dump;
  capture = tks_capture_new_from_dump (text, strlen (text), &error);

  g_assert_no_error (error);
  g_assert_nonnull (capture);
  return capture;
}

static void
inside_usart (void)
{
  at (10, 2050);
  ch_host_ready (&threads[SENSOR]);
  irq (SysTick_Handler, 10, 2100, 10, 2150);
}

/* USART1 makes sensor ready at 2050 (with SysTick nested in it, 2100 to 2150) and leaves at
 * 2300; peer (same priority) runs to 2400, high to 3400, idle to 3500, then sensor: 1450
 * counts = handlers 200 + 50, higher 1000, same 100, rest 100. Sensor then makes high ready
 * (3600), which runs at 3700. */
static TksCapture *
scenario (void)
{
  boot ();
  sw (PEER, 10, 1000);
  inside = inside_usart;
  irq (USART1_IRQHandler, 10, 2000, 10, 2300);
  inside = NULL;
  sw (HIGH, 10, 2400);
  sw (IDLE, 11, 3400);
  sw (SENSOR, 11, 3500);
  ready (HIGH, 11, 3600);
  sw (HIGH, 11, 3700);
  sw (MAIN, 12, 3800);
  return read_dump ();
}

static guint
thread_index (TksCapture *capture,
              const char *name)
{
  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    if (g_str_equal (tks_capture_get_thread (capture, i)->name, name))
      return i;
  g_assert_not_reached ();
}

static const TksCause *
cause_named (const TksLatencyBreakdown *bd,
             TksCauseKind               kind,
             const char                *name)
{
  for (guint i = 0; i < bd->n_causes; i++)
    if (bd->causes[i].kind == kind && g_strcmp0 (bd->causes[i].name, name) == 0)
      return &bd->causes[i];
  return NULL;
}

static void
test_waker (void)
{
  g_autoptr(TksCapture) capture = scenario ();
  TksEvents *events = tks_capture_get_events (capture);
  guint n;
  const TksWakeup *w = tks_events_get_wakeups (events, &n);
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;

  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (w[0].thread, ==, thread_index (capture, "sensor"));
  g_assert_cmpuint (w[0].waker_kind, ==, TKS_WAKER_HANDLER);
  g_assert_cmpstr (tks_events_get_name (events, TKS_NAME_IRQ, w[0].waker), ==, "USART1_IRQHandler");
  g_assert_cmpuint (w[1].thread, ==, thread_index (capture, "high"));
  g_assert_cmpuint (w[1].waker_kind, ==, TKS_WAKER_THREAD);
  g_assert_cmpuint (w[1].waker, ==, thread_index (capture, "sensor"));
  first = tks_events_describe_waker (events, &w[0]);
  second = tks_events_describe_waker (events, &w[1]);
  g_assert_cmpstr (first, ==, "handler USART1_IRQHandler");
  g_assert_cmpstr (second, ==, "thread sensor");
}

static void
test_breakdown (void)
{
  g_autoptr(TksCapture) capture = scenario ();
  TksEvents *events = tks_capture_get_events (capture);
  const TksWakeup *w = tks_events_get_wakeups (events, NULL);
  g_autoptr(TksLatencyBreakdown) bd = tks_latency_explain (events, &w[0]);
  g_autoptr(TksLatencyBreakdown) bd2 = tks_latency_explain (events, &w[1]);
  g_autofree char *text = NULL;

  g_assert_nonnull (bd);
  g_assert_cmpint (bd->latency, ==, 1450);
  g_assert_cmpint (bd->handlers, ==, 250);
  g_assert_cmpint (bd->higher, ==, 1000);
  g_assert_cmpint (bd->equal, ==, 100);
  g_assert_cmpint (bd->rest, ==, 100);
  g_assert_cmpint (bd->handlers + bd->higher + bd->equal + bd->rest, ==, bd->latency);
  g_assert_cmpuint (bd->n_causes, ==, 5);
  /* the largest first */
  g_assert_cmpuint (bd->causes[0].kind, ==, TKS_CAUSE_HIGHER);
  g_assert_cmpstr (bd->causes[0].name, ==, "high");
  g_assert_cmpint (bd->causes[1].time, ==, 200);
  g_assert_cmpstr (bd->causes[1].name, ==, "USART1_IRQHandler");
  g_assert_cmpuint (bd->causes[1].count, ==, 2);   /* before and after the nested SysTick */
  g_assert_cmpint (cause_named (bd, TKS_CAUSE_HANDLER, "SysTick_Handler")->time, ==, 50);
  g_assert_cmpint (cause_named (bd, TKS_CAUSE_EQUAL, "peer")->time, ==, 100);
  g_assert_cmpint (cause_named (bd, TKS_CAUSE_LOWER, "idle")->time, ==, 100);

  /* made ready by a lower-priority thread, which ran until the switch: all rest */
  g_assert_nonnull (bd2);
  g_assert_cmpint (bd2->latency, ==, 100);
  g_assert_cmpint (bd2->rest, ==, 100);
  g_assert_cmpuint (bd2->n_causes, ==, 1);
  g_assert_cmpstr (bd2->causes[0].name, ==, "sensor");

  text = tks_latency_format (events, bd, "");
  g_assert_nonnull (strstr (text, "latency 8.6 µs = handlers 1.5 µs + higher priority 6.0 µs"));
  g_assert_nonnull (strstr (text, "6.0 µs  higher priority  thread high, ran 1 time\n"));

  /* worst and nearest */
  {
    guint n_found;
    g_autofree guint *worst = tks_latency_worst (events, G_MAXUINT, 5, &n_found);

    g_assert_cmpuint (n_found, ==, 2);
    g_assert_cmpuint (worst[0], ==, 0);
    g_assert_cmpuint (worst[1], ==, 1);
    g_clear_pointer (&worst, g_free);
    worst = tks_latency_worst (events, thread_index (capture, "high"), 5, &n_found);
    g_assert_cmpuint (n_found, ==, 1);
    g_assert_cmpuint (worst[0], ==, 1);
    g_assert_cmpuint (tks_latency_nearest (events, G_MAXUINT, w[1].ready.pos), ==, 1);
    g_assert_cmpuint (tks_latency_nearest (events, thread_index (capture, "sensor"), 1e9), ==, 0);
    g_assert_cmpuint (tks_latency_nearest (events, thread_index (capture, "peer"), 0), ==, G_MAXUINT);
  }
}

/* A Ready of a thread that never runs again: an open wake-up, no breakdown; one made ready
 * twice before it runs counts from the first. */
static void
test_unmatched (void)
{
  g_autoptr(TksCapture) capture = NULL;
  TksEvents *events;
  const TksWakeup *w;
  guint n;

  boot ();
  sw (PEER, 10, 1000);
  ready (SENSOR, 10, 1100);
  ready (SENSOR, 10, 1200);
  sw (SENSOR, 10, 1300);
  ready (HIGH, 10, 1400);
  sw (IDLE, 11, 1500);
  capture = read_dump ();
  events = tks_capture_get_events (capture);
  w = tks_events_get_wakeups (events, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (w[0].latency, ==, 200);
  {
    g_autoptr(TksLatencyBreakdown) bd = tks_latency_explain (events, &w[0]);

    g_assert_cmpint (bd->equal, ==, 200);
  }
  g_assert_true (w[1].open);
  g_assert_null (tks_latency_explain (events, &w[1]));
}

/* sensor, made ready by SysTick every 1000 counts (10 times), runs 100 counts (400 the
 * fifth time, preempted by high in the middle), then blocks: idle runs. */
static TksCapture *
periodic_scenario (gboolean jitter)
{
  boot ();
  sw (IDLE, 1, 100);
  for (guint k = 0; k < 10; k++)
    {
      rtcnt_t t = 1000 + 1000 * k + (jitter ? (k * 7919) % 600 : 0);

      ready (SENSOR, 2 + k, t);
      sw (SENSOR, 2 + k, t + 10);
      if (k == 4)
        {
          ready (HIGH, 2 + k, t + 50);
          sw (HIGH, 2 + k, t + 60);
          sw (SENSOR, 2 + k, t + 300);
          sw (IDLE, 2 + k, t + 400);
        }
      else
        sw (IDLE, 2 + k, t + 100);
    }
  return read_dump ();
}

static const TksPeriodStats *
period_row (GArray     *rows,
            guint       thread)
{
  for (guint i = 0; i < rows->len; i++)
    if (g_array_index (rows, TksPeriodStats, i).thread == thread)
      return &g_array_index (rows, TksPeriodStats, i);
  return NULL;
}

static void
test_periods (void)
{
  g_autoptr(TksCapture) capture = periodic_scenario (FALSE);
  TksEvents *events = tks_capture_get_events (capture);
  guint sensor = thread_index (capture, "sensor");
  g_autoptr(GArray) rows = tks_periods_stats (events, NULL, 0, 0);
  const TksPeriodStats *r = period_row (rows, sensor);
  g_autofree gint64 *deadlines = g_new0 (gint64, tks_capture_get_n_threads (capture));
  g_autoptr(GArray) given = NULL;
  TksTime end;

  g_assert_nonnull (r);
  g_assert_cmpuint (r->activations, ==, 10);
  g_assert_true (r->periodic);
  g_assert_cmpint (r->period, ==, 1000);
  g_assert_cmpint (r->interval_min, ==, 1000);
  g_assert_cmpint (r->interval_max, ==, 1000);
  g_assert_cmpint (r->interval_p99, ==, 1000);
  /* the last activation's end is not known (no later Ready) */
  g_assert_cmpuint (r->completed, ==, 9);
  g_assert_cmpint (r->response_min, ==, 100);
  /* the fifth: made ready at 5000, preempted at 5060, ran again and blocked at 5400 */
  g_assert_cmpint (r->response_max, ==, 400);
  g_assert_cmpuint (r->worst, ==, tks_latency_nearest (events, sensor, r->worst_ready.pos));
  g_assert_cmpint (r->worst_end.time - r->worst_ready.time, ==, 400);
  g_assert_true (tks_periods_activation_end (events, r->worst, &end));
  g_assert_cmpint (end.time, ==, r->worst_end.time);
  g_assert_cmpint (r->deadline, ==, 1000);
  g_assert_false (r->deadline_given);
  g_assert_cmpuint (r->misses, ==, 0);

  deadlines[sensor] = 300;
  given = tks_periods_stats (events, deadlines, tks_capture_get_n_threads (capture), 0);
  r = period_row (given, sensor);
  g_assert_true (r->deadline_given);
  g_assert_cmpint (r->deadline, ==, 300);
  g_assert_cmpuint (r->misses, ==, 1);

  /* high: made ready once, never again: no interval, no period */
  r = period_row (given, thread_index (capture, "high"));
  g_assert_cmpuint (r->activations, ==, 1);
  g_assert_false (r->periodic);
  g_assert_cmpuint (r->completed, ==, 0);
  g_assert_cmpuint (r->worst, ==, G_MAXUINT);
  /* threads never made ready have no row */
  g_assert_null (period_row (given, thread_index (capture, "peer")));
}

static void
test_aperiodic (void)
{
  g_autoptr(TksCapture) capture = periodic_scenario (TRUE);
  TksEvents *events = tks_capture_get_events (capture);
  g_autoptr(GArray) rows = tks_periods_stats (events, NULL, 0, 0);
  const TksPeriodStats *r = period_row (rows, thread_index (capture, "sensor"));

  g_assert_false (r->periodic);
  g_assert_cmpint (r->period, ==, 0);
  g_assert_cmpint (r->deadline, ==, 0);
  g_assert_cmpuint (r->misses, ==, 0);
  g_assert_cmpint (r->interval_min, <, r->interval_max);
  /* a wide tolerance makes it periodic */
  g_clear_pointer (&rows, g_array_unref);
  rows = tks_periods_stats (events, NULL, 0, 0.9);
  g_assert_true (period_row (rows, thread_index (capture, "sensor"))->periodic);
}

/* ------------------------------------------------------------------------------------------ */
/* tickscope-cli explain, stats --period                                                       */

/* The dump @capture was read from, in a file. */
static char *
write_capture (TksCapture *capture)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("tks-latency-XXXXXX.txt", &path, &error);

  (void) capture;
  g_assert_no_error (error);
  close (fd);
  {
    g_autofree char *reply = g_strconcat ("threads_dump\r\n", last_dump, NULL);

    g_assert_true (g_file_set_contents (path, reply, -1, &error));
    g_assert_no_error (error);
  }
  return path;
}

static void
test_cli_explain (void)
{
  g_autoptr(TksCapture) capture = scenario ();
  g_autofree char *path = write_capture (capture);
  g_auto(TksCliResult) r = tks_run_cli (NULL, "explain", path, NULL);
  g_auto(TksCliResult) one = tks_run_cli (NULL, "explain", path, "--worst", "1", NULL);
  g_auto(TksCliResult) high = tks_run_cli (NULL, "explain", path, "--thread", "high", NULL);
  g_auto(TksCliResult) near = tks_run_cli (NULL, "explain", path, "--at", "11.5", NULL);
  g_auto(TksCliResult) nobody = tks_run_cli (NULL, "explain", path, "--thread", "nobody", NULL);
  g_auto(TksCliResult) never = tks_run_cli (NULL, "explain", path, "--thread", "peer", NULL);
  g_auto(TksCliResult) bad = tks_run_cli (NULL, "explain", path, "--worst", "0", NULL);
  const char *sensor_line = "sensor: made ready at tick ";

  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, sensor_line));
  g_assert_nonnull (strstr (r.out, "by handler USART1_IRQHandler"));
  g_assert_nonnull (strstr (r.out, "high: made ready at tick "));
  g_assert_nonnull (strstr (r.out, "by thread sensor"));
  /* the worst first, its largest cause first */
  g_assert_true (strstr (r.out, sensor_line) < strstr (r.out, "high: made ready"));
  g_assert_true (strstr (r.out, "higher priority  thread high") < strstr (r.out, "handler          USART1_IRQHandler, ran 2 times"));
  g_assert_cmpint (one.status, ==, 0);
  g_assert_null (strstr (one.out, "high: made ready"));
  g_assert_cmpint (high.status, ==, 0);
  g_assert_null (strstr (high.out, sensor_line));
  g_assert_nonnull (strstr (high.out, "high: made ready"));
  g_assert_cmpint (near.status, ==, 0);
  g_assert_nonnull (strstr (near.out, "high: made ready"));
  g_assert_null (strstr (near.out, sensor_line));
  g_assert_cmpint (nobody.status, ==, 2);
  g_assert_nonnull (strstr (nobody.err, "no thread is named “nobody”"));
  g_assert_cmpint (never.status, ==, 0);
  g_assert_nonnull (strstr (never.out, "peer: never made ready"));
  g_assert_cmpint (bad.status, ==, 2);
  g_unlink (path);
}

/* The tid the flow @id starts on, in a Perfetto export. */
static guint
flow_start_tid (const char *json,
                guint       id)
{
  g_autofree char *tail = g_strdup_printf (",\"name\":\"wakeup\",\"cat\":\"wakeup\",\"id\":%u,\"ts\"", id);
  const char *p = strstr (json, tail);
  const char *tid;

  g_assert_nonnull (p);
  /* back to this event's start */
  while (p > json && *p != '{')
    p--;
  g_assert_nonnull (strstr (p, "\"ph\":\"s\""));
  tid = strstr (p, "\"tid\":");
  g_assert_true (tid != NULL && tid < strstr (p, "\"name\""));
  return (guint) g_ascii_strtoull (tid + 6, NULL, 10);
}

/* The name of the track @tid in a Perfetto export. */
static char *
track_name (const char *json,
            guint       tid)
{
  g_autofree char *key = g_strdup_printf ("\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"", tid);
  const char *p = strstr (json, key);

  g_assert_nonnull (p);
  p += strlen (key);
  return g_strndup (p, (gsize) (strchr (p, '"') - p));
}

/* Exports carry the waker: a Perfetto flow from its track (a handler's, a thread's), never
 * from the woken thread itself; ftrace's sched_wakeup on the waker's line. */
static void
test_exports (void)
{
  g_autoptr(TksCapture) capture = scenario ();
  g_autofree char *path = write_capture (capture);
  g_auto(TksCliResult) json = tks_run_cli (NULL, "export", path, "--format", "perfetto", NULL);
  g_auto(TksCliResult) ftrace = tks_run_cli (NULL, "export", path, "--format", "ftrace", NULL);
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;

  g_assert_cmpint (json.status, ==, 0);
  first = track_name (json.out, flow_start_tid (json.out, 1));
  second = track_name (json.out, flow_start_tid (json.out, 2));
  g_assert_cmpstr (first, ==, "irq USART1_IRQHandler");
  g_assert_cmpstr (second, ==, "sensor (prio 100)");
  g_assert_nonnull (strstr (json.out, "\"waker\":\"handler USART1_IRQHandler\""));
  g_assert_nonnull (strstr (json.out, "\"waker\":\"thread sensor\""));
  g_assert_cmpint (ftrace.status, ==, 0);
  /* made ready by USART1 while peer ran: on peer's line; high by sensor: on sensor's */
  g_assert_nonnull (strstr (ftrace.out, "peer-4     [000] d..2 0.010992: sched_wakeup: comm=sensor pid=3"));
  g_assert_nonnull (strstr (ftrace.out, "sensor-3     [000] d..2 0.011001: sched_wakeup: comm=high pid=5"));
  g_unlink (path);
}

/* Captures without events (a board's legacy replies): explain says wake-ups need an events
 * recording; stats says periods need them. */
static void
test_cli_no_events (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "board-run-mode.raw.txt", NULL);
  g_auto(TksCliResult) r = tks_run_cli (NULL, "explain", path, NULL);
  g_auto(TksCliResult) stats = tks_run_cli (NULL, "stats", path, NULL);
  g_auto(TksCliResult) period = tks_run_cli (NULL, "stats", path, "--period", "main=10ms", NULL);

  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "the capture has no events: wake-ups need an events recording"));
  g_assert_cmpstr (r.out, ==, "");
  g_assert_cmpint (stats.status, ==, 0);
  g_assert_null (strstr (stats.out, "Periods"));
  g_assert_cmpint (period.status, ==, 0);
  g_assert_nonnull (strstr (period.out, "Periods and deadlines: need wake-ups"));
}

static void
test_cli_stats_period (void)
{
  g_autoptr(TksCapture) capture = periodic_scenario (FALSE);
  g_autofree char *path = write_capture (capture);
  g_auto(TksCliResult) r = tks_run_cli (NULL, "stats", path, NULL);
  g_auto(TksCliResult) given = tks_run_cli (NULL, "stats", path, "--period", "sensor=1.7us", NULL);
  g_auto(TksCliResult) bad = tks_run_cli (NULL, "stats", path, "--period", "sensor", NULL);
  g_auto(TksCliResult) nobody = tks_run_cli (NULL, "stats", path, "--period", "x=1ms", NULL);
  const char *p;

  g_assert_cmpint (r.status, ==, 0);
  p = strstr (r.out, "Periods and deadlines");
  g_assert_nonnull (p);
  /* sensor: 10 activations, a period of 1000 counts (5.952 µs), no miss */
  g_assert_nonnull (strstr (p, "sensor"));
  g_assert_nonnull (strstr (p, "5.952"));
  g_assert_nonnull (strstr (p, "aperiodic"));   /* high */
  g_assert_cmpint (given.status, ==, 0);
  p = strstr (given.out, "Periods and deadlines");
  /* 1.7 µs = 286 counts: the 400-count response misses it, the others do not */
  g_assert_nonnull (strstr (p, "1.702 "));
  {
    g_auto(GStrv) lines = g_strsplit (p, "\n", -1);
    gboolean seen = FALSE;

    for (guint i = 0; lines[i] != NULL; i++)
      if (g_str_has_prefix (lines[i], "sensor"))
        {
          g_auto(GStrv) cells = g_strsplit_set (lines[i], " ", -1);
          GPtrArray *words = g_ptr_array_new ();

          for (guint c = 0; cells[c] != NULL; c++)
            if (*cells[c] != '\0')
              g_ptr_array_add (words, cells[c]);
          /* Thread Activations Period Int min/max/P99 Resp min/P99/max Deadline Misses ... */
          g_assert_cmpstr (g_ptr_array_index (words, 1), ==, "10");
          g_assert_cmpstr (g_ptr_array_index (words, 10), ==, "1");
          g_ptr_array_unref (words);
          seen = TRUE;
        }
    g_assert_true (seen);
  }
  g_assert_cmpint (bad.status, ==, 2);
  g_assert_nonnull (strstr (bad.err, "THREAD=DURATION"));
  g_assert_cmpint (nobody.status, ==, 2);
  g_unlink (path);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/latency/waker", test_waker);
  g_test_add_func ("/latency/breakdown", test_breakdown);
  g_test_add_func ("/latency/unmatched", test_unmatched);
  g_test_add_func ("/latency/periods", test_periods);
  g_test_add_func ("/latency/aperiodic", test_aperiodic);
  g_test_add_func ("/latency/cli/explain", test_cli_explain);
  g_test_add_func ("/latency/exports", test_exports);
  g_test_add_func ("/latency/cli/no-events", test_cli_no_events);
  g_test_add_func ("/latency/cli/stats-period", test_cli_stats_period);
  {
    int status = g_test_run ();

    g_free (last_dump);
    return status;
  }
}
