/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A recording under way (tks-recording.h), against a board on a real pty that plays the
 * simulated board's recorded stream back: the stream into the file, the seconds and their
 * live stretches, an earlier stretch read back, the end the board gives, a stop asked for, and
 * a board that is not there. */
#define _GNU_SOURCE
#include "config.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
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

/* A board over TCP whose recording is its header, then one line that never ends: it grows
 * to what the test asks, then on by a few bytes now and then (a board that falls silent ends
 * the recording). */
typedef struct
{
  int      listener;
  guint16  port;
  char    *header;      /* the stream's header, up to its "Compact:" line */
  guint64  wanted;      /* bytes of the line the board may have sent (atomic) */
  guint64  sent;        /* and has (atomic) */
  gint     stop;        /* atomic */
  GThread *thread;
} LongLineBoard;

/* Sends what the line may have grown to meanwhile; FALSE once the host is gone or stops. */
static gboolean
long_line_grow (LongLineBoard *b,
                int            fd)
{
  static const char piece[4096] = { [0 ... 4095] = 'Z' };
  guint64 sent = __atomic_load_n (&b->sent, __ATOMIC_SEQ_CST);
  guint64 wanted = __atomic_load_n (&b->wanted, __ATOMIC_SEQ_CST);
  gssize n;

  if (sent >= wanted)
    {
      struct pollfd pfd = { fd, POLLIN, 0 };
      char c;

      /* (the recorder's keep-alives, or its stop byte, or its going) */
      if (poll (&pfd, 1, 100) > 0 && (recv (fd, &c, 1, 0) <= 0 || c == 3))
        return FALSE;
      wanted = sent + 16;
    }
  n = send (fd, piece, (gsize) MIN (sizeof piece, wanted - sent), MSG_NOSIGNAL);
  if (n <= 0)
    return FALSE;
  __atomic_add_fetch (&b->sent, (guint64) n, __ATOMIC_SEQ_CST);
  return TRUE;
}

static void
send_text (int         fd,
           const char *text)
{
  g_assert_cmpint (send (fd, text, strlen (text), MSG_NOSIGNAL), ==, (gssize) strlen (text));
}

static gpointer
long_line_board_thread (gpointer data)
{
  LongLineBoard *b = data;
  g_autoptr(GString) line = g_string_new (NULL);
  int fd = accept (b->listener, NULL, NULL);
  gboolean streaming = FALSE;

  g_assert_cmpint (fd, >=, 0);
  while (!g_atomic_int_get (&b->stop))
    {
      struct pollfd pfd = { fd, POLLIN, 0 };
      char c;

      if (streaming)
        {
          if (!long_line_grow (b, fd))
            break;
          continue;
        }
      if (poll (&pfd, 1, 50) <= 0)
        continue;
      if (recv (fd, &c, 1, 0) <= 0)
        break;
      if (c != '\r')
        {
          if (c >= 0x20)
            g_string_append_c (line, c);
          continue;
        }
      if (g_str_equal (line->str, "help"))
        send_text (fd, "help\r\nCommands: help threads_record\r\nch> ");
      else if (g_str_equal (line->str, "threads_record"))
        {
          send_text (fd, "threads_record\r\n");
          send_text (fd, b->header);
          streaming = TRUE;
        }
      else
        send_text (fd, "\r\nch> ");
      g_string_truncate (line, 0);
    }
  close (fd);
  return NULL;
}

static void
long_line_board_start (LongLineBoard *b)
{
  struct sockaddr_in addr = { .sin_family = AF_INET };
  socklen_t len = sizeof addr;
  g_autofree char *text = NULL;
  const char *start, *end;

  memset (b, 0, sizeof *b);
  text = tks_test_data_contents (RECORDING, NULL);
  start = strstr (text, "threads_record\r\n");
  g_assert_nonnull (start);
  start += strlen ("threads_record\r\n");
  end = strstr (start, "Compact:\r\n");
  g_assert_nonnull (end);
  b->header = g_strndup (start, (gsize) (end + strlen ("Compact:\r\n") - start));
  b->listener = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  g_assert_cmpint (b->listener, >=, 0);
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (bind (b->listener, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (b->listener, 1), ==, 0);
  g_assert_cmpint (getsockname (b->listener, (struct sockaddr *) &addr, &len), ==, 0);
  b->port = ntohs (addr.sin_port);
  b->thread = g_thread_new ("long-line-board", long_line_board_thread, b);
}

static void
long_line_board_stop (LongLineBoard *b)
{
  g_atomic_int_set (&b->stop, 1);
  g_thread_join (b->thread);
  close (b->listener);
  g_free (b->header);
}

typedef struct
{
  char *failure;   /* the last live-failed's message */
  guint failures;
} Failed;

static void
live_failed_cb (TksRecording *recording,
                const GError *error,
                Failed       *failed)
{
  g_assert_nonnull (error);
  g_free (failed->failure);
  failed->failure = g_strdup (error->message);
  failed->failures++;
}

/* Why the file at @path is no capture, as the reader reading it says: the whole file, or, when
 * @message tells of the line's length, the file up to the end of a line that long (the file as
 * it was when the live view read it: the line grows). */
static char *
file_failure (const char *path,
              const char *message)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = NULL;
  const char *told = strstr (message, "a line of ");
  gsize len;

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  if (told != NULL)
    {
      guint64 line = g_ascii_strtoull (told + strlen ("a line of "), NULL, 10);
      const char *start = strstr (text, "Compact:\r\n");

      g_assert_nonnull (start);
      start += strlen ("Compact:\r\n");
      g_assert_cmpuint ((start - text) + line, <=, len);
      len = (start - text) + line;
    }
  capture = tks_capture_new_from_data (text, len, &error);
  return error != NULL ? g_strdup (error->message) : NULL;
}

