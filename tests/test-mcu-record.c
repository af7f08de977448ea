/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * threads_record, the board library's continuous recording, driven through the kernel hooks
 * on the host stand-in and read back by the core: the stream's framing, its end (stop byte,
 * silence), drops when the reader falls a log behind (counted in the stream, placed in the
 * capture where they happened), threads appearing meanwhile, a trigger set meanwhile. Built
 * with every event option and a 256-switch log (512 words with the counter).
 */
#include <math.h>
#include <string.h>

#include <glib.h>

#include "ch.h"
#include "host-stream.h"
#include "threads_utilities.h"
#include "tks-capture.h"
#include "tks-compact.h"
#include "tks-events.h"
#include "tks-test-data.h"

#define N_THREADS 8
#define LOG 256

static thread_t threads[N_THREADS];
static thread_t *rota[3];   /* the threads switches() switches in, in turn */
static HostStream out;
static guint turn;   /* the next of them to switch in */

static void
boot (void)
{
  ch_host_reset ();
  tuResetState ();
  memset (threads, 0, sizeof threads);
  turn = 1;
  ch_host_time = 100;
  ch_host_thread_init (&threads[0], "main", 128, CH_FLAG_MODE_STATIC);
  ch_host_thread_init (&threads[1], "idle", 1, CH_FLAG_MODE_STATIC);
  ch_host_thread_init (&threads[2], "worker", 130, CH_FLAG_MODE_STATIC);
  ch_host_switch (&threads[0]);
  for (guint i = 0; i < 3; i++)
    rota[i] = &threads[i];
  host_stream_init (&out);
}

/* @n switches between main, idle and worker (or the threads of rota) in turn (never from a thread to itself, which
 * would be an exit record), one tick apart from @tick on; returns the tick after them. */
static systime_t
switches (systime_t tick, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      ch_host_time = tick++;
      ch_host_counter = (rtcnt_t) tick * 168000u + i;
      ch_host_switch (rota[turn++ % 3]);
    }
  return tick;
}

static int
poll_with (const char *input)
{
  return tuRecordPoll (&out.base, (const uint8_t *) input, strlen (input));
}

static void
stop (void)
{
  static const uint8_t stop_byte = THREADS_RECORD_STOP_BYTE;

  g_assert_cmpint (tuRecordPoll (&out.base, &stop_byte, 1), ==, 0);
}

static char *
take_text (void)
{
  char *text = host_stream_steal (&out);

  host_stream_init (&out);
  return text;
}

/* The stream as the host writes it: the echo, the reply, the prompt. */
static TksCapture *
read_back (const char *reply,
           const char *command)
{
  g_autofree char *text = g_strconcat (command, "\r\n", reply, "ch> ", NULL);
  return tks_test_capture_of_text (text, -1);
}

/* read_back(), for a stream that must read whole: no damage, no warning (each one is listed
 * in the test's log when there are). */
static TksCapture *
read_back_clean (const char *reply,
                 const char *command)
{
  TksCapture *capture = read_back (reply, command);
  const char * const *warnings;
  guint n_warnings = 0;

  g_assert_null (tks_capture_get_damage (capture));
  warnings = tks_capture_get_warnings (capture, &n_warnings);
  for (guint i = 0; i < n_warnings; i++)
    g_test_message ("%s", warnings[i]);
  g_assert_cmpuint (n_warnings, ==, 0);
  return capture;
}

static guint
count_lines (const char *text,
             const char *prefix)
{
  g_auto(GStrv) lines = g_strsplit (text, "\r\n", -1);
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    n += g_str_has_prefix (lines[i], prefix);
  return n;
}

/* The switches are streamed as they happen, in lines of the compact encoding of at most 79
 * characters, and the stop byte ends the stream with the end line (count and checksum of
 * everything streamed); the capture read back holds every switch. */
