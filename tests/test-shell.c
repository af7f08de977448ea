/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <glib-unix.h>

#include "tks-error.h"
#include "tks-shell.h"
#include "tks-test-board.h"
#include "tks-transport-private.h"

typedef struct
{
  TksTestBoard *board;
  TksShell     *shell;
} Fixture;

/* A shell over a socketpair whose other end plays @fixture. */
static void
fixture_start (Fixture          *f,
               const char       *fixture,
               TksTestBoardMode  mode,
               gsize             fault_after,
               gsize             chunk)
{
  int fds[2];

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), ==, 0);
  g_unix_set_fd_nonblocking (fds[0], TRUE, NULL);
  f->board = tks_test_board_start (fixture, fds[1], mode, fault_after, chunk);
  f->shell = tks_shell_new (tks_transport_open_fd (fds[0], TKS_TRANSPORT_DEMO, "test board",
                                                   115200, NULL));
  tks_shell_set_timeout (f->shell, 1000);
  tks_shell_set_quiet_time (f->shell, 30);
}

/* The same over a pty: the board plays on the master, the shell opens the slave by name. */
static void
fixture_start_pty (Fixture    *f,
                   const char *fixture)
{
  g_autoptr(GError) error = NULL;
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  TksTransport *t;

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  t = tks_transport_open (ptsname (master), NULL, NULL, &error);
  g_assert_no_error (error);
  f->board = tks_test_board_start (fixture, master, TKS_TEST_BOARD_NORMAL, 0, 0);
  f->shell = tks_shell_new (t);
  tks_shell_set_timeout (f->shell, 1000);
  tks_shell_set_quiet_time (f->shell, 30);
}

static void
fixture_stop (Fixture *f)
{
  g_clear_pointer (&f->shell, tks_shell_free);
  g_clear_pointer (&f->board, tks_test_board_stop);
}

typedef struct
{
  GString *text;
  guint    calls;
} Streamed;

static void
on_body (const char *data,
         gsize       len,
         gpointer    user_data)
{
  Streamed *streamed = user_data;

  g_assert_cmpuint (len, >, 0);
  g_string_append_len (streamed->text, data, (gssize) len);
  streamed->calls++;
}

/* The reply, both returned and handed on piece by piece while it arrived; the number of
 * pieces. */
static guint
assert_reply (Fixture    *f,
              const char *command,
              guint       nth)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = NULL;
  Streamed streamed = { g_string_new (NULL), 0 };
  const char *expected;
  gsize expected_len, len = 0;
  guint calls;

  expected = tks_test_board_reply (f->board, command, nth, &expected_len);
  reply = tks_shell_command_streamed (f->shell, command, expected_len, NULL, on_body, &streamed,
                                      &len, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (reply);
  g_assert_cmpmem (reply, len, expected, expected_len);
  g_assert_cmpmem (streamed.text->str, streamed.text->len, expected, expected_len);
  calls = streamed.calls;
  g_string_free (streamed.text, TRUE);
  return calls;
}

