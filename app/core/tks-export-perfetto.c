/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tks-export-private.h"

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
json_begin_event (TksExportWriter *w,
                  gboolean        *first,
                  const char      *ph,
                  const char      *name,
                  guint            tid)
{
  g_string_append (w->out, *first ? "\n{\"ph\":\"" : ",\n{\"ph\":\"");
  *first = FALSE;
  g_string_append (w->out, ph);
  g_string_append (w->out, "\",\"pid\":1,\"tid\":");
  tks_export_append_uint (w->out, tid);
  g_string_append (w->out, ",\"name\":");
  append_json_string (w->out, name);
}

static void
json_append_ts (TksExportWriter *w,
                const char      *key,
                double           value_us)
{
  g_string_append (w->out, ",\"");
  g_string_append (w->out, key);
  g_string_append (w->out, "\":");
  tks_export_append_number (w->out, value_us, 3);
}

/* A complete slice's "ts" and "dur" from @begin to @end (µs), both to the nanosecond, the
 * duration from the rounded ends: slices that touch (a wake-up's ready slice and the run it
 * leads to) then touch in the file too, where a nanosecond of overlap would have Perfetto
 * leave the later one out. */
static void
json_append_span (TksExportWriter *w,
                  double           begin_us,
                  double           end_us)
{
  double b = round (begin_us * 1000), e = round (end_us * 1000);

  json_append_ts (w, "ts", b / 1000);
  json_append_ts (w, "dur", MAX (0.0, e - b) / 1000);
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

/* The slices and instants of one track of @kind, under tid @tid. */
static gboolean
perfetto_track (const TksTrack  *track,
                guint            kind,
                guint            tid,
                double           us_per_tick,
                TksExportWriter *w,
                gboolean        *first)
{
  static const char * const prefixes[TKS_N_TRACK_KINDS] = { "irq ", "", "marker ", "state " };
  static const char * const cats[TKS_N_TRACK_KINDS] = { "irq", "sleep", "marker", "state" };
  g_autofree char *label = g_strconcat (prefixes[kind], track->name, NULL);

  json_begin_event (w, first, "M", "thread_name", tid);
  g_string_append (w->out, ",\"args\":{\"name\":");
  append_json_string (w->out, label);
  g_string_append (w->out, "}}");
  json_begin_event (w, first, "M", "thread_sort_index", tid);
  g_string_append_printf (w->out, ",\"args\":{\"sort_index\":%u}}", tid);
  for (guint i = 0; i < track->n_slices; i++)
    {
      const TksSlice *sl = &track->slices[i];

      json_begin_event (w, first, "X", sl->label != NULL ? sl->label : "sleep", tid);
      g_string_append_printf (w->out, ",\"cat\":\"%s\"", cats[kind]);
      json_append_span (w, sl->begin.pos * us_per_tick, sl->end.pos * us_per_tick);
      g_string_append_printf (w->out, ",\"args\":{\"depth\":%u", sl->depth);
      if (kind == TKS_TRACK_SLEEP)
        {
          g_string_append (w->out, ",\"woken_by\":");
          append_json_string (w->out, sl->label != NULL ? sl->label : "");
        }
      g_string_append (w->out, "}}");
      if (!tks_export_flush (w, FALSE))
        return FALSE;
    }
  for (guint i = 0; i < track->n_instants; i++)
    {
      json_begin_event (w, first, "i", track->name, tid);
      g_string_append (w->out, ",\"cat\":\"marker\",\"s\":\"t\"");
      json_append_ts (w, "ts", track->instants[i].time.pos * us_per_tick);
      g_string_append_printf (w->out, ",\"args\":{\"value\":%u}}", track->instants[i].value);
      if (!tks_export_flush (w, FALSE))
        return FALSE;
    }
  return TRUE;
}

/* Wake-up @i: a "ready" slice on its thread's track, from made ready to switched in (its flow
 * is written with the runs, perfetto_flow_starts()). */
static gboolean
perfetto_wakeup (TksCapture      *capture,
                 TksEvents       *events,
                 guint            i,
                 double           us_per_tick,
                 TksExportWriter *w,
                 gboolean        *first)
{
  guint n_wakeups;
  const TksWakeup *wk = &tks_events_get_wakeups (events, &n_wakeups)[i];
  guint thread_tid = wk->thread < tks_capture_get_n_threads (capture) ? wk->thread + 1 : 0;
  g_autofree char *waker = tks_events_describe_waker (events, wk);

  if (thread_tid == 0)
    return TRUE;
  json_begin_event (w, first, "X", "ready", thread_tid);
  g_string_append (w->out, ",\"cat\":\"wakeup\"");
  if (wk->open)
    {
      /* Made ready and still waiting for the CPU when the capture ends: no run to flow
       * to, the slice lasts to the end. */
      json_append_span (w, wk->ready.pos * us_per_tick, tks_capture_get_end (capture) * us_per_tick);
      g_string_append (w->out, ",\"args\":{\"open\":true}}");
      return tks_export_flush (w, FALSE);
    }
  json_append_span (w, wk->ready.pos * us_per_tick, wk->run.pos * us_per_tick);
  g_string_append (w->out, ",\"args\":{\"latency_us\":");
  tks_export_append_number (w->out, tks_events_to_us (events, wk->latency), 3);
  g_string_append (w->out, ",\"waker\":");
  append_json_string (w->out, waker);
  g_string_append (w->out, "}}");
  return tks_export_flush (w, FALSE);
}

/* The track where wake-up @wk's flow starts, 0 when it has none: when the log does not say
 * what made the thread ready, or says the thread itself, or no run of the thread begins
 * where it was switched in. */
static guint
perfetto_flow_tid (TksCapture      *capture,
                   TksEvents       *events,
                   const TksWakeup *wk,
                   guint            first_tid)
{
  const TksThread *thread;
  guint from_tid, r;

  if (wk->open || wk->thread >= tks_capture_get_n_threads (capture))
    return 0;
  from_tid = perfetto_waker_tid (capture, events, wk, first_tid);
  if (from_tid == wk->thread + 1)
    return 0;
  thread = tks_capture_get_thread (capture, wk->thread);
  r = tks_runs_first_beginning_at (thread->runs, 0, thread->n_runs, wk->run.pos);
  return r < thread->n_runs && thread->runs[r].begin == wk->run.pos ? from_tid : 0;
}

/* A flow's start (@entry: its wake-up's Ready) or end (its switch-in). */
typedef struct
{
  guint    entry;
  guint    wakeup;
  gboolean end;
} FlowPoint;

static int
flow_point_cmp (gconstpointer a,
                gconstpointer b)
{
  const FlowPoint *x = a, *y = b;

  return x->entry < y->entry ? -1 : x->entry > y->entry;
}

/* One flow point: a start is, on the waker's track, a slice of no length at the moment it made
 * the thread ready ("wakes NAME") and the flow's start bound to it; an end is bound to the run
 * the thread was switched in for. */
static void
perfetto_flow_point (TksCapture      *capture,
                     TksEvents       *events,
                     const FlowPoint *point,
                     double           us_per_tick,
                     guint            first_tid,
                     TksExportWriter *w,
                     gboolean        *first)
{
  guint n_wakeups;
  const TksWakeup *wk = &tks_events_get_wakeups (events, &n_wakeups)[point->wakeup];
  g_autofree char *name = NULL;
  g_autofree char *label = NULL;
  guint from_tid;

  if (point->end)
    {
      json_begin_event (w, first, "f", "wakeup", wk->thread + 1);
      g_string_append_printf (w->out, ",\"cat\":\"wakeup\",\"id\":%u,\"bp\":\"e\"",
                              point->wakeup + 1);
      json_append_ts (w, "ts", wk->run.pos * us_per_tick);
      g_string_append (w->out, "}");
      return;
    }
  from_tid = perfetto_flow_tid (capture, events, wk, first_tid);
  name = tks_export_thread_name (tks_capture_get_thread (capture, wk->thread));
  label = g_strconcat ("wakes ", name, NULL);
  json_begin_event (w, first, "X", label, from_tid);
  g_string_append (w->out, ",\"cat\":\"wakeup\"");
  json_append_ts (w, "ts", wk->ready.pos * us_per_tick);
  g_string_append (w->out, ",\"dur\":0,\"args\":{\"thread\":");
  append_json_string (w->out, name);
  g_string_append (w->out, "}}");
  json_begin_event (w, first, "s", "wakeup", from_tid);
  g_string_append_printf (w->out, ",\"cat\":\"wakeup\",\"id\":%u", point->wakeup + 1);
  json_append_ts (w, "ts", wk->ready.pos * us_per_tick);
  g_string_append (w->out, "}");
}

/* The wake-ups' flows, from what made each thread ready (a thread's or a handler's track) to
 * the run it led to. A reader that binds flows as Perfetto does takes the events in time
 * order, those of one time longer slices first and then in the file's order, and binds a
 * flow's start and end to the newest slice of their track. So the flows come first in the
 * file, their starts and ends in the log's order: a run that begins when its thread was made
 * ready is bound after that flow began, and before the thread made another ready at the same
 * time. */
static gboolean
perfetto_flows (TksCapture      *capture,
                double           us_per_tick,
                guint            first_tid,
                TksExportWriter *w,
                gboolean        *first)
{
  TksEvents *events = tks_capture_get_events (capture);
  g_autoptr(GArray) points = NULL;
  const TksWakeup *wakeups;
  guint n_wakeups = 0;

  if (events == NULL)
    return TRUE;
  wakeups = tks_events_get_wakeups (events, &n_wakeups);
  points = g_array_new (FALSE, FALSE, sizeof (FlowPoint));
  for (guint i = 0; i < n_wakeups; i++)
    if (perfetto_flow_tid (capture, events, &wakeups[i], first_tid) != 0)
      {
        FlowPoint start = { wakeups[i].ready_entry, i, FALSE };
        FlowPoint end = { wakeups[i].run_entry, i, TRUE };

        g_array_append_val (points, start);
        g_array_append_val (points, end);
      }
  g_array_sort (points, flow_point_cmp);
  for (guint i = 0; i < points->len; i++)
    {
      perfetto_flow_point (capture, events, &g_array_index (points, FlowPoint, i), us_per_tick,
                           first_tid, w, first);
      if (!tks_export_flush (w, FALSE))
        return FALSE;
    }
  return TRUE;
}

/* The events of a dump version 2: a track per handler, one for the CPU's sleep, one per
 * marker (instants with their value) and per state channel (nested slices), after the
 * threads' (tids from @first_tid); each wake-up is a "ready" slice on its thread's track from
 * made ready to switched in, with a flow from what made it ready (a thread's or a handler's
 * track, when the log says) to the run; one never switched in lasts to the capture's end,
 * marked open. The flows are written before (perfetto_flows()). */
static gboolean
perfetto_events (TksCapture      *capture,
                 double           us_per_tick,
                 guint            first_tid,
                 TksExportWriter *w,
                 gboolean        *first)
{
  TksEvents *events = tks_capture_get_events (capture);
  guint tid = first_tid, n_wakeups;

  if (events == NULL)
    return TRUE;
  for (guint k = 0; k < TKS_N_TRACK_KINDS; k++)
    {
      guint n;
      const TksTrack *tracks = tks_events_get_tracks (events, k, &n);

      for (guint t = 0; t < n; t++, tid++)
        if (!perfetto_track (&tracks[t], k, tid, us_per_tick, w, first))
          return FALSE;
    }

  tks_events_get_wakeups (events, &n_wakeups);
  for (guint i = 0; i < n_wakeups; i++)
    if (!perfetto_wakeup (capture, events, i, us_per_tick, w, first))
      return FALSE;
  return TRUE;
}

/* Where each thread's track goes: lanes are listed top to bottom; threads missing from them
 * go last, in creation order. */
static guint *
perfetto_sort_index (TksCapture *capture)
{
  guint n_threads = tks_capture_get_n_threads (capture);
  guint *sort_index = g_new0 (guint, MAX (n_threads, 1));
  const guint *lanes;
  guint n_lanes = 0;

  for (guint i = 0; i < n_threads; i++)
    sort_index[i] = G_MAXUINT;
  lanes = tks_capture_get_lanes (capture, &n_lanes);
  for (guint i = 0; lanes != NULL && i < n_lanes; i++)
    if (lanes[i] < n_threads && sort_index[lanes[i]] == G_MAXUINT)
      sort_index[lanes[i]] = i;
  for (guint i = 0, next = n_lanes; i < n_threads; i++)
    if (sort_index[i] == G_MAXUINT)
      sort_index[i] = next++;
  return sort_index;
}

/* The file's head: the tick rate, the source and what the capture lost or could not read
 * (which stays visible in the export), then the process. */
static void
perfetto_head (TksCapture      *capture,
               double           tick_hz,
               TksExportWriter *w,
               gboolean        *first)
{
  const char *source = tks_capture_get_source (capture);
  guint n_warnings = 0;
  const char * const *warnings = tks_capture_get_warnings (capture, &n_warnings);

  g_string_append (w->out, "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"tick_hz\":");
  tks_export_append_number (w->out, tick_hz, 6);
  g_string_append (w->out, ",\"source\":");
  append_json_string (w->out, source != NULL ? source : "");
  g_string_append (w->out, ",\"warnings\":[");
  for (guint i = 0; i < n_warnings; i++)
    {
      if (i > 0)
        g_string_append_c (w->out, ',');
      append_json_string (w->out, warnings[i]);
    }
  g_string_append_c (w->out, ']');
  g_string_append (w->out, "},\"traceEvents\":[");

  json_begin_event (w, first, "M", "process_name", 0);
  g_string_append (w->out, ",\"args\":{\"name\":");
  append_json_string (w->out, source != NULL && source[0] != '\0' ? source : "ChibiOS board");
  g_string_append (w->out, "}}");
}

/* The runs of a thread on its track (tid @tid), each a slice named after the thread. */
static gboolean
perfetto_runs (const TksThread *thread,
               const char      *name,
               guint            tid,
               double           us_per_tick,
               TksExportWriter *w,
               gboolean        *first)
{
  for (guint r = 0; thread->runs != NULL && r < thread->n_runs; r++)
    {
      const TksRun *run = &thread->runs[r];
      gboolean at_end = (thread->flags & TKS_THREAD_RUNNING_AT_END) != 0 &&
                        r + 1 == thread->n_runs;

      json_begin_event (w, first, "X", name, tid);
      g_string_append (w->out, ",\"cat\":\"run\"");
      json_append_span (w, run->begin * us_per_tick, run->end * us_per_tick);
      g_string_append (w->out, ",\"args\":{\"begin_tick\":");
      tks_export_append_number (w->out, run->begin, 6);
      g_string_append (w->out, ",\"end_tick\":");
      tks_export_append_number (w->out, run->end, 6);
      if (at_end)
        g_string_append (w->out, ",\"running_at_end\":true");
      g_string_append (w->out, "}}");

      if (!tks_export_flush (w, FALSE))
        return FALSE;
    }
  return TRUE;
}

/* The marks and the exit of a thread on its track (tid @tid). */
static gboolean
perfetto_marks (const TksThread *thread,
                guint            tid,
                double           us_per_tick,
                TksExportWriter *w,
                gboolean        *first)
{
  for (guint m = 0; thread->marks != NULL && m < thread->n_marks; m++)
    {
      const TksMark *mark = &thread->marks[m];

      json_begin_event (w, first, "i", mark->kind == TKS_MARK_IN ? "in" : "out", tid);
      g_string_append (w->out, ",\"cat\":\"mark\",\"s\":\"t\"");
      json_append_ts (w, "ts", mark->pos * us_per_tick);
      g_string_append (w->out, "}");

      if (!tks_export_flush (w, FALSE))
        return FALSE;
    }

  if ((thread->flags & TKS_THREAD_EXITED) != 0 && isfinite (thread->exit_time))
    {
      json_begin_event (w, first, "i", "exit", tid);
      g_string_append (w->out, ",\"cat\":\"exit\",\"s\":\"t\"");
      json_append_ts (w, "ts", thread->exit_time * us_per_tick);
      /* Recorded after the log ended: what the thread did until then is unknown. */
      if (thread->flags & TKS_THREAD_EXITED_AFTER_LOG_END)
        g_string_append (w->out, ",\"args\":{\"after_log_end\":true}");
      g_string_append (w->out, "}");
    }
  return TRUE;
}

/* A thread's track (tid @tid): its name, its place, its runs, marks and exit. */
static gboolean
perfetto_thread (const TksThread *thread,
                 guint            tid,
                 guint            sort_index,
                 double           us_per_tick,
                 TksExportWriter *w,
                 gboolean        *first)
{
  g_autofree char *name = tks_export_thread_name (thread);
  g_autofree char *label = NULL;

  /* A thread only the log names has no known priority; its name says so. */
  if (tks_export_priority_known (thread))
    label = g_strdup_printf ("%s (prio %d)", name, thread->priority);
  else
    label = g_strdup (name);

  json_begin_event (w, first, "M", "thread_name", tid);
  g_string_append (w->out, ",\"args\":{\"name\":");
  append_json_string (w->out, label);
  g_string_append (w->out, "}}");

  json_begin_event (w, first, "M", "thread_sort_index", tid);
  g_string_append_printf (w->out, ",\"args\":{\"sort_index\":%u}}", sort_index);

  if (!perfetto_runs (thread, name, tid, us_per_tick, w, first) ||
      !perfetto_marks (thread, tid, us_per_tick, w, first))
    return FALSE;
  /* Also for threads without runs: a history of many threads is written as it goes. */
  return tks_export_flush (w, FALSE);
}

/* What belongs to no thread: the trigger, the holes in the log (slices on a track of their
 * own, tid 0), the log's end. */
static void
perfetto_capture_marks (TksCapture      *capture,
                        double           us_per_tick,
                        TksExportWriter *w,
                        gboolean        *first)
{
  double trigger, log_end;
  guint n_gaps;
  const TksGap *gaps = tks_capture_get_gaps (capture, &n_gaps);

  if (tks_capture_get_trigger (capture, &trigger) && isfinite (trigger))
    {
      const char *by = tks_capture_get_trigger_name (capture);

      json_begin_event (w, first, "i", "trigger", 0);
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

  for (guint g = 0; g < n_gaps; g++)
    {
      json_begin_event (w, first, "X", "not_recorded", 0);
      g_string_append (w->out, ",\"cat\":\"not_recorded\"");
      json_append_span (w, gaps[g].begin * us_per_tick, gaps[g].end * us_per_tick);
      g_string_append_printf (w->out, ",\"args\":{\"dropped\":%" G_GUINT64_FORMAT "}}",
                              gaps[g].dropped);
    }

  if (tks_export_log_end_before_end (capture, &log_end))
    {
      json_begin_event (w, first, "i", "log_end", 0);
      g_string_append (w->out, ",\"cat\":\"log_end\",\"s\":\"g\"");
      json_append_ts (w, "ts", log_end * us_per_tick);
      g_string_append_printf (w->out, ",\"args\":{\"reason\":\"lone_exits\",\"exits_after\":%u}}",
                              tks_capture_get_n_exits_after_log_end (capture));
    }
}

gboolean
tks_export_perfetto (TksCapture      *capture,
                     double           tick_hz,
                     TksExportWriter *w)
{
  const double us_per_tick = 1e6 / tick_hz;
  guint n_threads = tks_capture_get_n_threads (capture);
  g_autofree guint *sort_index = perfetto_sort_index (capture);
  gboolean first = TRUE;

  perfetto_head (capture, tick_hz, w, &first);
  if (!perfetto_flows (capture, us_per_tick, n_threads + 1, w, &first))
    return FALSE;
  for (guint i = 0; i < n_threads; i++)
    {
      const TksThread *thread = tks_capture_get_thread (capture, i);

      /* Gone before the log began: no track, as it did not run in it. */
      if (thread->flags & TKS_THREAD_EXITED_BEFORE_LOG)
        continue;
      if (!perfetto_thread (thread, i + 1, sort_index[i], us_per_tick, w, &first))
        return FALSE;
    }
  perfetto_capture_marks (capture, us_per_tick, w, &first);
  if (!perfetto_events (capture, us_per_tick, n_threads + 1, w, &first))
    return FALSE;

  g_string_append (w->out, "\n]}\n");

  return tks_export_flush (w, FALSE);
}
