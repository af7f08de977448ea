/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Render benchmark of the timeline's drawing code, headless, at 1920x1080: a synthetic
 * 1,000,000-record capture drawn in full and zoomed to 1 % of its length, the two ways the
 * viewer draws it: the timeline widget's image (TksTimelineImage, which the widget draws
 * once for each view or new capture, in a worker for a new capture, and then only shows),
 * and an export's rasterisation (tks_timeline_render_cairo()). Prints milliseconds per image:
 * the first image of a capture (into a new surface) and the median of the next ones (into the
 * surface drawn into before, as the widget does), each in wall time and in time on a
 * processor (which a busy machine's waits leave out), and the page faults they took.
 *
 * As in the viewer, the coverage summaries are built after the load (in the viewer: in a
 * worker thread) and the fonts are loaded before the first image (in the viewer: when the
 * window is realized); both are timed apart. --no-summaries draws without the summaries.
 *
 * Usage: render-bench [--records N] [--frames N]
 */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include <pango/pangocairo.h>

#include "tks-capture.h"
#include "tks-coverage.h"
#include "bench-render.h"
#include "test-view-synthetic.h"

#define WIDTH  1920
#define HEIGHT 1080

/* The lanes as the window draws them: the threads panel's list (nothing hidden or grouped
 * in this capture, but the lanes come through it). */
static TksLaneList *lane_list;

static void
geometry_for (TksCapture          *capture,
              double               fraction,
              TksTimelineGeometry *g)
{
  double start = tks_capture_get_start (capture);
  double end = tks_capture_get_end (capture);
  double span = (end - start) * fraction;

  memset (g, 0, sizeof *g);
  g->x0 = start + (end - start - span) / 2;
  g->x1 = g->x0 + span;
  g->left = TKS_TIMELINE_HEADER_WIDTH;
  g->width = WIDTH - TKS_TIMELINE_HEADER_WIDTH;
  g->top = TKS_TIMELINE_RULER_HEIGHT;
  g->bottom = HEIGHT;
  g->lane_height = TKS_TIMELINE_LANE_HEIGHT;
  g->v_offset = 0;
  g->tick_hz = 1000;
  g->all_lanes = FALSE;
  g->coverage = NULL;
  g->lanes = tks_lane_list_get_lanes (lane_list, &g->n_lanes);
}

/* The widget's image of a view, into the surface it drew into before */
static cairo_surface_t *image_surface;

static void
frame_image (TksCapture                *capture,
             const TksTimelineGeometry *g,
             TksCoverageRef            *coverage,
             PangoContext              *pango)
{
  bench_timeline_image_into (capture, g, coverage, pango, image_surface, WIDTH, HEIGHT);
}

/* One frame rasterised by cairo, as an export does. */
static void
frame_cairo (TksCapture                *capture,
             const TksTimelineGeometry *g,
             cairo_surface_t           *surface)
{
  cairo_t *cr = cairo_create (surface);

  tks_timeline_render_cairo (capture, g, cr, WIDTH, HEIGHT, FALSE);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
}

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

/* The time this thread spent on a processor, ms: on a machine shared with other work, what
 * the drawing itself costs, where the wall time also holds the waits for a processor. */
static double
cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static long
minor_faults (void)
{
  struct rusage u;

  getrusage (RUSAGE_SELF, &u);
  return u.ru_minflt;
}

/* A checksum of the widget's image (FNV-1a over its pixels): two builds that print the same
 * one drew the same pixels. */
static guint64
image_checksum (void)
{
  const guint8 *data;
  int stride, height;
  guint64 h = 14695981039346656037ull;

  cairo_surface_flush (image_surface);
  data = cairo_image_surface_get_data (image_surface);
  stride = cairo_image_surface_get_stride (image_surface);
  height = cairo_image_surface_get_height (image_surface);
  for (gsize i = 0; i < (gsize) stride * height; i++)
    h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* @frames images of @g: the median of their wall and processor times, and their page faults
 * an image */
typedef struct
{
  double wall, cpu, faults;
} Timing;

static Timing
time_images (TksCapture                *capture,
             const TksTimelineGeometry *g,
             TksCoverageRef            *coverage,
             PangoContext              *pango,
             guint                      frames)
{
  g_autofree double *wall = g_new (double, frames);
  g_autofree double *cpu = g_new (double, frames);
  long faults = minor_faults ();
  Timing t;

  for (guint f = 0; f < frames; f++)
    {
      double w = now_ms (), c = cpu_ms ();

      frame_image (capture, g, coverage, pango);
      wall[f] = now_ms () - w;
      cpu[f] = cpu_ms () - c;
    }
  t.faults = (double) (minor_faults () - faults) / frames;
  qsort (wall, frames, sizeof *wall, compare_doubles);
  qsort (cpu, frames, sizeof *cpu, compare_doubles);
  t.wall = wall[frames / 2];
  t.cpu = cpu[frames / 2];
  return t;
}

int
main (int   argc,
      char *argv[])
{
  guint records = 1000000;
  guint frames = 30;
  g_autoptr(GString) text = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCoverageRef) coverage = NULL;
  PangoContext *pango;
  cairo_surface_t *surface;
  static const double fractions[] = { 1.0, 0.01 };
  static const char * const names[] = { "full view", "1% zoom" };
  double t, load_ms, coverage_ms = 0, fonts_ms;
  gboolean summaries = TRUE;
  guint i, f;
  int a;

  setlocale (LC_ALL, "C");
  for (a = 1; a < argc; a++)
    {
      if (g_str_equal (argv[a], "--no-summaries"))
        summaries = FALSE;
      else if (a + 1 < argc && g_str_equal (argv[a], "--records"))
        records = (guint)g_ascii_strtoull (argv[++a], NULL, 10);
      else if (a + 1 < argc && g_str_equal (argv[a], "--frames"))
        {
          /* not inside MAX (), which evaluates its arguments twice */
          guint n = (guint) g_ascii_strtoull (argv[++a], NULL, 10);

          frames = MAX (1, n);
        }
    }

  text = tks_test_synthetic_capture (10, records, 2);
  t = now_ms ();
  capture = tks_capture_new_from_data (text->str, text->len, &error);
  if (capture == NULL)
    {
      g_printerr ("render-bench: %s\n", error->message);
      return 1;
    }
  load_ms = now_ms () - t;
  lane_list = tks_lane_list_new (capture, FALSE, 1000);

  if (summaries)
    {
      t = now_ms ();
      coverage = tks_coverage_ref_new (tks_coverage_new (capture));
      coverage_ms = now_ms () - t;
    }

  t = now_ms ();
  pango = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  tks_timeline_warm_up_fonts (pango);
  fonts_ms = now_ms () - t;
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, WIDTH, HEIGHT);

  printf ("render-bench: %u records, %u threads, %dx%d, %u frames each\n",
          tks_capture_get_n_records (capture), tks_capture_get_n_threads (capture),
          WIDTH, HEIGHT, frames);
  printf ("  load and rebuild:              %8.1f ms\n", load_ms);
  if (summaries)
    printf ("  coverage summaries:            %8.1f ms (after the load, off the draw path)\n", coverage_ms);
  else
    printf ("  coverage summaries:                 off\n");
  printf ("  font warm-up:                  %8.1f ms (when the window is realized)\n", fonts_ms);

  for (i = 0; i < G_N_ELEMENTS (fractions); i++)
    {
      TksTimelineGeometry g;
      double first, first_cpu, cairo_ms, surface_ms, surface_cpu;
      long faults;
      Timing image;

      geometry_for (capture, fractions[i], &g);
      g.coverage = coverage != NULL ? tks_coverage_ref_get (coverage) : NULL;

      /* The first image of this view. The widget draws its images into the few surfaces it
       * drew into before, after a new load too; a window's very first image takes a new one,
       * whose memory costs this much more the first time it is drawn on (timed apart: a new
       * surface, cleared). */
      t = now_ms ();
      surface_cpu = cpu_ms ();
      {
        cairo_surface_t *fresh = tks_timeline_image_surface_new (WIDTH, HEIGHT, 1);
        cairo_t *cr = cairo_create (fresh);

        cairo_set_operator (cr, CAIRO_OPERATOR_CLEAR);
        cairo_paint (cr);
        cairo_destroy (cr);
        cairo_surface_flush (fresh);
        if (image_surface == NULL)
          image_surface = fresh;
        else
          cairo_surface_destroy (fresh);
      }
      surface_ms = now_ms () - t;
      surface_cpu = cpu_ms () - surface_cpu;
      faults = minor_faults ();
      t = now_ms ();
      first_cpu = cpu_ms ();
      frame_image (capture, &g, coverage, pango);
      first = now_ms () - t;
      first_cpu = cpu_ms () - first_cpu;
      faults = minor_faults () - faults;

      image = time_images (capture, &g, coverage, pango, frames);

      t = now_ms ();
      for (f = 0; f < frames; f++)
        frame_cairo (capture, &g, surface);
      cairo_ms = (now_ms () - t) / frames;

      printf ("  %-9s a new image surface:   %8.3f ms (%.3f ms on a processor: the window's "
              "first image only)\n", names[i], surface_ms, surface_cpu);
      printf ("  %-9s first image:           %8.3f ms (%.3f ms on a processor, %ld page faults)\n",
              names[i], first, first_cpu, faults);
      printf ("  %-9s the widget's image:    %8.3f ms/image median (%.3f ms on a processor, "
              "%.0f page faults an image)\n", names[i], image.wall, image.cpu, image.faults);
      printf ("  %-9s export raster:         %8.3f ms/image\n", names[i], cairo_ms);
      printf ("  %-9s the image's checksum:  %016" G_GINT64_MODIFIER "x\n", names[i], image_checksum ());
    }
  {
    /* the same whole view with the CPU load graph on */
    TksTimelineGeometry g;
    Timing image;

    geometry_for (capture, 1.0, &g);
    g.coverage = coverage != NULL ? tks_coverage_ref_get (coverage) : NULL;
    g.load_graph = TRUE;
    g.n_event_lanes = 1;
    frame_image (capture, &g, coverage, pango);
    image = time_images (capture, &g, coverage, pango, frames);
    printf ("  full view with the load graph:  %8.3f ms/image median (%.3f ms on a processor)\n",
            image.wall, image.cpu);
    printf ("  full view with the load graph, the image's checksum: %016" G_GINT64_MODIFIER "x\n",
            image_checksum ());
  }
  printf ("  goal: <= 8 ms per image, first image <= 16 ms\n");

  cairo_surface_destroy (surface);
  cairo_surface_destroy (image_surface);
  g_clear_object (&lane_list);
  g_object_unref (pango);
  return 0;
}
