/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tks-error.h"
#include "tks-session.h"
#include "tks-test-board.h"
#include "tks-test-wait.h"
#include "tks-transport.h"

/* A board that goes away while nobody asks it anything: the session notices by itself,
 * over a real TCP connection and a real pty, and bytes a board prints unasked are neither
 * taken for a lost link nor lost to the next reply. */

#define FIXTURE "board-trigger-exits.raw.txt"
#define TRIGGER_REPLY "Trigger set by Shell command at   17154"

/* A TCP board: the test's end of the accepted connection (board_fd, served by a test board),
 * and a second descriptor on the same socket to print or hang up through. */
typedef struct
{
  GSocketListener *listener;
  GThread         *accept_thread;
  int              board_fd;
  int              extra_fd;
} Tcp;

static gpointer
accept_main (gpointer data)
{
  Tcp *tcp = data;
  g_autoptr(GSocketConnection) conn = g_socket_listener_accept (tcp->listener, NULL, NULL, NULL);
  int fd;

  if (conn == NULL)
    return NULL;
  fd = g_socket_get_fd (g_socket_connection_get_socket (conn));
  tcp->board_fd = dup (fd);
  tcp->extra_fd = dup (fd);
  return NULL;
}

static char *
tcp_listen (Tcp *tcp)
{
  g_autoptr(GError) error = NULL;
  guint16 port;

  tcp->board_fd = tcp->extra_fd = -1;
  tcp->listener = g_socket_listener_new ();
  port = g_socket_listener_add_any_inet_port (tcp->listener, NULL, &error);
  g_assert_no_error (error);
  tcp->accept_thread = g_thread_new ("accept", accept_main, tcp);
  return g_strdup_printf ("tcp:127.0.0.1:%u", port);
}

/* After the connection is made: the board's descriptors. */
static void
tcp_accepted (Tcp *tcp)
{
  g_thread_join (g_steal_pointer (&tcp->accept_thread));
  g_assert_cmpint (tcp->board_fd, >=, 0);
  g_assert_cmpint (tcp->extra_fd, >=, 0);
}

static void
tcp_clear (Tcp *tcp)
{
  g_socket_listener_close (tcp->listener);
  if (tcp->accept_thread != NULL)
    g_thread_join (tcp->accept_thread);
  if (tcp->extra_fd >= 0)
    close (tcp->extra_fd);
  g_clear_object (&tcp->listener);
}

typedef struct
{
  TksWait  call;
  GError  *lost;
  guint    n_lost;
  TksSessionState state_when_lost;
} Watch;

static void
on_lost (TksSession   *session,
         const GError *error,
         gpointer      user_data)
{
  Watch *watch = user_data;

  g_assert_true (g_main_context_is_owner (g_main_context_default ()));
  watch->n_lost++;
  watch->state_when_lost = tks_session_get_state (session);
  g_clear_error (&watch->lost);
  watch->lost = g_error_copy (error);
}

static gboolean
is_disconnected (gconstpointer data)
{
  return tks_session_get_state ((TksSession *) data) == TKS_SESSION_DISCONNECTED;
}

/* A session connected to @address, its "link-lost" told to @watch. A TCP board (@tcp) starts
 * serving once the connection is accepted: then the connection is made in the background, and
 * @board is the board started on it. */
static TksSession *
connect_to (const char    *address,
            Watch         *watch,
            Tcp           *tcp,
            TksTestBoard **board)
{
  TksSession *session = tks_session_new ();
  g_autoptr(GError) error = NULL;

  tks_session_set_timeout (session, 500);
  tks_session_set_save_history (session, FALSE);
  g_signal_connect (session, "link-lost", G_CALLBACK (on_lost), watch);
  tks_session_connect_async (session, address, NULL, tks_wait_done, &watch->call);
  if (tcp != NULL)
    {
      tcp_accepted (tcp);
      *board = tks_test_board_start (FIXTURE, tcp->board_fd, TKS_TEST_BOARD_NORMAL, 0, 1460);
    }
  g_assert_true (tks_session_connect_finish (session, tks_wait_for (&watch->call), &error));
  g_assert_no_error (error);
  g_assert_cmpint (tks_session_get_state (session), ==, TKS_SESSION_IDLE);
  return session;
}

