/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-timeline-render.h"

G_BEGIN_DECLS

/*
 * A view of the timeline as an image that stands alone: PNG, SVG or PDF, with a band above
 * the timeline that names the capture, tells the time range shown (in the ruler's origin and
 * unit) and gives a legend of what the picture draws (each lane's colour and name, handlers,
 * the CPU's sleep, switch marks, exits, the trigger). The timeline is drawn by the same
 * passes as on screen (tks-timeline-render.h). An SVG keeps its text as text: every label is
 * a <text> element (in the view's font, stretched to the width Pango gave it), every shape a
 * path.
 */

typedef struct
{
  TksCapture                *capture;
  const TksTimelineGeometry *geometry;  /* the view, drawn at (0, 0) in @width x @height */
  double                     width;
  double                     height;
  PangoContext              *like;      /* the font, resolution and options to draw with
                                           (a widget's context); NULL: Pango's defaults */
  const char                *title;     /* the capture's name, e.g. its file's */
} TksTimelineExport;

/* Writes @request's view to @path as @format ("png", "svg" or "pdf"). */
gboolean tks_timeline_export_write (const TksTimelineExport *request,
                                    const char              *format,
                                    const char              *path,
                                    GError                 **error);

/* The range of @geometry as the ruler tells it: "12.000 ms to 48.500 ms, from the trigger",
 * or in board ticks when the ruler is. */
char    *tks_timeline_export_range (const TksTimelineGeometry *geometry);

/* The height of the band above the timeline for @request, at its width (tests). */
double   tks_timeline_export_band_height (const TksTimelineExport *request);

G_END_DECLS
