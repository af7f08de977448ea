/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A recording under way (tks-recording.h), against a board on a real pty that plays the
 * simulated board's recorded stream back: the stream into the file, the seconds and their
 * live stretches, an earlier stretch read back, the end the board gives, a stop asked for, and
 * a board that is not there. */
#define _GNU_SOURCE
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "tks-error.h"
#include "tks-recording.h"
#include "tks-test-board.h"
#include "tks-test-data.h"
#include "tks-test-wait.h"

#define RECORDING "simboard-record.raw.txt"

typedef struct
{
  guint      seconds;
  guint      stretches;
  guint      stopped;
  guint      lengths;
  double     length;
  guint64    stretch_records;
  GError    *error;
  TksCapture *read_back;
  double     read_back_wraps;
  double     read_back_before;
  gboolean   read_back_done;
} Seen;

static void
second_cb (TksRecording *recording,
           Seen         *seen)
{
  g_assert_false (tks_recording_get_stopped (recording));
  seen->seconds++;
}

static void
live_stretch_cb (TksRecording *recording,
                 TksCapture   *capture,
                 double        wraps,
                 Seen         *seen)
{
  g_assert_true (TKS_IS_CAPTURE (capture));
  g_assert_cmpfloat (wraps, ==, 0);
  seen->stretches++;
  seen->stretch_records = tks_capture_get_n_records (capture);
}

static void
length_cb (TksRecording *recording,
           GParamSpec   *pspec,
           Seen         *seen)
{
  /* notified on a real change only */
  g_assert_cmpfloat (tks_recording_get_length (recording), !=, seen->length);
  seen->length = tks_recording_get_length (recording);
  seen->lengths++;
}

static void
stopped_cb (TksRecording *recording,
            const GError *error,
            Seen         *seen)
{
  g_assert_true (tks_recording_get_stopped (recording));
  seen->stopped++;
  seen->error = error != NULL ? g_error_copy (error) : NULL;
}

static TksRecording *
recording_for (const char *address,
               const char *path,
               Seen       *seen)
{
  TksRecording *recording = tks_recording_new (address, NULL, path, FALSE);

  g_signal_connect (recording, "second", G_CALLBACK (second_cb), seen);
  g_signal_connect (recording, "live-stretch", G_CALLBACK (live_stretch_cb), seen);
  g_signal_connect (recording, "notify::length", G_CALLBACK (length_cb), seen);
  g_signal_connect (recording, "stopped", G_CALLBACK (stopped_cb), seen);
  return recording;
}

/* A pty whose far end plays the recorded board: its name. */
static char *
open_board (int               *master,
            TksTestBoard     **board,
            TksTestBoardMode   mode,
            gsize              fault_after)
{
  char *name;

  *master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  g_assert_cmpint (*master, >=, 0);
  g_assert_cmpint (grantpt (*master), ==, 0);
  g_assert_cmpint (unlockpt (*master), ==, 0);
  name = g_strdup (ptsname (*master));
  *board = tks_test_board_start (RECORDING, *master, mode, fault_after, 0);
  return name;
}

/* A file of this run's own (two runs at once, by two builds, must not share one). */
static char *
temp_path (const char *name)
{
  g_autofree char *own = g_strdup_printf ("%d-%s", (int) getpid (), name);

  return g_build_filename (g_get_tmp_dir (), own, NULL);
}

/* The board streams its log and ends it: the recording stops by itself, without an error,
 * its file the stream as the board sent it, every entry a record of the capture it opens as. */
static void
test_ended (void)
{
  g_autofree char *path = temp_path ("tks-test-model-recording.txt");
  g_autoptr(TksRecording) recording = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *address = NULL;
  TksTestBoard *board;
  TksRecorderStats st;
  Seen seen = { 0 };
  int master;

  address = open_board (&master, &board, TKS_TEST_BOARD_NORMAL, 0);
  recording = recording_for (address, path, &seen);
  g_assert_cmpstr (tks_recording_get_path (recording), ==, path);
  g_assert_cmpstr (tks_recording_get_address (recording), ==, address);
  tks_recording_start (recording);
  g_assert_true (tks_wait_until (tks_wait_nonzero, &seen.stopped));
  g_assert_no_error (seen.error);
  g_assert_cmpuint (seen.stopped, ==, 1);
  g_assert_false (tks_recording_get_stopping (recording));
  tks_recording_get_stats (recording, &st);
  g_assert_true (st.ended);
  g_assert_cmpuint (st.dropped, ==, 0);
  g_assert_cmpuint (st.entries, >, 100);
  capture = tks_capture_new_from_file (path, &error);
  g_assert_no_error (error);
  g_assert_null (tks_capture_get_damage (capture));
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, st.entries);
  /* nothing after the end: no more seconds */
  {
    guint seconds = seen.seconds;
    gint64 until = g_get_monotonic_time () + 1500 * 1000;

    while (g_get_monotonic_time () < until)
      g_main_context_iteration (NULL, FALSE);
    g_assert_cmpuint (seen.seconds, ==, seconds);
  }
  tks_test_board_stop (board);
  g_unlink (path);
}

