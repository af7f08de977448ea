/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The board library's events (dump version 2), driven through the kernel hooks on the host
 * stand-in: cycle stamps, interrupt handlers (nested), sleep and its waker, wake-ups, markers,
 * states and condition triggers. Built with every event option, a 32-switch log (64 words
 * with the counter) and a 20-name table, so that wrap-around and a full table come quickly.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "ch.h"
#include "host-stream.h"
#include "threads_utilities.h"

#define N_THREADS 8

static thread_t threads[N_THREADS];

static void
boot (void)
{
  ch_host_reset ();
  tuResetState ();
  memset (threads, 0, sizeof threads);
}

static thread_t *
spawn (int i, const char *name, tprio_t prio)
{
  ch_host_thread_init (&threads[i], name, prio, CH_FLAG_MODE_STATIC);
  return &threads[i];
}

/* The board's clock: tick @tick, counter @counter. */
static void
at (systime_t tick, rtcnt_t counter)
{
  ch_host_time = tick;
  ch_host_counter = counter;
}

static void
sw (int i, systime_t tick, rtcnt_t counter)
{
  at (tick, counter);
  ch_host_switch (&threads[i]);
}

static void
ready (int i, systime_t tick, rtcnt_t counter)
{
  at (tick, counter);
  ch_host_ready (&threads[i]);
}

/* Interrupt handlers, written as on a board: @inside runs in the handler, which leaves at
 * the clock given to irq(). */
static void (*systick_inside) (void);
static void (*usart_inside) (void);
static systime_t leave_tick[2];
static rtcnt_t leave_counter[2];
static int irq_depth;

static void
SysTick_Handler (void)
{
  CH_IRQ_PROLOGUE ();
  if (systick_inside != NULL)
    systick_inside ();
  at (leave_tick[irq_depth - 1], leave_counter[irq_depth - 1]);
  CH_IRQ_EPILOGUE ();
}

static void
USART1_IRQHandler (void)
{
  CH_IRQ_PROLOGUE ();
  if (usart_inside != NULL)
    usart_inside ();
  at (leave_tick[irq_depth - 1], leave_counter[irq_depth - 1]);
  CH_IRQ_EPILOGUE ();
}

/* Runs @handler entering at (@tick, @counter) and leaving at (@leave, @leave_at). */
static void
irq (void (*handler) (void), systime_t tick, rtcnt_t counter, systime_t leave, rtcnt_t leave_at)
{
  int d = irq_depth++;

  g_assert_cmpint (d, <, 2);
  leave_tick[d] = leave;
  leave_counter[d] = leave_at;
  at (tick, counter);
  handler ();
  irq_depth--;
}

/* main (1), idle (2, priority 1: the idle thread), sensor (3); main is current. */
static void
boot_three (void)
{
  boot ();
  spawn (0, "main", 128);
  ch_host_switch (&threads[0]);
  spawn (1, "idle", 1);
  spawn (2, "sensor", 100);
}

static char *
run_cmd (void (*cmd) (BaseSequentialStream *, int, char *[]), const char *args)
{
  g_auto (GStrv) argv = args != NULL ? g_strsplit (args, " ", -1) : g_new0 (char *, 1);

  return host_run (cmd, (int) g_strv_length (argv), argv);
}

/* FNV-1a over the words of the entries, as the dump's checksum is defined. */
static guint32
checksum (const guint32 *words, gsize n)
{
  guint32 h = 2166136261U;

  for (gsize i = 0; i < n; i++)
    for (guint b = 0; b < 4; b++)
      {
        h ^= (words[i] >> (8 * b)) & 0xFF;
        h *= 16777619U;
      }
  return h;
}

#define REC(tick, out, in) (((guint32) (tick) << 12) | ((guint32) (out) << 6) | (guint32) (in))
#define EV(tick, kind)     REC (tick, 63, kind)

static void
ready_sensor (void)
{
  ready (2, 10, 1100);
}

static void
nested_systick (void)
{
  systick_inside = NULL;
  irq (SysTick_Handler, 13, 3050, 13, 3060);
}

