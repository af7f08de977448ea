/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The lane headers as an export draws them (the widget has inscriptions for them), the
 * width they need, and the fonts of all the timeline's texts loaded ahead of the first frame. */
#include "config.h"

#include <math.h>

#include "tks-timeline-events.h"
#include "tks-timeline-render.h"

const char *
tks_timeline_lane_name (TksCapture                *capture,
                        const TksTimelineGeometry *g,
                        guint                      lane,
                        int                       *priority)
{
  guint n_threads;
  const TksLaneRow *row;
  const guint *threads = tks_timeline_lane_threads (capture, g, lane, &n_threads, &row);
  const TksThread *thread;

  if (row != NULL)
    {
      *priority = row->priority;
      return row->label;
    }
  thread = n_threads > 0 ? tks_capture_get_thread (capture, threads[0]) : NULL;
  if (thread == NULL)
    return NULL;
  *priority = thread->priority;
  return thread->name != NULL ? thread->name : "?";
}

void
tks_timeline_render_headers (TksCapture                *capture,
                             const TksTimelineGeometry *g,
                             TksPainter                *painter)
{
  guint n_lanes, first, last, l;
  g_autoptr(PangoLayout) layout = NULL;
  TksClipPainter scrolled;

  if (capture == NULL || painter->pango == NULL)
    return;
  n_lanes = tks_timeline_n_lanes (capture, g);
  if (!tks_timeline_visible_lanes (g, n_lanes, &first, &last))
    first = last = 0;
  layout = pango_layout_new (painter->pango);
  pango_layout_set_width (layout, (int)(g->left - 12) * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  /* the scrolled lanes' headers below the pinned ones, then the pinned ones */
  tks_clip_painter_init (&scrolled, painter, tks_timeline_scroll_top (g));
  for (guint k = 0; k < (last - first) + MIN (g->n_pinned, n_lanes); k++)
    {
      TksPainter *p = k < last - first ? &scrolled.base : painter;
      guint n_threads;
      const guint *threads;
      g_autofree char *label = NULL;
      const char *name;
      int lw, lh, priority;
      GdkRGBA color;

      l = k < last - first ? first + k : k - (last - first);
      threads = tks_timeline_lane_threads (capture, g, l, &n_threads, NULL);
      name = tks_timeline_lane_name (capture, g, l, &priority);
      if (name == NULL)
        continue;
      label = g_strdup_printf ("%s  %d", name, priority);
      pango_layout_set_text (layout, label, -1);
      pango_layout_get_pixel_size (layout, &lw, &lh);
      tks_timeline_thread_color (tks_capture_get_thread (capture, threads[0]), &color);
      p->fill (p, &color, 2, tks_timeline_lane_y (g, l) + 6, 4, g->lane_height - 12);
      p->text (p, &painter->fg, 10, tks_timeline_lane_y (g, l) + (g->lane_height - lh) / 2, layout);
    }
}

void
tks_timeline_warm_up_fonts (PangoContext *pango)
{
  g_autoptr(PangoLayout) layout = NULL;
  int w, h;

  g_return_if_fail (PANGO_IS_CONTEXT (pango));

  layout = pango_layout_new (pango);
  /* what the ruler, the lane names and the trigger label are made of */
  pango_layout_set_text (layout,
                         "0123456789.,- ms s µs ticks Trigger: Thread ()\n"
                         "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ _…", -1);
  pango_layout_get_pixel_size (layout, &w, &h);
}

/* A painter that draws nothing and keeps where the text it is given ends on the right. */
typedef struct
{
  TksPainter base;
  double     right;
} MeasurePainter;

static void
measure_fill (TksPainter    *painter,
              const GdkRGBA *color,
              double         x,
              double         y,
              double         width,
              double         height)
{
}

static void
measure_text (TksPainter    *painter,
              const GdkRGBA *color,
              double         x,
              double         y,
              PangoLayout   *layout)
{
  MeasurePainter *self = (MeasurePainter *) painter;
  int w;

  pango_layout_get_pixel_size (layout, &w, NULL);
  self->right = MAX (self->right, x + w);
}

double
tks_timeline_header_width (TksCapture                *capture,
                           const TksTimelineGeometry *geometry,
                           PangoContext              *pango)
{
  MeasurePainter m = { { 0 }, 0 };
  TksTimelineGeometry wide = *geometry;

  g_return_val_if_fail (PANGO_IS_CONTEXT (pango), TKS_TIMELINE_HEADER_WIDTH);

  m.base.fill = measure_fill;
  m.base.text = measure_text;
  m.base.pango = pango;
  /* the headers as drawn with room for any name: nothing is ellipsized */
  wide.left = 100000;
  tks_timeline_render_headers (capture, &wide, &m.base);
  tks_timeline_render_event_headers (capture, &wide, &m.base);
  return CLAMP (ceil (m.right) + 16, TKS_TIMELINE_HEADER_WIDTH, TKS_TIMELINE_HEADER_MAX_WIDTH);
}
