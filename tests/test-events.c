/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Dump version 2 read by the host: the board library runs on the host stand-in with every
 * event option (a 168 MHz counter), prints its threads_dump, and the core reads it back into
 * the events model. Also hand-made dumps (a board without counter, damage, hostile values).
 */
#define _GNU_SOURCE
#include "config.h"

#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "ch.h"
#include "host-stream.h"
#include "threads_utilities.h"

#include "tks-capture.h"
#include "tks-error.h"
#include "tks-events.h"
#include "tks-test-board.h"
#include "tks-test-cli.h"
#include "tks-test-data.h"
#include "tks-test-host-board.h"

#define HZ 168000000.0

/* main (1), idle (2, priority 1), sensor (3); main is current. */
static void
boot (void)
{
  host_boot ();
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

/* The board's clock of a test that runs long: tick @tick, @extra cycles into it. */
static guint64
cycles (guint64 tick,
        guint64 extra)
{
  return tick * 168000 + extra;
}

/* The 32-bit counter wraps every 25.6 s and the 20-bit tick every 17.5 min: the times come
 * out exact and increasing through both, the counter unwrapped with the ticks. */
static void
test_counter_unwrap (void)
{
  static const guint64 clock[][2] = {
    { 100, 5 },          /* counter 16,800,005 */
    { 25664, 3 },        /* just before the counter's first wrap (at 25,565.6 ticks): */
    { 25666, 7 },        /* just after it */
    { 55666, 9 },        /* 30 s later: more than one whole wrap between two entries */
    { 1048575, 100 },    /* the last tick before the tick's wrap */
    { 1048581, 200 },    /* printed as tick 5 */
    { 1048582, 0 },
  };
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) capture = NULL;
  TksEvents *events;
  const TksEventEntry *entries;
  guint n;

  boot ();
  for (guint i = 0; i < G_N_ELEMENTS (clock); i++)
    sw (i % 2 == 0 ? 2 : 0, (systime_t) clock[i][0], (rtcnt_t) cycles (clock[i][0], clock[i][1]));
  text = dump ();
  g_assert_nonnull (strstr (text, "From  3 to  1 at       5 @ "));
  capture = read_dump (text);
  g_assert_null (tks_capture_get_damage (capture));
  events = tks_capture_get_events (capture);
  entries = tks_events_get_entries (events, &n);
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (clock));
  g_assert_cmpint (entries[0].time.time, ==, 16800005);
  for (guint i = 1; i < n; i++)
    {
      /* exact to the cycle */
      g_assert_cmpint (entries[i].time.time - entries[0].time.time, ==,
                       (gint64) (cycles (clock[i][0], clock[i][1]) - cycles (clock[0][0], clock[0][1])));
      /* in its tick, on the unwrapped axis of the runs */
      g_assert_cmpfloat (floor (entries[i].time.pos), ==, (double) clock[i][0]);
    }
  g_assert_cmpfloat (tks_capture_get_end (capture), >, 1048576.0);
}

/* A version 2 dump to change by hand: its checksum is made right again afterwards, from its
 * lines, as the board computes it (see WIRE-FORMAT.md). */
static guint32
fnv_word (guint32 h,
          guint32 w)
{
  for (guint b = 0; b < 4; b++)
    h = (h ^ ((w >> (8 * b)) & 0xFF)) * 16777619U;
  return h;
}

static char *
with_checksum (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\r\n", -1);
  GString *out = g_string_new (NULL);
  gboolean in_log = FALSE;
  guint32 h = 2166136261U;
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      guint a = 0, b = 0, t = 0;
      unsigned long c = 0, v = 0;
      gboolean counter = strstr (l, " @ ") != NULL;
      guint32 words[4];
      guint nw = 0;

      if (g_str_has_prefix (l, "End of dump:"))
        {
          g_string_append_printf (out, "End of dump: %u records, checksum %08X\r\n", n, h);
          in_log = FALSE;
          continue;
        }
      if (in_log && !g_str_has_prefix (l, "Triggered at"))
        {
          const char *at = strstr (l, " at ");

          g_assert_nonnull (at);
          t = (guint) strtoul (at + 4, NULL, 10);
          if (counter)
            c = strtoul (strstr (l, " @ ") + 3, NULL, 10);
          if (sscanf (l, "From %u to %u", &a, &b) == 2)
            words[nw++] = t << 12 | a << 6 | b;
          else if (sscanf (l, "Irq enter %u", &a) == 1 && a <= 30)
            words[nw++] = t << 12 | 63 << 6 | (32 + a);     /* a small id: in the word */
          else if (sscanf (l, "Irq enter %u", &a) == 1)
            words[nw++] = t << 12 | 63 << 6 | 1, words[nw++] = a;
          else if (g_str_has_prefix (l, "Irq leave"))
            words[nw++] = t << 12 | 63 << 6 | 2;
          else if (g_str_has_prefix (l, "Sleep"))
            words[nw++] = t << 12 | 63 << 6 | 3;
          else if (g_str_has_prefix (l, "Wake"))
            words[nw++] = t << 12 | 63 << 6 | 4;
          else if (sscanf (l, "Ready %u", &a) == 1)
            words[nw++] = t << 12 | 63 << 6 | 5, words[nw++] = a;
          else if (sscanf (l, "Marker %u = %lu", &a, &v) == 2)
            words[nw++] = t << 12 | 63 << 6 | 6, words[nw++] = a, words[nw++] = (guint32) v;
          else if (sscanf (l, "State %u begin %u", &a, &b) == 2)
            words[nw++] = t << 12 | 63 << 6 | 7, words[nw++] = a | b << 8;
          else if (sscanf (l, "State %u end", &a) == 1)
            words[nw++] = t << 12 | 63 << 6 | 8, words[nw++] = a;
          else if (g_str_has_prefix (l, "Trigger at"))
            words[nw++] = t << 12 | 63 << 6 | 9;
          else
            g_assert_not_reached ();
          h = fnv_word (h, words[0]);
          if (counter)
            h = fnv_word (h, (guint32) c);
          for (guint w = 1; w < nw; w++)
            h = fnv_word (h, words[w]);
          n++;
        }
      if (g_str_equal (l, "Timestamps:"))
        in_log = TRUE;
      if (lines[i + 1] != NULL)
        g_string_append_printf (out, "%s\r\n", l);
      else
        g_string_append (out, l);
    }
  return g_string_free (out, FALSE);
}

