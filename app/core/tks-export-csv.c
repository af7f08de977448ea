/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tks-export-private.h"

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
  g_autofree char *capped = tks_export_capped_name (str);
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
csv_time (TksExportWriter *w,
          double           ticks)
{
  if (w->unit_per_tick > 0)
    tks_export_append_number (w->out, ticks * w->unit_per_tick, w->unit_decimals);
  else
    tks_export_append_number (w->out, ticks, 6);
}

/* @thread_field: the thread's name, already escaped; @value: the value column's (NULL: empty;
 * only written when the export has the column); an @end of NAN is left empty. */
static void
csv_row_value (TksExportWriter *w,
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
  if (thread != NULL && tks_export_priority_known (thread))
    tks_export_append_int (w->out, thread->priority);
  g_string_append_c (w->out, ',');
  if (thread != NULL)
    tks_export_append_uint (w->out, thread->index);
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
csv_row (TksExportWriter *w,
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
csv_event_row (TksExportWriter *w,
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
csv_events_rows (TksCapture      *capture,
                 TksExportWriter *w)
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
              if (!tks_export_flush (w, FALSE))
                return FALSE;
            }
        }
    }

  wakeups = tks_events_get_wakeups (events, &n);
  for (guint i = 0; i < n; i++)
    {
      const TksThread *thread = wakeups[i].thread < tks_capture_get_n_threads (capture)
                                ? tks_capture_get_thread (capture, wakeups[i].thread) : NULL;
      g_autofree char *name = thread != NULL ? tks_export_thread_name (thread)
                                             : g_strdup_printf ("thread %u", wakeups[i].number);
      GString *latency = g_string_new (NULL);

      if (!wakeups[i].open)
        tks_export_append_number (latency, tks_events_to_us (events, wakeups[i].latency), 3);
      csv_event_row (w, "wakeup", thread, name, wakeups[i].ready.pos,
                     wakeups[i].open ? NAN : wakeups[i].run.pos, latency->str);
      g_string_free (latency, TRUE);
      if (!tks_export_flush (w, FALSE))
        return FALSE;
    }
  return TRUE;
}

/* The rows of one thread: what is not known of it, its runs, its marks and its exit. */
static gboolean
csv_thread_rows (TksCapture      *capture,
                 TksExportWriter *w,
                 const TksThread *thread)
{
  double start = tks_capture_get_start (capture);
  double end = tks_capture_get_end (capture);
  double log_end = tks_capture_get_log_end (capture, NULL);
  g_autofree char *display_name = tks_export_thread_name (thread);
  g_autofree char *name = csv_field (display_name);

  /* Nothing is known after the log's end (a log_end row covers it). */
  if (isnan (thread->first_event))
    csv_row (w, "no_data", thread, name, start, log_end);
  else if (thread->first_event > start)
    csv_row (w, "no_data", thread, name, start, MIN (thread->first_event, log_end));

  for (guint r = 0; thread->runs != NULL && r < thread->n_runs; r++)
    {
      csv_row (w, "run", thread, name, thread->runs[r].begin, thread->runs[r].end);
      if (!tks_export_flush (w, FALSE))
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
      if (!tks_export_flush (w, FALSE))
        return FALSE;
    }

  if ((thread->flags & TKS_THREAD_EXITED) != 0 && isfinite (thread->exit_time))
    csv_row (w, (thread->flags & TKS_THREAD_EXITED_AFTER_LOG_END) ? "exit_after_log_end"
                : "exit", thread, name, thread->exit_time, MAX (end, thread->exit_time));
  return tks_export_flush (w, FALSE);
}

/* The rows of the capture itself: the trigger, the holes in the log, the log's end. */
static void
csv_capture_rows (TksCapture      *capture,
                  TksExportWriter *w)
{
  double end = tks_capture_get_end (capture);
  double log_end;
  double trigger;
  guint n_gaps;
  const TksGap *gaps = tks_capture_get_gaps (capture, &n_gaps);

  if (tks_capture_get_trigger (capture, &trigger) && isfinite (trigger))
    {
      g_autofree char *by = csv_field (tks_capture_get_trigger_name (capture));

      csv_row (w, "trigger", NULL, by, trigger, trigger);
    }
  /* The holes in the log; the thread field says how many switches are missing there. */
  for (guint g = 0; g < n_gaps; g++)
    {
      g_autofree char *what = g_strdup_printf ("%" G_GUINT64_FORMAT " switches dropped",
                                               gaps[g].dropped);

      csv_row (w, "not_recorded", NULL, what, gaps[g].begin, gaps[g].end);
    }
  if (tks_export_log_end_before_end (capture, &log_end))
    csv_row (w, "log_end", NULL, "lone_exits", log_end, end);
}

gboolean
tks_export_csv (TksCapture      *capture,
                TksExportWriter *w)
{
  guint n_threads = tks_capture_get_n_threads (capture);

  /* The events of a dump version 2 add rows with a value (csv_events_rows). */
  w->value_column = tks_capture_get_events (capture) != NULL;
  g_string_append (w->out, w->value_column ? "kind,thread,priority,creation_order,begin,end,value\r\n"
                                           : "kind,thread,priority,creation_order,begin,end\r\n");

  for (guint i = 0; i < n_threads; i++)
    {
      const TksThread *thread = tks_capture_get_thread (capture, i);

      /* Gone before the log began: it has no row, as it did not run in it. */
      if (thread->flags & TKS_THREAD_EXITED_BEFORE_LOG)
        continue;
      if (!csv_thread_rows (capture, w, thread))
        return FALSE;
    }

  csv_capture_rows (capture, w);
  if (w->value_column && !csv_events_rows (capture, w))
    return FALSE;

  return tks_export_flush (w, FALSE);
}