/* Every kind of event, printed with its counter value, names listed once, byte for byte. */
static void
test_dump_every_kind (void)
{
  tuname_t adc, mode, busy, calib;
  g_autofree char *dump = NULL;
  g_autofree char *expected = NULL;
  const guint32 words[] = {
    EV (10, 32 + 1), 1000,            /* SysTick_Handler (registered: name 1) enters */
    EV (10, 5), 1100, 3,              /* sensor made ready */
    EV (10, 2), 1200,                 /* the handler leaves */
    REC (10, 1, 3), 1300,             /* main -> sensor */
    EV (11, 6), 2000, 2, 42,          /* marker adc = 42 */
    EV (11, 7), 2100, 3 | (4 << 8),   /* mode: busy begins */
    EV (11, 7), 2200, 3 | (5 << 8),   /* mode: calib begins, nested */
    EV (12, 8), 2300, 3,              /* the newest state of mode ends */
    EV (12, 8), 2400, 3,
    EV (12, 3), 2500,                 /* the CPU goes idle */
    REC (12, 3, 2), 2500,             /* sensor -> idle */
    EV (13, 32 + 6), 3000,            /* USART1 enters (registered now: name 6) */
    EV (13, 32 + 1), 3050,            /* SysTick nested in it */
    EV (13, 2), 3060,
    EV (13, 2), 3100,
    EV (13, 4), 3200,                 /* the CPU leaves idle */
    REC (13, 2, 1), 3200,             /* idle -> main */
  };

  boot_three ();
  systick_inside = ready_sensor;
  irq (SysTick_Handler, 10, 1000, 10, 1200);
  systick_inside = NULL;
  adc = tuRegisterMarker ("adc");
  mode = tuRegisterChannel ("mode");
  busy = tuRegisterState ("busy");
  calib = tuRegisterState ("calib");
  g_assert_cmpuint (adc, ==, 2);
  g_assert_cmpuint (tuRegisterMarker ("adc"), ==, adc);
  sw (2, 10, 1300);

  at (11, 2000);
  tuMarker (adc, 42);
  at (11, 2100);
  tuStateBegin (mode, busy);
  at (11, 2200);
  tuStateBegin (mode, calib);
  at (12, 2300);
  tuStateEnd (mode);
  at (12, 2400);
  tuStateEnd (mode);
  sw (1, 12, 2500);
  usart_inside = nested_systick;
  irq (USART1_IRQHandler, 13, 3000, 13, 3100);
  usart_inside = NULL;
  sw (0, 13, 3200);
  /* A marker without a name is not recorded. */
  tuMarker (0, 7);

  dump = run_cmd (tuCmdThreadsDump, NULL);
  expected = g_strdup_printf (
    "Dump version: 2\r\n"
    "Library version: 1.1.0\r\n"
    "Kernel version: 5.1.0\r\n"
    "Tick frequency: 1000\r\n"
    "Tick bits: 20\r\n"
    "Counter frequency: 168000000\r\n"
    "Counter bits: 32\r\n"
    "Log size: 32\r\n"
    "Slot words: 2\r\n"
    "Events: cycles irq sleep ready user conditions\r\n"
    "Max threads: 62\r\n"
    "Max deleted: 64\r\n"
    "Default log: Yes\r\n"
    "Mode: run\r\n"
    "Condition: none\r\n"
    "Max names: 40\r\n"
    "Names refused: 0\r\n"
    "Records: 17\r\n"
    "Slots: 23\r\n"
    "Records written: 23\r\n"
    "Dropped while paused: 0\r\n"
    "Dropped for history: 0\r\n"
    "Unnumbered threads: 0 live, 0 total\r\n"
    "Threads:\r\n"
    "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
    "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
    "Thread number  3 : Prio = 100, Log = Yes, Name = sensor\r\n"
    "Deleted threads: \r\n"
    "Names:\r\n"
    "Name  1 : Kind = irq, Name = SysTick_Handler\r\n"
    "Name  2 : Kind = marker, Name = adc\r\n"
    "Name  3 : Kind = channel, Name = mode\r\n"
    "Name  4 : Kind = state, Name = busy\r\n"
    "Name  5 : Kind = state, Name = calib\r\n"
    "Name  6 : Kind = irq, Name = USART1_IRQHandler\r\n"
    "Timestamps:\r\n"
    "Irq enter  1 at      10 @ 1000\r\n"
    "Ready  3 at      10 @ 1100\r\n"
    "Irq leave at      10 @ 1200\r\n"
    "From  1 to  3 at      10 @ 1300\r\n"
    "Marker  2 = 42 at      11 @ 2000\r\n"
    "State  3 begin  4 at      11 @ 2100\r\n"
    "State  3 begin  5 at      11 @ 2200\r\n"
    "State  3 end at      12 @ 2300\r\n"
    "State  3 end at      12 @ 2400\r\n"
    "Sleep at      12 @ 2500\r\n"
    "From  3 to  2 at      12 @ 2500\r\n"
    "Irq enter  6 at      13 @ 3000\r\n"
    "Irq enter  1 at      13 @ 3050\r\n"
    "Irq leave at      13 @ 3060\r\n"
    "Irq leave at      13 @ 3100\r\n"
    "Wake at      13 @ 3200\r\n"
    "From  2 to  1 at      13 @ 3200\r\n"
    "End of dump: 17 records, checksum %08X\r\n",
    checksum (words, G_N_ELEMENTS (words)));
  g_assert_cmpstr (dump, ==, expected);
}