/* @text with @from replaced by @to (once, which must be there). */
static char *
replaced (const char *text,
          const char *from,
          const char *to)
{
  const char *at = strstr (text, from);

  g_assert_nonnull (at);
  return g_strdup_printf ("%.*s%s%s", (int) (at - text), text, to, at + strlen (from));
}

/* A board built without the counter (ticks only): the entries of a tick share it evenly, and
 * times are ticks. */
static const char ticks_only[] =
  "Dump version: 2\r\nTick frequency: 1000\r\nTick bits: 20\r\nLog size: 8\r\nSlot words: 1\r\n"
  "Events: irq ready\r\nMax threads: 62\r\nMode: run\r\nMax names: 4\r\nNames refused: 0\r\n"
  "Records: 6\r\nRecords written: 6\r\nThreads:\r\n"
  "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
  "Thread number  2 : Prio = 100, Log = Yes, Name = sensor\r\n"
  "Deleted threads: \r\nNames:\r\nName  1 : Kind = irq, Name = EXTI0_IRQHandler\r\n"
  "Timestamps:\r\n"
  "Irq enter  1 at       5\r\n"
  "Ready  2 at       5\r\n"
  "Irq leave at       5\r\n"
  "From  1 to  2 at       7\r\n"
  "Irq enter  9 at       8\r\n"
  "Irq leave at       8\r\n"
  "End of dump: 6 records, checksum 0\r\n";