/* A request to the board still there: its whole reply. */
static void
assert_trigger_answers (TksSession *session,
                        Watch      *watch)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = NULL;

  tks_session_trigger_async (session, NULL, tks_wait_done, &watch->call);
  reply = tks_session_trigger_finish (session, tks_wait_for (&watch->call), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (reply, ==, TRIGGER_REPLY);
}

/* The board gone, no request made: the session ends the connection by itself, within the
 * generous deadline of tks_wait_until(), says why once, and a request made afterwards fails at
 * once. */
static void
assert_noticed (TksSession *session,
                Watch      *watch,
                const char *reason)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = NULL;
  gint64 start = g_get_monotonic_time ();

  if (!tks_wait_until (is_disconnected, session))
    g_error ("the board went away, but the session is still %s after %d s without a request",
             tks_session_get_state (session) == TKS_SESSION_IDLE ? "idle" : "not disconnected",
             TKS_WAIT_SECONDS);
  g_test_message ("noticed after %.2f s: %s", (g_get_monotonic_time () - start) / 1e6,
                  watch->lost ? watch->lost->message : "(no message)");
  g_assert_cmpuint (watch->n_lost, ==, 1);
  g_assert_error (watch->lost, TKS_ERROR, TKS_ERROR_DISCONNECTED);
  g_assert_nonnull (strstr (watch->lost->message, reason));
  /* told after the state changed, so that a window can offer to connect again */
  g_assert_cmpint (watch->state_when_lost, ==, TKS_SESSION_DISCONNECTED);

  tks_session_trigger_async (session, NULL, tks_wait_done, &watch->call);
  reply = tks_session_trigger_finish (session, tks_wait_for (&watch->call), &error);
  g_assert_null (reply);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED);
  g_assert_cmpuint (watch->n_lost, ==, 1);
}

static void
watch_clear (Watch *watch)
{
  tks_wait_clear (&watch->call);
  g_clear_error (&watch->lost);
}

/* A TCP board that closes its end while the session is idle. */
static void
test_tcp_closed (void)
{
  Tcp tcp = { 0 };
  Watch watch = { 0 };
  g_autofree char *address = tcp_listen (&tcp);
  TksTestBoard *board = NULL;
  g_autoptr(TksSession) session = connect_to (address, &watch, &tcp, &board);

  /* a request works, then the board goes */
  assert_trigger_answers (session, &watch);
  close (tcp.extra_fd);
  tcp.extra_fd = -1;
  tks_test_board_stop (board);
  assert_noticed (session, &watch, "closed the connection");

  tcp_clear (&tcp);
  watch_clear (&watch);
}

/* A board that prints while idle: the session stays connected, the bytes stay for the next
 * request, which drops them as it always did, and the reply comes whole. A board that prints,
 * then closes: gone, though its last bytes are still unread. */
static void
test_tcp_unasked (void)
{
  static const char unasked[] = "\r\nboard: low battery\r\nch> ";
  Tcp tcp = { 0 };
  Watch watch = { 0 };
  g_autofree char *address = tcp_listen (&tcp);
  TksTestBoard *board = NULL;
  g_autoptr(TksSession) session = connect_to (address, &watch, &tcp, &board);
  gboolean waited = FALSE;

  for (guint round = 0; round < 2; round++)
    {
      g_assert_cmpint (write (tcp.extra_fd, unasked, strlen (unasked)), ==, (gssize) strlen (unasked));
      /* idle for a few of the session's looks at the link (fewer on a slow machine: the
       * test then proves less, never fails for it) */
      waited = FALSE;
      g_timeout_add (2500, tks_wait_timed_out, &waited);
      g_assert_true (tks_wait_until (tks_wait_true, &waited));
      g_assert_cmpint (tks_session_get_state (session), ==, TKS_SESSION_IDLE);
      g_assert_cmpuint (watch.n_lost, ==, 0);
      assert_trigger_answers (session, &watch);
    }

  /* prints, then hangs up: both directions of the socket end, whoever else holds it */
  g_assert_cmpint (write (tcp.extra_fd, unasked, strlen (unasked)), ==, (gssize) strlen (unasked));
  g_assert_cmpint (shutdown (tcp.extra_fd, SHUT_RDWR), ==, 0);
  assert_noticed (session, &watch, "closed the connection");

  tks_test_board_stop (board);
  tcp_clear (&tcp);
  watch_clear (&watch);
}

