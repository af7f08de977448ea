/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The timeline's lanes: the threads' colours, which lanes are where, the runs (merged below a
 * pixel, or from the coverage summaries when busy), marks, exits and where nothing is known;
 * the trigger, the log's end and the gaps across them; and an export's whole image on cairo.
 * The painters are in tks-timeline-painter.c, the ruler in tks-timeline-ruler.c, the export's
 * headers in tks-timeline-headers.c, what is under a point in tks-timeline-hit.c. */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>
#include <pango/pangocairo.h>

#include "tks-coverage.h"
#include "tks-timeline-events.h"
#include "tks-timeline-render.h"

/* Colours that read on light and dark backgrounds: twelve hues, darker then lighter, in an
 * order where neighbours differ (a thread whose colour is taken moves to the next one). */
static const char * const palette[TKS_THREAD_N_COLORS] = {
  "#c52020", "#2073c5", "#c5c520", "#7320c5", "#20c520", "#c52073",
  "#20c5c5", "#c57320", "#2020c5", "#73c520", "#c520c5", "#20c573",
  "#da8062", "#6280da", "#bcda62", "#bc62da", "#62da80", "#da6280",
  "#62bcda", "#dabc62", "#8062da", "#80da62", "#da62bc", "#62dabc",
};

const GdkRGBA tks_timeline_mark_in_color = { 0.15, 0.64, 0.30, 1 };
const GdkRGBA tks_timeline_mark_out_color = { 0.88, 0.11, 0.14, 1 };
const GdkRGBA tks_timeline_exit_band_color = { 0.88, 0.11, 0.14, 0.22 };

/* The idle thread: quiet, so that the work stands out, and a slate grey that the neutral
 * grey of a hole or of the log's end is never mistaken for. */
static const char idle_color[] = "#8e99a8";

/* The palette and the idle colour parsed once (a lane's colour is asked for at each image):
 * the idle colour last. */
static const GdkRGBA *
parsed_colors (void)
{
  static GdkRGBA parsed[G_N_ELEMENTS (palette) + 1];
  static gsize done;

  if (g_once_init_enter (&done))
    {
      for (guint i = 0; i < G_N_ELEMENTS (palette); i++)
        gdk_rgba_parse (&parsed[i], palette[i]);
      gdk_rgba_parse (&parsed[G_N_ELEMENTS (palette)], idle_color);
      g_once_init_leave (&done, 1);
    }
  return parsed;
}

void
tks_timeline_palette_color (guint    index,
                            GdkRGBA *color)
{
  *color = parsed_colors ()[index % G_N_ELEMENTS (palette)];
}

void
tks_timeline_thread_color (const TksThread *thread,
                           GdkRGBA         *color)
{
  if (thread->color == TKS_THREAD_COLOR_IDLE)
    *color = parsed_colors ()[G_N_ELEMENTS (palette)];
  else
    tks_timeline_palette_color (thread->color, color);
}

double
tks_timeline_lane_y (const TksTimelineGeometry *geometry,
                     guint                      lane)
{
  if (lane < geometry->n_pinned)
    return geometry->top + lane * geometry->lane_height;
  /* below the pinned lanes, after the event lanes */
  return geometry->top + (geometry->n_event_lanes + lane) * geometry->lane_height
         - geometry->v_offset;
}

double
tks_timeline_scroll_top (const TksTimelineGeometry *geometry)
{
  return geometry->top + geometry->n_pinned * geometry->lane_height;
}

guint
tks_timeline_n_lanes (TksCapture                *capture,
                      const TksTimelineGeometry *geometry)
{
  guint n = 0;

  if (geometry->lanes != NULL)
    return geometry->n_lanes;
  if (capture != NULL)
    tks_capture_get_shown_lanes (capture, geometry->all_lanes, &n);
  return n;
}

