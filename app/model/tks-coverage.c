/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "tks-coverage.h"

/* Threads with fewer runs are drawn run by run: that is already O(runs) <= O(pixels). */
#define MIN_RUNS     1024
#define MAX_BUCKETS  (1u << 16)

typedef struct
{
  guint64 *words;     /* bit i: a run overlaps bucket i */
  guint32 *ranks;     /* set bits before word k */
  guint    n_buckets;
  double   bucket;    /* ticks */
} Summary;

struct _TksCoverage
{
  double   start;
  guint    n_threads;
  Summary *summaries;
};

static void
set_bits (guint64 *words,
          guint    from,
          guint    to)   /* inclusive */
{
  guint i;

  for (i = from; i <= to && (i & 63) != 0; i++)
    words[i >> 6] |= G_GUINT64_CONSTANT (1) << (i & 63);
  for (; i + 63 <= to; i += 64)
    words[i >> 6] = ~G_GUINT64_CONSTANT (0);
  for (; i <= to; i++)
    words[i >> 6] |= G_GUINT64_CONSTANT (1) << (i & 63);
}

static void
summary_build (Summary         *s,
               const TksThread *thread,
               double           start,
               double           end)
{
  guint n = thread->n_runs;
  guint n_words, i, k;
  guint32 rank = 0;
  double last;

  if (thread->flags & TKS_THREAD_RUNNING_AT_END)
    n--;   /* drawn on its own */
  s->n_buckets = MAX_BUCKETS;
  while (s->n_buckets > 64 && s->n_buckets / 2 >= 4 * n)
    s->n_buckets /= 2;
  s->bucket = (end - start) / s->n_buckets;
  n_words = s->n_buckets / 64;
  s->words = g_new0 (guint64, n_words);
  s->ranks = g_new (guint32, n_words + 1);
  last = (double) s->n_buckets - 1;

  for (i = 0; i < n; i++)
    {
      double b = floor ((thread->runs[i].begin - start) / s->bucket);
      double e = ceil ((thread->runs[i].end - start) / s->bucket) - 1;

      b = CLAMP (b, 0, last);
      e = CLAMP (e, b, last);
      set_bits (s->words, (guint) b, (guint) e);
    }
  for (k = 0; k < n_words; k++)
    {
      s->ranks[k] = rank;
      rank += (guint32) __builtin_popcountll (s->words[k]);
    }
  s->ranks[n_words] = rank;
}

/**
 * tks_coverage_new:
 * @capture: a capture
 *
 * Builds the summaries of @capture's threads that have many runs. Reads the capture only,
 * so it may run in a worker thread while the capture is not changed.
 *
 * Returns: (transfer full): the summaries
 */
TksCoverage *
tks_coverage_new (TksCapture *capture)
{
  TksCoverage *self;
  double start, end;
  guint i;

  g_return_val_if_fail (TKS_IS_CAPTURE (capture), NULL);

  self = g_new0 (TksCoverage, 1);
  start = tks_capture_get_start (capture);
  end = tks_capture_get_end (capture);
  self->start = start;
  self->n_threads = tks_capture_get_n_threads (capture);
  self->summaries = g_new0 (Summary, self->n_threads);
  if (!(end > start) || !isfinite (start) || !isfinite (end))
    return self;

  for (i = 0; i < self->n_threads; i++)
    {
      const TksThread *thread = tks_capture_get_thread (capture, i);

      if (thread != NULL && (thread->flags & TKS_THREAD_LOGGED) && thread->n_runs >= MIN_RUNS)
        summary_build (&self->summaries[i], thread, start, end);
    }
  return self;
}

void
tks_coverage_free (TksCoverage *coverage)
{
  guint i;

  if (coverage == NULL)
    return;
  for (i = 0; i < coverage->n_threads; i++)
    {
      g_free (coverage->summaries[i].words);
      g_free (coverage->summaries[i].ranks);
    }
  g_free (coverage->summaries);
  g_free (coverage);
}

double
tks_coverage_bucket_width (const TksCoverage *coverage,
                           guint              thread)
{
  if (coverage == NULL || thread >= coverage->n_threads)
    return 0;
  return coverage->summaries[thread].words != NULL ? coverage->summaries[thread].bucket : 0;
}

static guint32
rank (const Summary *s,
      guint          i)
{
  guint k = i >> 6;
  guint bit = i & 63;

  if (bit == 0)
    return s->ranks[k];
  return s->ranks[k] + (guint32) __builtin_popcountll (s->words[k] & ((G_GUINT64_CONSTANT (1) << bit) - 1));
}

gboolean
tks_coverage_any (const TksCoverage *coverage,
                  guint              thread,
                  double             t0,
                  double             t1)
{
  const Summary *s;
  double b, e;

  g_return_val_if_fail (coverage != NULL, FALSE);

  if (thread >= coverage->n_threads || coverage->summaries[thread].words == NULL || !(t1 > t0))
    return FALSE;
  s = &coverage->summaries[thread];
  b = floor ((t0 - coverage->start) / s->bucket);
  e = ceil ((t1 - coverage->start) / s->bucket);
  if (e <= 0 || b >= s->n_buckets)
    return FALSE;
  b = MAX (b, 0);
  e = MIN (e, (double) s->n_buckets);
  return rank (s, (guint) e) > rank (s, (guint) b);
}
