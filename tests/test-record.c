/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <gio/gio.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "tks-capture.h"
#include "tks-error.h"
#include "tks-recorder.h"
#include "tks-transport.h"
#include "tks-test-board.h"
#include "tks-test-data.h"
#include "tks-test-port.h"

/*
 * Continuous recording (TksRecorder, tickscope-cli record) against the simulated board program
 * (tickscope-simboard, named by $TKS_SIMBOARD) over real TCP and a real pty, at a serial
 * line's pace: the file written as the stream arrives and read back as a capture, drops on a
 * link too slow for the board, a board killed mid-stream, a board left without keep-alive, a
 * damaged line, the CLI's summary and its Ctrl+C.
 */

typedef struct
{
  GSubprocess *proc;
  char        *address;
} Board;

/* Starts the board serving on @how ("--tcp" or "--pty") with a serial line of @baud, and
 * @extra (an option of the board, or NULL). */
static void
board_start_with (Board      *board,
                  const char *how,
                  const char *baud,
                  const char *extra)
{
  const char *exe = g_getenv ("TKS_SIMBOARD");
  g_autoptr(GError) error = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autofree char *port = NULL;
  g_autofree char *line = NULL;
  const char *argv[8];
  int n = 0;

  g_assert_nonnull (exe);
  argv[n++] = exe;
  argv[n++] = how;
  if (g_str_equal (how, "--tcp"))
    argv[n++] = port = g_strdup_printf ("%u", free_port ());
  argv[n++] = "--baud";
  argv[n++] = baud;
  if (extra != NULL)
    argv[n++] = extra;
  argv[n] = NULL;
  board->proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                  G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (board->proc));
  line = g_data_input_stream_read_line (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  board->address = port != NULL ? g_strdup_printf ("tcp:127.0.0.1:%s", port)
                                 : g_strdup (g_strchomp (line));
}

static void
board_start (Board      *board,
             const char *how,
             const char *baud)
{
  board_start_with (board, how, baud, NULL);
}

static void
board_stop (Board *board)
{
  if (board->proc != NULL)
    {
      g_subprocess_force_exit (board->proc);
      g_subprocess_wait (board->proc, NULL, NULL);
    }
  g_clear_object (&board->proc);
  g_clear_pointer (&board->address, g_free);
}

typedef struct
{
  guint64 entries;
  guint64 lost;
  guint   calls;
  GPtrArray *notices;
} Seen;

static void
on_entries (const TksEntry *entries,
            guint           n_entries,
            guint64         lost_before,
            gpointer        user_data)
{
  Seen *seen = user_data;

  seen->entries += n_entries;
  seen->lost += lost_before;
  seen->calls++;
}

static void
on_notice (const char *message,
           gpointer    user_data)
{
  Seen *seen = user_data;

  g_ptr_array_add (seen->notices, g_strdup (message));
}

static TksRecorder *
recorder_for_with (Board      *board,
                   const char *path,
                   gboolean    events,
                   Seen       *seen)
{
  g_autoptr(GError) error = NULL;
  TksTransport *transport = tks_transport_open (board->address, NULL, NULL, &error);
  TksRecorder *recorder;

  g_assert_no_error (error);
  recorder = tks_recorder_new (path, &error);
  g_assert_no_error (error);
  seen->notices = g_ptr_array_new_with_free_func (g_free);
  tks_recorder_set_entries_func (recorder, on_entries, seen);
  tks_recorder_set_notice_func (recorder, on_notice, seen);
  tks_recorder_set_events (recorder, events);
  tks_recorder_start (recorder, transport, NULL, &error);
  g_assert_no_error (error);
  return recorder;
}

static TksRecorder *
recorder_for (Board      *board,
              const char *path,
              Seen       *seen)
{
  return recorder_for_with (board, path, FALSE, seen);
}

/* Records for @seconds; FALSE with @error when the recording ended by itself. */
static gboolean
record_for (TksRecorder *recorder,
            double       seconds,
            GError     **error)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while (g_get_monotonic_time () < end)
    if (!tks_recorder_step (recorder, 50, NULL, error))
      return FALSE;
  return TRUE;
}

/* Records for @seconds, stops the board's stream with the stop byte and closes the file. */
static void
record_and_stop (TksRecorder      *recorder,
                 double            seconds,
                 TksRecorderStats *st)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (record_for (recorder, seconds, &error));
  g_assert_no_error (error);
  tks_recorder_stop (recorder, NULL, &error);
  g_assert_no_error (error);
  tks_recorder_close (recorder, &error);
  g_assert_no_error (error);
  tks_recorder_get_stats (recorder, st);
}

static char *
temp_path (const char *name)
{
  return g_build_filename (g_get_tmp_dir (), name, NULL);
}

static guint64
gaps_dropped (TksCapture *capture)
{
  guint n_gaps;
  const TksGap *gaps = tks_capture_get_gaps (capture, &n_gaps);
  guint64 dropped = 0;

  for (guint g = 0; g < n_gaps; g++)
    dropped += gaps[g].dropped;
  return dropped;
}

