/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "tks-error.h"
#include "tks-transport.h"

static int
open_pty_master (char **slave_path)
{
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  *slave_path = g_strdup (ptsname (master));
  return master;
}

static void
read_exactly (TksTransport *t,
              char         *buf,
              gsize         len)
{
  gsize got = 0;

  while (got < len)
    {
      g_autoptr(GError) error = NULL;
      gssize n = tks_transport_read (t, (guint8 *) buf + got, len - got, 2000, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpint (n, >, 0);
      got += (gsize) n;
    }
}

static void
test_pty_roundtrip (void)
{
  g_autofree char *path = NULL;
  int master = open_pty_master (&path);
  g_autoptr(GError) error = NULL;
  g_autoptr(TksTransport) t = NULL;
  TksTransportOptions opts = { 57600, TKS_FLOW_NONE, 0 };
  char buf[64] = { 0 };
  gint64 start;
  gssize n;

  t = tks_transport_open (path, &opts, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (t);
  g_assert_cmpint (tks_transport_get_kind (t), ==, TKS_TRANSPORT_TTY);
  g_assert_cmpuint (tks_transport_get_baud (t), ==, 57600);
  g_assert_nonnull (strstr (tks_transport_get_description (t), "57600 baud"));

  /* Raw mode: \r\n passes through untouched both ways. */
  g_assert_true (tks_transport_write_all (t, "help\r\n", 6, 1000, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (read (master, buf, 6), ==, 6);
  g_assert_cmpmem (buf, 6, "help\r\n", 6);

  g_assert_cmpint (write (master, "ch> \r\n", 6), ==, 6);
  read_exactly (t, buf, 6);
  g_assert_cmpmem (buf, 6, "ch> \r\n", 6);

  /* Nothing to read: 0 after the timeout, not an error. */
  start = g_get_monotonic_time ();
  n = tks_transport_read (t, (guint8 *) buf, sizeof buf, 100, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (n, ==, 0);
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 90 * 1000);

  close (master);
}

static void
test_pty_busy (void)
{
  g_autofree char *path = NULL;
  int master = open_pty_master (&path);
  g_autoptr(GError) error = NULL;
  g_autoptr(TksTransport) first = NULL;
  g_autoptr(TksTransport) second = NULL;

  first = tks_transport_open (path, NULL, NULL, &error);
  g_assert_no_error (error);
  second = tks_transport_open (path, NULL, NULL, &error);
  g_assert_null (second);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "busy"));
  close (master);
}

static void
test_pty_hangup (void)
{
  g_autofree char *path = NULL;
  int master = open_pty_master (&path);
  g_autoptr(GError) error = NULL;
  g_autoptr(TksTransport) t = NULL;
  guint8 buf[16];
  gssize n;

  t = tks_transport_open (path, NULL, NULL, &error);
  g_assert_no_error (error);
  close (master);
  n = tks_transport_read (t, buf, sizeof buf, 2000, NULL, &error);
  g_assert_cmpint (n, ==, -1);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED);
}

static gboolean
cancel_later (gpointer data)
{
  g_cancellable_cancel (G_CANCELLABLE (data));
  return G_SOURCE_REMOVE;
}

static gpointer
cancel_thread (gpointer data)
{
  g_usleep (100 * 1000);
  cancel_later (data);
  return NULL;
}

static void
test_pty_cancel (void)
{
  g_autofree char *path = NULL;
  int master = open_pty_master (&path);
  g_autoptr(GError) error = NULL;
  g_autoptr(TksTransport) t = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  GThread *thread;
  guint8 buf[16];
  gint64 start;
  gssize n;

  t = tks_transport_open (path, NULL, NULL, &error);
  g_assert_no_error (error);
  thread = g_thread_new ("cancel", cancel_thread, cancellable);
  start = g_get_monotonic_time ();
  n = tks_transport_read (t, buf, sizeof buf, -1, cancellable, &error);
  g_assert_cmpint (n, ==, -1);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
  g_thread_join (thread);
  close (master);
}

typedef struct
{
  GSocketListener *listener;
  gboolean         echo_then_close;
} TcpPeer;

static gpointer
tcp_peer_thread (gpointer data)
{
  TcpPeer *peer = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSocketConnection) conn = g_socket_listener_accept (peer->listener, NULL, NULL, &error);
  GInputStream *in;
  GOutputStream *out;
  char buf[6];
  gsize got = 0;

  g_assert_no_error (error);
  in = g_io_stream_get_input_stream (G_IO_STREAM (conn));
  out = g_io_stream_get_output_stream (G_IO_STREAM (conn));
  g_input_stream_read_all (in, buf, sizeof buf, &got, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_write_all (out, buf, got, NULL, NULL, &error);
  g_assert_no_error (error);
  g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
  return NULL;
}

static void
test_tcp (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TksTransport) t = NULL;
  g_autofree char *address = NULL;
  TcpPeer peer = { g_socket_listener_new (), TRUE };
  GThread *thread;
  guint16 port;
  char buf[8];
  gssize n;

  port = g_socket_listener_add_any_inet_port (peer.listener, NULL, &error);
  g_assert_no_error (error);
  thread = g_thread_new ("peer", tcp_peer_thread, &peer);

  address = g_strdup_printf ("tcp:127.0.0.1:%u", port);
  t = tks_transport_open (address, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (tks_transport_get_kind (t), ==, TKS_TRANSPORT_TCP);
  g_assert_true (tks_transport_write_all (t, "echo\r\n", 6, 1000, NULL, &error));
  g_assert_no_error (error);
  read_exactly (t, buf, 6);
  g_assert_cmpmem (buf, 6, "echo\r\n", 6);

  /* The peer closed: end of stream. */
  n = tks_transport_read (t, (guint8 *) buf, sizeof buf, 2000, NULL, &error);
  g_assert_cmpint (n, ==, -1);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED);

  g_thread_join (thread);
  g_socket_listener_close (peer.listener);
  g_object_unref (peer.listener);
}

