/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-timeline-events.h"
#include "tks-timeline-image.h"
#include "tks-timeline-render.h"

/* The timeline's image as the widget draws it for a view (TksTimelineImage: ruler, lanes,
 * events, trigger and headers into an image, in a worker for each new capture), then let
 * go. @coverage may be NULL (the summaries not ready yet). */
static inline void
bench_timeline_image (TksCapture                *capture,
                      const TksTimelineGeometry *g,
                      TksCoverageRef            *coverage,
                      PangoContext              *pango,
                      int                        width,
                      int                        height)
{
  static const GdkRGBA fg = { 0.2, 0.2, 0.2, 1 };
  TksTimelineImage *image = tks_timeline_image_new (capture, g, coverage, &fg, pango,
                                                    width, height, 1);

  tks_timeline_image_draw (image);
  tks_timeline_image_free (image);
}

/* The overview under the timeline, as tks-overview.c draws it for each new capture (in a
 * worker): the whole capture's lanes, @height px high, into an image. */
static inline void
bench_overview_image (TksCapture *capture,
                      int         width,
                      int         height)
{
  TksTimelineGeometry g = { 0 };
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);
  TksPainter painter;
  guint n = 0;

  tks_capture_get_shown_lanes (capture, FALSE, &n);
  g.x0 = tks_capture_get_start (capture);
  g.x1 = tks_capture_get_end (capture);
  g.left = TKS_TIMELINE_HEADER_WIDTH;
  g.width = width - TKS_TIMELINE_HEADER_WIDTH;
  g.top = 2;
  g.bottom = height - 2;
  g.lane_height = n > 0 ? MAX (1.0, (height - 4.0) / n) : 1;
  tks_painter_init_cairo (&painter, cr, NULL);
  tks_timeline_render_lanes (capture, &g, &painter);
  tks_timeline_render_log_end (capture, &g, &painter);
  tks_timeline_render_trigger (capture, &g, &painter);
  tks_painter_finish (&painter);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  cairo_surface_destroy (surface);
}
