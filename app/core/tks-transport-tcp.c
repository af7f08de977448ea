/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include "tks-error.h"
#include "tks-transport-private.h"

static gboolean
is_link_lost (const GError *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED)
         || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE)
         || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED);
}

static gboolean
translate_error (TksTransport  *self,
                 GError        *local,
                 gboolean       writing,
                 GError       **error)
{
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_propagate_error (error, local);
  else if (is_link_lost (local))
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED,
                   /* Translators: the address, then the system's reason */
                   _("%s closed the connection (%s)"), self->address, local->message);
      g_error_free (local);
    }
  else
    {
      if (writing)
        g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Writing to %s failed: %s"),
                     self->address, local->message);
      else
        g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Reading from %s failed: %s"),
                     self->address, local->message);
      g_error_free (local);
    }
  return FALSE;
}

/* Waits until @condition holds on the socket: 1, or 0 when @timeout_ms (-1: none) passed, or
 * -1 with @error set (saying whether it was @writing or reading). */
static int
wait_condition (TksTransport  *self,
                GSocket       *socket,
                GIOCondition   condition,
                int            timeout_ms,
                gboolean       writing,
                GCancellable  *cancellable,
                GError       **error)
{
  GError *local = NULL;

  if (g_socket_condition_timed_wait (socket, condition,
                                     timeout_ms < 0 ? -1 : (gint64) timeout_ms * 1000,
                                     cancellable, &local))
    return 1;
  if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    {
      g_error_free (local);
      return 0;
    }
  translate_error (self, local, writing, error);
  return -1;
}

static gssize
tcp_read (TksTransport  *self,
          guint8        *buf,
          gsize          len,
          int            timeout_ms,
          GCancellable  *cancellable,
          GError       **error)
{
  GSocket *socket = g_socket_connection_get_socket (self->conn);

  for (;;)
    {
      GError *local = NULL;
      gssize n;
      int r;

      /* Take what has arrived; wait only when nothing has. */
      n = g_socket_receive_with_blocking (socket, (char *) buf, len, FALSE, cancellable, &local);
      if (n > 0)
        return n;
      if (n == 0)
        {
          g_set_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED,
                       _("%s closed the connection"), self->address);
          return -1;
        }
      if (!g_error_matches (local, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
        {
          translate_error (self, local, FALSE, error);
          return -1;
        }
      g_clear_error (&local);
      if (timeout_ms == 0)
        return 0;

      r = wait_condition (self, socket, G_IO_IN | G_IO_HUP | G_IO_ERR, timeout_ms,
                          FALSE, cancellable, error);
      if (r <= 0)
        return r;
    }
}

static gssize
tcp_write (TksTransport  *self,
           const guint8  *buf,
           gsize          len,
           int            timeout_ms,
           GCancellable  *cancellable,
           GError       **error)
{
  GSocket *socket = g_socket_connection_get_socket (self->conn);

  for (;;)
    {
      GError *local = NULL;
      int r = wait_condition (self, socket, G_IO_OUT, timeout_ms, TRUE, cancellable,
                              error);
      gssize n;

      if (r <= 0)
        return r;
      n = g_socket_send_with_blocking (socket, (const char *) buf, len, FALSE, cancellable, &local);
      if (n >= 0)
        return n;
      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
        {
          g_error_free (local);
          continue;
        }
      translate_error (self, local, TRUE, error);
      return -1;
    }
}

static void
tcp_close (TksTransport *self)
{
  if (self->conn != NULL)
    g_io_stream_close (G_IO_STREAM (self->conn), NULL, NULL);
  g_clear_object (&self->conn);
}

static gboolean
tcp_check (TksTransport  *self,
           GError       **error)
{
  return tks_transport_check_fd (g_socket_get_fd (g_socket_connection_get_socket (self->conn)),
                                 self->address, error);
}

static const TksTransportVTable tcp_vtable = { tcp_read, tcp_write, tcp_close, tcp_check };

TksTransport *
tks_transport_open_tcp (const char                *address,
                        const TksTransportOptions *options,
                        GCancellable              *cancellable,
                        GError                   **error)
{
  const char *host_port = address + strlen ("tcp:");
  guint timeout_ms = options && options->connect_timeout_ms ? options->connect_timeout_ms : 5000;
  g_autoptr(GSocketConnectable) connectable = NULL;
  g_autoptr(GSocketClient) client = NULL;
  g_autoptr(GSocketConnection) conn = NULL;
  g_autoptr(GError) local = NULL;
  TksTransport *self;
  GSocket *socket;

  connectable = g_network_address_parse (host_port, 0, &local);
  if (connectable == NULL || g_network_address_get_port (G_NETWORK_ADDRESS (connectable)) == 0)
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE,
                   _("“%s” is not a TCP address: write tcp:HOST:PORT, e.g. tcp:localhost:29001"),
                   address);
      return NULL;
    }

  client = g_socket_client_new ();
  g_socket_client_set_timeout (client, (timeout_ms + 999) / 1000);
  /* A board's shell (the ChibiOS simulator, ser2net) is reached directly: a desktop's web
   * proxy is not on the way to it, and asking for one would load the desktop's proxy modules
   * (and their settings) into a command-line tool. */
  g_socket_client_set_enable_proxy (client, FALSE);
  conn = g_socket_client_connect (client, connectable, cancellable, &local);
  if (conn == NULL)
    {
      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, g_steal_pointer (&local));
      else if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED))
        g_set_error (error, TKS_ERROR, TKS_ERROR_DISCONNECTED,
                     _("Connection to %s refused: is the server (ser2net, the board simulator) "
                       "running and listening on that port?"), host_port);
      else if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
        g_set_error (error, TKS_ERROR, TKS_ERROR_TIMEOUT,
                     /* Translators: the host and port, then a time in seconds */
                     _("No answer from %s within %u s: is the host reachable?"),
                     host_port, (timeout_ms + 999) / 1000);
      else
        g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Could not connect to %s: %s"),
                     host_port, local->message);
      return NULL;
    }

  socket = g_socket_connection_get_socket (conn);
  g_socket_set_timeout (socket, 0);
  g_socket_set_blocking (socket, FALSE);
  g_socket_set_option (socket, IPPROTO_TCP, TCP_NODELAY, 1, NULL);

  self = tks_transport_alloc (&tcp_vtable, TKS_TRANSPORT_TCP, address,
                              options ? options->baud : 0);
  self->conn = g_steal_pointer (&conn);
  self->description = g_strdup_printf ("TCP %s", host_port);
  return self;
}
