/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The capture object and its accessors. Rebuild, loading and saving live in
 * tks-capture-rebuild.c, tks-capture-load.c and tks-capture-save.c. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tks-capture-private.h"
#include "tks-events-private.h"

G_DEFINE_FINAL_TYPE (TksCapture, tks_capture, G_TYPE_OBJECT)

/* ------------------------------------------------------------------------------------------ */
/* Construction                                                                                 */

TksCapture *
tks_capture_new_from_parsed (TksParsed *parsed)
{
  TksCapture *self = g_object_new (TKS_TYPE_CAPTURE, NULL);

  self->parsed = parsed;
  self->tick_hz = parsed->tick_hz > 0 ? parsed->tick_hz : TKS_TICK_HZ_DEFAULT;
  self->source = g_strdup (parsed->source);
  tks_capture_rebuild (self);
  /* The records stay (a save writes them); the list entries are small. */
  return self;
}

/* ------------------------------------------------------------------------------------------ */
/* Accessors                                                                                    */

guint
tks_capture_get_n_threads (TksCapture *self)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), 0);
  return self->n_threads;
}

const TksThread *
tks_capture_get_thread (TksCapture *self,
                        guint       index)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), NULL);
  g_return_val_if_fail (index < self->n_threads, NULL);
  return &self->threads[index];
}

const guint *
tks_capture_get_lanes (TksCapture *self,
                       guint      *n_lanes)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), NULL);
  if (n_lanes != NULL)
    *n_lanes = self->n_lanes;
  return self->lanes;
}

guint
tks_capture_get_n_switch_records (TksCapture *self)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), 0);

  return self->has_switch_records ? self->parsed->records->len : 0;
}

/* The records' places, worked out at the first call (of any thread). */
static const double *
capture_record_pos (TksCapture *self)
{
  if (g_once_init_enter (&self->record_pos))
    {
      GArray *records = self->parsed->records;
      double *pos = g_new (double, MAX (records->len, 1));

      tks_rebuild_place_records ((const TksRecord *) (gconstpointer) records->data, records->len,
                                 self->place_base, self->place_period, self->jumps, self->n_jumps,
                                 pos);
      g_once_init_leave (&self->record_pos, pos);
    }
  return self->record_pos;
}

gboolean
tks_capture_get_switch_record (TksCapture *self,
                               guint       index,
                               double     *pos,
                               guint      *out,
                               guint      *in)
{
  const TksRecord *r;

  g_return_val_if_fail (TKS_IS_CAPTURE (self), FALSE);

  if (!self->has_switch_records || index >= self->parsed->records->len)
    return FALSE;
  r = &g_array_index (self->parsed->records, TksRecord, index);
  *pos = capture_record_pos (self)[index];
  *out = r->out;
  *in = r->in;
  return TRUE;
}

guint
tks_capture_get_n_records (TksCapture *self)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), 0);
  return self->n_records;
}

double
tks_capture_get_start (TksCapture *self)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), 0);
  return self->start;
}

double
tks_capture_get_log_end (TksCapture      *self,
                         TksLogEndReason *reason)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), 0);
  if (reason != NULL)
    *reason = self->log_end_reason;
  return self->log_end;
}

const TksGap *
tks_capture_get_gaps (TksCapture *self,
                      guint      *n_gaps)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), NULL);
  g_return_val_if_fail (n_gaps != NULL, NULL);
  *n_gaps = self->n_gaps;
  return self->gaps;
}

guint
tks_capture_get_n_exits_after_log_end (TksCapture *self)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), 0);
  return self->n_exits_after_log_end;
}

const guint *
tks_capture_get_shown_lanes (TksCapture *self,
                             gboolean    with_exited_before_log,
                             guint      *n_lanes)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), NULL);
  if (with_exited_before_log)
    return tks_capture_get_lanes (self, n_lanes);
  if (n_lanes != NULL)
    *n_lanes = self->n_shown_lanes;
  return self->shown_lanes;
}

guint
tks_capture_get_n_exited_before_log (TksCapture *self)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), 0);
  return self->n_lanes - self->n_shown_lanes;
}

void
tks_capture_get_board_counters (TksCapture       *self,
                                TksBoardCounters *counters)
{
  g_return_if_fail (TKS_IS_CAPTURE (self));
  *counters = self->parsed->counters;
}

