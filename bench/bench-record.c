/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Continuous recording (TksRecorder) from the simulated board program over TCP: events per
 * second, drops, bytes per event and the recorder's resident memory every few seconds of a
 * run, then the time to open the file it wrote as a capture.
 *
 * Usage: bench-record SIMBOARD [SECONDS [BAUD [SPEED [WORKERS]]]]
 *   SECONDS  length of the run (default 60)
 *   BAUD     the board's serial line (default 115200; 0: as fast as TCP takes it)
 *   SPEED    simulated seconds per real second (default 1; 60 with BAUD 0 records an hour of
 *            the board in a minute, for the time to reopen an hour's file)
 *   WORKERS  extra threads of the board (default 0; 6 brings its workload above 3,500
 *            switches per second)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "bench-common.h"
#include "tks-capture.h"
#include "tks-recorder.h"
#include "tks-transport.h"
#include "tks-test-port.h"

static long
rss_kib (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) ||
      (line = strstr (status, "VmRSS:")) == NULL)
    return -1;
  return strtol (line + strlen ("VmRSS:"), NULL, 10);
}

int
main (int argc, char *argv[])
{
  const char *exe = argc > 1 ? argv[1] : NULL;
  double seconds = argc > 2 ? g_ascii_strtod (argv[2], NULL) : 60;
  const char *baud = argc > 3 ? argv[3] : "115200";
  const char *speed = argc > 4 ? argv[4] : "1";
  const char *workers = argc > 5 ? argv[5] : "0";
  g_autofree char *port = g_strdup_printf ("%u", free_port ());
  g_autofree char *address = g_strdup_printf ("tcp:127.0.0.1:%s", port);
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "tks-bench-record.txt", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) board = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(TksRecorder) recorder = NULL;
  g_autoptr(TksCapture) capture = NULL;
  TksTransport *transport = NULL;
  TksRecorderStats st, prev = { 0 };
  gint64 begin, next_report;
  double prev_t = 0;
  guint64 t0;
  int attempts = 0;

  if (exe == NULL || seconds <= 0)
    {
      fprintf (stderr, "usage: %s SIMBOARD [SECONDS [BAUD [SPEED [WORKERS]]]]\n", argv[0]);
      return 2;
    }
  g_ptr_array_add (args, (gpointer) exe);
  g_ptr_array_add (args, (gpointer) "--tcp");
  g_ptr_array_add (args, port);
  if (strcmp (baud, "0") != 0)
    {
      g_ptr_array_add (args, (gpointer) "--baud");
      g_ptr_array_add (args, (gpointer) baud);
    }
  g_ptr_array_add (args, (gpointer) "--speed");
  g_ptr_array_add (args, (gpointer) speed);
  g_ptr_array_add (args, (gpointer) "--workers");
  g_ptr_array_add (args, (gpointer) workers);
  g_ptr_array_add (args, NULL);
  board = g_subprocess_newv ((const char * const *) args->pdata,
                             G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                             &error);
  if (board == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  while (transport == NULL && attempts++ < 50)
    {
      g_clear_error (&error);
      transport = tks_transport_open (address, NULL, NULL, &error);
      if (transport == NULL)
        g_usleep (100000);
    }
  if (transport == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      g_subprocess_force_exit (board);
      return 1;
    }
  recorder = tks_recorder_new (path, &error);
  /* The board's keep-alive timeout runs on its clock: 3 s of it pass sooner at a higher
   * speed. */
  if (recorder != NULL)
    tks_recorder_set_keepalive_interval (recorder, (guint) (1000 / MAX (g_ascii_strtod (speed, NULL), 1.0)));
  if (recorder == NULL || !tks_recorder_start (recorder, transport, NULL, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      g_subprocess_force_exit (board);
      return 1;
    }

  printf ("Recording from tickscope-simboard (baud %s, speed %s, workers %s) for %.0f s:\n",
          baud, speed, workers, seconds);
  printf ("%8s %10s %10s %10s %10s %12s %10s\n", "time s", "events", "events/s", "dropped",
          "damaged", "bytes/event", "RSS KiB");
  begin = g_get_monotonic_time ();
  next_report = begin + 5 * G_USEC_PER_SEC;
  for (;;)
    {
      gint64 now = g_get_monotonic_time ();

      if (now >= next_report || now - begin >= (gint64) (seconds * G_USEC_PER_SEC))
        {
          tks_recorder_get_stats (recorder, &st);
          printf ("%8.1f %10" G_GUINT64_FORMAT " %10.0f %10" G_GUINT64_FORMAT " %10u %12.2f %10ld\n",
                  st.seconds, st.entries,
                  (double) (st.entries - prev.entries) / MAX (st.seconds - prev_t, 1e-3),
                  st.dropped, st.damaged,
                  st.entries > 0 ? (double) st.bytes / (double) st.entries : 0.0, rss_kib ());
          fflush (stdout);
          prev = st;
          prev_t = st.seconds;
          next_report += 5 * G_USEC_PER_SEC;
          if (now - begin >= (gint64) (seconds * G_USEC_PER_SEC))
            break;
        }
      if (!tks_recorder_step (recorder, 50, NULL, &error))
        {
          fprintf (stderr, "the recording ended: %s\n", error->message);
          break;
        }
      tks_recorder_get_stats (recorder, &st);
      if (st.ended)
        {
          fprintf (stderr, "the board ended the recording\n");
          break;
        }
    }
  g_clear_error (&error);
  if (!tks_recorder_stop (recorder, NULL, &error) || !tks_recorder_close (recorder, &error))
    fprintf (stderr, "%s\n", error->message);
  g_clear_error (&error);
  tks_recorder_get_stats (recorder, &st);
  printf ("Total: %" G_GUINT64_FORMAT " events in %.1f s (%.0f events/s), %" G_GUINT64_FORMAT
          " dropped, %" G_GUINT64_FORMAT " bytes (%.2f bytes/event), recorder RSS %ld KiB\n",
          st.entries, st.seconds, st.entries / MAX (st.seconds, 1e-3), st.dropped, st.bytes,
          st.entries > 0 ? (double) st.bytes / (double) st.entries : 0.0, rss_kib ());
  g_subprocess_force_exit (board);
  g_subprocess_wait (board, NULL, NULL);

  t0 = now_ns ();
  capture = tks_capture_new_from_file (path, &error);
  if (capture == NULL)
    {
      fprintf (stderr, "reopening: %s\n", error->message);
      return 1;
    }
  printf ("Reopened as a capture in %.3f s: %u records, %.0f ticks (%.1f min of the board)\n",
          (now_ns () - t0) / 1e9, tks_capture_get_n_records (capture),
          tks_capture_get_end (capture) - tks_capture_get_start (capture),
          (tks_capture_get_end (capture) - tks_capture_get_start (capture)) /
          tks_capture_get_tick_hz (capture) / 60.0);
  g_unlink (path);
  return 0;
}
