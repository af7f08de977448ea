/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A thread's activations and their intervals (tks-activations.h). */
#include "config.h"

#include <math.h>

#include "tks-activations.h"
#include "tks-events.h"

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y ? 1 : 0;
}

GArray *
tks_thread_activations (TksCapture *capture,
                        guint       thread,
                        double      from,
                        double      to,
                        gboolean   *from_wakeups)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (double));
  TksEvents *events;
  const TksThread *t;

  g_return_val_if_fail (TKS_IS_CAPTURE (capture), out);
  g_return_val_if_fail (thread < tks_capture_get_n_threads (capture), out);

  if (isnan (from))
    from = tks_capture_get_start (capture);
  if (isnan (to))
    to = tks_capture_get_end (capture);
  events = tks_capture_get_events (capture);
  if (from_wakeups != NULL)
    *from_wakeups = events != NULL && tks_events_count (events, TKS_EVENT_READY) > 0;

  if (events != NULL && tks_events_count (events, TKS_EVENT_READY) > 0)
    {
      guint n;
      const TksWakeup *w = tks_events_get_wakeups (events, &n);

      for (guint i = 0; i < n; i++)
        if (w[i].thread == thread && !w[i].open && w[i].run.pos >= from && w[i].run.pos <= to)
          g_array_append_val (out, w[i].run.pos);
      /* listed by ready time: two wake-ups of one thread end in its order of runs anyway,
       * but a sort costs little and promises it */
      g_array_sort (out, compare_doubles);
      return out;
    }

  t = tks_capture_get_thread (capture, thread);
  for (guint i = 0; t->runs != NULL && i < t->n_runs; i++)
    {
      double begin = t->runs[i].begin;

      /* a run that began before the capture was not seen beginning */
      if (i == 0 && (t->flags & (TKS_THREAD_RUNNING_AT_START | TKS_THREAD_ASSUMED_START)) != 0)
        continue;
      if (begin >= from && begin <= to)
        g_array_append_val (out, begin);
    }
  return out;
}

void
tks_activation_intervals (const double           *times,
                          guint                   n_times,
                          double                  period,
                          double                  tolerance,
                          TksActivationIntervals *out)
{
  double sum = 0;

  g_return_if_fail (out != NULL);

  out->n_intervals = n_times > 1 ? n_times - 1 : 0;
  out->mean = out->min = out->max = out->reference = NAN;
  out->jitter = NAN;
  out->jitter_at = NAN;
  out->n_over = 0;
  if (out->n_intervals == 0)
    return;

  for (guint i = 1; i < n_times; i++)
    {
      double d = times[i] - times[i - 1];

      sum += d;
      if (i == 1 || d < out->min)
        out->min = d;
      if (i == 1 || d > out->max)
        out->max = d;
    }
  out->mean = sum / out->n_intervals;
  out->reference = isnan (period) ? out->mean : period;
  out->jitter = 0;
  for (guint i = 1; i < n_times; i++)
    {
      double dev = fabs ((times[i] - times[i - 1]) - out->reference);

      if (isnan (out->jitter_at) || dev > out->jitter)
        {
          out->jitter = dev;
          out->jitter_at = times[i];
        }
      if (!isnan (tolerance) && dev > tolerance)
        out->n_over++;
    }
}
