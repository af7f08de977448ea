/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The board library on a kernel whose system time has 16 bits (CH_CFG_ST_RESOLUTION 16, a
 * board in tick-less mode on a 16-bit timer), at 10 kHz: its ticks wrap every 65536 (6.5 s).
 * The board says so ("Tick bits: 16"); the core unwraps dumps, compact dumps and recordings
 * at that width, and a recording's heartbeats carry it over a quiet stretch longer than half
 * a wrap. Times are checked against the ticks the test set.
 */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include <glib.h>

#include "ch.h"
#include "host-stream.h"
#include "threads_utilities.h"
#include "tks-capture.h"
#include "tks-compact.h"
#include "tks-events.h"
#include "tks-test-data.h"

#define WRAP 65536u

static thread_t threads[3];
static HostStream out;
static guint turn;

/* The board's time in 32 bits: the library reads its low 16. */
static void
boot (guint32 now)
{
  ch_host_reset ();
  tuResetState ();
  memset (threads, 0, sizeof threads);
  turn = 1;
  ch_host_time = now;
  ch_host_thread_init (&threads[0], "main", 128, CH_FLAG_MODE_STATIC);
  ch_host_thread_init (&threads[1], "idle", 1, CH_FLAG_MODE_STATIC);
  ch_host_thread_init (&threads[2], "worker", 130, CH_FLAG_MODE_STATIC);
  ch_host_switch (&threads[0]);
  host_stream_init (&out);
}

/* @n switches, @step ticks apart from @tick on; the tick after the last. */
static guint32
switches (guint32 tick,
          guint   n,
          guint32 step)
{
  for (guint i = 0; i < n; i++, tick += step)
    {
      ch_host_time = tick;
      ch_host_switch (&threads[turn++ % 3]);
    }
  return tick;
}

static char *
take_text (void)
{
  char *text = host_stream_steal (&out);

  host_stream_init (&out);
  return text;
}

static TksCapture *
read_back (const char *reply,
           const char *command)
{
  g_autofree char *text = g_strconcat (command, "\r\n", reply, "ch> ", NULL);

  return tks_test_capture_of_text (text, -1);
}

static guint
count_warnings (TksCapture *capture)
{
  guint n = 0;
  const char * const *w = tks_capture_get_warnings (capture, &n);

  for (guint i = 0; i < n; i++)
    g_test_message ("warning: %s", w[i]);
  return n;
}

/* @capture saved to a file and read back; the file's text must hold @expect. */
static TksCapture *
saved_copy (TksCapture *capture,
            const char *expect)
{
  g_autofree char *dir = NULL, *path = NULL, *saved = NULL;
  g_autoptr(GError) error = NULL;
  TksCapture *again;

  dir = g_dir_make_tmp ("tks-tick16-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "saved.txt", NULL);
  g_assert_true (tks_capture_save (capture, path, NULL, 10000, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &saved, NULL, &error));
  g_assert_nonnull (strstr (saved, expect));
  again = tks_capture_new_from_data (saved, strlen (saved), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_warnings (again), ==, 0);
  g_unlink (path);
  g_rmdir (dir);
  return again;
}

/* A dump and a compact dump whose log crosses the 16-bit wrap twice: the header says 16 bits,
 * the ticks printed are below 65536, and the log reads back whole, as long as it was. */
static void
test_dumps_across_wraps (gconstpointer data)
{
  gboolean compact = GPOINTER_TO_INT (data);
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) capture = NULL;
  guint32 first = 3 * WRAP - 3000, last;

  boot (first - 10);
  /* 250 switches 500 ticks apart: 124500 ticks, nearly two wraps */
  last = switches (first, 250, 500) - 500;
  ch_host_time = last + 7;
  if (compact)
    tuCmdThreadsDumpCompact (&out.base, 0, NULL);
  else
    tuCmdThreadsDump (&out.base, 0, NULL);
  text = take_text ();
  g_assert_nonnull (strstr (text, "Tick bits: 16\r\n"));
  g_assert_nonnull (strstr (text, "Tick frequency: 10000\r\n"));
  capture = read_back (text, compact ? "threads_dump_compact" : "threads_dump");
  g_assert_null (tks_capture_get_damage (capture));
  g_assert_cmpuint (count_warnings (capture), ==, 0);
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, 250);
  /* the first switch's tick is its low 16 bits; the span is the board's */
  g_assert_cmpfloat (tks_capture_get_start (capture), ==, (double) (first % WRAP));
  g_assert_cmpfloat (tks_capture_get_log_end (capture, NULL) - tks_capture_get_start (capture), ==,
                     (double) (last - first) + 1);
}

