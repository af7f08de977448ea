/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include <pango/pangocairo.h>

#include "tks-capture.h"
#include "tks-coverage.h"
#include "tks-lane-list.h"
#include "tks-timeline-events.h"
#include "tks-timeline-image.h"
#include "tks-timeline-render.h"
#include "test-view-synthetic.h"
#include "tks-test-data.h"
#include "tks-test-fixtures.h"
#include "tks-test-fonts.h"

#define WIDTH  1200
#define HEIGHT 1000

typedef struct
{
  guint8 r, g, b;
} Pixel;

static void
full_geometry (TksCapture          *capture,
               TksTimelineGeometry *g)
{
  g->x0 = tks_capture_get_start (capture);
  g->x1 = tks_capture_get_end (capture);
  g->left = TKS_TIMELINE_HEADER_WIDTH;
  g->width = WIDTH - TKS_TIMELINE_HEADER_WIDTH;
  g->top = TKS_TIMELINE_RULER_HEIGHT;
  g->bottom = HEIGHT;
  g->lane_height = TKS_TIMELINE_LANE_HEIGHT;
  g->v_offset = 0;
  g->tick_hz = 1000;
  g->all_lanes = FALSE;
  g->coverage = NULL;
}

static cairo_surface_t *
render (TksCapture                *capture,
        const TksTimelineGeometry *g)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);

  tks_timeline_render_cairo (capture, g, cr, WIDTH, HEIGHT, FALSE);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static Pixel
pixel_at (cairo_surface_t *surface,
          double           x,
          double           y)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);
  guint32 v;
  Pixel p;

  g_assert_cmpfloat (x, >=, 0);
  g_assert_cmpfloat (x, <, WIDTH);
  g_assert_cmpfloat (y, >=, 0);
  g_assert_cmpfloat (y, <, HEIGHT);
  memcpy (&v, data + (int)y * stride + (int)x * 4, sizeof v);
  p.r = (v >> 16) & 0xff;
  p.g = (v >> 8) & 0xff;
  p.b = v & 0xff;
  return p;
}

static guint
lane_of (TksCapture *capture,
         const char *name)
{
  const guint *lanes;
  guint n, i;

  lanes = tks_capture_get_lanes (capture, &n);
  for (i = 0; i < n; i++)
    if (g_strcmp0 (tks_capture_get_thread (capture, lanes[i])->name, name) == 0)
      return i;
  g_assert_not_reached ();
  return 0;
}

static double
x_of (const TksTimelineGeometry *g,
      double                     t)
{
  return g->left + (t - g->x0) * g->width / (g->x1 - g->x0);
}

static void
test_lanes_on_real_capture (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.saved.txt");
  const guint *lanes;
  const TksThread *idle;
  TksTimelineGeometry g = { 0 };
  cairo_surface_t *surface;
  GdkRGBA color;
  double trigger, lane_y;
  guint n_lanes, lane, i;
  gboolean checked_run = FALSE;
  Pixel p;

  lanes = tks_capture_get_lanes (capture, &n_lanes);
  g_assert_cmpuint (n_lanes, >, 10);
  full_geometry (capture, &g);
  /* zoom to the trigger so runs are several pixels wide */
  g_assert_true (tks_capture_get_trigger (capture, &trigger));
  g.x0 = trigger - 40;
  g.x1 = trigger + 40;
  surface = render (capture, &g);

  /* the trigger line is red across the lanes */
  p = pixel_at (surface, x_of (&g, trigger), g.top + 3 * g.lane_height + 2);
  g_assert_cmpuint (p.r, >, 180);
  g_assert_cmpuint (p.g, <, 80);

  /* a run of the idle thread is painted in its lane colour, and the hit test finds it */
  lane = lane_of (capture, "idle");
  idle = tks_capture_get_thread (capture, lanes[lane]);
  tks_timeline_thread_color (idle, &color);
  lane_y = tks_timeline_lane_y (&g, lane);
  for (i = 0; i < idle->n_runs; i++)
    {
      double b = x_of (&g, idle->runs[i].begin);
      double e = x_of (&g, idle->runs[i].end);
      double mid = (b + e) / 2;
      TksTimelineHit hit;

      if (b < g.left || e > g.left + g.width || e - b < 6 || fabs (mid - x_of (&g, trigger)) < 4)
        continue;
      p = pixel_at (surface, mid, lane_y + g.lane_height / 2);
      g_assert_cmpint (abs (p.r - (int)(color.red * 255)), <=, 2);
      g_assert_cmpint (abs (p.g - (int)(color.green * 255)), <=, 2);
      g_assert_cmpint (abs (p.b - (int)(color.blue * 255)), <=, 2);

      g_assert_true (tks_timeline_hit_test (capture, &g, mid, lane_y + g.lane_height / 2, &hit));
      g_assert_cmpuint (hit.lane, ==, lane);
      g_assert_cmpuint (hit.thread, ==, idle->index);
      g_assert_cmpint (hit.run, ==, (int)i);
      checked_run = TRUE;
      break;
    }
  g_assert_true (checked_run);

  /* the lane header column names the thread */
  p = pixel_at (surface, 4, lane_y + g.lane_height / 2);
  g_assert_cmpint (abs (p.r - (int)(color.red * 255)), <=, 2);

  cairo_surface_destroy (surface);
}

