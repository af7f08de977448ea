/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The viewer's live view while it records, headless: a recording FILE (made by tickscope-cli
 * record, or by the viewer's Record) is written again into a file one second of it at a time,
 * and after each second the live view's work is done as the window does it:
 *
 *   - in a worker thread (off the main loop): the recording's tail reads what the file gained
 *     and composes its last minute (TksRecordingTail), which is parsed and rebuilt into a
 *     capture; then the coverage summaries of that capture;
 *   - on the main loop: the lanes of the new capture (the threads panel's list), then the
 *     timeline's image of the rolling view, the last ROLL seconds at WIDTHxHEIGHT (what the
 *     timeline widget draws, in a worker, for each new capture, and then only shows until
 *     the next): the first one before the capture's summaries are ready, then FRAMES more
 *     with them; the overview under it (the whole live capture, drawn again once for each new
 *     capture).
 *
 * Prints the median and worst of each, and the capture's size. Goal: frames <= 8 ms.
 *
 * Usage: bench-live-view FILE [--width W] [--height H] [--frames N] [--roll SECONDS]
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>

#include <glib/gstdio.h>
#include <pango/pangocairo.h>

#include "bench-common.h"
#include "bench-render.h"
#include "tks-capture.h"
#include "tks-coverage.h"
#include "tks-lane-list.h"
#include "tks-recording-tail.h"
#include "tks-timeline-image.h"

/* as the window asks of the tail (tks-window-record.c) */
#define LIVE_SECONDS   60.0
#define LIVE_MIN_BYTES (256 * 1024)
#define LIVE_MAX_BYTES (8 * 1024 * 1024)

/* "median X ms, worst Y ms" of @times (sorted here). */
static void
print_times (const char *what,
             GArray     *times)
{
  if (times->len == 0)
    return;
  g_array_sort (times, bench_compare_double);
  printf ("  %-36s median %7.3f ms, worst %7.3f ms (%u)\n", what,
          g_array_index (times, double, times->len / 2),
          g_array_index (times, double, times->len - 1), times->len);
}

static double
elapsed_ms (guint64 since)
{
  return (now_ns () - since) / 1e6;
}

/* The overview under the timeline, drawn again for each new capture: the whole live
 * capture's lanes (without the summaries), OVERVIEW px high. */
#define OVERVIEW 56
static double
overview_ms (TksCapture *capture,
             int         width)
{
  guint64 t = now_ns ();

  bench_overview_image (capture, width, OVERVIEW);
  return elapsed_ms (t);
}

/* The timeline's image as the widget draws it for a capture, timed. */
static double
frame_ms (TksCapture                *capture,
          const TksTimelineGeometry *g,
          TksCoverageRef            *coverage,
          PangoContext              *pango,
          int                        width,
          int                        height)
{
  guint64 t = now_ns ();

  bench_timeline_image (capture, g, coverage, pango, width, height);
  return elapsed_ms (t);
}

