/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tks-error.h"
#include "tks-i18n.h"
#include "tks-session.h"
#include "tks-test-board.h"
#include "tks-test-wait.h"

/* A session against real board bytes served over TCP (and over a pty), through the main loop
 * as an application uses it. */

typedef struct
{
  GSocketListener  *listener;
  guint16           port;
  char             *fixture;
  TksTestBoardMode  mode;
  gsize             fault_after;
  GThread          *accept_thread;
  TksTestBoard     *board;
} Server;

static gpointer
accept_main (gpointer data)
{
  Server *server = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSocketConnection) conn = g_socket_listener_accept (server->listener, NULL, NULL, &error);

  if (conn == NULL)
    return NULL;
  server->board = tks_test_board_start (server->fixture,
                                        dup (g_socket_get_fd (g_socket_connection_get_socket (conn))),
                                        server->mode, server->fault_after, 1460);
  return NULL;
}

static char *
server_start (Server           *server,
              const char       *fixture,
              TksTestBoardMode  mode,
              gsize             fault_after)
{
  g_autoptr(GError) error = NULL;

  server->listener = g_socket_listener_new ();
  server->port = g_socket_listener_add_any_inet_port (server->listener, NULL, &error);
  g_assert_no_error (error);
  server->fixture = g_strdup (fixture);
  server->mode = mode;
  server->fault_after = fault_after;
  server->accept_thread = g_thread_new ("accept", accept_main, server);
  return g_strdup_printf ("tcp:127.0.0.1:%u", server->port);
}

static void
server_stop (Server *server)
{
  g_socket_listener_close (server->listener);
  g_thread_join (server->accept_thread);
  g_clear_pointer (&server->board, tks_test_board_stop);
  g_clear_object (&server->listener);
  g_free (server->fixture);
}

typedef struct
{
  TksWait       call;
  guint         progress_calls;
  guint64       last_bytes;
  guint         last_records;
  double        last_fraction;
  GArray       *states;
} Wait;

static void
on_progress (TksSession *session,
             guint64     bytes,
             guint       records,
             double      fraction,
             double      seconds_left,
             gpointer    user_data)
{
  Wait *wait = user_data;

  /* in the main thread, monotonic */
  g_assert_true (g_main_context_is_owner (g_main_context_default ()));
  g_assert_cmpuint (bytes, >=, wait->last_bytes);
  g_assert_cmpfloat (fraction, <=, 1.0);
  wait->progress_calls++;
  wait->last_bytes = bytes;
  wait->last_records = records;
  wait->last_fraction = fraction;
}

static void
on_state (TksSession *session,
          GParamSpec *pspec,
          gpointer    user_data)
{
  Wait *wait = user_data;
  int state = tks_session_get_state (session);

  g_array_append_val (wait->states, state);
}

static TksSession *
session_new (Wait *wait)
{
  TksSession *session = tks_session_new ();

  wait->states = g_array_new (FALSE, FALSE, sizeof (int));
  tks_session_set_timeout (session, 500);
  g_signal_connect (session, "progress", G_CALLBACK (on_progress), wait);
  g_signal_connect (session, "notify::state", G_CALLBACK (on_state), wait);
  return session;
}

static void
wait_clear (Wait *wait)
{
  tks_wait_clear (&wait->call);
  g_clear_pointer (&wait->states, g_array_unref);
}

