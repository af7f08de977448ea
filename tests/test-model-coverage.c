/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>

#include "tks-capture.h"
#include "tks-coverage.h"
#include "test-view-synthetic.h"
#include "tks-test-data.h"

#define N_QUERIES 5000

typedef struct
{
  double t0, t1;
} Query;

static int
query_cmp (const void *a,
           const void *b)
{
  double x = ((const Query *) a)->t0, y = ((const Query *) b)->t0;

  return (x > y) - (x < y);
}

/* Coverage summaries answer as the runs do: never "no" where a run is, "yes" only within a
 * bucket of one. The runs' answer comes from walking them once beside the queries, sorted by
 * their start. */
static void
test_coverage_matches_runs (void)
{
  g_autoptr(GString) text = tks_test_synthetic_capture (10, 400000, 2);
  g_autoptr(TksCapture) capture = tks_test_capture_of_text (text->str, text->len);
  g_autoptr(TksCoverage) coverage = NULL;
  g_autofree Query *queries = g_new (Query, N_QUERIES);
  double start, end;
  guint t, n_yes = 0, n_no = 0;
  guint32 state = 99;

  coverage = tks_coverage_new (capture);
  start = tks_capture_get_start (capture);
  end = tks_capture_get_end (capture);
  for (t = 0; t < tks_capture_get_n_threads (capture); t++)
    {
      const TksThread *thread = tks_capture_get_thread (capture, t);
      double bucket = tks_coverage_bucket_width (coverage, t);
      guint n = thread->n_runs - ((thread->flags & TKS_THREAD_RUNNING_AT_END) ? 1 : 0);
      guint k, in = 0, near_in = 0;

      g_assert_cmpfloat (bucket, >, 0);
      g_assert_cmpfloat (bucket, <, (end - start) / 8192);
      for (k = 0; k < N_QUERIES; k++)
        {
          state = state * 1103515245u + 12345u;
          queries[k].t0 = start + (end - start) * ((state >> 8) / 16777216.0);
          state = state * 1103515245u + 12345u;
          queries[k].t1 = queries[k].t0 + bucket * (0.2 + 8.0 * ((state >> 8) / 16777216.0));
        }
      qsort (queries, N_QUERIES, sizeof *queries, query_cmp);

      for (k = 0; k < N_QUERIES; k++)
        {
          double t0 = queries[k].t0, t1 = queries[k].t1;
          gboolean any, near;

          /* the first run ending after t0, and after t0 - bucket */
          while (in < n && thread->runs[in].end <= t0)
            in++;
          while (near_in < n && thread->runs[near_in].end <= t0 - bucket)
            near_in++;
          any = in < n && thread->runs[in].begin < t1;
          near = near_in < n && thread->runs[near_in].begin < t1 + bucket;

          if (tks_coverage_any (coverage, t, t0, t1))
            {
              g_assert_true (near);
              n_yes++;
            }
          else
            {
              g_assert_false (any);
              n_no++;
            }
        }
    }
  /* both answers were exercised */
  g_assert_cmpuint (n_yes, >, 1000);
  g_assert_cmpuint (n_no, >, 1000);

  /* outside the capture, nothing */
  g_assert_false (tks_coverage_any (coverage, 0, start - 100, start - 1));
  g_assert_false (tks_coverage_any (coverage, 0, end + 1, end + 100));
  g_assert_false (tks_coverage_any (coverage, 999, start, end));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/view/coverage/matches-runs", test_coverage_matches_runs);
  return g_test_run ();
}