const guint *
tks_timeline_lane_threads (TksCapture                *capture,
                           const TksTimelineGeometry *geometry,
                           guint                      lane,
                           guint                     *n_threads,
                           const TksLaneRow         **row)
{
  const guint *shown;
  guint n = 0;

  *n_threads = 0;
  if (row != NULL)
    *row = NULL;
  if (geometry->lanes != NULL)
    {
      if (lane >= geometry->n_lanes)
        return NULL;
      *n_threads = geometry->lanes[lane].n_threads;
      if (row != NULL)
        *row = geometry->lanes[lane].row;
      return geometry->lanes[lane].threads;
    }
  if (capture == NULL)
    return NULL;
  shown = tks_capture_get_shown_lanes (capture, geometry->all_lanes, &n);
  if (lane >= n)
    return NULL;
  *n_threads = 1;
  return &shown[lane];
}

int
tks_timeline_lane_of_thread (TksCapture                *capture,
                             const TksTimelineGeometry *geometry,
                             guint                      thread)
{
  guint n = tks_timeline_n_lanes (capture, geometry);

  for (guint l = 0; l < n; l++)
    {
      guint n_threads;
      const guint *threads = tks_timeline_lane_threads (capture, geometry, l, &n_threads, NULL);

      for (guint i = 0; i < n_threads; i++)
        if (threads[i] == thread)
          return (int) l;
    }
  return -1;
}

gboolean
tks_timeline_visible_lanes (const TksTimelineGeometry *geometry,
                            guint                      n_lanes,
                            guint                     *first,
                            guint                     *last)
{
  double a, b;

  if (n_lanes == 0 || geometry->lane_height <= 0 || geometry->bottom <= geometry->top)
    return FALSE;
  /* thread lanes come after the pinned ones and the event lanes */
  a = floor (geometry->v_offset / geometry->lane_height) + geometry->n_pinned
      - geometry->n_event_lanes;
  b = ceil ((geometry->v_offset + geometry->bottom - geometry->top) / geometry->lane_height)
      - geometry->n_event_lanes;
  if (a < geometry->n_pinned)
    a = geometry->n_pinned;
  if (b > n_lanes)
    b = n_lanes;
  if (a >= b)
    return FALSE;
  *first = (guint)a;
  *last = (guint)b;   /* exclusive */
  return TRUE;
}

/* Collects pixel spans and emits merged rectangles clipped to the time area. */
typedef struct
{
  TksPainter                *painter;
  const TksTimelineGeometry *g;
  const GdkRGBA             *color;
  double                     y;
  double                     h;
  double                     b;
  double                     e;
  double                     alpha;   /* of the span being merged: its column's load */
  gboolean                   have;
} SpanMerger;

static void
merger_flush (SpanMerger *m)
{
  double b, e;

  if (!m->have)
    return;
  b = MAX (m->b, -1.0);
  e = MIN (m->e, m->g->width + 1.0);
  if (e > b)
    {
      GdkRGBA color = *m->color;

      color.alpha *= m->alpha;
      m->painter->fill (m->painter, &color, m->g->left + b, m->y, e - b, m->h);
    }
  m->have = FALSE;
}

/* Adds [b, e) (pixels) drawn at @alpha: runs of a pixel or more at 1; a column of shorter
 * runs at its load, so that a thread busy 10 % of the time and one busy 50 % look apart. */
static void
merger_add (SpanMerger *m,
            double      b,
            double      e,
            double      alpha)
{
  if (m->have && b <= m->e + 0.5 && alpha == m->alpha)
    {
      m->e = MAX (m->e, e);
      return;
    }
  merger_flush (m);
  m->b = b;
  m->e = e;
  m->alpha = alpha;
  m->have = TRUE;
}

/* A thread's pixel columns, left to right: each column's search starts where the last one's
 * ended, and looks first as many runs on as the last column held. */
typedef struct
{
  const TksThread *thread;
  guint            from;    /* the last column's first run (a column may be asked again) */
  double           t_end;   /* the last column's end, */
  guint            j_end;   /* the first run beginning at or after it, */
  guint            count;   /* and how many began in that column */
} BusyCursor;

#define BUSY_CURSOR_INIT(thread, from) { (thread), (from), -INFINITY, (from), 0 }

