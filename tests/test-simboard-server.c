/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The simulated board program (tickscope-simboard, named by $TKS_SIMBOARD) as a TCP server
 * under hostile clients, over real sockets: one that asks for a recording and falls silent
 * without going, one that goes (closing, resetting, half-closing) before or after its
 * recording began, one that sends but never reads, one that stays idle, fifty at once. It
 * serves one client at a time and never wedges: every client is served in its turn, and the
 * next one can record. Waits are for conditions, with generous deadlines.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gio/gio.h>

#include "tks-test-port.h"

#define DEADLINE_S 90

typedef struct
{
  GSubprocess *proc;
  guint16      port;
} Board;

/* Starts the board on a free port, letting an idle client go after @idle_s seconds. */
static void
board_start (Board *board, const char *idle_s)
{
  const char *exe = g_getenv ("TKS_SIMBOARD");
  g_autofree char *port = NULL;
  g_autofree char *line = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDataInputStream) out = NULL;

  g_assert_nonnull (exe);
  board->port = free_port ();
  port = g_strdup_printf ("%u", board->port);
  board->proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, exe, "--tcp", port,
                                  "--idle-timeout", idle_s, NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (board->proc));
  line = g_data_input_stream_read_line (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (line, port));
}

static void
board_stop (Board *board)
{
  g_subprocess_send_signal (board->proc, SIGTERM);
  g_assert_true (g_subprocess_wait (board->proc, NULL, NULL));
  g_clear_object (&board->proc);
}