static void
test_bands (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.saved.txt");
  const guint *lanes;
  TksTimelineGeometry g = { 0 };
  cairo_surface_t *surface;
  guint n_lanes, i;
  gboolean saw_exit = FALSE, saw_nodata = FALSE;

  lanes = tks_capture_get_lanes (capture, &n_lanes);
  full_geometry (capture, &g);
  surface = render (capture, &g);

  for (i = 0; i < n_lanes; i++)
    {
      const TksThread *t = tks_capture_get_thread (capture, lanes[i]);
      double y = tks_timeline_lane_y (&g, i) + g.lane_height / 2;
      Pixel p;

      if (y >= HEIGHT)
        break;
      if ((t->flags & TKS_THREAD_EXITED) && !(t->flags & TKS_THREAD_EXITED_AFTER_LOG_END) &&
          x_of (&g, t->exit_time) + 10 < g.left + g.width - 10)
        {
          double x = (x_of (&g, t->exit_time) + g.left + g.width) / 2;

          /* light red: red dominates, not a run colour */
          p = pixel_at (surface, x, y);
          g_assert_cmpuint (p.r, >, p.g + 30);
          g_assert_cmpuint (p.r, >, p.b + 30);
          saw_exit = TRUE;
        }
      if (!isnan (t->first_event) && x_of (&g, t->first_event) > g.left + 10)
        {
          /* grey: no data before the first event */
          p = pixel_at (surface, g.left + 3, y);
          g_assert_cmpint (abs (p.r - p.g), <=, 3);
          g_assert_cmpint (abs (p.g - p.b), <=, 3);
          g_assert_cmpuint (p.r, <, 235);
          g_assert_cmpuint (p.r, >, 150);
          saw_nodata = TRUE;
        }
    }
  g_assert_true (saw_exit);
  g_assert_true (saw_nodata);
  cairo_surface_destroy (surface);
}

static guint
count_fills (TksCapture                *capture,
             const TksTimelineGeometry *g)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  TksPainter painter;
  guint n;

  tks_painter_init_cairo (&painter, cr, NULL);
  tks_timeline_render_lanes (capture, g, &painter);
  tks_painter_finish (&painter);
  n = painter.n_fills;
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return n;
}

static gboolean
is_grey (Pixel p)
{
  return abs (p.r - p.g) <= 3 && abs (p.g - p.b) <= 3;
}

/* A hole in the log (the board printed a reply from 103 to 150 and did not record the
 * switches): a grey band across every lane, where idle, running when it began, is no longer
 * drawn running. */
static void
test_gap_band (void)
{
  static const char text[] = TKS_TEST_GAP_CAPTURE "From  3 to  1 at     171\nch> \n";
  g_autoptr(TksCapture) capture = tks_test_capture_of_text (text, -1);
  TksTimelineGeometry g = { 0 };
  cairo_surface_t *surface;
  guint n_gaps;

  tks_capture_get_gaps (capture, &n_gaps);
  g_assert_cmpuint (n_gaps, ==, 1);
  full_geometry (capture, &g);
  surface = render (capture, &g);
  for (guint l = 0; l < 3; l++)
    {
      double y = tks_timeline_lane_y (&g, l) + 15;

      for (double t = 106; t < 148; t += 5)
        {
          Pixel p = pixel_at (surface, x_of (&g, t), y);

          g_assert_true (is_grey (p));
          g_assert_cmpuint (p.r, <, 235);
        }
      /* Where the log is whole, no band: a run's colour or the background. */
      for (double t = 151; t < 170; t += 3)
        {
          Pixel p = pixel_at (surface, x_of (&g, t), y);

          g_assert_true (!is_grey (p) || p.r > 235);
        }
    }
  /* idle ran until the hole began, in its colour. */
  g_assert_false (is_grey (pixel_at (surface, x_of (&g, 102.5),
                                     tks_timeline_lane_y (&g, lane_of (capture, "idle")) + 15)));
  cairo_surface_destroy (surface);
}

/* A log frozen by a trigger and read late: after its last switch, a grey band labelled "log
 * ended" across every lane, instead of the last thread running to the capture's end. */
static void
test_log_end_band (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.raw.txt");
  double log_end = tks_capture_get_log_end (capture, NULL);
  double end = tks_capture_get_end (capture);
  const guint *lanes;
  TksTimelineGeometry g = { 0 };
  cairo_surface_t *surface;
  guint n_lanes, idle_lane = lane_of (capture, "idle");
  Pixel before, after;

  full_geometry (capture, &g);
  surface = render (capture, &g);
  lanes = tks_capture_get_shown_lanes (capture, FALSE, &n_lanes);

  /* idle runs up to the end of the log (its colour), then nothing is known (grey). */
  before = pixel_at (surface, x_of (&g, log_end) - 2, tks_timeline_lane_y (&g, idle_lane) + 15);
  after = pixel_at (surface, x_of (&g, (log_end + end) / 2),
                    tks_timeline_lane_y (&g, idle_lane) + 15);
  g_assert_false (is_grey (before));
  g_assert_true (is_grey (after));
  g_assert_cmpuint (after.r, <, 235);

  /* Every lane is grey there, but for the threads that exited before (their red band goes on)
   * and the exits written after the end (a thin red mark at the tick the board wrote). */
  for (guint l = 0; l < n_lanes; l++)
    {
      double y = tks_timeline_lane_y (&g, l) + 15;

      if (y >= HEIGHT)
        break;
      for (double t = log_end + 50; t < end - 50; t += 97)
        {
          const TksThread *th = tks_capture_get_thread (capture, lanes[l]);

          if ((th->flags & TKS_THREAD_EXITED) && !(th->flags & TKS_THREAD_EXITED_AFTER_LOG_END))
            break;
          if ((th->flags & TKS_THREAD_EXITED) && fabs (x_of (&g, th->exit_time) - x_of (&g, t)) < 4)
            continue;
          g_assert_true (is_grey (pixel_at (surface, x_of (&g, t), y)));
        }
    }
  cairo_surface_destroy (surface);

  /* No band when the log ends with the capture. */
  {
    g_autoptr(TksCapture) plain = tks_test_load_data ("board-run-mode.raw.txt");
    double plain_end = tks_capture_get_end (plain);

    g_assert_cmpfloat (tks_capture_get_log_end (plain, NULL), ==, plain_end);
    full_geometry (plain, &g);
    surface = render (plain, &g);
    g_assert_false (is_grey (pixel_at (surface, x_of (&g, plain_end) - 1,
                                       tks_timeline_lane_y (&g, lane_of (plain, "idle")) + 15)));
    cairo_surface_destroy (surface);
  }
}