/* Handlers with an id above 30 take a continuation slot; a full table refuses names, and
 * the handlers it refuses are recorded as handler 0. */
static void
test_names_full_and_long_ids (void)
{
  g_autofree char *dump = NULL;
  g_autofree char *end = NULL;
  char name[8];
  const guint32 hashed[] = { EV (1, 1), 100, 31, EV (1, 2), 110,
                             EV (2, 32), 200, EV (2, 2), 210 };

  boot_three ();
  for (int i = 0; i < 30; i++)
    {
      g_snprintf (name, sizeof name, "m%d", i);
      g_assert_cmpuint (tuRegisterMarker (g_intern_string (name)), ==, i + 1);
    }
  irq (SysTick_Handler, 1, 100, 1, 110);           /* name 31 */
  for (int i = 31; i < 40; i++)
    {
      g_snprintf (name, sizeof name, "s%d", i);
      g_assert_cmpuint (tuRegisterState (g_intern_string (name)), ==, i + 1);
    }
  g_assert_cmpuint (tuRegisterChannel ("late"), ==, 0);
  irq (USART1_IRQHandler, 2, 200, 2, 210);         /* refused: 0 */
  dump = run_cmd (tuCmdThreadsDump, NULL);
  g_assert_nonnull (strstr (dump, "Names refused: 2\r\n"));
  g_assert_nonnull (strstr (dump, "Records: 4\r\nSlots: 5\r\n"));
  g_assert_nonnull (strstr (dump, "Name 31 : Kind = irq, Name = SysTick_Handler\r\n"
                                  "Name 32 : Kind = state, Name = s31\r\n"));
  g_assert_null (strstr (dump, "USART1"));
  end = g_strdup_printf ("Timestamps:\r\n"
                         "Irq enter 31 at       1 @ 100\r\n"
                         "Irq leave at       1 @ 110\r\n"
                         "Irq enter  0 at       2 @ 200\r\n"
                         "Irq leave at       2 @ 210\r\n"
                         "End of dump: 4 records, checksum %08X\r\n",
                         checksum (hashed, G_N_ELEMENTS (hashed)));
  g_assert_true (g_str_has_suffix (dump, end));
}

/* threads_timestamps prints the switches only, in the format it always had. */
static void
test_legacy_log_switches_only (void)
{
  g_autofree char *log = NULL;

  boot_three ();
  systick_inside = ready_sensor;
  irq (SysTick_Handler, 10, 1000, 10, 1200);
  systick_inside = NULL;
  sw (2, 10, 1300);
  sw (1, 12, 2500);
  log = run_cmd (tuCmdThreadsTimestamps, NULL);
  g_assert_cmpstr (log, ==,
                   "From  1 to  3 at      10\r\n"
                   "From  3 to  2 at      12\r\n");
}

