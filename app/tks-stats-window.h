/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tks-capture.h"

G_BEGIN_DECLS

/* A sortable per-thread table: activations, CPU time, share, longest and mean run, for the
 * whole capture or the visible range. */

#define TKS_TYPE_STATS_WINDOW (tks_stats_window_get_type ())
G_DECLARE_FINAL_TYPE (TksStatsWindow, tks_stats_window, TKS, STATS_WINDOW, GtkWindow)

GtkWidget *tks_stats_window_new         (GtkWindow      *parent);
void       tks_stats_window_set_capture (TksStatsWindow *self,
                                         TksCapture     *capture);
void       tks_stats_window_set_range   (TksStatsWindow *self,
                                         double          visible_start,
                                         double          visible_end);

G_END_DECLS
