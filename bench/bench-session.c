/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include "tks-session.h"
#include "tks-test-wait.h"

/*
 * What a fetch costs over the link itself. Starts the simulated board program on TCP with a
 * 3,000-record log, freezes its log with a trigger, then reads the same replies (a) through a
 * TksSession fetch, as the viewer does, and (b) with plain blocking socket reads of the same
 * commands, and prints bytes/s both ways.
 *
 *   bench-session [PATH-TO-tickscope-simboard] [ROUNDS]
 */

static guint16
free_port (void)
{
  g_autoptr(GSocketListener) listener = g_socket_listener_new ();
  guint16 port = g_socket_listener_add_any_inet_port (listener, NULL, NULL);

  g_socket_listener_close (listener);
  return port;
}

/* One command over a plain socket: bytes until the prompt comes back at a line start. */
static gsize
raw_command (GSocket    *socket,
             const char *command)
{
  g_autofree char *line = g_strconcat (command, "\r\n", NULL);
  static char buf[65536];
  char tail[5] = { 0 };
  gsize total = 0;

  g_socket_send (socket, line, strlen (line), NULL, NULL);
  for (;;)
    {
      gssize n = g_socket_receive (socket, buf, sizeof buf, NULL, NULL);

      if (n <= 0)
        return total;
      total += (gsize) n;
      if (n >= 5)
        memcpy (tail, buf + n - 5, 5);
      else
        {
          memmove (tail, tail + n, (gsize) (5 - n));
          memcpy (tail + 5 - n, buf, (gsize) n);
        }
      if (memcmp (tail, "\nch> ", 5) == 0)
        return total;
    }
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double da = *(const double *) a, db = *(const double *) b;

  return da < db ? -1 : da > db;
}

static double
median (GArray *values)
{
  g_array_sort (values, compare_double);
  return g_array_index (values, double, values->len / 2);
}