static void
test_tcp_refused (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSocketListener) listener = g_socket_listener_new ();
  g_autofree char *address = NULL;
  TksTransport *t;
  guint16 port;

  /* A port that was free a moment ago and has nobody listening now. */
  port = g_socket_listener_add_any_inet_port (listener, NULL, &error);
  g_assert_no_error (error);
  g_socket_listener_close (listener);

  address = g_strdup_printf ("tcp:127.0.0.1:%u", port);
  t = tks_transport_open (address, NULL, NULL, &error);
  g_assert_null (t);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED);
  g_assert_nonnull (strstr (error->message, "refused"));
}

static void
test_bad_addresses (void)
{
  static const struct { const char *address; int code; const char *needle; } cases[] = {
    { "/dev/ttyNOSUCHPORT0", TKS_ERROR_DISCONNECTED, "No such port" },
    { "NOSUCHPORT", TKS_ERROR_DISCONNECTED, "No such port" },
    { "tcp:localhost", TKS_ERROR_USAGE, "tcp:HOST:PORT" },
    { "tcp:", TKS_ERROR_USAGE, "tcp:HOST:PORT" },
    { "", TKS_ERROR_USAGE, "No port given" },
    { "demo", TKS_ERROR_USAGE, "simulated board" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      TksTransport *t = tks_transport_open (cases[i].address, NULL, NULL, &error);

      g_test_message ("%s: %s", cases[i].address, error ? error->message : "(opened)");
      g_assert_null (t);
      g_assert_error (error, TKS_ERROR, cases[i].code);
      g_assert_nonnull (strstr (error->message, cases[i].needle));
    }
}

static void
test_not_a_tty (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  TksTransport *t;
  int fd = g_file_open_tmp ("tks-transport-XXXXXX", &path, &error);

  g_assert_no_error (error);
  close (fd);
  t = tks_transport_open (path, NULL, NULL, &error);
  g_assert_null (t);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  unlink (path);
}

static void
test_bad_baud (void)
{
  g_autofree char *path = NULL;
  int master = open_pty_master (&path);
  g_autoptr(GError) error = NULL;
  TksTransportOptions opts = { 123456, TKS_FLOW_NONE, 0 };
  TksTransport *t = tks_transport_open (path, &opts, NULL, &error);

  g_assert_null (t);
  g_assert_error (error, TKS_ERROR, TKS_ERROR_USAGE);
  g_assert_nonnull (strstr (error->message, "123456"));
  close (master);
}

static void
test_list_ports (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) ports = tks_serial_list_ports (&error);

  g_assert_no_error (error);
  g_assert_nonnull (ports);
  for (guint i = 0; i < ports->len; i++)
    {
      TksSerialPortInfo *info = g_ptr_array_index (ports, i);

      g_test_message ("%s: %s %04x:%04x", info->name, info->description,
                      (guint) info->usb_vid & 0xffff, (guint) info->usb_pid & 0xffff);
      g_assert_nonnull (info->name);
      g_assert_nonnull (info->description);
      if (i > 0)
        g_assert_cmpstr (((TksSerialPortInfo *) g_ptr_array_index (ports, i - 1))->name, <=, info->name);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/transport/pty/roundtrip", test_pty_roundtrip);
  g_test_add_func ("/transport/pty/busy", test_pty_busy);
  g_test_add_func ("/transport/pty/hangup", test_pty_hangup);
  g_test_add_func ("/transport/pty/cancel", test_pty_cancel);
  g_test_add_func ("/transport/pty/bad-baud", test_bad_baud);
  g_test_add_func ("/transport/tcp/roundtrip", test_tcp);
  g_test_add_func ("/transport/tcp/refused", test_tcp_refused);
  g_test_add_func ("/transport/bad-addresses", test_bad_addresses);
  g_test_add_func ("/transport/not-a-tty", test_not_a_tty);
  g_test_add_func ("/transport/list-ports", test_list_ports);

  return g_test_run ();
}