/* A pty whose master (the board's side) is closed while the session is idle. */
static void
test_pty_closed (void)
{
  Watch watch = { 0 };
  g_autoptr(TksSession) session = NULL;
  g_autofree char *path = NULL;
  TksTestBoard *board;
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  path = g_strdup (ptsname (master));
  board = tks_test_board_start (FIXTURE, master, TKS_TEST_BOARD_NORMAL, 0, 0);
  session = connect_to (path, &watch, NULL, NULL);

  assert_trigger_answers (session, &watch);
  tks_test_board_stop (board);
  assert_noticed (session, &watch, path);

  watch_clear (&watch);
}

/* Disconnected by the user before the board goes: nothing is told afterwards. */
static void
test_disconnected_first (void)
{
  Tcp tcp = { 0 };
  Watch watch = { 0 };
  g_autofree char *address = tcp_listen (&tcp);
  TksTestBoard *board = NULL;
  g_autoptr(TksSession) session = connect_to (address, &watch, &tcp, &board);
  gboolean waited = FALSE;

  tks_session_disconnect (session);
  close (tcp.extra_fd);
  tcp.extra_fd = -1;
  tks_test_board_stop (board);
  g_timeout_add (1500, tks_wait_timed_out, &waited);
  g_assert_true (tks_wait_until (tks_wait_true, &waited));
  g_assert_cmpuint (watch.n_lost, ==, 0);
  g_assert_cmpint (tks_session_get_state (session), ==, TKS_SESSION_DISCONNECTED);

  tcp_clear (&tcp);
  watch_clear (&watch);
}

/* The transport's look at the link takes no byte: what the board sent is read whole after it,
 * and an end of stream behind those bytes is seen before they are read. */
static void
test_transport_check (void)
{
  Tcp tcp = { 0 };
  g_autofree char *address = tcp_listen (&tcp);
  g_autoptr(TksTransport) transport = NULL;
  g_autoptr(GError) error = NULL;
  guint8 buf[64];
  gssize n;

  transport = tks_transport_open (address, NULL, NULL, &error);
  g_assert_no_error (error);
  tcp_accepted (&tcp);
  g_assert_true (tks_transport_check (transport, &error));
  g_assert_no_error (error);

  g_assert_cmpint (write (tcp.board_fd, "hello\r\n", 7), ==, 7);
  /* until the bytes are there to be read (or lost) */
  g_assert_cmpint (tks_transport_read (transport, buf, 1, 30000, NULL, &error), ==, 1);
  g_assert_no_error (error);
  g_assert_cmpint (buf[0], ==, 'h');
  for (guint i = 0; i < 5; i++)
    {
      g_assert_true (tks_transport_check (transport, &error));
      g_assert_no_error (error);
    }
  n = tks_transport_read (transport, buf, sizeof buf, 30000, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (n, ==, 6);
  g_assert_cmpmem (buf, 6, "ello\r\n", 6);

  g_assert_cmpint (write (tcp.board_fd, "bye", 3), ==, 3);
  close (tcp.board_fd);
  close (tcp.extra_fd);
  tcp.extra_fd = -1;
  /* until the end of the stream has come: the check says so, with "bye" still unread */
  for (gint64 end = g_get_monotonic_time () + TKS_WAIT_SECONDS * G_USEC_PER_SEC;
       tks_transport_check (transport, &error) && g_get_monotonic_time () < end;)
    g_usleep (10000);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED);
  g_clear_error (&error);
  n = tks_transport_read (transport, buf, sizeof buf, 30000, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (n, ==, 3);
  g_assert_cmpmem (buf, 3, "bye", 3);

  tcp_clear (&tcp);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/session/idle/tcp-closed", test_tcp_closed);
  g_test_add_func ("/session/idle/tcp-unasked-bytes", test_tcp_unasked);
  g_test_add_func ("/session/idle/pty-closed", test_pty_closed);
  g_test_add_func ("/session/idle/disconnected-first", test_disconnected_first);
  g_test_add_func ("/session/idle/transport-check", test_transport_check);
  return g_test_run ();
}