static void
test_ticks_only (void)
{
  g_autofree char *text = with_checksum (ticks_only);
  g_autoptr(TksCapture) capture = read_dump (text);
  TksEvents *events = tks_capture_get_events (capture);
  const TksWakeup *w;
  const TksTrack *exti, *unknown;
  guint n;

  g_assert_null (tks_capture_get_damage (capture));
  g_assert_false (tks_events_has_counter (events));
  g_assert_cmpfloat (tks_events_get_time_hz (events), ==, 1000.0);
  exti = track_named (events, TKS_TRACK_IRQ, "EXTI0_IRQHandler");
  g_assert_cmpint (exti->slices[0].begin.time, ==, 5);
  g_assert_cmpfloat_with_epsilon (exti->slices[0].begin.pos, 5.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (exti->slices[0].end.pos, 5.0 + 2.0 / 3.0, 1e-12);
  /* An id the Names section does not list: named by its kind and number. */
  unknown = track_named (events, TKS_TRACK_IRQ, "irq 9");
  g_assert_cmpuint (unknown->n_slices, ==, 1);
  g_assert_cmpstr (tks_events_get_name (events, TKS_NAME_IRQ, 9), ==, "irq 9");
  w = tks_events_get_wakeups (events, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (w->latency, ==, 2);
  g_assert_cmpfloat (tks_events_to_us (events, w->latency), ==, 2000.0);
  g_assert_cmpstr (tks_capture_get_thread (capture, w->thread)->name, ==, "sensor");
}

/* Every kind of damage is named, never silently accepted. */
static void
test_damage (void)
{
  g_autofree char *good = every_kind_dump ();
  static const struct
  {
    const char *from;
    const char *to;
    const char *says;      /* in the damage */
  } cases[] = {
    { "Marker  2 = 42", "Marker  2 = 43", "checksum" },                /* a garbled value */
    { "State  3 end at      12 @ 2300\r\n", "", "arrived" },           /* a line lost */
    { "Irq enter  1 at      10", "Irq entxr  1 at      10", "" },      /* an unreadable line */
    { "Marker  2 = 42 at      11 @ 2000", "Marker  2 = 42 at      11", "" }, /* no counter */
    { "Sleep at ", "Doze at ", "" },                                    /* an unknown kind */
    { "From  3 to  2", "From  3 to 63", "" },                           /* no thread 63 */
    { "Irq enter  1 at      10", "Irq enter 256 at      10", "" },      /* ids have 8 bits */
    { "Ready  3", "Ready 63", "" },
    { "Counter frequency: 168000000", "Counter frequency: 99999999999", "header" },
    { "Counter bits: 32", "Counter bits: 16", "header" },
    { "Name  2 : Kind = marker", "Name  2 : Kind = mystery", "name" },
    { "End of dump: 17 records", "End of dump: 18 records", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = replaced (good, cases[i].from, cases[i].to);
      g_autoptr(GError) error = NULL;
      g_autoptr(TksCapture) capture = tks_capture_new_from_dump (text, strlen (text), &error);

      g_test_message ("%s -> %s", cases[i].from, cases[i].to);
      g_assert_no_error (error);
      g_assert_nonnull (tks_capture_get_damage (capture));
      g_assert_nonnull (strstr (tks_capture_get_damage (capture), cases[i].says));
    }

  /* A dump version this reader does not know is refused. */
  {
    g_autofree char *text = replaced (good, "Dump version: 2", "Dump version: 4");
    g_autoptr(GError) error = NULL;
    g_autoptr(TksCapture) capture = tks_capture_new_from_dump (text, strlen (text), &error);

    g_assert_null (capture);
    g_assert_error (error, TKS_ERROR, TKS_ERROR_PARSE);
    g_assert_nonnull (strstr (error->message, "dump versions 1 to 3"));
  }
}

/* Hostile values: huge ids, overlong names, absurd numbers: read in bounded memory, named. */
static void
test_hostile (void)
{
  g_autofree char *good = every_kind_dump ();
  g_autofree char *long_name = g_strnfill (5000, 'x');
  g_autofree char *named = g_strdup_printf ("Name  2 : Kind = marker, Name = %s", long_name);
  g_autofree char *t1 = replaced (good, "Name  2 : Kind = marker, Name = adc", named);
  g_autofree char *t2 = replaced (t1, "Name  3 : Kind = channel", "Name 999 : Kind = channel");
  g_autofree char *t3 = replaced (t2, "Irq enter  1 at      10", "Irq enter 255 at      10");
  g_autofree char *text = with_checksum (t3);
  g_autoptr(TksCapture) capture = read_dump (text);
  TksEvents *events = tks_capture_get_events (capture);
  const char *marker = tks_events_get_name (events, TKS_NAME_MARKER, 2);
  guint n_warnings;
  const char * const *warnings = tks_capture_get_warnings (capture, &n_warnings);
  gboolean cut = FALSE, outside = FALSE;

  g_assert_null (tks_capture_get_damage (capture));
  g_assert_cmpuint (strlen (marker), ==, 1024);
  g_assert_nonnull (track_named (events, TKS_TRACK_IRQ, "irq 255"));
  g_assert_nonnull (track_named (events, TKS_TRACK_STATE, "channel 3"));
  for (guint i = 0; i < n_warnings; i++)
    {
      cut |= strstr (warnings[i], "longer than 1024 bytes") != NULL;
      outside |= strstr (warnings[i], "id 999") != NULL;
    }
  g_assert_true (cut);
  g_assert_true (outside);
}

/* A condition trigger: the trigger entry's exact time, the header's condition and value. */
static void
test_trigger_entry (void)
{
  g_autofree char *reply = NULL;
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) capture = NULL;
  TksEvents *events;
  TksTime trigger;
  const TksWakeup *w;
  guint n;

  boot ();
  {
    char latency[] = "latency", limit[] = "500", name[] = "sensor";
    char *args[] = { latency, limit, name, NULL };

    reply = host_run (tuCmdThreadsTriggerWhen, 3, args);
  }
  ready (2, 5, 1000000);
  sw (2, 5, 1000000 + 100800);
  text = dump ();
  capture = read_dump (text);
  events = tks_capture_get_events (capture);
  g_assert_true (tks_events_get_trigger (events, &trigger));
  g_assert_cmpint (trigger.time, ==, 1100800);
  g_assert_cmpstr (tks_events_get_info (events)->condition, ==, "latency above 500 us of sensor");
  g_assert_true (tks_events_get_info (events)->has_trigger_value);
  g_assert_cmpuint (tks_events_get_info (events)->trigger_value, ==, 600);
  w = tks_events_get_wakeups (events, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpfloat_with_epsilon (tks_events_to_us (events, w->latency), 600.0, 1e-9);
  g_assert_cmpfloat (w->run.pos, ==, trigger.pos);
  /* the capture's trigger is the entry's exact place, not its tick */
  {
    double pos;

    g_assert_true (tks_capture_get_trigger (capture, &pos));
    g_assert_cmpfloat (pos, ==, trigger.pos);
    g_assert_cmpfloat (pos, !=, floor (pos));
  }
}

/* A trigger set by an event lies inside its tick: info, and every export, give its fraction,
 * not the tick rounded. */
static void
test_cli_trigger_fraction (void)
{
  g_autofree char *text = NULL;
  g_autofree char *input = NULL;
  g_autofree char *tick = NULL;
  g_autofree char *field = NULL;
  g_autofree char *row = NULL;
  g_autoptr(TksCapture) capture = NULL;
  double pos;

  boot ();
  {
    char latency[] = "latency", limit[] = "500", name[] = "sensor";
    char *args[] = { latency, limit, name, NULL };

    g_free (host_run (tuCmdThreadsTriggerWhen, 3, args));
  }
  ready (2, 5, 1000000);
  sw (2, 5, 1000000 + 100800);
  text = dump ();
  capture = read_dump (text);
  g_assert_true (tks_capture_get_trigger (capture, &pos));
  g_assert_cmpfloat (pos, !=, floor (pos));
  input = g_strconcat ("threads_dump\r\n", text, NULL);

  {
    g_auto (TksCliResult) info = tks_run_cli (input, "info", "-", NULL);

    g_assert_cmpint (info.status, ==, 0);
    tick = g_strdup_printf ("%.3f", pos);
    /* the dump's Trigger name: the condition that was met */
    field = g_strdup_printf ("Trigger:           tick %s, set by latency above 500 us of sensor\n",
                             tick);
    g_assert_cmpstr (tick, ==, "5.600");
    g_assert_nonnull (strstr (info.out, field));
  }
  {
    g_auto (TksCliResult) csv = tks_run_cli (input, "export", "-", "--format", "csv", NULL);
    g_auto (TksCliResult) json = tks_run_cli (input, "export", "-", "--format", "perfetto", NULL);
    const char *mark;
    /* 5.6 ticks at 1 kHz: 5600 µs */
    g_autofree char *ts = g_strdup_printf ("\"ts\":%.0f,", pos * 1000);

    g_assert_cmpint (csv.status, ==, 0);
    row = g_strdup_printf ("\r\ntrigger,latency above 500 us of sensor,,,%.1f,%.1f,\r\n", pos,
                           pos);
    g_assert_nonnull (strstr (csv.out, row));
    /* the trace's trigger mark, in µs */
    g_assert_cmpint (json.status, ==, 0);
    mark = strstr (json.out, "\"name\":\"trigger\"");
    g_assert_nonnull (mark);
    /* (its own ts, not one of a later event) */
    g_assert_nonnull (strstr (mark, ts));
    g_assert_true (strstr (mark, ts) < strchr (mark, '}'));
  }
}

/* A thread made ready and never switched in: its wake-up stays open. Thread numbers move
 * when a thread exits: a Ready names the thread by the number it had then. */
static void
test_wakeup_open_and_renumbered (void)
{
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) capture = NULL;
  TksEvents *events;
  const TksWakeup *w;
  guint n;

  boot ();
  ch_host_thread_init (&threads[3], "late", 90, CH_FLAG_MODE_STATIC);   /* number 4 */
  sw (2, 1, 168000);              /* main -> sensor */
  ready (3, 2, 2 * 168000);       /* Ready 4: late */
  at (2, 2 * 168000 + 10);
  ch_host_thread_exit (&threads[2]); /* sensor exits: late becomes number 3 */
  sw (3, 2, 2 * 168000 + 50);     /* late switched in as number 3 */
  sw (0, 2, 2 * 168000 + 60);
  ready (3, 2, 2 * 168000 + 70);  /* Ready 3: late, by its new number */
  sw (3, 2, 2 * 168000 + 100);
  ready (0, 3, 3 * 168000);       /* main made ready, never runs again */
  text = dump ();
  capture = read_dump (text);
  g_assert_null (tks_capture_get_damage (capture));
  events = tks_capture_get_events (capture);
  w = tks_events_get_wakeups (events, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpstr (tks_capture_get_thread (capture, w[0].thread)->name, ==, "late");
  g_assert_cmpuint (w[0].number, ==, 4);
  g_assert_false (w[0].open);
  g_assert_cmpint (w[0].latency, ==, 50);
  g_assert_cmpstr (tks_capture_get_thread (capture, w[1].thread)->name, ==, "late");
  g_assert_cmpuint (w[1].number, ==, 3);
  g_assert_cmpint (w[1].latency, ==, 30);
  g_assert_cmpstr (tks_capture_get_thread (capture, w[2].thread)->name, ==, "main");
  g_assert_true (w[2].open);

  /* Perfetto shows the open wake-up as a ready slice to the capture's end on main's track */
  {
    g_autofree char *input = g_strconcat ("threads_dump\r\n", text, NULL);
    g_auto (TksCliResult) p = tks_run_cli (input, "export", "-", "--format", "perfetto", NULL);
    g_autofree char *slice = NULL;
    char ts[G_ASCII_DTOSTR_BUF_SIZE];

    g_assert_cmpint (p.status, ==, 0);
    g_ascii_formatd (ts, sizeof ts, "%.15g", w[2].ready.pos * 1000);
    slice = g_strdup_printf ("{\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"name\":\"ready\","
                             "\"cat\":\"wakeup\",\"ts\":%s,", w[2].thread + 1, ts);
    g_test_message ("%s", p.out);
    g_assert_nonnull (strstr (p.out, slice));
    g_assert_nonnull (strstr (strstr (p.out, slice), "\"args\":{\"open\":true}}"));
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Statistics and exports on a scenario whose figures are known                               */

/* The board's clock at @us microseconds: ticks of 1 ms, counter at 168 MHz. */
static void
at_us (guint64 us)
{
  at ((systime_t) (us / 1000), (rtcnt_t) (us * 168));
}

static guint64 ready_at_us;

static void
ready_sensor_now (void)
{
  at_us (ready_at_us);
  ch_host_ready (&threads[2]);
}

/* Five wake-ups of sensor with latencies 10, 20, 30, 40 and 1000 µs, the first three made
 * ready by USART1 running 5, 10 and 15 µs; three markers 100 then 200 µs apart; the CPU asleep
 * 1 ms (woken by USART1). */
static char *
known_dump (void)
{
  static const guint latency[] = { 10, 20, 30, 40, 1000 };
  tuname_t tick;

  boot ();
  for (guint i = 0; i < G_N_ELEMENTS (latency); i++)
    {
      guint64 t = 1000 * (i + 1);

      ready_at_us = t + 1;
      if (i < 3)
        {
          inside = ready_sensor_now;
          irq (USART1_IRQHandler, (systime_t) (t / 1000), (rtcnt_t) (t * 168),
               (systime_t) ((t + 5 * (i + 1)) / 1000), (rtcnt_t) ((t + 5 * (i + 1)) * 168));
          inside = NULL;
        }
      else
        ready_sensor_now ();
      at_us (t + 1 + latency[i]);
      ch_host_switch (&threads[2]);
      at_us (t + 1 + latency[i] + 50);
      ch_host_switch (&threads[0]);
    }
  tick = tuRegisterMarker ("tick");
  for (guint i = 0; i < 3; i++)
    {
      static const guint64 when[] = { 20000, 20100, 20300 };

      at_us (when[i]);
      tuMarker (tick, 7 + i);
    }
  at_us (30000);
  ch_host_switch (&threads[1]);       /* idle: the CPU sleeps */
  irq (USART1_IRQHandler, 30, 30990 * 168, 30, 30995 * 168);
  at_us (31000);
  ch_host_switch (&threads[0]);
  {
    g_autofree char *text = dump ();

    return g_strconcat ("threads_dump\r\n", text, NULL);
  }
}

static void
test_stats_known (void)
{
  g_autofree char *text = known_dump ();
  g_autoptr(TksCapture) capture = read_dump (text);
  TksEvents *events = tks_capture_get_events (capture);
  g_autoptr(GArray) lat = tks_events_latency_stats (events, NAN, NAN);
  g_autoptr(GArray) handlers = tks_events_handler_stats (events, NAN, NAN);
  g_autoptr(GArray) markers = tks_events_marker_stats (events, NAN, NAN);
  g_autofree guint *hist = tks_events_latency_histogram (events, G_MAXUINT, NAN, NAN, 25, 4);
  const TksLatencyStats *l;
  const TksHandlerStats *h;
  const TksMarkerStats *m;

  g_assert_null (tks_capture_get_damage (capture));
  g_assert_cmpuint (lat->len, ==, 1);
  l = &g_array_index (lat, TksLatencyStats, 0);
  g_assert_cmpstr (tks_capture_get_thread (capture, l->thread)->name, ==, "sensor");
  g_assert_cmpuint (l->count, ==, 5);
  g_assert_cmpuint (l->n_open, ==, 0);
  g_assert_cmpfloat_with_epsilon (l->min_us, 10, 1e-9);
  g_assert_cmpfloat_with_epsilon (l->mean_us, 220, 1e-9);
  g_assert_cmpfloat_with_epsilon (l->p50_us, 30, 1e-9);
  g_assert_cmpfloat_with_epsilon (l->p99_us, 1000, 1e-9);
  g_assert_cmpfloat_with_epsilon (l->max_us, 1000, 1e-9);
  /* [0, 25): 10, 20; [25, 50): 30, 40; [50, 75): none; 75 and above: 1000 */
  g_assert_cmpuint (hist[0], ==, 2);
  g_assert_cmpuint (hist[1], ==, 2);
  g_assert_cmpuint (hist[2], ==, 0);
  g_assert_cmpuint (hist[3], ==, 1);

  g_assert_cmpuint (handlers->len, ==, 1);
  h = &g_array_index (handlers, TksHandlerStats, 0);
  g_assert_cmpstr (h->track->name, ==, "USART1_IRQHandler");
  g_assert_cmpuint (h->count, ==, 4);
  g_assert_cmpfloat_with_epsilon (h->total_us, 5 + 10 + 15 + 5, 1e-9);
  g_assert_cmpfloat_with_epsilon (h->longest_us, 15, 1e-9);

  g_assert_cmpuint (markers->len, ==, 1);
  m = &g_array_index (markers, TksMarkerStats, 0);
  g_assert_cmpuint (m->count, ==, 3);
  g_assert_cmpfloat_with_epsilon (m->min_interval_us, 100, 1e-9);
  g_assert_cmpfloat_with_epsilon (m->mean_interval_us, 150, 1e-9);
  g_assert_cmpfloat_with_epsilon (m->max_interval_us, 200, 1e-9);

  /* The clock is consistent: every entry at its exact time in ticks. */
  g_assert_cmpfloat_with_epsilon (tks_events_sleep_time (events, NAN, NAN), 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (tks_events_irq_time (events, NAN, NAN), 0.035, 1e-9);
  /* sensor ran 5 × 50 µs, no handler inside its runs */
  g_assert_cmpfloat_with_epsilon (
    tks_events_thread_time_without_irqs (events, tks_capture_get_thread (capture, l->thread),
                                         NAN, NAN), 0.250, 1e-9);
}

/* The words of a line */
static GStrv
squeeze (const char *line)
{
  g_auto (GStrv) words = g_strsplit (line, " ", -1);
  GPtrArray *kept = g_ptr_array_new ();

  for (guint i = 0; words[i] != NULL; i++)
    if (words[i][0] != '\0')
      g_ptr_array_add (kept, g_strdup (words[i]));
  g_ptr_array_add (kept, NULL);
  return (GStrv) g_ptr_array_free (kept, FALSE);
}

/* The whitespace-separated fields of the line of @out that starts with @head. */
static GStrv
row (const char *out,
     const char *head)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], head))
      return squeeze (lines[i]);
  g_test_message ("%s", out);
  g_assert_not_reached ();
}

static void
assert_fields (GStrv        fields,
               const char  *first,
               ...)
{
  va_list ap;
  const char *want = first;

  va_start (ap, first);
  for (guint i = 0; want != NULL; i++, want = va_arg (ap, const char *))
    {
      g_assert_nonnull (fields[i]);
      g_assert_cmpstr (fields[i], ==, want);
    }
  va_end (ap);
}

static void
test_cli_stats (void)
{
  g_autofree char *text = known_dump ();
  g_auto (TksCliResult) r = tks_run_cli (text, "stats", "-", "--histogram", "--bucket-us", "25", NULL);
  g_auto (GStrv) latency = NULL;
  g_auto (GStrv) handler = NULL;
  g_auto (GStrv) marker = NULL;
  g_auto (GStrv) sleep = NULL;
  g_auto (GStrv) hist = NULL;
  GStrv fields;

  g_test_message ("%s", r.out);
  g_assert_cmpint (r.status, ==, 0);
  latency = row (strstr (r.out, "Wake-up latency"), "sensor");
  assert_fields (latency, "sensor", "5", "0", "10.000", "220.000", "30.000", "1000.000",
                 "1000.000", NULL);
  handler = row (r.out, "USART1_IRQHandler");
  assert_fields (handler, "USART1_IRQHandler", "4", "35.000", "15.000", NULL);
  marker = row (r.out, "tick ");
  assert_fields (marker, "tick", "3", "100.000", "150.000", "200.000", NULL);
  sleep = row (r.out, "(CPU asleep)");
  g_assert_cmpstr (sleep[2], ==, "1.000");
  g_assert_nonnull (strstr (r.out, "Wake-up latency histogram of sensor (buckets of 25 µs):"));
  hist = g_strsplit (strstr (r.out, "Wake-up latency histogram of sensor"), "\n", 6);
  assert_fields (fields = squeeze (hist[1]), "from", "µs", "to", "µs", "count", NULL);
  g_strfreev (fields);
  assert_fields (fields = squeeze (hist[2]), "0", "25", "2", NULL);
  g_strfreev (fields);
  assert_fields (fields = squeeze (hist[3]), "25", "50", "2", NULL);
  g_strfreev (fields);
  assert_fields (fields = squeeze (hist[4]), "1000", "1025", "1", NULL);
  g_strfreev (fields);
  /* Right-aligned columns: every line as wide, in characters (the heading holds a µ) */
  for (guint i = 2; i <= 4; i++)
    g_assert_cmpint (g_utf8_strlen (hist[i], -1), ==, g_utf8_strlen (hist[1], -1));
}

static void
test_cli_info (void)
{
  g_autofree char *text = known_dump ();
  g_auto (TksCliResult) r = tks_run_cli (text, "info", "-", NULL);

  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "dump version 2, counter 168000000 Hz, built with: cycles irq "
                                   "sleep ready user conditions\n"));
  g_assert_nonnull (strstr (r.out, "12 switch, 4 irq enter, 4 irq leave, 1 sleep, 1 wake, "
                                   "5 ready, 3 marker, 0 state begin, 0 state end, 0 trigger\n"));
  g_assert_nonnull (strstr (r.out, "1 handlers, 1 markers, 0 state channels; 5 wake-ups (0 never "
                                   "switched in)\n"));
  g_assert_nonnull (strstr (r.out, "Condition:         none\n"));
}

