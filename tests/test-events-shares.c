/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Event dumps (version 2) whose handlers and sleeps cannot have happened as they say: leaves
 * without their enter, wakes without a sleep, sleeps while asleep, enters never left, in random
 * orders. Whatever the log, every CPU share of every thread, of the handlers and of the sleep,
 * in the statistics and in the CLI's `stats`, lies in 0..100 %, and the impossible events are
 * counted in one warning each.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "tks-capture.h"
#include "tks-compact.h"
#include "tks-events.h"
#include "tks-stats.h"
#include "tks-test-cli.h"
#include "tks-test-data.h"

#define COUNTS_PER_TICK 168000u
#define N_THREADS 4

typedef enum
{
  E_SWITCH, E_ENTER, E_LEAVE, E_SLEEP, E_WAKE, E_READY, N_E
} Kind;

/* A dump version 2 being written, its entries' checksum as the board computes it. */
typedef struct
{
  GString *log;
  guint32  hash;
  guint    n_entries;
  guint    n_slots;
  guint32  tick;
  guint32  counter;
  guint    cur;       /* the thread running */
} Dump;

static void
dump_init (Dump *d)
{
  memset (d, 0, sizeof *d);
  d->log = g_string_new (NULL);
  d->hash = TKS_HASH_START;
  d->tick = 1;
  d->counter = COUNTS_PER_TICK;
  d->cur = 1;
}

/* One entry: @text, its record word's low 12 bits @low, its payload @a (@payload words). */
static void
dump_entry (Dump *d, const char *text, guint low, guint32 a, guint payload)
{
  TksEntry e = { .record = (d->tick << 12) | low, .counter = d->counter, .a = a };

  d->hash = tks_hash_word (d->hash, e.record);
  d->hash = tks_hash_word (d->hash, e.counter);
  if (payload > 0)
    d->hash = tks_hash_word (d->hash, e.a);
  g_string_append_printf (d->log, "%s at %7u @ %u\r\n", text, d->tick, d->counter);
  d->n_entries++;
  d->n_slots += 1 + payload;
}

/* An entry of @kind, some time after the one before. */
static void
dump_add (Dump *d, Kind kind, guint32 r)
{
  g_autofree char *text = NULL;

  d->counter += 1000 + r % 50000;
  d->tick = d->counter / COUNTS_PER_TICK;
  switch (kind)
    {
    case E_SWITCH:
      {
        guint next = 1 + (d->cur + r % (N_THREADS - 1)) % N_THREADS;

        text = g_strdup_printf ("From %2u to %2u", d->cur, next);
        dump_entry (d, text, (d->cur << 6) | next, 0, 0);
        d->cur = next;
      }
      break;
    case E_ENTER:
      text = g_strdup_printf ("Irq enter %2u", 1 + r % 2);
      dump_entry (d, text, (63u << 6) | (32 + 1 + r % 2), 0, 0);
      break;
    case E_LEAVE:
      dump_entry (d, "Irq leave", (63u << 6) | 2, 0, 0);
      break;
    case E_SLEEP:
      dump_entry (d, "Sleep", (63u << 6) | 3, 0, 0);
      break;
    case E_WAKE:
      dump_entry (d, "Wake", (63u << 6) | 4, 0, 0);
      break;
    case E_READY:
    case N_E:
    default:
      text = g_strdup_printf ("Ready %2u", 1 + r % N_THREADS);
      dump_entry (d, text, (63u << 6) | 5, 1 + r % N_THREADS, 1);
      break;
    }
}

/* The whole reply, as the board prints it. */
static char *
dump_finish (Dump *d)
{
  GString *out = g_string_new ("ch> threads_dump\r\n");

  g_string_append_printf (out,
                          "Dump version: 2\r\nLibrary version: 1.1.0\r\nKernel version: 5.1.0\r\n"
                          "Tick frequency: 1000\r\nTick bits: 20\r\n"
                          "Counter frequency: %u\r\nCounter bits: 32\r\nLog size: 4096\r\n"
                          "Slot words: 2\r\nEvents: cycles irq sleep ready\r\n"
                          "Max threads: 62\r\nMax deleted: 64\r\nDefault log: Yes\r\nMode: run\r\n"
                          "Condition: none\r\nMax names: 8\r\nNames refused: 0\r\n"
                          "Records: %u\r\nSlots: %u\r\nRecords written: %u\r\n"
                          "Dropped while paused: 0\r\nDropped for history: 0\r\n"
                          "Unnumbered threads: 0 live, 0 total\r\nThreads:\r\n",
                          COUNTS_PER_TICK * 1000, d->n_entries, d->n_slots, d->n_slots);
  for (guint t = 1; t <= N_THREADS; t++)
    g_string_append_printf (out, "Thread number %2u : Prio = %3u, Log = Yes, Name = t%u\r\n",
                            t, 100 + t, t);
  g_string_append (out, "Deleted threads: \r\nNames:\r\n"
                        "Name  1 : Kind = irq, Name = UART_IRQHandler\r\n"
                        "Name  2 : Kind = irq, Name = TIM_IRQHandler\r\nTimestamps:\r\n");
  g_string_append (out, d->log->str);
  g_string_append_printf (out, "End of dump: %u records, checksum %08X\r\nch> ", d->n_entries,
                          d->hash);
  g_string_free (d->log, TRUE);
  return g_string_free (out, FALSE);
}