/* A saved copy of a 16-bit log says so ("Tickscope tick-bits 16") and reads back the same. */
static void
test_saved_copy (void)
{
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) capture = NULL, again = NULL;
  guint32 first = WRAP - 1000;

  boot (first);
  switches (first, 100, 100);
  tuCmdThreadsDump (&out.base, 0, NULL);
  text = take_text ();
  capture = read_back (text, "threads_dump");
  again = saved_copy (capture, "Tickscope tick-bits 16\n");
  g_assert_cmpuint (tks_capture_get_n_records (again), ==, 100);
  g_assert_cmpfloat (tks_capture_get_start (again), ==, tks_capture_get_start (capture));
  g_assert_cmpfloat (tks_capture_get_end (again), ==, tks_capture_get_end (capture));
}

#ifndef THREADS_TIMESTAMPS_USER
/* Polls the recording every 10 ms (100 ticks) from @from to @to, with a keep-alive every
 * second; the output stays in the stream. */
static void
poll_until (guint32 from,
            guint32 to)
{
  static const uint8_t keep_alive = 0x16;

  for (guint32 t = from; t <= to; t += 100)
    {
      ch_host_time = t;
      g_assert_cmpint (tuRecordPoll (&out.base, &keep_alive, t % 10000 < 100 ? 1 : 0), ==, 1);
    }
}

/* A recording with quiet stretches longer than half a wrap, one of several wraps: the board
 * sends heartbeats, and the recording (its text as a file holds it, and its compact lines
 * through the decoder) reads back with every switch at its place. */
static void
test_recording_quiet_stretches (void)
{
  static const uint8_t stop_byte = THREADS_RECORD_STOP_BYTE;
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(TksCompactDecoder) decoder = NULL;
  g_auto(GStrv) lines = NULL;
  guint32 t = 1000, first, before_quiet, after_quiet, last;
  guint n_beats = 0;
  GArray *entries;

  boot (t - 10);
  g_assert_cmpint (tuRecordBegin (&out.base, 0), ==, 1);
  first = t;
  t = switches (t, 50, 37);
  poll_until (t, t + 3000);
  t += 3000;
  /* quiet for 0.6 wrap, a switch, then quiet for 3.3 wraps */
  t += WRAP * 6 / 10;
  poll_until (t - WRAP * 6 / 10, t);
  t = switches (t, 1, 1);
  before_quiet = t - 1;
  poll_until (t, t + 2 * WRAP + WRAP * 13 / 10);
  t += 2 * WRAP + WRAP * 13 / 10;
  after_quiet = t;
  t = switches (t, 40, 3);
  last = t - 3;
  poll_until (t, t + 3000);
  ch_host_time = t + 3000;
  g_assert_cmpint (tuRecordPoll (&out.base, &stop_byte, 1), ==, 0);
  text = take_text ();
  g_assert_nonnull (strstr (text, "Tick bits: 16\r\n"));
  g_assert_nonnull (strstr (text, "End of dump: 91 records, checksum "));

  /* the heartbeats: a quarter wrap apart at most while quiet, never inside a line */
  lines = g_strsplit (text, "\r\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "Heartbeat: tick "))
      {
        guint64 tick = g_ascii_strtoull (lines[i] + strlen ("Heartbeat: tick "), NULL, 10);

        g_assert_cmpuint (tick, <, WRAP);
        n_beats++;
      }
  g_test_message ("%u heartbeats", n_beats);
  g_assert_cmpuint (n_beats, >=, 12);

  capture = read_back (text, "threads_record");
  g_assert_null (tks_capture_get_damage (capture));
  g_assert_cmpuint (count_warnings (capture), ==, 0);
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, 91);
  g_assert_cmpfloat (tks_capture_get_start (capture), ==, (double) first);
  g_assert_cmpfloat (tks_capture_get_log_end (capture, NULL) - tks_capture_get_start (capture), ==,
                     (double) (last - first) + 1);
  (void) before_quiet;
  (void) after_quiet;

  /* The compact lines alone, through the decoder told the width: ticks of 16 bits, each
   * switch's tick the low bits of the one the test set. */
  decoder = tks_compact_decoder_new (10000, 0);
  tks_compact_decoder_set_tick_bits (decoder, 16);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] == 'Z')
      g_assert_true (tks_compact_decoder_line (decoder, lines[i], strlen (lines[i]), NULL));
  entries = tks_compact_decoder_entries (decoder);
  g_assert_cmpuint (entries->len, ==, 91);
  for (guint i = 0; i < entries->len; i++)
    {
      guint32 tick = g_array_index (entries, TksEntry, i).record >> 12;
      guint32 truth = i < 50 ? first + 37 * i : i == 50 ? before_quiet : after_quiet + 3 * (i - 51);

      g_assert_cmpuint (tick, ==, truth % WRAP);
    }
}