static void
test_stream_and_stop (void)
{
  g_autofree char *head = NULL, *body = NULL, *all = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_auto(GStrv) lines = NULL;
  systime_t t;

  boot ();
  g_assert_cmpint (tuRecordBegin (&out.base, 0), ==, 1);
  head = take_text ();
  g_assert_true (g_str_has_prefix (head, "Dump version: 3\r\n"));
  g_assert_nonnull (strstr (head, "Recording: stop byte 3, keep-alive 3000 ms\r\n"));
  g_assert_true (g_str_has_suffix (head, "Deleted threads: \r\nCompact:\r\n"));
  /* Switches only: no counter, no events in the header (a dump version 1's). */
  g_assert_null (strstr (head, "Counter frequency"));
  g_assert_null (strstr (head, "Names:"));

  t = 1000;
  for (guint round = 0; round < 10; round++)
    {
      t = switches (t, 150);
      ch_host_time = t;
      g_assert_cmpint (poll_with (""), ==, 1);
      /* A second later: every line is out. */
      ch_host_time = t + 300;
      g_assert_cmpint (poll_with ("\x16"), ==, 1);
      t += 300;
    }
  stop ();
  /* Over: a poll after the end does nothing. */
  g_assert_cmpint (poll_with (""), ==, 0);
  body = take_text ();
  g_assert_nonnull (strstr (body, "End of dump: 1500 records, checksum "));
  lines = g_strsplit (body, "\r\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_assert_cmpuint (strlen (lines[i]), <=, 79);
      if (lines[i][0] != '\0')
        g_assert_true (lines[i][0] == 'Z' || g_str_has_prefix (lines[i], "End of dump:"));
    }
  g_assert_cmpuint (count_lines (body, "Lost:"), ==, 0);

  all = g_strconcat (head, body, NULL);
  capture = read_back (all, "threads_record");
  g_assert_null (tks_capture_get_damage (capture));
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, 1500);
}

/* Every event with its counter (threads_record events): the dump version 2's entries. */
static void
test_stream_events (void)
{
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) capture = NULL;
  tuname_t marker;
  systime_t t;

  boot ();
  g_assert_cmpint (tuRecordBegin (&out.base, 1), ==, 1);
  t = switches (1000, 40);
  marker = tuRegisterMarker ("sample");
  ch_host_time = t;
  tuMarker (marker, 77);
  t = switches (t + 1, 40);
  ch_host_time = t;
  g_assert_cmpint (poll_with (""), ==, 1);
  stop ();
  text = take_text ();
  g_assert_nonnull (strstr (text, "Counter frequency: 168000000\r\n"));
  /* The name registered while recording is announced before the entries that use it. */
  g_assert_nonnull (strstr (text, "Compact:\r\nName  1 : Kind = marker, Name = sample\r\nZ"));
  /* 80 switches, the marker, and a sleep and a wake around each of the 27 runs of idle. */
  g_assert_nonnull (strstr (text, "End of dump: 135 records, checksum "));
  capture = read_back (text, "threads_record events");
  g_assert_null (tks_capture_get_damage (capture));
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, 80);
}

/* The handler of the link that carries the stream, run for every byte sent. */
static void
USART2_IRQHandler (void)
{
  CH_IRQ_PROLOGUE ();
  CH_IRQ_EPILOGUE ();
}

/* The link's handler, named by the firmware, is counted, not logged: the stream says how
 * often it ran between the lines (every second) and at its end, a reader shows the count,
 * and its calls take no slot: the recording does not record its own output. */
static void
test_stream_link_handler_counted (void)
{
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) capture = NULL;
  const TksEventsInfo *info;
  systime_t t = 1000;

  boot ();
  g_assert_cmpint (tuIrqIgnore ("USART2_IRQHandler"), ==, 0);
  g_assert_cmpint (tuRecordBegin (&out.base, 1), ==, 1);
  for (guint second = 0; second < 3; second++)
    {
      for (guint i = 0; i < 1000; i++)
        {
          ch_host_time = t + i;
          USART2_IRQHandler ();
        }
      t = switches (t + 1000, 10);
      ch_host_time = t;
      g_assert_cmpint (poll_with ("\x16"), ==, 1);
    }
  stop ();
  text = take_text ();
  g_assert_nonnull (strstr (text, "\r\nCounted handler: USART2_IRQHandler, 2000 calls\r\nZ"));
  /* The 30 switches, a sleep and a wake around each of the 10 runs of idle: nothing else. */
  g_assert_nonnull (strstr (text, "\r\nCounted handler: USART2_IRQHandler, 3000 calls\r\n"
                                  "End of dump: 50 records, checksum "));
  capture = read_back (text, "threads_record events");
  g_assert_null (tks_capture_get_damage (capture));
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, 30);
  info = tks_events_get_info (tks_capture_get_events (capture));
  g_assert_cmpstr (info->counted, ==, "USART2_IRQHandler, 3000 calls");
  g_assert_cmpuint (info->counted_calls, ==, 3000);
  g_assert_cmpuint (tks_events_count (tks_capture_get_events (capture), TKS_EVENT_IRQ_ENTER), ==, 0);

  /* Saved as a capture file and read again, the count stays. */
  {
    g_autoptr(GString) saved = g_string_new (NULL);
    g_autoptr(TksCapture) again = NULL;

    g_assert_true (tks_capture_write (capture, saved, NULL, 0));
    g_assert_nonnull (strstr (saved->str, "Counted handler: USART2_IRQHandler, 3000 calls\n"));
    again = tks_test_capture_of_text (saved->str, (gssize) saved->len);
    info = tks_events_get_info (tks_capture_get_events (again));
    g_assert_cmpstr (info->counted, ==, "USART2_IRQHandler, 3000 calls");
    g_assert_cmpuint (info->counted_calls, ==, 3000);
  }
}

