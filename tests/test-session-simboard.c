/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "tks-error.h"
#include "tks-session.h"
#include "tks-test-wait.h"
#include "tks-test-port.h"

/*
 * Sessions against the simulated board program (tickscope-simboard, named by
 * $TKS_SIMBOARD), over a real pty and over TCP: connect, Run, Trigger, Get new data.
 */

typedef struct
{
  GSubprocess *proc;
  char        *address;
} Board;

/* Starts the board; @how is "--pty" or "--tcp", @extra more of its options (or NULL). Reads
 * the address it serves on. */
static void
board_start_with (Board              *board,
                  const char         *how,
                  const char * const *extra)
{
  const char *exe = g_getenv ("TKS_SIMBOARD");
  g_autoptr(GError) error = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *port = NULL;
  g_autofree char *line = NULL;

  g_assert_nonnull (exe);
  g_ptr_array_add (argv, (gpointer) exe);
  g_ptr_array_add (argv, (gpointer) how);
  if (g_str_equal (how, "--tcp"))
    {
      port = g_strdup_printf ("%u", free_port ());
      g_ptr_array_add (argv, port);
    }
  g_ptr_array_add (argv, (gpointer) "--speed");
  g_ptr_array_add (argv, (gpointer) "4");
  /* Dump version 1: the switches only. */
  g_ptr_array_add (argv, (gpointer) "--no-events");
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) extra[i]);
  g_ptr_array_add (argv, NULL);
  board->proc = g_subprocess_newv ((const char * const *) argv->pdata,
                                   G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);

  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (board->proc));
  line = g_data_input_stream_read_line (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  g_test_message ("board: %s", line);
  if (port != NULL)
    {
      g_assert_nonnull (strstr (line, port));
      board->address = g_strdup_printf ("tcp:127.0.0.1:%s", port);
    }
  else
    {
      g_assert_true (g_str_has_prefix (line, "/dev/"));
      board->address = g_strdup (g_strchomp (line));
    }
}

static void
board_start (Board      *board,
             const char *how)
{
  board_start_with (board, how, NULL);
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

static gboolean
quit_loop (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

static void
check_capture (TksCapture *capture)
{
  guint n_threads = tks_capture_get_n_threads (capture);
  guint with_runs = 0;

  g_assert_cmpuint (n_threads, >=, 3);
  g_assert_cmpuint (tks_capture_get_n_records (capture), >, 100);
  g_assert_cmpfloat (tks_capture_get_end (capture), >, tks_capture_get_start (capture));
  for (guint i = 0; i < n_threads; i++)
    {
      const TksThread *thread = tks_capture_get_thread (capture, i);

      g_assert_nonnull (thread->name);
      with_runs += thread->n_runs > 0 || thread->n_marks > 0;
    }
  g_assert_cmpuint (with_runs, >=, 2);
}

static void
test_board (gconstpointer data)
{
  const char *how = data;
  gboolean snapshot = strstr (how, "legacy") == NULL;
  Board board = { 0 };
  TksWait wait = { 0 };
  g_autoptr(TksSession) session = tks_session_new ();
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) history = NULL;
  g_autofree char *trigger = NULL;
  double trigger_pos;

  board_start (&board, g_str_has_prefix (how, "tcp") ? "--tcp" : "--pty");
  tks_session_set_timeout (session, 2000);
  tks_session_set_prefer_snapshot (session, snapshot);

  tks_session_connect_async (session, board.address, NULL, tks_wait_done, &wait);
  g_assert_true (tks_session_connect_finish (session, tks_wait_for (&wait), &error));
  g_assert_no_error (error);
  g_test_message ("%s", tks_session_get_description (session));
  g_assert_true (tks_session_has_snapshot_command (session));

  tks_session_run_async (session, NULL, tks_wait_done, &wait);
  g_assert_true (tks_session_run_finish (session, tks_wait_for (&wait), &error));
  g_assert_no_error (error);

  /* let the board log a while, then freeze the log */
  {
    g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);

    g_timeout_add (500, quit_loop, loop);
    g_main_loop_run (loop);
  }
  tks_session_trigger_async (session, NULL, tks_wait_done, &wait);
  trigger = tks_session_trigger_finish (session, tks_wait_for (&wait), &error);
  g_assert_no_error (error);
  g_test_message ("%s", trigger);
  g_assert_true (g_str_has_prefix (trigger, "Trigger set by"));

  tks_session_fetch_async (session, NULL, tks_wait_done, &wait);
  capture = tks_session_fetch_finish (session, tks_wait_for (&wait), &error);
  g_assert_no_error (error);
  check_capture (capture);
  g_assert_true (tks_capture_get_trigger (capture, &trigger_pos));
  g_assert_cmpfloat (trigger_pos, >=, tks_capture_get_start (capture));
  if (snapshot)
    {
      guint n_warnings = 1;

      /* taken at once on the board: list and log agree */
      tks_capture_get_warnings (capture, &n_warnings);
      g_assert_cmpuint (n_warnings, ==, 0);
    }

  history = tks_session_list_history ();
  g_assert_cmpuint (history->len, ==, 1);

  /* a plain command, too */
  {
    g_autofree char *reply = NULL;

    tks_session_command_async (session, "systime", NULL, tks_wait_done, &wait);
    reply = tks_session_command_finish (session, tks_wait_for (&wait), &error);
    g_assert_no_error (error);
    g_assert_true (g_ascii_isdigit (reply[0]));
  }

  tks_session_disconnect (session);
  board_stop (&board);
  tks_wait_clear (&wait);
}