/* Threads that exited before the log began get no lane unless asked for. */
/* A lane of the lane list's: a collapsed group of exited threads is one lane on which every
 * member's runs are painted in the group's colour, and the hit test names the member under
 * the pointer; a hidden row has no lane; a pinned one comes first. */
static void
test_group_lanes (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.raw.txt");
  g_autoptr(TksLaneList) list = tks_lane_list_new (capture, FALSE, 1000);
  TksTimelineGeometry g = { 0 };
  const TksLane *lanes;
  const TksLaneRow *group = NULL;
  cairo_surface_t *surface;
  guint n_lanes, n_shown, group_lane = 0, members_seen = 0, exits_told = 0;
  GdkRGBA color;

  tks_capture_get_shown_lanes (capture, FALSE, &n_shown);
  lanes = tks_lane_list_get_lanes (list, &n_lanes);
  g_assert_cmpuint (n_lanes, <, n_shown);
  for (guint l = 0; l < n_lanes && group == NULL; l++)
    if (lanes[l].row->kind == TKS_LANE_ROW_GROUP && lanes[l].n_threads >= 3)
      {
        group = lanes[l].row;
        group_lane = l;
      }
  g_assert_nonnull (group);

  full_geometry (capture, &g);
  g.lanes = lanes;
  g.n_lanes = n_lanes;
  g_assert_cmpuint (tks_timeline_n_lanes (capture, &g), ==, n_lanes);
  tks_timeline_thread_color (tks_capture_get_thread (capture, lanes[group_lane].threads[0]), &color);
  for (guint m = 0; m < lanes[group_lane].n_threads; m++)
    {
      const TksThread *member = tks_capture_get_thread (capture, lanes[group_lane].threads[m]);
      double y = tks_timeline_lane_y (&g, group_lane) + g.lane_height / 2;
      double mid;
      TksTimelineHit hit;
      Pixel p;

      if (member->n_runs == 0)
        continue;
      /* zoomed on the member's first run */
      g.x0 = member->runs[0].begin - 1;
      g.x1 = member->runs[0].end + 1;
      surface = render (capture, &g);
      mid = x_of (&g, (member->runs[0].begin + member->runs[0].end) / 2);
      p = pixel_at (surface, mid, y);
      g_assert_cmpint (abs (p.r - (int)(color.red * 255)), <=, 2);
      g_assert_cmpint (abs (p.g - (int)(color.green * 255)), <=, 2);
      g_assert_cmpint (abs (p.b - (int)(color.blue * 255)), <=, 2);
      g_assert_true (tks_timeline_hit_test (capture, &g, mid, y, &hit));
      g_assert_cmpuint (hit.lane, ==, group_lane);
      g_assert_cmpuint (hit.thread, ==, member->index);
      g_assert_cmpint (hit.run, ==, 0);
      cairo_surface_destroy (surface);
      members_seen++;
    }
  g_assert_cmpuint (members_seen, >=, 2);

  /* where no member runs, the lane tells of the member that was there: after each member's
   * exit, the last to have exited by then (unless another is alive) */
  full_geometry (capture, &g);
  for (guint m = 0; m < lanes[group_lane].n_threads; m++)
    {
      const TksThread *member = tks_capture_get_thread (capture, lanes[group_lane].threads[m]);
      double y = tks_timeline_lane_y (&g, group_lane) + g.lane_height / 2;
      double t = member->exit_time + 3 / (g.width / (g.x1 - g.x0)) + 1;
      const TksThread *told;
      TksTimelineHit hit;
      gboolean other = FALSE;

      if (!(member->flags & TKS_THREAD_EXITED) || t >= g.x1)
        continue;
      g_assert_true (tks_timeline_hit_test (capture, &g, x_of (&g, t), y, &hit));
      if (hit.run >= 0 || hit.mark >= 0)
        continue;
      told = tks_capture_get_thread (capture, hit.thread);
      for (guint o = 0; o < lanes[group_lane].n_threads; o++)
        {
          const TksThread *x = tks_capture_get_thread (capture, lanes[group_lane].threads[o]);

          /* another alive at t, or one that exited later but by t */
          other |= x != member && x->first_event <= t &&
                   (!(x->flags & TKS_THREAD_EXITED) || x->exit_time > member->exit_time);
        }
      if (!other)
        g_assert_cmpstr (told == member ? "the member that exited" : told->name, ==, "the member that exited");
      else
        g_assert_true (told != member);
      exits_told++;
    }
  g_assert_cmpuint (exits_told, >=, 2);

  /* hidden: no lane; pinned: the first lane */
  g_assert_true (tks_lane_list_set_hidden (list, group->key, TRUE));
  lanes = tks_lane_list_get_lanes (list, &g.n_lanes);
  g.lanes = lanes;
  g_assert_cmpint (tks_timeline_lane_of_thread (capture, &g, group->threads[0]), ==, -1);
  g_assert_true (tks_lane_list_set_hidden (list, group->key, FALSE));
  g_assert_true (tks_lane_list_set_pinned (list, group->key, TRUE));
  g.lanes = tks_lane_list_get_lanes (list, &g.n_lanes);
  g_assert_cmpint (tks_timeline_lane_of_thread (capture, &g, group->threads[1]), ==, 0);
}