/* The CSV's rows of every kind, in ticks (exact from the counter) or in a unit. */
static void
test_cli_export_csv (void)
{
  g_autofree char *text = every_kind_dump ();
  g_autofree char *input = g_strconcat ("threads_dump\r\n", text, NULL);
  g_auto (TksCliResult) r = tks_run_cli (input, "export", "-", "--format", "csv", NULL);
  g_auto (TksCliResult) us = tks_run_cli (input, "export", "-", "--format", "csv", "--unit", "us",
                                          NULL);
  /* (refused before any input is read) */
  g_auto (TksCliResult) bad = tks_run_cli (NULL, "export", "-", "--format", "csv", "--unit",
                                           "fortnights", NULL);

  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "kind,thread,priority,creation_order,begin,end,value\r\n"));
  /* Every row has the value column. */
  g_assert_nonnull (strstr (r.out, "run,sensor,100,2,10.995833,12.997024,\r\n"));
  g_assert_nonnull (strstr (r.out, "irq,USART1_IRQHandler,,,10.994048,10.995238,0\r\n"));
  g_assert_nonnull (strstr (r.out, "irq,SysTick_Handler,,,13.000298,13.000357,1\r\n"));
  g_assert_nonnull (strstr (r.out, "sleep,USART1_IRQHandler,,,12.997024,13.00119,\r\n"));
  g_assert_nonnull (strstr (r.out, "marker,adc,,,11,11,42\r\n"));
  g_assert_nonnull (strstr (r.out, "state,mode: busy,,,11.000595,12.996429,0\r\n"));
  g_assert_nonnull (strstr (r.out, "state,mode: calib,,,11.00119,12.995833,1\r\n"));
  g_assert_nonnull (strstr (r.out, "wakeup,sensor,100,2,10.994643,10.995833,1.19\r\n"));
  /* In µs at the 1 kHz tick. */
  g_assert_cmpint (us.status, ==, 0);
  g_assert_nonnull (strstr (us.out, "marker,adc,,,11000,11000,42\r\n"));
  g_assert_nonnull (strstr (us.out, "wakeup,sensor,100,2,10994.643,10995.833,1.19\r\n"));
  g_assert_cmpint (bad.status, ==, 2);
  g_assert_nonnull (strstr (bad.err, "unknown unit"));
}