/* The reader falls more than a log behind: the slots overwritten are counted in a "Lost:"
 * line between the lines, where they were, and the capture shows the hole there. */
static void
test_drops_counted_in_band (void)
{
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) capture = NULL;
  const TksGap *gaps;
  guint n_gaps;
  systime_t t;

  boot ();
  g_assert_cmpint (tuRecordBegin (&out.base, 0), ==, 1);
  t = switches (1000, 100);
  ch_host_time = t;
  g_assert_cmpint (poll_with (""), ==, 1);
  /* 1000 switches before the next poll: the log keeps the last LOG. */
  t = switches (t, 1000);
  ch_host_time = t;
  g_assert_cmpint (poll_with (""), ==, 1);
  t = switches (t, 50);
  ch_host_time = t;
  stop ();
  text = take_text ();
  /* The log's slots hold the sleeps and wakes around idle's runs too: 1000 switches took 1667
   * slots, of which the last 256 (154 switches, from tick 1946 on) were still there. */
  g_assert_cmpuint (count_lines (text, "Lost:"), ==, 1);
  g_assert_nonnull (strstr (text, "\r\nLost: before record 100, ticks 1099 to 1946, 1411 switches dropped\r\nZ"));
  g_assert_nonnull (strstr (text, "End of dump: 304 records, checksum "));
  capture = read_back (text, "threads_record");
  g_assert_null (tks_capture_get_damage (capture));
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, 304);
  gaps = tks_capture_get_gaps (capture, &n_gaps);
  g_assert_cmpuint (n_gaps, ==, 1);
  g_assert_cmpuint (gaps[0].dropped, ==, 1411);
  g_assert_cmpfloat (gaps[0].begin, >=, 1099);
  g_assert_cmpfloat (gaps[0].end, <=, 1946);
}

/* A slow link: while the shell thread waits to send, the kernel goes on switching, two
 * switches for every byte sent (a busy board on a link that takes about a byte per switch),
 * so the reader stays behind for good. The switches go between main, the worker and a third
 * thread, never idle: each takes one slot of the log and is one entry of the stream. */
typedef struct
{
  systime_t tick;
  guint     written;   /* switches made */
  gsize     sent;      /* bytes of the stream so far */
  guint32   random;
} SlowLink;

/* @n switches at irregular times (1 to 4 ticks apart), to threads in no fixed order: a
 * stream of about a byte per switch. */
static void
slow_link_switches (SlowLink *link,
                    guint     n)
{
  for (guint i = 0; i < n; i++)
    {
      link->random = link->random * 1103515245u + 12345u;
      link->tick += 1 + (link->random >> 16) % 4u;
      ch_host_time = link->tick;
      ch_host_counter = (rtcnt_t) link->tick * 168000u;
      /* one of the two others than the thread running */
      turn += 1 + (link->random >> 20) % 2u;
      ch_host_switch (rota[turn % 3]);
    }
  link->written += n;
}

static void
slow_link_write (gpointer data)
{
  SlowLink *link = data;
  guint n = (guint) (out.text->len - link->sent);

  link->sent = out.text->len;
  slow_link_switches (link, n);
}

