/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: anything a serial line or a user's file can hold goes through the
 * transcript/capture-file reader and the rebuild; whatever loads is then measured, exported
 * in every format, saved and loaded again. Nothing may crash, read out of bounds or leak, and
 * a saved capture must load back with the same threads, runs and marks.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tks-capture.h"
#include "tks-events.h"
#include "tks-export.h"
#include "tks-stats.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
count_timeline (TksCapture *capture,
                guint      *n_runs,
                guint      *n_marks)
{
  *n_runs = 0;
  *n_marks = 0;
  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    {
      const TksThread *t = tks_capture_get_thread (capture, i);

      *n_runs += t->n_runs;
      *n_marks += t->n_marks;
    }
}

/* The events of a dump version 2: in order, slices that end after they begin, wake-ups that
 * never end before they begin; their statistics. */
static void
exercise_events (TksEvents *events)
{
  const TksEventEntry *e;
  const TksWakeup *w;
  guint n;
  g_autoptr(GArray) lat = tks_events_latency_stats (events, NAN, NAN);
  g_autoptr(GArray) handlers = tks_events_handler_stats (events, NAN, NAN);
  g_autoptr(GArray) markers = tks_events_marker_stats (events, NAN, NAN);
  g_autofree guint *hist = tks_events_latency_histogram (events, G_MAXUINT, NAN, NAN, 10, 16);

  e = tks_events_get_entries (events, &n);
  for (guint i = 1; i < n; i++)
    if (!(e[i].time.pos >= e[i - 1].time.pos) || e[i].time.time < e[i - 1].time.time)
      abort ();
  for (guint k = 0; k < TKS_N_TRACK_KINDS; k++)
    {
      const TksTrack *t = tks_events_get_tracks (events, k, &n);

      for (guint i = 0; i < n; i++)
        for (guint j = 0; j < t[i].n_slices; j++)
          if (t[i].slices[j].end.time < t[i].slices[j].begin.time)
            abort ();
    }
  w = tks_events_get_wakeups (events, &n);
  for (guint i = 0; i < n; i++)
    if (w[i].latency < 0)
      abort ();
  tks_events_irq_time (events, NAN, NAN);
  tks_events_sleep_time (events, NAN, NAN);

  /* The figures agree with themselves. */
  for (guint i = 0; i < lat->len; i++)
    {
      const TksLatencyStats *l = &g_array_index (lat, TksLatencyStats, i);

      double slack = 1e-9 * (fabs (l->max_us) + 1); /* the mean's rounding */

      if (l->count > 0 && !(l->min_us <= l->p50_us && l->p50_us <= l->p99_us &&
                            l->p99_us <= l->max_us && l->min_us - slack <= l->mean_us &&
                            l->mean_us <= l->max_us + slack))
        abort ();
    }
  for (guint i = 0, sum = 0; i < 16; i++)
    if ((sum += hist[i]) > n)
      abort ();
  for (guint i = 0; i < handlers->len; i++)
    if (g_array_index (handlers, TksHandlerStats, i).longest_us >
        g_array_index (handlers, TksHandlerStats, i).total_us)
      abort ();
  for (guint i = 0; i < markers->len; i++)
    if (g_array_index (markers, TksMarkerStats, i).min_interval_us >
        g_array_index (markers, TksMarkerStats, i).max_interval_us)
      abort ();
}

/* A saved capture's events load back the same. */
static void
compare_events (TksEvents *a,
                TksEvents *b)
{
  const TksEventEntry *ea, *eb;
  guint na, nb;

  if ((a == NULL) != (b == NULL))
    {
      fprintf (stderr, "a saved capture loads %s events\n", a != NULL ? "without its" : "with");
      abort ();
    }
  if (a == NULL)
    return;
  ea = tks_events_get_entries (a, &na);
  eb = tks_events_get_entries (b, &nb);
  if (na != nb)
    {
      fprintf (stderr, "a saved capture loads %u entries, not %u\n", nb, na);
      abort ();
    }
  for (guint i = 0; i < na; i++)
    if (ea[i].kind != eb[i].kind || ea[i].time.pos != eb[i].time.pos ||
        ea[i].time.time != eb[i].time.time)
      {
        fprintf (stderr, "a saved capture loads entry %u elsewhere\n", i);
        abort ();
      }
}