/* The running thread put back in the ready list (preempted) is not a wake-up. */
static void
test_preempted_not_ready (void)
{
  g_autofree char *dump = NULL;

  boot_three ();
  at (5, 500);
  ch_host_ready (&threads[0]);      /* main is current */
  ready (2, 5, 510);
  dump = run_cmd (tuCmdThreadsDump, NULL);
  g_assert_nonnull (strstr (dump, "Timestamps:\r\nReady  3 at       5 @ 510\r\nEnd of dump: 1 records"));
}

/* Entries of different sizes wrap around the log: the oldest go whole, the checksum and the
 * counts stay right, and the log never holds more words than it has. */
static void
test_wrap_whole_entries (void)
{
  g_autofree char *dump = NULL;
  g_auto (GStrv) lines = NULL;
  tuname_t m;
  guint entries = 0, slots = 0;
  int written = 0;

  boot_three ();
  m = tuRegisterMarker ("m");
  for (int i = 0; i < 100; i++)
    {
      at ((systime_t) i, (rtcnt_t) (i * 10));
      if (i % 3 == 0)
        tuMarker (m, (guint32) i);
      else if (i % 3 == 1)
        irq (SysTick_Handler, (systime_t) i, (rtcnt_t) (i * 10), (systime_t) i,
             (rtcnt_t) (i * 10 + 1));
      else
        sw (i % 2 == 0 ? 2 : 0, (systime_t) i, (rtcnt_t) (i * 10 + 2));
    }
  dump = run_cmd (tuCmdThreadsDump, NULL);
  lines = g_strsplit (strstr (dump, "Timestamps:\r\n") + strlen ("Timestamps:\r\n"), "\r\n", -1);
  for (guint i = 0; lines[i] != NULL && !g_str_has_prefix (lines[i], "End of dump"); i++)
    {
      entries++;
      if (g_str_has_prefix (lines[i], "From"))
        slots += 1;
      else if (g_str_has_prefix (lines[i], "Marker"))
        slots += 2;
      else
        {
          g_assert_true (g_str_has_prefix (lines[i], "Irq "));
          slots += 1;
        }
    }
  g_assert_cmpuint (slots, <=, 32);
  g_assert_cmpuint (slots, >, 32 - 2);
  {
    g_autofree char *records = g_strdup_printf ("Records: %u\r\n", entries);

    g_assert_nonnull (strstr (dump, records));
  }
  g_assert_cmpint (sscanf (strstr (dump, "Records written: "), "Records written: %d", &written), ==, 1);
  /* Slots: 34 markers (2 each), 33 handlers (enter and leave) and 33 switches. */
  g_assert_cmpint (written, ==, 34 * 2 + 66 + 33);
  /* The newest entries, whole; the oldest kept is a whole marker. */
  g_assert_nonnull (strstr (dump, "From  1 to  3 at      98 @ 982\r\n"
                                  "Marker  1 = 99 at      99 @ 990\r\nEnd of dump"));
  g_assert_true (g_str_has_prefix (lines[0], "Marker  1 = 81 at"));
}

/* A wake-up above the limit, set from the shell, sets the trigger; the log freezes half a log
 * later; shorter wake-ups and other threads do not. */
