/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "tks-capture.h"
#include "tks-stats.h"

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

G_END_DECLS
