/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tks-capture.h"
#include "tks-timeline-view.h"

G_BEGIN_DECLS

/* A sortable per-thread table: activations, CPU time, share, shortest, mean and longest run,
 * over the whole capture, the visible range, the range between the marks A and B or the
 * selected run. With events: the wake-up latency of each thread, the interrupt handlers, the
 * markers and the CPU share without handlers over the same range, in their own pages.
 * Properties: "capture", "tick-hz", "mode", and the ranges' ends in ticks, "visible-start",
 * "visible-end", "mark-a", "mark-b", "run-begin", "run-end" (NAN: unset), each notified
 * when it changes. */

typedef enum
{
  TKS_STATS_RANGE_WHOLE,
  TKS_STATS_RANGE_VISIBLE,
  TKS_STATS_RANGE_MARKS,
  TKS_STATS_RANGE_RUN,
  TKS_N_STATS_RANGES
} TksStatsRange;

#define TKS_TYPE_STATS_RANGE (tks_stats_range_get_type ())
GType tks_stats_range_get_type (void);

#define TKS_TYPE_STATS_WINDOW (tks_stats_window_get_type ())
G_DECLARE_FINAL_TYPE (TksStatsWindow, tks_stats_window, TKS, STATS_WINDOW, GtkWindow)

GtkWidget *tks_stats_window_new         (GtkWindow      *parent);
void       tks_stats_window_set_capture (TksStatsWindow *self,
                                         TksCapture     *capture);
/* Ticks per second of the times shown (0: the capture's). */
void       tks_stats_window_set_tick_hz (TksStatsWindow *self,
                                         double          tick_hz);
void       tks_stats_window_set_range   (TksStatsWindow *self,
                                         double          visible_start,
                                         double          visible_end);
/* The marks A and B (NAN when unset), the selected run (NAN, NAN: none). */
void       tks_stats_window_set_marks   (TksStatsWindow *self,
                                         double          a,
                                         double          b);
void       tks_stats_window_set_selected_run (TksStatsWindow *self,
                                              double          begin,
                                              double          end);
/* The timeline the instances are shown in, for their times in its ruler's units. */
void       tks_stats_window_set_timeline (TksStatsWindow  *self,
                                          TksTimelineView *timeline);
/* Writes the table shown (the threads' on the periods' page) as CSV to @path, through a
 * temporary file renamed over it. */
gboolean   tks_stats_window_export_csv  (TksStatsWindow  *self,
                                         const char      *path,
                                         GError         **error);
/* Which range the figures cover; one that is not available falls back to the whole capture. */
void       tks_stats_window_set_mode    (TksStatsWindow *self,
                                         TksStatsRange   mode);
TksStatsRange tks_stats_window_get_mode (TksStatsWindow *self);

G_END_DECLS