static double load_alpha (double share);

/* The first run at or after @from that begins at or after @t, looked for first @guess runs on
 * (where a column as busy as the last one ends), then galloping out from there: a few reads
 * near the answer, each read of a capture's millions of runs being a wait for the memory. */
static guint
first_beginning_near (const TksRun *runs,
                      guint         from,
                      guint         n,
                      double        t,
                      guint         guess)
{
  guint g = MIN (n, from + guess), lo, hi, step = 1;

  if (g <= from || runs[g - 1].begin < t)
    return tks_runs_first_beginning_at (runs, MAX (from, g), n, t);
  /* the answer is at g - 1 or before: back from there while the runs still begin after t */
  hi = g - 1;
  while (hi >= from + step && runs[hi - step].begin >= t)
    {
      hi -= step;
      step *= 2;
    }
  lo = hi >= from + step ? hi - step + 1 : from;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (runs[mid].begin < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The opacity of the column [t0, t1) of @scale pixels a tick: 0 when the thread did not run
 * there; 1 when a run of a pixel or more touches it; else its load. */
static double
column_alpha (BusyCursor *c,
              double      t0,
              double      t1,
              double      scale)
{
  const TksThread *th = c->thread;
  guint i, j, begun;
  double busy;

  /* runs do not overlap: the first ending after t0 is the first beginning at or after it,
   * or the one before when it is still running at t0 (the column before this one, when it
   * ends at t0, found the first) */
  if (t0 == c->t_end)
    begun = c->j_end;
  else
    begun = tks_runs_first_beginning_at (th->runs, t0 > c->t_end ? c->j_end : c->from,
                                         th->n_runs, t0);
  i = begun;
  if (i > 0 && th->runs[i - 1].end > t0)
    i--;
  j = first_beginning_near (th->runs, begun, th->n_runs, t1, c->count);
  c->from = i;
  c->j_end = j;
  c->t_end = t1;
  c->count = j - begun;
  /* where the next column, as busy, ends: read ahead while this one is drawn */
  if (j + c->count < th->n_runs)
    {
      __builtin_prefetch (&th->runs[j + c->count]);
      __builtin_prefetch (&th->run_time[j + c->count]);
    }
  if (j <= i)
    return 0;
  /* only the first and last can reach out of the column, and be a pixel long */
  if ((th->runs[i].end - th->runs[i].begin) * scale >= 1.0
      || (th->runs[j - 1].end - th->runs[j - 1].begin) * scale >= 1.0)
    return 1.0;
  busy = th->run_time[j] - th->run_time[i];
  busy -= MAX (0.0, t0 - th->runs[i].begin);
  busy -= MAX (0.0, th->runs[j - 1].end - t1);
  return load_alpha (busy * scale);
}

/* The opacity of a pixel column busy @share (0 to 1) of its time: never fainter than a
 * quarter, in sixteenths so that neighbours of the same load merge. */
static double
load_alpha (double share)
{
  return 0.25 + 0.75 * round (CLAMP (share, 0.0, 1.0) * 16) / 16;
}

/* Many runs per pixel column: each column asks the coverage summary whether the thread runs
 * there, O(1) per column instead of a search through the runs. */
static gboolean
draw_runs_by_column (SpanMerger                *m,
                     const TksTimelineGeometry *g,
                     const TksCoverage         *coverage,
                     guint                      thread_id,
                     const TksThread           *thread,
                     guint                      first,
                     guint                      n)
{
  double scale = g->width / (g->x1 - g->x0);
  double bucket = tks_coverage_bucket_width (coverage, thread_id);
  double col, last;
  guint end;
  BusyCursor cursor = BUSY_CURSOR_INIT (thread, first);

  /* buckets must be well under a pixel, and runs many more than the columns */
  if (!(bucket > 0) || bucket * 4 > 1 / scale)
    return FALSE;
  end = tks_runs_first_beginning_at (thread->runs, first, n, g->x1);
  if (end <= first || end - first < 2 * g->width)
    return FALSE;

  col = MAX (0.0, floor ((thread->runs[first].begin - g->x0) * scale));
  last = MIN (ceil (g->width), ceil ((thread->runs[end - 1].end - g->x0) * scale));
  for (; col < last; col++)
    {
      double t0 = g->x0 + col / scale, t1 = g->x0 + (col + 1) / scale;
      double alpha;

      if (tks_coverage_any (coverage, thread_id, t0, t1)
          && (alpha = column_alpha (&cursor, t0, t1, scale)) > 0)
        merger_add (m, col, col + 1, alpha);
    }
  return TRUE;
}

static void
draw_runs (TksPainter                *painter,
           const TksTimelineGeometry *g,
           const TksCoverage         *coverage,
           guint                      thread_id,
           const TksThread           *thread,
           const GdkRGBA             *color,
           double                     y,
           double                     h)
{
  double scale = g->width / (g->x1 - g->x0);
  SpanMerger m = { painter, g, color, y, h, 0, 0, 1.0, FALSE };
  BusyCursor cursor = BUSY_CURSOR_INIT (thread, 0);
  guint n = thread->n_runs;
  guint i;

  if (n == 0)
    return;
  if (thread->flags & TKS_THREAD_RUNNING_AT_END)
    n--;   /* drawn on its own below */

  i = tks_runs_first_ending_after (thread->runs, n, g->x0);
  if (coverage != NULL && i < n && draw_runs_by_column (&m, g, coverage, thread_id, thread, i, n))
    i = n;
  while (i < n && thread->runs[i].begin < g->x1)
    {
      double b = (thread->runs[i].begin - g->x0) * scale;
      double e = (thread->runs[i].end - g->x0) * scale;

      if (e - b < 1.0)
        {
          /* Everything that begins inside this pixel column becomes the column, at its
           * load; the last run, when it goes on past the column, is drawn on from there. */
          double col = floor (b);
          guint from = i + 1;

          for (;;)
            {
              double t_next = g->x0 + (col + 1) / scale;
              guint j = tks_runs_first_beginning_at (thread->runs, from, n, t_next);
              const TksRun *last = &thread->runs[j - 1];
              double last_e = (last->end - g->x0) * scale;

              merger_add (&m, col, col + 1,
                          column_alpha (&cursor, g->x0 + col / scale, t_next, scale));
              i = j;
              if (last_e <= col + 1)
                break;
              if ((last->end - last->begin) * scale >= 1.0)
                {
                  /* a long run goes on: drawn whole from the next column */
                  merger_add (&m, col + 1, last_e, 1.0);
                  break;
                }
              col++;   /* a short one spills into the next column: that column too */
              from = j;
            }
        }
      else
        {
          merger_add (&m, b, e, 1.0);
          i++;
        }
    }
  merger_flush (&m);

  if ((thread->flags & TKS_THREAD_RUNNING_AT_END) &&
      thread->runs[n].end > g->x0 && thread->runs[n].begin < g->x1)
    {
      /* Still running when the capture ends: a lighter bar with a dashed top edge. */
      GdkRGBA light = *color;
      double b = MAX (-1.0, (thread->runs[n].begin - g->x0) * scale);
      double e = MIN (g->width + 1.0, (thread->runs[n].end - g->x0) * scale);
      double x;

      light.alpha = 0.45;
      if (e - b < 1)
        e = b + 1;
      painter->fill (painter, &light, g->left + b, y, e - b, h);
      for (x = b; x < e && h >= 8; x += 8)
        painter->fill (painter, color, g->left + x, y, MIN (4.0, e - x), 3);
    }
}

static void
draw_marks (TksPainter                *painter,
            const TksTimelineGeometry *g,
            const TksThread           *thread,
            double                     y,
            double                     h)
{
  double scale = g->width / (g->x1 - g->x0);
  SpanMerger in_m = { painter, g, &tks_timeline_mark_in_color, y, h / 2, 0, 0, 1.0, FALSE };
  SpanMerger out_m = { painter, g, &tks_timeline_mark_out_color, y + h / 2, h / 2, 0, 0, 1.0,
                       FALSE };
  const TksMark *marks = thread->marks;
  guint n = thread->n_marks;
  guint i;

  /* marks are at most one tick wide: start a tick early */
  i = tks_marks_first_at (marks, 0, n, g->x0 - 1);
  while (i < n && marks[i].pos < g->x1)
    {
      double w = 1.0 / (2.0 * MAX (1u, marks[i].width_div));
      double b = (marks[i].pos - g->x0) * scale;
      double e = b + w * scale;

      if (e - b < 1.0)
        {
          double col = floor (b);
          double t_next = g->x0 + (col + 1) / scale;
          guint j = tks_marks_first_at (marks, i + 1, n, t_next);

          if (j - i > 1)
            {
              /* several switches in one pixel: both directions happened there */
              merger_add (&in_m, col, col + 1, 1.0);
              merger_add (&out_m, col, col + 1, 1.0);
            }
          else if (marks[i].kind == TKS_MARK_IN)
            merger_add (&in_m, col, col + 1, 1.0);
          else
            merger_add (&out_m, col, col + 1, 1.0);
          i = j;
          continue;
        }
      if (marks[i].kind == TKS_MARK_IN)
        merger_add (&in_m, b, e, 1.0);
      else
        merger_add (&out_m, b, e, 1.0);
      i++;
    }
  merger_flush (&in_m);
  merger_flush (&out_m);
}

static void
fill_time_span (TksPainter                *painter,
                const TksTimelineGeometry *g,
                const GdkRGBA             *color,
                double                     t0,
                double                     t1,
                double                     y,
                double                     h)
{
  double scale = g->width / (g->x1 - g->x0);
  double b = MAX (0.0, (t0 - g->x0) * scale);
  double e = MIN (g->width, (t1 - g->x0) * scale);

  if (e > b)
    painter->fill (painter, color, g->left + b, y, e - b, h);
}

/* Where nothing is known on a lane: before the first event of its threads (a lane of
 * threads never seen in the log: all of it) and after the log's end. */
static void
draw_no_data (TksCapture                *capture,
              const TksTimelineGeometry *g,
              TksPainter                *painter,
              const guint               *threads,
              guint                      n_threads,
              double                     y,
              double                     h)
{
  GdkRGBA nodata = painter->fg;
  double start = tks_capture_get_start (capture);
  double log_end = tks_capture_get_log_end (capture, NULL);
  double first = NAN;

  nodata.alpha = 0.16;
  for (guint i = 0; i < n_threads; i++)
    {
      const TksThread *thread = tks_capture_get_thread (capture, threads[i]);

      if (thread != NULL && !isnan (thread->first_event) &&
          (isnan (first) || thread->first_event < first))
        first = thread->first_event;
    }
  if (isnan (first))
    fill_time_span (painter, g, &nodata, start, log_end, y, h);
  else if (first > start)
    fill_time_span (painter, g, &nodata, start, MIN (first, log_end), y, h);
}

/* An exit: a red edge where it was recorded and, on the lane of the last thread to exit, a
 * band up to the end (a group's lane goes on showing its later members until then). */
static void
draw_exit (TksCapture                *capture,
           const TksTimelineGeometry *g,
           TksPainter                *painter,
           const TksThread           *thread,
           gboolean                   last,
           double                     lane_y,
           double                     y,
           double                     h)
{
  static const GdkRGBA exitedge = { 0.88, 0.11, 0.14, 0.9 };
  double scale = g->width / (g->x1 - g->x0);
  double ex = (thread->exit_time - g->x0) * scale;

  /* An exit written after the log ended shows where it was recorded, nothing more. */
  if (last && !(thread->flags & TKS_THREAD_EXITED_AFTER_LOG_END))
    fill_time_span (painter, g, &tks_timeline_exit_band_color, thread->exit_time, tks_capture_get_end (capture), y, h);
  if (ex >= -2 && ex <= g->width)
    painter->fill (painter, &exitedge, g->left + ex, lane_y + 2, 2, g->lane_height - 4);
}

static gboolean
has_exit (const TksThread *thread)
{
  return thread != NULL && (thread->flags & TKS_THREAD_EXITED) && !isnan (thread->exit_time);
}

/* Lane @l: its stripe, grid line, where nothing is known, exits, runs and marks. */
static void
render_lane (TksCapture                *capture,
             const TksTimelineGeometry *g,
             TksPainter                *painter,
             guint                      l)
{
  GdkRGBA stripe = painter->fg;
  GdkRGBA grid = painter->fg;
  guint n_threads;
  const guint *threads = tks_timeline_lane_threads (capture, g, l, &n_threads, NULL);
  double y = tks_timeline_lane_y (g, l);
  double h = g->lane_height;
  double inset = MIN (5.0, floor (h * 0.15));
  double bar_y = y + inset;
  double bar_h = h - 2 * inset;
  double last_exit = -INFINITY;
  GdkRGBA color;

  if (n_threads == 0 || tks_capture_get_thread (capture, threads[0]) == NULL)
    return;
  stripe.alpha = 0.035;
  grid.alpha = 0.12;
  /* a group's lane takes its first member's colour */
  tks_timeline_thread_color (tks_capture_get_thread (capture, threads[0]), &color);

  if (l % 2 == 1)
    painter->fill (painter, &stripe, g->left, y, g->width, h);
  if (h >= 8)
    painter->fill (painter, &grid, g->left, y + h - 1, g->width, 1);

  draw_no_data (capture, g, painter, threads, n_threads, bar_y, bar_h);
  for (guint i = 0; i < n_threads; i++)
    {
      const TksThread *thread = tks_capture_get_thread (capture, threads[i]);

      if (has_exit (thread))
        last_exit = MAX (last_exit, thread->exit_time);
    }

  for (guint i = 0; i < n_threads; i++)
    {
      const TksThread *thread = tks_capture_get_thread (capture, threads[i]);

      if (thread == NULL)
        continue;
      if (has_exit (thread))
        draw_exit (capture, g, painter, thread, thread->exit_time >= last_exit, y, bar_y, bar_h);
      if (thread->flags & TKS_THREAD_LOGGED)
        draw_runs (painter, g, g->coverage, threads[i], thread, &color, bar_y, bar_h);
      if (thread->n_marks > 0)
        draw_marks (painter, g, thread, bar_y, bar_h);
    }
}

static void
clip_fill (TksPainter    *painter,
           const GdkRGBA *color,
           double         x,
           double         y,
           double         width,
           double         height)
{
  TksClipPainter *clip = (TksClipPainter *) painter;

  if (y < clip->clip_top)
    {
      height -= clip->clip_top - y;
      y = clip->clip_top;
    }
  if (height > 0)
    clip->inner->fill (clip->inner, color, x, y, width, height);
}

static void
clip_text (TksPainter    *painter,
           const GdkRGBA *color,
           double         x,
           double         y,
           PangoLayout   *layout)
{
  TksClipPainter *clip = (TksClipPainter *) painter;

  if (y >= clip->clip_top)
    clip->inner->text (clip->inner, color, x, y, layout);
}

void
tks_clip_painter_init (TksClipPainter *clip,
                       TksPainter     *inner,
                       double          clip_top)
{
  clip->base = *inner;
  clip->base.fill = clip_fill;
  clip->base.text = clip_text;
  clip->inner = inner;
  clip->clip_top = clip_top;
}

void
tks_timeline_render_lanes (TksCapture                *capture,
                           const TksTimelineGeometry *g,
                           TksPainter                *painter)
{
  guint n_lanes, first, last, l;
  TksClipPainter scrolled;

  if (capture == NULL || g->width <= 0 || !(g->x1 > g->x0))
    return;

  n_lanes = tks_timeline_n_lanes (capture, g);
  /* the lanes that scroll are drawn below the pinned ones only */
  tks_clip_painter_init (&scrolled, painter, tks_timeline_scroll_top (g));
  if (tks_timeline_visible_lanes (g, n_lanes, &first, &last))
    for (l = first; l < last; l++)
      render_lane (capture, g, &scrolled.base, l);
  for (l = 0; l < MIN (g->n_pinned, n_lanes); l++)
    render_lane (capture, g, painter, l);
  if (g->n_pinned > 0)
    {
      /* the edge of the pinned lanes, what scrolls passing under it */
      GdkRGBA edge = painter->fg;

      edge.alpha = 0.45;
      painter->fill (painter, &edge, g->left, tks_timeline_scroll_top (g) - 1, g->width, 1);
    }
}

/* A label at (@x, @y) on a backing plate that keeps it readable over busy lanes. */
static void
text_on_plate (TksPainter    *painter,
               const GdkRGBA *color,
               double         x,
               double         y,
               PangoLayout   *layout)
{
  GdkRGBA plate = painter->dark ? (GdkRGBA) { 0.12, 0.12, 0.12, 0.9 }
                                : (GdkRGBA) { 1, 1, 1, 0.9 };
  int lw, lh;

  pango_layout_get_pixel_size (layout, &lw, &lh);
  painter->fill (painter, &plate, x - 2, y - 1, lw + 4, lh + 2);
  painter->text (painter, color, x, y, layout);
}

void
tks_timeline_render_trigger (TksCapture                *capture,
                             const TksTimelineGeometry *g,
                             TksPainter                *painter)
{
  static const GdkRGBA red = { 0.88, 0.11, 0.14, 1 };
  double pos, x;
  const char *name;
  g_autofree char *label = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  int lw, lh;

  if (capture == NULL || !tks_capture_get_trigger (capture, &pos))
    return;
  if (pos < g->x0 || pos > g->x1)
    return;
  x = tks_timeline_x_at (g, pos);
  painter->fill (painter, &red, x - 1, g->top, 2, g->bottom - g->top);

  if (painter->pango == NULL)
    return;
  name = tks_capture_get_trigger_name (capture);
  if (name != NULL && *name != '\0')
    /* Translators: the trigger line's label; %s says who set it */
    label = g_strdup_printf (_("Trigger: %s"), name);
  else
    label = g_strdup (_("Trigger"));
  layout = pango_layout_new (painter->pango);
  pango_layout_set_text (layout, label, -1);
  pango_layout_get_pixel_size (layout, &lw, &lh);
  if (x + 4 + lw > g->left + g->width)
    x = x - 8 - lw;
  text_on_plate (painter, &red, x + 4, g->top + 2, layout);
}

/* A band across every lane from @begin to @end (ticks), where the log tells nothing, with an
 * edge at each end that is shown and @label on a plate at its bottom (when @fit, only if it
 * fits in the band). */
static void
render_unknown_band (const TksTimelineGeometry *g,
                     TksPainter                *painter,
                     double                     begin,
                     double                     end,
                     gboolean                   edge_at_end,
                     const char                *label,
                     gboolean                   fit)
{
  GdkRGBA band = painter->fg;
  GdkRGBA edge = painter->fg;
  double scale, b, e;
  g_autoptr(PangoLayout) layout = NULL;
  int lw, lh;

  if (!(end >= begin) || begin > g->x1 || end < g->x0)
    return;

  band.alpha = painter->dark ? 0.22 : 0.16;
  edge.alpha = 0.7;
  scale = g->width / (g->x1 - g->x0);
  b = MAX (0.0, (begin - g->x0) * scale);
  e = MIN (g->width, (end - g->x0) * scale);
  painter->fill (painter, &band, g->left + b, g->top, MAX (e - b, 1.0), g->bottom - g->top);
  if (begin >= g->x0)
    painter->fill (painter, &edge, g->left + b - 1, g->top, 2, g->bottom - g->top);
  if (edge_at_end && end <= g->x1)
    painter->fill (painter, &edge, g->left + e - 1, g->top, 2, g->bottom - g->top);

  if (painter->pango == NULL)
    return;
  layout = pango_layout_new (painter->pango);
  pango_layout_set_text (layout, label, -1);
  pango_layout_get_pixel_size (layout, &lw, &lh);
  if (fit && e - b < lw + 8)
    return;
  text_on_plate (painter, &painter->fg, MIN (g->left + b + 4, g->left + g->width - lw - 6),
                 g->bottom - lh - 4, layout);
}

void
tks_timeline_render_log_end (TksCapture                *capture,
                             const TksTimelineGeometry *g,
                             TksPainter                *painter)
{
  double log_end, end;

  if (capture == NULL || g->width <= 0 || !(g->x1 > g->x0))
    return;
  log_end = tks_capture_get_log_end (capture, NULL);
  end = tks_capture_get_end (capture);
  if (!(end > log_end))
    return;
  /* Translators: label of the band after the last switch the board's log holds */
  render_unknown_band (g, painter, log_end, end, FALSE, _("log ended"), FALSE);
}

void
tks_timeline_render_gaps (TksCapture                *capture,
                          const TksTimelineGeometry *g,
                          TksPainter                *painter)
{
  const TksGap *gaps;
  guint n_gaps;

  if (capture == NULL || g->width <= 0 || !(g->x1 > g->x0))
    return;
  gaps = tks_capture_get_gaps (capture, &n_gaps);
  for (guint i = 0; i < n_gaps; i++)
    /* Translators: label of a band where the board did not record the switches (it was
     * printing a reply) */
    render_unknown_band (g, painter, gaps[i].begin, gaps[i].end, TRUE, _("not recorded"), TRUE);
}

void
tks_timeline_render_cairo (TksCapture                *capture,
                           const TksTimelineGeometry *geometry,
                           cairo_t                   *cr,
                           double                     width,
                           double                     height,
                           gboolean                   dark)
{
  tks_timeline_render_cairo_like (capture, geometry, cr, width, height, dark, NULL);
}

void
tks_timeline_render_cairo_like (TksCapture                *capture,
                                const TksTimelineGeometry *geometry,
                                cairo_t                   *cr,
                                double                     width,
                                double                     height,
                                gboolean                   dark,
                                PangoContext              *like)
{
  PangoContext *pango;
  TksPainter painter;

  pango = pango_cairo_create_context (cr);
  if (like != NULL)
    {
      /* the screen's font, size and rendering rather than Pango's default (a serif face) */
      pango_context_set_font_description (pango, pango_context_get_font_description (like));
      pango_context_set_language (pango, pango_context_get_language (like));
      pango_cairo_context_set_resolution (pango, pango_cairo_context_get_resolution (like));
      pango_cairo_context_set_font_options (pango, pango_cairo_context_get_font_options (like));
    }
  tks_painter_init_cairo (&painter, cr, pango);
  painter.dark = dark;
  if (dark)
    {
      painter.fg = (GdkRGBA) { 0.95, 0.95, 0.95, 1 };
      cairo_set_source_rgb (cr, 0.14, 0.14, 0.14);
    }
  else
    {
      painter.fg = (GdkRGBA) { 0.1, 0.1, 0.1, 1 };
      cairo_set_source_rgb (cr, 1, 1, 1);
    }
  cairo_paint (cr);

  tks_timeline_render_ruler (capture, geometry, &painter);
  cairo_save (cr);
  cairo_rectangle (cr, 0, geometry->top, width, geometry->bottom - geometry->top);
  cairo_clip (cr);
  tks_timeline_render_lanes (capture, geometry, &painter);
  tks_timeline_render_events (capture, geometry, &painter);
  tks_timeline_render_log_end (capture, geometry, &painter);
  tks_timeline_render_gaps (capture, geometry, &painter);
  tks_timeline_render_headers (capture, geometry, &painter);
  tks_timeline_render_event_headers (capture, geometry, &painter);
  tks_timeline_render_trigger (capture, geometry, &painter);
  tks_painter_finish (&painter);
  cairo_restore (cr);
  g_object_unref (pango);
}