static void
slow_link_begin (SlowLink *link)
{
  boot ();
  ch_host_thread_init (&threads[3], "busy", 129, CH_FLAG_MODE_STATIC);
  rota[1] = &threads[3];
  turn = 0;   /* main runs */
  g_assert_cmpint (tuRecordBegin (&out.base, 0), ==, 1);
  link->tick = 1000;
  link->written = 0;
  link->random = 1;
  link->sent = out.text->len;
  out.on_write = slow_link_write;
  out.on_write_data = link;
  for (guint i = 0; i < 20; i++)
    {
      slow_link_switches (link, 100);
      g_assert_cmpint (poll_with ("\x16"), ==, 1);
    }
}

/* The switches a recording accounts for: those its end line counts (every entry is a switch
 * here) and those its "Lost:" lines say were dropped; the capture read back agrees. */
static guint64
slow_link_accounted (const char *text)
{
  g_autoptr(TksCapture) capture = NULL;
  g_auto(GStrv) lines = g_strsplit (text, "\r\n", -1);
  guint64 streamed = 0, dropped = 0, gap_dropped = 0;
  const TksGap *gaps;
  guint n_gaps;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *comma = strrchr (lines[i], ',');

      if (g_str_has_prefix (lines[i], "Lost: "))
        dropped += g_ascii_strtoull (comma + 1, NULL, 10);
      else if (g_str_has_prefix (lines[i], "End of dump: "))
        streamed = g_ascii_strtoull (lines[i] + strlen ("End of dump: "), NULL, 10);
    }
  g_assert_cmpuint (count_lines (text, "End of dump: "), ==, 1);
  capture = read_back (text, "threads_record");
  g_assert_null (tks_capture_get_damage (capture));
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, streamed);
  gaps = tks_capture_get_gaps (capture, &n_gaps);
  for (guint i = 0; i < n_gaps; i++)
    gap_dropped += gaps[i].dropped;
  g_assert_cmpuint (gap_dropped, ==, dropped);
  g_test_message ("%" G_GUINT64_FORMAT " switches streamed, %" G_GUINT64_FORMAT " dropped in "
                  "%u holes", streamed, dropped, n_gaps);
  return streamed + dropped;
}

/* The stop byte comes while the reader is a log behind: the board sends what the log holds
 * up to the stop, and counts in "Lost:" lines what the writer overwrote meanwhile; what it
 * writes after the stop is not part of the recording. Nothing is left out silently. */
static void
test_stop_sends_backlog (void)
{
  g_autofree char *text = NULL;
  SlowLink link;
  guint at_stop;

  slow_link_begin (&link);
  at_stop = link.written;
  stop ();
  out.on_write = NULL;
  text = take_text ();
  g_assert_cmpuint (count_lines (text, "Lost: "), >, 0);
  g_assert_cmpuint (slow_link_accounted (text), ==, at_stop);
}

/* The host falls silent while the reader is behind: the board does not send the backlog into
 * nothing, but says what it leaves out before the end line. */
static void
test_silence_counts_backlog (void)
{
  g_autofree char *text = NULL;
  SlowLink link;
  guint before = 0;
  int on = 1;

  slow_link_begin (&link);
  while (on)
    {
      slow_link_switches (&link, 20);
      before = link.written;
      on = poll_with ("");
    }
  out.on_write = NULL;
  text = take_text ();
  g_assert_cmpuint (slow_link_accounted (text), ==, before);
}

/* The host falls silent: three seconds after its last byte the board ends the stream by
 * itself; a keep-alive every second keeps it going. */
static void
test_keepalive_timeout (void)
{
  g_autofree char *text = NULL;
  systime_t t;

  boot ();
  g_assert_cmpint (tuRecordBegin (&out.base, 0), ==, 1);
  t = 1000;
  for (guint s = 0; s < 10; s++)
    {
      t = switches (t, 10);
      ch_host_time = t;
      g_assert_cmpint (poll_with ("\x16"), ==, 1);
      t += 990;
    }
  /* Silence after the last keep-alive (at t - 990): still on at 2.9 s, over at 3 s. */
  ch_host_time = t - 990 + 2900;
  g_assert_cmpint (poll_with (""), ==, 1);
  ch_host_time = t - 990 + 3000;
  g_assert_cmpint (poll_with (""), ==, 0);
  text = take_text ();
  g_assert_true (g_str_has_suffix (text, "\r\n"));
  g_assert_nonnull (strstr (text, "End of dump: 100 records, checksum "));
  /* The numbers are free again, and another recording can start. */
  g_assert_cmpint (tuRecordBegin (&out.base, 0), ==, 1);
  g_assert_cmpint (tuRecordBegin (&out.base, 0), ==, 0);
  stop ();
}