int
main (int   argc,
      char *argv[])
{
  const char *source = NULL;
  int width = 1280, height = 800;
  guint frames = 10;
  double roll = 5.0;
  g_autofree char *data = NULL;
  gsize len = 0, written = 0, per_second;
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) whole = NULL;
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "tks-bench-live-view.txt", NULL);
  g_autoptr(TksRecordingTail) tail = NULL;
  g_autoptr(GArray) parse = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) coverage_t = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) lanes_t = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) first_t = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) frame_t = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) overview_t = g_array_new (FALSE, FALSE, sizeof (double));
  PangoContext *pango;
  FILE *out;
  double seconds, hz;
  guint records = 0, threads = 0, steps = 0;

  setlocale (LC_ALL, "C");
  g_type_ensure (GSK_TYPE_COLOR_NODE);
  for (int a = 1; a < argc; a++)
    {
      if (a + 1 < argc && g_str_equal (argv[a], "--width"))
        width = atoi (argv[++a]);
      else if (a + 1 < argc && g_str_equal (argv[a], "--height"))
        height = atoi (argv[++a]);
      else if (a + 1 < argc && g_str_equal (argv[a], "--frames"))
        {
          /* not inside MAX (), which evaluates its arguments twice */
          int n = atoi (argv[++a]);

          frames = (guint) MAX (1, n);
        }
      else if (a + 1 < argc && g_str_equal (argv[a], "--roll"))
        roll = g_ascii_strtod (argv[++a], NULL);
      else
        source = argv[a];
    }
  if (source == NULL || width < 400 || height < 200 || !(roll > 0))
    {
      fprintf (stderr, "usage: %s FILE [--width W] [--height H] [--frames N] [--roll SECONDS]\n", argv[0]);
      return 2;
    }
  if (!g_file_get_contents (source, &data, &len, &error) ||
      (whole = tks_capture_new_from_data (data, len, &error)) == NULL)
    {
      fprintf (stderr, "bench-live-view: %s\n", error->message);
      return 1;
    }
  hz = tks_capture_get_tick_hz (whole);
  seconds = (tks_capture_get_end (whole) - tks_capture_get_start (whole)) / hz;
  if (!(seconds >= 2))
    {
      fprintf (stderr, "bench-live-view: %s spans %.1f s: record longer\n", source, seconds);
      return 1;
    }
  per_second = (gsize) (len / seconds);
  printf ("bench-live-view: %s, %u records over %.0f s (%zu bytes/s), %dx%d, the last %.0f s shown\n",
          source, tks_capture_get_n_records (whole), seconds, per_second, width, height, roll);
  g_clear_object (&whole);

  pango = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  tks_timeline_warm_up_fonts (pango);
  out = g_fopen (path, "wb");
  if (out == NULL)
    return 1;
  tail = tks_recording_tail_new (path, LIVE_MIN_BYTES);
  tks_recording_tail_set_max_bytes (tail, (gsize) CLAMP (per_second * LIVE_SECONDS, LIVE_MIN_BYTES,
                                                         LIVE_MAX_BYTES));
  while (written < len)
    {
      gsize n = MIN (per_second, len - written);
      g_autoptr(GBytes) text = NULL;
      g_autoptr(TksCapture) capture = NULL;
      g_autoptr(TksLaneList) lanes = NULL;
      g_autoptr(TksCoverageRef) coverage = NULL;
      TksTimelineGeometry g = { 0 };
      const char *bytes;
      gsize n_bytes;
      guint64 t;

      fwrite (data + written, 1, n, out);
      fflush (out);
      written += n;

      /* the worker: the tail, its parse and rebuild, then the summaries */
      t = now_ns ();
      if (!tks_recording_tail_update (tail, &error))
        {
          fprintf (stderr, "bench-live-view: %s\n", error->message);
          return 1;
        }
      text = tks_recording_tail_compose (tail);
      if (text == NULL)
        continue;
      bytes = g_bytes_get_data (text, &n_bytes);
      capture = tks_capture_new_from_data (bytes, n_bytes, NULL);
      if (capture == NULL)
        continue;
      g_array_append_val (parse, (double) { elapsed_ms (t) });
      t = now_ns ();
      coverage = tks_coverage_ref_new (tks_coverage_new (capture));
      g_array_append_val (coverage_t, (double) { elapsed_ms (t) });

      /* the main loop: the lanes, then the frames of the rolling view */
      t = now_ns ();
      lanes = tks_lane_list_new (capture, FALSE, 1000);
      g_array_append_val (lanes_t, (double) { elapsed_ms (t) });
      g.x1 = tks_capture_get_end (capture);
      g.x0 = MAX (tks_capture_get_start (capture), g.x1 - roll * hz);
      g.left = TKS_TIMELINE_HEADER_WIDTH;
      g.width = width - TKS_TIMELINE_HEADER_WIDTH;
      g.top = TKS_TIMELINE_RULER_HEIGHT;
      g.bottom = height;
      g.lane_height = TKS_TIMELINE_LANE_HEIGHT;
      g.tick_hz = hz;
      g.n_event_lanes = tks_timeline_n_event_lanes (capture);
      g.lanes = tks_lane_list_get_lanes (lanes, &g.n_lanes);
      /* the first frame comes before the summaries are ready, the others after */
      g_array_append_val (first_t, (double) { frame_ms (capture, &g, NULL, pango, width, height) });
      g_array_append_val (overview_t, (double) { overview_ms (capture, width) });
      g.coverage = tks_coverage_ref_get (coverage);
      for (guint f = 0; f < frames; f++)
        g_array_append_val (frame_t, (double) { frame_ms (capture, &g, coverage, pango, width,
                                                          height) });
      records = tks_capture_get_n_records (capture);
      threads = tks_capture_get_n_threads (capture);
      g_clear_pointer (&coverage, tks_coverage_ref_unref);
      steps++;
    }
  fclose (out);
  g_remove (path);

  printf ("  %u seconds replayed; the live capture holds %u records, %u threads at the end\n",
          steps, records, threads);
  printf (" in a worker thread, each second:\n");
  print_times ("tail, parse and rebuild:", parse);
  print_times ("coverage summaries:", coverage_t);
  printf (" on the main loop:\n");
  print_times ("lanes of the new capture:", lanes_t);
  printf (" in a worker thread, each new capture (the window shows the image it had meanwhile):\n");
  print_times ("timeline image, before the summaries:", first_t);
  print_times ("timeline image, with the summaries:", frame_t);
  print_times ("overview of the whole live capture:", overview_t);
  printf ("  goal: <= 8 ms per frame (the frames themselves show the images: see "
          "record-viewer.sh)\n");
  g_object_unref (pango);
  return 0;
}
