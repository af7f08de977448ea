/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Dump version 2 read by the host: the board library runs on the host stand-in with every
 * event option (a 168 MHz counter), prints its threads_dump, and the core reads it back into
 * the events model. Also hand-made dumps (a board without counter, damage, hostile values).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib.h>

#include "ch.h"
#include "host-stream.h"
#include "threads_utilities.h"

#include "tks-capture.h"
#include "tks-error.h"
#include "tks-events.h"

#define HZ 168000000.0
#define N_THREADS 4

static thread_t threads[N_THREADS];

static void
at (systime_t tick,
    rtcnt_t   counter)
{
  ch_host_time = tick;
  ch_host_counter = counter;
}

static void
sw (int       i,
    systime_t tick,
    rtcnt_t   counter)
{
  at (tick, counter);
  ch_host_switch (&threads[i]);
}

static void
ready (int       i,
       systime_t tick,
       rtcnt_t   counter)
{
  at (tick, counter);
  ch_host_ready (&threads[i]);
}

/* Interrupt handlers as on a board: @inside runs in the handler, which leaves at the clock
 * given to irq(). */
static void (*inside) (void);
static systime_t leave_tick[2];
static rtcnt_t leave_counter[2];
static int depth;

static void
SysTick_Handler (void)
{
  CH_IRQ_PROLOGUE ();
  at (leave_tick[depth - 1], leave_counter[depth - 1]);
  CH_IRQ_EPILOGUE ();
}

static void
USART1_IRQHandler (void)
{
  CH_IRQ_PROLOGUE ();
  if (inside != NULL)
    inside ();
  at (leave_tick[depth - 1], leave_counter[depth - 1]);
  CH_IRQ_EPILOGUE ();
}

static void
irq (void      (*handler) (void),
     systime_t tick,
     rtcnt_t   counter,
     systime_t leave,
     rtcnt_t   leave_at)
{
  int d = depth++;

  leave_tick[d] = leave;
  leave_counter[d] = leave_at;
  at (tick, counter);
  handler ();
  depth--;
}

/* main (1), idle (2, priority 1), sensor (3); main is current. */
static void
boot (void)
{
  ch_host_reset ();
  tuResetState ();
  memset (threads, 0, sizeof threads);
  inside = NULL;
  ch_host_thread_init (&threads[0], "main", 128, CH_FLAG_MODE_STATIC);
  ch_host_switch (&threads[0]);
  ch_host_thread_init (&threads[1], "idle", 1, CH_FLAG_MODE_STATIC);
  ch_host_thread_init (&threads[2], "sensor", 100, CH_FLAG_MODE_STATIC);
}

static char *
dump (void)
{
  return host_run (tuCmdThreadsDump, 0, NULL);
}

static TksCapture *
read_dump (const char *text)
{
  g_autoptr(GError) error = NULL;
  TksCapture *capture = tks_capture_new_from_dump (text, strlen (text), &error);

  g_assert_no_error (error);
  g_assert_nonnull (capture);
  return capture;
}

static void
ready_sensor (void)
{
  ready (2, 10, 1100);
}

static void
nested_systick (void)
{
  irq (SysTick_Handler, 13, 3050, 13, 3060);
}

/* The scenario of the board's own test of every kind: SysTick wakes sensor, a marker, two
 * nested states, idle sleeps until USART1 (with SysTick nested in it) wakes the CPU. */
static char *
every_kind_dump (void)
{
  tuname_t adc, mode;

  boot ();
  inside = ready_sensor;
  irq (USART1_IRQHandler, 10, 1000, 10, 1200);
  adc = tuRegisterMarker ("adc");
  mode = tuRegisterChannel ("mode");
  sw (2, 10, 1300);
  at (11, 2000);
  tuMarker (adc, 42);
  at (11, 2100);
  tuStateBegin (mode, tuRegisterState ("busy"));
  at (11, 2200);
  tuStateBegin (mode, tuRegisterState ("calib"));
  at (12, 2300);
  tuStateEnd (mode);
  at (12, 2400);
  tuStateEnd (mode);
  sw (1, 12, 2500);
  inside = nested_systick;
  irq (USART1_IRQHandler, 13, 3000, 13, 3100);
  inside = NULL;
  sw (0, 13, 3200);
  return dump ();
}