static void
assert_share (const char *what, double share)
{
  if (!(share >= 0 && share <= 100))
    g_error ("%s: a share of %g %%", what, share);
}

/* Every share the statistics give, over the whole capture and over a part of it. */
static void
assert_stats_shares (TksCapture *capture)
{
  TksEvents *events = tks_capture_get_events (capture);
  double start = tks_capture_get_start (capture), end = tks_capture_get_end (capture);
  double ranges[][2] = { { start, end }, { start + (end - start) / 3, end - (end - start) / 3 } };

  g_assert_nonnull (events);
  for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
    {
      double from = ranges[r][0], to = ranges[r][1], span = to - from;
      g_autoptr(GError) error = NULL;
      TksStatsTotals totals;
      g_autoptr(GArray) stats = tks_stats_compute (capture, from, to, &totals, &error);

      g_assert_no_error (error);
      g_assert_cmpfloat (span, >, 0);
      assert_share ("busy", totals.covered_share);
      for (guint t = 0; t < stats->len; t++)
        {
          const TksThread *th = tks_capture_get_thread (capture, t);

          assert_share (th->name, g_array_index (stats, TksThreadStats, t).share);
          assert_share (th->name, 100 * tks_events_thread_time_without_irqs (events, th, from, to)
                                  / span);
        }
      assert_share ("handlers", 100 * tks_events_irq_time (events, from, to) / span);
      assert_share ("asleep", 100 * tks_events_sleep_time (events, from, to) / span);
    }
}

/* Every number of the "Share %" columns of `tickscope-cli stats` (right-aligned: each ends
 * where its heading does). */
static void
assert_cli_shares (const char *path)
{
  g_auto(TksCliResult) r = tks_run_cli (NULL, "stats", path, NULL);
  g_auto(GStrv) lines = NULL;
  gsize column_end = 0;
  guint n_shares = 0;

  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (r.out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *heading = strstr (lines[i], "Share %");
      gsize len = strlen (lines[i]), begin;

      if (heading != NULL)
        column_end = (gsize) (heading - lines[i]) + strlen ("Share %");
      else if (len == 0)
        column_end = 0;
      else if (column_end > 0)
        {
          g_assert_cmpuint (len, >=, column_end);
          for (begin = column_end; begin > 0 && lines[i][begin - 1] != ' '; begin--)
            ;
          assert_share (lines[i], g_ascii_strtod (lines[i] + begin, NULL));
          n_shares++;
        }
    }
  g_assert_cmpuint (n_shares, >=, 2 * N_THREADS + 2);
}

static TksCapture *
capture_of (const char *text)
{
  return tks_test_capture_of_text (text, -1);
}

/* The shares of a capture, in the statistics and in the CLI. */
static void
check_shares (const char *text)
{
  g_autoptr(TksCapture) capture = capture_of (text);
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  int fd;

  assert_stats_shares (capture);
  fd = g_file_open_tmp ("tks-shares-XXXXXX.txt", &path, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, text, -1, &error));
  close (fd);
  assert_cli_shares (path);
  g_remove (path);
}

/* Entries of random kinds in random order: most of the handlers' and sleeps' events cannot
 * have happened. */
static void
test_random_orders (void)
{
  guint32 rng = 2463534242u;

  for (guint round = 0; round < 12; round++)
    {
      Dump d;
      g_autofree char *text = NULL;

      dump_init (&d);
      for (guint i = 0; i < 300; i++)
        {
          rng ^= rng << 13;
          rng ^= rng >> 17;
          rng ^= rng << 5;
          /* a switch at least every few entries, else a kind at random */
          dump_add (&d, i % 5 == 0 ? E_SWITCH : (Kind) ((rng >> 7) % N_E), rng >> 11);
        }
      text = dump_finish (&d);
      check_shares (text);
    }
}