static void
test_condition_latency (void)
{
  g_autofree char *reply = NULL;
  g_autofree char *dump = NULL;
  g_autofree char *usage = NULL;

  boot_three ();
  spawn (3, "other", 90);
  reply = run_cmd (tuCmdThreadsTriggerWhen, "latency 500 sensor");
  g_assert_cmpstr (reply, ==, "Condition: latency above 500 us of sensor\r\n");

  /* sensor: 400 us (67,200 cycles at 168 MHz): below. other: 1 ms: not sensor. */
  ready (2, 1, 100000);
  sw (2, 1, 100000 + 67200);
  sw (0, 1, 200000);
  ready (3, 2, 300000);
  sw (3, 3, 300000 + 168000);
  sw (0, 3, 500000);
  dump = run_cmd (tuCmdThreadsDump, NULL);
  g_assert_nonnull (strstr (dump, "Mode: run\r\n"));
  /* Asked without arguments, the command says the condition and the log's mode, as the
   * dump's header does: armed, not yet triggered. */
  g_free (reply);
  reply = run_cmd (tuCmdThreadsTriggerWhen, NULL);
  g_assert_cmpstr (reply, ==, "Condition: latency above 500 us of sensor\r\nMode: run\r\n");

  /* sensor: 600 us. */
  ready (2, 4, 1000000);
  sw (2, 5, 1000000 + 100800);
  g_free (dump);
  dump = run_cmd (tuCmdThreadsDump, NULL);
  g_assert_nonnull (strstr (dump, "Mode: armed\r\n"
                                  "Trigger tick: 5\r\n"
                                  "Trigger name: latency above 500 us of sensor\r\n"
                                  "Trigger value: 600\r\n"
                                  "Condition: latency above 500 us of sensor\r\n"));
  g_free (reply);
  reply = run_cmd (tuCmdThreadsTriggerWhen, NULL);
  g_assert_cmpstr (reply, ==, "Condition: latency above 500 us of sensor\r\nMode: armed\r\n");
  /* The trigger entry lies just before the switch that exceeded the limit. */
  g_assert_nonnull (strstr (dump, "Ready  3 at       4 @ 1000000\r\n"
                                  "Trigger at       5 @ 1100800\r\n"
                                  "From  1 to  3 at       5 @ 1100800\r\n"));
  /* The log was less than half full (11 slots with the trigger entry): it freezes when full,
   * after the switch above and 20 more. */
  for (int i = 0; i < 30; i++)
    sw (i % 2 == 0 ? 0 : 2, (systime_t) (6 + i), (rtcnt_t) (2000000 + i * 1000));
  g_free (dump);
  dump = run_cmd (tuCmdThreadsDump, NULL);
  g_assert_nonnull (strstr (dump, "Mode: frozen\r\n"));
  g_assert_nonnull (strstr (dump, "Records written: 32\r\n"));
  g_free (reply);
  reply = run_cmd (tuCmdThreadsTriggerWhen, NULL);
  g_assert_cmpstr (reply, ==, "Condition: latency above 500 us of sensor\r\nMode: frozen\r\n");

  /* Run mode re-arms the condition. */
  g_free (reply);
  reply = run_cmd (tuCmdThreadsTimestampsRun, NULL);
  g_free (dump);
  dump = run_cmd (tuCmdThreadsDump, NULL);
  g_assert_nonnull (strstr (dump, "Mode: run\r\nCondition: latency above 500 us of sensor\r\n"));

  usage = run_cmd (tuCmdThreadsTriggerWhen, "latency soon");
  g_assert_cmpstr (usage, ==,
                   "Usage: threads_trigger_when latency|run|irq MICROSECONDS [NAME] | marker NAME [VALUE] | off\r\n");
  g_free (reply);
  reply = run_cmd (tuCmdThreadsTriggerWhen, "off");
  g_assert_cmpstr (reply, ==, "Condition: none\r\n");
}