/* A thread created while recording is announced before its first switch; one that exits is
 * written once the reader caught up (its number goes to the threads after it, one lower); a
 * trigger set meanwhile does not freeze the log. */
static void
test_threads_and_trigger (void)
{
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) capture = NULL;
  const char *announce, *first_z;
  systime_t t;

  boot ();
  g_assert_cmpint (tuRecordBegin (&out.base, 0), ==, 1);
  t = switches (1000, 30);
  ch_host_time = t;
  g_assert_cmpint (poll_with (""), ==, 1);
  ch_host_thread_init (&threads[3], "late", 140, CH_FLAG_MODE_STATIC);
  ch_host_time = t + 1;
  ch_host_switch (&threads[3]);
  ch_host_thread_exit (&threads[2]);
  rota[2] = &threads[3];
  tuSetTrigger ("overrun");
  /* Far more than half a log after the trigger, a poll every 100 switches. */
  t += 2;
  for (guint i = 0; i < 8; i++)
    {
      t = switches (t, 100);
      ch_host_time = t;
      g_assert_cmpint (poll_with (""), ==, 1);
    }
  stop ();
  text = take_text ();
  g_assert_cmpuint (count_lines (text, "Lost:"), ==, 0);
  announce = strstr (text, "Thread number  4 : Prio = 140, Log = Yes, Name = late\r\n");
  g_assert_nonnull (announce);
  /* ... before the line that holds its switch (the 31st entry, on the line after the first). */
  first_z = strstr (text, "\r\nZ");
  g_assert_nonnull (first_z);
  g_assert_true (strstr (first_z + 2, "\r\nZ") > announce);
  /* 830 switches and the worker's exit. */
  g_assert_nonnull (strstr (text, "End of dump: 832 records, checksum "));
  capture = read_back (text, "threads_record");
  g_assert_null (tks_capture_get_damage (capture));
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, 832);
  g_assert_cmpuint (tks_capture_get_n_threads (capture), ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      const TksThread *th = tks_capture_get_thread (capture, i);

      /* late ran in turn with main and idle after the worker left: a third of 800 runs */
      if (g_str_equal (th->name, "late"))
        g_assert_cmpuint (th->n_runs, >=, 267);
      g_assert_true (!(th->flags & TKS_THREAD_EXITED) == !g_str_equal (th->name, "worker"));
    }

  /* Once the recording is over, the trigger fills half a log and the log freezes. */
  t = switches (t, LOG);
  {
    g_autofree char *dump = host_run (tuCmdThreadsDump, 0, NULL);

    g_assert_nonnull (strstr (dump, "Mode: frozen\r\n"));
    g_assert_nonnull (strstr (dump, "Trigger name: overrun\r\n"));
  }
}

/* Threads that come and go, far more of them than numbers (63) over the recording: each
 * exit is written once the reader has caught up, its number goes to the next thread, and the
 * capture read back names every run after the thread that ran it (the test's own record of
 * what ran when), with no thread outside the list. @every: polls after that many threads;
 * @events: with every event and the counter. */
#define N_SPAWNED 150

static thread_t spawned[N_SPAWNED];

/* Threads spawned and exiting between polls, each announced after its exit. @dynamic: heap
 * threads whose names lie in memory reused after they exit (their working area, a buffer):
 * the stream names them all the same. */