/* The decoder of a 16-bit board's compact lines: a step over the wrap stays below 2^16 (with
 * 20 bits it would be 65536 + the tick). */
static void
test_compact_steps_wrap (void)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(TksCompactDecoder) decoder = tks_compact_decoder_new (10000, 0);
  GArray *entries;
  guint32 first = WRAP - 20;

  boot (first);
  switches (first, 10, 5);
  tuCmdThreadsDumpCompact (&out.base, 0, NULL);
  text = take_text ();
  tks_compact_decoder_set_tick_bits (decoder, 16);
  lines = g_strsplit (text, "\r\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] == 'Z')
      g_assert_true (tks_compact_decoder_line (decoder, lines[i], strlen (lines[i]), NULL));
  entries = tks_compact_decoder_entries (decoder);
  g_assert_cmpuint (entries->len, ==, 10);
  for (guint i = 0; i < entries->len; i++)
    g_assert_cmpuint (g_array_index (entries, TksEntry, i).record >> 12, ==, (first + 5 * i) % WRAP);
}

#endif

#ifdef THREADS_TIMESTAMPS_USER
/* Sets the board's time, its 16-bit system time and its 168 MHz cycle counter alike. */
static void
set_time (guint32 tick)
{
  ch_host_time = tick;
  ch_host_counter = (rtcnt_t) ((guint64) tick * 16800u);
}

/* A recording with events across quiet stretches of several wraps, with markers inside
 * them: the heartbeats carry the entries over the wraps as they carry the switches, so every
 * marker lies as far from the first switch as the board's time said, and each switch's entry
 * lies where its record does. */
