/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include "bench-common.h"
#include "tks-session.h"
#include "tks-test-wait.h"

/*
 * What a fetch costs over the link itself. Starts the simulated board program on TCP with a
 * 3,000-record log and freezes its log with a trigger, then reads the same replies, in
 * alternating blocks, (a) through a TksSession fetch as the viewer does (read, rebuilt, handed
 * to the main loop), (b) through the session without reading them into a capture, and (c) with
 * plain blocking socket reads: the link's own transfer time. Prints medians and bytes/s, for a
 * board that sends its output as it prints (256-byte packets, the simulated board's default)
 * and for one that sends each reply whole.
 *
 *   bench-session [PATH-TO-tickscope-simboard] [ROUNDS]
 *   bench-session tcp:HOST:PORT [ROUNDS]     the same against a board already listening there
 */

#define BLOCKS 5

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

static double
median (GArray *values)
{
  g_array_sort (values, bench_compare_double);
  return g_array_index (values, double, values->len / 2);
}

typedef struct
{
  GArray  *fetch_s;
  GArray  *transfer_s;
  GArray  *raw_s;
  guint64  bytes;
  guint    records;
  gboolean no_snapshot;   /* the board has no threads_dump */
} Figures;

static gboolean
fail (const char *what,
      GError     *error)
{
  fprintf (stderr, "bench-session: %s: %s\n", what, error->message);
  return FALSE;
}

static gboolean
session_block (const char *address,
               gboolean    legacy,
               guint       rounds,
               TksWait    *wait,
               Figures    *fig)
{
  g_autoptr(TksSession) session = tks_session_new ();
  g_autoptr(GError) error = NULL;
  const char *commands[] = { "threads_dump", NULL, NULL };

  if (legacy)
    {
      commands[0] = "threads_list";
      commands[1] = "threads_timestamps";
    }
  tks_session_set_save_history (session, FALSE);
  tks_session_set_prefer_snapshot (session, !legacy);
  tks_session_connect_async (session, address, NULL, tks_wait_done, wait);
  if (!tks_session_connect_finish (session, tks_wait_for (wait), &error))
    return fail ("connect", error);
  if (!legacy && !tks_session_has_snapshot_command (session))
    {
      fig->no_snapshot = TRUE;
      return FALSE;
    }

  for (guint i = 0; i < rounds; i++)
    {
      g_autoptr(TksCapture) capture = NULL;
      gint64 t0 = g_get_monotonic_time ();
      double s;

      tks_session_fetch_async (session, NULL, tks_wait_done, wait);
      capture = tks_session_fetch_finish (session, tks_wait_for (wait), &error);
      if (capture == NULL)
        return fail ("fetch", error);
      s = (g_get_monotonic_time () - t0) / 1e6;
      g_array_append_val (fig->fetch_s, s);
      fig->records = tks_capture_get_n_records (capture);

      /* the same commands through the session, not read into a capture */
      t0 = g_get_monotonic_time ();
      for (guint c = 0; commands[c] != NULL; c++)
        {
          g_autofree char *reply = NULL;

          tks_session_command_async (session, commands[c], NULL, tks_wait_done, wait);
          reply = tks_session_command_finish (session, tks_wait_for (wait), &error);
          if (reply == NULL)
            return fail (commands[c], error);
        }
      s = (g_get_monotonic_time () - t0) / 1e6;
      g_array_append_val (fig->transfer_s, s);
    }
  tks_session_disconnect (session);
  return TRUE;
}

static gboolean
raw_block (const char *address,
           gboolean    legacy,
           guint       rounds,
           Figures    *fig)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnectable) connectable = g_network_address_parse (address + 4, 0, NULL);
  g_autoptr(GSocketConnection) conn = NULL;
  g_autoptr(GError) error = NULL;
  GSocket *socket;

  conn = g_socket_client_connect (client, connectable, NULL, &error);
  if (conn == NULL)
    return fail ("raw connect", error);
  socket = g_socket_connection_get_socket (conn);
  g_socket_set_option (socket, IPPROTO_TCP, TCP_NODELAY, 1, NULL);
  raw_command (socket, "");
  for (guint i = 0; i < rounds; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      double s;

      if (legacy)
        fig->bytes = raw_command (socket, "threads_list") + raw_command (socket, "threads_timestamps");
      else
        fig->bytes = raw_command (socket, "threads_dump");
      s = (g_get_monotonic_time () - t0) / 1e6;
      g_array_append_val (fig->raw_s, s);
    }
  g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
  return TRUE;
}

static gboolean
freeze_log (const char *address,
            TksWait    *wait)
{
  g_autoptr(TksSession) session = tks_session_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = NULL;

  tks_session_connect_async (session, address, NULL, tks_wait_done, wait);
  if (!tks_session_connect_finish (session, tks_wait_for (wait), &error))
    return fail ("connect", error);
  /* fill the log (20x speed), then freeze it */
  g_usleep (3 * G_USEC_PER_SEC);
  tks_session_trigger_async (session, NULL, tks_wait_done, wait);
  reply = tks_session_trigger_finish (session, tks_wait_for (wait), &error);
  if (reply == NULL)
    return fail ("trigger", error);
  g_usleep (G_USEC_PER_SEC);
  tks_session_disconnect (session);
  return TRUE;
}