static int
client_connect (guint16 port)
{
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (port) };
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

  g_assert_cmpint (fd, >=, 0);
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (connect (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  return fd;
}

static void
client_send (int fd, const char *text)
{
  g_assert_cmpint (send (fd, text, strlen (text), MSG_NOSIGNAL), ==, (gssize) strlen (text));
}

/* Reads from @fd into @got until it holds @needle or the deadline passes: whether it does. */
static gboolean
client_wait_for (int fd, GString *got, const char *needle, gint64 deadline)
{
  while (strstr (got->str, needle) == NULL)
    {
      struct pollfd pfd = { fd, POLLIN, 0 };
      char buf[4096];
      gint64 left = (deadline - g_get_monotonic_time ()) / 1000;
      ssize_t n;

      if (left <= 0 || poll (&pfd, 1, (int) MIN (left, 1000)) < 0)
        return FALSE;
      if ((pfd.revents & (POLLIN | POLLHUP | POLLERR)) == 0)
        continue;
      n = recv (fd, buf, sizeof buf, 0);
      if (n <= 0)
        return strstr (got->str, needle) != NULL;
      g_string_append_len (got, buf, n);
    }
  return TRUE;
}

/* The same, until it holds @needle or @other. */
static gboolean
client_wait_for_either (int fd, GString *got, const char *needle, const char *other,
                        gint64 deadline)
{
  while (strstr (got->str, other) == NULL)
    {
      gsize had = got->len;

      if (client_wait_for (fd, got, needle, MIN (deadline, g_get_monotonic_time () + 200 * 1000)))
        return TRUE;
      if (got->len == had && g_get_monotonic_time () >= deadline)
        return FALSE;
    }
  return TRUE;
}

/* How a client goes. */
typedef enum
{
  GO_CLOSE,       /* closes its socket */
  GO_RESET,       /* resets the connection (SO_LINGER 0: an RST, not a FIN) */
  GO_HALF_CLOSE,  /* shuts its sending side, and reads no more */
} Going;

static void
client_go (int fd, Going how)
{
  struct linger hard = { 1, 0 };

  switch (how)
    {
    case GO_RESET:
      g_assert_cmpint (setsockopt (fd, SOL_SOCKET, SO_LINGER, &hard, sizeof hard), ==, 0);
      close (fd);
      break;
    case GO_HALF_CLOSE:
      g_assert_cmpint (shutdown (fd, SHUT_WR), ==, 0);
      break;
    case GO_CLOSE:
    default:
      close (fd);
      break;
    }
}

/* The next client records: its recording starts (no "already under way") and ends when it
 * sends the stop byte. */
static void
next_client_records (guint16 port, gint64 deadline)
{
  g_autoptr(GString) got = g_string_new (NULL);
  int fd = client_connect (port);

  g_assert_true (client_wait_for (fd, got, "ch> ", deadline));
  client_send (fd, "threads_record\r");
  /* the header, or a refusal and its prompt */
  g_assert_true (client_wait_for_either (fd, got, "Compact:", "way\r\nch> ", deadline));
  g_assert_null (strstr (got->str, "already under way"));
  client_send (fd, "\003");
  g_assert_true (client_wait_for (fd, got, "End of dump", deadline));
  close (fd);
}

/* Real time passes with nobody connected: the board runs alone meanwhile (it runs whatever its
 * shell had been given). Only a chance for a wrong board to show itself: the board must be
 * right whatever the time. */
static void
let_board_run_alone (void)
{
  g_usleep (2 * G_USEC_PER_SEC);
}

/* A host asks for a recording and goes before the board's shell has run the command (the
 * line and the end of the connection arrive together): the command goes with its host, and
 * the next host records, however long after. */
static void
test_gone_before_recording (gconstpointer data)
{
  Going how = GPOINTER_TO_INT (data);
  Board board;
  g_autoptr(GString) got = g_string_new (NULL);
  gint64 deadline = g_get_monotonic_time () + DEADLINE_S * G_USEC_PER_SEC;
  int fd;

  board_start (&board, "30");
  fd = client_connect (board.port);
  g_assert_true (client_wait_for (fd, got, "ch> ", deadline));
  client_send (fd, "threads_record events\r");
  client_go (fd, how);
  let_board_run_alone ();
  next_client_records (board.port, deadline);
  next_client_records (board.port, deadline);
  if (how == GO_HALF_CLOSE)
    close (fd);
  board_stop (&board);
}

/* A host goes in the middle of its recording: the recording ends with the link, and the next
 * host records at once. */
static void
test_gone_while_recording (gconstpointer data)
{
  Going how = GPOINTER_TO_INT (data);
  Board board;
  g_autoptr(GString) got = g_string_new (NULL);
  gint64 deadline = g_get_monotonic_time () + DEADLINE_S * G_USEC_PER_SEC;
  int fd;

  board_start (&board, "30");
  fd = client_connect (board.port);
  g_assert_true (client_wait_for (fd, got, "ch> ", deadline));
  client_send (fd, "threads_record events\r");
  g_assert_true (client_wait_for (fd, got, "Compact:", deadline));
  client_go (fd, how);
  next_client_records (board.port, deadline);
  let_board_run_alone ();
  next_client_records (board.port, deadline);
  if (how == GO_HALF_CLOSE)
    close (fd);
  board_stop (&board);
}

/* A host asks for a recording, then sends a byte now and then (as a recorder's keep-alive) but
 * reads nothing, with the smallest receive buffer: once the system's buffers are full (some
 * megabytes: most of a minute), the board's writes stay blocked. It gives that host up, and
 * the next one, waiting meanwhile, records. */
static void
test_unread_recorder (void)
{
  Board board;
  g_autoptr(GString) got = g_string_new (NULL);
  g_autoptr(GString) got2 = g_string_new (NULL);
  gint64 deadline = g_get_monotonic_time () + 3 * DEADLINE_S * G_USEC_PER_SEC;
  int small = 1, deaf, next;

  board_start (&board, "30");
  deaf = client_connect (board.port);
  g_assert_cmpint (setsockopt (deaf, SOL_SOCKET, SO_RCVBUF, &small, sizeof small), ==, 0);
  g_assert_true (client_wait_for (deaf, got, "ch> ", deadline));
  client_send (deaf, "threads_record events\r");
  next = client_connect (board.port);
  /* keep-alives (not the stop byte) until the board serves the next host */
  while (!client_wait_for (next, got2, "ch> ", g_get_monotonic_time () + 200 * 1000))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      (void) send (deaf, "\n", 1, MSG_NOSIGNAL);
    }
  client_send (next, "threads_record\r");
  g_assert_true (client_wait_for (next, got2, "Compact:", deadline));
  g_assert_null (strstr (got2->str, "already under way"));
  client_send (next, "\003");
  g_assert_true (client_wait_for (next, got2, "End of dump", deadline));
  close (next);
  close (deaf);
  board_stop (&board);
}

/* Fifty hosts at once, each asking for a recording as soon as it is connected and going at
 * once, half of them by a reset: then a host records. */
static void
test_many_gone_recorders (void)
{
  enum { N = 50 };
  Board board;
  gint64 deadline = g_get_monotonic_time () + DEADLINE_S * G_USEC_PER_SEC;
  int fds[N];

  board_start (&board, "30");
  for (guint i = 0; i < N; i++)
    fds[i] = client_connect (board.port);
  for (guint i = 0; i < N; i++)
    {
      client_send (fds[i], "threads_record events\r");
      client_go (fds[i], i % 2 == 0 ? GO_CLOSE : GO_RESET);
    }
  let_board_run_alone ();
  next_client_records (board.port, deadline);
  board_stop (&board);
}