gboolean
tks_capture_get_dropped_since (TksCapture *self,
                               TksCapture *previous,
                               guint64    *dropped)
{
  const TksBoardCounters *now, *then;
  guint64 oldest;

  g_return_val_if_fail (TKS_IS_CAPTURE (self), FALSE);
  g_return_val_if_fail (TKS_IS_CAPTURE (previous), FALSE);

  now = &self->parsed->counters;
  then = &previous->parsed->counters;
  if (!now->known || !then->known || self->n_records == 0 || previous->n_records == 0)
    return FALSE;
  /* The same run: the counters only grew, and the earlier log's last record is inside this
   * one's span (run mode would have emptied the log and the counters). */
  if (now->records_written < then->records_written || now->dropped_paused < then->dropped_paused ||
      previous->end < self->start || previous->end > self->end)
    return FALSE;
  /* This log's oldest record was written no later than the earlier dump was taken. */
  oldest = now->records_written - MIN (now->records_written, self->parsed->records->len);
  if (oldest > then->records_written)
    return FALSE;
  if (dropped != NULL)
    *dropped = now->dropped_paused - then->dropped_paused;
  return TRUE;
}

double
tks_capture_get_end (TksCapture *self)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), 0);
  return self->end;
}

gboolean
tks_capture_get_trigger (TksCapture *self,
                         double     *pos)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), FALSE);
  if (pos != NULL)
    *pos = self->has_trigger ? self->trigger_pos : NAN;
  return self->has_trigger;
}

const char *
tks_capture_get_trigger_name (TksCapture *self)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), NULL);
  return self->parsed->trigger_name;
}

char *
tks_tick_format (double pos)
{
  if (pos == floor (pos))
    return g_strdup_printf ("%.0f", pos);
  return g_strdup_printf ("%.3f", pos);
}

guint
tks_capture_get_max_switches_per_tick (TksCapture *self)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), 0);
  return self->max_per_tick;
}

double
tks_capture_get_mean_switches_per_tick (TksCapture *self)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), 0);
  return self->mean_per_tick;
}

double
tks_capture_get_tick_hz (TksCapture *self)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), TKS_TICK_HZ_DEFAULT);
  return self->tick_hz;
}

const char *
tks_capture_get_source (TksCapture *self)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), NULL);
  return self->source;
}

gboolean
tks_capture_get_saved_view (TksCapture   *self,
                            TksSavedView *view)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), FALSE);
  if (self->parsed->has_saved_view && view != NULL)
    *view = self->parsed->saved_view;
  return self->parsed->has_saved_view;
}

const char * const *
tks_capture_get_warnings (TksCapture *self,
                          guint      *n_warnings)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), NULL);
  if (n_warnings != NULL)
    *n_warnings = self->warnings->len - 1;
  return (const char * const *) self->warnings->pdata;
}

guint
tks_capture_get_log_size (TksCapture *self)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), 0);
  return self->parsed->log_size;
}

const char *
tks_capture_get_damage (TksCapture *self)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (self), NULL);
  return self->parsed->damage;
}

static gboolean
lane_has_data (TksCapture  *self,
               const guint *lanes,
               guint        lane)
{
  const TksThread *th = &self->threads[lanes[lane]];

  return th->n_runs > 0 || th->n_marks > 0;
}

/*
 * The original viewer draws only the threads with data, one row each, from the bottom:
 * row r is centred on y = 10 + 10 r and 10 high. Tickscope draws every lane it shows, from
 * the top: lane coordinate c is c lanes below the top edge. (The lanes it may hide have no
 * data, so both lane lists map to the same rows.)
 */
double
tks_capture_lane_to_legacy_y (TksCapture *self,
                              gboolean    with_exited_before_log,
                              double      lane)
{
  guint n_data = 0, n_lanes;
  const guint *lanes;
  double d = 0;

  g_return_val_if_fail (TKS_IS_CAPTURE (self), 0);

  lanes = tks_capture_get_shown_lanes (self, with_exited_before_log, &n_lanes);
  for (guint i = 0; i < n_lanes; i++)
    if (lane_has_data (self, lanes, i))
      n_data++;

  if (lane <= 0)
    d = lane;
  else
    {
      guint whole = (guint) MIN (floor (lane), (double) n_lanes);

      for (guint i = 0; i < whole; i++)
        if (lane_has_data (self, lanes, i))
          d++;
      if (whole < n_lanes && lane_has_data (self, lanes, whole))
        d += lane - whole;
      else if (whole >= n_lanes)
        d += lane - n_lanes;
    }
  return 5.0 + 10.0 * ((double) n_data - d);
}

