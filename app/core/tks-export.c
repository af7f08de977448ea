/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tks-error.h"
#include "tks-events.h"
#include "tks-export.h"

#define FLUSH_THRESHOLD (64 * 1024)
/* Names are repeated on many lines: longer ones are cut, with an ellipsis, so that a line
 * stays short whatever the input holds. ftrace's task names are cut as the kernel's are. */
#define NAME_MAX_BYTES  64
#define FTRACE_COMM_MAX 15

/*
 * Output goes into a GString; when a stream is given, the string is written out and emptied
 * whenever it grows past FLUSH_THRESHOLD, so exports of big captures use little memory.
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
} Writer;

static gboolean
writer_flush (Writer   *w,
              gboolean  force)
{
  gsize written = 0;

  if (w->stream == NULL || w->error != NULL)
    return w->error == NULL;

  if (!force && w->out->len < FLUSH_THRESHOLD)
    return TRUE;

  if (g_cancellable_set_error_if_cancelled (w->cancellable, &w->error))
    return FALSE;

  if (w->out->len > 0 &&
      !g_output_stream_write_all (w->stream, w->out->str, w->out->len, &written,
                                  w->cancellable, &w->error))
    return FALSE;

  g_string_truncate (w->out, 0);
  return TRUE;
}

static const guint64 powers_of_ten[] = {
  1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
};

static void
append_uint (GString *out,
             guint64  value)
{
  char buf[24];
  guint i = sizeof buf;

  do
    {
      buf[--i] = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value != 0);

  g_string_append_len (out, buf + i, sizeof buf - i);
}

static void
append_int (GString *out,
            gint64   value)
{
  if (value < 0)
    {
      g_string_append_c (out, '-');
      append_uint (out, (guint64) 0 - (guint64) value);
    }
  else
    append_uint (out, (guint64) value);
}

/*
 * Appends @value rounded to @decimals decimals with '.' as the decimal point whatever the
 * locale; without trailing zeros unless @fixed. Exports write millions of numbers, so the
 * usual case avoids printf.
 */
static void
append_decimal (GString  *out,
                double    value,
                int       decimals,
                gboolean  fixed)
{
  guint64 scale;
  double scaled;

  decimals = CLAMP (decimals, 0, 9);
  scale = powers_of_ten[decimals];

  if (!isfinite (value))
    value = 0;

  scaled = value * (double) scale;
  if (fabs (scaled) < 9e15)
    {
      gint64 q = llround (scaled);
      guint64 mag = q < 0 ? (guint64) 0 - (guint64) q : (guint64) q;
      guint64 frac = mag % scale;
      int digits = decimals;

      if (q < 0)
        g_string_append_c (out, '-');
      append_uint (out, mag / scale);

      if (!fixed)
        while (digits > 0 && frac % 10 == 0)
          {
            frac /= 10;
            digits--;
          }

      if (digits > 0)
        {
          char buf[16];

          for (int i = digits - 1; i >= 0; i--)
            {
              buf[i] = (char) ('0' + frac % 10);
              frac /= 10;
            }
          g_string_append_c (out, '.');
          g_string_append_len (out, buf, digits);
        }
    }
  else
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      char fmt[8];

      g_snprintf (fmt, sizeof fmt, "%%.%df", decimals);
      g_string_append (out, g_ascii_formatd (buf, sizeof buf, fmt, value));
    }
}

static inline void
append_number (GString *out,
               double   value,
               int      decimals)
{
  append_decimal (out, value, decimals, FALSE);
}

/* Fixed number of decimals (ftrace timestamps). */
static inline void
append_fixed (GString *out,
              double   value,
              int      decimals)
{
  append_decimal (out, value, decimals, TRUE);
}

/* Appends @str right-aligned in @width columns (ASCII). */
static void
append_padded_left (GString    *out,
                    const char *str,
                    guint       width)
{
  gsize len = strlen (str);

  for (; len < width; width--)
    g_string_append_c (out, ' ');
  g_string_append (out, str);
}

/* @name as valid UTF-8 of at most NAME_MAX_BYTES bytes, then "…" when it was longer. */
static char *
capped_name (const char *name)
{
  gsize len = strlen (name);
  char *valid = g_utf8_make_valid (name, MIN (len, NAME_MAX_BYTES + 1));
  const char *p = valid;
  char *capped;

  while (*p != '\0' && (gsize) (g_utf8_next_char (p) - valid) <= NAME_MAX_BYTES)
    p = g_utf8_next_char (p);
  if (*p == '\0' && len <= NAME_MAX_BYTES)
    return valid;
  capped = g_strdup_printf ("%.*s…", (int) (p - valid), valid);
  g_free (valid);
  return capped;
}

static char *
thread_display_name (const TksThread *thread)
{
  if (thread->name == NULL || thread->name[0] == '\0')
    return g_strdup_printf ("thread %d", thread->number);

  return capped_name (thread->name);
}

static gboolean
thread_priority_known (const TksThread *thread)
{
  return (thread->flags & TKS_THREAD_NOT_LISTED) == 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Chrome / Perfetto trace-event JSON                                                          */

static void
append_json_string (GString    *out,
                    const char *str)
{
  g_autofree char *copy = NULL;
  const char *valid = str;

  if (!g_utf8_validate (str, -1, NULL))
    valid = copy = g_utf8_make_valid (str, -1);

  g_string_append_c (out, '"');
  for (const char *p = valid; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      switch (c)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;

        case '\\':
          g_string_append (out, "\\\\");
          break;

        case '\n':
          g_string_append (out, "\\n");
          break;

        case '\r':
          g_string_append (out, "\\r");
          break;

        case '\t':
          g_string_append (out, "\\t");
          break;

        default:
          if (c < 0x20 || c == 0x7f)
            {
              static const char hex[] = "0123456789abcdef";

              g_string_append (out, "\\u00");
              g_string_append_c (out, hex[c >> 4]);
              g_string_append_c (out, hex[c & 0xf]);
            }
          else
            g_string_append_c (out, (char) c);
          break;
        }
    }
  g_string_append_c (out, '"');
}

static void
json_begin_event (Writer     *w,
                  gboolean   *first,
                  const char *ph,
                  const char *name,
                  guint       tid)
{
  g_string_append (w->out, *first ? "\n{\"ph\":\"" : ",\n{\"ph\":\"");
  *first = FALSE;
  g_string_append (w->out, ph);
  g_string_append (w->out, "\",\"pid\":1,\"tid\":");
  append_uint (w->out, tid);
  g_string_append (w->out, ",\"name\":");
  append_json_string (w->out, name);
}

static void
json_append_ts (Writer     *w,
                const char *key,
                double      value_us)
{
  g_string_append (w->out, ",\"");
  g_string_append (w->out, key);
  g_string_append (w->out, "\":");
  append_number (w->out, value_us, 3);
}

/* Where the log ended, when before the capture's end (only exits were written after it). */
static gboolean
log_end_before_end (TksCapture *capture,
                    double     *log_end)
{
  *log_end = tks_capture_get_log_end (capture, NULL);
  return *log_end < tks_capture_get_end (capture) && isfinite (*log_end);
}