static void
test_help_fixture (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *help = NULL;
  g_auto(GStrv) commands = NULL;
  Fixture f = { 0 };

  fixture_start (&f, "board-shell-help.raw.txt", TKS_TEST_BOARD_NORMAL, 0, 0);
  g_assert_true (tks_shell_sync (f.shell, NULL, &error));
  g_assert_no_error (error);

  help = tks_shell_command (f.shell, "help", 0, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  commands = tks_shell_parse_help (help);
  g_assert_cmpuint (g_strv_length (commands), ==, 14);
  g_assert_true (g_strv_contains ((const char * const *) commands, "threads_timestamps"));
  g_assert_false (g_strv_contains ((const char * const *) commands, "threads_dump"));

  assert_reply (&f, "info", 0);
  assert_reply (&f, "systime", 0);
  assert_reply (&f, "mem", 0);
  assert_reply (&f, "threads", 0);
  fixture_stop (&f);
}

/* The prompt and the echo split across reads, one byte at a time. */
static void
test_byte_by_byte (void)
{
  g_autoptr(GError) error = NULL;
  Fixture f = { 0 };

  fixture_start (&f, "board-shell-help.raw.txt", TKS_TEST_BOARD_NORMAL, 0, 1);
  g_assert_true (tks_shell_sync (f.shell, NULL, &error));
  g_assert_no_error (error);
  assert_reply (&f, "help", 0);
  /* handed on while it arrived, never a byte of the prompt */
  g_assert_cmpuint (assert_reply (&f, "threads", 0), >, 10);
  fixture_stop (&f);
}

typedef struct
{
  guint64 bytes;
  guint   lines;
  guint   calls;
} ProgressSeen;

static void
on_progress (guint64  bytes,
             guint    lines,
             gpointer user_data)
{
  ProgressSeen *seen = user_data;

  g_assert_cmpuint (bytes, >=, seen->bytes);
  g_assert_cmpuint (lines, >=, seen->lines);
  seen->bytes = bytes;
  seen->lines = lines;
  seen->calls++;
}

static void
test_run_mode_fixture (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *log = NULL;
  ProgressSeen seen = { 0 };
  const char *expected;
  gsize expected_len, len;
  Fixture f = { 0 };

  fixture_start (&f, "board-run-mode.raw.txt", TKS_TEST_BOARD_NORMAL, 0, 1460);
  g_assert_true (tks_shell_sync (f.shell, NULL, &error));
  g_assert_no_error (error);
  assert_reply (&f, "threads_list", 0);

  expected = tks_test_board_reply (f.board, "threads_timestamps", 0, &expected_len);
  log = tks_shell_command (f.shell, "threads_timestamps", expected_len, on_progress, &seen,
                           &len, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (log, len, expected, expected_len);
  /* every byte counted: the echo, the log and the prompt */
  g_assert_cmpuint (seen.bytes, ==, strlen ("threads_timestamps\r\n") + expected_len + 4);
  g_assert_cmpuint (seen.lines, ==, 3000 + 1);
  g_assert_cmpuint (seen.calls, >, 1);
  fixture_stop (&f);
}

static void
test_trigger_exits_fixture (void)
{
  g_autoptr(GError) error = NULL;
  Fixture f = { 0 };

  fixture_start (&f, "board-trigger-exits.raw.txt", TKS_TEST_BOARD_NORMAL, 0, 0);
  g_assert_true (tks_shell_sync (f.shell, NULL, &error));
  g_assert_no_error (error);
  assert_reply (&f, "threads_timestamps_run", 0);
  assert_reply (&f, "threads_timestamps_trigger", 0);
  assert_reply (&f, "threads_list", 0);
  assert_reply (&f, "threads_timestamps", 0);
  assert_reply (&f, "threads_list", 1);
  assert_reply (&f, "threads_timestamps", 1);
  fixture_stop (&f);
}

static void
test_pty_fixture (void)
{
  g_autoptr(GError) error = NULL;
  Fixture f = { 0 };

  fixture_start_pty (&f, "board-partly-logged-trigger.raw.txt");
  g_assert_true (tks_shell_sync (f.shell, NULL, &error));
  g_assert_no_error (error);
  assert_reply (&f, "threads_list", 0);
  assert_reply (&f, "threads_timestamps", 0);
  fixture_stop (&f);
}

static void
test_unknown_command (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = NULL;
  Fixture f = { 0 };

  fixture_start (&f, "board-shell-help.raw.txt", TKS_TEST_BOARD_NORMAL, 0, 0);
  g_assert_true (tks_shell_sync (f.shell, NULL, &error));
  reply = tks_shell_command (f.shell, "threads_dump", 0, NULL, NULL, NULL, NULL, &error);
  g_assert_null (reply);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_UNKNOWN_COMMAND);
  g_clear_error (&error);
  /* and the shell goes on */
  assert_reply (&f, "mem", 0);
  fixture_stop (&f);
}

static void
test_bad_command_line (void)
{
  g_autoptr(GError) error = NULL;
  Fixture f = { 0 };

  fixture_start (&f, "board-shell-help.raw.txt", TKS_TEST_BOARD_NORMAL, 0, 0);
  g_assert_null (tks_shell_command (f.shell, "a\r\nb", 0, NULL, NULL, NULL, NULL, &error));
  g_assert_error (error, TKS_ERROR, TKS_ERROR_USAGE);
  fixture_stop (&f);
}

static void
test_noise_then_resync (void)
{
  g_autoptr(GError) error = NULL;
  Fixture f = { 0 };

  fixture_start (&f, "board-shell-help.raw.txt", TKS_TEST_BOARD_NOISE_FIRST, 0, 0);
  g_assert_true (tks_shell_sync (f.shell, NULL, &error));
  g_assert_no_error (error);
  assert_reply (&f, "info", 0);
  fixture_stop (&f);
}

static void
test_wrong_baud (void)
{
  g_autoptr(GError) error = NULL;
  Fixture f = { 0 };
  gint64 start = g_get_monotonic_time ();

  fixture_start (&f, "board-shell-help.raw.txt", TKS_TEST_BOARD_GARBAGE, 0, 0);
  tks_shell_set_timeout (f.shell, 500);
  g_assert_false (tks_shell_sync (f.shell, NULL, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "baud"));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 3 * G_USEC_PER_SEC);
  g_clear_error (&error);

  g_assert_null (tks_shell_command (f.shell, "threads_list", 0, NULL, NULL, NULL, NULL, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "baud"));
  fixture_stop (&f);
}