/* The board is gone (killed, unplugged): a clear error, the session disconnected, no hang. */
static void
test_killed (gconstpointer data)
{
  const char *how = data;
  Board board = { 0 };
  TksWait wait = { 0 };
  g_autoptr(TksSession) session = tks_session_new ();
  g_autoptr(GError) error = NULL;
  gint64 start;

  board_start (&board, how);
  tks_session_set_timeout (session, 1000);
  tks_session_connect_async (session, board.address, NULL, tks_wait_done, &wait);
  g_assert_true (tks_session_connect_finish (session, tks_wait_for (&wait), &error));

  /* (A board dying in the middle of a reply is replayed byte-exact in test-session; a local
   * fetch is too quick to hit reliably from here.) */
  g_subprocess_force_exit (board.proc);
  g_subprocess_wait (board.proc, NULL, NULL);
  start = g_get_monotonic_time ();
  tks_session_fetch_async (session, NULL, tks_wait_done, &wait);
  g_assert_null (tks_session_fetch_finish (session, tks_wait_for (&wait), &error));
  g_test_message ("%s", error->message);
  /* the end of the stream is seen at once; a pty whose board is gone may also fall silent */
  g_assert_true (g_error_matches (error, TKS_ERROR, TKS_ERROR_DISCONNECTED)
                 || g_error_matches (error, TKS_ERROR, TKS_ERROR_TIMEOUT));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
  if (g_error_matches (error, TKS_ERROR, TKS_ERROR_DISCONNECTED))
    g_assert_cmpint (tks_session_get_state (session), ==, TKS_SESSION_DISCONNECTED);

  tks_session_disconnect (session);
  board_stop (&board);
  tks_wait_clear (&wait);
}

/* A board on a slow line: a 300-record log (8 KB) takes about 4 s at 19200 baud. */
static const char * const slow_board[] = { "--baud", "19200", "--log-size", "300", "--uptime",
                                           "5000", NULL };

static void
connect_slow_board (Board      *board,
                    const char *how,
                    TksSession *session,
                    TksWait    *wait)
{
  g_autoptr(GError) error = NULL;

  board_start_with (board, how, slow_board);
  tks_session_set_baud (session, 19200);
  tks_session_set_timeout (session, 1000);
  tks_session_connect_async (session, board->address, NULL, tks_wait_done, wait);
  g_assert_true (tks_session_connect_finish (session, tks_wait_for (wait), &error));
  g_assert_no_error (error);
}