static void
test_fetch_tcp (void)
{
  Server server = { 0 };
  Wait wait = { 0 };
  g_autofree char *address = server_start (&server, "board-trigger-exits.raw.txt", TKS_TEST_BOARD_NORMAL, 0);
  g_autoptr(TksSession) session = session_new (&wait);
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(TksCapture) reopened = NULL;
  g_autoptr(GPtrArray) history = NULL;
  g_autofree char *trigger = NULL;
  const char * const *commands;

  tks_session_connect_async (session, address, NULL, tks_wait_done, &wait.call);
  g_assert_cmpint (tks_session_get_state (session), ==, TKS_SESSION_CONNECTING);
  g_assert_true (tks_session_connect_finish (session, tks_wait_for (&wait.call), &error));
  g_assert_no_error (error);
  g_assert_cmpint (tks_session_get_state (session), ==, TKS_SESSION_IDLE);
  /* the "state" property is a named enum, as bindings and the inspector show it */
  {
    GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (session), "state");
    GEnumClass *states = g_type_class_ref (TKS_TYPE_SESSION_STATE);
    TksSessionState state = TKS_SESSION_DISCONNECTED;

    g_assert_true (G_IS_PARAM_SPEC_ENUM (pspec));
    g_assert_true (pspec->value_type == TKS_TYPE_SESSION_STATE);
    g_object_get (session, "state", &state, NULL);
    g_assert_cmpint (state, ==, TKS_SESSION_IDLE);
    g_assert_cmpstr (g_enum_get_value (states, state)->value_nick, ==, "idle");
    g_type_class_unref (states);
  }
  g_assert_cmpstr (tks_session_get_address (session), ==, address);
  g_assert_nonnull (strstr (tks_session_get_description (session), "ChibiOS shell on TCP"));
  /* this board's transcript has no `help`: it answered "help ?" */
  commands = tks_session_get_board_commands (session);
  g_assert_cmpuint (g_strv_length ((char **) commands), ==, 0);
  g_assert_false (tks_session_has_snapshot_command (session));

  tks_session_run_async (session, NULL, tks_wait_done, &wait.call);
  g_assert_cmpint (tks_session_get_state (session), ==, TKS_SESSION_BUSY);
  g_assert_true (tks_session_run_finish (session, tks_wait_for (&wait.call), &error));
  g_assert_no_error (error);

  tks_session_trigger_async (session, NULL, tks_wait_done, &wait.call);
  trigger = tks_session_trigger_finish (session, tks_wait_for (&wait.call), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (trigger, ==, "Trigger set by Shell command at   17154");

  tks_session_fetch_async (session, NULL, tks_wait_done, &wait.call);
  capture = tks_session_fetch_finish (session, tks_wait_for (&wait.call), &error);
  g_assert_no_error (error);
  g_assert_nonnull (capture);
  g_assert_cmpint (tks_session_get_state (session), ==, TKS_SESSION_IDLE);
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, 3000);
  g_assert_cmpuint (tks_capture_get_n_threads (capture), >, 10);
  g_assert_true (tks_capture_get_trigger (capture, NULL));
  g_assert_cmpstr (tks_capture_get_source (capture), ==, tks_session_get_description (session));

  /* progress: in the main context, the last one complete */
  g_assert_cmpuint (wait.progress_calls, >=, 1);
  g_assert_cmpfloat (wait.last_fraction, ==, 1.0);
  g_assert_cmpuint (wait.last_records, >=, 3000);

  /* kept in the history, and it opens again */
  g_assert_nonnull (tks_session_get_last_saved_path (session));
  history = tks_session_list_history ();
  g_assert_cmpuint (history->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (history, 0), ==, tks_session_get_last_saved_path (session));
  reopened = tks_capture_new_from_file (tks_session_get_last_saved_path (session), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tks_capture_get_n_records (reopened), ==, 3000);
  g_assert_cmpuint (tks_capture_get_n_threads (reopened), ==, tks_capture_get_n_threads (capture));

  tks_session_disconnect (session);
  g_assert_cmpint (tks_session_get_state (session), ==, TKS_SESSION_DISCONNECTED);

  /* not connected: a clear error, at once */
  tks_session_fetch_async (session, NULL, tks_wait_done, &wait.call);
  g_assert_null (tks_session_fetch_finish (session, tks_wait_for (&wait.call), &error));
  g_assert_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED);

  server_stop (&server);
  wait_clear (&wait);
}

static void
test_fetch_pty (void)
{
  Wait wait = { 0 };
  g_autoptr(TksSession) session = session_new (&wait);
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = NULL;
  TksTestBoard *board;
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  board = tks_test_board_start ("board-run-mode.raw.txt", master, TKS_TEST_BOARD_NORMAL, 0, 0);

  tks_session_connect_async (session, ptsname (master), NULL, tks_wait_done, &wait.call);
  g_assert_true (tks_session_connect_finish (session, tks_wait_for (&wait.call), &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (tks_session_get_description (session), "115200 baud"));

  tks_session_fetch_async (session, NULL, tks_wait_done, &wait.call);
  capture = tks_session_fetch_finish (session, tks_wait_for (&wait.call), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, 3000);
  g_assert_false (tks_capture_get_trigger (capture, NULL));

  tks_session_disconnect (session);
  tks_test_board_stop (board);
  wait_clear (&wait);
}

static void
test_refused (void)
{
  Wait wait = { 0 };
  g_autoptr(TksSession) session = session_new (&wait);
  g_autoptr(GError) error = NULL;
  g_autoptr(GSocketListener) listener = g_socket_listener_new ();
  g_autofree char *address = NULL;
  guint16 port = g_socket_listener_add_any_inet_port (listener, NULL, &error);

  g_assert_no_error (error);
  g_socket_listener_close (listener);
  address = g_strdup_printf ("tcp:127.0.0.1:%u", port);

  tks_session_connect_async (session, address, NULL, tks_wait_done, &wait.call);
  g_assert_false (tks_session_connect_finish (session, tks_wait_for (&wait.call), &error));
  g_assert_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED);
  g_assert_nonnull (strstr (error->message, "refused"));
  g_assert_cmpint (tks_session_get_state (session), ==, TKS_SESSION_DISCONNECTED);
  /* DISCONNECTED → CONNECTING → DISCONNECTED */
  g_assert_cmpuint (wait.states->len, ==, 2);
  wait_clear (&wait);
}