static void
read_back_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  Seen *seen = user_data;
  g_autoptr(GError) error = NULL;

  seen->read_back = tks_recording_read_back_finish (TKS_RECORDING (source), result,
                                                    &seen->read_back_wraps,
                                                    &seen->read_back_before, &error);
  g_assert_no_error (error);
  seen->read_back_done = TRUE;
}

/* A board that stops sending in the middle of its stream: the seconds read the file's end
 * back as a capture, the length grows, an earlier stretch reads back; stopped, the recording
 * ends with the reason, the file keeps what arrived. */
static void
test_live (void)
{
  g_autofree char *path = temp_path ("tks-test-model-recording-live.txt");
  g_autoptr(TksRecording) recording = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *address = NULL;
  g_autofree char *text = NULL;
  gsize len;
  TksTestBoard *board;
  TksRecorderStats st;
  Seen seen = { 0 };
  int master;

  address = open_board (&master, &board, TKS_TEST_BOARD_STALL_AFTER, 2500);
  recording = recording_for (address, path, &seen);
  g_assert_false (tks_recording_can_read_back (recording));
  tks_recording_start (recording);
  g_assert_true (tks_wait_until (tks_wait_nonzero, &seen.stretches));
  g_assert_cmpuint (seen.seconds, >=, 1);
  g_assert_cmpuint (seen.stretch_records, >, 10);
  g_assert_cmpuint (seen.lengths, >=, 1);
  g_assert_cmpfloat (seen.length, >, 0);
  g_assert_cmpuint (tks_recording_get_dropped_last_second (recording), ==, 0);
  g_assert_true (tks_recording_can_read_back (recording));

  tks_recording_read_back_async (recording, 0, NULL, read_back_cb, &seen);
  g_assert_true (tks_wait_until (tks_wait_true, &seen.read_back_done));
  g_assert_nonnull (seen.read_back);
  g_assert_cmpuint (tks_capture_get_n_records (seen.read_back), >, 10);
  g_assert_cmpfloat (seen.read_back_wraps, ==, 0);
  g_assert_cmpfloat (seen.read_back_before, >=, 0);
  g_clear_object (&seen.read_back);

  tks_recording_stop (recording);
  g_assert_true (tks_recording_get_stopping (recording));
  g_assert_true (tks_wait_until (tks_wait_nonzero, &seen.stopped));
  g_assert_cmpuint (seen.stopped, ==, 1);
  /* the board never ended its stream: the recording says why it ended */
  g_assert_nonnull (seen.error);
  g_test_message ("%s", seen.error->message);
  tks_recording_get_stats (recording, &st);
  g_assert_false (st.ended);
  g_file_get_contents (path, &text, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (len, >, 0);
  capture = tks_capture_new_from_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, st.entries);
  g_clear_error (&seen.error);
  tks_test_board_stop (board);
  g_unlink (path);
}

/* No board at the address: the recording stops with the reason, and leaves no file. */
static void
test_no_board (void)
{
  g_autofree char *path = temp_path ("tks-test-model-recording-none.txt");
  g_autoptr(TksRecording) recording = NULL;
  Seen seen = { 0 };

  recording = recording_for ("/nonexistent/tks-no-such-port", path, &seen);
  tks_recording_start (recording);
  g_assert_true (tks_wait_until (tks_wait_nonzero, &seen.stopped));
  g_assert_nonnull (seen.error);
  g_test_message ("%s", seen.error->message);
  g_assert_cmpuint (seen.stretches, ==, 0);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_clear_error (&seen.error);
}

/* The live view's size: a minute of the recording, within bounds, unless fixed. */
static void
test_live_bytes (void)
{
  g_unsetenv ("TICKSCOPE_LIVE_BYTES");
  g_assert_cmpuint (tks_recording_live_bytes (0), ==, 256 * 1024);
  g_assert_cmpuint (tks_recording_live_bytes (10000), ==, 600000);
  g_assert_cmpuint (tks_recording_live_bytes (1e9), ==, 8 * 1024 * 1024);
  g_setenv ("TICKSCOPE_LIVE_BYTES", "12000", TRUE);
  g_assert_cmpuint (tks_recording_live_bytes (10000), ==, 12000);
  g_unsetenv ("TICKSCOPE_LIVE_BYTES");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  /* (first: it sets the environment, before any thread is started) */
  g_test_add_func ("/model/recording/live-bytes", test_live_bytes);
  g_test_add_func ("/model/recording/ended", test_ended);
  g_test_add_func ("/model/recording/live", test_live);
  g_test_add_func ("/model/recording/no-board", test_no_board);
  return g_test_run ();
}
