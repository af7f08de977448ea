/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tks-capture.h"
#include "tks-coverage.h"
#include "test-view-synthetic.h"

/* The first of @runs (sorted, not overlapping) that ends after @t: the plain answer the
 * summaries are checked against. */
static guint
first_ending_after (const TksRun *runs,
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

/* Coverage summaries answer as the runs do: never "no" where a run is, "yes" only within a
 * bucket of one. */
static void
test_coverage_matches_runs (void)
{
  g_autoptr(GString) text = tks_test_synthetic_capture (10, 400000, 2);
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = tks_capture_new_from_data (text->str, text->len, &error);
  g_autoptr(TksCoverage) coverage = NULL;
  double start, end;
  guint t, n_yes = 0, n_no = 0;
  guint32 state = 99;

  g_assert_no_error (error);
  coverage = tks_coverage_new (capture);
  start = tks_capture_get_start (capture);
  end = tks_capture_get_end (capture);
  for (t = 0; t < tks_capture_get_n_threads (capture); t++)
    {
      const TksThread *thread = tks_capture_get_thread (capture, t);
      double bucket = tks_coverage_bucket_width (coverage, t);
      guint n = thread->n_runs - ((thread->flags & TKS_THREAD_RUNNING_AT_END) ? 1 : 0);
      guint k;

      g_assert_cmpfloat (bucket, >, 0);
      g_assert_cmpfloat (bucket, <, (end - start) / 8192);
      for (k = 0; k < 5000; k++)
        {
          double t0, t1;
          gboolean any, near;
          guint i;

          state = state * 1103515245u + 12345u;
          t0 = start + (end - start) * ((state >> 8) / 16777216.0);
          state = state * 1103515245u + 12345u;
          t1 = t0 + bucket * (0.2 + 8.0 * ((state >> 8) / 16777216.0));

          i = first_ending_after (thread->runs, n, t0);
          any = i < n && thread->runs[i].begin < t1;
          i = first_ending_after (thread->runs, n, t0 - bucket);
          near = i < n && thread->runs[i].begin < t1 + bucket;

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
