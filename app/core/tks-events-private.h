/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-capture-private.h"
#include "tks-events.h"
#include "tks-limits.h"

G_BEGIN_DECLS

/* The most names a board's table holds (ids 1 to 255). */
#define TKS_EVENTS_MAX_NAMES TKS_MAX_NAME_ID

/* One entry of a dump version 2 log, as the board printed it. */
typedef struct
{
  guint8  kind;      /* TksEventKind */
  guint32 tick;      /* 20 bits */
  guint32 counter;   /* the 32-bit counter (0 without one) */
  guint32 a;
  guint32 b;
  guint   record;    /* a switch: its index in the parsed records; another entry: the
                        records before it */
  guint8  slots;     /* the board's slots it takes */
} TksParsedEntry;

typedef struct
{
  guint8  kind;      /* TksNameKind */
  char   *name;
} TksParsedName;

/* What a dump version 2 adds to a parse: header keys, names, every entry of the log. */
struct _TksParsedEvents
{
  TksEventsInfo  info;           /* its strings are options and condition below */
  char          *options;
  char          *condition;
  char          *counted;        /* info.counted */
  GPtrArray     *counted_names;  /* of the "Counted handler" lines, the last count of each */
  GArray        *counted_calls;  /* guint64, one per name */
  gboolean       has_counter;    /* the header gave a counter frequency: every line has " @ " */
  guint          counter_coder;  /* a compact log's coder of the counter (1, or 2 when the
                                  * header says "Counter coder: 2") */
  TksParsedName  names[TKS_EVENTS_MAX_NAMES];
  guint          n_names;
  GArray        *entries;        /* TksParsedEntry */
  guint32        hash;           /* FNV-1a over the words of the entries read */
  gint64         tick_period;    /* where the entries' ticks wrap: 2^20 until the rebuild
                                  * learns the board's width */
};

TksParsedEvents *tks_parsed_events_new        (guint             dump_version);
/* Whether the header had an "Events" line (a board built with event options). */
gboolean         tks_parsed_events_has_options (const TksParsedEvents *events);
/* The counter's frequency from the header, 0 without a counter. */
guint64          tks_parsed_events_counter_hz  (const TksParsedEvents *events);
/* The compact log's coder of the counter: 1, or 2 from the header's "Counter coder: 2". */
guint            tks_parsed_events_counter_coder (const TksParsedEvents *events);
void             tks_parsed_events_free       (TksParsedEvents *events);
/* A header key of version 2: TRUE when @p..@end is one (taken), with *@problem set when its
 * value is unreadable or absurd (a warning to give). */
gboolean         tks_parsed_events_header     (TksParsedEvents *events,
                                               const char      *p,
                                               const char      *end,
                                               char           **problem);
/* A line of the Names section: FALSE when it cannot be read, with *@problem set. */
gboolean         tks_parsed_events_name       (TksParsedEvents *events,
                                               const char      *p,
                                               const char      *end,
                                               char           **problem);

typedef enum
{
  TKS_LOG_LINE_NONE,    /* not an entry line */
  TKS_LOG_LINE_SWITCH,  /* a switch: appended to @records too */
  TKS_LOG_LINE_EVENT,   /* another event */
} TksLogLine;

/* The switches among the entries. */
guint            tks_parsed_events_n_switches (TksParsedEvents *events);
/* A log begins again: no entry read yet. */
void             tks_parsed_events_clear_log  (TksParsedEvents *events);
/* A line of the log: an entry (its words added to the hash) or not. */
TksLogLine       tks_parsed_events_log_line   (TksParsedEvents *events,
                                               GArray          *records,
                                               const char      *p,
                                               const char      *end);
/* Makes the holes' places (slots in a dump version 2: @n_slots in the printed log) places
 * among the records. */
void             tks_parsed_events_place_gaps (TksParsedEvents *events,
                                               GArray          *gaps,
                                               guint64          n_slots);
/* Saved captures: the events as "Tickscope event…" lines (only the records not dropped). */
void             tks_parsed_events_write      (const TksParsedEvents *events,
                                               const GArray          *records,
                                               GString               *out);
/* A "Tickscope event…" line of a saved capture: TRUE when it is one (taken). *@events is made
 * by "Tickscope events 2", dropped when a line cannot be read (*@problem says so); the
 * switches go to @switches. */
gboolean         tks_parsed_events_saved_line (TksParsedEvents **events,
                                               GArray           *switches,
                                               const char       *p,
                                               const char       *end,
                                               char            **problem);
/* The saved @events for the log of @records, when their switches are its records; else NULL
 * with *@problem (@events is freed). */
TksParsedEvents *tks_parsed_events_attach_saved (TksParsedEvents  *events,
                                                 GArray           *switches,
                                                 const GArray     *records,
                                                 char            **problem);

/* The place of every record (by index into the parsed records) inside its tick, in [0, 1):
 * from the counter when the board has one, else the entries of a tick share it evenly; the
 * switches the rebuild dropped do not count; a recording's heartbeats (@beats) carry the
 * time over its quiet stretches. NULL when @events is. */
double          *tks_parsed_events_fractions  (TksParsedEvents *events,
                                               const GArray    *records,
                                               const GArray    *beats,
                                               double           tick_hz);

/* The ticks of the first and last entries on the timeline, from the tick of its first switch
 * (@first <= 0 <= @last), over the heartbeats (@beats): FALSE when there is no switch (or no
 * @events). */
gboolean         tks_parsed_events_tick_span  (TksParsedEvents *events,
                                               const GArray    *records,
                                               const GArray    *beats,
                                               gint64          *first,
                                               gint64          *last);

/* An entry placed (tks-events-place.c). */
typedef struct
{
  gint64 tick;    /* unwrapped, the first entry's tick as printed */
  gint64 count;   /* unwrapped counter, the first entry's value as printed (ticks without) */
  double frac;    /* place inside the tick, [0, 1) */
} TksPlacedEntry;

/* The entries on the timeline: all but the switches the rebuild dropped; @map: their indices
 * among all. */
TksParsedEntry  *tks_parsed_events_kept_entries (TksParsedEvents *ev,
                                                 const GArray    *records,
                                                 guint          **map,
                                                 guint           *n_kept);
/* Places the @n entries @e, @map their indices among all (see tks-events.h, and
 * docs/rebuild.md). */
TksPlacedEntry  *tks_parsed_events_place        (TksParsedEvents      *ev,
                                                 const TksParsedEntry *e,
                                                 const guint          *map,
                                                 guint                 n,
                                                 double                tick_hz,
                                                 const GArray         *beats);

/* Builds the model once the runs are rebuilt (tks-events.c): @record_pos the place the
 * rebuild gave each record (NAN when it dropped it), @entry_threads by entry the thread index
 * a Ready names and a switch switches in (G_MAXUINT when none). */
TksEvents       *tks_events_build             (TksCapture      *capture,
                                               TksParsedEvents *parsed,
                                               const double    *record_pos,
                                               const guint     *entry_threads);
void             tks_events_free              (TksEvents       *events);
TksCapture      *tks_events_get_capture       (TksEvents       *events);

G_END_DECLS