/* ------------------------------------------------------------------------------------------ */
/* Saved captures                                                                               */

static void
assert_same_events (TksCapture *a,
                    TksCapture *b)
{
  TksEvents *ea = tks_capture_get_events (a), *eb = tks_capture_get_events (b);
  const TksEventEntry *xa, *xb;
  const TksWakeup *wa, *wb;
  guint na, nb;

  g_assert_nonnull (ea);
  g_assert_nonnull (eb);
  g_assert_cmpuint (tks_events_get_info (ea)->counter_hz, ==, tks_events_get_info (eb)->counter_hz);
  g_assert_cmpstr (tks_events_get_info (ea)->condition, ==, tks_events_get_info (eb)->condition);
  g_assert_cmpstr (tks_events_get_info (ea)->options, ==, tks_events_get_info (eb)->options);
  xa = tks_events_get_entries (ea, &na);
  xb = tks_events_get_entries (eb, &nb);
  g_assert_cmpuint (na, ==, nb);
  for (guint i = 0; i < na; i++)
    {
      g_assert_cmpuint (xa[i].kind, ==, xb[i].kind);
      g_assert_cmpuint (xa[i].a, ==, xb[i].a);
      g_assert_cmpuint (xa[i].b, ==, xb[i].b);
      g_assert_cmpint (xa[i].time.time, ==, xb[i].time.time);
      g_assert_cmpfloat (xa[i].time.pos, ==, xb[i].time.pos);
    }
  for (guint k = 0; k < TKS_N_TRACK_KINDS; k++)
    {
      const TksTrack *ta = tks_events_get_tracks (ea, k, &na);
      const TksTrack *tb = tks_events_get_tracks (eb, k, &nb);

      g_assert_cmpuint (na, ==, nb);
      for (guint t = 0; t < na; t++)
        {
          g_assert_cmpstr (ta[t].name, ==, tb[t].name);
          g_assert_cmpuint (ta[t].n_slices, ==, tb[t].n_slices);
          g_assert_cmpuint (ta[t].n_instants, ==, tb[t].n_instants);
        }
    }
  wa = tks_events_get_wakeups (ea, &na);
  wb = tks_events_get_wakeups (eb, &nb);
  g_assert_cmpuint (na, ==, nb);
  for (guint i = 0; i < na; i++)
    {
      g_assert_cmpuint (wa[i].thread, ==, wb[i].thread);
      g_assert_cmpint (wa[i].latency, ==, wb[i].latency);
      g_assert_cmpint (wa[i].open, ==, wb[i].open);
    }
  for (guint t = 0; t < tks_capture_get_n_threads (a); t++)
    {
      const TksThread *ra = tks_capture_get_thread (a, t), *rb = tks_capture_get_thread (b, t);

      g_assert_cmpuint (ra->n_runs, ==, rb->n_runs);
      for (guint r = 0; r < ra->n_runs; r++)
        {
          g_assert_cmpfloat (ra->runs[r].begin, ==, rb->runs[r].begin);
          g_assert_cmpfloat (ra->runs[r].end, ==, rb->runs[r].end);
        }
    }
}

