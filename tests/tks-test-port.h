/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

/* A TCP port free on this machine now, for a board program to listen on. */
static inline guint16
free_port (void)
{
  g_autoptr(GSocketListener) listener = g_socket_listener_new ();
  g_autoptr(GError) error = NULL;
  guint16 port = g_socket_listener_add_any_inet_port (listener, NULL, &error);

  g_assert_no_error (error);
  g_socket_listener_close (listener);
  return port;
}
