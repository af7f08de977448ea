/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tks-timeline-view.h"

G_BEGIN_DECLS

/*
 * The threads panel (accessible name "Threads"): every thread lane of a timeline with its
 * priority and its CPU share of the visible range (or of the A–B cursors), a load bar,
 * a check to show or hide the lane and a pin to keep it on top; exited threads of one name
 * and priority as one group row that expands into its members. A search entry ("Search
 * threads") filters the rows; a dropdown sorts them (and the lanes) by priority, load or
 * name. Its model is the timeline's lane list (tks_timeline_view_get_lane_list()).
 */

#define TKS_TYPE_THREADS_PANEL (tks_threads_panel_get_type ())
G_DECLARE_FINAL_TYPE (TksThreadsPanel, tks_threads_panel, TKS, THREADS_PANEL, GtkWidget)

TksTimelineView *tks_threads_panel_get_timeline (TksThreadsPanel *self);
void             tks_threads_panel_set_timeline (TksThreadsPanel *self,
                                                 TksTimelineView *timeline);
/* Moves the keyboard focus to the search entry, its text selected. */
void             tks_threads_panel_focus_search (TksThreadsPanel *self);

G_END_DECLS