static void
exercise (TksCapture *capture)
{
  g_autoptr(GArray) stats = NULL;
  g_autoptr(GString) saved = g_string_new (NULL);
  g_autoptr(TksCapture) again = NULL;
  g_autoptr(GError) error = NULL;
  TksStatsTotals totals;
  const guint *lanes;
  guint n_lanes = 0;
  guint n_warnings = 0;
  guint runs_a, marks_a, runs_b, marks_b;
  double start = tks_capture_get_start (capture);
  double end = tks_capture_get_end (capture);

  lanes = tks_capture_get_lanes (capture, &n_lanes);
  for (guint i = 0; i < n_lanes; i++)
    if (lanes[i] >= tks_capture_get_n_threads (capture))
      abort ();
  tks_capture_get_warnings (capture, &n_warnings);

  /* The log ends within the capture; no run goes past it; the lanes shown leave out exactly
   * the threads that exited before the log, which have no event. */
  {
    double log_end = tks_capture_get_log_end (capture, NULL);
    guint n_shown = 0;
    const guint *shown = tks_capture_get_shown_lanes (capture, FALSE, &n_shown);

    if (tks_capture_get_n_records (capture) > 0 && !(log_end >= start && log_end <= end))
      abort ();
    if (n_shown + tks_capture_get_n_exited_before_log (capture) != n_lanes)
      abort ();
    for (guint i = 0; i < n_shown; i++)
      if (tks_capture_get_thread (capture, shown[i])->flags & TKS_THREAD_EXITED_BEFORE_LOG)
        abort ();
    for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
      {
        const TksThread *t = tks_capture_get_thread (capture, i);

        if (t->n_runs > 0 && t->runs[t->n_runs - 1].end > log_end)
          abort ();
        if ((t->flags & TKS_THREAD_EXITED_BEFORE_LOG) && t->n_runs + t->n_marks > 0)
          abort ();
      }
  }

  /* The holes in the log lie in the capture, in order, and no run goes through one. */
  {
    guint n_gaps = 0;
    const TksGap *gaps = tks_capture_get_gaps (capture, &n_gaps);

    for (guint g = 0; g < n_gaps; g++)
      {
        if (!(gaps[g].begin >= start && gaps[g].begin <= gaps[g].end && gaps[g].end <= end))
          abort ();
        if (g > 0 && gaps[g].begin < gaps[g - 1].end)
          abort ();
        for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
          {
            const TksThread *t = tks_capture_get_thread (capture, i);

            for (guint r = 0; r < t->n_runs; r++)
              if (t->runs[r].begin < gaps[g].end && t->runs[r].end > gaps[g].begin)
                abort ();
          }
      }
  }

  if (tks_capture_get_events (capture) != NULL)
    exercise_events (tks_capture_get_events (capture));
  stats = tks_stats_compute (capture, NAN, NAN, &totals, NULL);
  g_clear_pointer (&stats, g_array_unref);
  stats = tks_stats_compute (capture, start + (end - start) / 3, end - (end - start) / 3,
                             NULL, NULL);

  for (TksExportFormat f = TKS_EXPORT_PERFETTO; f <= TKS_EXPORT_FTRACE; f++)
    {
      g_autoptr(GString) out = g_string_new (NULL);

      if (!tks_export_write (capture, f, 0, out, &error))
        {
          fprintf (stderr, "export %s failed: %s\n", tks_export_format_to_string (f),
                   error->message);
          abort ();
        }
    }

  if (!tks_capture_write (capture, saved, NULL, 0))
    return;

  again = tks_capture_new_from_data (saved->str, saved->len, &error);
  if (again == NULL)
    {
      fprintf (stderr, "a saved capture does not load: %s\n", error->message);
      abort ();
    }

  /* TKS_FUZZ_NO_ROUNDTRIP=1 leaves out this comparison, to look for other faults while a
   * known round-trip difference is open. */
  if (g_getenv ("TKS_FUZZ_NO_ROUNDTRIP") != NULL)
    return;

  compare_events (tks_capture_get_events (capture), tks_capture_get_events (again));
  count_timeline (capture, &runs_a, &marks_a);
  count_timeline (again, &runs_b, &marks_b);
  {
    guint n_a = 0, n_b = 0;
    const TksGap *ga = tks_capture_get_gaps (capture, &n_a);
    const TksGap *gb = tks_capture_get_gaps (again, &n_b);

    if (n_a != n_b)
      {
        fprintf (stderr, "a saved capture loads with %u holes, not %u\n", n_b, n_a);
        abort ();
      }
    for (guint g = 0; g < n_a; g++)
      if (ga[g].begin != gb[g].begin || ga[g].end != gb[g].end || ga[g].dropped != gb[g].dropped)
        {
          fprintf (stderr, "a saved capture loads with hole %u elsewhere\n", g);
          abort ();
        }
  }
  if (tks_capture_get_n_threads (again) != tks_capture_get_n_threads (capture) ||
      runs_a != runs_b || marks_a != marks_b)
    {
      fprintf (stderr, "a saved capture loads differently: %u/%u threads, %u/%u runs, %u/%u marks\n",
               tks_capture_get_n_threads (capture), tks_capture_get_n_threads (again),
               runs_a, runs_b, marks_a, marks_b);
      abort ();
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(TksCapture) from_replies = NULL;
  const char *text = (const char *) data;
  const char *nul;

  capture = tks_capture_new_from_data (text, size, NULL);
  if (capture != NULL)
    exercise (capture);

  /* With a NUL byte in it, the input is also two separate replies: the list, then the log. */
  nul = memchr (text, '\0', size);
  if (nul != NULL)
    {
      gsize list_len = (gsize) (nul - text);

      from_replies = tks_capture_new_from_replies (text, list_len, nul + 1,
                                                   size - list_len - 1, NULL);
      if (from_replies != NULL)
        exercise (from_replies);
    }

  return 0;
}