static TksCapture *
save_and_reload (TksCapture *capture,
                 char      **saved)
{
  g_autoptr(GString) out = g_string_new (NULL);
  TksCapture *reloaded;

  g_assert_true (tks_capture_write (capture, out, NULL, 0));
  reloaded = tks_test_capture_of_text (out->str, out->len);
  if (saved != NULL)
    *saved = g_strdup (out->str);
  return reloaded;
}

/* A capture's events survive a save and a reload; a second save is the same file. The lines
 * hold nothing the original viewer's loader searches for. */
static void
test_save_reload (void)
{
  g_autofree char *text = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(TksCapture) reloaded = NULL;
  g_autoptr(TksCapture) again = NULL;
  g_auto (GStrv) lines = NULL;
  guint n_commands = 0;
  tuname_t m;

  g_free (every_kind_dump ());
  /* a name a loader could take for its own: written escaped ("ch> " would end the board's
   * reply itself) */
  m = tuRegisterMarker ("threads_list ch>x");
  at (14, 4000);
  tuMarker (m, 5);
  {
    char latency[] = "latency", limit[] = "500", name[] = "sensor";
    char *args[] = { latency, limit, name, NULL };

    g_free (host_run (tuCmdThreadsTriggerWhen, 3, args));
  }
  ready (2, 15, 5000);
  sw (2, 16, 5000 + 168000);
  text = dump ();
  capture = read_dump (text);
  reloaded = save_and_reload (capture, &first);
  assert_same_events (capture, reloaded);
  g_assert_cmpstr (tks_events_get_name (tks_capture_get_events (reloaded), TKS_NAME_MARKER, m), ==,
                   "threads_list ch>x");
  g_assert_true (tks_events_get_trigger (tks_capture_get_events (reloaded), NULL));
  again = save_and_reload (reloaded, &second);
  g_assert_cmpstr (first, ==, second);

  lines = g_strsplit (first, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_equal (lines[i], "threads_list") || g_str_equal (lines[i], "threads_timestamps"))
        n_commands++;
      else
        g_assert_null (strstr (lines[i], "threads_"));
      if (g_str_has_prefix (lines[i], "Tickscope event"))
        g_assert_null (strstr (lines[i], "ch>"));
    }
  g_assert_cmpuint (n_commands, ==, 2);
}

/* Saved events that do not match the log are named and left out; the capture still loads. */
static void
test_saved_mismatch (void)
{
  g_autofree char *text = every_kind_dump ();
  g_autoptr(TksCapture) capture = read_dump (text);
  g_autofree char *saved = NULL;
  g_autoptr(TksCapture) reloaded = save_and_reload (capture, &saved);
  g_autofree char *changed = replaced (saved, "Tickscope event From  1 to  3", "Tickscope event From  1 to  2");
  g_autofree char *garbled = replaced (saved, "Tickscope event Sleep at", "Tickscope event Slxep at");
  const char *inputs[] = { changed, garbled };
  const char *says[] = { "do not match the log", "unreadable saved event" };

  g_assert_nonnull (tks_capture_get_events (reloaded));

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(TksCapture) c = tks_test_capture_of_text (inputs[i], -1);
      guint n;
      const char * const *warnings;
      gboolean named = FALSE;

      g_assert_null (tks_capture_get_events (c));
      g_assert_cmpuint (tks_capture_get_n_records (c), ==, 3);
      warnings = tks_capture_get_warnings (c, &n);
      for (guint w = 0; w < n; w++)
        named |= strstr (warnings[w], says[i]) != NULL;
      g_assert_true (named);
    }
}

/* tests/data/board-events-v2.raw.txt is a session with a board running this library, the
 * shell's banner and help, then known_dump(): for the command-line examples and the fetch
 * test. It stays what the library prints. */
