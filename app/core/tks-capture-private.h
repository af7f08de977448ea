/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-capture.h"

G_BEGIN_DECLS

/* One line of the threads_list reply. */
typedef struct
{
  int      number;
  int      priority;
  gboolean logged;
  gboolean readable;   /* FALSE: a garbled line kept as a placeholder to preserve numbering */
  char    *name;
  guint    line;       /* line number in the input, 1-based */
} TksListEntry;

/* One line of the threads_timestamps reply, exactly as the board printed it. */
typedef struct
{
  guint32 tick;
  guint8  out;
  guint8  in;
  guint16 flags;       /* TKS_RECORD_* */
} TksRecord;

/* A record whose tick is @wraps more wraps of the tick after the record kept before it than
 * the rule of a smaller tick says (a heartbeat before it tells so). */
typedef struct
{
  guint32 index;
  guint32 wraps;
} TksJump;

/* A hole in the log (a threads_dump "Paused:" line, or a saved "Tickscope gap" line): before
 * record @index, from system time @begin to @end (full ticks), @dropped switches missing. */
typedef struct
{
  guint   index;
  guint   order;       /* the rebuild's: its place among the input's holes */
  guint32 begin;
  guint32 end;
  guint64 dropped;
} TksParsedGap;

/* A line of a compact log that holds records: records @first to @first + @count - 1, all on
 * that one line; @extra: the records of the compact lines before it that are not the first
 * of their line. */
typedef struct
{
  guint first;
  guint count;
  guint extra;
} TksCompactLineMark;

/* A recording's "Heartbeat: tick T" (a saved "Tickscope beat" line): the board's tick was
 * @tick, modulo 2^tick_bits, after the records before @index and before record @index; in a
 * log with events, after the entries before @entry and before entry @entry (G_MAXUINT when
 * the input does not say). */
typedef struct
{
  guint   index;
  guint   entry;
  guint32 tick;
} TksParsedBeat;

/* Heartbeats a capture keeps at most (one per quarter wrap of a quiet board). */
#define TKS_MAX_BEATS (1u << 20)

/* Holes a capture keeps at most (a board remembers 8 pauses; a recording over a slow link
 * loses some fifty times a second, so this is some twenty minutes of such a recording). */
#define TKS_MAX_GAPS 65536

enum
{
  TKS_RECORD_DROPPED = 1 << 0, /* out of order or repeated: not part of the timeline */
};

/* What a dump version 2 adds (tks-events-private.h). */
typedef struct _TksParsedEvents TksParsedEvents;

/* What a parse of transcript or capture-file text yields, before the rebuild. */
typedef struct
{
  GPtrArray    *live;           /* TksListEntry* */
  GPtrArray    *deleted;        /* TksListEntry*, in exit order */
  GArray       *records;        /* TksRecord */
  guint         log_first_line; /* input line just after the threads_timestamps echo */
  GArray       *log_other_lines;/* guint: lines of the log section that are not records */
  GArray       *compact_marks;  /* TksCompactLineMark: the log's compact lines with records */
  gboolean      has_trigger;
  guint32       trigger_tick;
  char         *trigger_name;
  gboolean      has_saved_view;
  TksSavedView  saved_view;
  double        tick_hz;        /* 0 when the input does not say */
  guint         tick_bits;      /* bits of the record tick (the header's "Tick bits"), 0 when
                                 * the input does not say (see tks_parsed_tick_bits) */
  GArray       *beats;          /* TksParsedBeat, in order */
  guint         log_size;       /* the board's log size, 0 when the input does not say */
  TksBoardCounters counters;    /* from a threads_dump header */
  GArray       *gaps;           /* TksParsedGap, as read (index into records) */
  char         *damage;         /* a threads_dump that arrived damaged: how, else NULL */
  char         *source;
  GPtrArray    *warnings;       /* char* */
  GArray       *warnings_saved; /* guint per warning: where the text a save writes of it begins
                                 * (a saved capture carries the reader's warnings about its
                                 * input, "Tickscope damage" lines, which a later reader shows
                                 * after words of its own: a save writes back the text alone) */
  guint         n_warnings;     /* all of them, also those not kept */
  TksParsedEvents *events;      /* a dump version 2's events, else NULL */
} TksParsed;

