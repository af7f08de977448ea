/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tks-capture.h"

G_BEGIN_DECLS

/*
 * The "Live load" table of a recording: each thread's CPU share, switches per second and
 * longest run over the last second of a capture, busiest first. A GtkColumnView, its columns
 * resizable; for screen readers a table of a row per thread named by what its cells say.
 */

#define TKS_TYPE_LIVE_LOAD_TABLE (tks_live_load_table_get_type ())

G_DECLARE_FINAL_TYPE (TksLiveLoadTable, tks_live_load_table, TKS, LIVE_LOAD_TABLE, GtkWidget)

GtkWidget *tks_live_load_table_new    (void);
/* The last second of @capture. */
void       tks_live_load_table_update (TksLiveLoadTable *self,
                                       TksCapture       *capture);
/* What the numbers are worth (the stream's drops and silences; NULL: nothing to say), given
 * as the table's description; a @stalled stream greys the table out. */
void       tks_live_load_table_set_state (TksLiveLoadTable *self,
                                          const char       *state,
                                          gboolean          stalled);
/* A new recording's table: the heading only. */
void       tks_live_load_table_clear  (TksLiveLoadTable *self);

G_END_DECLS