static void
check_spawned_runs (guint    every,
                    int      events,
                    gboolean dynamic)
{
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) capture = NULL;
  char names[N_SPAWNED][16];
  char expected[N_SPAWNED][16];
  systime_t begun[N_SPAWNED];
  guint n_found = 0;
  systime_t t;

  boot ();
  memset (spawned, 0, sizeof spawned);
  g_assert_cmpint (tuRecordBegin (&out.base, events), ==, 1);
  t = switches (1000, 6);
  for (guint i = 0; i < N_SPAWNED; i++)
    {
      g_snprintf (names[i], sizeof names[i], "spawned %u", i);
      memcpy (expected[i], names[i], sizeof expected[i]);
      ch_host_time = t++;
      ch_host_thread_init (&spawned[i], names[i], (tprio_t) (120 + i % 7),
                           dynamic ? CH_FLAG_MODE_HEAP : CH_FLAG_MODE_STATIC);
      ch_host_switch (&spawned[i]);
      begun[i] = ch_host_time;
      /* It runs one tick, then exits, and the kernel switches back. */
      ch_host_time = t++;
      ch_host_thread_exit (&spawned[i]);
      if (dynamic)
        g_strlcpy (names[i], "reused", sizeof names[i]);
      ch_host_switch (rota[(turn - 1) % 3]);
      t = switches (t, 4);
      if (i % every == every - 1)
        {
          ch_host_time = t;
          g_assert_cmpint (poll_with ("\x16"), ==, 1);
        }
    }
  ch_host_time = t;
  g_assert_cmpint (poll_with (""), ==, 1);
  stop ();
  text = take_text ();
  g_assert_cmpuint (count_lines (text, "Lost:"), ==, 0);
  /* No thread went without a number. */
  g_assert_null (strstr (text, " to  0") );
  capture = read_back_clean (text, events ? "threads_record events" : "threads_record");

  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    {
      const TksThread *th = tks_capture_get_thread (capture, i);
      guint k;

      g_assert_false (th->flags & TKS_THREAD_NOT_LISTED);
      if (!g_str_has_prefix (th->name, "spawned "))
        continue;
      k = (guint) g_ascii_strtoull (th->name + strlen ("spawned "), NULL, 10);
      g_assert_cmpuint (k, <, N_SPAWNED);
      g_assert_cmpstr (th->name, ==, expected[k]);
      g_assert_cmpint (th->priority, ==, 120 + (int) (k % 7));
      /* Its one run, from its switch in to the exit's switch away, a tick later (within
       * their ticks: a tick with several records shares them out). */
      g_assert_cmpuint (th->n_runs, ==, 1);
      g_assert_cmpfloat (floor (th->runs[0].begin), ==, (double) begun[k]);
      g_assert_cmpfloat (floor (th->runs[0].end), ==, (double) begun[k] + 1.0);
      g_assert_true (th->flags & TKS_THREAD_EXITED);
      n_found++;
    }
  g_assert_cmpuint (n_found, ==, N_SPAWNED);
  g_assert_cmpuint (tks_capture_get_n_threads (capture), ==, 3 + N_SPAWNED);
}

static void
test_numbers_given_back (void)
{
  check_spawned_runs (1, 0, FALSE);
}

static void
test_numbers_given_back_by_many (void)
{
  /* 20 exits wait for each poll: written a batch (16) at a time. */
  check_spawned_runs (20, 0, FALSE);
}

static void
test_numbers_given_back_events (void)
{
  check_spawned_runs (5, 1, FALSE);
}

static void
test_exited_heap_threads_named (void)
{
  check_spawned_runs (5, 1, TRUE);
}

/* A serial line at 115200 baud behind an output queue of 128 bytes, as a ChibiOS serial
 * driver serves it: a write that finds the queue full waits, and the driver wakes the writer
 * for every byte it sends (two switches of the shell thread a byte); a write that does not
 * wait takes what the queue has room for. */
#define LINK_QUEUE 128u
#define LINK_POLL_BYTES 115u   /* sent in 10 ms at 115200 baud, 8N1 */

typedef struct
{
  BaseSequentialStream base;
  GString *text;
  guint    queued;    /* bytes in the output queue */
  guint64  wakeups;   /* of a writer waiting on the full queue */
} PacedLink;

static size_t
paced_link_write (void *ip, const uint8_t *bp, size_t n)
{
  PacedLink *self = ip;

  for (size_t i = 0; i < n; i++)
    {
      if (self->queued == LINK_QUEUE)
        {
          self->queued--;   /* the driver sent a byte and woke the writer */
          self->wakeups++;
        }
      self->queued++;
    }
  g_string_append_len (self->text, (const char *) bp, (gssize) n);
  return n;
}