static void
test_hidden_lanes (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data",
                                                 "board-run-mode.raw.txt", NULL);
  g_autofree char *stale = tks_test_read_with_stale_history (path, 30, NULL);
  g_autoptr(TksCapture) capture = NULL;
  TksTimelineGeometry g = { 0 };
  TksTimelineHit hit;
  guint n_all, n_shown, seen_hidden = 0;

  capture = tks_test_capture_of_text (stale, -1);
  tks_capture_get_shown_lanes (capture, TRUE, &n_all);
  tks_capture_get_shown_lanes (capture, FALSE, &n_shown);
  g_assert_cmpuint (n_all, ==, n_shown + 30);

  full_geometry (capture, &g);
  g.bottom = g.top + n_all * g.lane_height;
  for (int all = 0; all <= 1; all++)
    {
      guint n = all ? n_all : n_shown;

      g.all_lanes = all;
      for (guint l = 0; l < n_all; l++)
        {
          double y = tks_timeline_lane_y (&g, l) + 5;
          gboolean got = tks_timeline_hit_test (capture, &g, g.left + 10, y, &hit);

          g_assert_cmpint (got, ==, l < n);
          if (got && (tks_capture_get_thread (capture, hit.thread)->flags & TKS_THREAD_EXITED_BEFORE_LOG))
            seen_hidden++;
        }
      g_assert_cmpuint (seen_hidden, ==, all ? 30 : 0);
    }
}

static void
test_cost_follows_pixels (void)
{
  g_autoptr(GString) text = tks_test_synthetic_capture (10, 400000, 2);
  g_autoptr(TksCapture) capture = tks_test_capture_of_text (text->str, text->len);
  TksTimelineGeometry g = { 0 };
  guint n_lanes, fills, bound;

  tks_capture_get_lanes (capture, &n_lanes);
  full_geometry (capture, &g);

  /* 400,000 switches drawn in 1,050 pixels: at most a rectangle per pixel column and lane
   * (plus the lane backgrounds), never one per run */
  bound = n_lanes * ((guint)g.width + 8);
  fills = count_fills (capture, &g);
  g_assert_cmpuint (fills, <=, bound);
  g_assert_cmpuint (fills, >=, n_lanes);

  /* zoomed to 1 %, still bounded by the pixels */
  g.x0 = tks_capture_get_start (capture) + 0.5 * (tks_capture_get_end (capture) - tks_capture_get_start (capture));
  g.x1 = g.x0 + 0.01 * (tks_capture_get_end (capture) - tks_capture_get_start (capture));
  fills = count_fills (capture, &g);
  g_assert_cmpuint (fills, <=, bound);

  /* zoomed far in, every run is its own rectangle */
  g.x1 = g.x0 + 20;
  fills = count_fills (capture, &g);
  g_assert_cmpuint (fills, >=, 20);
  g_assert_cmpuint (fills, <=, n_lanes * 4 + 3 * 20 * 2);
}

static void
test_formats (void)
{
  g_autofree char *a = tks_timeline_format_ticks (17150, 50);
  g_autofree char *b = tks_timeline_format_ticks (17150.25, 0.05);
  g_autofree char *c = tks_timeline_format_duration (2.5, 1000);
  g_autofree char *d = tks_timeline_format_duration (2.5, 0);

  g_assert_cmpstr (a, ==, "17150");
  g_assert_cmpstr (b, ==, "17150.25");
  g_assert_nonnull (strstr (c, "2.500 ms"));
  g_assert_cmpstr (d, ==, "2.5 ticks");
  g_assert_cmpfloat (tks_timeline_nice_step (0.7), ==, 1);
  g_assert_cmpfloat (tks_timeline_nice_step (1.5), ==, 2);
  g_assert_cmpfloat (tks_timeline_nice_step (3), ==, 5);
  g_assert_cmpfloat (tks_timeline_nice_step (7), ==, 10);
  g_assert_cmpfloat (tks_timeline_nice_step (-1), ==, 1);
}

static guint
count_differences (cairo_surface_t *a,
                   cairo_surface_t *b)
{
  const guint8 *pa = cairo_image_surface_get_data (a);
  const guint8 *pb = cairo_image_surface_get_data (b);
  int stride = cairo_image_surface_get_stride (a);
  guint n = 0;
  int x, y;

  for (y = (int) TKS_TIMELINE_RULER_HEIGHT; y < HEIGHT; y++)
    for (x = (int) TKS_TIMELINE_HEADER_WIDTH; x < WIDTH; x++)
      if (memcmp (pa + y * stride + x * 4, pb + y * stride + x * 4, 3) != 0)
        n++;
  return n;
}

/* Drawn from the summaries, a zoomed-out view looks as it does drawn from the runs. */
static void
test_coverage_draws_the_same (void)
{
  g_autoptr(GString) text = tks_test_synthetic_capture (10, 400000, 2);
  g_autoptr(TksCapture) capture = tks_test_capture_of_text (text->str, text->len);
  g_autoptr(TksCoverage) coverage = NULL;
  static const double spans[] = { 1.0, 0.12, 0.03 };
  guint i;

  coverage = tks_coverage_new (capture);
  for (i = 0; i < tks_capture_get_n_threads (capture); i++)
    if (tks_coverage_bucket_width (coverage, i) > 0)
      break;
  g_assert_cmpuint (i, <, tks_capture_get_n_threads (capture));

  for (i = 0; i < G_N_ELEMENTS (spans); i++)
    {
      TksTimelineGeometry g = { 0 };
      cairo_surface_t *a, *b;
      double start = tks_capture_get_start (capture);
      double span = tks_capture_get_end (capture) - start;
      guint diff, area;

      full_geometry (capture, &g);
      g.x0 = start + 0.3 * span;
      g.x1 = g.x0 + spans[i] * span;
      if (spans[i] == 1.0)
        g.x0 = start, g.x1 = start + span;
      a = render (capture, &g);
      g.coverage = coverage;
      b = render (capture, &g);
      diff = count_differences (a, b);
      area = (guint) ((WIDTH - TKS_TIMELINE_HEADER_WIDTH) * (HEIGHT - TKS_TIMELINE_RULER_HEIGHT));
      g_test_message ("span %.2f: %u of %u pixels differ", spans[i], diff, area);
      g_assert_cmpuint (diff, <=, area / 100);
      cairo_surface_destroy (a);
      cairo_surface_destroy (b);
    }
}