/* A host asks for a recording, then neither reads nor sends nor goes (a host that hangs):
 * the recording ends at the board's silence timeout, the client is let go at the idle
 * timeout, and the next host's recording starts. */
static void
test_silent_recorder (void)
{
  Board board;
  g_autoptr(GString) got = g_string_new (NULL);
  g_autoptr(GString) got2 = g_string_new (NULL);
  gint64 deadline = g_get_monotonic_time () + DEADLINE_S * G_USEC_PER_SEC;
  int silent, next;

  board_start (&board, "3");
  silent = client_connect (board.port);
  g_assert_true (client_wait_for (silent, got, "ch> ", deadline));
  client_send (silent, "threads_record events\r");
  g_assert_true (client_wait_for (silent, got, "Compact:", deadline));
  /* the next host waits its turn, then records */
  next = client_connect (board.port);
  g_assert_true (client_wait_for (next, got2, "ch> ", deadline));
  client_send (next, "threads_record\r");
  g_assert_true (client_wait_for (next, got2, "Compact:", deadline));
  g_assert_null (strstr (got2->str, "already under way"));
  client_send (next, "\003");
  g_assert_true (client_wait_for (next, got2, "End of dump", deadline));
  close (next);
  close (silent);
  board_stop (&board);
}

/* A client connected and idle does not hold the board: it is told why it is let go. */
static void
test_idle_client (void)
{
  Board board;
  g_autoptr(GString) idle_got = g_string_new (NULL);
  g_autoptr(GString) got = g_string_new (NULL);
  gint64 deadline = g_get_monotonic_time () + DEADLINE_S * G_USEC_PER_SEC;
  int idle, next;

  board_start (&board, "2");
  idle = client_connect (board.port);
  next = client_connect (board.port);
  g_assert_true (client_wait_for (idle, idle_got, "lets you go, for the next client", deadline));
  g_assert_true (client_wait_for (next, got, "ch> ", deadline));
  client_send (next, "systime\r");
  g_assert_true (client_wait_for (next, got, "\r\nch> ", deadline));
  close (idle);
  close (next);
  board_stop (&board);
}

/* Fifty clients at once: each is served in its turn, in whatever order (its prompt, then it
 * leaves). */
static void
test_many_clients (void)
{
  enum { N = 50 };
  Board board;
  int fds[N];
  GString *got[N];
  guint served = 0;
  gint64 deadline = g_get_monotonic_time () + DEADLINE_S * G_USEC_PER_SEC;

  board_start (&board, "30");
  for (guint i = 0; i < N; i++)
    {
      fds[i] = client_connect (board.port);
      got[i] = g_string_new (NULL);
    }
  while (served < N && g_get_monotonic_time () < deadline)
    for (guint i = 0; i < N; i++)
      if (fds[i] >= 0 && client_wait_for (fds[i], got[i], "ch> ", g_get_monotonic_time () + 1000))
        {
          client_send (fds[i], "exit\r");
          close (fds[i]);
          fds[i] = -1;
          served++;
        }
  for (guint i = 0; i < N; i++)
    {
      if (fds[i] >= 0)
        close (fds[i]);
      g_string_free (got[i], TRUE);
    }
  g_assert_cmpuint (served, ==, N);
  board_stop (&board);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/simboard-server/silent-recorder", test_silent_recorder);
  g_test_add_data_func ("/simboard-server/gone-before-recording/close",
                        GINT_TO_POINTER (GO_CLOSE), test_gone_before_recording);
  g_test_add_data_func ("/simboard-server/gone-before-recording/reset",
                        GINT_TO_POINTER (GO_RESET), test_gone_before_recording);
  g_test_add_data_func ("/simboard-server/gone-before-recording/half-close",
                        GINT_TO_POINTER (GO_HALF_CLOSE), test_gone_before_recording);
  g_test_add_data_func ("/simboard-server/gone-while-recording/close",
                        GINT_TO_POINTER (GO_CLOSE), test_gone_while_recording);
  g_test_add_data_func ("/simboard-server/gone-while-recording/reset",
                        GINT_TO_POINTER (GO_RESET), test_gone_while_recording);
  g_test_add_data_func ("/simboard-server/gone-while-recording/half-close",
                        GINT_TO_POINTER (GO_HALF_CLOSE), test_gone_while_recording);
  g_test_add_func ("/simboard-server/unread-recorder", test_unread_recorder);
  g_test_add_func ("/simboard-server/many-gone-recorders", test_many_gone_recorders);
  g_test_add_func ("/simboard-server/idle-client", test_idle_client);
  g_test_add_func ("/simboard-server/many-clients", test_many_clients);
  return g_test_run ();
}