/* A handler longer than the limit, a run longer than the limit, a marker's value. */
static void
test_condition_irq_run_marker (void)
{
  g_autofree char *reply = NULL;
  g_autofree char *dump = NULL;
  tuname_t m;

  boot_three ();
  /* Named before the handler ever ran: found when it registers. */
  reply = run_cmd (tuCmdThreadsTriggerWhen, "irq 100 USART1_IRQHandler");
  g_assert_cmpstr (reply, ==, "Condition: irq above 100 us of USART1_IRQHandler\r\n");
  irq (SysTick_Handler, 1, 0, 1, 168 * 200);          /* 200 us, but not USART1 */
  irq (USART1_IRQHandler, 2, 1000000, 2, 1000000 + 168 * 90);
  dump = run_cmd (tuCmdThreadsDump, NULL);
  g_assert_nonnull (strstr (dump, "Mode: run\r\n"));
  irq (USART1_IRQHandler, 3, 2000000, 3, 2000000 + 168 * 150);
  g_free (dump);
  dump = run_cmd (tuCmdThreadsDump, NULL);
  g_assert_nonnull (strstr (dump, "Trigger name: irq above 100 us of USART1_IRQHandler\r\n"
                                  "Trigger value: 150\r\n"));

  boot_three ();
  g_assert_cmpint (tuTriggerWhen (TU_WHEN_RUN, 1000, "main"), ==, 0);
  sw (2, 1, 0);                          /* main ran from the condition's start: 0 us */
  sw (0, 2, 168 * 5000);                 /* sensor ran 5 ms: not main */
  sw (2, 3, 168 * 5900);                 /* main ran 900 us */
  sw (0, 4, 168 * 6000);
  sw (2, 5, 168 * 7200);                 /* main ran 1,200 us */
  g_free (dump);
  dump = run_cmd (tuCmdThreadsDump, NULL);
  g_assert_nonnull (strstr (dump, "Trigger tick: 5\r\nTrigger name: run above 1000 us of main\r\n"
                                  "Trigger value: 1200\r\n"));

  boot_three ();
  m = tuRegisterMarker ("overrun");
  g_free (reply);
  reply = run_cmd (tuCmdThreadsTriggerWhen, "marker overrun 3");
  g_assert_cmpstr (reply, ==, "Condition: marker overrun = 3\r\n");
  at (1, 100);
  tuMarker (m, 2);
  g_free (dump);
  dump = run_cmd (tuCmdThreadsDump, NULL);
  g_assert_nonnull (strstr (dump, "Mode: run\r\n"));
  at (2, 200);
  tuMarker (m, 3);
  g_free (dump);
  dump = run_cmd (tuCmdThreadsDump, NULL);
  g_assert_nonnull (strstr (dump, "Trigger name: marker overrun = 3\r\nTrigger value: 3\r\n"));
  g_assert_nonnull (strstr (dump, "Trigger at       2 @ 200\r\nMarker  1 = 3 at       2 @ 200\r\n"));

  /* Hostile arguments: usage, never a condition. */
  for (guint i = 0; i < 5; i++)
    {
      static const char *const bad[] = { "latency", "latency 99999999999 x", "marker",
                                         "loop 5", "run 5 a b" };
      g_autofree char *r = run_cmd (tuCmdThreadsTriggerWhen, bad[i]);

      g_assert_true (g_str_has_prefix (r, "Usage: threads_trigger_when"));
    }
  g_free (reply);
  reply = run_cmd (tuCmdThreadsTriggerWhen,
                   "run 5 a-name-much-longer-than-the-room-for-it-even-at-48");
  g_assert_true (g_str_has_prefix (reply, "This condition is not available"));
  /* 47 bytes fit (the RT-Posix simulator's handlers are sd_lld_interrupt_pending and
   * _sim_check_for_interrupts, 24 and 25 bytes). */
  g_free (reply);
  reply = run_cmd (tuCmdThreadsTriggerWhen, "irq 10 a-handler-name-of-forty-seven-bytes-exactly-xyz");
  g_assert_cmpstr (reply, ==,
                   "Condition: irq above 10 us of a-handler-name-of-forty-seven-bytes-exactly-xyz\r\n");
  /* A limit the 32-bit counter cannot measure at 168 MHz (2^32 counts: 25.56 s). */
  g_free (reply);
  reply = run_cmd (tuCmdThreadsTriggerWhen, "irq 25000000");
  g_assert_cmpstr (reply, ==, "Condition: irq above 25000000 us\r\n");
  g_free (reply);
  reply = run_cmd (tuCmdThreadsTriggerWhen, "irq 26000000");
  g_assert_true (g_str_has_prefix (reply, "This condition is not available"));
}

