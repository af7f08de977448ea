/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the export formats share (tks-export.c): the writer that streams their text out in
 * chunks, number and name helpers; and each format's entry point, in a file of its own
 * (tks-export-perfetto.c, -csv.c, -ftrace.c, -paraver.c, -vcd.c). */

#include "tks-capture.h"
#include "tks-events.h"
#include "tks-export.h"

G_BEGIN_DECLS

#define TKS_EXPORT_FLUSH_THRESHOLD (64 * 1024)
/* Names are repeated on many lines: longer ones are cut, with an ellipsis, so that a line
 * stays short whatever the input holds. */
#define TKS_EXPORT_NAME_MAX_BYTES  64

/*
 * Output goes into a GString; when a stream is given, the string is written out and emptied
 * whenever it grows past TKS_EXPORT_FLUSH_THRESHOLD, so exports of big captures use little
 * memory.
 */
typedef struct
{
  GString       *out;
  GOutputStream *stream;
  GCancellable  *cancellable;
  GError        *error;
  double         unit_per_tick; /* CSV: times in a unit of time (0: in ticks) */
  int            unit_decimals;
  gboolean       value_column;  /* CSV: a value column ends each row */
} TksExportWriter;

/* Writes the text out when it passed the threshold (or always when @force); FALSE once a
 * write failed (w->error says why). Without a stream it only says whether all is well. */
gboolean tks_export_flush              (TksExportWriter *w,
                                        gboolean         force);

void     tks_export_append_uint        (GString         *out,
                                        guint64          value);
void     tks_export_append_int         (GString         *out,
                                        gint64           value);
/* @value rounded to @decimals decimals, '.' as the decimal point whatever the locale; without
 * trailing zeros unless @fixed. */
void     tks_export_append_decimal     (GString         *out,
                                        double           value,
                                        int              decimals,
                                        gboolean         fixed);

static inline void
tks_export_append_number (GString *out,
                          double   value,
                          int      decimals)
{
  tks_export_append_decimal (out, value, decimals, FALSE);
}

/* Fixed number of decimals (ftrace timestamps). */
static inline void
tks_export_append_fixed (GString *out,
                         double   value,
                         int      decimals)
{
  tks_export_append_decimal (out, value, decimals, TRUE);
}

/* @name as valid UTF-8 of at most TKS_EXPORT_NAME_MAX_BYTES bytes, then "…" when longer. */
char    *tks_export_capped_name        (const char      *name);
/* The thread's name, capped, or "thread N" when it has none. */
char    *tks_export_thread_name        (const TksThread *thread);
gboolean tks_export_priority_known     (const TksThread *thread);
/* Where the log ended, when before the capture's end (only exits were written after it). */
gboolean tks_export_log_end_before_end (TksCapture      *capture,
                                        double          *log_end);

/* ------------------------------------------------------------------------------------------ */
/* Many rows' records in time order (tks-export-merge.c): Paraver, VCD.                       */

typedef struct
{
  gint64  time;   /* in the format's unit */
  gint64  end;    /* Paraver states: their end */
  guint64 value;
  guint32 row;    /* set by tks_export_merge_next() */
  guint32 kind;   /* the format's */
  guint32 type;   /* the format's */
  guint32 order;  /* among records of one time: smaller first */
} TksExportRecord;

typedef struct _TksExportMerge TksExportMerge;

/* Appends the records of @row's next step to @records (in any order, none before the time
 * the previous step returned) and returns the time of the earliest record the step after it
 * will make, G_MAXINT64 when there is none. */
typedef gint64 (*TksExportRowStep) (gpointer  user_data,
                                    guint     row,
                                    GArray   *records);

TksExportMerge *tks_export_merge_new  (guint             n_rows,
                                       TksExportRowStep  step,
                                       gpointer          user_data);
gboolean        tks_export_merge_next (TksExportMerge   *self,
                                       TksExportRecord  *record);
void            tks_export_merge_free (TksExportMerge   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksExportMerge, tks_export_merge_free)

/* ------------------------------------------------------------------------------------------ */

gboolean tks_export_perfetto           (TksCapture      *capture,
                                        double           tick_hz,
                                        TksExportWriter *w);
gboolean tks_export_csv                (TksCapture      *capture,
                                        TksExportWriter *w);
gboolean tks_export_ftrace             (TksCapture      *capture,
                                        double           tick_hz,
                                        TksExportWriter *w);
/* The .prv streams through @prv; the .pcf and the .row (small: names) go to @pcf and @row. */
gboolean tks_export_paraver            (TksCapture      *capture,
                                        double           tick_hz,
                                        TksExportWriter *prv,
                                        GString         *pcf,
                                        GString         *row);
gboolean tks_export_vcd                (TksCapture      *capture,
                                        double           tick_hz,
                                        TksExportWriter *w);

G_END_DECLS