static void
print_figures (const char *what,
               Figures    *fig)
{
  double f = median (fig->fetch_s), t = median (fig->transfer_s), r = median (fig->raw_s);

  printf ("  %-26s %u records, %" G_GUINT64_FORMAT " bytes, medians of %u\n",
          what, fig->records, fig->bytes, fig->fetch_s->len);
  printf ("    session fetch (rebuilt)  %7.2f ms  %5.1f MB/s\n", f * 1e3, fig->bytes / f / 1e6);
  printf ("    session transfer only    %7.2f ms  %5.1f MB/s\n", t * 1e3, fig->bytes / t / 1e6);
  printf ("    raw socket read          %7.2f ms  %5.1f MB/s\n", r * 1e3, fig->bytes / r / 1e6);
  printf ("    fetch / raw              %7.2f\n", f / r);
  printf ("    at 115200 baud the bytes take %.2f s; the fetch adds %+.3f %%\n",
          fig->bytes / 11520.0, 100.0 * (f - r) / (fig->bytes / 11520.0));
}

static void
figures_clear (Figures *fig)
{
  g_array_unref (fig->fetch_s);
  g_array_unref (fig->transfer_s);
  g_array_unref (fig->raw_s);
}

/* @settle_us: how long the board needs after a disconnection to serve the next one (a
 * ChibiOS simulator starts a new shell thread). */
static int
measure (const char *address,
         guint       rounds,
         gulong      settle_us,
         TksWait    *wait)
{
  int status = 0;

  if (!freeze_log (address, wait))
    status = 1;
  for (int legacy = 0; legacy <= 1 && status == 0; legacy++)
    {
      Figures fig = { g_array_new (FALSE, FALSE, sizeof (double)),
                      g_array_new (FALSE, FALSE, sizeof (double)),
                      g_array_new (FALSE, FALSE, sizeof (double)), 0, 0 };

      /* alternating blocks, so that a change in the machine's load hits all three alike */
      for (guint b = 0; b < BLOCKS && status == 0; b++)
        {
          g_usleep (settle_us);
          if (!session_block (address, legacy, MAX (rounds / BLOCKS, 1), wait, &fig))
            status = 1;
          g_usleep (settle_us);
          if (status == 0 && !raw_block (address, legacy, MAX (rounds / BLOCKS, 1), &fig))
            status = 1;
        }
      if (fig.no_snapshot)
        {
          printf ("  (the board has no threads_dump)\n");
          status = 0;
        }
      else if (status == 0)
        print_figures (legacy ? "threads_list + timestamps:" : "threads_dump:", &fig);
      figures_clear (&fig);
    }
  return status;
}

static int
run_board (const char *exe,
           guint       packet,
           guint       rounds,
           TksWait    *wait)
{
  g_autofree char *port = g_strdup_printf ("%u", free_port ());
  g_autofree char *address = g_strdup_printf ("tcp:127.0.0.1:%s", port);
  g_autofree char *packet_arg = g_strdup_printf ("%u", packet);
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) board = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autofree char *line = NULL;
  int status;

  board = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, exe, "--tcp", port,
                            "--log-size", "3000", "--speed", "20", "--packet", packet_arg,
                            "--no-events", NULL);
  if (board == NULL)
    return fail ("simulated board", error), 1;
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (board));
  line = g_data_input_stream_read_line (out, NULL, NULL, &error);
  if (line == NULL)
    {
      fprintf (stderr, "bench-session: the board did not start\n");
      return 1;
    }

  if (packet > 0)
    printf ("Board sending its output as it prints, in %u-byte packets:\n", packet);
  else
    printf ("Board sending each reply whole:\n");
  status = measure (address, rounds, 0, wait);

  g_subprocess_force_exit (board);
  g_subprocess_wait (board, NULL, NULL);
  return status;
}

int
main (int    argc,
      char **argv)
{
  const char *exe = argc > 1 ? argv[1] : g_getenv ("TKS_SIMBOARD");
  guint rounds = argc > 2 ? (guint) g_ascii_strtoull (argv[2], NULL, 10) : 50;
  TksWait wait = { 0 };
  int status;

  if (exe == NULL)
    {
      fprintf (stderr, "usage: bench-session PATH-TO-tickscope-simboard [ROUNDS]\n");
      return 2;
    }
  if (g_str_has_prefix (exe, "tcp:"))
    {
      printf ("Board at %s:\n", exe);
      status = measure (exe, rounds, G_USEC_PER_SEC, &wait);
    }
  else
    {
      status = run_board (exe, 256, rounds, &wait);
      if (status == 0)
        status = run_board (exe, 0, rounds, &wait);
    }

  tks_wait_clear (&wait);
  return status;
}
