/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-timeline-events.h"
#include "tks-timeline-render.h"

/* One frame as the timeline widget draws it: ruler, lanes, events, trigger and headers into
 * render nodes, then let go. Returns the rectangles filled. */
static inline guint
bench_frame_nodes (TksCapture                *capture,
                   const TksTimelineGeometry *g,
                   PangoContext              *pango)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  TksPainter painter;

  tks_painter_init_snapshot (&painter, snapshot, pango);
  tks_timeline_render_ruler (capture, g, &painter);
  tks_timeline_render_lanes (capture, g, &painter);
  tks_timeline_render_events (capture, g, &painter);
  tks_timeline_render_trigger (capture, g, &painter);
  tks_timeline_render_headers (capture, g, &painter);
  tks_painter_finish (&painter);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node != NULL)
    gsk_render_node_unref (node);
  return painter.n_fills;
}
