/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the events list's model (tks-event-list-model.c) and its rows (tks-event-row.c) share:
 * their fields, and the functions one calls in the other. */
#pragma once

#include "tks-event-list-model.h"

G_BEGIN_DECLS

struct _TksEventRow
{
  GObject          parent_instance;
  guint            index;
  TksEventRowKind  kind;
  double           time;
  char            *who;
  char            *detail;
  double           duration;
  guint            thread;
};

/* A row that is not an entry of the log: a hole, the log's end, a trigger without an entry.
 * @ins: the entries placed before it. */
typedef struct
{
  double  pos;
  guint32 kind;   /* TksEventRowKind */
  guint32 data;   /* a hole: its index */
  guint   ins;
} Extra;

struct _TksEventListModel
{
  GObject              parent_instance;

  TksCapture          *capture;
  TksEvents           *events;
  const TksEventEntry *entries;     /* with events: the base rows */
  guint                n_base;      /* entries, or switch records on the timeline */
  guint               *kept;        /* without events: the records on the timeline, when some
                                       were dropped (else record = base index) */
  GArray              *extras;      /* Extra, by time */
  guint                n_merged;    /* n_base + extras */
  guint               *by_number;   /* thread indices sorted by (number, index) */

  TksEventFilter       kinds;
  guint                thread;
  guint               *index;       /* with a filter: the merged rows that pass, else NULL */
  guint                n_all;

  double               from, to;
  guint                lo, hi;      /* the rows in range: [lo, hi) of the n_all */

  GHashTable          *cache;       /* position among n_all => TksEventRow */
};

/* tks-event-list-model.c: which thread a number names at a time */
guint       _tks_event_list_model_thread_of_number (TksEventListModel *self,
                                                    guint              number,
                                                    double             t);
guint       _tks_event_list_model_thread_of_switch (TksEventListModel *self,
                                                    guint              number,
                                                    double             t,
                                                    gboolean           in);
const char *_tks_event_list_model_thread_name      (TksEventListModel *self,
                                                    guint              thread,
                                                    guint              number,
                                                    char             **owned);

/* tks-event-row.c: what a row says */
TksEventRowKind _tks_event_row_kind_of_entry (const TksEventEntry *e);
void            _tks_event_row_fill_entry    (TksEventListModel   *self,
                                              TksEventRow         *row,
                                              const TksEventEntry *e);
void            _tks_event_row_fill_extra    (TksEventListModel   *self,
                                              TksEventRow         *row,
                                              const Extra         *x);

G_END_DECLS