#define SHELL_HEAD "\r\nChibiOS/RT Shell\r\nch> help\r\nCommands: help exit info echo systime " \
  "threads_list threads_timestamps threads_timestamps_trigger threads_timestamps_run " \
  "threads_stat threads_uc threads_dump threads_trigger_when \r\nch> "

static void
test_fixture_current (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "board-events-v2.raw.txt", NULL);
  g_autofree char *text = known_dump ();
  g_autofree char *expected = g_strconcat (SHELL_HEAD, text, "ch> ", NULL);
  g_autofree char *contents = NULL;

  if (g_getenv ("TKS_WRITE_FIXTURE") != NULL)
    g_assert_true (g_file_set_contents (path, expected, -1, NULL));
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, expected);
}

/* Perfetto: a track per handler, markers as instants, wake-ups as flows from the handler that
 * made the thread ready; ftrace: the kernel's tracepoints. */
static void
test_cli_export_perfetto_ftrace (void)
{
  g_autofree char *text = every_kind_dump ();
  g_autofree char *input = g_strconcat ("threads_dump\r\n", text, NULL);
  g_auto (TksCliResult) p = tks_run_cli (input, "export", "-", "--format", "perfetto", NULL);
  g_auto (TksCliResult) f = tks_run_cli (input, "export", "-", "--format", "ftrace", NULL);

  g_assert_cmpint (p.status, ==, 0);
  /* threads are tids 1 to 3; the tracks follow */
  g_assert_nonnull (strstr (p.out, "{\"ph\":\"M\",\"pid\":1,\"tid\":4,\"name\":\"thread_name\",\"args\":{\"name\":\"irq USART1_IRQHandler\"}}"));
  g_assert_nonnull (strstr (p.out, "{\"ph\":\"X\",\"pid\":1,\"tid\":5,\"name\":\"SysTick_Handler\",\"cat\":\"irq\",\"ts\":13000.298,\"dur\":0.059,\"args\":{\"depth\":1}}"));
  g_assert_nonnull (strstr (p.out, "{\"ph\":\"i\",\"pid\":1,\"tid\":7,\"name\":\"adc\",\"cat\":\"marker\",\"s\":\"t\",\"ts\":11000,\"args\":{\"value\":42}}"));
  g_assert_nonnull (strstr (p.out, "\"name\":\"busy\",\"cat\":\"state\""));
  g_assert_nonnull (strstr (p.out, "{\"ph\":\"s\",\"pid\":1,\"tid\":4,\"name\":\"wakeup\",\"cat\":\"wakeup\",\"id\":1,\"ts\":10994.643}"));
  g_assert_nonnull (strstr (p.out, "{\"ph\":\"f\",\"pid\":1,\"tid\":3,\"name\":\"wakeup\",\"cat\":\"wakeup\",\"id\":1,\"bp\":\"e\",\"ts\":10995.833}"));

  g_assert_cmpint (f.status, ==, 0);
  g_assert_nonnull (strstr (f.out, ": irq_handler_entry: irq=1 name=USART1_IRQHandler\n"));
  g_assert_nonnull (strstr (f.out, ": irq_handler_exit: irq=6 ret=handled\n"));
  g_assert_nonnull (strstr (f.out, " 0.010995: sched_wakeup: comm=sensor pid=3 prio=100 target_cpu=000\n"));
  g_assert_nonnull (strstr (f.out, ": tracing_mark_write: adc=42\n"));
  g_assert_nonnull (strstr (f.out, ": tracing_mark_write: state_begin channel=mode state=calib\n"));
  g_assert_nonnull (strstr (f.out, ": tracing_mark_write: cpu_wake by=USART1_IRQHandler\n"));
}

/* Events before the first switch and after the last lie in the capture: its span covers them,
 * and the thread running at the end ran until then. */
static void
test_span_covers_events (void)
{
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) capture = NULL;
  const TksThread *sensor;
  tuname_t m;

  boot ();
  m = tuRegisterMarker ("m");
  at (5, 5 * 168000);
  tuMarker (m, 1);
  sw (2, 7, 7 * 168000);
  at (12, 12 * 168000 + 84000);
  tuMarker (m, 2);
  text = dump ();
  capture = read_dump (text);
  g_assert_cmpfloat (tks_capture_get_start (capture), ==, 5.0);
  g_assert_cmpfloat (tks_capture_get_end (capture), ==, 13.0);
  sensor = thread_named (capture, "sensor");
  g_assert_cmpuint (sensor->n_runs, ==, 1);
  g_assert_cmpfloat (sensor->runs[0].begin, ==, 7.0);
  g_assert_cmpfloat (sensor->runs[0].end, ==, 13.0);
  g_assert_true (sensor->flags & TKS_THREAD_RUNNING_AT_END);
}

/* tickscope-cli fetch from a board over a pty, and an export of what it wrote: the events go
 * through the session, the saved file and the export. */