/* Every event with its counter, at 115200 baud: the board prints its stream no faster than the
 * line takes it (ten bits a byte), and what the line cannot take is dropped and counted; the
 * file opens whole, its events decoded (the counter's coder 2: lines go on from each other). */
static void
test_events_paced (void)
{
  Board board = { 0 };
  Seen seen = { 0 };
  g_autofree char *path = temp_path ("tks-test-record-events.txt");
  g_autoptr(TksRecorder) recorder = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  TksRecorderStats st;

  board_start (&board, "--tcp", "115200");
  recorder = recorder_for_with (&board, path, TRUE, &seen);
  record_and_stop (recorder, 4.0, &st);
  g_test_message ("%" G_GUINT64_FORMAT " entries, %" G_GUINT64_FORMAT " bytes in %.1f s, %"
                  G_GUINT64_FORMAT " dropped", st.entries, st.bytes, st.seconds, st.dropped);
  g_assert_true (st.ended);
  g_assert_cmpuint (st.damaged, ==, 0);
  g_assert_cmpuint (st.entries, >, 5000);
  /* the line's pace: 11,520 bytes a second (and the header and the last line's wait) */
  g_assert_cmpfloat ((double) st.bytes, <, 11520.0 * st.seconds * 1.1 + 4000);
  g_assert_cmpuint (st.dropped, >, 0);
  g_assert_cmpuint (seen.lost, ==, st.dropped);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\r\nCounter coder: 4\r\n"));
  capture = tks_capture_new_from_file (path, &error);
  g_assert_no_error (error);
  g_assert_null (tks_capture_get_damage (capture));
  {
    guint n_warnings;

    (void) tks_capture_get_warnings (capture, &n_warnings);
    g_assert_cmpuint (n_warnings, ==, 0);
  }
  g_ptr_array_unref (seen.notices);
  board_stop (&board);
  g_unlink (path);
}

/* At 115200 baud the board's switches all get through: nothing dropped, the stream stopped by
 * the stop byte, the file (written as it came) a capture with every switch, whose checksum
 * agrees; the live entries are those of the file. */
static void
test_record (gconstpointer data)
{
  const char *how = data;
  Board board = { 0 };
  Seen seen = { 0 };
  g_autofree char *path = temp_path ("tks-test-record.txt");
  g_autoptr(TksRecorder) recorder = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  TksRecorderStats st;

  board_start (&board, how, "115200");
  recorder = recorder_for (&board, path, &seen);
  record_and_stop (recorder, 3.0, &st);
  g_test_message ("%" G_GUINT64_FORMAT " entries, %" G_GUINT64_FORMAT " bytes in %.1f s",
                  st.entries, st.bytes, st.seconds);
  g_assert_true (st.ended);
  g_assert_cmpuint (st.dropped, ==, 0);
  g_assert_cmpuint (st.damaged, ==, 0);
  g_assert_cmpuint (st.entries, >, 5000);
  g_assert_cmpuint (seen.entries, ==, st.entries);
  g_assert_cmpuint (seen.notices->len, ==, 0);
  /* about a byte a switch */
  g_assert_cmpfloat ((double) st.bytes / (double) st.entries, <, 2.0);

  capture = tks_capture_new_from_file (path, &error);
  g_assert_no_error (error);
  g_assert_null (tks_capture_get_damage (capture));
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, st.entries);
  g_assert_cmpfloat (tks_capture_get_end (capture) - tks_capture_get_start (capture), >, 2500);
  g_ptr_array_unref (seen.notices);
  board_stop (&board);
  g_unlink (path);
}

/* Slots the board lost after the last compact line (its backlog at the end, not sent) reach
 * the entries' callback too, with no entries, so that what it is told adds up to the drops. */
static void
test_lost_after_last_line (void)
{
  Seen seen = { 0 };
  g_autofree char *path = temp_path ("tks-test-record-lost-end.txt");
  g_autofree char *data = g_test_build_filename (G_TEST_DIST, "data", "simboard-record.raw.txt",
                                                 NULL);
  g_autofree char *text = NULL;
  g_autoptr(GString) stream = NULL;
  g_autoptr(TksRecorder) recorder = NULL;
  g_autoptr(GError) error = NULL;
  TksRecorderStats st;
  const char *end;
  gsize len;

  g_assert_true (g_file_get_contents (data, &text, &len, &error));
  g_assert_no_error (error);
  stream = g_string_new_len (text, (gssize) len);
  end = strstr (stream->str, "End of dump: ");
  g_assert_nonnull (end);
  g_string_insert (stream, end - stream->str,
                   "Lost: before record 2963, ticks 4000 to 4100, 377 switches dropped\r\n");

  recorder = tks_recorder_new (path, &error);
  g_assert_no_error (error);
  seen.notices = g_ptr_array_new_with_free_func (g_free);
  tks_recorder_set_entries_func (recorder, on_entries, &seen);
  tks_recorder_set_notice_func (recorder, on_notice, &seen);
  tks_recorder_feed (recorder, (const guint8 *) stream->str, stream->len);
  tks_recorder_close (recorder, &error);
  g_assert_no_error (error);
  tks_recorder_get_stats (recorder, &st);
  g_assert_true (st.ended);
  g_assert_cmpuint (st.dropped, ==, 377);
  g_assert_cmpuint (seen.lost, ==, st.dropped);
  g_assert_cmpuint (seen.entries, ==, st.entries);
  g_ptr_array_unref (seen.notices);
  g_unlink (path);
}