double
tks_capture_legacy_y_to_lane (TksCapture *self,
                              gboolean    with_exited_before_log,
                              double      y)
{
  guint n_data = 0, n_lanes;
  const guint *lanes;
  double d;

  g_return_val_if_fail (TKS_IS_CAPTURE (self), 0);

  lanes = tks_capture_get_shown_lanes (self, with_exited_before_log, &n_lanes);
  for (guint i = 0; i < n_lanes; i++)
    if (lane_has_data (self, lanes, i))
      n_data++;

  d = (double) n_data - (y - 5.0) / 10.0;
  if (d <= 0)
    return d;

  for (guint i = 0; i < n_lanes; i++)
    {
      if (!lane_has_data (self, lanes, i))
        continue;
      if (d <= 1.0)
        return i + d;
      d -= 1.0;
    }
  return n_lanes + d;
}

/* ------------------------------------------------------------------------------------------ */
/* Finding runs and marks by time                                                               */

guint
tks_runs_first_ending_after (const TksRun *runs,
                             guint         n_runs,
                             double        t)
{
  guint lo = 0, hi = n_runs;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (runs[mid].end <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The first item at or after @from whose time is >= @t, where the time is the double each
 * item starts with (TksRun.begin, TksMark.pos). It gallops first: the next pixel column's
 * answer is usually near the last one. */
guint
tks_first_at (gconstpointer items,
              gsize         stride,
              guint         from,
              guint         n,
              double        t)
{
  const char *base = items;
  guint lo = from, hi, step = 1;

#define TIME_OF(i) (*(const double *) (gconstpointer) (base + (gsize) (i) * stride))
  while (lo + step < n && TIME_OF (lo + step) < t)
    {
      lo += step;
      step *= 2;
    }
  hi = MIN (n, lo + step + 1);
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (TIME_OF (mid) < t)
        lo = mid + 1;
      else
        hi = mid;
    }
#undef TIME_OF
  return lo;
}

G_STATIC_ASSERT (G_STRUCT_OFFSET (TksRun, begin) == 0);
G_STATIC_ASSERT (G_STRUCT_OFFSET (TksMark, pos) == 0);

double
tks_thread_busy (const TksThread *thread,
                 double           t0,
                 double           t1)
{
  guint i, j;
  double busy;

  if (thread == NULL || thread->n_runs == 0 || thread->run_time == NULL || !(t1 > t0))
    return 0;
  /* the runs that end after t0, up to those that begin before t1 */
  i = tks_runs_first_ending_after (thread->runs, thread->n_runs, t0);
  j = tks_runs_first_beginning_at (thread->runs, i, thread->n_runs, t1);
  if (j <= i)
    return 0;
  busy = thread->run_time[j] - thread->run_time[i];
  /* less what the first and last runs spend outside the range */
  busy -= MAX (0.0, t0 - thread->runs[i].begin);
  busy -= MAX (0.0, thread->runs[j - 1].end - t1);
  return MAX (0.0, busy);
}

guint
tks_runs_first_beginning_at (const TksRun *runs,
                             guint         from,
                             guint         n_runs,
                             double        t)
{
  return tks_first_at (runs, sizeof (TksRun), from, n_runs, t);
}

guint
tks_marks_first_at (const TksMark *marks,
                    guint          from,
                    guint          n_marks,
                    double         t)
{
  return tks_first_at (marks, sizeof (TksMark), from, n_marks, t);
}

/* ------------------------------------------------------------------------------------------ */

static void
tks_capture_finalize (GObject *object)
{
  TksCapture *self = (TksCapture *) object;

  g_clear_pointer (&self->parsed, tks_parsed_free);
  g_clear_pointer (&self->threads, g_free);
  g_clear_pointer (&self->names, g_strfreev);
  g_clear_pointer (&self->runs, g_free);
  g_clear_pointer (&self->run_time, g_free);
  g_clear_pointer (&self->marks, g_free);
  g_clear_pointer (&self->lanes, g_free);
  g_clear_pointer (&self->shown_lanes, g_free);
  g_clear_pointer (&self->gaps, g_free);
  g_clear_pointer (&self->saved_gaps, g_free);
  g_clear_pointer (&self->source, g_free);
  g_clear_pointer (&self->warnings, g_ptr_array_unref);
  g_clear_pointer (&self->events, tks_events_free);
  g_clear_pointer (&self->record_pos, g_free);
  g_clear_pointer (&self->jumps, g_free);

  G_OBJECT_CLASS (tks_capture_parent_class)->finalize (object);
}

static void
tks_capture_class_init (TksCaptureClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tks_capture_finalize;
}

static void
tks_capture_init (TksCapture *self)
{
  self->tick_hz = TKS_TICK_HZ_DEFAULT;
}