static gboolean
cancel_soon (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

/* Cancel during a fetch: it ends at once; the board still sends the rest of its reply, and
 * the next fetch waits for it to end before asking again, so it gets a whole capture. */
static void
test_cancel_then_fetch (gconstpointer data)
{
  const char *how = data;
  Board board = { 0 };
  TksWait wait = { 0 };
  g_autoptr(TksSession) session = tks_session_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start;

  connect_slow_board (&board, how, session, &wait);

  start = g_get_monotonic_time ();
  g_timeout_add (700, cancel_soon, cancellable);
  tks_session_fetch_async (session, cancellable, tks_wait_done, &wait);
  g_assert_null (tks_session_fetch_finish (session, tks_wait_for (&wait), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 2 * G_USEC_PER_SEC);
  g_assert_cmpint (tks_session_get_state (session), ==, TKS_SESSION_IDLE);
  g_clear_error (&error);

  tks_session_fetch_async (session, NULL, tks_wait_done, &wait);
  capture = tks_session_fetch_finish (session, tks_wait_for (&wait), &error);
  g_assert_no_error (error);
  g_assert_null (tks_capture_get_damage (capture));
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, 300);
  check_capture (capture);

  tks_session_disconnect (session);
  board_stop (&board);
  tks_wait_clear (&wait);
}

/* A line slower than the baud rate the session was told (a TCP relay of a 4800-baud serial
 * line, the session left at 115200): the first fetch takes longer than the baud rate said, but
 * its bytes keep coming at a serial line's pace, so it waits for them and gets the whole log. */
static void
test_slower_than_said (gconstpointer data)
{
  static const char * const slow[] = { "--baud", "4800", "--uptime", "5000", NULL };
  const char *how = data;
  Board board = { 0 };
  TksWait wait = { 0 };
  g_autoptr(TksSession) session = tks_session_new ();
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start;

  board_start_with (&board, how, slow);
  tks_session_set_timeout (session, 1000);
  tks_session_connect_async (session, board.address, NULL, tks_wait_done, &wait);
  g_assert_true (tks_session_connect_finish (session, tks_wait_for (&wait), &error));
  g_assert_no_error (error);

  start = g_get_monotonic_time ();
  tks_session_fetch_async (session, NULL, tks_wait_done, &wait);
  capture = tks_session_fetch_finish (session, tks_wait_for (&wait), &error);
  g_test_message ("%s after %.1f s", error != NULL ? error->message : "a capture",
                  (g_get_monotonic_time () - start) / 1e6);
  g_assert_no_error (error);
  g_assert_null (tks_capture_get_damage (capture));
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, 3000);
  check_capture (capture);

  tks_session_disconnect (session);
  board_stop (&board);
  tks_wait_clear (&wait);
}

/* Kills the board once the session has said that the reply's first bytes arrived: the rest
 * of it comes at the board's pace, so the board dies in the middle of it however long the
 * reply is and however late the machine runs this. */
static void
kill_board_at_first_bytes (TksSession *session,
                           guint64     bytes,
                           guint       records,
                           double      done,
                           double      rate,
                           gpointer    data)
{
  Board *board = data;

  if (bytes == 0 || board->proc == NULL)
    return;
  g_subprocess_force_exit (board->proc);
  g_signal_handlers_disconnect_by_func (session, kill_board_at_first_bytes, board);
}

/* The board dies in the middle of a reply: a clear error at once, nothing kept as a capture. */
static void
test_killed_mid_fetch (gconstpointer data)
{
  const char *how = data;
  Board board = { 0 };
  TksWait wait = { 0 };
  g_autoptr(TksSession) session = tks_session_new ();
  g_autoptr(GError) error = NULL;
  gint64 start;

  connect_slow_board (&board, how, session, &wait);

  start = g_get_monotonic_time ();
  g_signal_connect (session, "progress", G_CALLBACK (kill_board_at_first_bytes), &board);
  tks_session_fetch_async (session, NULL, tks_wait_done, &wait);
  g_assert_null (tks_session_fetch_finish (session, tks_wait_for (&wait), &error));
  g_test_message ("%s", error->message);
  g_assert_true (g_error_matches (error, TKS_ERROR, TKS_ERROR_DISCONNECTED)
                 || g_error_matches (error, TKS_ERROR, TKS_ERROR_TIMEOUT));
  /* what had arrived is said */
  g_assert_nonnull (strstr (error->message, "bytes"));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 3 * G_USEC_PER_SEC);

  tks_session_disconnect (session);
  board_stop (&board);
  tks_wait_clear (&wait);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  if (g_getenv ("TKS_SIMBOARD") == NULL)
    {
      g_test_skip ("TKS_SIMBOARD names no simulated board program");
      return g_test_run ();
    }

  g_test_add_data_func ("/simboard/tcp/snapshot", "tcp", test_board);
  g_test_add_data_func ("/simboard/tcp/legacy", "tcp-legacy", test_board);
  g_test_add_data_func ("/simboard/pty/snapshot", "pty", test_board);
  g_test_add_data_func ("/simboard/pty/legacy", "pty-legacy", test_board);
  g_test_add_data_func ("/simboard/tcp/killed", "--tcp", test_killed);
  g_test_add_data_func ("/simboard/pty/killed", "--pty", test_killed);
  g_test_add_data_func ("/simboard/tcp/cancel-then-fetch", "--tcp", test_cancel_then_fetch);
  g_test_add_data_func ("/simboard/pty/cancel-then-fetch", "--pty", test_cancel_then_fetch);
  g_test_add_data_func ("/simboard/tcp/killed-mid-fetch", "--tcp", test_killed_mid_fetch);
  g_test_add_data_func ("/simboard/tcp/slower-than-said", "--tcp", test_slower_than_said);
  g_test_add_data_func ("/simboard/pty/killed-mid-fetch", "--pty", test_killed_mid_fetch);

  return g_test_run ();
}