/* The timeline as the widget drew it before its image: a render node of each rectangle and
 * text, drawn by GSK's cairo renderer, over white. */
static cairo_surface_t *
render_nodes (TksCapture                *capture,
              const TksTimelineGeometry *g,
              const GdkRGBA             *fg,
              PangoContext              *pango)
{
  GtkSnapshot *snapshot;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GskRenderer) renderer = gsk_cairo_renderer_new ();
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, WIDTH, HEIGHT);
  TksPainter painter;
  GdkRGBA header_bg = *fg;
  static const GdkRGBA white = { 1, 1, 1, 1 };

  g_type_class_unref (g_type_class_ref (GSK_TYPE_COLOR_NODE));   /* GSK's node types */
  snapshot = gtk_snapshot_new ();
  gtk_snapshot_append_color (snapshot, &white, &GRAPHENE_RECT_INIT (0, 0, WIDTH, HEIGHT));
  tks_painter_init_snapshot (&painter, snapshot, pango);
  painter.fg = *fg;
  header_bg.alpha = 0.05;
  painter.fill (&painter, &header_bg, 0, 0, g->left, g->bottom);
  tks_timeline_render_ruler (capture, g, &painter);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, g->top, g->left + g->width,
                                                         g->bottom - g->top));
  tks_timeline_render_lanes (capture, g, &painter);
  tks_timeline_render_events (capture, g, &painter);
  tks_timeline_render_log_end (capture, g, &painter);
  tks_timeline_render_gaps (capture, g, &painter);
  tks_timeline_render_trigger (capture, g, &painter);
  gtk_snapshot_pop (snapshot);
  tks_painter_finish (&painter);
  node = gtk_snapshot_free_to_node (snapshot);

  g_assert_true (gsk_renderer_realize (renderer, NULL, &error));
  g_assert_no_error (error);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, WIDTH, HEIGHT));
  gdk_texture_download (texture, cairo_image_surface_get_data (surface),
                        cairo_image_surface_get_stride (surface));
  cairo_surface_mark_dirty (surface);
  gsk_renderer_unrealize (renderer);
  return surface;
}

static gpointer
draw_image_thread (gpointer data)
{
  tks_timeline_image_draw (data);
  return NULL;
}

/* The widget's image of a capture, drawn in a worker thread after the capture, its lane list
 * and coverage were let go by the caller, is the one drawn on the main thread, and its time
 * area is what the exports draw (over their white). */