/* A TCP peer: sends @noise bytes on connect (none: stays silent), then holds the link. */
typedef struct
{
  GSocketListener *listener;
  gsize            noise;
  GSocketConnection *conn;
} TcpPeer;

static gpointer
tcp_peer_main (gpointer data)
{
  TcpPeer *peer = data;
  guint8 noise[256];

  peer->conn = g_socket_listener_accept (peer->listener, NULL, NULL, NULL);
  g_assert_nonnull (peer->conn);
  for (guint i = 0; i < sizeof noise; i++)
    noise[i] = (guint8) (0x80 | (i * 37));
  if (peer->noise > 0)
    g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (peer->conn)), noise,
                               MIN (peer->noise, sizeof noise), NULL, NULL, NULL);
  return NULL;
}

/* Over TCP there is no baud rate to blame: the hints name what can be wrong there. */
static void
test_tcp_hints (void)
{
  for (guint noisy = 0; noisy <= 1; noisy++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *address = NULL;
      TcpPeer peer = { g_socket_listener_new (), noisy ? 256 : 0, NULL };
      guint16 port = g_socket_listener_add_any_inet_port (peer.listener, NULL, &error);
      GThread *thread;
      TksTransport *t;
      TksShell *shell;

      g_assert_no_error (error);
      thread = g_thread_new ("tcp-peer", tcp_peer_main, &peer);
      address = g_strdup_printf ("tcp:127.0.0.1:%u", port);
      t = tks_transport_open (address, NULL, NULL, &error);
      g_assert_no_error (error);
      shell = tks_shell_new (t);
      tks_shell_set_timeout (shell, 300);
      g_assert_false (tks_shell_sync (shell, NULL, &error));
      g_test_message ("%s", error->message);
      g_assert_null (strstr (error->message, "baud rate right"));
      if (noisy)
        {
          g_assert_error (error, TKS_ERROR, TKS_ERROR_PARSE);
          g_assert_nonnull (strstr (error->message, "serial bridge"));
        }
      else
        {
          g_assert_error (error, TKS_ERROR, TKS_ERROR_TIMEOUT);
          g_assert_nonnull (strstr (error->message, "served at this address"));
        }
      tks_shell_free (shell);
      g_thread_join (thread);
      g_clear_object (&peer.conn);
      g_socket_listener_close (peer.listener);
      g_object_unref (peer.listener);
    }
}