/* The innermost handler's track (tid) under way at @time, 0 when none. */
static guint
perfetto_irq_at (TksEvents *events,
                 gint64     time,
                 guint      first_tid)
{
  guint n, tid = 0, depth = 0;
  const TksTrack *tracks = tks_events_get_tracks (events, TKS_TRACK_IRQ, &n);

  for (guint t = 0; t < n; t++)
    {
      guint lo = 0, hi = tracks[t].n_slices;

      /* the last slice that begins at or before @time */
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (tracks[t].slices[mid].begin.time <= time)
            lo = mid + 1;
          else
            hi = mid;
        }
      if (lo > 0 && tracks[t].slices[lo - 1].end.time >= time &&
          (tid == 0 || tracks[t].slices[lo - 1].depth >= depth))
        {
          tid = first_tid + t;
          depth = tracks[t].slices[lo - 1].depth;
        }
    }
  return tid;
}

/* The events of a dump version 2: a track per handler, one for the CPU's sleep, one per
 * marker (instants with their value) and per state channel (nested slices), after the
 * threads' (tids from @first_tid); each wake-up is a "ready" slice on its thread's track from
 * made ready to switched in, with a flow from the handler that made it ready (or from that
 * slice) to the run; one never switched in lasts to the capture's end, marked open. */
/* The track of what made @wk ready: its waker thread's (tid: index + 1) or its handler's
 * (the handlers' tracks come first, from @first_tid); 0 when not known. */
static guint
perfetto_waker_tid (TksCapture      *capture,
                    TksEvents       *events,
                    const TksWakeup *wk,
                    guint            first_tid)
{
  if (wk->waker_kind == TKS_WAKER_THREAD && wk->waker < tks_capture_get_n_threads (capture))
    return wk->waker + 1;
  if (wk->waker_kind == TKS_WAKER_HANDLER)
    {
      guint n;
      const TksTrack *tracks = tks_events_get_tracks (events, TKS_TRACK_IRQ, &n);

      for (guint t = 0; t < n; t++)
        if (tracks[t].name_id == wk->waker)
          return first_tid + t;
      return perfetto_irq_at (events, wk->ready.time, first_tid);
    }
  return 0;
}

static gboolean
perfetto_events (TksCapture *capture,
                 double      us_per_tick,
                 guint       first_tid,
                 Writer     *w,
                 gboolean   *first)
{
  TksEvents *events = tks_capture_get_events (capture);
  static const char * const prefixes[TKS_N_TRACK_KINDS] = { "irq ", "", "marker ", "state " };
  static const char * const cats[TKS_N_TRACK_KINDS] = { "irq", "sleep", "marker", "state" };
  guint tid = first_tid, n_wakeups;
  const TksWakeup *wakeups;

  if (events == NULL)
    return TRUE;
  for (guint k = 0; k < TKS_N_TRACK_KINDS; k++)
    {
      guint n;
      const TksTrack *tracks = tks_events_get_tracks (events, k, &n);

      for (guint t = 0; t < n; t++, tid++)
        {
          g_autofree char *label = g_strconcat (prefixes[k], tracks[t].name, NULL);

          json_begin_event (w, first, "M", "thread_name", tid);
          g_string_append (w->out, ",\"args\":{\"name\":");
          append_json_string (w->out, label);
          g_string_append (w->out, "}}");
          json_begin_event (w, first, "M", "thread_sort_index", tid);
          g_string_append_printf (w->out, ",\"args\":{\"sort_index\":%u}}", tid);
          for (guint i = 0; i < tracks[t].n_slices; i++)
            {
              const TksSlice *sl = &tracks[t].slices[i];

              json_begin_event (w, first, "X", sl->label != NULL ? sl->label : "sleep", tid);
              g_string_append_printf (w->out, ",\"cat\":\"%s\"", cats[k]);
              json_append_ts (w, "ts", sl->begin.pos * us_per_tick);
              json_append_ts (w, "dur", MAX (0.0, sl->end.pos - sl->begin.pos) * us_per_tick);
              g_string_append_printf (w->out, ",\"args\":{\"depth\":%u", sl->depth);
              if (k == TKS_TRACK_SLEEP)
                {
                  g_string_append (w->out, ",\"woken_by\":");
                  append_json_string (w->out, sl->label != NULL ? sl->label : "");
                }
              g_string_append (w->out, "}}");
              if (!writer_flush (w, FALSE))
                return FALSE;
            }
          for (guint i = 0; i < tracks[t].n_instants; i++)
            {
              json_begin_event (w, first, "i", tracks[t].name, tid);
              g_string_append (w->out, ",\"cat\":\"marker\",\"s\":\"t\"");
              json_append_ts (w, "ts", tracks[t].instants[i].time.pos * us_per_tick);
              g_string_append_printf (w->out, ",\"args\":{\"value\":%u}}",
                                      tracks[t].instants[i].value);
              if (!writer_flush (w, FALSE))
                return FALSE;
            }
        }
    }

  wakeups = tks_events_get_wakeups (events, &n_wakeups);
  for (guint i = 0; i < n_wakeups; i++)
    {
      const TksWakeup *wk = &wakeups[i];
      guint thread_tid = wk->thread < tks_capture_get_n_threads (capture) ? wk->thread + 1 : 0;
      guint from_tid = perfetto_waker_tid (capture, events, wk, first_tid);
      g_autofree char *waker = tks_events_describe_waker (events, wk);

      if (thread_tid == 0)
        continue;
      json_begin_event (w, first, "X", "ready", thread_tid);
      g_string_append (w->out, ",\"cat\":\"wakeup\"");
      json_append_ts (w, "ts", wk->ready.pos * us_per_tick);
      if (wk->open)
        {
          /* Made ready and still waiting for the CPU when the capture ends: no run to flow
           * to, the slice lasts to the end. */
          json_append_ts (w, "dur", MAX (0.0, tks_capture_get_end (capture) - wk->ready.pos)
                                    * us_per_tick);
          g_string_append (w->out, ",\"args\":{\"open\":true}}");
          if (!writer_flush (w, FALSE))
            return FALSE;
          continue;
        }
      json_append_ts (w, "dur", MAX (0.0, wk->run.pos - wk->ready.pos) * us_per_tick);
      g_string_append (w->out, ",\"args\":{\"latency_us\":");
      append_number (w->out, tks_events_to_us (events, wk->latency), 3);
      g_string_append (w->out, ",\"waker\":");
      append_json_string (w->out, waker);
      g_string_append (w->out, "}}");
      /* the flow: from the waker (a thread's or a handler's track) to the run; none when the
       * log does not say what made it ready */
      if (from_tid == 0 || from_tid == thread_tid)
        {
          if (!writer_flush (w, FALSE))
            return FALSE;
          continue;
        }
      json_begin_event (w, first, "s", "wakeup", from_tid);
      g_string_append_printf (w->out, ",\"cat\":\"wakeup\",\"id\":%u", i + 1);
      json_append_ts (w, "ts", wk->ready.pos * us_per_tick);
      g_string_append (w->out, "}");
      json_begin_event (w, first, "f", "wakeup", thread_tid);
      g_string_append_printf (w->out, ",\"cat\":\"wakeup\",\"id\":%u,\"bp\":\"e\"", i + 1);
      json_append_ts (w, "ts", wk->run.pos * us_per_tick);
      g_string_append (w->out, "}");
      if (!writer_flush (w, FALSE))
        return FALSE;
    }
  return TRUE;
}

