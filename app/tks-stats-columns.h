/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tks-stats.h"
#include "tks-stats-row.h"

G_BEGIN_DECLS

/* The cells of the statistics window's tables. A table of TksStatsLine has one column per
 * title, each showing the line's name, its next value in one of these forms, or its latency
 * histogram. */

typedef enum
{
  TKS_STATS_CELL_NAME,
  TKS_STATS_CELL_COUNT,
  TKS_STATS_CELL_US,
  TKS_STATS_CELL_MS,
  TKS_STATS_CELL_PERCENT,
  TKS_STATS_CELL_HISTOGRAM,
} TksStatsCell;

#define TKS_STATS_HISTOGRAM_BUCKETS 16

/* A cell's label: a name on the left, ellipsized, or a figure on the right. */
GtkWidget *tks_stats_cell_label_new   (gboolean            numeric);
/* @v with @decimals and @suffix; NAN: a dash. */
char      *tks_stats_format_number    (double              v,
                                       int                 decimals,
                                       const char         *suffix);
/* A resizable column; takes @sorter. */
void       tks_stats_append_column    (GtkColumnView      *view,
                                       const char         *title,
                                       GtkListItemFactory *factory,
                                       GtkSorter          *sorter,
                                       gboolean            expand);
void       tks_stats_set_rows         (GtkColumnView      *view,
                                       GListStore         *store);
/* The statistics window's summary of @totals: the range (in time from the trigger, else the
 * capture's start, then in ticks), its length, its activations and the share runs cover. */
char      *tks_stats_summary_text     (TksCapture           *capture,
                                       const TksStatsTotals *totals,
                                       double                tick_hz);
/* The text of a cell of the per-thread table (@prop: its column's property); @csv: a figure
 * without its unit, none empty. */
char      *tks_stats_row_cell_text    (TksStatsRow        *row,
                                       const char         *prop,
                                       double              ms_per_tick,
                                       gboolean            csv);
/* The table @view as CSV: its visible columns' titles (a share's with its unit), then its
 * rows in the order shown, each cell as shown, a figure without its unit and none empty. */
char      *tks_stats_table_csv        (GtkColumnView      *view,
                                       double              ms_per_tick);
/* The columns of a table of TksStatsLine (@store), then its rows. */
void       tks_stats_add_line_columns (GtkColumnView      *view,
                                       GListStore         *store,
                                       const char        **titles,
                                       const TksStatsCell *kinds,
                                       guint               n_columns);

/* The tables of the statistics window's events' pages: wake-up latency, handlers, markers
 * and CPU share, their columns and rows. */
void       tks_stats_add_event_columns (GtkColumnView     *latency_view,
                                        GListStore        *latency,
                                        GtkColumnView     *handlers_view,
                                        GListStore        *handlers,
                                        GtkColumnView     *markers_view,
                                        GListStore        *markers,
                                        GtkColumnView     *cpu_view,
                                        GListStore        *cpu);

G_END_DECLS