static size_t
paced_link_writet (void *ip, const uint8_t *bp, size_t n, uint32_t timeout)
{
  PacedLink *self = ip;

  if (timeout != TIME_IMMEDIATE)
    return paced_link_write (ip, bp, n);
  n = MIN (n, LINK_QUEUE - self->queued);
  self->queued += (guint) n;
  g_string_append_len (self->text, (const char *) bp, (gssize) n);
  return n;
}

static const struct BaseSequentialStreamVMT paced_link_vmt = {
  paced_link_write, NULL, paced_link_writet, NULL
};

/* A recording that floods its link (8 switches a tick, more than 115200 baud carries, as the
 * kernel's own switches around a shell thread woken for every byte would) : the shell thread
 * does not wait on the output queue while streaming, so it wakes once a poll (every 10 ms) and
 * not once a byte sent; the link still carries what it can, and the stream reads back whole
 * (what the log could not hold counted in "Lost:" lines), ending with everything sent. */
static void
test_slow_link_no_wait_per_byte (void)
{
  static const uint8_t keep_alive = 0x16, stop_byte = THREADS_RECORD_STOP_BYTE;
  PacedLink link = { { &paced_link_vmt }, g_string_new (NULL), 0, 0 };
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) capture = NULL;
  guint64 wakeups;
  gsize head, sent;
  const guint polls = 300;
  systime_t t = 1000;

  boot ();
  g_assert_cmpint (tuRecordBegin (&link.base, 1), ==, 1);
  link.wakeups = 0;
  head = link.text->len;
  for (guint p = 0; p < polls; p++)
    {
      /* 10 ms: 80 switches, the line sends what it can */
      for (guint i = 0; i < 80; i++)
        {
          ch_host_time = t + i / 8;
          ch_host_counter = (rtcnt_t) ch_host_time * 168000u + i * 2000u;
          ch_host_switch (rota[turn++ % 3]);
        }
      t += 10;
      ch_host_time = t;
      link.queued -= MIN (link.queued, LINK_POLL_BYTES);
      g_assert_cmpint (tuRecordPoll (&link.base, &keep_alive, p % 100 == 0 ? 1 : 0), ==, 1);
    }
  wakeups = link.wakeups;
  sent = link.text->len - head;
  g_test_message ("%" G_GUINT64_FORMAT " wake-ups for %" G_GSIZE_FORMAT " bytes in %u polls",
                  wakeups, sent, polls);
  /* The link is saturated: bytes wait for it, so the next poll is due soon; once the recording
   * ended, at the usual pace. */
  g_assert_cmpuint (tuRecordPollMs (), ==, THREADS_RECORD_BUSY_POLL_MS);
  g_assert_cmpuint (tuRecordPoll (&link.base, &stop_byte, 1), ==, 0);
  g_assert_cmpuint (tuRecordPollMs (), ==, THREADS_RECORD_POLL_MS);
  /* At most a wake-up a poll (none here: the queue holds a poll's bytes). */
  g_assert_cmpuint (wakeups, <=, polls);
  /* The link carried what it could all along: nearly a poll's worth every poll. */
  g_assert_cmpuint (sent, >=, (gsize) polls * LINK_POLL_BYTES * 9 / 10);

  text = g_string_free (link.text, FALSE);
  g_assert_true (g_str_has_suffix (text, "\r\n"));
  g_assert_nonnull (strstr (text, "\r\nEnd of dump: "));
  g_assert_cmpuint (count_lines (text, "Lost:"), >, 0);
  capture = read_back (text, "threads_record events");
  g_assert_null (tks_capture_get_damage (capture));
  g_assert_cmpuint (tks_capture_get_n_records (capture), >, 1000);
}

/* Threads that come and go while the link is saturated: the reader never catches up, so
 * the board cannot wait for it to give the numbers back; it skips ahead when fewer than 8
 * numbers are free. Far more threads than numbers get one over the recording, every run read
 * back belongs to the thread that ran it, and nothing is left out without a count. */