static void
test_silent (void)
{
  g_autoptr(GError) error = NULL;
  Fixture f = { 0 };
  gint64 start = g_get_monotonic_time ();

  fixture_start (&f, "board-shell-help.raw.txt", TKS_TEST_BOARD_SILENT, 0, 0);
  tks_shell_set_timeout (f.shell, 300);
  g_assert_false (tks_shell_sync (f.shell, NULL, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "No reply"));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 2 * G_USEC_PER_SEC);
  g_clear_error (&error);

  start = g_get_monotonic_time ();
  g_assert_null (tks_shell_command (f.shell, "threads_timestamps", 78000, NULL, NULL, NULL, NULL, &error));
  g_assert_error (error, TKS_ERROR, TKS_ERROR_TIMEOUT);
  /* silence is detected after the base timeout, not after the transfer time */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 2 * G_USEC_PER_SEC);
  fixture_stop (&f);
}

static void
test_closed_mid_transfer (void)
{
  g_autoptr(GError) error = NULL;
  Fixture f = { 0 };

  fixture_start (&f, "board-run-mode.raw.txt", TKS_TEST_BOARD_CLOSE_AFTER, 10000, 0);
  g_assert_true (tks_shell_sync (f.shell, NULL, &error));
  g_assert_null (tks_shell_command (f.shell, "threads_timestamps", 78000, NULL, NULL, NULL, NULL, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED);
  fixture_stop (&f);
}

static void
test_reset_mid_transfer (void)
{
  g_autoptr(GError) error = NULL;
  Fixture f = { 0 };

  fixture_start (&f, "board-run-mode.raw.txt", TKS_TEST_BOARD_RESET_AFTER, 5000, 0);
  g_assert_true (tks_shell_sync (f.shell, NULL, &error));
  g_assert_null (tks_shell_command (f.shell, "threads_timestamps", 78000, NULL, NULL, NULL, NULL, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_RESTARTED);
  g_assert_nonnull (strstr (error->message, "restarted"));
  fixture_stop (&f);
}

static void
test_stall_mid_transfer (void)
{
  g_autoptr(GError) error = NULL;
  Fixture f = { 0 };
  gint64 start;

  fixture_start (&f, "board-run-mode.raw.txt", TKS_TEST_BOARD_STALL_AFTER, 5000, 0);
  tks_shell_set_timeout (f.shell, 300);
  g_assert_true (tks_shell_sync (f.shell, NULL, &error));
  start = g_get_monotonic_time ();
  g_assert_null (tks_shell_command (f.shell, "threads_timestamps", 78000, NULL, NULL, NULL, NULL, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "stopped after 5020 bytes"));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 2 * G_USEC_PER_SEC);
  fixture_stop (&f);
}

static gpointer
cancel_soon (gpointer data)
{
  g_usleep (100 * 1000);
  g_cancellable_cancel (data);
  return NULL;
}

static void
test_cancel (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Fixture f = { 0 };
  GThread *thread;
  gint64 start = g_get_monotonic_time ();

  fixture_start (&f, "board-shell-help.raw.txt", TKS_TEST_BOARD_SILENT, 0, 0);
  tks_shell_set_timeout (f.shell, 10000);
  thread = g_thread_new ("cancel", cancel_soon, cancellable);
  g_assert_null (tks_shell_command (f.shell, "help", 0, NULL, NULL, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 2 * G_USEC_PER_SEC);
  g_thread_join (thread);
  fixture_stop (&f);
}

/* A board that, once asked anything, prints debug lines every 20 ms and never a prompt. */
typedef struct
{
  int   fd;
  gint  stop;
} Chatter;

static gpointer
chatter_main (gpointer data)
{
  Chatter *c = data;
  gboolean asked = FALSE;

  while (!g_atomic_int_get (&c->stop))
    {
      char buf[256];
      GPollFD pfd = { c->fd, G_IO_IN, 0 };

      if (g_poll (&pfd, 1, 20) > 0 && read (c->fd, buf, sizeof buf) > 0)
        asked = TRUE;
      if (asked && write (c->fd, "debug: sensor 1234\r\n", 20) < 0)
        break;
    }
  return NULL;
}

/* After a cancelled command, the next one waits for the board to finish that reply, but not
 * forever on a board that never stops talking: it ends with a clear message. */
static void
test_settle_is_bounded (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Chatter chatter = { -1, 0 };
  GThread *board, *cancel;
  TksShell *shell;
  gint64 start;
  int fds[2];

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), ==, 0);
  chatter.fd = fds[1];
  board = g_thread_new ("chatter", chatter_main, &chatter);
  shell = tks_shell_new (tks_transport_open_fd (fds[0], TKS_TRANSPORT_DEMO, "test board", 115200,
                                                NULL));
  tks_shell_set_timeout (shell, 300);
  tks_shell_set_quiet_time (shell, 30);

  cancel = g_thread_new ("cancel", cancel_soon, cancellable);
  g_assert_null (tks_shell_command (shell, "threads_dump", 0, NULL, NULL, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_thread_join (cancel);
  g_clear_error (&error);

  start = g_get_monotonic_time ();
  g_assert_null (tks_shell_command (shell, "help", 0, NULL, NULL, NULL, NULL, &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_PARSE);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 3 * G_USEC_PER_SEC);

  g_atomic_int_set (&chatter.stop, 1);
  g_thread_join (board);
  tks_shell_free (shell);
  close (fds[1]);
}

static void
test_command_timeout_scales (void)
{
  Fixture f = { 0 };

  fixture_start (&f, "board-shell-help.raw.txt", TKS_TEST_BOARD_SILENT, 0, 0);
  tks_shell_set_timeout (f.shell, 2000);
  g_assert_cmpuint (tks_shell_get_command_timeout (f.shell, 0), ==, 2000);
  /* 78,000 bytes at 115200 baud take 6.8 s; twice that on top of the base */
  g_assert_cmpuint (tks_shell_get_command_timeout (f.shell, 78000), ==, 2000 + 13541);
  fixture_stop (&f);
}

static void
test_parse_help (void)
{
  g_auto(GStrv) none = tks_shell_parse_help ("foo ?\r\n");
  g_auto(GStrv) some = tks_shell_parse_help ("Commands: help  threads_dump \r\nmore\r\n");

  g_assert_cmpuint (g_strv_length (none), ==, 0);
  g_assert_cmpuint (g_strv_length (some), ==, 2);
  g_assert_cmpstr (some[1], ==, "threads_dump");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/shell/fixture/help", test_help_fixture);
  g_test_add_func ("/shell/fixture/byte-by-byte", test_byte_by_byte);
  g_test_add_func ("/shell/fixture/run-mode", test_run_mode_fixture);
  g_test_add_func ("/shell/fixture/trigger-exits", test_trigger_exits_fixture);
  g_test_add_func ("/shell/fixture/pty", test_pty_fixture);
  g_test_add_func ("/shell/unknown-command", test_unknown_command);
  g_test_add_func ("/shell/bad-command-line", test_bad_command_line);
  g_test_add_func ("/shell/parse-help", test_parse_help);
  g_test_add_func ("/shell/timeout-scales", test_command_timeout_scales);
  g_test_add_func ("/shell/fault/noise-then-resync", test_noise_then_resync);
  g_test_add_func ("/shell/fault/wrong-baud", test_wrong_baud);
  g_test_add_func ("/shell/fault/silent", test_silent);
  g_test_add_func ("/shell/fault/tcp-hints", test_tcp_hints);
  g_test_add_func ("/shell/fault/settle-is-bounded", test_settle_is_bounded);
  g_test_add_func ("/shell/fault/closed-mid-transfer", test_closed_mid_transfer);
  g_test_add_func ("/shell/fault/reset-mid-transfer", test_reset_mid_transfer);
  g_test_add_func ("/shell/fault/stall-mid-transfer", test_stall_mid_transfer);
  g_test_add_func ("/shell/cancel", test_cancel);

  return g_test_run ();
}