/* A link too slow for the board (4800 baud): the board's log goes round before the link takes
 * it; what it could not send is counted in the stream, and the capture shows the holes where
 * they were, as many as counted. The rest arrives whole. */
static void
test_slow_link_drops (void)
{
  Board board = { 0 };
  Seen seen = { 0 };
  g_autofree char *path = temp_path ("tks-test-record-slow.txt");
  g_autoptr(TksRecorder) recorder = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  TksRecorderStats st;

  board_start (&board, "--tcp", "4800");
  recorder = recorder_for (&board, path, &seen);
  record_and_stop (recorder, 6.0, &st);
  g_test_message ("%" G_GUINT64_FORMAT " entries, %" G_GUINT64_FORMAT " dropped",
                  st.entries, st.dropped);
  g_assert_cmpuint (st.dropped, >, 1000);
  g_assert_cmpuint (seen.lost, ==, st.dropped);
  g_assert_cmpuint (seen.notices->len, >, 0);
  g_assert_nonnull (strstr (g_ptr_array_index (seen.notices, 0), "could not send"));
  capture = tks_capture_new_from_file (path, &error);
  g_assert_no_error (error);
  g_assert_null (tks_capture_get_damage (capture));
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, st.entries);
  /* Every loss is a hole of the capture, of the size the board said (one before the first
   * record or after the last too: the capture starts or ends with it), and no thread is shown
   * running across one. */
  {
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    guint64 between = 0, n_between = 0, n = tks_capture_get_n_records (capture);
    const TksGap *gaps;
    guint n_gaps;

    g_file_get_contents (path, &text, NULL, &error);
    g_assert_no_error (error);
    lines = g_strsplit (text, "\r\n", -1);
    for (guint i = 0; lines[i] != NULL; i++)
      {
        guint64 seq, b, e, dropped;

        if (sscanf (lines[i], "Lost: before record %" G_GUINT64_FORMAT ", ticks %" G_GUINT64_FORMAT
                    " to %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT " switches dropped",
                    &seq, &b, &e, &dropped) == 4 && seq <= n)
          {
            between += dropped;
            n_between++;
          }
      }
    gaps = tks_capture_get_gaps (capture, &n_gaps);
    g_assert_cmpuint (n_between, >, 0);
    g_assert_cmpuint (n_gaps, ==, n_between);
    g_assert_cmpuint (gaps_dropped (capture), ==, between);
    for (guint t = 0; t < tks_capture_get_n_threads (capture); t++)
      {
        const TksThread *th = tks_capture_get_thread (capture, t);

        for (guint r = 0; r < th->n_runs; r++)
          for (guint g = 0; g < n_gaps; g++)
            if (th->runs[r].begin < gaps[g].end && th->runs[r].end > gaps[g].begin)
              g_error ("thread %s runs from %g to %g, across the hole from %g to %g", th->name,
                       th->runs[r].begin, th->runs[r].end, gaps[g].begin, gaps[g].end);
      }
  }
  g_ptr_array_unref (seen.notices);
  board_stop (&board);
  g_unlink (path);
}

/* The board dies mid-stream: the recording ends at once with a clear error, and the file
 * holds everything that arrived, as a capture (marked as cut). */