static gboolean
export_perfetto (TksCapture *capture,
                 double      tick_hz,
                 Writer     *w)
{
  const double us_per_tick = 1e6 / tick_hz;
  const char *source = tks_capture_get_source (capture);
  const guint *lanes;
  guint n_lanes = 0;
  guint n_threads = tks_capture_get_n_threads (capture);
  g_autofree guint *sort_index = g_new0 (guint, MAX (n_threads, 1));
  gboolean first = TRUE;
  double trigger, log_end;

  /* Lanes are listed top to bottom; threads missing from them go last, in creation order. */
  for (guint i = 0; i < n_threads; i++)
    sort_index[i] = G_MAXUINT;
  lanes = tks_capture_get_lanes (capture, &n_lanes);
  for (guint i = 0; lanes != NULL && i < n_lanes; i++)
    if (lanes[i] < n_threads && sort_index[lanes[i]] == G_MAXUINT)
      sort_index[lanes[i]] = i;
  for (guint i = 0, next = n_lanes; i < n_threads; i++)
    if (sort_index[i] == G_MAXUINT)
      sort_index[i] = next++;

  g_string_append (w->out, "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"tick_hz\":");
  append_number (w->out, tick_hz, 6);
  g_string_append (w->out, ",\"source\":");
  append_json_string (w->out, source != NULL ? source : "");
  {
    /* What the capture lost or could not read stays visible in the export. */
    guint n_warnings = 0;
    const char * const *warnings = tks_capture_get_warnings (capture, &n_warnings);

    g_string_append (w->out, ",\"warnings\":[");
    for (guint i = 0; i < n_warnings; i++)
      {
        if (i > 0)
          g_string_append_c (w->out, ',');
        append_json_string (w->out, warnings[i]);
      }
    g_string_append_c (w->out, ']');
  }
  g_string_append (w->out, "},\"traceEvents\":[");

  json_begin_event (w, &first, "M", "process_name", 0);
  g_string_append (w->out, ",\"args\":{\"name\":");
  append_json_string (w->out, source != NULL && source[0] != '\0' ? source : "ChibiOS board");
  g_string_append (w->out, "}}");

  for (guint i = 0; i < n_threads; i++)
    {
      const TksThread *thread = tks_capture_get_thread (capture, i);
      g_autofree char *name = NULL;
      g_autofree char *label = NULL;
      guint tid = i + 1;

      /* Gone before the log began: no track, as it did not run in it. */
      if (thread->flags & TKS_THREAD_EXITED_BEFORE_LOG)
        continue;
      name = thread_display_name (thread);

      /* A thread only the log names has no known priority; its name says so. */
      if (thread_priority_known (thread))
        label = g_strdup_printf ("%s (prio %d)", name, thread->priority);
      else
        label = g_strdup (name);

      json_begin_event (w, &first, "M", "thread_name", tid);
      g_string_append (w->out, ",\"args\":{\"name\":");
      append_json_string (w->out, label);
      g_string_append (w->out, "}}");

      json_begin_event (w, &first, "M", "thread_sort_index", tid);
      g_string_append_printf (w->out, ",\"args\":{\"sort_index\":%u}}", sort_index[i]);

      for (guint r = 0; thread->runs != NULL && r < thread->n_runs; r++)
        {
          const TksRun *run = &thread->runs[r];
          gboolean at_end = (thread->flags & TKS_THREAD_RUNNING_AT_END) != 0 &&
                            r + 1 == thread->n_runs;

          json_begin_event (w, &first, "X", "run", tid);
          g_string_append (w->out, ",\"cat\":\"run\"");
          json_append_ts (w, "ts", run->begin * us_per_tick);
          json_append_ts (w, "dur", MAX (0.0, run->end - run->begin) * us_per_tick);
          g_string_append (w->out, ",\"args\":{\"begin_tick\":");
          append_number (w->out, run->begin, 6);
          g_string_append (w->out, ",\"end_tick\":");
          append_number (w->out, run->end, 6);
          if (at_end)
            g_string_append (w->out, ",\"running_at_end\":true");
          g_string_append (w->out, "}}");

          if (!writer_flush (w, FALSE))
            return FALSE;
        }

      for (guint m = 0; thread->marks != NULL && m < thread->n_marks; m++)
        {
          const TksMark *mark = &thread->marks[m];

          json_begin_event (w, &first, "i", mark->kind == TKS_MARK_IN ? "in" : "out", tid);
          g_string_append (w->out, ",\"cat\":\"mark\",\"s\":\"t\"");
          json_append_ts (w, "ts", mark->pos * us_per_tick);
          g_string_append (w->out, "}");

          if (!writer_flush (w, FALSE))
            return FALSE;
        }

      if ((thread->flags & TKS_THREAD_EXITED) != 0 && isfinite (thread->exit_time))
        {
          json_begin_event (w, &first, "i", "exit", tid);
          g_string_append (w->out, ",\"cat\":\"exit\",\"s\":\"t\"");
          json_append_ts (w, "ts", thread->exit_time * us_per_tick);
          /* Recorded after the log ended: what the thread did until then is unknown. */
          if (thread->flags & TKS_THREAD_EXITED_AFTER_LOG_END)
            g_string_append (w->out, ",\"args\":{\"after_log_end\":true}");
          g_string_append (w->out, "}");
        }

      /* Also for threads without runs: a history of many threads is written as it goes. */
      if (!writer_flush (w, FALSE))
        return FALSE;
    }

  if (tks_capture_get_trigger (capture, &trigger) && isfinite (trigger))
    {
      const char *by = tks_capture_get_trigger_name (capture);

      json_begin_event (w, &first, "i", "trigger", 0);
      g_string_append (w->out, ",\"cat\":\"trigger\",\"s\":\"g\"");
      json_append_ts (w, "ts", trigger * us_per_tick);
      if (by != NULL)
        {
          g_string_append (w->out, ",\"args\":{\"set_by\":");
          append_json_string (w->out, by);
          g_string_append (w->out, "}");
        }
      g_string_append (w->out, "}");
    }

  /* The holes in the log: slices on a track of their own (tid 0, no thread's). */
  {
    guint n_gaps;
    const TksGap *gaps = tks_capture_get_gaps (capture, &n_gaps);

    for (guint g = 0; g < n_gaps; g++)
      {
        json_begin_event (w, &first, "X", "not_recorded", 0);
        g_string_append (w->out, ",\"cat\":\"not_recorded\"");
        json_append_ts (w, "ts", gaps[g].begin * us_per_tick);
        json_append_ts (w, "dur", (gaps[g].end - gaps[g].begin) * us_per_tick);
        g_string_append_printf (w->out, ",\"args\":{\"dropped\":%" G_GUINT64_FORMAT "}}",
                                gaps[g].dropped);
      }
  }

  if (log_end_before_end (capture, &log_end))
    {
      json_begin_event (w, &first, "i", "log_end", 0);
      g_string_append (w->out, ",\"cat\":\"log_end\",\"s\":\"g\"");
      json_append_ts (w, "ts", log_end * us_per_tick);
      g_string_append_printf (w->out, ",\"args\":{\"reason\":\"lone_exits\",\"exits_after\":%u}}",
                              tks_capture_get_n_exits_after_log_end (capture));
    }
  if (!perfetto_events (capture, us_per_tick, n_threads + 1, w, &first))
    return FALSE;

  g_string_append (w->out, "\n]}\n");

  return writer_flush (w, FALSE);
}