/* Twenty leaves without their enter and twenty wakes without a sleep among threads at work:
 * each counted in one warning, and left out of the shares (nothing is in a handler, nothing
 * asleep). */
static void
test_unmatched_counted (void)
{
  Dump d;
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) capture = NULL;
  TksEvents *events;

  dump_init (&d);
  for (guint i = 0; i < 20; i++)
    {
      dump_add (&d, E_SWITCH, i);
      dump_add (&d, E_LEAVE, i);
      dump_add (&d, E_WAKE, i);
    }
  dump_add (&d, E_SWITCH, 0);
  text = dump_finish (&d);
  capture = capture_of (text);
  events = tks_capture_get_events (capture);
  g_assert_cmpuint (tks_events_count_unmatched (events, TKS_UNMATCHED_IRQ_LEAVE), ==, 20);
  /* (the first wake may end a sleep begun before the log) */
  g_assert_cmpuint (tks_events_count_unmatched (events, TKS_UNMATCHED_WAKE), ==, 19);
  g_assert_true (tks_test_has_warning (capture, "warning: 20 interrupt handler leaves without "
                                                "their enter"));
  g_assert_true (tks_test_has_warning (capture, "warning: 19 CPU wakes without a sleep"));
  g_assert_cmpfloat (tks_events_irq_time (events, NAN, NAN), ==, 0);
  assert_stats_shares (capture);
  check_shares (text);
}

/* Sleeps while asleep, and a handler never left while threads switch. */
static void
test_sleeps_and_enters (void)
{
  Dump d;
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) capture = NULL;
  TksEvents *events;

  dump_init (&d);
  dump_add (&d, E_SWITCH, 0);
  dump_add (&d, E_ENTER, 0);
  for (guint i = 0; i < 5; i++)
    dump_add (&d, E_SWITCH, i);
  dump_add (&d, E_SLEEP, 0);
  dump_add (&d, E_SLEEP, 0);
  dump_add (&d, E_SLEEP, 0);
  dump_add (&d, E_WAKE, 0);
  dump_add (&d, E_SWITCH, 0);
  text = dump_finish (&d);
  capture = capture_of (text);
  events = tks_capture_get_events (capture);
  g_assert_cmpuint (tks_events_count_unmatched (events, TKS_UNMATCHED_IRQ_ENTER), ==, 1);
  g_assert_cmpuint (tks_events_count_unmatched (events, TKS_UNMATCHED_SLEEP), ==, 2);
  g_assert_true (tks_test_has_warning (capture, "warning: 1 interrupt handler enter without"));
  g_assert_true (tks_test_has_warning (capture, "warning: 2 CPU sleeps while asleep"));
  g_assert_cmpfloat (tks_events_irq_time (events, NAN, NAN), ==, 0);
  g_assert_cmpfloat (tks_events_sleep_time (events, NAN, NAN), >, 0);
  check_shares (text);
}

/* A log that begins inside two nested handlers and asleep: their leaves and the wake are
 * possible, nothing is warned, and the time before them counts once. */
static void
test_begun_before_log (void)
{
  Dump d;
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) capture = NULL;

  dump_init (&d);
  dump_add (&d, E_ENTER, 0);
  dump_add (&d, E_LEAVE, 0);
  dump_add (&d, E_LEAVE, 0);
  dump_add (&d, E_LEAVE, 0);
  dump_add (&d, E_WAKE, 0);
  for (guint i = 0; i < 5; i++)
    dump_add (&d, E_SWITCH, i);
  text = dump_finish (&d);
  capture = capture_of (text);
  for (guint k = 0; k < TKS_N_UNMATCHED; k++)
    g_assert_cmpuint (tks_events_count_unmatched (tks_capture_get_events (capture), k), ==, 0);
  g_assert_false (tks_test_has_warning (capture, "without"));
  check_shares (text);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/events-shares/random-orders", test_random_orders);
  g_test_add_func ("/events-shares/unmatched-counted", test_unmatched_counted);
  g_test_add_func ("/events-shares/sleeps-and-enters", test_sleeps_and_enters);
  g_test_add_func ("/events-shares/begun-before-log", test_begun_before_log);
  return g_test_run ();
}
