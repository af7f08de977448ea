/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tks-capture.h"
#include "tks-timeline-render.h"
#include "tks-viewport.h"

G_BEGIN_DECLS

#define TKS_TYPE_TIMELINE_VIEW (tks_timeline_view_get_type ())
G_DECLARE_FINAL_TYPE (TksTimelineView, tks_timeline_view, TKS, TIMELINE_VIEW, GtkWidget)

/* What changes how the view looks is a property, notified when it changes (so that it can be
 * bound): "capture", "viewport", "tick-hz", "all-lanes", "ruler-ticks", "load-graph",
 * "wake-arrows", "time-origin" and "stretch"; "info" (read-only) is the line that tells the
 * selection. The setters below set them. Which thread lanes are shown, and in what order, is
 * the lane list's (tks_timeline_view_get_lane_list()). */

GtkWidget   *tks_timeline_view_new           (void);
TksCapture  *tks_timeline_view_get_capture   (TksTimelineView     *self);
void         tks_timeline_view_set_capture   (TksTimelineView     *self,
                                              TksCapture          *capture);
/* Another stretch of the same recording, whose times are those of the capture shown plus
 * @shift ticks (the board's tick wrapped in between, or not: 0). Unlike set_capture(), the
 * marks A and B, the ruler's 0 and the selected run stay where they were in the recording:
 * the run is found again by its thread's name and its time, and stays selected while the
 * stretch has it. */
void         tks_timeline_view_set_next_capture (TksTimelineView *self,
                                                 TksCapture      *capture,
                                                 double           shift);
/* The capture shown is a stretch of a recording under way (TRUE) rather than a whole log: a
 * run's number among its thread's runs, and the wait before a thread's first run in the
 * stretch, are then not known and not shown. set_capture() makes it FALSE ("stretch"). */
void         tks_timeline_view_set_stretch   (TksTimelineView     *self,
                                              gboolean             stretch);
TksViewport *tks_timeline_view_get_viewport  (TksTimelineView     *self);
void         tks_timeline_view_set_viewport  (TksTimelineView     *self,
                                              TksViewport         *viewport);
double       tks_timeline_view_get_tick_hz   (TksTimelineView     *self);
void         tks_timeline_view_set_tick_hz   (TksTimelineView     *self,
                                              double               tick_hz);
gboolean     tks_timeline_view_get_all_lanes (TksTimelineView     *self);
void         tks_timeline_view_set_all_lanes (TksTimelineView     *self,
                                              gboolean             all_lanes);
/* The ruler in board ticks (TRUE) or in real time from an origin (FALSE, the default). */
gboolean     tks_timeline_view_get_ruler_ticks (TksTimelineView   *self);
void         tks_timeline_view_set_ruler_ticks (TksTimelineView   *self,
                                              gboolean             ruler_ticks);
/* Arrows from what made each visible thread ready (a thread's lane, a handler's) to the run
 * it led to, once the view is zoomed in enough to tell them apart ("wake-arrows"). */
gboolean     tks_timeline_view_get_wake_arrows (TksTimelineView   *self);
void         tks_timeline_view_set_wake_arrows (TksTimelineView   *self,
                                                gboolean           wake_arrows);
/* A lane of the CPU's load (threads stacked, idle left out) above the others ("load-graph"). */
gboolean     tks_timeline_view_get_load_graph (TksTimelineView    *self);
void         tks_timeline_view_set_load_graph (TksTimelineView    *self,
                                              gboolean             load_graph);
/* The time ruler's 0 at @t (ticks); NAN: the trigger, or the capture's start without one
 * ("time-origin"). */
void         tks_timeline_view_set_time_origin (TksTimelineView   *self,
                                              double               t);
double       tks_timeline_view_get_time_origin (TksTimelineView   *self);
/* The thread lanes: what the threads panel shows and changes (hide, pin, group, sort), and
 * what the timeline draws; NULL before the first capture. "lanes-changed" tells when the
 * lanes drawn change. */
TksLaneList *tks_timeline_view_get_lane_list (TksTimelineView     *self);
const char  *tks_timeline_view_get_info      (TksTimelineView     *self);
void         tks_timeline_view_get_geometry  (TksTimelineView     *self,
                                              double               width,
                                              double               height,
                                              TksTimelineGeometry *geometry);
/* The first and last (exclusive) lanes fully or partly visible. */
gboolean     tks_timeline_view_get_visible_lanes (TksTimelineView *self,
                                                  double          *first,
                                                  double          *last);
void         tks_timeline_view_clear_marks   (TksTimelineView     *self);
/* The measurement marks A and B (Shift+click), NAN when unset; TRUE when both are set. */
gboolean     tks_timeline_view_get_marks     (TksTimelineView     *self,
                                              double              *a,
                                              double              *b);
/* The selected run's begin and end (ticks); FALSE when no run is selected. */
gboolean     tks_timeline_view_get_selected_run (TksTimelineView  *self,
                                                 double           *begin,
                                                 double           *end);

/* Times in the ruler's units (tks-timeline-view-find.c): a point, "12.345 ms (tick 7904)" from
 * the ruler's 0 ("tick 7904" on a ruler in ticks), and a length. */
char        *tks_timeline_view_format_time   (TksTimelineView     *self,
                                              double               t);
char        *tks_timeline_view_format_span   (TksTimelineView     *self,
                                              double               ticks);
/* The view moved, its span kept, to have @t in its middle (a step of Back). */
void         tks_timeline_view_centre_on     (TksTimelineView     *self,
                                              double               t);
/* Selects run @run of @thread ("selection-changed" is emitted); FALSE when its lane is not
 * shown. */
gboolean     tks_timeline_view_select_run    (TksTimelineView     *self,
                                              guint                thread,
                                              guint                run);
gboolean     tks_timeline_view_get_selection (TksTimelineView     *self,
                                              guint               *thread,
                                              guint               *run);
/* Find's matches (TksFindMatch, sorted by begin), highlighted on their lanes; NULL: none. */
void         tks_timeline_view_set_matches   (TksTimelineView     *self,
                                              GArray              *matches);

/*
 * The details of what is selected on a timeline (accessible name "Selection"): the thread,
 * begin, end, duration, activation, the wait before the run and its wake-up latency, the two
 * cursors and the time between them, in the units of the ruler. Hidden while nothing is.
 */
#define TKS_TYPE_SELECTION_PANEL (tks_selection_panel_get_type ())
G_DECLARE_FINAL_TYPE (TksSelectionPanel, tks_selection_panel, TKS, SELECTION_PANEL, GtkWidget)

TksTimelineView *tks_selection_panel_get_timeline (TksSelectionPanel *self);
void             tks_selection_panel_set_timeline (TksSelectionPanel *self,
                                                   TksTimelineView   *timeline);

G_END_DECLS