static void
test_killed (gconstpointer data)
{
  const char *how = data;
  Board board = { 0 };
  Seen seen = { 0 };
  g_autofree char *path = temp_path ("tks-test-record-killed.txt");
  g_autoptr(TksRecorder) recorder = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  TksRecorderStats st;
  gint64 killed;

  board_start (&board, how, "115200");
  recorder = recorder_for (&board, path, &seen);
  g_assert_true (record_for (recorder, 1.5, &error));
  g_subprocess_force_exit (board.proc);
  killed = g_get_monotonic_time ();
  g_assert_false (record_for (recorder, 8.0, &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_true (g_error_matches (error, TKS_ERROR, TKS_ERROR_DISCONNECTED) ||
                 g_error_matches (error, TKS_ERROR, TKS_ERROR_TIMEOUT));
  g_assert_cmpint (g_get_monotonic_time () - killed, <, 6 * G_USEC_PER_SEC);
  g_clear_error (&error);
  tks_recorder_close (recorder, &error);
  g_assert_no_error (error);
  tks_recorder_get_stats (recorder, &st);
  g_assert_false (st.ended);
  g_assert_cmpuint (st.entries, >, 1000);
  capture = tks_capture_new_from_file (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (tks_capture_get_damage (capture));
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, st.entries);
  g_ptr_array_unref (seen.notices);
  board_stop (&board);
  g_unlink (path);
}

/* The host goes silent (no keep-alive) but keeps the link open: the board ends the stream by
 * itself about three seconds later, with its end line and prompt. */
static void
test_board_stops_without_keepalive (void)
{
  Board board = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(TksTransport) transport = NULL;
  g_autoptr(GString) got = g_string_new (NULL);
  gint64 sent, ended = 0;
  guint8 buf[4096];

  board_start (&board, "--tcp", "115200");
  transport = tks_transport_open (board.address, NULL, NULL, &error);
  g_assert_no_error (error);
  /* the banner and the prompt */
  while (strstr (got->str, "ch> ") == NULL)
    {
      gssize n = tks_transport_read (transport, buf, sizeof buf, 2000, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpint (n, >, 0);
      g_string_append_len (got, (const char *) buf, n);
    }
  g_string_truncate (got, 0);
  tks_transport_write_all (transport, "threads_record\r", 15, 1000, NULL, &error);
  g_assert_no_error (error);
  sent = g_get_monotonic_time ();
  while (g_get_monotonic_time () - sent < 10 * G_USEC_PER_SEC)
    {
      gssize n = tks_transport_read (transport, buf, sizeof buf, 100, NULL, &error);

      g_assert_no_error (error);
      g_string_append_len (got, (const char *) buf, n);
      if (g_str_has_suffix (got->str, "\r\nch> "))
        {
          ended = g_get_monotonic_time ();
          break;
        }
    }
  g_assert_cmpint (ended, !=, 0);
  g_test_message ("ended %.2f s after the command", (ended - sent) / 1e6);
  g_assert_cmpint (ended - sent, >=, 2900000);
  g_assert_cmpint (ended - sent, <, 5 * G_USEC_PER_SEC);
  g_assert_nonnull (strstr (got->str, "\r\nEnd of dump: "));
  board_stop (&board);
}

/* A stream with a damaged line and noise between the lines: each is named and counted, their
 * entries are lost, every other line decodes; the file reads back with a warning. A line that
 * came twice loses nothing. */
static void
test_damaged_line (void)
{
  Board board = { 0 };
  Seen seen = { 0 }, seen2 = { 0 };
  g_autofree char *path = temp_path ("tks-test-record-clean.txt");
  g_autofree char *path2 = temp_path ("tks-test-record-damaged.txt");
  g_autofree char *text = NULL;
  g_autoptr(TksRecorder) recorder = NULL;
  g_autoptr(TksRecorder) replay = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) damaged = NULL;
  TksRecorderStats st, st2;
  char *z;
  gsize len;
  guint n_warnings;

  board_start (&board, "--tcp", "115200");
  recorder = recorder_for (&board, path, &seen);
  record_and_stop (recorder, 1.5, &st);
  board_stop (&board);

  g_file_get_contents (path, &text, &len, &error);
  g_assert_no_error (error);
  damaged = g_string_new_len (text, len);
  /* the tenth compact line gets a wrong character; noise after the twentieth */
  z = damaged->str;
  for (int i = 0; i < 10; i++)
    z = strstr (z + 1, "\r\nZ");
  g_assert_nonnull (z);
  z[12] = z[12] == 'A' ? 'B' : 'A';
  for (int i = 0; i < 10; i++)
    z = strstr (z + 1, "\r\nZ");
  g_assert_nonnull (z);
  g_string_insert (damaged, z - damaged->str + 2, "\x7f#~noise\r\n");

  replay = tks_recorder_new (path2, &error);
  g_assert_no_error (error);
  seen2.notices = g_ptr_array_new_with_free_func (g_free);
  tks_recorder_set_entries_func (replay, on_entries, &seen2);
  tks_recorder_set_notice_func (replay, on_notice, &seen2);
  tks_recorder_feed (replay, (const guint8 *) damaged->str, damaged->len);
  tks_recorder_close (replay, &error);
  g_assert_no_error (error);
  tks_recorder_get_stats (replay, &st2);
  for (guint i = 0; i < seen2.notices->len; i++)
    g_test_message ("%s", (char *) g_ptr_array_index (seen2.notices, i));
  g_assert_cmpuint (st2.damaged, ==, 2);
  /* the damage, the noise, and the threads announced after an exit the damaged line took
   * with it: numbered one higher than the board numbered them, as the reader warns too */
  g_assert_cmpuint (seen2.notices->len, ==, 2 + st2.misnumbered);
  {
    /* in the order of their lines, which depends on where the announcements fell */
    guint n_damage = 0, n_noise = 0, n_numbers = 0;

    for (guint i = 0; i < seen2.notices->len; i++)
      {
        const char *notice = g_ptr_array_index (seen2.notices, i);

        g_assert_true (g_str_has_prefix (notice, "line "));
        n_damage += strstr (notice, "is damaged") != NULL;
        n_noise += strstr (notice, "noise") != NULL;
        n_numbers += strstr (notice, "a thread comes as number") != NULL;
      }
    g_assert_cmpuint (n_damage, ==, 1);
    g_assert_cmpuint (n_noise, ==, 1);
    g_assert_cmpuint (n_numbers, ==, st2.misnumbered);
  }
  g_assert_cmpuint (st2.entries, <, st.entries);
  g_assert_cmpuint (st2.entries, >, st.entries - (TKS_COMPACT_MAX_ENTRIES + 1));
  g_assert_true (st2.ended);

  capture = tks_capture_new_from_file (path2, &error);
  g_assert_no_error (error);
  (void) tks_capture_get_warnings (capture, &n_warnings);
  g_assert_cmpuint (n_warnings, >, 0);
  g_assert_nonnull (tks_capture_get_damage (capture));
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, st2.entries);

  /* A line that came twice (a link that repeats itself) is said, not counted as damage, and
   * costs no entry. */
  {
    g_autoptr(GString) twice = g_string_new_len (text, len);
    g_autoptr(TksRecorder) replay3 = NULL;
    g_autoptr(TksCapture) capture3 = NULL;
    g_autofree char *path3 = temp_path ("tks-test-record-twice.txt");
    Seen seen3 = { 0 };
    TksRecorderStats st3;
    const char *eol;

    z = twice->str;
    for (int i = 0; i < 15; i++)
      z = strstr (z + 1, "\r\nZ");
    g_assert_nonnull (z);
    eol = strstr (z + 2, "\r\n");
    g_assert_nonnull (eol);
    g_string_insert_len (twice, eol + 2 - twice->str, z + 2, eol - z);
    replay3 = tks_recorder_new (path3, &error);
    g_assert_no_error (error);
    seen3.notices = g_ptr_array_new_with_free_func (g_free);
    tks_recorder_set_notice_func (replay3, on_notice, &seen3);
    tks_recorder_feed (replay3, (const guint8 *) twice->str, twice->len);
    tks_recorder_close (replay3, &error);
    g_assert_no_error (error);
    tks_recorder_get_stats (replay3, &st3);
    g_assert_cmpuint (st3.damaged, ==, 0);
    g_assert_cmpuint (st3.entries, ==, st.entries);
    g_assert_cmpuint (seen3.notices->len, ==, 1);
    g_assert_nonnull (strstr (g_ptr_array_index (seen3.notices, 0), "came twice"));
    capture3 = tks_capture_new_from_file (path3, &error);
    g_assert_no_error (error);
    g_assert_null (tks_capture_get_damage (capture3));
    g_assert_cmpuint (tks_capture_get_n_records (capture3), ==, st.entries);
    g_ptr_array_unref (seen3.notices);
    g_unlink (path3);
  }
  g_ptr_array_unref (seen.notices);
  g_ptr_array_unref (seen2.notices);
  g_unlink (path);
  g_unlink (path2);
}

/* Runs tickscope-cli with the arguments after @first (NULL-terminated): its exit status, what
 * it printed in @out and @err (to free). */
static int G_GNUC_NULL_TERMINATED
run_cli (char       **out,
         char       **err,
         const char  *first,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  va_list ap;

  g_ptr_array_add (argv, (gpointer) TICKSCOPE_CLI);
  va_start (ap, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  proc = g_subprocess_newv ((const char * const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, out, err, &error);
  g_assert_no_error (error);
  return g_subprocess_get_exit_status (proc);
}

/* tickscope-cli record: its summary line, and a file tickscope-cli info reads. */
static void
test_cli (void)
{
  Board board = { 0 };
  g_autofree char *path = temp_path ("tks-test-record-cli.txt");
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *info = NULL, *info_err = NULL;
  g_autoptr(GRegex) summary = g_regex_new ("^[0-9]+ events in [0-9]+\\.[0-9] s, 0 dropped, "
                                           "[0-9]+ bytes \\([0-9]+\\.[0-9][0-9] bytes/event\\)\n$",
                                           0, 0, NULL);

  board_start (&board, "--tcp", "115200");
  g_assert_cmpint (run_cli (&out, &err, "record", board.address, "-o", path, "--duration", "2",
                            NULL), ==, 0);
  g_test_message ("%s%s", out, err);
  g_assert_true (g_regex_match (summary, out, 0, NULL));
  /* stderr is not a terminal: no progress */
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (run_cli (&info, &info_err, "info", path, NULL), ==, 0);
  g_assert_true (g_str_has_prefix (info, "Threads:"));
  board_stop (&board);
  g_unlink (path);
}

/* A board with 46 more threads than its own keeps few numbers free: its spawner's jobs come
 * and go through them. tickscope-cli record, then tickscope-cli info: every thread that ran has
 * a number (the exits gave theirs back during the recording), no warning. */
static void
test_cli_numbers_given_back (void)
{
  Board board = { 0 };
  g_autofree char *path = temp_path ("tks-test-record-numbers.txt");
  g_autoptr(GError) error = NULL;
  g_autofree char *rec_out = NULL, *rec_err = NULL, *out = NULL, *err = NULL;
  g_autoptr(TksCapture) capture = NULL;
  guint n_exited = 0, n_warnings = 0;

  board_start_with (&board, "--tcp", "115200", "--workers=46");
  g_assert_cmpint (run_cli (&rec_out, &rec_err, "record", board.address, "-o", path,
                            "--duration", "5", NULL), ==, 0);
  g_assert_cmpint (run_cli (&out, &err, "info", path, NULL), ==, 0);
  g_test_message ("%s%s", out, err);
  g_assert_null (strstr (out, "without a number"));
  g_assert_nonnull (strstr (out, "\nWarnings:          0\n"));

  capture = tks_capture_new_from_file (path, &error);
  g_assert_no_error (error);
  g_assert_null (tks_capture_get_damage (capture));
  tks_capture_get_warnings (capture, &n_warnings);
  g_assert_cmpuint (n_warnings, ==, 0);
  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    {
      const TksThread *th = tks_capture_get_thread (capture, i);

      g_assert_false (th->flags & TKS_THREAD_NOT_LISTED);
      n_exited += (th->flags & TKS_THREAD_EXITED) != 0;
    }
  /* The 60 threads of the board and more jobs than the 3 numbers left (a job every 150 to
   * 450 ms, each one living a few milliseconds). */
  g_assert_cmpuint (n_exited, >=, 8);
  g_assert_cmpuint (tks_capture_get_n_threads (capture), >, 63);
  board_stop (&board);
  g_unlink (path);
}

/* On a terminal, tickscope-cli record shows its progress on standard error (here a pty). */
static void
test_cli_progress_on_terminal (void)
{
  Board board = { 0 };
  g_autofree char *path = temp_path ("tks-test-record-tty.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GString) seen = g_string_new (NULL);
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC), slave;
  gint64 deadline;

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  slave = open (ptsname (master), O_RDWR | O_NOCTTY | O_CLOEXEC);
  g_assert_cmpint (slave, >=, 0);
  g_unix_set_fd_nonblocking (master, TRUE, NULL);
  board_start (&board, "--tcp", "115200");
  g_subprocess_launcher_take_stderr_fd (launcher, slave);
  proc = g_subprocess_launcher_spawn (launcher, &error, TICKSCOPE_CLI, "record", board.address,
                                      "-o", path, "--duration", "2", NULL);
  g_assert_no_error (error);
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (strstr (seen->str, " events, 0 dropped, ") == NULL && g_get_monotonic_time () < deadline)
    {
      char buf[256];
      ssize_t n = read (master, buf, sizeof buf);

      if (n > 0)
        g_string_append_len (seen, buf, n);
      else
        g_usleep (20000);
    }
  g_test_message ("%s", seen->str);
  g_assert_nonnull (strstr (seen->str, "recording: "));
  g_assert_nonnull (strstr (seen->str, " events, 0 dropped, "));
  g_subprocess_wait_check (proc, NULL, &error);
  g_assert_no_error (error);
  close (master);
  board_stop (&board);
  g_unlink (path);
}

/* Ctrl+C ends the recording cleanly: the board is stopped, the file complete (end line and
 * prompt), exit status 0. */
static void
test_cli_sigint (void)
{
  Board board = { 0 };
  g_autofree char *path = temp_path ("tks-test-record-sigint.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autofree char *out = NULL, *err = NULL, *text = NULL;

  board_start (&board, "--tcp", "115200");
  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                           TICKSCOPE_CLI, "record", board.address, "-o", path, NULL);
  g_assert_no_error (error);
  g_usleep (2 * G_USEC_PER_SEC);
  g_subprocess_send_signal (proc, SIGINT);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_test_message ("%s%s", out, err);
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
  g_assert_nonnull (strstr (out, " events in "));
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (text, "threads_record\r\n"));
  g_assert_nonnull (strstr (text, "\r\nEnd of dump: "));
  g_assert_true (g_str_has_suffix (text, "\r\nch> "));
  board_stop (&board);
  g_unlink (path);
}

/* The names in @dir, sorted, joined by spaces. */
static char *
dir_listing (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) (void (*) (void)) g_strcmp0);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

/* An existing file at -o is left byte for byte as it was until the board streams: a board
 * without threads_record, a board that refuses it, a stream refused for its counter coder.
 * No temporary file stays beside it. A board that streams replaces it. */
static void
test_existing_file_kept (void)
{
  static const char old[] = "an older capture\r\nch> ";
  g_autofree char *dir = g_dir_make_tmp ("tks-test-record-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "kept.txt", NULL);
  g_autofree char *out = NULL, *err = NULL, *text = NULL, *listing = NULL;
  g_autofree char *stream = tks_test_data_contents ("simboard-record.raw.txt", NULL);
  g_autoptr(GError) error = NULL;
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  TksTestBoard *board;
  const char *refusals[] = {
    ("threads_record\r\nRecording is not built in\r\nPlease define THREADS_TIMESTAMPS_RECORD = "
     "true in your makefile\r\nch> "),
    "threads_record\r\nUsage: threads_record [events]\r\nch> ",
    "threads_record\r\nthreads_record ?\r\nch> ",
    "",
  };

  g_assert_nonnull (dir);
  g_assert_true (g_file_set_contents (path, old, -1, NULL));
  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  board = tks_test_board_start ("board-shell-help.raw.txt", master, TKS_TEST_BOARD_NORMAL, 0, 0);
  g_assert_cmpint (run_cli (&out, &err, "record", ptsname (master), "-o", path, NULL), ==, 1);
  g_test_message ("%s%s", out, err);
  g_assert_nonnull (strstr (err, "threads_record"));
  tks_test_board_stop (board);
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, old);
  listing = dir_listing (dir);
  g_assert_cmpstr (listing, ==, "kept.txt");

  for (guint i = 0; i < G_N_ELEMENTS (refusals); i++)
    {
      g_autoptr(TksRecorder) recorder = tks_recorder_new (path, &error);
      g_autofree char *now = NULL, *files = NULL;
      TksRecorderStats st;

      g_assert_no_error (error);
      tks_recorder_feed (recorder, (const guint8 *) refusals[i], strlen (refusals[i]));
      g_assert_true (tks_recorder_close (recorder, &error));
      g_assert_no_error (error);
      tks_recorder_get_stats (recorder, &st);
      g_assert_false (st.placed);
      g_file_get_contents (path, &now, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (now, ==, old);
      files = dir_listing (dir);
      g_assert_cmpstr (files, ==, "kept.txt");
    }

  /* a stream: the file is the recording's from its header on */
  {
    g_autoptr(TksRecorder) recorder = tks_recorder_new (path, &error);
    g_autofree char *now = NULL, *files = NULL;
    const char *header = strstr (stream, "threads_record\r\n");
    const char *tail = strstr (header, "Compact:");

    g_assert_no_error (error);
    tks_recorder_feed (recorder, (const guint8 *) header, tail - header);
    g_file_get_contents (path, &now, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (g_str_has_prefix (now, "threads_record\r\n"));
    tks_recorder_feed (recorder, (const guint8 *) tail, strlen (tail));
    g_assert_true (tks_recorder_close (recorder, &error));
    g_assert_no_error (error);
    files = dir_listing (dir);
    g_assert_cmpstr (files, ==, "kept.txt");
  }
  g_unlink (path);
  g_rmdir (dir);
}

/* Reads what @proc prints on standard error until @text appears (generous deadline). */
static gboolean
wait_for_stderr (GSubprocess *proc,
                 GString     *seen,
                 const char  *text)
{
  GPollableInputStream *err = G_POLLABLE_INPUT_STREAM (g_subprocess_get_stderr_pipe (proc));
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (strstr (seen->str, text) == NULL && g_get_monotonic_time () < deadline)
    {
      char buf[256];
      gssize n = g_pollable_input_stream_read_nonblocking (err, buf, sizeof buf, NULL, NULL);

      if (n > 0)
        g_string_append_len (seen, buf, n);
      else if (n == 0)
        break;
      else
        g_usleep (20000);
    }
  return strstr (seen->str, text) != NULL;
}

/* A board that never answers the stop byte (it goes on sending): the first Ctrl+C asks it to
 * stop and says that a second ends at once; the second ends tickscope-cli record at once,
 * exit status 1, the file holding every record that arrived, as many as the summary says. */
static void
test_cli_second_sigint (void)
{
  g_autofree char *path = temp_path ("tks-test-record-sigint2.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GString) err = g_string_new (NULL);
  g_autoptr(TksCapture) capture = NULL;
  g_autofree char *out = NULL, *rest = NULL, *expected = NULL;
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  TksTestBoard *board;
  gint64 t0;
  double waited;

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  g_unlink (path);
  board = tks_test_board_start ("simboard-record.raw.txt", master, TKS_TEST_BOARD_DEAF_AFTER,
                                3000, 0);
  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                           TICKSCOPE_CLI, "record", ptsname (master), "-o", path, NULL);
  g_assert_no_error (error);
  /* recording: the file has the compact lines (and heartbeats after them) */
  t0 = g_get_monotonic_time ();
  for (;;)
    {
      g_autofree char *text = NULL;

      if (g_file_get_contents (path, &text, NULL, NULL) && strstr (text, "Heartbeat") != NULL)
        break;
      g_assert_cmpint (g_get_monotonic_time () - t0, <, 60 * G_USEC_PER_SEC);
      g_usleep (50000);
    }
  g_subprocess_send_signal (proc, SIGINT);
  g_assert_true (wait_for_stderr (proc, err, "Ctrl+C again ends at once"));
  t0 = g_get_monotonic_time ();
  g_subprocess_send_signal (proc, SIGINT);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &rest, &error);
  g_assert_no_error (error);
  waited = (double) (g_get_monotonic_time () - t0) / G_USEC_PER_SEC;
  g_string_append (err, rest);
  g_test_message ("%.1f s after the second Ctrl+C:\n%s%s", waited, out, err->str);
  /* at once: not after the stop's own limits (5 s of silence, 60 s in all) */
  g_assert_cmpfloat (waited, <, 30);
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 1);
  g_assert_nonnull (strstr (err->str, "Ctrl+C again: ended without waiting"));
  capture = tks_capture_new_from_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tks_capture_get_n_records (capture), >, 100);
  expected = g_strdup_printf ("%u events in ", tks_capture_get_n_records (capture));
  g_assert_true (g_str_has_prefix (out, expected));
  tks_test_board_stop (board);
  g_unlink (path);
}