/* ------------------------------------------------------------------------------------------ */
/* CSV                                                                                         */

/* Whether a spreadsheet would take @field for a formula: it starts with '=', '+', '-', '@',
 * a tab or a carriage return, and is not a plain number. */
static gboolean
csv_formula_like (const char *field)
{
  char *end = NULL;

  if (strchr ("=+-@\t\r", field[0]) == NULL || field[0] == '\0')
    return FALSE;
  if (field[0] == '+' || field[0] == '-')
    {
      g_ascii_strtod (field, &end);
      if (end != field && *end == '\0' && g_ascii_isdigit (field[1]))
        return FALSE;
    }
  return TRUE;
}

static void
append_csv_field (GString    *out,
                  const char *str)
{
  g_autofree char *capped = capped_name (str);
  g_autofree char *valid = NULL;
  gsize len;
  gboolean quote;

  /* A formula is neutralised with a leading quote, which spreadsheets show as text. */
  valid = csv_formula_like (capped) ? g_strconcat ("'", capped, NULL) : g_strdup (capped);
  len = strlen (valid);
  quote = len > 0 && (valid[0] == ' ' || valid[len - 1] == ' ');
  if (strpbrk (valid, ",\"\r\n") != NULL)
    quote = TRUE;

  if (!quote)
    {
      g_string_append (out, valid);
      return;
    }

  g_string_append_c (out, '"');
  for (const char *p = valid; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static char *
csv_field (const char *str)
{
  GString *field = g_string_new (NULL);

  if (str != NULL)
    append_csv_field (field, str);
  return g_string_free (field, FALSE);
}

/* A time of a row: ticks, or the unit asked for. */
static void
csv_time (Writer *w,
          double  ticks)
{
  if (w->unit_per_tick > 0)
    append_number (w->out, ticks * w->unit_per_tick, w->unit_decimals);
  else
    append_number (w->out, ticks, 6);
}

/* @thread_field: the thread's name, already escaped; @value: the value column's (NULL: empty;
 * only written when the export has the column); an @end of NAN is left empty. */
static void
csv_row_value (Writer          *w,
               const char      *kind,
               const TksThread *thread,
               const char      *thread_field,
               double           begin,
               double           end,
               const char      *value)
{
  g_string_append (w->out, kind);
  g_string_append_c (w->out, ',');
  g_string_append (w->out, thread_field);
  g_string_append_c (w->out, ',');
  if (thread != NULL && thread_priority_known (thread))
    append_int (w->out, thread->priority);
  g_string_append_c (w->out, ',');
  if (thread != NULL)
    append_uint (w->out, thread->index);
  g_string_append_c (w->out, ',');
  csv_time (w, begin);
  g_string_append_c (w->out, ',');
  if (!isnan (end))
    csv_time (w, end);
  if (w->value_column)
    {
      g_string_append_c (w->out, ',');
      if (value != NULL)
        g_string_append (w->out, value);
    }
  g_string_append (w->out, "\r\n");
}

static void
csv_row (Writer          *w,
         const char      *kind,
         const TksThread *thread,
         const char      *thread_field,
         double           begin,
         double           end)
{
  csv_row_value (w, kind, thread, thread_field, begin, end, NULL);
}

/* A row of an event (@thread: the thread of a wake-up, else NULL), with its @value (NULL:
 * none). */
static void
csv_event_row (Writer          *w,
               const char      *kind,
               const TksThread *thread,
               const char      *name,
               double           begin,
               double           end,
               const char      *value)
{
  g_autofree char *field = csv_field (name);

  csv_row_value (w, kind, thread, field, begin, end, value);
}

/* The rows of a dump version 2's events: irq (the handler's name; value: its nesting depth),
 * sleep (the waking handler), marker (begin = end; value: the marker's), state ("channel:
 * state"; value: its depth), wakeup (begin: made ready, end: switched in, empty when it never
 * was; value: the latency in µs). */
static gboolean
csv_events_rows (TksCapture *capture,
                 Writer     *w)
{
  TksEvents *events = tks_capture_get_events (capture);
  static const char * const kinds[TKS_N_TRACK_KINDS] = { "irq", "sleep", "marker", "state" };
  const TksWakeup *wakeups;
  guint n;

  for (guint k = 0; k < TKS_N_TRACK_KINDS; k++)
    {
      const TksTrack *tracks = tks_events_get_tracks (events, k, &n);

      for (guint t = 0; t < n; t++)
        {
          for (guint i = 0; i < tracks[t].n_instants; i++)
            {
              char value[16];

              g_snprintf (value, sizeof value, "%u", tracks[t].instants[i].value);
              csv_event_row (w, kinds[k], NULL, tracks[t].name, tracks[t].instants[i].time.pos,
                             tracks[t].instants[i].time.pos, value);
            }
          for (guint i = 0; i < tracks[t].n_slices; i++)
            {
              const TksSlice *sl = &tracks[t].slices[i];
              g_autofree char *name = k == TKS_TRACK_STATE
                                      ? g_strdup_printf ("%s: %s", tracks[t].name, sl->label)
                                      : g_strdup (k == TKS_TRACK_SLEEP ? sl->label : tracks[t].name);
              char depth[16];

              g_snprintf (depth, sizeof depth, "%u", sl->depth);
              csv_event_row (w, kinds[k], NULL, name != NULL ? name : "", sl->begin.pos,
                             sl->end.pos, k == TKS_TRACK_SLEEP ? NULL : depth);
              if (!writer_flush (w, FALSE))
                return FALSE;
            }
        }
    }

  wakeups = tks_events_get_wakeups (events, &n);
  for (guint i = 0; i < n; i++)
    {
      const TksThread *thread = wakeups[i].thread < tks_capture_get_n_threads (capture)
                                ? tks_capture_get_thread (capture, wakeups[i].thread) : NULL;
      g_autofree char *name = thread != NULL ? thread_display_name (thread)
                                             : g_strdup_printf ("thread %u", wakeups[i].number);
      GString *latency = g_string_new (NULL);

      if (!wakeups[i].open)
        append_number (latency, tks_events_to_us (events, wakeups[i].latency), 3);
      csv_event_row (w, "wakeup", thread, name, wakeups[i].ready.pos,
                     wakeups[i].open ? NAN : wakeups[i].run.pos, latency->str);
      g_string_free (latency, TRUE);
      if (!writer_flush (w, FALSE))
        return FALSE;
    }
  return TRUE;
}

static gboolean
export_csv (TksCapture *capture,
            Writer     *w)
{
  guint n_threads = tks_capture_get_n_threads (capture);
  double start = tks_capture_get_start (capture);
  double end = tks_capture_get_end (capture);
  double log_end = tks_capture_get_log_end (capture, NULL);
  double trigger;

  /* The events of a dump version 2 add rows with a value (csv_events_rows). */
  w->value_column = tks_capture_get_events (capture) != NULL;
  g_string_append (w->out, w->value_column ? "kind,thread,priority,creation_order,begin,end,value\r\n"
                                           : "kind,thread,priority,creation_order,begin,end\r\n");

  for (guint i = 0; i < n_threads; i++)
    {
      const TksThread *thread = tks_capture_get_thread (capture, i);
      g_autofree char *display_name = NULL;
      g_autofree char *name = NULL;

      /* Gone before the log began: it has no row, as it did not run in it. */
      if (thread->flags & TKS_THREAD_EXITED_BEFORE_LOG)
        continue;
      display_name = thread_display_name (thread);
      name = csv_field (display_name);

      /* Nothing is known after the log's end (a log_end row covers it). */
      if (isnan (thread->first_event))
        csv_row (w, "no_data", thread, name, start, log_end);
      else if (thread->first_event > start)
        csv_row (w, "no_data", thread, name, start, MIN (thread->first_event, log_end));

      for (guint r = 0; thread->runs != NULL && r < thread->n_runs; r++)
        {
          csv_row (w, "run", thread, name, thread->runs[r].begin, thread->runs[r].end);
          if (!writer_flush (w, FALSE))
            return FALSE;
        }

      if ((thread->flags & TKS_THREAD_RUNNING_AT_END) != 0 &&
          thread->runs != NULL && thread->n_runs > 0)
        {
          const TksRun *last = &thread->runs[thread->n_runs - 1];

          csv_row (w, "running_at_end", thread, name, last->begin, last->end);
        }

      for (guint m = 0; thread->marks != NULL && m < thread->n_marks; m++)
        {
          const TksMark *mark = &thread->marks[m];
          double width = mark->width_div > 0 ? 1.0 / (2.0 * mark->width_div) : 0.0;

          csv_row (w, mark->kind == TKS_MARK_IN ? "in" : "out", thread, name,
                   mark->pos, mark->pos + width);
          if (!writer_flush (w, FALSE))
            return FALSE;
        }

      if ((thread->flags & TKS_THREAD_EXITED) != 0 && isfinite (thread->exit_time))
        csv_row (w, (thread->flags & TKS_THREAD_EXITED_AFTER_LOG_END) ? "exit_after_log_end"
                    : "exit", thread, name, thread->exit_time, MAX (end, thread->exit_time));
      if (!writer_flush (w, FALSE))
        return FALSE;
    }

  if (tks_capture_get_trigger (capture, &trigger) && isfinite (trigger))
    {
      g_autofree char *by = csv_field (tks_capture_get_trigger_name (capture));

      csv_row (w, "trigger", NULL, by, trigger, trigger);
    }
  {
    guint n_gaps;
    const TksGap *gaps = tks_capture_get_gaps (capture, &n_gaps);

    /* The holes in the log; the thread field says how many switches are missing there. */
    for (guint g = 0; g < n_gaps; g++)
      {
        g_autofree char *what = g_strdup_printf ("%" G_GUINT64_FORMAT " switches dropped",
                                                 gaps[g].dropped);

        csv_row (w, "not_recorded", NULL, what, gaps[g].begin, gaps[g].end);
      }
  }
  if (log_end_before_end (capture, &log_end))
    csv_row (w, "log_end", NULL, "lone_exits", log_end, end);
  if (w->value_column && !csv_events_rows (capture, w))
    return FALSE;

  return writer_flush (w, FALSE);
}

/* ------------------------------------------------------------------------------------------ */
/* Linux ftrace text                                                                           */

enum
{
  SWITCH_END   = 0, /* the thread leaves the CPU (OUT) */
  SWITCH_EXIT  = 1, /* the thread exits */
  SWITCH_BEGIN = 2, /* the thread gets the CPU (IN) */
  SWITCH_LATE_EXIT = 3, /* the thread's exit was recorded after the log ended: not a switch */
};

typedef struct
{
  double  pos;
  guint32 thread;
  guint32 kind;
} SwitchEvent;

static int
switch_event_compare (gconstpointer a,
                      gconstpointer b)
{
  const SwitchEvent *ea = a;
  const SwitchEvent *eb = b;

  if (ea->pos != eb->pos)
    return ea->pos < eb->pos ? -1 : 1;
  if (ea->kind != eb->kind)
    return ea->kind < eb->kind ? -1 : 1;
  if (ea->thread != eb->thread)
    return ea->thread < eb->thread ? -1 : 1;
  return 0;
}

/* A task name as ftrace prints it and as text importers split it: no blanks, no '=', no
 * brackets, parentheses, commas or colons. */
static char *
ftrace_sanitize (const char *name)
{
  GString *comm = g_string_new (NULL);

  for (const char *p = name; p != NULL && *p != '\0'; p++)
    {
      char c = *p;

      if (g_ascii_isalnum (c) || c == '_' || c == '.' || c == '/' || c == '+' || c == '-')
        g_string_append_c (comm, c);
      else
        g_string_append_c (comm, '_');
    }

  return g_string_free (comm, FALSE);
}

static char *
ftrace_comm (const TksThread *thread)
{
  g_autofree char *name = thread_display_name (thread);
  char *comm = ftrace_sanitize (name);

  if (comm[0] == '\0')
    {
      g_free (comm);
      comm = g_strdup_printf ("thread%d", thread->number);
    }
  if (strlen (comm) > FTRACE_COMM_MAX)
    comm[FTRACE_COMM_MAX] = '\0';

  return comm;
}

typedef struct
{
  Writer      *w;        /* NULL while counting lines */
  TksCapture  *capture;
  char       **comms;
  char        *trigger_by;
  double       seconds_per_tick;
  double       origin;
  guint        n_lines;
} FtraceContext;

static const char *
ftrace_task_comm (FtraceContext *ctx,
                  int            thread)
{
  return thread < 0 ? "swapper/0" : ctx->comms[thread];
}

static int
ftrace_task_prio (FtraceContext *ctx,
                  int            thread)
{
  const TksThread *t;

  if (thread < 0)
    return 0;

  t = tks_capture_get_thread (ctx->capture, thread);
  return thread_priority_known (t) ? t->priority : 0;
}

/*
 * The state the previous task was left in. The log does not say; a fixed-priority scheduler
 * only lets a thread of lower or equal priority run when the previous one stopped being
 * ready, so that is "S" (sleeping); a higher-priority thread taking over preempted it ("R").
 */
static const char *
ftrace_prev_state (FtraceContext *ctx,
                   int            prev,
                   int            next,
                   gboolean       exited)
{
  if (exited)
    return "X";
  if (prev < 0 || next < 0 ||
      !thread_priority_known (tks_capture_get_thread (ctx->capture, prev)) ||
      !thread_priority_known (tks_capture_get_thread (ctx->capture, next)))
    return "R";
  return ftrace_task_prio (ctx, next) > ftrace_task_prio (ctx, prev) ? "R" : "S";
}

static void
ftrace_line_prefix (FtraceContext *ctx,
                    int            task,
                    double         pos)
{
  const char *comm = task < 0 ? "<idle>" : ctx->comms[task];

  gsize mark;

  append_padded_left (ctx->w->out, comm, 16);
  g_string_append_c (ctx->w->out, '-');
  mark = ctx->w->out->len;
  append_uint (ctx->w->out, (guint) (task + 1));
  for (gsize n = ctx->w->out->len - mark; n < 5; n++)
    g_string_append_c (ctx->w->out, ' ');
  g_string_append (ctx->w->out, " [000] d..2 ");
  append_fixed (ctx->w->out, (pos - ctx->origin) * ctx->seconds_per_tick, 6);
  g_string_append (ctx->w->out, ": ");
}

static void
ftrace_switch (FtraceContext *ctx,
               double         pos,
               int            prev,
               int            next,
               gboolean       exited)
{
  GString *out;

  ctx->n_lines++;
  if (ctx->w == NULL)
    return;

  out = ctx->w->out;
  ftrace_line_prefix (ctx, prev, pos);
  g_string_append (out, "sched_switch: prev_comm=");
  g_string_append (out, ftrace_task_comm (ctx, prev));
  g_string_append (out, " prev_pid=");
  append_int (out, prev + 1);
  g_string_append (out, " prev_prio=");
  append_int (out, ftrace_task_prio (ctx, prev));
  g_string_append (out, " prev_state=");
  g_string_append (out, ftrace_prev_state (ctx, prev, next, exited));
  g_string_append (out, " ==> next_comm=");
  g_string_append (out, ftrace_task_comm (ctx, next));
  g_string_append (out, " next_pid=");
  append_int (out, next + 1);
  g_string_append (out, " next_prio=");
  append_int (out, ftrace_task_prio (ctx, next));
  g_string_append_c (out, '\n');
}

/* A tracing_mark_write line: @what, then " @key=@value" when @value is set. */
static void
ftrace_mark (FtraceContext *ctx,
             int            current,
             double         pos,
             const char    *what,
             const char    *key,
             const char    *value)
{
  ctx->n_lines++;
  if (ctx->w == NULL)
    return;

  ftrace_line_prefix (ctx, current, pos);
  g_string_append (ctx->w->out, "tracing_mark_write: ");
  g_string_append (ctx->w->out, what);
  if (value != NULL && value[0] != '\0')
    g_string_append_printf (ctx->w->out, " %s=%s", key, value);
  g_string_append_c (ctx->w->out, '\n');
}

static void
ftrace_trigger (FtraceContext *ctx,
                int            current,
                double         pos)
{
  ftrace_mark (ctx, current, pos, "trigger", "set_by", ctx->trigger_by);
}

/* The marks of the holes' ends up to @pos: "not_recorded dropped=N" where a hole begins,
 * "not_recorded_end" where it ends (@done: marks written so far, two a hole). */
static void
ftrace_gap_marks (FtraceContext *ctx,
                  int            current,
                  const TksGap  *gaps,
                  guint          n_gaps,
                  guint         *done,
                  double         pos)
{
  while (*done < 2 * n_gaps)
    {
      const TksGap *gap = &gaps[*done / 2];
      gboolean at_begin = *done % 2 == 0;
      double at = at_begin ? gap->begin : gap->end;

      if (at > pos)
        return;
      if (at_begin)
        {
          char dropped[24];

          g_snprintf (dropped, sizeof dropped, "%" G_GUINT64_FORMAT, gap->dropped);
          ftrace_mark (ctx, current, at, "not_recorded", "dropped", dropped);
        }
      else
        ftrace_mark (ctx, current, at, "not_recorded_end", "", NULL);
      (*done)++;
    }
}

/* A line of an event of a dump version 2: @event (a tracepoint, with its fields). */
static void
ftrace_event (FtraceContext *ctx,
              int            current,
              double         pos,
              const char    *event)
{
  ctx->n_lines++;
  if (ctx->w == NULL)
    return;
  ftrace_line_prefix (ctx, current, pos);
  g_string_append (ctx->w->out, event);
  g_string_append_c (ctx->w->out, '\n');
}

/* The events of a dump version 2 up to @pos (@done: entries passed so far), as the kernel
 * names them: irq_handler_entry/exit, sched_wakeup; markers, states and sleep as
 * tracing_mark_write. */
static void
ftrace_events (FtraceContext *ctx,
               int            current,
               guint         *done,
               double         pos)
{
  TksEvents *events = tks_capture_get_events (ctx->capture);
  const TksEventEntry *e;
  guint n;

  if (events == NULL)
    return;
  e = tks_events_get_entries (events, &n);
  for (; *done < n && e[*done].time.pos <= pos; (*done)++)
    {
      const TksEventEntry *en = &e[*done];
      g_autofree char *name = NULL;
      g_autofree char *line = NULL;

      switch (en->kind)
        {
        case TKS_EVENT_IRQ_ENTER:
          name = ftrace_sanitize (tks_events_get_name (events, TKS_NAME_IRQ, en->a));
          line = g_strdup_printf ("irq_handler_entry: irq=%u name=%s", en->a, name);
          break;
        case TKS_EVENT_IRQ_LEAVE:
          line = g_strdup_printf ("irq_handler_exit: irq=%u ret=handled", en->a);
          break;
        case TKS_EVENT_READY:
          {
            guint n_wakeups, lo = 0, hi;
            const TksWakeup *w = tks_events_get_wakeups (events, &n_wakeups);
            int thread = -1;

            /* the thread this Ready names, from its wake-up (by ready time) */
            for (hi = n_wakeups; lo < hi;)
              {
                guint mid = lo + (hi - lo) / 2;

                if (w[mid].ready.time < en->time.time)
                  lo = mid + 1;
                else
                  hi = mid;
              }
            for (guint i = lo; i < n_wakeups && w[i].ready.time == en->time.time && thread < 0; i++)
              if (w[i].number == en->a && w[i].thread < tks_capture_get_n_threads (ctx->capture))
                thread = (int) w[i].thread;
            if (thread < 0)
              line = g_strdup_printf ("tracing_mark_write: ready number=%u", en->a);
            else
              {
                guint waker;

                line = g_strdup_printf ("sched_wakeup: comm=%s pid=%d prio=%d target_cpu=000",
                                        ftrace_task_comm (ctx, thread), thread + 1,
                                        ftrace_task_prio (ctx, thread));
                /* on the line of the task that made it ready (the one a handler interrupted,
                 * when a handler did), as the kernel prints a wakeup */
                tks_events_get_cpu_after (events, *done, &waker, NULL, NULL);
                if (waker < tks_capture_get_n_threads (ctx->capture))
                  {
                    ftrace_event (ctx, (int) waker, en->time.pos, line);
                    continue;
                  }
              }
          }
          break;
        case TKS_EVENT_MARKER:
          name = ftrace_sanitize (tks_events_get_name (events, TKS_NAME_MARKER, en->a));
          line = g_strdup_printf ("tracing_mark_write: %s=%u", name, en->b);
          break;
        case TKS_EVENT_STATE_BEGIN:
        case TKS_EVENT_STATE_END:
          {
            g_autofree char *channel = ftrace_sanitize (tks_events_get_name (events, TKS_NAME_CHANNEL, en->a));

            if (en->kind == TKS_EVENT_STATE_END)
              line = g_strdup_printf ("tracing_mark_write: state_end channel=%s", channel);
            else
              {
                name = ftrace_sanitize (tks_events_get_name (events, TKS_NAME_STATE, en->b));
                line = g_strdup_printf ("tracing_mark_write: state_begin channel=%s state=%s",
                                        channel, name);
              }
          }
          break;
        case TKS_EVENT_SLEEP:
          line = g_strdup ("tracing_mark_write: cpu_sleep");
          break;
        case TKS_EVENT_WAKE:
          name = en->b != 0 ? ftrace_sanitize (tks_events_get_name (events, TKS_NAME_IRQ, en->a))
                            : g_strdup ("none");
          line = g_strdup_printf ("tracing_mark_write: cpu_wake by=%s", name);
          break;
        case TKS_EVENT_SWITCH:
        case TKS_EVENT_TRIGGER:
        default:
          continue;
        }
      ftrace_event (ctx, current, en->time.pos, line);
    }
}

static GArray *
ftrace_collect_events (TksCapture *capture)
{
  guint n_threads = tks_capture_get_n_threads (capture);
  GArray *events = g_array_new (FALSE, FALSE, sizeof (SwitchEvent));

  for (guint i = 0; i < n_threads; i++)
    {
      const TksThread *thread = tks_capture_get_thread (capture, i);
      gboolean exited = (thread->flags & TKS_THREAD_EXITED) != 0 && isfinite (thread->exit_time);

      for (guint r = 0; thread->runs != NULL && r < thread->n_runs; r++)
        {
          const TksRun *run = &thread->runs[r];
          gboolean last = r + 1 == thread->n_runs;
          SwitchEvent ev;

          ev.pos = run->begin;
          ev.thread = i;
          ev.kind = SWITCH_BEGIN;
          g_array_append_val (events, ev);

          /* The end of a run still going at the end of the capture is not a switch, and a
           * run ending at the exit is reported by the exit itself. */
          if (last && (thread->flags & TKS_THREAD_RUNNING_AT_END) != 0)
            continue;
          if (exited && run->end == thread->exit_time)
            continue;

          ev.pos = run->end;
          ev.kind = SWITCH_END;
          g_array_append_val (events, ev);
        }

      for (guint m = 0; thread->marks != NULL && m < thread->n_marks; m++)
        {
          SwitchEvent ev;

          ev.pos = thread->marks[m].pos;
          ev.thread = i;
          ev.kind = thread->marks[m].kind == TKS_MARK_IN ? SWITCH_BEGIN : SWITCH_END;
          g_array_append_val (events, ev);
        }

      if (exited)
        {
          SwitchEvent ev;

          ev.pos = thread->exit_time;
          ev.thread = i;
          ev.kind = (thread->flags & TKS_THREAD_EXITED_AFTER_LOG_END) ? SWITCH_LATE_EXIT
                                                                       : SWITCH_EXIT;
          g_array_append_val (events, ev);
        }
    }

  g_array_sort (events, switch_event_compare);

  return events;
}

/* Walks the events in time order, writing one sched_switch line per switch (or only
 * counting them when ctx->w is NULL). */
static gboolean
ftrace_walk (FtraceContext *ctx,
             GArray        *events,
             gboolean       has_trigger,
             double         trigger)
{
  double log_end;
  gboolean log_end_done = !log_end_before_end (ctx->capture, &log_end);
  gboolean trigger_done = !has_trigger;
  int current = -1;
  guint i = 0;
  guint n_gaps, gap_marks = 0, events_done = 0;
  const TksGap *gaps = tks_capture_get_gaps (ctx->capture, &n_gaps);

  while (i < events->len)
    {
      double pos = g_array_index (events, SwitchEvent, i).pos;
      int outs[4];
      int ins[4];
      gboolean out_exits[4];
      guint n_outs = 0;
      guint n_ins = 0;

      ftrace_gap_marks (ctx, current, gaps, n_gaps, &gap_marks, pos);
      ftrace_events (ctx, current, &events_done, pos);

      if (!trigger_done && trigger <= pos)
        {
          ftrace_trigger (ctx, current, trigger);
          trigger_done = TRUE;
        }
      if (!log_end_done && log_end <= pos)
        {
          /* After it, no switch is known: only exits, as marks. */
          ftrace_mark (ctx, current, log_end, "log_end", "reason", "lone_exits");
          log_end_done = TRUE;
        }

      /* Every event at one position comes from one record: at most one thread leaves and
       * one comes in. Damaged data can hold more; they are taken pairwise. */
      for (; i < events->len && g_array_index (events, SwitchEvent, i).pos == pos; i++)
        {
          const SwitchEvent *ev = &g_array_index (events, SwitchEvent, i);

          if (ev->kind == SWITCH_LATE_EXIT)
            ftrace_mark (ctx, current, pos, "exit_after_log_end", "comm",
                         ctx->comms[ev->thread]);
          else if (ev->kind == SWITCH_BEGIN)
            {
              if (n_ins < G_N_ELEMENTS (ins))
                ins[n_ins++] = (int) ev->thread;
            }
          else if (n_outs < G_N_ELEMENTS (outs))
            {
              out_exits[n_outs] = ev->kind == SWITCH_EXIT;
              outs[n_outs++] = (int) ev->thread;
            }
        }

      for (guint k = 0; k < MAX (n_outs, n_ins); k++)
        {
          int prev = k < n_outs ? outs[k] : current;
          int next = k < n_ins ? ins[k] : -1;
          gboolean exited = k < n_outs && out_exits[k];

          if (prev == next)
            continue;

          ftrace_switch (ctx, pos, prev, next, exited);
          current = next;
        }

      if (ctx->w != NULL && !writer_flush (ctx->w, FALSE))
        return FALSE;
    }

  ftrace_gap_marks (ctx, current, gaps, n_gaps, &gap_marks, INFINITY);
  ftrace_events (ctx, current, &events_done, INFINITY);
  if (!trigger_done)
    ftrace_trigger (ctx, current, trigger);
  if (!log_end_done)
    ftrace_mark (ctx, current, log_end, "log_end", "reason", "lone_exits");

  return TRUE;
}

static gboolean
export_ftrace (TksCapture *capture,
               double      tick_hz,
               Writer     *w)
{
  guint n_threads = tks_capture_get_n_threads (capture);
  g_autoptr(GArray) events = ftrace_collect_events (capture);
  g_autoptr(GPtrArray) comms = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *trigger_by = NULL;
  FtraceContext ctx = { 0 };
  double trigger = 0;
  gboolean has_trigger;

  for (guint t = 0; t < n_threads; t++)
    g_ptr_array_add (comms, ftrace_comm (tks_capture_get_thread (capture, t)));

  has_trigger = tks_capture_get_trigger (capture, &trigger) && isfinite (trigger);
  if (has_trigger && tks_capture_get_trigger_name (capture) != NULL)
    {
      g_autofree char *by = capped_name (tks_capture_get_trigger_name (capture));

      trigger_by = ftrace_sanitize (by);
    }

  ctx.capture = capture;
  ctx.comms = (char **) comms->pdata;
  ctx.trigger_by = trigger_by;
  ctx.seconds_per_tick = 1.0 / tick_hz;

  /* Timestamps cannot be negative in this format. */
  ctx.origin = MIN (0.0, tks_capture_get_start (capture));
  if (events->len > 0)
    ctx.origin = MIN (ctx.origin, g_array_index (events, SwitchEvent, 0).pos);
  if (has_trigger)
    ctx.origin = MIN (ctx.origin, trigger);
  if (!isfinite (ctx.origin))
    ctx.origin = 0;

  /* The header gives the number of entries: count them first. */
  ftrace_walk (&ctx, events, has_trigger, trigger);

  g_string_append (w->out,
                   "# tracer: nop\n"
                   "#\n");
  {
    /* What the capture lost or could not read stays visible, as comments readers skip. */
    guint n_warnings = 0;
    const char * const *warnings = tks_capture_get_warnings (capture, &n_warnings);

    for (guint i = 0; i < n_warnings; i++)
      {
        g_string_append (w->out, "# ");
        for (const char *p = warnings[i]; *p != '\0'; p++)
          g_string_append_c (w->out, *p == '\n' || *p == '\r' ? ' ' : *p);
        g_string_append_c (w->out, '\n');
      }
    if (n_warnings > 0)
      g_string_append (w->out, "#\n");
  }
  g_string_append_printf (w->out,
                          "# entries-in-buffer/entries-written: %u/%u   #P:1\n",
                          ctx.n_lines, ctx.n_lines);
  g_string_append (w->out,
                   "#\n"
                   "#                                _-----=> irqs-off\n"
                   "#                               / _----=> need-resched\n"
                   "#                              | / _---=> hardirq/softirq\n"
                   "#                              || / _--=> preempt-depth\n"
                   "#                              ||| /     delay\n"
                   "#           TASK-PID     CPU#  ||||   TIMESTAMP  FUNCTION\n"
                   "#              | |         |   ||||      |         |\n");

  ctx.w = w;
  ctx.n_lines = 0;

  return ftrace_walk (&ctx, events, has_trigger, trigger);
}

/* ------------------------------------------------------------------------------------------ */

/**
 * tks_export_format_from_string:
 * @name: "perfetto" (or "json", "chrome"), "csv" or "ftrace"
 * @format: (out): the format
 *
 * Returns: %TRUE if @name names a format
 */
gboolean
tks_export_format_from_string (const char      *name,
                               TksExportFormat *format)
{
  g_return_val_if_fail (format != NULL, FALSE);

  if (name == NULL)
    return FALSE;

  if (g_ascii_strcasecmp (name, "perfetto") == 0 ||
      g_ascii_strcasecmp (name, "json") == 0 ||
      g_ascii_strcasecmp (name, "chrome") == 0)
    *format = TKS_EXPORT_PERFETTO;
  else if (g_ascii_strcasecmp (name, "csv") == 0)
    *format = TKS_EXPORT_CSV;
  else if (g_ascii_strcasecmp (name, "ftrace") == 0)
    *format = TKS_EXPORT_FTRACE;
  else
    return FALSE;

  return TRUE;
}

const char *
tks_export_format_to_string (TksExportFormat format)
{
  switch (format)
    {
    case TKS_EXPORT_PERFETTO:
      return "perfetto";
    case TKS_EXPORT_CSV:
      return "csv";
    case TKS_EXPORT_FTRACE:
      return "ftrace";
    default:
      return NULL;
    }
}

static gboolean
resolve_tick_hz (TksCapture  *capture,
                 double      *tick_hz,
                 GError     **error)
{
  if (*tick_hz == 0)
    {
      *tick_hz = tks_capture_get_tick_hz (capture);
      if (!(*tick_hz > 0) || !isfinite (*tick_hz))
        *tick_hz = TKS_EXPORT_DEFAULT_TICK_HZ;
    }

  if (!(*tick_hz > 0) || !isfinite (*tick_hz))
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE,
                   _("The tick rate must be a positive number of hertz, not %g"), *tick_hz);
      return FALSE;
    }

  return TRUE;
}

