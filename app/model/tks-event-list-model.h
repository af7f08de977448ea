/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "tks-capture.h"
#include "tks-events.h"

G_BEGIN_DECLS

/*
 * The events list: every entry of a capture's log inside a range of time, one row each, in
 * time order, with the holes, the log's end and the trigger among them. A capture with events
 * (dump version 2) lists its entries; one without lists its switch records.
 *
 * The rows are computed on demand from the capture's arrays: the model keeps no object per
 * row, only a small cache of the rows last asked for. Without a filter a row is found in
 * O(log n); a filter (by kind, by thread) keeps one index of the rows that pass it, built once
 * for the capture and the filter. Changing the range costs O(log n) and tells the view what
 * left and came at either end, so a view keeps its place.
 */

/* What a row is. */
typedef enum
{
  TKS_EVENT_ROW_SWITCH,       /* a thread switched out, another in: "A → B" */
  TKS_EVENT_ROW_EXIT,         /* a thread exited */
  TKS_EVENT_ROW_HANDLER,      /* a handler entered: its duration */
  TKS_EVENT_ROW_HANDLER_END,  /* a handler left */
  TKS_EVENT_ROW_SLEEP,        /* the CPU went idle: what woke it */
  TKS_EVENT_ROW_WAKE,         /* the CPU left idle */
  TKS_EVENT_ROW_READY,        /* a thread was made ready: its wake-up latency */
  TKS_EVENT_ROW_MARKER,       /* a marker: its value */
  TKS_EVENT_ROW_STATE,        /* a state began: its duration */
  TKS_EVENT_ROW_STATE_END,    /* a state ended */
  TKS_EVENT_ROW_TRIGGER,      /* the trigger */
  TKS_EVENT_ROW_HOLE,         /* a hole in the log: switches not recorded */
  TKS_EVENT_ROW_LOG_END,      /* where the log ends (before the capture's end) */
  TKS_N_EVENT_ROW_KINDS
} TksEventRowKind;

/* The kinds a filter lets through, by family. */
typedef enum
{
  TKS_EVENT_FILTER_SWITCHES = 1 << 0, /* switches and exits */
  TKS_EVENT_FILTER_HANDLERS = 1 << 1, /* handlers' enter and leave */
  TKS_EVENT_FILTER_SLEEP    = 1 << 2, /* sleep and wake */
  TKS_EVENT_FILTER_WAKEUPS  = 1 << 3, /* threads made ready */
  TKS_EVENT_FILTER_MARKERS  = 1 << 4,
  TKS_EVENT_FILTER_STATES   = 1 << 5, /* states' begin and end */
  TKS_EVENT_FILTER_LOG      = 1 << 6, /* trigger, holes, log end */
  TKS_EVENT_FILTER_ALL      = (1 << 7) - 1,
} TksEventFilter;

/* The family of a kind. */
TksEventFilter   tks_event_row_kind_family  (TksEventRowKind kind);
/* A kind in words ("switch", "handler", ...), translated. */
const char      *tks_event_row_kind_name    (TksEventRowKind kind);

/* One row. Times are positions in ticks; the view formats them in its ruler's units. */
#define TKS_TYPE_EVENT_ROW (tks_event_row_get_type ())
G_DECLARE_FINAL_TYPE (TksEventRow, tks_event_row, TKS, EVENT_ROW, GObject)

/* Its place in the whole list of the capture (the range and the filter apart). */
guint            tks_event_row_get_index    (TksEventRow *self);
TksEventRowKind  tks_event_row_get_kind     (TksEventRow *self);
double           tks_event_row_get_time     (TksEventRow *self);
/* The thread, handler, marker, channel it is about ("" for the log's rows). */
const char      *tks_event_row_get_who      (TksEventRow *self);
/* What happened, in words: "idle → sensor", "latency 12.4 µs", "value 42". */
const char      *tks_event_row_get_detail   (TksEventRow *self);
/* Its length in ticks (a run after a switch, a handler, a sleep, a state, a wake-up's wait,
 * a hole); NAN when it has none. */
double           tks_event_row_get_duration (TksEventRow *self);
/* The thread it is about (switched in, made ready), G_MAXUINT when none. */
guint            tks_event_row_get_thread   (TksEventRow *self);

#define TKS_TYPE_EVENT_LIST_MODEL (tks_event_list_model_get_type ())
G_DECLARE_FINAL_TYPE (TksEventListModel, tks_event_list_model, TKS, EVENT_LIST_MODEL, GObject)

TksEventListModel *tks_event_list_model_new        (void);
/* A new capture (a new fetch, the next second of a recording): the range stays. */
void               tks_event_list_model_set_capture (TksEventListModel *self,
                                                     TksCapture        *capture);
/* The next stretch of a recording (or the whole recording after its last stretch), whose
 * times are those of the capture shown + @shift; @thread: the thread filter's thread among
 * @capture's (G_MAXUINT: every thread). The range stays where it was in time. The rows a view
 * holds that @capture has, saying the same, are given back at their new places (the same
 * objects): a view keeps what it made of them, whatever the size of the capture. */
void               tks_event_list_model_set_next_capture (TksEventListModel *self,
                                                          TksCapture        *capture,
                                                          double             shift,
                                                          guint              thread);
TksCapture        *tks_event_list_model_get_capture (TksEventListModel *self);
/* The rows whose time is in [@from, @to]; NAN: the capture's start or end. */
void               tks_event_list_model_set_range   (TksEventListModel *self,
                                                     double             from,
                                                     double             to);
void               tks_event_list_model_set_filter  (TksEventListModel *self,
                                                     TksEventFilter     kinds,
                                                     guint              thread);
TksEventFilter     tks_event_list_model_get_kinds   (TksEventListModel *self);
/* G_MAXUINT: every thread. */
guint              tks_event_list_model_get_thread  (TksEventListModel *self);
/* Rows of the whole capture that pass the filter (the range apart). */
guint              tks_event_list_model_get_n_all   (TksEventListModel *self);
/* The position in the model (range and filter applied) of the first row at or after @t;
 * the number of rows when none is. */
guint              tks_event_list_model_find_time   (TksEventListModel *self,
                                                     double             t);
/* The position of the switch that begins @thread's run at @t, else of the first row at @t
 * or after. */
guint              tks_event_list_model_find_run    (TksEventListModel *self,
                                                     guint              thread,
                                                     double             t);

/* The position in the model of the row whose index (tks_event_row_get_index()) is @index,
 * G_MAXUINT when it is out of the range. */
guint              tks_event_list_model_position_of (TksEventListModel *self,
                                                     guint              index);

/* The run a row leads to, for a view to select: @thread's run under way at @t (the row's
 * thread when it has one, else the thread that held the CPU then). FALSE when none. */
gboolean           tks_event_list_run_at            (TksCapture        *capture,
                                                     guint              thread,
                                                     double             t,
                                                     guint             *run_thread,
                                                     guint             *run);

G_END_DECLS
