/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-timeline-events.h"
#include "tks-timeline-image.h"
#include "tks-timeline-render.h"

/* The text and runs' colour of the benchmarks' images */
static const GdkRGBA bench_fg = { 0.2, 0.2, 0.2, 1 };

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
  TksTimelineImage *image = tks_timeline_image_new (capture, g, coverage, &bench_fg, pango,
                                                    width, height, 1);

  tks_timeline_image_draw (image);
  tks_timeline_image_free (image);
}

/* The same into @surface (ARGB32, @width x @height), drawn into before: as the widget draws
 * its images again and again into the same few surfaces. */
static inline void
bench_timeline_image_into (TksCapture                *capture,
                           const TksTimelineGeometry *g,
                           TksCoverageRef            *coverage,
                           PangoContext              *pango,
                           cairo_surface_t           *surface,
                           int                        width,
                           int                        height)
{
  TksTimelineImage *image = tks_timeline_image_new (capture, g, coverage, &bench_fg, pango,
                                                    width, height, 1);

  tks_timeline_image_set_surface (image, surface);
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
  TksTimelineGeometry g;

  tks_overview_geometry (capture, tks_capture_get_start (capture), tks_capture_get_end (capture),
                         width, height, &g);
  cairo_surface_destroy (tks_overview_image_draw (capture, &g, &bench_fg, width, height, 1));
}