int
main (int    argc,
      char **argv)
{
  const char *exe = argc > 1 ? argv[1] : g_getenv ("TKS_SIMBOARD");
  guint rounds = argc > 2 ? (guint) g_ascii_strtoull (argv[2], NULL, 10) : 10;
  g_autofree char *port = g_strdup_printf ("%u", free_port ());
  g_autofree char *address = g_strdup_printf ("tcp:127.0.0.1:%s", port);
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) board = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autofree char *line = NULL;
  TksWait wait = { g_main_loop_new (NULL, FALSE), NULL };

  if (exe == NULL)
    {
      fprintf (stderr, "usage: bench-session PATH-TO-tickscope-simboard [ROUNDS]\n");
      return 2;
    }
  board = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, exe, "--tcp", port,
                            "--log-size", "3000", "--speed", "20", NULL);
  if (board == NULL)
    {
      fprintf (stderr, "bench-session: %s\n", error->message);
      return 1;
    }
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (board));
  line = g_data_input_stream_read_line (out, NULL, NULL, &error);
  if (line == NULL)
    {
      fprintf (stderr, "bench-session: the board did not start\n");
      return 1;
    }

  for (int legacy = 0; legacy <= 1; legacy++)
    {
      g_autoptr(TksSession) session = tks_session_new ();
      g_autoptr(GArray) fetch_s = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) raw_s = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) cmd_s = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GSocketClient) client = g_socket_client_new ();
      g_autoptr(GSocketConnection) conn = NULL;
      g_autoptr(GSocketConnectable) connectable = NULL;
      guint64 fetch_bytes = 0;
      gsize raw_bytes = 0;
      guint records = 0;
      double f, r;

      tks_session_set_save_history (session, FALSE);
      tks_session_set_prefer_snapshot (session, legacy == 0);
      tks_session_connect_async (session, address, NULL, tks_wait_done, &wait);
      if (!tks_session_connect_finish (session, tks_wait_for (&wait), &error))
        {
          fprintf (stderr, "bench-session: %s\n", error->message);
          return 1;
        }
      if (legacy == 0)
        {
          g_autofree char *reply = NULL;

          /* fill the log (20x speed), then freeze it */
          g_usleep (3 * G_USEC_PER_SEC);
          tks_session_trigger_async (session, NULL, tks_wait_done, &wait);
          reply = tks_session_trigger_finish (session, tks_wait_for (&wait), &error);
          if (reply == NULL)
            {
              fprintf (stderr, "bench-session: %s\n", error->message);
              return 1;
            }
          g_usleep (2 * G_USEC_PER_SEC);
        }

      for (guint i = 0; i < rounds; i++)
        {
          g_autoptr(TksCapture) capture = NULL;
          gint64 t0 = g_get_monotonic_time ();
          double s;

          tks_session_fetch_async (session, NULL, tks_wait_done, &wait);
          capture = tks_session_fetch_finish (session, tks_wait_for (&wait), &error);
          if (capture == NULL)
            {
              fprintf (stderr, "bench-session: %s\n", error->message);
              return 1;
            }
          s = (g_get_monotonic_time () - t0) / 1e6;
          g_array_append_val (fetch_s, s);
          records = tks_capture_get_n_records (capture);
        }
      /* the transfer alone: the same commands through the session, not rebuilt */
      for (guint i = 0; i < rounds; i++)
        {
          const char *commands[] = { "threads_dump", NULL, NULL };
          gint64 t0 = g_get_monotonic_time ();
          double s;

          if (legacy)
            {
              commands[0] = "threads_list";
              commands[1] = "threads_timestamps";
            }
          for (guint c = 0; commands[c] != NULL; c++)
            {
              g_autofree char *reply = NULL;

              tks_session_command_async (session, commands[c], NULL, tks_wait_done, &wait);
              reply = tks_session_command_finish (session, tks_wait_for (&wait), &error);
              if (reply == NULL)
                {
                  fprintf (stderr, "bench-session: %s\n", error->message);
                  return 1;
                }
            }
          s = (g_get_monotonic_time () - t0) / 1e6;
          g_array_append_val (cmd_s, s);
        }
      /* the bytes of one fetch, measured on the raw socket below */
      tks_session_disconnect (session);

      connectable = g_network_address_parse (address + 4, 0, NULL);
      conn = g_socket_client_connect (client, connectable, NULL, &error);
      if (conn == NULL)
        {
          fprintf (stderr, "bench-session: %s\n", error->message);
          return 1;
        }
      g_socket_set_option (g_socket_connection_get_socket (conn), IPPROTO_TCP, TCP_NODELAY, 1, NULL);
      raw_command (g_socket_connection_get_socket (conn), "");
      for (guint i = 0; i < rounds; i++)
        {
          gint64 t0 = g_get_monotonic_time ();
          double s;

          if (legacy)
            raw_bytes = raw_command (g_socket_connection_get_socket (conn), "threads_list")
                        + raw_command (g_socket_connection_get_socket (conn), "threads_timestamps");
          else
            raw_bytes = raw_command (g_socket_connection_get_socket (conn), "threads_dump");
          s = (g_get_monotonic_time () - t0) / 1e6;
          g_array_append_val (raw_s, s);
        }
      g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
      fetch_bytes = raw_bytes;

      f = median (fetch_s);
      r = median (raw_s);
      printf ("%-28s %u records, %" G_GUINT64_FORMAT " bytes, median of %u\n",
              legacy ? "threads_list + timestamps:" : "threads_dump:", records, fetch_bytes, rounds);
      printf ("  session fetch (rebuilt)  %8.2f ms  %10.0f bytes/s\n", f * 1e3, fetch_bytes / f);
      printf ("  session transfer only    %8.2f ms  %10.0f bytes/s\n", median (cmd_s) * 1e3,
              fetch_bytes / median (cmd_s));
      printf ("  raw socket read          %8.2f ms  %10.0f bytes/s\n", r * 1e3, raw_bytes / r);
      printf ("  fetch / raw              %8.2f\n", f / r);
      printf ("  at 115200 baud the link alone takes %.2f s; the fetch adds %.1f %%\n",
              fetch_bytes / 11520.0, 100.0 * (f - r) / (fetch_bytes / 11520.0));
    }

  g_subprocess_force_exit (board);
  g_subprocess_wait (board, NULL, NULL);
  g_clear_object (&wait.result);
  g_main_loop_unref (wait.loop);
  return 0;
}