/* The trigger a condition set keeps its name when the condition changes or is removed. */
static void
test_condition_name_kept (void)
{
  g_autofree char *reply = NULL;
  g_autofree char *dump = NULL;
  tuname_t m;

  boot_three ();
  m = tuRegisterMarker ("overrun");
  reply = run_cmd (tuCmdThreadsTriggerWhen, "marker overrun");
  at (3, 300);
  tuMarker (m, 9);
  g_free (reply);
  reply = run_cmd (tuCmdThreadsTriggerWhen, "irq 5");
  g_free (reply);
  reply = run_cmd (tuCmdThreadsTriggerWhen, "off");
  g_assert_cmpstr (reply, ==, "Condition: none\r\n");
  dump = run_cmd (tuCmdThreadsDump, NULL);
  g_assert_nonnull (strstr (dump, "Trigger name: marker overrun\r\nTrigger value: 9\r\n"
                                  "Condition: none\r\n"));
  g_free (reply);
  reply = run_cmd (tuCmdThreadsTimestampsTrigger, NULL);
  g_assert_cmpstr (reply, ==, "Trigger set by marker overrun at       3\r\n");
}

static tuname_t overrun;
static rtcnt_t overrun_at;

static void
marker_while_printing (gpointer data)
{
  gboolean *done = data;

  if (*done)
    return;
  *done = TRUE;
  at (4, overrun_at);
  tuMarker (overrun, 1);
}

/* An event met while a reply prints (the log paused, the event not recorded) sets no
 * trigger: a capture frozen around it would not show it. The next one does. */
static void
test_condition_not_while_printing (void)
{
  g_autofree char *reply = NULL;
  g_autofree char *dump = NULL;
  g_autofree char *printed = NULL;
  gboolean done = FALSE;
  HostStream stream;

  boot_three ();
  overrun = tuRegisterMarker ("overrun");
  overrun_at = 400;
  reply = run_cmd (tuCmdThreadsTriggerWhen, "marker overrun");
  host_stream_init (&stream);
  stream.on_write = marker_while_printing;
  stream.on_write_data = &done;
  tuCmdThreadsDump (&stream.base, 0, NULL);
  printed = host_stream_steal (&stream);
  g_assert_true (done);
  dump = run_cmd (tuCmdThreadsDump, NULL);
  g_assert_nonnull (strstr (dump, "Mode: run\r\n"));
  g_assert_nonnull (strstr (dump, "Dropped while paused: 1\r\n"));
  at (5, 500);
  tuMarker (overrun, 2);
  g_free (dump);
  dump = run_cmd (tuCmdThreadsDump, NULL);
  g_assert_nonnull (strstr (dump, "Trigger tick: 5\r\nTrigger name: marker overrun\r\n"
                                  "Trigger value: 2\r\n"));
  g_assert_nonnull (strstr (dump, "Trigger at       5 @ 500\r\nMarker  1 = 2 at       5 @ 500\r\n"));
}

static void
usart_marker (void)
{
  chSysLockFromISR ();
  tuMarkerI (overrun, 7);
  chSysUnlockFromISR ();
}

/* With the kernel's state checks (CH_DBG_SYSTEM_STATE_CHECK), the handler hooks run before
 * the kernel counts the handler and after it stopped: they must not take the checked lock
 * (the kernel halts with SV#6), nor set a condition's trigger through a checked I-class
 * call. The handler's own code, counted, may. */
static void
test_irq_hooks_with_state_checks (void)
{
  g_autofree char *reply = NULL;
  g_autofree char *dump = NULL;

  boot_three ();
  ch_host_state_check = 1;
  overrun = tuRegisterMarker ("overrun");
  usart_inside = usart_marker;
  reply = run_cmd (tuCmdThreadsTriggerWhen, "irq 100 USART1_IRQHandler");
  irq (USART1_IRQHandler, 2, 1000000, 2, 1000000 + 168 * 90);
  irq (USART1_IRQHandler, 3, 2000000, 3, 2000000 + 168 * 150);
  usart_inside = NULL;
  dump = run_cmd (tuCmdThreadsDump, NULL);
  g_assert_nonnull (strstr (dump, "Trigger name: irq above 100 us of USART1_IRQHandler\r\n"
                                  "Trigger value: 150\r\n"));
  g_assert_nonnull (strstr (dump, "Marker  1 = 7 at       3 @ 2000000\r\n"
                                  "Trigger at       3 @ 2025200\r\n"
                                  "Irq leave at       3 @ 2025200\r\n"));
  ch_host_state_check = 0;
}