static void
test_numbers_given_back_saturated (void)
{
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) capture = NULL;
  char names[N_SPAWNED][16];
  systime_t begun[N_SPAWNED];
  guint n_numbered = 0, n_checked = 0;
  SlowLink link;

  slow_link_begin (&link);
  memset (spawned, 0, sizeof spawned);
  for (guint i = 0; i < N_SPAWNED; i++)
    {
      g_snprintf (names[i], sizeof names[i], "spawned %u", i);
      ch_host_time = ++link.tick;
      ch_host_thread_init (&spawned[i], names[i], (tprio_t) (120 + i % 7), CH_FLAG_MODE_STATIC);
      ch_host_switch (&spawned[i]);
      begun[i] = ch_host_time;
      ch_host_time = ++link.tick;
      ch_host_thread_exit (&spawned[i]);
      ch_host_switch (rota[turn % 3]);
      slow_link_switches (&link, 10);
      if (i % 2 == 1)
        g_assert_cmpint (poll_with ("\x16"), ==, 1);
    }
  stop ();
  out.on_write = NULL;
  text = take_text ();
  g_assert_cmpuint (count_lines (text, "Lost: "), >, 0);
  capture = read_back_clean (text, "threads_record");
  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    {
      const TksThread *th = tks_capture_get_thread (capture, i);
      guint k;

      g_assert_false (th->flags & TKS_THREAD_NOT_LISTED);
      if (!g_str_has_prefix (th->name, "spawned "))
        continue;
      g_assert_cmpint (th->number, >, 0);
      n_numbered++;
      k = (guint) g_ascii_strtoull (th->name + strlen ("spawned "), NULL, 10);
      g_assert_cmpuint (k, <, N_SPAWNED);
      g_assert_cmpint (th->priority, ==, 120 + (int) (k % 7));
      g_assert_cmpuint (th->n_runs, <=, 1);
      /* Its one run, if the stream has it: from its switch in to the exit's switch away (a
       * hole may take either, the run then ends or begins with the hole), never elsewhere. */
      if (th->n_runs == 1)
        {
          g_assert_cmpfloat (floor (th->runs[0].begin), >=, (double) begun[k]);
          g_assert_cmpfloat (floor (th->runs[0].end), <=, (double) begun[k] + 1.0);
          n_checked += floor (th->runs[0].begin) == (double) begun[k]
                       && floor (th->runs[0].end) == (double) begun[k] + 1.0;
        }
    }
  g_test_message ("%u spawned threads numbered, %u of their runs streamed whole", n_numbered,
                  n_checked);
  g_assert_cmpuint (n_numbered, >, 63);
  g_assert_cmpuint (n_checked, >, 0);
}

/* Arguments other than "events" get the usage line. */
static void
test_usage (void)
{
  char *argv[] = { (char *) "all", NULL };
  g_autofree char *text = NULL;

  boot ();
  text = host_run (tuCmdThreadsRecord, 1, argv);
  g_assert_cmpstr (text, ==, "Usage: threads_record [events]\r\n");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/mcu/record/stream-and-stop", test_stream_and_stop);
  g_test_add_func ("/mcu/record/events", test_stream_events);
  g_test_add_func ("/mcu/record/link-handler-counted", test_stream_link_handler_counted);
  g_test_add_func ("/mcu/record/drops-counted-in-band", test_drops_counted_in_band);
  g_test_add_func ("/mcu/record/keepalive-timeout", test_keepalive_timeout);
  g_test_add_func ("/mcu/record/stop-sends-backlog", test_stop_sends_backlog);
  g_test_add_func ("/mcu/record/silence-counts-backlog", test_silence_counts_backlog);
  g_test_add_func ("/mcu/record/threads-and-trigger", test_threads_and_trigger);
  g_test_add_func ("/mcu/record/numbers-given-back", test_numbers_given_back);
  g_test_add_func ("/mcu/record/numbers-given-back-by-many", test_numbers_given_back_by_many);
  g_test_add_func ("/mcu/record/numbers-given-back-events", test_numbers_given_back_events);
  g_test_add_func ("/mcu/record/exited-heap-threads-named", test_exited_heap_threads_named);
  g_test_add_func ("/mcu/record/slow-link-no-wait-per-byte", test_slow_link_no_wait_per_byte);
  g_test_add_func ("/mcu/record/numbers-given-back-saturated", test_numbers_given_back_saturated);
  g_test_add_func ("/mcu/record/usage", test_usage);
  return g_test_run ();
}