static gboolean
export_run (TksCapture      *capture,
            TksExportFormat  format,
            double           tick_hz,
            Writer          *w,
            GError         **error)
{
  gboolean ok;

  switch (format)
    {
    case TKS_EXPORT_PERFETTO:
      ok = export_perfetto (capture, tick_hz, w);
      break;

    case TKS_EXPORT_CSV:
      ok = export_csv (capture, w);
      break;

    case TKS_EXPORT_FTRACE:
      ok = export_ftrace (capture, tick_hz, w);
      break;

    default:
      g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE, _("Unknown export format %d"),
                   (int) format);
      return FALSE;
    }

  if (ok)
    ok = writer_flush (w, TRUE);

  if (!ok && w->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&w->error));
      return FALSE;
    }

  return ok;
}

/**
 * tks_export_write:
 * @capture: a capture
 * @format: the format to write
 * @tick_hz: ticks per second for formats using real time units, or 0 for the capture's own
 *   rate (1000 Hz when it has none)
 * @out: the string to append the export to
 * @error: return location for an error
 *
 * Appends the whole export of @capture to @out.
 *
 * Returns: %TRUE on success
 */
gboolean
tks_export_write (TksCapture      *capture,
                  TksExportFormat  format,
                  double           tick_hz,
                  GString         *out,
                  GError         **error)
{
  Writer w = { 0 };

  g_return_val_if_fail (TKS_IS_CAPTURE (capture), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!resolve_tick_hz (capture, &tick_hz, error))
    return FALSE;

  w.out = out;

  return export_run (capture, format, tick_hz, &w, error);
}

