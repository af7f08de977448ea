/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * hostile-board: the test board of tks-hostile-board.c as a program, for the end-to-end tests.
 *   hostile-board --tcp PORT --mode MODE [--target COMMAND] [--good N] [--max-mb MB]
 *   hostile-board --pty ... (prints the pty's path on standard output)
 * Serves every connection to 127.0.0.1:PORT (or the pty) until killed.
 */
#define _GNU_SOURCE
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <gio/gio.h>

#include "tks-hostile-board.h"

int
main (int    argc,
      char **argv)
{
  int port = 0;
  gboolean pty = FALSE;
  g_autofree char *mode_name = NULL;
  g_autofree char *target = NULL;
  int good = 0;
  int max_mb = 0;
  GOptionEntry entries[] = {
    { "tcp", 0, 0, G_OPTION_ARG_INT, &port, "Serve TCP on 127.0.0.1:PORT", "PORT" },
    { "pty", 0, 0, G_OPTION_ARG_NONE, &pty, "Serve a pty and print its path", NULL },
    { "mode", 0, 0, G_OPTION_ARG_STRING, &mode_name,
      "none, no-prompt, endless-line, endless, mid-prompt, nul-damage, trickle, mid-prompt-pause, "
      "steady", "MODE" },
    { "target", 0, 0, G_OPTION_ARG_STRING, &target,
      "The command answered that way (default threads_timestamps)", "COMMAND" },
    { "good", 0, 0, G_OPTION_ARG_INT, &good, "Answer it well this many times first", "N" },
    { "max-mb", 0, 0, G_OPTION_ARG_INT, &max_mb, "Endless replies stop after this", "MB" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  TksHostileMode mode;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "hostile-board: %s\n", error->message);
      return 2;
    }
  mode = tks_hostile_mode_from_string (mode_name ? mode_name : "none");
  if ((int) mode < 0 || (port <= 0 && !pty) || good < 0 || max_mb < 0)
    {
      fprintf (stderr, "hostile-board: give --tcp PORT or --pty, and a known --mode\n");
      return 2;
    }
  if (target == NULL)
    target = g_strdup ("threads_timestamps");

  if (pty)
    {
      int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);

      if (master < 0 || grantpt (master) != 0 || unlockpt (master) != 0)
        {
          perror ("hostile-board: pty");
          return 1;
        }
      printf ("%s\n", ptsname (master));
      fflush (stdout);
      tks_hostile_board_start (master, mode, target, (guint) good, (guint64) max_mb << 20);
      for (;;)
        pause ();
    }
  else
    {
      g_autoptr(GSocketListener) listener = g_socket_listener_new ();
      g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
      g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, (guint16) port);

      if (!g_socket_listener_add_address (listener, address, G_SOCKET_TYPE_STREAM,
                                          G_SOCKET_PROTOCOL_TCP, NULL, NULL, &error))
        {
          fprintf (stderr, "hostile-board: %s\n", error->message);
          return 1;
        }
      for (;;)
        {
          g_autoptr(GSocketConnection) conn = g_socket_listener_accept (listener, NULL, NULL, &error);

          if (conn == NULL)
            {
              fprintf (stderr, "hostile-board: %s\n", error->message);
              return 1;
            }
          /* each connection its own board, left running until the program is killed */
          tks_hostile_board_start (dup (g_socket_get_fd (g_socket_connection_get_socket (conn))),
                                   mode, target, (guint) good, (guint64) max_mb << 20);
        }
    }
  return 0;
}
