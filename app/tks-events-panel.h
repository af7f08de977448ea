/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tks-event-list-model.h"
#include "tks-timeline-view.h"

G_BEGIN_DECLS

/*
 * The events list under the timeline (accessible name "Events list"): every entry of the
 * visible range in a table (time in the ruler's units, kind, thread or handler, detail,
 * duration), filtered by kind and by thread. Selecting a row brings its moment to the
 * middle of the timeline and selects its run; selecting a run on the timeline selects its
 * row. At the bottom of the list, it follows a recording's newest rows.
 */

#define TKS_TYPE_EVENTS_PANEL (tks_events_panel_get_type ())
G_DECLARE_FINAL_TYPE (TksEventsPanel, tks_events_panel, TKS, EVENTS_PANEL, GtkWidget)

TksTimelineView   *tks_events_panel_get_timeline (TksEventsPanel  *self);
void               tks_events_panel_set_timeline (TksEventsPanel  *self,
                                                  TksTimelineView *timeline);
/* The capture the timeline shows next is the next stretch of a recording, whose times are
 * those of the capture shown + @shift: the rows both have stay as the list made them. */
void               tks_events_panel_expect_next_capture (TksEventsPanel *self,
                                                         TksCapture     *capture,
                                                         double          shift);
TksEventListModel *tks_events_panel_get_model    (TksEventsPanel  *self);

G_END_DECLS