static void
usart_in_systick (void)
{
  systick_inside = NULL;
  irq (USART1_IRQHandler, 15, 5050, 15, 5060);
}

/* A handler named by tuIrqIgnore() (the link's) is only counted: no entry, wherever it runs
 * (alone, around a logged handler, inside one), and the dump says how often it ran. The
 * others are logged as before, their leaves paired with their enters. */
static void
test_irq_ignored_counted (void)
{
  g_autofree char *dump = NULL;
  g_auto (GStrv) lines = NULL;
  guint enters = 0, leaves = 0;

  boot_three ();
  g_assert_cmpint (tuIrqIgnore ("USART1_IRQHandler"), ==, 0);
  irq (SysTick_Handler, 10, 1000, 10, 1200);
  irq (USART1_IRQHandler, 11, 2000, 11, 2100);
  usart_inside = nested_systick;
  irq (USART1_IRQHandler, 13, 3000, 13, 3100);
  usart_inside = NULL;
  systick_inside = usart_in_systick;
  irq (SysTick_Handler, 15, 5000, 15, 5100);
  irq (SysTick_Handler, 16, 6000, 16, 6100);
  sw (2, 16, 6200);

  dump = run_cmd (tuCmdThreadsDump, NULL);
  g_assert_nonnull (strstr (dump, "Names refused: 0\r\n"
                                  "Counted handler: USART1_IRQHandler, 3 calls\r\n"));
  g_assert_nonnull (strstr (dump, "Name  1 : Kind = irq, Name = USART1_IRQHandler\r\n"
                                  "Name  2 : Kind = irq, Name = SysTick_Handler\r\n"));
  g_assert_null (strstr (dump, "Irq enter  1 "));
  lines = g_strsplit (dump, "\r\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      enters += g_str_has_prefix (lines[i], "Irq enter  2 at ");
      leaves += g_str_has_prefix (lines[i], "Irq leave at ");
    }
  g_assert_cmpuint (enters, ==, 4);
  g_assert_cmpuint (leaves, ==, 4);
  g_assert_nonnull (strstr (dump, "Irq enter  2 at      15 @ 5000\r\n"
                                  "Irq leave at      15 @ 5100\r\n"
                                  "Irq enter  2 at      16 @ 6000\r\n"
                                  "Irq leave at      16 @ 6100\r\n"
                                  "From  1 to  3 at      16 @ 6200\r\n"));
  /* The legacy reply of the log does not change. */
  g_free (dump);
  dump = run_cmd (tuCmdThreadsTimestamps, NULL);
  g_assert_null (strstr (dump, "Counted"));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/mcu-events/dump-every-kind", test_dump_every_kind);
  g_test_add_func ("/mcu-events/legacy-log-switches-only", test_legacy_log_switches_only);
  g_test_add_func ("/mcu-events/names-full-and-long-ids", test_names_full_and_long_ids);
  g_test_add_func ("/mcu-events/preempted-not-ready", test_preempted_not_ready);
  g_test_add_func ("/mcu-events/wrap-whole-entries", test_wrap_whole_entries);
  g_test_add_func ("/mcu-events/condition-latency", test_condition_latency);
  g_test_add_func ("/mcu-events/condition-irq-run-marker", test_condition_irq_run_marker);
  g_test_add_func ("/mcu-events/condition-name-kept", test_condition_name_kept);
  g_test_add_func ("/mcu-events/condition-not-while-printing", test_condition_not_while_printing);
  g_test_add_func ("/mcu-events/irq-hooks-with-state-checks", test_irq_hooks_with_state_checks);
  g_test_add_func ("/mcu-events/irq-ignored-counted", test_irq_ignored_counted);
  return g_test_run ();
}
