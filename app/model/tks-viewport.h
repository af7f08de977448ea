/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/*
 * The visible part of a capture: a time range (in ticks) inside the capture's bounds, a
 * vertical scroll offset (in pixels) inside the lanes' content height, and a history of
 * views for Back/Forward. Plain GObject, no widgets: the timeline, the overview and the
 * window observe it through the "changed" signal.
 */

#define TKS_TYPE_VIEWPORT (tks_viewport_get_type ())
G_DECLARE_FINAL_TYPE (TksViewport, tks_viewport, TKS, VIEWPORT, GObject)

TksViewport *tks_viewport_new                (void);

void         tks_viewport_set_bounds         (TksViewport *self,
                                              double       start,
                                              double       end);
double       tks_viewport_get_start          (TksViewport *self);
double       tks_viewport_get_end            (TksViewport *self);

double       tks_viewport_get_visible_start  (TksViewport *self);
double       tks_viewport_get_visible_end    (TksViewport *self);
double       tks_viewport_get_span           (TksViewport *self);
double       tks_viewport_get_min_span       (TksViewport *self);

/* Changes the range without touching the history (continuous gestures). */
void         tks_viewport_set_range          (TksViewport *self,
                                              double       visible_start,
                                              double       visible_end);
/* Changes the range and records the previous view for Back. */
void         tks_viewport_navigate           (TksViewport *self,
                                              double       visible_start,
                                              double       visible_end);
/* What Zoom to fit shows (the bounds until set): the part of the capture that holds data,
 * without the stretch after the log's end where nothing is known. A view that showed the
 * whole capture moves to it. */
void         tks_viewport_set_fit            (TksViewport *self,
                                              double       start,
                                              double       end);
void         tks_viewport_zoom_to_fit        (TksViewport *self);
/* Zooms by @factor (> 1 zooms in) keeping the time at @anchor (0..1 of the width) in place. */
void         tks_viewport_zoom               (TksViewport *self,
                                              double       factor,
                                              double       anchor);
/* Pans by @fraction of the visible span (negative: towards the start). */
void         tks_viewport_pan                (TksViewport *self,
                                              double       fraction);
void         tks_viewport_pan_ticks          (TksViewport *self,
                                              double       ticks);
void         tks_viewport_go_start           (TksViewport *self);
void         tks_viewport_go_end             (TksViewport *self);

/* Records the current view for Back, unless the last record is younger than @coalesce_usec
 * (so one wheel or pinch gesture makes one history entry). */
void         tks_viewport_push_history       (TksViewport *self,
                                              gint64       coalesce_usec);
gboolean     tks_viewport_can_go_back        (TksViewport *self);
gboolean     tks_viewport_can_go_forward     (TksViewport *self);
gboolean     tks_viewport_go_back            (TksViewport *self);
gboolean     tks_viewport_go_forward         (TksViewport *self);
void         tks_viewport_clear_history      (TksViewport *self);

/* Vertical scrolling of the lanes, in pixels. */
void         tks_viewport_set_content_height (TksViewport *self,
                                              double       content_height,
                                              double       page_height);
double       tks_viewport_get_content_height (TksViewport *self);
double       tks_viewport_get_page_height    (TksViewport *self);
double       tks_viewport_get_v_offset       (TksViewport *self);
void         tks_viewport_set_v_offset       (TksViewport *self,
                                              double       v_offset);
void         tks_viewport_scroll_v           (TksViewport *self,
                                              double       dy);

/* Conversions for a timeline @width pixels wide. */
double       tks_viewport_time_to_x          (TksViewport *self,
                                              double       t,
                                              double       width);
double       tks_viewport_x_to_time          (TksViewport *self,
                                              double       x,
                                              double       width);

G_END_DECLS