/* The board restarts mid-stream (its banner and prompt come instead of the rest): the
 * recording ends with a message saying so, and the file reads back up to there. The board is
 * a real board's bytes (a simulated board's recording) played back on a pty. */
static void
test_board_reset (void)
{
  Seen seen = { 0 };
  g_autofree char *path = temp_path ("tks-test-record-reset.txt");
  g_autoptr(TksRecorder) recorder = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  TksTestBoard *board;
  TksTransport *transport;
  TksRecorderStats st;
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  transport = tks_transport_open (ptsname (master), NULL, NULL, &error);
  g_assert_no_error (error);
  board = tks_test_board_start ("simboard-record.raw.txt", master, TKS_TEST_BOARD_RESET_AFTER,
                                2500, 0);
  recorder = tks_recorder_new (path, &error);
  g_assert_no_error (error);
  seen.notices = g_ptr_array_new_with_free_func (g_free);
  tks_recorder_set_notice_func (recorder, on_notice, &seen);
  tks_recorder_start (recorder, transport, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (record_for (recorder, 5.0, &error));
  g_assert_error (error, TKS_ERROR, TKS_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "reset"));
  g_clear_error (&error);
  tks_recorder_close (recorder, &error);
  g_assert_no_error (error);
  tks_recorder_get_stats (recorder, &st);
  g_assert_false (st.ended);
  g_assert_cmpuint (st.entries, >, 100);
  /* the banner's line is named as not part of the stream */
  g_assert_cmpuint (seen.notices->len, >=, 1);
  capture = tks_capture_new_from_file (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (tks_capture_get_damage (capture));
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, st.entries);
  g_ptr_array_unref (seen.notices);
  g_clear_pointer (&recorder, tks_recorder_free);
  tks_test_board_stop (board);
  g_unlink (path);
}