/* Whether @message tells of a line of @bytes or more, or of no length. */
static gboolean
told_of (const char *message,
         guint64     bytes)
{
  const char *told = strstr (message, "a line of ");

  return told == NULL || g_ascii_strtoull (told + strlen ("a line of "), NULL, 10) >= bytes;
}

/* The line has grown to @bytes: within a generous deadline, a second's live view says of the
 * file what the reader reading the file says. */
static void
wait_for_file_failure (LongLineBoard *b,
                       Failed        *failed,
                       Seen          *seen,
                       const char    *path,
                       guint64        bytes)
{
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  g_autofree char *expected = NULL;

  __atomic_store_n (&b->wanted, bytes, __ATOMIC_SEQ_CST);
  for (;;)
    {
      g_main_context_iteration (NULL, TRUE);
      /* (the recording goes on: the board never ends its stream) */
      g_assert_no_error (seen->error);
      g_assert_cmpuint (seen->stopped, ==, 0);
      if (failed->failure == NULL)
        {
          g_assert_cmpint (g_get_monotonic_time (), <, deadline);
          continue;
        }
      g_free (expected);
      expected = file_failure (path, failed->failure);
      g_assert_cmpstr (failed->failure, ==, expected);
      if (__atomic_load_n (&b->sent, __ATOMIC_SEQ_CST) >= bytes &&
          told_of (failed->failure, bytes))
        break;
      if (g_get_monotonic_time () >= deadline)
        g_assert_cmpstr (failed->failure, ==, expected);
    }
  g_test_message ("live view: %s", failed->failure);
}

/* The board's recording holds its header and one line that grows, longer than any line of a
 * capture: the live view says so each second, as the reader reading the file does, not
 * nothing; then past 8 MiB without a line of the stream, the recording ends, saying why. */
static void
test_long_line (void)
{
  g_autofree char *path = temp_path ("tks-test-model-recording-long.txt");
  g_autofree char *address = NULL;
  g_autoptr(TksRecording) recording = NULL;
  LongLineBoard board;
  Seen seen = { 0 };
  Failed failed = { 0 };

  long_line_board_start (&board);
  address = g_strdup_printf ("tcp:127.0.0.1:%u", board.port);
  recording = recording_for (address, path, &seen);
  g_signal_connect (recording, "live-failed", G_CALLBACK (live_failed_cb), &failed);
  tks_recording_start (recording);
  /* longer than any line of a capture: an unreadable line, the only one */
  wait_for_file_failure (&board, &failed, &seen, path, 100000);
  g_assert_nonnull (strstr (failed.failure, "longer than any line of a capture"));
  /* noise without end, longer than the reader reads without a line of a capture: the
   * recording ends once 8 MiB came without a line of the stream, the file bounded */
  __atomic_store_n (&board.wanted, (guint64) 17 << 20, __ATOMIC_SEQ_CST);
  g_assert_true (tks_wait_until (tks_wait_nonzero, &seen.stopped));
  g_assert_nonnull (seen.error);
  g_test_message ("%s", seen.error->message);
  g_assert_nonnull (strstr (seen.error->message, "without a line of the stream"));
  g_assert_cmpuint (seen.stretches, ==, 0);
  {
    GStatBuf st;

    g_assert_cmpint (g_stat (path, &st), ==, 0);
    g_assert_cmpint (st.st_size, <=, 9 << 20);
  }
  tks_recording_stop (recording);
  g_clear_error (&seen.error);
  long_line_board_stop (&board);
  g_free (failed.failure);
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
  g_test_add_func ("/model/recording/long-line", test_long_line);
  return g_test_run ();
}