static void
test_fault (gconstpointer data)
{
  TksTestBoardMode mode = GPOINTER_TO_INT (data);
  Server server = { 0 };
  Wait wait = { 0 };
  g_autofree char *address = server_start (&server, "board-run-mode.raw.txt", mode, 20000);
  g_autoptr(TksSession) session = session_new (&wait);
  g_autoptr(GError) error = NULL;
  gint64 start;

  tks_session_connect_async (session, address, NULL, tks_wait_done, &wait.call);
  start = g_get_monotonic_time ();
  if (mode == TKS_TEST_BOARD_SILENT || mode == TKS_TEST_BOARD_GARBAGE)
    {
      int code = mode == TKS_TEST_BOARD_SILENT ? TKS_ERROR_TIMEOUT : TKS_ERROR_PARSE;

      g_assert_false (tks_session_connect_finish (session, tks_wait_for (&wait.call), &error));
      g_test_message ("%s", error->message);
      g_assert_error (error, TKS_ERROR, code);
      g_assert_cmpint (tks_session_get_state (session), ==, TKS_SESSION_DISCONNECTED);
    }
  else
    {
      g_autoptr(TksCapture) capture = NULL;
      g_autoptr(GPtrArray) history = NULL;

      g_assert_true (tks_session_connect_finish (session, tks_wait_for (&wait.call), &error));
      g_assert_no_error (error);
      start = g_get_monotonic_time ();
      tks_session_fetch_async (session, NULL, tks_wait_done, &wait.call);
      capture = tks_session_fetch_finish (session, tks_wait_for (&wait.call), &error);
      g_assert_null (capture);
      g_test_message ("%s", error->message);
      if (mode == TKS_TEST_BOARD_CLOSE_AFTER)
        {
          g_assert_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED);
          g_assert_cmpint (tks_session_get_state (session), ==, TKS_SESSION_DISCONNECTED);
        }
      else if (mode == TKS_TEST_BOARD_RESET_AFTER)
        {
          g_assert_error (error, TKS_ERROR, TKS_ERROR_RESTARTED);
          g_assert_nonnull (strstr (error->message, "restarted"));
          /* the link is fine: the board answers again */
          g_assert_cmpint (tks_session_get_state (session), ==, TKS_SESSION_IDLE);
        }
      else
        {
          g_assert_error (error, TKS_ERROR, TKS_ERROR_TIMEOUT);
          g_assert_cmpint (tks_session_get_state (session), ==, TKS_SESSION_IDLE);
        }
      /* a failed fetch leaves nothing half-written in the history */
      history = tks_session_list_history ();
      g_assert_cmpuint (history->len, ==, 0);
    }
  /* within the timeout (500 ms) and some slack, never hanging */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 3 * G_USEC_PER_SEC);

  tks_session_disconnect (session);
  server_stop (&server);
  wait_clear (&wait);
}

/* A board that restarts during a fetch, for a user who reads French: the message is in
 * French, and the session still tells a restart (the link is fine) from a lost link. */
static void
test_reset_french (void)
{
  if (g_test_subprocess ())
    {
      Server server = { 0 };
      Wait wait = { 0 };
      g_autofree char *address = NULL;
      g_autoptr(TksSession) session = NULL;
      g_autoptr(GError) error = NULL;

      /* LANGUAGE counts outside the plain C locale; the translations of the build tree */
      g_setenv ("LC_ALL", "C.UTF-8", TRUE);
      g_setenv ("LANGUAGE", "fr", TRUE);
      tks_i18n_init ();

      address = server_start (&server, "board-run-mode.raw.txt", TKS_TEST_BOARD_RESET_AFTER, 20000);
      session = session_new (&wait);
      tks_session_connect_async (session, address, NULL, tks_wait_done, &wait.call);
      g_assert_true (tks_session_connect_finish (session, tks_wait_for (&wait.call), &error));
      tks_session_fetch_async (session, NULL, tks_wait_done, &wait.call);
      g_assert_null (tks_session_fetch_finish (session, tks_wait_for (&wait.call), &error));
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, "La carte a redémarré pendant « threads_"));
      /* the link is fine: the board answers again */
      g_assert_cmpint (tks_session_get_state (session), ==, TKS_SESSION_IDLE);
      g_assert_error (error, TKS_ERROR, TKS_ERROR_RESTARTED);

      tks_session_disconnect (session);
      server_stop (&server);
      wait_clear (&wait);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* The board offers threads_dump and its reply arrives with one digit garbled: the fetch
 * fails with a clear message, and the received bytes are kept. */