static void
test_recording_events_quiet_stretches (void)
{
  static const uint8_t stop_byte = THREADS_RECORD_STOP_BYTE;
  static const uint8_t keep_alive = 0x16;
  g_autofree char *text = NULL;
  g_autoptr(TksCapture) capture = NULL;
  const TksEventEntry *entries;
  TksEvents *events;
  guint32 t = 1000;
  guint32 marks[6], truth[23];
  guint n_marks = 0, n_entries, n_switches = 0, m = 0, n_truth = 0;
  tuname_t marker;
  double first_pos = NAN;

  boot (t - 10);
  set_time (t - 10);
  marker = tuRegisterMarker ("beat");
  g_assert_cmpint (tuRecordBegin (&out.base, 1), ==, 1);
  for (guint i = 0; i < 20; i++, t += 37)
    {
      set_time (t);
      ch_host_switch (&threads[turn++ % 3]);
      truth[n_truth++] = t;
    }
  /* quiet stretches of 0.6, 1.7 and 2.4 wraps, a marker in the middle of each and at its
   * end, the recording polled every 100 ticks */
  for (guint q = 0; q < 3; q++)
    {
      guint32 length = WRAP * (q == 0 ? 6 : q == 1 ? 17 : 24) / 10;

      for (guint32 end = t + length; t < end; t += 100)
        {
          set_time (t);
          if (t + 100 >= end - length / 2 && t < end - length / 2)
            {
              tuMarker (marker, n_marks);
              marks[n_marks++] = t;
            }
          g_assert_cmpint (tuRecordPoll (&out.base, &keep_alive, t % 10000 < 100 ? 1 : 0), ==, 1);
        }
      set_time (t);
      tuMarker (marker, n_marks);
      marks[n_marks++] = t;
      ch_host_switch (&threads[turn++ % 3]);
      truth[n_truth++] = t;
      t += 5;
    }
  for (guint32 end = t + 3000; t < end; t += 100)
    {
      set_time (t);
      g_assert_cmpint (tuRecordPoll (&out.base, &keep_alive, 0), ==, 1);
    }
  set_time (t);
  g_assert_cmpint (tuRecordPoll (&out.base, &stop_byte, 1), ==, 0);
  text = take_text ();
  g_assert_nonnull (strstr (text, "Tick bits: 16\r\n"));
  g_assert_nonnull (strstr (text, "Heartbeat: tick "));

  capture = read_back (text, "threads_record events");
  g_assert_null (tks_capture_get_damage (capture));
  g_assert_cmpuint (count_warnings (capture), ==, 0);
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, 23);
  events = tks_capture_get_events (capture);
  g_assert_nonnull (events);
  entries = tks_events_get_entries (events, &n_entries);
  for (guint i = 0; i < n_entries; i++)
    {
      if (entries[i].kind == TKS_EVENT_SWITCH)
        {
          double want;

          if (isnan (first_pos))
            first_pos = entries[i].time.pos;
          want = first_pos + (double) (truth[n_switches] - truth[0]);
          g_test_message ("switch %u at %.3f, set at %.0f", n_switches, entries[i].time.pos, want);
          g_assert_cmpfloat (entries[i].time.pos, >=, want);
          g_assert_cmpfloat (entries[i].time.pos, <, want + 1);
          n_switches++;
        }
      else if (entries[i].kind == TKS_EVENT_MARKER)
        {
          double want = first_pos + (double) (marks[m] - truth[0]);

          g_test_message ("marker %u at %.3f, set at %.0f", m, entries[i].time.pos, want);
          g_assert_cmpuint (m, <, n_marks);
          g_assert_cmpfloat (entries[i].time.pos, >=, want);
          g_assert_cmpfloat (entries[i].time.pos, <, want + 1);
          m++;
        }
    }
  g_assert_cmpuint (n_switches, ==, n_truth);
  g_assert_cmpuint (m, ==, n_marks);

  /* a saved copy places every entry the same (its heartbeats say which entry they precede) */
  {
    g_autoptr(TksCapture) again = saved_copy (capture, ", entry ");
    const TksEventEntry *entries_again;
    guint n_again;

    entries_again = tks_events_get_entries (tks_capture_get_events (again), &n_again);
    g_assert_cmpuint (n_again, ==, n_entries);
    for (guint i = 0; i < n_entries; i++)
      g_assert_cmpfloat (entries_again[i].time.pos, ==, entries[i].time.pos);
  }
}
#endif

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/mcu/tick16/dump-across-wraps", GINT_TO_POINTER (FALSE),
                        test_dumps_across_wraps);
  g_test_add_data_func ("/mcu/tick16/compact-dump-across-wraps", GINT_TO_POINTER (TRUE),
                        test_dumps_across_wraps);
  g_test_add_func ("/mcu/tick16/saved-copy", test_saved_copy);
#ifndef THREADS_TIMESTAMPS_USER
  /* (their compact lines are read by a decoder of switches only) */
  g_test_add_func ("/mcu/tick16/recording-quiet-stretches", test_recording_quiet_stretches);
  g_test_add_func ("/mcu/tick16/compact-steps-wrap", test_compact_steps_wrap);
#else
  g_test_add_func ("/mcu/tick16/recording-events-quiet-stretches",
                   test_recording_events_quiet_stretches);
#endif
  return g_test_run ();
}