/* A stream whose counter is coded in a way the host does not know: refused with a message
 * naming it, nothing decoded; the same stream with a known coder decodes. */
static void
test_unknown_counter_coder (void)
{
  gsize len;
  g_autofree char *text = tks_test_data_contents ("simboard-record-events.raw.txt", &len);
  g_autoptr(GError) error = NULL;

  for (int coder = 2; coder <= 5; coder += 3)
    {
      g_autofree char *path = temp_path ("tks-test-record-coder.txt");
      g_autoptr(GString) stream = g_string_new_len (text, len);
      g_autoptr(TksRecorder) recorder = tks_recorder_new (path, &error);
      char *line = strstr (stream->str, "Counter coder: 2\r\n");
      TksRecorderStats st;

      g_assert_no_error (error);
      g_assert_nonnull (line);
      line[strlen ("Counter coder: ")] = (char) ('0' + coder);
      tks_recorder_feed (recorder, (const guint8 *) stream->str, stream->len);
      tks_recorder_get_stats (recorder, &st);
      if (coder == 2)
        {
          g_assert_true (tks_recorder_close (recorder, &error));
          g_assert_no_error (error);
          g_assert_cmpuint (st.entries, >, 1000);
        }
      else
        {
          g_assert_false (tks_recorder_close (recorder, &error));
          g_assert_error (error, TKS_ERROR, TKS_ERROR_PARSE);
          g_assert_nonnull (strstr (error->message, "Counter coder: 5"));
          g_assert_cmpuint (st.entries, ==, 0);
          g_clear_error (&error);
        }
      g_unlink (path);
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/record/tcp", "--tcp", test_record);
  g_test_add_data_func ("/record/pty", "--pty", test_record);
  g_test_add_func ("/record/slow-link-drops", test_slow_link_drops);
  g_test_add_func ("/record/lost-after-last-line", test_lost_after_last_line);
  g_test_add_func ("/record/events-paced", test_events_paced);
  g_test_add_data_func ("/record/tcp/killed", "--tcp", test_killed);
  g_test_add_data_func ("/record/pty/killed", "--pty", test_killed);
  g_test_add_func ("/record/board-stops-without-keepalive", test_board_stops_without_keepalive);
  g_test_add_func ("/record/damaged-line", test_damaged_line);
  g_test_add_func ("/record/board-reset", test_board_reset);
  g_test_add_func ("/record/unknown-counter-coder", test_unknown_counter_coder);
  g_test_add_func ("/record/cli", test_cli);
  g_test_add_func ("/record/cli-sigint", test_cli_sigint);
  g_test_add_func ("/record/cli-second-sigint", test_cli_second_sigint);
  g_test_add_func ("/record/existing-file-kept", test_existing_file_kept);
  g_test_add_func ("/record/cli-numbers-given-back", test_cli_numbers_given_back);
  g_test_add_func ("/record/cli-progress-on-terminal", test_cli_progress_on_terminal);
  return g_test_run ();
}