static void
test_damaged_dump (void)
{
  Server server = { 0 };
  Wait wait = { 0 };
  g_autofree char *address = server_start (&server, "simboard-dump-damaged.raw.txt",
                                           TKS_TEST_BOARD_NORMAL, 0);
  g_autoptr(TksSession) session = session_new (&wait);
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GPtrArray) history = NULL;

  tks_session_connect_async (session, address, NULL, tks_wait_done, &wait.call);
  g_assert_true (tks_session_connect_finish (session, tks_wait_for (&wait.call), &error));
  g_assert_no_error (error);
  tks_session_fetch_async (session, NULL, tks_wait_done, &wait.call);
  capture = tks_session_fetch_finish (session, tks_wait_for (&wait.call), &error);
  g_assert_null (capture);
  g_test_message ("%s", error->message);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "arrived damaged"));
  g_assert_nonnull (strstr (error->message, "checksum"));
  g_assert_nonnull (strstr (error->message, "are kept in"));
  /* Nothing lost: the bytes as received are in the history, not a capture built from them. */
  history = tks_session_list_history ();
  g_assert_cmpuint (history->len, ==, 1);
  g_assert_true (g_str_has_suffix (g_ptr_array_index (history, 0), ".raw.txt"));

  tks_session_disconnect (session);
  server_stop (&server);
  wait_clear (&wait);
}

static void
test_cancel_fetch (void)
{
  Server server = { 0 };
  Wait wait = { 0 };
  g_autofree char *address = server_start (&server, "board-run-mode.raw.txt", TKS_TEST_BOARD_STALL_AFTER, 20000);
  g_autoptr(TksSession) session = session_new (&wait);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  gint64 start;

  tks_session_set_timeout (session, 10000);
  tks_session_connect_async (session, address, NULL, tks_wait_done, &wait.call);
  g_assert_true (tks_session_connect_finish (session, tks_wait_for (&wait.call), &error));
  tks_session_fetch_async (session, cancellable, tks_wait_done, &wait.call);
  g_timeout_add_once (200, (GSourceOnceFunc) g_cancellable_cancel, cancellable);
  start = g_get_monotonic_time ();
  g_assert_null (tks_session_fetch_finish (session, tks_wait_for (&wait.call), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 2 * G_USEC_PER_SEC);
  g_assert_cmpint (tks_session_get_state (session), ==, TKS_SESSION_IDLE);

  tks_session_disconnect (session);
  server_stop (&server);
  wait_clear (&wait);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/session/tcp/fetch", test_fetch_tcp);
  g_test_add_func ("/session/pty/fetch", test_fetch_pty);
  g_test_add_func ("/session/tcp/refused", test_refused);
  g_test_add_data_func ("/session/fault/silent", GINT_TO_POINTER (TKS_TEST_BOARD_SILENT), test_fault);
  g_test_add_data_func ("/session/fault/garbage", GINT_TO_POINTER (TKS_TEST_BOARD_GARBAGE), test_fault);
  g_test_add_data_func ("/session/fault/killed-mid-transfer", GINT_TO_POINTER (TKS_TEST_BOARD_CLOSE_AFTER), test_fault);
  g_test_add_data_func ("/session/fault/reset-mid-transfer", GINT_TO_POINTER (TKS_TEST_BOARD_RESET_AFTER), test_fault);
  g_test_add_func ("/session/fault/reset-mid-transfer/french", test_reset_french);
  g_test_add_data_func ("/session/fault/stall-mid-transfer", GINT_TO_POINTER (TKS_TEST_BOARD_STALL_AFTER), test_fault);
  g_test_add_func ("/session/cancel-fetch", test_cancel_fetch);
  g_test_add_func ("/session/fault/damaged-dump", test_damaged_dump);

  return g_test_run ();
}
