/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tks-timeline-view.h"

G_BEGIN_DECLS

/*
 * Find (Ctrl+F): an expression of find (tks-find.h) typed in an entry (accessible name
 * "Find"), its matches counted beside it (or what is wrong with it) and highlighted on the
 * timeline; Enter and F3 go to the next match, Shift+Enter and Shift+F3 to the previous one,
 * each brought to the middle of the timeline and its run selected.
 */

#define TKS_TYPE_FIND_BAR (tks_find_bar_get_type ())
G_DECLARE_FINAL_TYPE (TksFindBar, tks_find_bar, TKS, FIND_BAR, GtkWidget)

void      tks_find_bar_set_timeline (TksFindBar      *self,
                                     TksTimelineView *timeline);
void      tks_find_bar_focus        (TksFindBar      *self);
/* Goes to the next match (@forward) or the previous one: FALSE when there is none. */
gboolean  tks_find_bar_go           (TksFindBar      *self,
                                     gboolean         forward);
/* The entry's text is dropped, and the highlights with it. */
void      tks_find_bar_clear        (TksFindBar      *self);

G_END_DECLS
