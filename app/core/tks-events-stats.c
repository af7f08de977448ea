/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Statistics of the events: wake-up latency, handlers, markers, CPU time without handlers. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "tks-events-private.h"

/* NAN bounds: from the first to the last thing the capture holds, runs or events. */
static void
resolve_range (TksEvents *events,
               double    *from,
               double    *to)
{
  TksCapture *capture = tks_events_get_capture (events);
  guint n;
  const TksEventEntry *e = tks_events_get_entries (events, &n);
  double first = tks_capture_get_start (capture), last = tks_capture_get_end (capture);

  if (n > 0)
    {
      first = MIN (first, e[0].time.pos);
      last = MAX (last, e[n - 1].time.pos);
    }
  if (isnan (*from))
    *from = first;
  if (isnan (*to))
    *to = last;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y ? 1 : 0;
}

static int
compare_uints (gconstpointer a,
               gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y ? 1 : 0;
}

/* The latencies (µs) of @thread's wake-ups (G_MAXUINT: all) made ready inside [from, to],
 * sorted; @n_open: those still open. */
static GArray *
latencies (TksEvents *events,
           guint      thread,
           double     from,
           double     to,
           guint     *n_open)
{
  guint n;
  const TksWakeup *w = tks_events_get_wakeups (events, &n);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (double));

  *n_open = 0;
  for (guint i = 0; i < n; i++)
    {
      double us;

      if ((thread != G_MAXUINT && w[i].thread != thread) ||
          w[i].ready.pos < from || w[i].ready.pos > to)
        continue;
      if (w[i].open)
        {
          (*n_open)++;
          continue;
        }
      us = tks_events_to_us (events, w[i].latency);
      g_array_append_val (out, us);
    }
  g_array_sort (out, compare_doubles);
  return out;
}

/* Nearest rank: the smallest of the sorted @v that at least @p % of them do not exceed. */
static double
percentile (GArray *v,
            double  p)
{
  double rank = ceil (p / 100.0 * v->len);
  guint i = rank < 1 ? 0 : (guint) rank - 1;

  return g_array_index (v, double, MIN (i, v->len - 1));
}

GArray *
tks_events_latency_stats (TksEvents *events,
                          double     from,
                          double     to)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TksLatencyStats));
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) threads = g_array_new (FALSE, FALSE, sizeof (guint));
  const TksWakeup *w;
  guint n;

  g_return_val_if_fail (events != NULL, out);
  resolve_range (events, &from, &to);
  w = tks_events_get_wakeups (events, &n);
  for (guint i = 0; i < n; i++)
    if (w[i].thread != G_MAXUINT && g_hash_table_add (seen, GUINT_TO_POINTER (w[i].thread + 1)))
      g_array_append_val (threads, w[i].thread);
  g_array_sort (threads, compare_uints);

  for (guint t = 0; t < threads->len; t++)
    {
      TksLatencyStats s = { .thread = g_array_index (threads, guint, t),
                            .min_us = NAN, .mean_us = NAN, .p50_us = NAN, .p99_us = NAN,
                            .max_us = NAN };
      g_autoptr(GArray) v = latencies (events, s.thread, from, to, &s.n_open);
      double sum = 0;

      s.count = v->len;
      if (s.count == 0 && s.n_open == 0)
        continue;
      if (s.count > 0)
        {
          for (guint i = 0; i < v->len; i++)
            sum += g_array_index (v, double, i);
          s.min_us = g_array_index (v, double, 0);
          s.max_us = g_array_index (v, double, v->len - 1);
          s.mean_us = sum / v->len;
          s.p50_us = percentile (v, 50);
          s.p99_us = percentile (v, 99);
        }
      g_array_append_val (out, s);
    }
  return out;
}

guint *
tks_events_latency_histogram (TksEvents *events,
                              guint      thread,
                              double     from,
                              double     to,
                              double     bucket_us,
                              guint      n_buckets)
{
  guint *counts = g_new0 (guint, MAX (n_buckets, 1));
  g_autoptr(GArray) v = NULL;
  guint n_open;

  g_return_val_if_fail (events != NULL && bucket_us > 0 && n_buckets > 0, counts);
  resolve_range (events, &from, &to);
  v = latencies (events, thread, from, to, &n_open);
  for (guint i = 0; i < v->len; i++)
    {
      double b = floor (g_array_index (v, double, i) / bucket_us);

      counts[b >= n_buckets - 1 ? n_buckets - 1 : (guint) MAX (b, 0)]++;
    }
  return counts;
}

GArray *
tks_events_handler_stats (TksEvents *events,
                          double     from,
                          double     to)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TksHandlerStats));
  const TksTrack *tracks;
  guint n;

  g_return_val_if_fail (events != NULL, out);
  resolve_range (events, &from, &to);
  tracks = tks_events_get_tracks (events, TKS_TRACK_IRQ, &n);
  for (guint t = 0; t < n; t++)
    {
      TksHandlerStats s = { .track = &tracks[t] };

      for (guint i = 0; i < tracks[t].n_slices; i++)
        {
          const TksSlice *sl = &tracks[t].slices[i];
          double us = tks_events_to_us (events, sl->end.time - sl->begin.time);

          if (sl->begin.pos < from || sl->begin.pos > to)
            continue;
          s.count++;
          s.total_us += us;
          s.longest_us = MAX (s.longest_us, us);
        }
      g_array_append_val (out, s);
    }
  return out;
}