static const TksTrack *
track_named (TksEvents    *events,
             TksTrackKind  kind,
             const char   *name)
{
  guint n;
  const TksTrack *tracks = tks_events_get_tracks (events, kind, &n);

  for (guint i = 0; i < n; i++)
    if (g_str_equal (tracks[i].name, name))
      return &tracks[i];
  g_assert_not_reached ();
}

static const TksThread *
thread_named (TksCapture *capture,
              const char *name)
{
  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    if (g_str_equal (tks_capture_get_thread (capture, i)->name, name))
      return tks_capture_get_thread (capture, i);
  g_assert_not_reached ();
}

/* Where the entry at @counter lies: the counter places the entries, with the earliest phase
 * that keeps each inside its tick. This hand-driven clock runs far slower than the ticks: the
 * entries of ticks 10 and 11 fit one phase (counter 2000 at 11.0, the first of tick 11: the
 * latest bound), those of ticks 12 and 13 another (counter 3000 at 13.0). */
#define AT(counter) ((counter) < 2300 ? 11.0 + ((double) (counter) - 2000) / (HZ / 1000.0) \
                                      : 13.0 + ((double) (counter) - 3000) / (HZ / 1000.0))

static double
sleep_begin_pos (TksEvents *events)
{
  return tks_events_get_tracks (events, TKS_TRACK_SLEEP, NULL)[0].slices[0].begin.pos;
}