static void
test_image (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.raw.txt");
  g_autoptr(TksLaneList) list = tks_lane_list_new (capture, FALSE, 1000);
  g_autoptr(TksCoverageRef) coverage = tks_coverage_ref_new (tks_coverage_new (capture));
  PangoFontMap *font_map = pango_cairo_font_map_new ();
  PangoContext *like = pango_font_map_create_context (font_map);
  g_autoptr(TksTimelineImage) worker = NULL;
  g_autoptr(TksTimelineImage) here = NULL;
  static const GdkRGBA fg = { 0.1, 0.1, 0.1, 1 };
  TksTimelineGeometry g = { 0 };
  cairo_surface_t *a, *b, *nodes, *over;
  cairo_t *cr;
  GThread *thread;
  guint n_lanes, x, y, differ = 0, drawn = 0;

  full_geometry (capture, &g);
  g.x1 = g.x0 + (g.x1 - g.x0) * 0.6;   /* the log's end, the trigger and exits in view */
  g.time_ruler = TRUE;
  g.resolution = 1;
  g.lanes = tks_lane_list_get_lanes (list, &n_lanes);
  g.n_lanes = n_lanes;
  g.coverage = tks_coverage_ref_get (coverage);
  g_assert_cmpuint (n_lanes, >, 10);

  here = tks_timeline_image_new (capture, &g, coverage, &fg, like, WIDTH, HEIGHT, 1);
  worker = tks_timeline_image_new (capture, &g, coverage, &fg, like, WIDTH, HEIGHT, 1);
  tks_timeline_image_draw (here);
  nodes = render_nodes (capture, &g, &fg, like);
  /* what the image was made of goes away before it is drawn */
  g.lanes = NULL;
  g.coverage = NULL;
  g_clear_object (&list);
  g_clear_pointer (&coverage, tks_coverage_ref_unref);
  g_clear_object (&capture);
  thread = g_thread_new ("draw", draw_image_thread, worker);
  g_thread_join (thread);

  a = tks_timeline_image_get_surface (here);
  b = tks_timeline_image_get_surface (worker);
  g_assert_cmpint (cairo_image_surface_get_width (b), ==, WIDTH);
  g_assert_cmpint (cairo_image_surface_get_height (b), ==, HEIGHT);
  g_assert_cmpmem (cairo_image_surface_get_data (a),
                   cairo_image_surface_get_stride (a) * HEIGHT,
                   cairo_image_surface_get_data (b),
                   cairo_image_surface_get_stride (b) * HEIGHT);

  /* the image over white is what the render nodes drew */
  over = cairo_image_surface_create (CAIRO_FORMAT_RGB24, WIDTH, HEIGHT);
  cr = cairo_create (over);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_set_source_surface (cr, b, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_flush (over);
  for (y = 0; y < HEIGHT; y++)
    for (x = 0; x < WIDTH; x++)
      {
        Pixel p = pixel_at (over, x, y), q = pixel_at (nodes, x, y);

        /* the image's rectangles are blended into its pixels one by one on a clear
         * background, then laid over white, the nodes' drawn on white: each of the up to
         * five translucent layers (a stripe, bands, an edge) rounds to 1/255 apiece */
        if (ABS (p.r - q.r) > 3 || ABS (p.g - q.g) > 3 || ABS (p.b - q.b) > 3)
          {
            differ++;
          }
        if (p.r != 255 || p.g != 255 || p.b != 255)
          drawn++;
      }
  g_test_message ("%u pixels drawn, %u differ from the nodes'", drawn, differ);
  g_assert_cmpuint (drawn, >, (WIDTH - TKS_TIMELINE_HEADER_WIDTH) * (HEIGHT - TKS_TIMELINE_RULER_HEIGHT) / 4);
  g_assert_cmpuint (differ, ==, 0);
  cairo_surface_destroy (over);
  cairo_surface_destroy (nodes);
  g_object_unref (like);
  g_object_unref (font_map);
}

/* Zoomed out so that runs are far shorter than a pixel, a thread busy half of the time and one
 * busy 2.5 % of it do not look the same: each column is shaded by its load. */
static void
test_load_shading (void)
{
  g_autoptr(GString) text = g_string_new ("threads_list\n"
                                          "Thread number  1 : Prio =   1, Log = Yes, Name = idle\n"
                                          "Thread number  2 : Prio =  10, Log = Yes, Name = rare\n"
                                          "Thread number  3 : Prio =  20, Log = Yes, Name = busy\n"
                                          "Deleted threads: \n"
                                          "threads_timestamps\n");
  g_autoptr(TksCapture) capture = NULL;
  TksTimelineGeometry g = { 0 };
  cairo_surface_t *surface;
  double sum[2] = { 0, 0 };
  guint n[2] = { 0, 0 };

  /* every tick: busy runs a quarter of it; every tenth tick, rare runs a quarter too */
  for (guint t = 1; t <= 20000; t++)
    {
      if (t % 10 == 0)
        g_string_append_printf (text, "From  1 to  2 at %7u\nFrom  2 to  1 at %7u\n", t, t);
      g_string_append_printf (text, "From  1 to  3 at %7u\nFrom  3 to  1 at %7u\n", t, t);
    }
  capture = tks_test_capture_of_text (text->str, text->len);
  full_geometry (capture, &g);
  surface = render (capture, &g);
  for (guint k = 0; k < 2; k++)
    {
      guint lane = lane_of (capture, k == 0 ? "rare" : "busy");
      double y = tks_timeline_lane_y (&g, lane) + g.lane_height / 2;

      for (double x = g.left + 10; x < g.left + g.width - 10; x += 7)
        {
          Pixel p = pixel_at (surface, x, y);

          /* how far from white: the column's opacity */
          sum[k] += 765 - (p.r + p.g + p.b);
          n[k]++;
        }
    }
  cairo_surface_destroy (surface);
  g_test_message ("mean darkness: rare %.1f, busy %.1f", sum[0] / n[0], sum[1] / n[1]);
  /* opacity 0.25 + 0.75 x load: busy (load about 0.5) well above rare (about 0.025) */
  g_assert_cmpfloat (sum[1] / n[1], >, 1.6 * sum[0] / n[0]);
  g_assert_cmpfloat (sum[0] / n[0], >, 0);
}

/* Zoomed out on a busy capture without the summaries, every pixel column of short runs is
 * shaded by its thread's load there, as the runs themselves give it: its colour at an opacity
 * of 0.25 + 0.75 x the load in sixteenths, over the lane's background. A column that the runs'
 * positions, rounded, make asked for twice is shaded once, by all its runs. */
static void
test_column_load_truth (void)
{
  g_autoptr(GString) text = tks_test_synthetic_capture (10, 20000, 2);
  g_autoptr(TksCapture) capture = tks_test_capture_of_text (text->str, text->len);
  TksTimelineGeometry g = { 0 };
  cairo_surface_t *surface;
  double scale, log_end;
  guint n_lanes, checked = 0, wrong = 0;

  full_geometry (capture, &g);
  surface = render (capture, &g);
  scale = g.width / (g.x1 - g.x0);
  log_end = tks_capture_get_log_end (capture, NULL);
  n_lanes = tks_timeline_n_lanes (capture, &g);
  for (guint l = 0; l < n_lanes; l++)
    {
      guint n_threads;
      const guint *threads = tks_timeline_lane_threads (capture, &g, l, &n_threads, NULL);
      const TksThread *th = tks_capture_get_thread (capture, threads[0]);
      double y = tks_timeline_lane_y (&g, l) + g.lane_height / 2;
      /* white, or a stripe of the text's colour at 0.035 on the odd lanes */
      double under = l % 2 == 1 ? 1 - 0.035 * 0.9 : 1;
      GdkRGBA c;

      if (y >= HEIGHT - 10 || th->n_marks > 0 || (th->flags & TKS_THREAD_EXITED) ||
          !(th->flags & TKS_THREAD_LOGGED) || th->n_runs == 0)
        continue;
      tks_timeline_thread_color (th, &c);
      for (int col = 1; col < (int) g.width - 1; col++)
        {
          double t0 = g.x0 + col / scale, t1 = g.x0 + (col + 1) / scale;
          guint i = tks_runs_first_ending_after (th->runs, th->n_runs, t0 - 1 / scale);
          gboolean short_runs = TRUE;
          double busy, a;
          Pixel p;

          Pixel below = pixel_at (surface, g.left + col + 0.5, HEIGHT - 2);

          /* not where the ruler's lines go down across the lanes (under them: not white) */
          if (t0 < th->first_event || t1 > log_end || below.r + below.g + below.b < 765)
            continue;
          /* runs in this column and its neighbours all shorter than a pixel */
          for (; i < th->n_runs && th->runs[i].begin < t1 + 1 / scale; i++)
            short_runs &= (th->runs[i].end - th->runs[i].begin) * scale < 1;
          if (!short_runs)
            continue;
          busy = tks_thread_busy (th, t0, t1);
          a = busy > 0 ? 0.25 + 0.75 * round (CLAMP (busy * scale, 0.0, 1.0) * 16) / 16 : 0;
          p = pixel_at (surface, g.left + col + 0.5, y);
          checked++;
          if (fabs (p.r - 255 * (c.red * a + under * (1 - a))) > 2.5 ||
              fabs (p.g - 255 * (c.green * a + under * (1 - a))) > 2.5 ||
              fabs (p.b - 255 * (c.blue * a + under * (1 - a))) > 2.5)
            {
              if (wrong++ < 5)
                g_test_message ("lane %u column %d: load %.3f, pixel %u %u %u", l, col,
                                busy * scale, p.r, p.g, p.b);
            }
        }
    }
  cairo_surface_destroy (surface);
  g_test_message ("%u columns checked, %u shaded otherwise", checked, wrong);
  g_assert_cmpuint (checked, >, 2000);
  g_assert_cmpuint (wrong, ==, 0);
}

/* The ruler, as text drawn: a painter that records what it is asked to write. */
typedef struct
{
  TksPainter  painter;
  GPtrArray  *texts;
  double      right;   /* rightmost pixel written */
} Recorder;

static void
record_fill (TksPainter    *painter,
             const GdkRGBA *color,
             double         x,
             double         y,
             double         width,
             double         height)
{
}

static void
record_text (TksPainter    *painter,
             const GdkRGBA *color,
             double         x,
             double         y,
             PangoLayout   *layout)
{
  Recorder *r = (Recorder *) painter;
  int w, h;

  pango_layout_get_pixel_size (layout, &w, &h);
  g_ptr_array_add (r->texts, g_strdup (pango_layout_get_text (layout)));
  r->right = MAX (r->right, x + w);
}

static GPtrArray *
ruler_texts (const TksTimelineGeometry *g,
             PangoContext              *pango,
             double                    *right)
{
  Recorder r;

  memset (&r, 0, sizeof r);
  r.painter.fill = record_fill;
  r.painter.text = record_text;
  r.painter.pango = pango;
  r.texts = g_ptr_array_new_with_free_func (g_free);
  tks_timeline_render_ruler (NULL, g, &r.painter);
  *right = r.right;
  return r.texts;
}

static void
test_ruler_units (void)
{
  PangoContext *pango = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  TksTimelineGeometry g = { 17150, 17158, TKS_TIMELINE_HEADER_WIDTH, 1000, TKS_TIMELINE_RULER_HEIGHT,
                            500, TKS_TIMELINE_LANE_HEIGHT, 0, 1000 };
  g_autoptr(GPtrArray) texts = NULL;
  double right;
  guint i;

  /* 1 kHz: a tick is a millisecond, each number is written once, the unit once */
  texts = ruler_texts (&g, pango, &right);
  g_assert_cmpuint (texts->len, >=, 5);
  g_assert_cmpstr (g_ptr_array_index (texts, 0), ==, "ticks = ms");
  for (i = 1; i < texts->len; i++)
    {
      const char *label = g_ptr_array_index (texts, i);

      g_assert_null (strchr (label, '\n'));
      g_assert_null (strstr (label, "ms"));
    }
  g_assert_cmpstr (g_ptr_array_index (texts, 1), ==, "17150");
  g_assert_cmpfloat (right, <=, g.left + g.width);
  g_clear_pointer (&texts, g_ptr_array_unref);

  /* 10 kHz: ticks over milliseconds, the units left of them */
  g.tick_hz = 10000;
  texts = ruler_texts (&g, pango, &right);
  g_assert_cmpstr (g_ptr_array_index (texts, 0), ==, "ticks\nms");
  g_assert_cmpstr (g_ptr_array_index (texts, 1), ==, "17150\n1715.0");
  g_assert_cmpfloat (right, <=, g.left + g.width);
  g_clear_pointer (&texts, g_ptr_array_unref);

  /* unknown rate: ticks only */
  g.tick_hz = 0;
  texts = ruler_texts (&g, pango, &right);
  g_assert_cmpstr (g_ptr_array_index (texts, 0), ==, "ticks");
  g_assert_null (strchr (g_ptr_array_index (texts, 1), '\n'));
  g_clear_pointer (&texts, g_ptr_array_unref);

  /* no number is cut at the right edge: one that does not fit is left out */
  g.x0 = 22940;
  g.x1 = 24641;
  g.tick_hz = 1000;
  texts = ruler_texts (&g, pango, &right);
  g_assert_cmpfloat (right, <=, g.left + g.width);
  g_clear_pointer (&texts, g_ptr_array_unref);
  g_object_unref (pango);
}

/* The ruler in real time: units from the step, 0 at the origin, never finer than the data. */
static void
test_time_ruler (void)
{
  PangoContext *pango = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  TksTimelineGeometry g = { 990, 1030, TKS_TIMELINE_HEADER_WIDTH, 1000, TKS_TIMELINE_RULER_HEIGHT,
                            500, TKS_TIMELINE_LANE_HEIGHT, 0, 1000 };
  g_autoptr(GPtrArray) texts = NULL;
  double right;
  gboolean zero = FALSE;

  g.time_ruler = TRUE;
  g.origin = 1000;
  g.resolution = 1;
  g.origin_kind = TKS_TIME_ORIGIN_TRIGGER;
  /* 40 ms across 1000 px at 1 kHz: milliseconds from the trigger, 0 on the trigger */
  texts = ruler_texts (&g, pango, &right);
  g_assert_cmpstr (g_ptr_array_index (texts, 0), ==, "ms from trigger");
  for (guint i = 1; i < texts->len; i++)
    {
      const char *label = g_ptr_array_index (texts, i);

      zero |= strcmp (label, "0") == 0;
      g_assert_null (strchr (label, '.'));   /* whole milliseconds at this zoom */
    }
  g_assert_true (zero);
  g_assert_cmpstr (g_ptr_array_index (texts, 1), ==, "-10");
  g_clear_pointer (&texts, g_ptr_array_unref);

  /* zoomed far into one tick of a board without a counter: still one label a tick, never
   * microseconds the data cannot tell apart */
  g.x0 = 1000.2;
  g.x1 = 1000.3;
  texts = ruler_texts (&g, pango, &right);
  g_assert_cmpstr (g_ptr_array_index (texts, 0), ==, "ms from trigger");
  g_assert_cmpuint (texts->len, <=, 2);
  g_clear_pointer (&texts, g_ptr_array_unref);

  /* the same with a 168 MHz counter: microseconds, from the start */
  g.resolution = 1000.0 / 168e6;
  g.origin_kind = TKS_TIME_ORIGIN_START;
  texts = ruler_texts (&g, pango, &right);
  g_assert_cmpstr (g_ptr_array_index (texts, 0), ==, "µs from start");
  g_assert_cmpuint (texts->len, >=, 4);
  g_assert_cmpstr (g_ptr_array_index (texts, 1), ==, "200");
  g_clear_pointer (&texts, g_ptr_array_unref);
  g_object_unref (pango);
}

/* The export's header column: as wide as the longest lane name in view (drawn whole), never
 * narrower than on screen nor wider than its bound; and the font the export is given. */
static TksCapture *
renamed_fixture (const char *name)
{
  g_autofree char *text = tks_test_data_contents ("board-trigger-exits.saved.txt", NULL);
  g_autoptr(GString) renamed = g_string_new (text);

  g_assert_cmpuint (g_string_replace (renamed, "Name = sensor\n", name, 1), ==, 1);
  return tks_test_capture_of_text (renamed->str, renamed->len);
}

static void
test_header_width (void)
{
  g_autoptr(TksCapture) plain = tks_test_load_data ("board-trigger-exits.saved.txt");
  g_autoptr(TksCapture) longer = renamed_fixture ("Name = housekeeping_watchdog_and_flash_wear_levelling\n");
  g_autofree char *huge_name = g_strnfill (400, 'x');
  g_autofree char *huge_line = g_strdup_printf ("Name = %s\n", huge_name);
  g_autoptr(TksCapture) huge = renamed_fixture (huge_line);
  PangoFontMap *map = pango_cairo_font_map_get_default ();
  PangoContext *pango = pango_font_map_create_context (map);
  PangoLayout *layout = pango_layout_new (pango);
  PangoFontDescription *font = pango_font_description_from_string ("Sans 10");
  TksTimelineGeometry g = { 0 };
  double w;
  int lw;

  pango_context_set_font_description (pango, font);
  full_geometry (longer, &g);
  pango_layout_set_text (layout, "housekeeping_watchdog_and_flash_wear_levelling  148", -1);
  pango_layout_get_pixel_size (layout, &lw, NULL);
  g_assert_cmpint (lw, >, TKS_TIMELINE_HEADER_WIDTH);
  w = tks_timeline_header_width (longer, &g, pango);
  /* the name drawn from x = 10 fits whole, with a margin */
  g_assert_cmpfloat (w, >=, 10 + lw + 8);
  g_assert_cmpfloat (w, <=, 10 + lw + 24);

  /* only the lanes in view count: the first alone (sensor) fits in the screen's column */
  full_geometry (plain, &g);
  g_assert_cmpfloat (tks_timeline_header_width (plain, &g, pango), <, w);
  g.bottom = g.top + g.lane_height;
  g_assert_cmpfloat (tks_timeline_header_width (plain, &g, pango), ==, TKS_TIMELINE_HEADER_WIDTH);
  full_geometry (huge, &g);
  g_assert_cmpfloat (tks_timeline_header_width (huge, &g, pango), ==, TKS_TIMELINE_HEADER_MAX_WIDTH);

  /* a wider font, a wider column */
  pango_font_description_set_size (font, 14 * PANGO_SCALE);
  pango_context_set_font_description (pango, font);
  full_geometry (longer, &g);
  g_assert_cmpfloat (tks_timeline_header_width (longer, &g, pango), >, w + 40);
  pango_font_description_free (font);
  g_object_unref (layout);
  g_object_unref (pango);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("LC_ALL", "C", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/view/render/lanes", test_lanes_on_real_capture);
  g_test_add_func ("/view/render/group-lanes", test_group_lanes);
  g_test_add_func ("/view/render/time-ruler", test_time_ruler);
  g_test_add_func ("/view/render/load-shading", test_load_shading);
  g_test_add_func ("/view/render/column-load-truth", test_column_load_truth);
  g_test_add_func ("/view/render/bands", test_bands);
  g_test_add_func ("/view/render/log-end-band", test_log_end_band);
  g_test_add_func ("/view/render/gap-band", test_gap_band);
  g_test_add_func ("/view/render/hidden-lanes", test_hidden_lanes);
  g_test_add_func ("/view/render/cost-follows-pixels", test_cost_follows_pixels);
  g_test_add_func ("/view/render/formats", test_formats);
  g_test_add_func ("/view/render/coverage-draws-the-same", test_coverage_draws_the_same);
  g_test_add_func ("/view/render/image", test_image);
  g_test_add_func ("/view/render/ruler-units", test_ruler_units);
  g_test_add_func ("/view/render/header-width", test_header_width);

  {
    int status = g_test_run ();

    tks_test_release_fonts ();
    return status;
  }
}