/**
 * tks_export_to_stream:
 * @capture: a capture
 * @format: the format to write
 * @tick_hz: as for tks_export_write()
 * @stream: where to write
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Writes the export of @capture to @stream in chunks. The stream is not closed.
 *
 * Returns: %TRUE on success
 */
gboolean
tks_export_to_stream (TksCapture      *capture,
                      TksExportFormat  format,
                      double           tick_hz,
                      GOutputStream   *stream,
                      GCancellable    *cancellable,
                      GError         **error)
{
  return tks_export_to_stream_in_unit (capture, format, tick_hz, TKS_EXPORT_UNIT_TICKS, stream,
                                       cancellable, error);
}

gboolean
tks_export_unit_from_string (const char    *name,
                             TksExportUnit *unit)
{
  static const char * const names[] = { "ticks", "s", "ms", "us", "ns" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (name != NULL && g_str_equal (name, names[i]))
      {
        *unit = (TksExportUnit) i;
        return TRUE;
      }
  return FALSE;
}

gboolean
tks_export_to_stream_in_unit (TksCapture      *capture,
                              TksExportFormat  format,
                              double           tick_hz,
                              TksExportUnit    unit,
                              GOutputStream   *stream,
                              GCancellable    *cancellable,
                              GError         **error)
{
  /* per second, and the decimals that keep a nanosecond */
  static const double per_second[] = { 0, 1, 1e3, 1e6, 1e9 };
  static const int decimals[] = { 6, 9, 6, 3, 0 };
  g_autoptr(GString) buffer = NULL;
  Writer w = { 0 };

  g_return_val_if_fail (TKS_IS_CAPTURE (capture), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!resolve_tick_hz (capture, &tick_hz, error))
    return FALSE;

  buffer = g_string_sized_new (FLUSH_THRESHOLD * 2);
  w.out = buffer;
  w.stream = stream;
  w.cancellable = cancellable;
  w.unit_per_tick = per_second[unit] / tick_hz;
  w.unit_decimals = decimals[unit];

  return export_run (capture, format, tick_hz, &w, error);
}