static void
test_every_kind (void)
{
  g_autofree char *text = every_kind_dump ();
  g_autoptr(TksCapture) capture = read_dump (text);
  TksEvents *events = tks_capture_get_events (capture);
  const TksEventsInfo *info;
  const TksTrack *systick, *usart, *sleep, *adc, *mode;
  const TksWakeup *wakeups;
  const TksThread *sensor;
  guint n;

  g_assert_null (tks_capture_get_damage (capture));
  g_assert_nonnull (events);
  info = tks_events_get_info (events);
  g_assert_cmpuint (info->dump_version, ==, 2);
  g_assert_cmpuint (info->counter_hz, ==, 168000000);
  g_assert_cmpuint (info->counter_bits, ==, 32);
  g_assert_cmpstr (info->options, ==, "cycles irq sleep ready user conditions");
  g_assert_cmpstr (info->condition, ==, "none");
  g_assert_cmpuint (info->max_names, ==, 8);
  g_assert_true (tks_events_has_counter (events));
  g_assert_cmpfloat (tks_events_get_time_hz (events), ==, HZ);

  g_assert_cmpuint (tks_events_count (events, TKS_EVENT_SWITCH), ==, 3);
  g_assert_cmpuint (tks_events_count (events, TKS_EVENT_IRQ_ENTER), ==, 3);
  g_assert_cmpuint (tks_events_count (events, TKS_EVENT_IRQ_LEAVE), ==, 3);
  g_assert_cmpuint (tks_events_count (events, TKS_EVENT_READY), ==, 1);
  g_assert_cmpuint (tks_events_count (events, TKS_EVENT_MARKER), ==, 1);
  g_assert_cmpuint (tks_events_count (events, TKS_EVENT_STATE_BEGIN), ==, 2);
  g_assert_cmpuint (tks_events_count (events, TKS_EVENT_STATE_END), ==, 2);
  g_assert_cmpuint (tks_events_count (events, TKS_EVENT_SLEEP), ==, 1);
  g_assert_cmpuint (tks_events_count (events, TKS_EVENT_WAKE), ==, 1);
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, 3);
  tks_events_get_entries (events, &n);
  g_assert_cmpuint (n, ==, 17);

  /* Handlers: one track each, nesting kept, exact counter times. The handler entered before
   * the names were registered is SysTick (the board names it when it first runs). */
  tks_events_get_tracks (events, TKS_TRACK_IRQ, &n);
  g_assert_cmpuint (n, ==, 2);
  usart = track_named (events, TKS_TRACK_IRQ, "USART1_IRQHandler");
  systick = track_named (events, TKS_TRACK_IRQ, "SysTick_Handler");
  g_assert_cmpuint (usart->n_slices, ==, 2);
  g_assert_cmpint (usart->slices[0].begin.time, ==, 1000);
  g_assert_cmpint (usart->slices[0].end.time, ==, 1200);
  g_assert_cmpint (usart->slices[1].begin.time, ==, 3000);
  g_assert_cmpint (usart->slices[1].end.time, ==, 3100);
  g_assert_cmpuint (usart->slices[1].depth, ==, 0);
  g_assert_cmpuint (usart->max_depth, ==, 1);
  g_assert_cmpuint (systick->n_slices, ==, 1);
  g_assert_cmpint (systick->slices[0].begin.time, ==, 3050);
  g_assert_cmpint (systick->slices[0].end.time, ==, 3060);
  g_assert_cmpuint (systick->slices[0].depth, ==, 1);
  g_assert_cmpuint (systick->max_depth, ==, 2);
  g_assert_cmpstr (systick->slices[0].label, ==, "SysTick_Handler");
  g_assert_cmpfloat_with_epsilon (usart->slices[0].begin.pos, AT (1000), 1e-9);
  g_assert_cmpfloat_with_epsilon (usart->slices[0].end.pos, AT (1200), 1e-9);
  g_assert_cmpfloat_with_epsilon (systick->slices[0].begin.pos, AT (3050), 1e-9);
  g_assert_cmpfloat_with_epsilon (sleep_begin_pos (events), AT (2500), 1e-9);

  /* Sleep, with the handler that woke the CPU. */
  sleep = track_named (events, TKS_TRACK_SLEEP, "CPU sleep");
  g_assert_cmpuint (sleep->n_slices, ==, 1);
  g_assert_cmpint (sleep->slices[0].begin.time, ==, 2500);
  g_assert_cmpint (sleep->slices[0].end.time, ==, 3200);
  g_assert_cmpstr (sleep->slices[0].label, ==, "USART1_IRQHandler");
  g_assert_cmpuint (sleep->slices[0].flags, ==, 0);

  /* A marker with its value; nested states on their channel. */
  adc = track_named (events, TKS_TRACK_MARKER, "adc");
  g_assert_cmpuint (adc->n_instants, ==, 1);
  g_assert_cmpuint (adc->instants[0].value, ==, 42);
  g_assert_cmpint (adc->instants[0].time.time, ==, 2000);
  g_assert_cmpfloat_with_epsilon (adc->instants[0].time.pos, AT (2000), 1e-9);
  mode = track_named (events, TKS_TRACK_STATE, "mode");
  g_assert_cmpuint (mode->n_slices, ==, 2);
  g_assert_cmpstr (mode->slices[0].label, ==, "busy");
  g_assert_cmpint (mode->slices[0].begin.time, ==, 2100);
  g_assert_cmpint (mode->slices[0].end.time, ==, 2400);
  g_assert_cmpuint (mode->slices[0].depth, ==, 0);
  g_assert_cmpstr (mode->slices[1].label, ==, "calib");
  g_assert_cmpint (mode->slices[1].begin.time, ==, 2200);
  g_assert_cmpint (mode->slices[1].end.time, ==, 2300);
  g_assert_cmpuint (mode->slices[1].depth, ==, 1);
  g_assert_cmpuint (mode->max_depth, ==, 2);

  /* The wake-up of sensor: made ready in the handler, switched in 200 cycles later; its run
   * begins exactly there, not at an i/k share of the tick. */
  sensor = thread_named (capture, "sensor");
  wakeups = tks_events_get_wakeups (events, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (wakeups[0].thread, ==, sensor->index);
  g_assert_false (wakeups[0].open);
  g_assert_cmpint (wakeups[0].ready.time, ==, 1100);
  g_assert_cmpint (wakeups[0].run.time, ==, 1300);
  g_assert_cmpint (wakeups[0].latency, ==, 200);
  g_assert_cmpfloat_with_epsilon (tks_events_to_us (events, wakeups[0].latency), 200 / 168.0, 1e-9);
  g_assert_cmpuint (sensor->n_runs, ==, 1);
  g_assert_cmpfloat (sensor->runs[0].begin, ==, wakeups[0].run.pos);
  g_assert_cmpfloat_with_epsilon (sensor->runs[0].begin, AT (1300), 1e-9);
  g_assert_cmpfloat_with_epsilon (sensor->runs[0].end, AT (2500), 1e-9);
  g_assert_false (tks_events_get_trigger (events, NULL));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/events/every-kind", test_every_kind);
  return g_test_run ();
}
