/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "tks-capture.h"
#include "tks-stats.h"
#include "tks-stats-worst.h"

G_BEGIN_DECLS

/* One row of the statistics table: the core's figures for one thread, as properties the
 * table's sorters and cells can read. */

#define TKS_TYPE_STATS_ROW (tks_stats_row_get_type ())
G_DECLARE_FINAL_TYPE (TksStatsRow, tks_stats_row, TKS, STATS_ROW, GObject)

TksStatsRow          *tks_stats_row_new       (const TksThread      *thread,
                                               guint                 lane,
                                               const TksThreadStats *stats);
const char           *tks_stats_row_get_name  (TksStatsRow          *self);
guint                 tks_stats_row_get_lane  (TksStatsRow          *self);
const TksThreadStats *tks_stats_row_get_stats (TksStatsRow          *self);

/* One line of the events' tables (wake-up latency, handlers, markers, CPU share): a name,
 * figures by column and, for a latency, a histogram. */

#define TKS_TYPE_STATS_LINE (tks_stats_line_get_type ())
G_DECLARE_FINAL_TYPE (TksStatsLine, tks_stats_line, TKS, STATS_LINE, GObject)

TksStatsLine *tks_stats_line_new           (const char    *name,
                                            const double  *values,
                                            guint          n_values);
const char   *tks_stats_line_get_name      (TksStatsLine  *self);
double        tks_stats_line_get_value     (TksStatsLine  *self,
                                            guint          i);
void          tks_stats_line_set_histogram (TksStatsLine  *self,
                                            const guint   *counts,
                                            guint          n_buckets,
                                            double         bucket);
const guint  *tks_stats_line_get_histogram (TksStatsLine  *self,
                                            guint         *n_buckets,
                                            double        *bucket);
void          tks_stats_line_set_worst     (TksStatsLine  *self,
                                            TksWorstKind   kind,
                                            guint          key);
gboolean      tks_stats_line_get_worst     (TksStatsLine  *self,
                                            TksWorstKind  *kind,
                                            guint         *key);
int           tks_stats_line_compare       (TksStatsLine  *a,
                                            TksStatsLine  *b,
                                            guint          column);

G_END_DECLS