GArray *
tks_events_marker_stats (TksEvents *events,
                         double     from,
                         double     to)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TksMarkerStats));
  const TksTrack *tracks;
  guint n;

  g_return_val_if_fail (events != NULL, out);
  resolve_range (events, &from, &to);
  tracks = tks_events_get_tracks (events, TKS_TRACK_MARKER, &n);
  for (guint t = 0; t < n; t++)
    {
      TksMarkerStats s = { .track = &tracks[t], .min_interval_us = NAN,
                           .mean_interval_us = NAN, .max_interval_us = NAN };
      const TksInstant *prev = NULL;
      double sum = 0;
      guint n_intervals = 0;

      for (guint i = 0; i < tracks[t].n_instants; i++)
        {
          const TksInstant *in = &tracks[t].instants[i];

          if (in->time.pos < from || in->time.pos > to)
            continue;
          s.count++;
          if (prev != NULL)
            {
              double us = tks_events_to_us (events, in->time.time - prev->time.time);

              s.min_interval_us = n_intervals == 0 ? us : MIN (s.min_interval_us, us);
              s.max_interval_us = n_intervals == 0 ? us : MAX (s.max_interval_us, us);
              sum += us;
              n_intervals++;
            }
          prev = in;
        }
      if (n_intervals > 0)
        s.mean_interval_us = sum / n_intervals;
      g_array_append_val (out, s);
    }
  return out;
}

/* The time the slices of every track of @kind cover, as spans [begin, end) by begin that never
 * overlap: nested slices lie in their outer one, and slices that began before the log all
 * begin at its start; whatever a log says, no time is counted twice. */
static GArray *
covered_spans (TksEvents    *events,
               TksTrackKind  kind)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (double) * 2);
  double (*s)[2];
  const TksTrack *tracks;
  guint n, kept = 0;

  tracks = tks_events_get_tracks (events, kind, &n);
  for (guint t = 0; t < n; t++)
    for (guint i = 0; i < tracks[t].n_slices; i++)
      {
        double span[2] = { tracks[t].slices[i].begin.pos, tracks[t].slices[i].end.pos };

        if (span[1] > span[0])
          g_array_append_vals (out, span, 1);
      }
  g_array_sort (out, compare_doubles);
  s = (double (*)[2]) (gpointer) out->data;
  for (guint i = 0; i < out->len; i++)
    {
      if (kept > 0 && s[i][0] <= s[kept - 1][1])
        s[kept - 1][1] = MAX (s[kept - 1][1], s[i][1]);
      else
        {
          s[kept][0] = s[i][0];
          s[kept][1] = s[i][1];
          kept++;
        }
    }
  g_array_set_size (out, kept);
  return out;
}

/* How much of [a, b] the sorted spans cover. */
static double
covered (GArray *spans,
         double  a,
         double  b)
{
  const double (*s)[2] = (const double (*)[2]) (gconstpointer) spans->data;
  guint lo = 0, hi = spans->len;
  double sum = 0;

  if (b <= a)
    return 0;
  /* the first span that ends after a */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (s[mid][1] <= a)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo; i < spans->len && s[i][0] < b; i++)
    sum += MAX (0.0, MIN (b, s[i][1]) - MAX (a, s[i][0]));
  return sum;
}

double
tks_events_thread_time_without_irqs (TksEvents       *events,
                                     const TksThread *thread,
                                     double           from,
                                     double           to)
{
  g_autoptr(GArray) irqs = NULL;
  double sum = 0;

  g_return_val_if_fail (events != NULL && thread != NULL, 0);
  resolve_range (events, &from, &to);
  irqs = covered_spans (events, TKS_TRACK_IRQ);
  for (guint r = 0; thread->runs != NULL && r < thread->n_runs; r++)
    {
      double a = MAX (from, thread->runs[r].begin), b = MIN (to, thread->runs[r].end);

      if (b > a)
        sum += (b - a) - covered (irqs, a, b);
    }
  return sum;
}

double
tks_events_irq_time (TksEvents *events,
                     double     from,
                     double     to)
{
  g_autoptr(GArray) irqs = NULL;

  g_return_val_if_fail (events != NULL, 0);
  resolve_range (events, &from, &to);
  irqs = covered_spans (events, TKS_TRACK_IRQ);
  return covered (irqs, from, to);
}

double
tks_events_sleep_time (TksEvents *events,
                       double     from,
                       double     to)
{
  g_autoptr(GArray) sleeps = NULL;

  g_return_val_if_fail (events != NULL, 0);
  resolve_range (events, &from, &to);
  sleeps = covered_spans (events, TKS_TRACK_SLEEP);
  return covered (sleeps, from, to);
}