static void
test_cli_fetch_export (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tickscope-events-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "fetched.txt", NULL);
  g_auto (TksCliResult) fetch = { 0 };
  g_auto (TksCliResult) csv = { 0 };
  g_auto (TksCliResult) stats = { 0 };
  TksTestBoard *board;
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  board = tks_test_board_start ("board-events-v2.raw.txt", master, TKS_TEST_BOARD_NORMAL, 0, 0);
  fetch = tks_run_cli (NULL, "fetch", ptsname (master), "-o", out, "--no-history", NULL);
  tks_test_board_stop (board);
  g_assert_cmpint (fetch.status, ==, 0);
  /* What the fetch cost, per switch and per entry of the log: 12 switches among 30 entries. */
  {
    const char *line = strstr (fetch.err, "12 switches in 30 log entries, ");
    guint64 bytes;
    double seconds, per_switch, per_entry;
    g_autofree char *wanted = NULL;

    g_assert_nonnull (line);
    g_assert_cmpint (sscanf (line, "12 switches in 30 log entries, %" G_GUINT64_FORMAT " bytes in "
                             "%lf s (%lf bytes per switch, %lf bytes per log entry)", &bytes,
                             &seconds, &per_switch, &per_entry), ==, 4);
    g_assert_cmpuint (bytes, >, 30 * 20);
    wanted = g_strdup_printf ("(%.2f bytes per switch, %.2f bytes per log entry)\n",
                              bytes / 12.0, bytes / 30.0);
    g_assert_nonnull (strstr (line, wanted));
  }

  csv = tks_run_cli (NULL, "export", out, "--format", "csv", NULL);
  g_assert_cmpint (csv.status, ==, 0);
  g_assert_nonnull (strstr (csv.out, "\r\nirq,USART1_IRQHandler,,,1,1.005,0\r\n"));
  g_assert_nonnull (strstr (csv.out, "\r\nsleep,USART1_IRQHandler,,,30,31,\r\n"));
  g_assert_nonnull (strstr (csv.out, "\r\nmarker,tick,,,20.1,20.1,8\r\n"));
  g_assert_nonnull (strstr (csv.out, "\r\nwakeup,sensor,100,2,5.001,6.001,1000\r\n"));
  stats = tks_run_cli (NULL, "stats", out, NULL);
  g_assert_nonnull (strstr (stats.out, "Wake-up latency"));
  g_assert_nonnull (strstr (stats.out, "1000.000"));
  g_assert_cmpint (g_remove (out), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* A hole in the log of a dump version 2: its place is a slot (a handler with an id above 30,
 * a Ready take two; a continuation left of an overwritten event comes first). */
static const char with_hole[] =
  "Dump version: 2\r\nTick frequency: 1000\r\nTick bits: 20\r\nLog size: 8\r\nSlot words: 1\r\n"
  "Events: irq ready\r\nMode: run\r\nMax names: 64\r\nNames refused: 0\r\n"
  "Records: 5\r\nSlots: 8\r\nRecords written: 100\r\nDropped while paused: 3\r\n"
  "Dropped for history: 0\r\n"
  "Paused: before record 99, ticks 7 to 8, 3 switches dropped\r\nThreads:\r\n"
  "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
  "Thread number  2 : Prio = 100, Log = Yes, Name = sensor\r\n"
  "Deleted threads: \r\nNames:\r\nTimestamps:\r\n"
  "From  1 to  2 at       5\r\n"
  "Ready  1 at       6\r\n"
  "Irq enter 40 at       6\r\n"
  "Irq leave at       6\r\n"
  "From  2 to  1 at       9\r\n"
  "End of dump: 5 records, checksum 0\r\n";

static void
test_hole_by_slots (void)
{
  g_autofree char *text = with_checksum (with_hole);
  g_autoptr(TksCapture) capture = read_dump (text);
  const TksGap *gaps;
  guint n;

  g_assert_null (tks_capture_get_damage (capture));
  gaps = tks_capture_get_gaps (capture, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpfloat (gaps[0].begin, ==, 7.0);
  g_assert_cmpfloat (gaps[0].end, ==, 8.0);
  g_assert_cmpuint (gaps[0].dropped, ==, 3);
  g_assert_nonnull (track_named (tks_capture_get_events (capture), TKS_TRACK_IRQ, "irq 40"));
}

/* Holes of a dump version 2 before its first entry (before the continuation left of an
 * overwritten event too) and after its last: placed, the log starts where the first ends and
 * ends with the last, and the thread running at the end runs up to the hole. */
static void
test_holes_at_log_ends (void)
{
  g_autoptr(GString) text = g_string_new (with_hole);
  g_autofree char *dump = NULL;
  g_autoptr(TksCapture) capture = NULL;
  const TksThread *main_thread;
  const TksGap *gaps;
  guint n, n_warnings;

  g_string_replace (text, "Paused: before record 99, ticks 7 to 8, 3 switches dropped\r\n",
                    "Paused: before record 92, ticks 2 to 4, 1 switches dropped\r\n"
                    "Paused: before record 99, ticks 7 to 8, 3 switches dropped\r\n"
                    "Paused: before record 100, ticks 9 to 12, 2 switches dropped\r\n", 1);
  dump = with_checksum (text->str);
  capture = read_dump (dump);
  g_assert_null (tks_capture_get_damage (capture));
  tks_capture_get_warnings (capture, &n_warnings);
  for (guint w = 0; w < n_warnings; w++)
    g_assert_null (strstr (tks_capture_get_warnings (capture, NULL)[w], "hole"));
  gaps = tks_capture_get_gaps (capture, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpfloat (gaps[0].begin, ==, 4.0);
  g_assert_cmpfloat (gaps[0].end, ==, 4.0);
  g_assert_cmpfloat (gaps[1].begin, ==, 7.0);
  g_assert_cmpfloat (gaps[2].begin, >=, 9.0);
  g_assert_cmpfloat (gaps[2].begin, <, 10.0);
  g_assert_cmpfloat (gaps[2].end, ==, 12.0);
  g_assert_cmpfloat (tks_capture_get_start (capture), ==, 4.0);
  g_assert_cmpfloat (tks_capture_get_end (capture), ==, 12.0);
  main_thread = tks_capture_get_thread (capture, 0);
  g_assert_cmpuint (main_thread->n_runs, >, 0);
  g_assert_cmpfloat (main_thread->runs[main_thread->n_runs - 1].end, ==, gaps[2].begin);
  g_assert_false (main_thread->flags & TKS_THREAD_RUNNING_AT_END);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/events/every-kind", test_every_kind);
  g_test_add_func ("/events/counter-unwrap", test_counter_unwrap);
  g_test_add_func ("/events/ticks-only", test_ticks_only);
  g_test_add_func ("/events/hole-by-slots", test_hole_by_slots);
  g_test_add_func ("/events/holes-at-log-ends", test_holes_at_log_ends);
  g_test_add_func ("/events/damage", test_damage);
  g_test_add_func ("/events/hostile", test_hostile);
  g_test_add_func ("/events/trigger-entry", test_trigger_entry);
  g_test_add_func ("/events/span-covers-events", test_span_covers_events);
  g_test_add_func ("/events/wakeup-open-renumbered", test_wakeup_open_and_renumbered);
  g_test_add_func ("/events/stats-known", test_stats_known);
  g_test_add_func ("/events/save-reload", test_save_reload);
  g_test_add_func ("/events/fixture-current", test_fixture_current);
  g_test_add_func ("/events/saved-mismatch", test_saved_mismatch);
  g_test_add_func ("/events/cli/stats", test_cli_stats);
  g_test_add_func ("/events/cli/info", test_cli_info);
  g_test_add_func ("/events/cli/trigger-fraction", test_cli_trigger_fraction);
  g_test_add_func ("/events/cli/export-csv", test_cli_export_csv);
  g_test_add_func ("/events/cli/export-perfetto-ftrace", test_cli_export_perfetto_ftrace);
  g_test_add_func ("/events/cli/fetch-export", test_cli_fetch_export);
  return g_test_run ();
}
