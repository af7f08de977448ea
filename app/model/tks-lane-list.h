/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "tks-capture.h"

G_BEGIN_DECLS

/*
 * The threads panel's model: one row per thread of a capture's shown lanes, except the exited
 * threads that share a name and a priority (two or more), which form one group row
 * ("NAME ×N") that can be expanded into its members ("#NUMBER, exited at X ms").
 *
 * Each row can be hidden or pinned (pinned rows come first); the rows are sorted by priority
 * (the timeline's order), load (CPU share of a range, descending) or name. The load order is
 * taken when it is asked for (tks_lane_list_set_sort(), tks_lane_list_sort_again()) and held:
 * a new range or capture changes the shares shown, never the order, so that the lanes hold
 * still while the view pans, zooms or records (rows new since then come last). A search text
 * filters the panel's rows only (tks_lane_list_get_rows()); the timeline's lanes
 * (tks_lane_list_get_lanes()) leave out the hidden rows only.
 *
 * Rows are named by a key that survives sorting and rebuilding: a thread's key holds its
 * number, name and priority, a group's its name and priority. tks_lane_list_set_capture()
 * rebuilds the rows from a new capture and keeps what the user chose (hidden, pinned,
 * expanded) for the keys found again; a capture of another board (fewer than half of the
 * threads' names and priorities in common) opens with its groups collapsed.
 *
 * The "changed" signal says that the rows or the lanes changed (any setter emits it). The rows
 * and lanes returned stay valid until the next tks_lane_list_set_capture(); the arrays of
 * tks_lane_list_get_rows() and tks_lane_list_get_lanes() until the next change.
 */

typedef enum
{
  TKS_LANE_SORT_PRIORITY, /* the timeline's order: by priority, as the capture lists them */
  TKS_LANE_SORT_LOAD,     /* CPU share of the range when the sort was applied, highest first */
  TKS_LANE_SORT_NAME,     /* by name (g_utf8_collate) */
} TksLaneSort;

typedef enum
{
  TKS_LANE_ROW_THREAD, /* one thread                            */
  TKS_LANE_ROW_GROUP,  /* exited threads of one name and priority */
  TKS_LANE_ROW_MEMBER, /* one thread of a group                  */
} TksLaneRowKind;

/* A row, read-only: change it through the list. */
typedef struct _TksLaneRow TksLaneRow;
struct _TksLaneRow
{
  TksLaneRowKind  kind;
  const char     *key;       /* stable: survives sorting and rebuilding */
  const char     *name;      /* the thread's name (what the search looks at) */
  const char     *label;     /* what the panel shows: the name, "NAME ×N", "#N, exited at…" */
  int             priority;
  const guint    *threads;   /* capture's thread indices: one, or a group's members */
  guint           n_threads;
  int             number;    /* a thread's or a member's number, -1 for a group */
  gboolean        hidden;
  gboolean        pinned;    /* top-level rows only (threads and groups) */
  gboolean        expanded;  /* groups only */
  double          run_time;  /* ticks run in the range (a group: the sum of its members) */
  double          share;     /* run_time as a percentage of the range's length */
  TksLaneRow     *group;     /* a member's group, else NULL */
};

/* One lane of the timeline: one thread, or a collapsed group's members shown as one. */
typedef struct
{
  const guint      *threads;   /* capture's thread indices, its runs are their union */
  guint             n_threads;
  const TksLaneRow *row;       /* the row it shows */
} TksLane;

#define TKS_TYPE_LANE_LIST (tks_lane_list_get_type ())
G_DECLARE_FINAL_TYPE (TksLaneList, tks_lane_list, TKS, LANE_LIST, GObject)

/* @with_exited_before_log: as tks_capture_get_shown_lanes(); @tick_hz: the rate the labels
 * convert exit positions with. The range is the whole capture until set. */
/* A thread's name as the viewer shows it (rows, lane headers, tooltips): its control
 * characters escaped as the command line shows them (\x1b), an empty or missing name said to
 * be one. */
char             *tks_lane_list_shown_name       (const char   *name);

TksLaneList      *tks_lane_list_new              (TksCapture   *capture,
                                                  gboolean      with_exited_before_log,
                                                  double        tick_hz);
/* Rebuilds the rows from @capture, keeping the choices made for the keys found again, the
 * sort, the search and the range. */
void              tks_lane_list_set_capture      (TksLaneList  *self,
                                                  TksCapture   *capture,
                                                  gboolean      with_exited_before_log);
TksCapture       *tks_lane_list_get_capture      (TksLaneList  *self);
void              tks_lane_list_set_tick_hz      (TksLaneList  *self,
                                                  double        tick_hz);

/* The time the members' exits are counted from (ticks; 0 until set), as a ruler's origin. */
void              tks_lane_list_set_time_origin  (TksLaneList  *self,
                                                  double        origin);

/* The range the shares are computed over, in ticks, clamped as tks_stats_compute() does
 * (from the capture's start to the log's end). */
void              tks_lane_list_set_range        (TksLaneList  *self,
                                                  double        from,
                                                  double        to);
void              tks_lane_list_set_sort         (TksLaneList  *self,
                                                  TksLaneSort   sort);
TksLaneSort       tks_lane_list_get_sort         (TksLaneList  *self);
/* Takes the load order anew from the shares of the range now set (the load sort keeps the
 * order it took until then). */
void              tks_lane_list_sort_again       (TksLaneList  *self);
/* Case-insensitive part of a name; NULL or "" shows every row. */
void              tks_lane_list_set_search       (TksLaneList  *self,
                                                  const char   *text);

/* The row of @key, or NULL. */
const TksLaneRow *tks_lane_list_find_row         (TksLaneList  *self,
                                                  const char   *key);
/* The row showing thread @thread (a thread's row, or a member's), or NULL. */
const TksLaneRow *tks_lane_list_find_thread      (TksLaneList  *self,
                                                  guint         thread);
/* Each returns FALSE when @key names no row (or, for pinning, a member; for expanding, not
 * a group). */
gboolean          tks_lane_list_set_hidden       (TksLaneList  *self,
                                                  const char   *key,
                                                  gboolean      hidden);
gboolean          tks_lane_list_set_pinned       (TksLaneList  *self,
                                                  const char   *key,
                                                  gboolean      pinned);
gboolean          tks_lane_list_set_expanded     (TksLaneList  *self,
                                                  const char   *key,
                                                  gboolean      expanded);

/* The panel's rows in order: pinned first, then the others, both in the sort's order; an
 * expanded group's members follow it. Only rows matching the search; hidden rows included. */
const TksLaneRow *const *tks_lane_list_get_rows  (TksLaneList  *self,
                                                  guint        *n_rows);
/* The timeline's lanes, top to bottom: as the rows, without the hidden ones and whatever the
 * search; a collapsed group is one lane, an expanded one a lane per member. */
const TksLane    *tks_lane_list_get_lanes        (TksLaneList  *self,
                                                  guint        *n_lanes);

G_END_DECLS
