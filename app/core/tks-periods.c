/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Periods, jitter, response times and deadline misses from the wake-ups (tks-periods.h). */
#include "config.h"

#include <stdlib.h>

#include "tks-events-private.h"
#include "tks-periods.h"

/* The next wake-up of the same thread after @index (the wake-ups are by ready time). */
static guint
next_of_thread (const TksWakeup *w,
                guint            n_wakeups,
                guint            index)
{
  for (guint j = index + 1; j < n_wakeups; j++)
    if (w[j].thread == w[index].thread)
      return j;
  return G_MAXUINT;
}

static gboolean
activation_end (TksEvents       *events,
                const TksWakeup *w,
                guint            n_wakeups,
                guint            index,
                guint            next,
                TksTime         *end)
{
  const TksEventEntry *e;
  guint n_entries;

  if (w[index].open || w[index].thread == G_MAXUINT || next == G_MAXUINT)
    return FALSE;
  (void) n_wakeups;
  e = tks_events_get_entries (events, &n_entries);
  /* its last switch-out before its next Ready */
  for (guint i = w[next].ready_entry; i > w[index].run_entry; i--)
    {
      guint before;

      if (e[i].kind != TKS_EVENT_SWITCH)
        continue;
      tks_events_get_cpu_after (events, i - 1, &before, NULL, NULL);
      if (before == w[index].thread)
        {
          *end = e[i].time;
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
tks_periods_activation_end (TksEvents *events,
                            guint      index,
                            TksTime   *end)
{
  guint n_wakeups;
  const TksWakeup *w;

  g_return_val_if_fail (events != NULL && end != NULL, FALSE);
  w = tks_events_get_wakeups (events, &n_wakeups);
  if (index >= n_wakeups)
    return FALSE;
  return activation_end (events, w, n_wakeups, index, next_of_thread (w, n_wakeups, index), end);
}

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value that at least @p of the sorted @v do not exceed. */
static gint64
rank (const GArray *v,
      double        p)
{
  guint r;

  if (v->len == 0)
    return 0;
  r = (guint) (p * v->len + 0.999999);
  r = CLAMP (r, 1, v->len);
  return g_array_index (v, gint64, r - 1);
}

GArray *
tks_periods_stats (TksEvents    *events,
                   const gint64 *deadlines,
                   guint         n_deadlines,
                   double        tolerance)
{
  guint n_wakeups, n_threads;
  const TksWakeup *w;
  GArray *rows;
  g_autofree guint *first_of = NULL;
  g_autofree guint *next_of = NULL;
  g_autofree guint *last_of = NULL;

  g_return_val_if_fail (events != NULL, NULL);
  if (tolerance <= 0)
    tolerance = TKS_PERIODS_TOLERANCE;
  w = tks_events_get_wakeups (events, &n_wakeups);
  n_threads = tks_capture_get_n_threads (tks_events_get_capture (events));
  rows = g_array_new (FALSE, TRUE, sizeof (TksPeriodStats));
  /* each thread's wake-ups, in order: one pass over them all */
  first_of = g_new (guint, MAX (n_threads, 1));
  next_of = g_new (guint, MAX (n_wakeups, 1));
  last_of = g_new (guint, MAX (n_threads, 1));
  for (guint t = 0; t < n_threads; t++)
    first_of[t] = last_of[t] = G_MAXUINT;
  for (guint i = 0; i < n_wakeups; i++)
    {
      guint t = w[i].thread;

      next_of[i] = G_MAXUINT;
      if (t >= n_threads)
        continue;
      if (last_of[t] == G_MAXUINT)
        first_of[t] = i;
      else
        next_of[last_of[t]] = i;
      last_of[t] = i;
    }

  for (guint t = 0; t < n_threads; t++)
    {
      g_autoptr(GArray) intervals = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr(GArray) responses = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr(GArray) sorted = NULL;
      TksPeriodStats row = { .thread = t, .worst = G_MAXUINT };
      gint64 prev_ready = 0;
      guint prev = G_MAXUINT;

      for (guint i = first_of[t]; i != G_MAXUINT; i = next_of[i])
        {
          TksTime end;

          row.activations++;
          if (prev != G_MAXUINT)
            {
              gint64 d = w[i].ready.time - prev_ready;

              g_array_append_val (intervals, d);
              if (activation_end (events, w, n_wakeups, prev, i, &end))
                {
                  gint64 r = end.time - w[prev].ready.time;

                  g_array_append_val (responses, r);
                  if (row.worst == G_MAXUINT || r > row.response_max)
                    {
                      row.response_max = r;
                      row.worst = prev;
                      row.worst_ready = w[prev].ready;
                      row.worst_end = end;
                    }
                }
            }
          prev = i;
          prev_ready = w[i].ready.time;
        }
      if (row.activations == 0)
        continue;

      if (intervals->len > 0)
        {
          gint64 median;
          guint regular = 0;

          sorted = g_array_copy (intervals);
          g_array_sort (sorted, compare_gint64);
          row.interval_min = g_array_index (sorted, gint64, 0);
          row.interval_max = g_array_index (sorted, gint64, sorted->len - 1);
          row.interval_p99 = rank (sorted, 0.99);
          median = rank (sorted, 0.5);
          for (guint i = 0; i < sorted->len; i++)
            if ((double) ABS (g_array_index (sorted, gint64, i) - median) <= tolerance * (double) median)
              regular++;
          if (sorted->len >= 2 && median > 0 && regular * 10 >= sorted->len * 9)
            {
              row.periodic = TRUE;
              row.period = median;
            }
        }

      row.completed = responses->len;
      if (responses->len > 0)
        {
          g_autoptr(GArray) rs = g_array_copy (responses);

          g_array_sort (rs, compare_gint64);
          row.response_min = g_array_index (rs, gint64, 0);
          row.response_p99 = rank (rs, 0.99);
        }
      row.deadline_given = deadlines != NULL && t < n_deadlines && deadlines[t] > 0;
      row.deadline = row.deadline_given ? deadlines[t] : row.period;
      if (row.deadline > 0)
        for (guint i = 0; i < responses->len; i++)
          row.misses += g_array_index (responses, gint64, i) > row.deadline;
      g_array_append_val (rows, row);
    }
  return rows;
}