struct _TksCapture
{
  GObject       parent_instance;

  TksParsed    *parsed;        /* the lists and the records, as read: what a save writes */
  TksThread    *threads;
  guint         n_threads;
  char        **names;
  TksRun       *runs;          /* one block; threads point into it */
  double       *run_time;      /* one block of the threads' run_time sums */
  TksMark      *marks;         /* likewise */
  guint        *lanes;
  guint         n_lanes;
  guint         n_records;     /* records on the timeline (not dropped) */
  double        start;
  double        end;
  double        log_end;       /* after the last switch (see tks_capture_get_log_end) */
  guint32       log_end_reason;/* TksLogEndReason */
  guint         n_exits_after_log_end;
  TksGap       *gaps;          /* holes in the log, in time order */
  TksParsedGap *saved_gaps;    /* the same as a save writes them: index among kept records */
  guint         n_gaps;
  guint        *shown_lanes;   /* lanes without the threads that exited before the log */
  guint         n_shown_lanes;
  gboolean      has_trigger;
  double        trigger_pos;
  guint         max_per_tick;
  double        mean_per_tick;
  double        tick_hz;
  char         *source;
  GPtrArray    *warnings;      /* NULL-terminated */
  struct _TksEvents *events;   /* a dump version 2's events, else NULL (tks-events.c) */
  /* Without events: each parsed record's place (NAN: dropped), worked out when first asked
   * for (tks_capture_get_switch_record) from the records and these: */
  double       *record_pos;
  gboolean      has_switch_records;
  gint64        place_base;
  gint64        place_period;
  TksJump      *jumps;
  guint         n_jumps;
};

TksParsed  *tks_parsed_new                  (void);
void        tks_parsed_free                 (TksParsed *parsed);
guint       tks_parsed_record_line          (const TksParsed *parsed,
                                             guint            record);
/* Bits of the record tick: as the input says, else 20 (the original library's). */
guint       tks_parsed_tick_bits            (const TksParsed *parsed);
/* The capture @parsed gives (taken); its source is @parsed->source. */
TksCapture *tks_capture_new_from_parsed     (TksParsed *parsed);
/* @data as a capture file or a transcript, parsed. */
TksParsed  *tks_parse_text                  (const char  *data,
                                             gsize        len,
                                             GError     **error);

/* The lines of a recording that the recorder and the reader both read, by one rule
 * (tks-parser-dump.c, tks-parser-text.c; see mcu-lib/WIRE-FORMAT.md). "Lost: before record S,
 * ticks B to E, N switches dropped" (@line to @end): TRUE with S and the hole when every
 * number is a decimal of 0 to 4294967295 (the board prints 32 bits; a sign, another number or
 * anything after the line is unreadable). */
gboolean    tks_parse_lost_line             (const char   *line,
                                             const char   *end,
                                             guint64      *seq,
                                             TksParsedGap *gap);
/* "Thread number N : Prio = P, Log = Yes, Name = NAME" (@line to @end): TRUE with N (0 to
 * 255) when it reads. */
gboolean    tks_parse_thread_line           (const char   *line,
                                             const char   *end,
                                             int          *number);

/* Turns the parsed lists and records of @self->parsed into threads, runs and marks
 * (tks-capture-rebuild.c). */
void        tks_capture_rebuild             (TksCapture *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksParsed, tks_parsed_free)

/* The place of each of the @n records @r (NAN: dropped) into @pos, as the rebuild's pass 2
 * places them in a capture without events: on tick @base + (wraps) * @period + its tick, the
 * g-th of the k kept records that share the tick at + g / k; @jumps (@n_jumps, by index) the
 * wraps heartbeats add (tks-capture-rebuild-replay.c). */
void        tks_rebuild_place_records       (const TksRecord *r,
                                             guint            n,
                                             gint64           base,
                                             gint64           period,
                                             const TksJump   *jumps,
                                             guint            n_jumps,
                                             double          *pos);

/* Gives every thread its colour (tks-thread-colors.c). */
void tks_capture_assign_colors (TksCapture *self);

G_END_DECLS
