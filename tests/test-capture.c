/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <sys/resource.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "tks-capture.h"
#include "tks-error.h"
#include "tks-i18n.h"
#include "tks-legacy-viewer.h"
#include "tks-test-data.h"
#include "tks-test-fixtures.h"
#include "tks-test-wait.h"

static const char * const real_captures[] = {
  "board-run-mode.raw.txt",
  "board-trigger-exits.raw.txt",
  "board-trigger-exits.saved.txt",
  "board-partly-logged-trigger.raw.txt",
  "board-tick-wrap.raw.txt",
};

static char *
data_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", name, NULL);
}

static TksCapture *
load_text (const char *text)
{
  return tks_test_capture_of_text (text, -1);
}

static const TksThread *
thread_named (TksCapture *capture,
              const char *name)
{
  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    {
      const TksThread *th = tks_capture_get_thread (capture, i);

      if (g_strcmp0 (th->name, name) == 0)
        return th;
    }
  g_assert_not_reached ();
  return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* The original viewer's reading of a transcript (tks-legacy-viewer.h). */

static GPtrArray *
legacy_rebuild (const char *path)
{
  g_autofree char *contents = NULL;
  GPtrArray *threads;
  gboolean failed;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  threads = legacy_viewer_rebuild (contents, &failed);
  g_assert_false (failed);
  g_assert_nonnull (threads);
  return threads;
}

static void
test_matches_original (void)
{
  /* The run-mode capture and the trigger/exits one are fully logged and consistent. */
  const char * const files[] = {
    "board-run-mode.raw.txt",
    "board-trigger-exits.raw.txt",
    "board-trigger-exits.saved.txt",
    "board-partly-logged-trigger.raw.txt",
  };

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path = data_path (files[f]);
      g_autoptr(GPtrArray) legacy = legacy_rebuild (path);
      g_autoptr(TksCapture) capture = tks_test_load_data (files[f]);
      guint compared = 0;

      g_assert_cmpuint (legacy->len, ==, tks_capture_get_n_threads (capture));
      for (guint t = 0; t < legacy->len; t++)
        {
          LegacyThread *lt = g_ptr_array_index (legacy, t);
          const TksThread *th = tks_capture_get_thread (capture, t);
          guint j = 0;

          g_assert_cmpint (lt->logged, ==, (th->flags & TKS_THREAD_LOGGED) != 0);
          for (guint i = 0; i < lt->runs->len; i++)
            {
              LegacyRun *run = &g_array_index (lt->runs, LegacyRun, i);

              /* The same run starts at the same place and ends no earlier. */
              while (j < th->n_runs && th->runs[j].begin < run->begin - 1e-9)
                j++;
              g_assert_cmpuint (j, <, th->n_runs);
              g_assert_cmpfloat_with_epsilon (th->runs[j].begin, run->begin, 1e-9);
              g_assert_cmpfloat (th->runs[j].end, >=, run->begin + run->width - 1e-9);
              compared++;
            }
          /* Tickscope adds at most the runs going on at the start and at the end. */
          g_assert_cmpuint (th->n_runs, <=, lt->runs->len +
                            !!(th->flags & TKS_THREAD_RUNNING_AT_START) +
                            !!(th->flags & TKS_THREAD_RUNNING_AT_END));
        }
      g_assert_cmpuint (compared, >, 1000);
    }
}

/* ------------------------------------------------------------------------------------------ */

static void
test_real_captures_load_cleanly (void)
{
  for (guint f = 0; f < G_N_ELEMENTS (real_captures); f++)
    {
      g_autoptr(TksCapture) capture = tks_test_load_data (real_captures[f]);
      guint n_warnings = 99;

      tks_capture_get_warnings (capture, &n_warnings);
      g_assert_cmpuint (n_warnings, ==, 0);
      g_assert_cmpuint (tks_capture_get_n_records (capture), ==, 3000);
      g_assert_cmpfloat (tks_capture_get_end (capture), >, tks_capture_get_start (capture));
    }
}

static void
test_runs_are_sane (void)
{
  for (guint f = 0; f < G_N_ELEMENTS (real_captures); f++)
    {
      g_autoptr(TksCapture) capture = tks_test_load_data (real_captures[f]);
      double start = tks_capture_get_start (capture), end = tks_capture_get_end (capture);

      for (guint t = 0; t < tks_capture_get_n_threads (capture); t++)
        {
          const TksThread *th = tks_capture_get_thread (capture, t);

          for (guint i = 0; i < th->n_runs; i++)
            {
              g_assert_cmpfloat (th->runs[i].begin, <, th->runs[i].end);
              g_assert_cmpfloat (th->runs[i].begin, >=, start);
              g_assert_cmpfloat (th->runs[i].end, <=, end);
              if (i > 0)
                g_assert_cmpfloat (th->runs[i - 1].end, <=, th->runs[i].begin);
            }
          for (guint i = 1; i < th->n_marks; i++)
            g_assert_cmpfloat (th->marks[i - 1].pos, <=, th->marks[i].pos);
        }
    }
}

static int
compare_runs (gconstpointer a,
              gconstpointer b)
{
  const TksRun *ra = a, *rb = b;

  return ra->begin < rb->begin ? -1 : ra->begin > rb->begin;
}

/* Fully logged: one thread holds the CPU at any time, so the runs tile the capture exactly. */
static void
test_runs_touch (void)
{
  const char * const files[] = { "board-run-mode.raw.txt", "board-tick-wrap.raw.txt" };

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autoptr(TksCapture) capture = tks_test_load_data (files[f]);
      g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (TksRun));

      for (guint t = 0; t < tks_capture_get_n_threads (capture); t++)
        {
          const TksThread *th = tks_capture_get_thread (capture, t);

          g_array_append_vals (all, th->runs, th->n_runs);
        }
      g_array_sort (all, compare_runs);
      g_assert_cmpuint (all->len, >, 2900);
      for (guint i = 1; i < all->len; i++)
        {
          double end = g_array_index (all, TksRun, i - 1).end;
          gboolean exit_here = FALSE;

          /* After an exit record the switch away is the next record: the only gap. */
          for (guint t = 0; t < tks_capture_get_n_threads (capture); t++)
            exit_here |= tks_capture_get_thread (capture, t)->exit_time == end;
          if (exit_here)
            g_assert_cmpfloat (g_array_index (all, TksRun, i).begin, >, end);
          else
            g_assert_cmpfloat (end, ==, g_array_index (all, TksRun, i).begin);
        }
      g_assert_cmpfloat (g_array_index (all, TksRun, all->len - 1).end, ==,
                         tks_capture_get_end (capture));
    }
}

static void
test_lanes_by_priority (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.raw.txt");
  guint n;
  const guint *lanes = tks_capture_get_lanes (capture, &n);

  g_assert_cmpuint (n, ==, tks_capture_get_n_threads (capture));
  for (guint i = 1; i < n; i++)
    {
      const TksThread *a = tks_capture_get_thread (capture, lanes[i - 1]);
      const TksThread *b = tks_capture_get_thread (capture, lanes[i]);

      g_assert_true (a->priority > b->priority ||
                     (a->priority == b->priority && a->index < b->index));
    }
  g_assert_cmpstr (tks_capture_get_thread (capture, lanes[0])->name, ==, "sensor");
  g_assert_cmpstr (tks_capture_get_thread (capture, lanes[n - 1])->name, ==, "idle");
}

/* The original library writes the exits of threads after a trigger froze the log: a late read
 * ends with lone exit records. The log ends after its last switch, not at the last exit. */
static void
test_log_end_lone_exits (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.raw.txt");
  const TksThread *idle = thread_named (capture, "idle");
  TksLogEndReason reason;
  guint after = 0;

  /* The last switch is the fifth record of tick 17990; nine exits follow, up to 20026. */
  g_assert_cmpfloat (tks_capture_get_log_end (capture, &reason), ==, 17991);
  g_assert_cmpint (reason, ==, TKS_LOG_END_LONE_EXITS);
  g_assert_cmpfloat (tks_capture_get_end (capture), ==, 20027);
  g_assert_cmpuint (tks_capture_get_n_exits_after_log_end (capture), ==, 9);

  /* idle ran when the log ended: its run ends there, not at the capture's end. */
  g_assert_true (idle->flags & TKS_THREAD_RUNNING_AT_END);
  g_assert_cmpfloat_with_epsilon (idle->runs[idle->n_runs - 1].begin, 17990.8, 1e-9);
  g_assert_cmpfloat (idle->runs[idle->n_runs - 1].end, ==, 17991);

  for (guint t = 0; t < tks_capture_get_n_threads (capture); t++)
    {
      const TksThread *th = tks_capture_get_thread (capture, t);

      if (th->n_runs > 0)
        g_assert_cmpfloat (th->runs[th->n_runs - 1].end, <=, 17991);
      if (th->flags & TKS_THREAD_EXITED_AFTER_LOG_END)
        {
          /* Still exited, at the tick the board wrote, after the log's end. */
          g_assert_true (th->flags & TKS_THREAD_EXITED);
          g_assert_cmpfloat (th->exit_time, >, 17991);
          after++;
        }
      else if (th->flags & TKS_THREAD_EXITED)
        g_assert_cmpfloat (th->exit_time, <, 17991);
    }
  g_assert_cmpuint (after, ==, 9);
}

#define LIST_FAST_EXITED \
  "ch> threads_list\r\n" \
  "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n" \
  "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n" \
  "Deleted threads: \r\n" \
  "Thread number  3 : Prio = 140, Log = Yes, Name = fast\r\n" \
  "ch> threads_timestamps\r\n"

/* The thread that ran when the log stopped exits later: its run still ends at the log's end. */
static void
test_log_end_running_thread_exits (void)
{
  g_autoptr(TksCapture) c = load_text (
    LIST_FAST_EXITED
    "From  1 to  3 at     100\r\n"
    "From  3 to  2 at     101\r\n"
    "From  3 to  3 at     150\r\n"
    "ch> ");
  const TksThread *fast = thread_named (c, "fast");
  const TksThread *idle = thread_named (c, "idle");
  TksLogEndReason reason;
  guint n;

  g_assert_cmpfloat (tks_capture_get_log_end (c, &reason), ==, 102);
  g_assert_cmpint (reason, ==, TKS_LOG_END_LONE_EXITS);
  g_assert_cmpfloat (tks_capture_get_end (c), ==, 151);
  g_assert_cmpuint (idle->n_runs, ==, 1);
  g_assert_cmpfloat (idle->runs[0].end, ==, 102);
  /* fast ran 100 to 101 and exited at 150, after the log ended: no run to its exit. */
  g_assert_cmpuint (fast->n_runs, ==, 1);
  g_assert_cmpfloat (fast->runs[0].end, ==, 101);
  g_assert_cmpfloat (fast->exit_time, ==, 150);
  g_assert_true (fast->flags & TKS_THREAD_EXITED_AFTER_LOG_END);
  /* An exit after the log's end is not an unpaired switch. */
  tks_capture_get_warnings (c, &n);
  g_assert_cmpuint (n, ==, 0);

  /* A running thread exiting after the end: its run too ends at the log's end. */
  {
    g_autoptr(TksCapture) d = load_text (
      LIST_FAST_EXITED
      "From  2 to  1 at     100\r\n"
      "From  1 to  3 at     101\r\n"
      "From  3 to  3 at     150\r\n"
      "ch> ");
    const TksThread *f = thread_named (d, "fast");

    g_assert_cmpfloat (tks_capture_get_log_end (d, NULL), ==, 102);
    g_assert_cmpuint (f->n_runs, ==, 1);
    g_assert_cmpfloat (f->runs[0].begin, ==, 101);
    g_assert_cmpfloat (f->runs[0].end, ==, 102);
    g_assert_true (f->flags & TKS_THREAD_RUNNING_AT_END);
    g_assert_true (f->flags & TKS_THREAD_EXITED_AFTER_LOG_END);
  }
}

/* Logs that record to their last record end with the capture. */
static void
test_log_end_at_capture_end (void)
{
  const char *files[] = { "board-run-mode.raw.txt", "board-original-list-log-mismatch.raw.txt",
                          "board-tick-wrap.raw.txt", "board-partly-logged-trigger.raw.txt",
                          "simboard-dump.raw.txt" };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr(TksCapture) c = tks_test_load_data (files[i]);
      TksLogEndReason reason = TKS_LOG_END_LONE_EXITS;

      g_assert_cmpfloat (tks_capture_get_log_end (c, &reason), ==, tks_capture_get_end (c));
      g_assert_cmpint (reason, ==, TKS_LOG_END_CAPTURE_END);
      g_assert_cmpuint (tks_capture_get_n_exits_after_log_end (c), ==, 0);
    }
}

static void
test_trigger_and_exits (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.raw.txt");
  double trigger;
  guint exited = 0;

  g_assert_true (tks_capture_get_trigger (capture, &trigger));
  g_assert_cmpfloat (trigger, ==, 17154);
  g_assert_cmpstr (tks_capture_get_trigger_name (capture), ==, "Shell command");
  /* The second, later read is the one kept; it ends with lone exit records. */
  g_assert_cmpfloat (tks_capture_get_end (capture), ==, 20027);
  for (guint t = 0; t < tks_capture_get_n_threads (capture); t++)
    {
      const TksThread *th = tks_capture_get_thread (capture, t);

      if (th->flags & TKS_THREAD_EXITED)
        {
          exited++;
          g_assert_true (th->flags & TKS_THREAD_DELETED);
          g_assert_false (isnan (th->exit_time));
          if (th->n_runs > 0)
            g_assert_cmpfloat (th->runs[th->n_runs - 1].end, <=, th->exit_time);
        }
    }
  g_assert_cmpuint (exited, ==, 16);
  g_assert_true (thread_named (capture, "job_e")->n_runs == 0);
}

static void
test_tick_wrap (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-tick-wrap.raw.txt");
  const TksThread *idle = thread_named (capture, "idle");

  /* 1048570 → 4 goes on as 1048580, and the time keeps increasing. */
  g_assert_cmpfloat (tks_capture_get_start (capture), <, 1048576);
  g_assert_cmpfloat (tks_capture_get_end (capture), >, 1048576);
  g_assert_cmpfloat (tks_capture_get_end (capture) - tks_capture_get_start (capture), <, 20000);
  for (guint i = 1; i < idle->n_runs; i++)
    g_assert_cmpfloat (idle->runs[i].begin, >, idle->runs[i - 1].begin);
}

static void
test_partly_logged (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-partly-logged-trigger.raw.txt");
  const TksThread *housekeep = thread_named (capture, "housekeep");
  const TksThread *sensor = thread_named (capture, "sensor");
  guint ins = 0, outs = 0;

  g_assert_false (housekeep->flags & TKS_THREAD_LOGGED);
  g_assert_cmpuint (housekeep->n_runs, ==, 0);
  g_assert_cmpuint (housekeep->n_marks, >, 100);
  for (guint i = 0; i < housekeep->n_marks; i++)
    {
      g_assert_cmpuint (housekeep->marks[i].width_div, >=, 1);
      if (housekeep->marks[i].kind == TKS_MARK_IN)
        ins++;
      else
        outs++;
    }
  g_assert_cmpuint (ins, >, 0);
  g_assert_cmpuint (outs, >, 0);
  g_assert_true (sensor->flags & TKS_THREAD_LOGGED);
  g_assert_cmpuint (sensor->n_marks, ==, 0);
  g_assert_cmpuint (sensor->n_runs, >, 800);
}

/* ------------------------------------------------------------------------------------------ */
/* Hand-made cases, one rule each. */

#define LIST3 \
  "ch> threads_list\r\n" \
  "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n" \
  "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n" \
  "Thread number  3 : Prio = 140, Log = Yes, Name = fast\r\n" \
  "Deleted threads: \r\n"

static void
test_subtick_placement (void)
{
  g_autoptr(TksCapture) c = load_text (
    LIST3 "ch> threads_timestamps\r\n"
    "From  1 to  3 at     100\r\n"
    "From  3 to  2 at     100\r\n"
    "From  2 to  3 at     100\r\n"
    "From  3 to  1 at     102\r\n"
    "ch> ");
  const TksThread *fast = thread_named (c, "fast");
  const TksThread *idle = thread_named (c, "idle");
  const TksThread *main_thread = thread_named (c, "main");

  /* Three records in tick 100 sit at 100, 100 1/3 and 100 2/3. */
  g_assert_cmpuint (fast->n_runs, ==, 2);
  g_assert_cmpfloat (fast->runs[0].begin, ==, 100.0);
  g_assert_cmpfloat_with_epsilon (fast->runs[0].end, 100.0 + 1.0 / 3, 1e-12);
  g_assert_cmpfloat_with_epsilon (idle->runs[0].begin, 100.0 + 1.0 / 3, 1e-12);
  g_assert_cmpfloat_with_epsilon (idle->runs[0].end, 100.0 + 2.0 / 3, 1e-12);
  g_assert_cmpfloat_with_epsilon (fast->runs[1].begin, 100.0 + 2.0 / 3, 1e-12);
  g_assert_cmpfloat (fast->runs[1].end, ==, 102.0);
  /* main is switched out by the very first record: nothing of its run is in the capture... */
  g_assert_cmpuint (main_thread->n_runs, ==, 1);
  g_assert_false (main_thread->flags & TKS_THREAD_RUNNING_AT_START);
  /* ...and its last IN runs to the end of the capture, flagged. */
  g_assert_cmpfloat (main_thread->runs[0].begin, ==, 102.0);
  g_assert_cmpfloat (main_thread->runs[0].end, ==, 103.0);
  g_assert_true (main_thread->flags & TKS_THREAD_RUNNING_AT_END);
  g_assert_cmpfloat (tks_capture_get_start (c), ==, 100.0);
  g_assert_cmpfloat (tks_capture_get_end (c), ==, 103.0);
  g_assert_cmpuint (tks_capture_get_max_switches_per_tick (c), ==, 3);
  g_assert_cmpfloat (tks_capture_get_mean_switches_per_tick (c), ==, 2.0);
}

static void
test_running_at_start (void)
{
  /* "fast" is first switched out at 100.5: it ran from the start of the log until then. */
  g_autoptr(TksCapture) c = load_text (
    LIST3 "ch> threads_timestamps\r\n"
    "From  1 to  2 at     100\r\n"
    "From  3 to  1 at     100\r\n"
    "From  1 to  3 at     104\r\n"
    "ch> ");
  const TksThread *fast = thread_named (c, "fast");

  g_assert_true (fast->flags & TKS_THREAD_RUNNING_AT_START);
  g_assert_cmpuint (fast->n_runs, ==, 2);
  g_assert_cmpfloat (fast->runs[0].begin, ==, 100.0);
  g_assert_cmpfloat (fast->runs[0].end, ==, 100.5);
  g_assert_cmpfloat (fast->first_event, ==, 100.0);
  g_assert_cmpfloat (fast->runs[1].begin, ==, 104.0);
}

static void
test_assumed_start_at_zero (void)
{
  g_autoptr(TksCapture) c = load_text (
    LIST3 "ch> threads_timestamps\r\n"
    "From  1 to  2 at       0\r\n"
    "From  2 to  1 at       5\r\n"
    "ch> ");
  const TksThread *main_thread = thread_named (c, "main");

  g_assert_true (main_thread->flags & TKS_THREAD_ASSUMED_START);
  g_assert_cmpuint (main_thread->n_runs, ==, 2);
  g_assert_cmpfloat (main_thread->runs[0].begin, ==, 0.0);
  g_assert_cmpfloat (main_thread->runs[0].end, ==, 1.0);
  g_assert_cmpfloat (main_thread->runs[1].begin, ==, 5.0);
}

static void
test_renumbering_after_exit (void)
{
  /* Creation order: main, idle, A, B, C. A (number 3) exits; then B is 3 and C is 4. */
  g_autoptr(TksCapture) c = load_text (
    "ch> threads_list\r\n"
    "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
    "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
    "Thread number  3 : Prio =  60, Log = Yes, Name = B\r\n"
    "Thread number  4 : Prio =  50, Log = Yes, Name = C\r\n"
    "Deleted threads: \r\n"
    "Thread number  3 : Prio =  70, Log = Yes, Name = A\r\n"
    "ch> threads_timestamps\r\n"
    "From  1 to  3 at      10\r\n"
    "From  3 to  3 at      11\r\n"
    "From  0 to  3 at      11\r\n"
    "From  3 to  4 at      12\r\n"
    "From  4 to  1 at      13\r\n"
    "ch> ");
  const TksThread *a = thread_named (c, "A");
  const TksThread *b = thread_named (c, "B");
  const TksThread *cc = thread_named (c, "C");
  guint n_warnings;

  tks_capture_get_warnings (c, &n_warnings);
  g_assert_cmpuint (n_warnings, ==, 0);
  g_assert_cmpuint (a->index, ==, 2);
  g_assert_cmpuint (b->index, ==, 3);
  g_assert_true (a->flags & TKS_THREAD_EXITED);
  g_assert_cmpfloat (a->exit_time, ==, 11.0);
  g_assert_cmpuint (a->n_runs, ==, 1);
  g_assert_cmpfloat (a->runs[0].begin, ==, 10.0);
  g_assert_cmpfloat (a->runs[0].end, ==, 11.0);
  /* The record after the exit has out-thread 0; number 3 is now B. */
  g_assert_cmpuint (b->n_runs, ==, 1);
  g_assert_cmpfloat (b->runs[0].begin, ==, 11.5);
  g_assert_cmpfloat (b->runs[0].end, ==, 12.0);
  g_assert_cmpuint (cc->n_runs, ==, 1);
  g_assert_cmpfloat (cc->runs[0].begin, ==, 12.0);
  g_assert_cmpfloat (cc->first_event, ==, 12.0);
}

static void
test_unlisted_thread (void)
{
  /* Thread 4 was created between the two commands: the log names it, the list does not. */
  g_autoptr(TksCapture) c = load_text (
    LIST3 "ch> threads_timestamps\r\n"
    "From  1 to  4 at      10\r\n"
    "From  4 to  1 at      11\r\n"
    "ch> ");
  const TksThread *ghost = thread_named (c, "Thread 4 (not in list)");
  const guint *lanes;
  guint n;

  g_assert_true (ghost->flags & TKS_THREAD_NOT_LISTED);
  g_assert_cmpuint (ghost->n_runs, ==, 1);
  g_assert_true (tks_test_has_warning (c, "line 7: warning: the log names thread 4"));
  lanes = tks_capture_get_lanes (c, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (lanes[n - 1], ==, ghost->index);
}

static void
test_unlisted_threads_and_zero (void)
{
  /* The log names 5 when the list has 3: 4 and 5 appear; an in-thread 0 is unnumbered. */
  g_autoptr(TksCapture) c = load_text (
    LIST3 "ch> threads_timestamps\r\n"
    "From  1 to  5 at      10\r\n"
    "From  5 to  0 at      11\r\n"
    "From  0 to  1 at      12\r\n"
    "ch> ");
  guint n;

  tks_capture_get_warnings (c, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_true (tks_test_has_warning (c, "line 7: warning: the log names thread 5, but the thread list "
                                 "has only 3 at that point: threads 4 to 5"));
  g_assert_true (tks_test_has_warning (c, "line 8: warning: switch to a thread without a number"));
  g_assert_cmpuint (tks_capture_get_n_threads (c), ==, 5);
  g_assert_cmpuint (thread_named (c, "Thread 5 (not in list)")->n_runs, ==, 1);
  g_assert_cmpuint (thread_named (c, "Thread 4 (not in list)")->n_runs, ==, 0);
}

static void
test_exit_unknown_to_list (void)
{
  /* "fast" exits after the list was read: the list still shows it alive. */
  g_autoptr(TksCapture) c = load_text (
    LIST3 "ch> threads_timestamps\r\n"
    "From  1 to  3 at      10\r\n"
    "From  3 to  3 at      11\r\n"
    "From  0 to  1 at      11\r\n"
    "From  9 to  9 at      12\r\n"
    "ch> ");
  const TksThread *fast = thread_named (c, "fast");

  g_assert_true (fast->flags & TKS_THREAD_EXITED);
  g_assert_cmpfloat (fast->exit_time, ==, 11.0);
  g_assert_true (tks_test_has_warning (c, "the thread list shows it alive"));
  g_assert_true (tks_test_has_warning (c, "line 10: warning: exit of thread 9"));
}

static void
test_stale_deleted_history (void)
{
  /* The list remembers an exit whose record the log no longer holds. */
  g_autoptr(TksCapture) c = load_text (
    "ch> threads_list\r\n"
    "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
    "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
    "Thread number  3 : Prio =  50, Log = Yes, Name = B\r\n"
    "Deleted threads: \r\n"
    "Thread number  2 : Prio =  70, Log = Yes, Name = A\r\n"
    "ch> threads_timestamps\r\n"
    "From  1 to  3 at      10\r\n"
    "From  3 to  2 at      11\r\n"
    "ch> ");

  g_assert_cmpuint (thread_named (c, "B")->n_runs, ==, 1);
  g_assert_cmpuint (thread_named (c, "idle")->n_runs, ==, 1);
  g_assert_cmpuint (thread_named (c, "A")->n_runs, ==, 0);
  /* A gone before the log began: flagged and counted, not a warning, no lane by default. */
  g_assert_true (thread_named (c, "A")->flags & TKS_THREAD_EXITED_BEFORE_LOG);
  g_assert_false (thread_named (c, "B")->flags & TKS_THREAD_EXITED_BEFORE_LOG);
  g_assert_cmpuint (tks_capture_get_n_exited_before_log (c), ==, 1);
  g_assert_false (tks_test_has_warning (c, "deleted"));
  {
    guint n_all, n_shown;
    const guint *all = tks_capture_get_shown_lanes (c, TRUE, &n_all);
    const guint *shown = tks_capture_get_shown_lanes (c, FALSE, &n_shown);

    g_assert_cmpuint (n_all, ==, 4);
    g_assert_cmpuint (n_shown, ==, 3);
    for (guint l = 0; l < n_shown; l++)
      g_assert_cmpstr (tks_capture_get_thread (c, shown[l])->name, !=, "A");
    (void) all;
  }
}

/* A real board's history keeps up to 64 exited threads, most of them gone long before the
 * log begins: they get no lane by default, and every other thread is rebuilt as without them. */
static void
test_exited_before_log_real (void)
{
  g_autofree char *text = NULL;
  g_autofree char *stale = NULL;
  g_autoptr(TksCapture) plain = NULL;
  g_autoptr(TksCapture) c = NULL;
  g_autofree char *path = data_path ("board-trigger-exits.raw.txt");
  const guint *a, *b;
  guint na, nb, n_all, n;

  stale = tks_test_read_with_stale_history (path, 55, &text);
  plain = load_text (text);
  c = load_text (stale);

  g_assert_cmpuint (tks_capture_get_n_exited_before_log (plain), ==, 0);
  g_assert_cmpuint (tks_capture_get_n_exited_before_log (c), ==, 55);
  tks_capture_get_warnings (c, &n);
  g_assert_cmpuint (n, ==, 0);
  tks_capture_get_lanes (c, &n_all);
  a = tks_capture_get_shown_lanes (plain, FALSE, &na);
  b = tks_capture_get_shown_lanes (c, FALSE, &nb);
  g_assert_cmpuint (n_all, ==, na + 55);
  g_assert_cmpuint (na, ==, nb);
  for (guint l = 0; l < na; l++)
    {
      const TksThread *x = tks_capture_get_thread (plain, a[l]);
      const TksThread *y = tks_capture_get_thread (c, b[l]);

      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpint (x->priority, ==, y->priority);
      g_assert_cmpuint (x->flags, ==, y->flags);
      g_assert_cmpuint (x->n_runs, ==, y->n_runs);
      for (guint r = 0; r < x->n_runs; r++)
        {
          g_assert_cmpfloat (x->runs[r].begin, ==, y->runs[r].begin);
          g_assert_cmpfloat (x->runs[r].end, ==, y->runs[r].end);
        }
    }
  for (guint t = 0; t < tks_capture_get_n_threads (c); t++)
    {
      const TksThread *th = tks_capture_get_thread (c, t);

      if (th->flags & TKS_THREAD_EXITED_BEFORE_LOG)
        {
          g_assert_true (th->flags & TKS_THREAD_DELETED);
          g_assert_cmpuint (th->n_runs + th->n_marks, ==, 0);
          g_assert_true (isnan (th->first_event));
        }
    }
}

static void
test_unlogged_marks (void)
{
  g_autoptr(TksCapture) c = load_text (
    "threads_list\n"
    "Thread number  1 : Prio = 128, Log = Yes, Name = main\n"
    "Thread number  2 : Prio =   1, Log =  No, Name = idle\n"
    "Deleted threads: \n"
    "ch> \n"
    "threads_timestamps\n"
    "From  1 to  2 at      10\n"
    "From  2 to  1 at      10\n"
    "ch> \n");
  const TksThread *idle = thread_named (c, "idle");

  g_assert_false (idle->flags & TKS_THREAD_LOGGED);
  g_assert_cmpuint (idle->n_runs, ==, 0);
  g_assert_cmpuint (idle->n_marks, ==, 2);
  g_assert_cmpuint (idle->marks[0].kind, ==, TKS_MARK_IN);
  g_assert_cmpfloat (idle->marks[0].pos, ==, 10.0);
  g_assert_cmpuint (idle->marks[1].kind, ==, TKS_MARK_OUT);
  g_assert_cmpfloat (idle->marks[1].pos, ==, 10.5);
  g_assert_cmpuint (idle->marks[1].width_div, ==, 2);
}

static void
test_garbled_lines (void)
{
  g_autoptr(TksCapture) c = load_text (
    "\x83\xff\x12garbage ch> threads_list\r\n"
    "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
    "Thr\xe9\xe9 number  2 : Prio =   1, Lo\r\n"
    "Thread number  3 : Prio = 140, Log = Yes, Name = fast\r\n"
    "Deleted threads: \r\n"
    "ch> threads_timestamps\r\n"
    "From  1 to  3 at     100\r\n"
    "From  3 to  1 at     101\r\n"
    "From  3 to  1 at     101\r\n"
    "Fr\x80m  1 ~~ 3\r\n"
    "From  1 to  3 at     900101\r\n"
    "From  1 to  3 at     103\r\n"
    "From  3 to  1 at     104\r\n"
    "ch> ");
  const TksThread *fast = thread_named (c, "fast");

  /* The unreadable list line keeps its place, so "fast" is still number 3. */
  g_assert_cmpuint (tks_capture_get_n_threads (c), ==, 3);
  g_assert_cmpuint (fast->index, ==, 2);
  g_assert_true (tks_test_has_warning (c, "line 3: warning: unreadable thread line kept"));
  g_assert_true (tks_test_has_warning (c, "line 9: warning: repeated log line skipped"));
  g_assert_true (tks_test_has_warning (c, "line 10: warning: unreadable log line skipped: “Fr\\x80m  1 ~~ 3”"));
  g_assert_true (tks_test_has_warning (c, "line 11: warning: log line with a tick out of order"));
  g_assert_cmpuint (tks_capture_get_n_records (c), ==, 4);
  g_assert_cmpuint (fast->n_runs, ==, 2);
  g_assert_cmpfloat (fast->runs[1].begin, ==, 103.0);
}

/* A garbled tick taken back, then a repeat of the record before it, then one more taken back:
 * the record before the last kept is then found below the two last ones, across the stretches
 * of records the dropped ones broke. Only the good records stay. */
static void
test_garbled_ticks_taken_back (void)
{
  g_autoptr(TksCapture) c = load_text (
    LIST3 "ch> threads_timestamps\r\n"
    "From  1 to  2 at      10\r\n"
    "From  2 to  3 at      20\r\n"
    "From  3 to  1 at    1000\r\n"
    "From  3 to  1 at      30\r\n"
    "From  1 to  2 at      40\r\n"
    "From  2 to  3 at      50\r\n"
    "From  1 to  2 at      40\r\n"
    "From  2 to  3 at      35\r\n"
    "From  3 to  1 at      60\r\n"
    "ch> ");
  const TksThread *fast = thread_named (c, "fast");

  g_assert_true (tks_test_has_warning (c, "line 9: warning: log line with a tick out of order skipped"));
  g_assert_true (tks_test_has_warning (c, "line 12: warning: log line with a tick out of order skipped"));
  g_assert_true (tks_test_has_warning (c, "line 13: warning: repeated log line skipped"));
  g_assert_true (tks_test_has_warning (c, "line 11: warning: log line with a tick out of order skipped"));
  g_assert_cmpuint (tks_capture_get_n_records (c), ==, 5);
  g_assert_cmpuint (fast->n_runs, ==, 2);
  g_assert_cmpfloat (fast->runs[1].begin, ==, 35.0);
  g_assert_cmpfloat (fast->runs[1].end, ==, 60.0);
}

/* What a load keeps must load again the same: the checks reach a fixed point. */
static void
test_kept_records_are_stable (void)
{
  const char *inputs[] = {
    /* A spike dropped, leaving two equal neighbours. */
    LIST3 "ch> threads_timestamps\r\n"
    "From  2 to  3 at     207\r\nFrom  3 to  1 at     209\r\nFrom  2 to  3 at     207\r\nch> ",
    /* Out of order, then a repeat of the last kept line. */
    LIST3 "ch> threads_timestamps\r\n"
    "From  1 to  3 at     207\r\nFrom  3 to  1 at     100\r\nFrom  1 to  3 at     207\r\n"
    "From  3 to  2 at     300\r\nch> ",
    /* A wrap next to a spike. */
    LIST3 "ch> threads_timestamps\r\n"
    "From  1 to  3 at 1048000\r\nFrom  3 to  1 at 1048570\r\nFrom  1 to  3 at       4\r\n"
    "From  3 to  1 at 1048571\r\nFrom  1 to  2 at       9\r\nch> ",
  };

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(TksCapture) a = load_text (inputs[i]);
      g_autoptr(GString) sa = g_string_new (NULL), sb = g_string_new (NULL);
      g_autoptr(TksCapture) b = NULL;

      tks_capture_write (a, sa, NULL, 0);
      b = load_text (sa->str);
      tks_capture_write (b, sb, NULL, 0);
      g_assert_cmpstr (sa->str, ==, sb->str);
      /* Nothing more is skipped the second time. */
      g_assert_false (tks_test_has_warning (b, "skipped"));
      g_assert_true (tks_test_has_warning (a, "skipped"));
      g_assert_cmpuint (tks_capture_get_n_records (a), ==, tks_capture_get_n_records (b));
    }
}

static void
test_bad_inputs (void)
{
  struct {
    const char *text;
    int code;
    const char *needle;
  } cases[] = {
    { "", TKS_ERROR_NOT_A_CAPTURE, "not a thread capture" },
    { "\x7f" "ELF\x02\x01\x01\0\0\0\0", TKS_ERROR_NOT_A_CAPTURE, "not a thread capture" },
    { "ch> threads_list\r\nthreads_list ?\r\nch> ", TKS_ERROR_UNKNOWN_COMMAND, "does not know" },
    { LIST3 "ch> ", TKS_ERROR_EMPTY, "no threads_timestamps reply" },
    { "ch> threads_timestamps\r\nFrom  1 to  2 at 5\r\nch> ", TKS_ERROR_EMPTY, "no threads_list" },
    { LIST3 "ch> threads_timestamps\r\n\xf0\x9f\x12\x80\r\n\x01\x02zzz\r\nch> ",
      TKS_ERROR_PARSE, "The log is unreadable" },
    { "ch> threads_list\r\nThe thread timestamps functionality is disabled\r\nch> ",
      TKS_ERROR_UNKNOWN_COMMAND, "USE_THREADS_TIMESTAMPS" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TksCapture) c = tks_capture_new_from_data (cases[i].text, strlen (cases[i].text) +
                                                           (i == 1 ? 4 : 0), &error);

      g_assert_null (c);
      g_assert_error (error, TKS_ERROR, cases[i].code);
      if (strstr (error->message, cases[i].needle) == NULL)
        g_error ("case %u: “%s” lacks “%s”", i, error->message, cases[i].needle);
    }
}

static void
test_empty_log (void)
{
  g_autoptr(TksCapture) c = load_text (LIST3 "ch> threads_timestamps\r\nch> ");

  g_assert_cmpuint (tks_capture_get_n_records (c), ==, 0);
  g_assert_cmpuint (tks_capture_get_n_threads (c), ==, 3);
  g_assert_true (tks_test_has_warning (c, "the log is empty"));
}

static void
test_replies (void)
{
  const char *list =
    "threads_list\r\n"
    "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
    "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
    "Deleted threads: \r\n";
  const char *log = "Triggered at      11\r\nFrom  1 to  2 at      10\r\nFrom  2 to  1 at      12\r\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) c = tks_capture_new_from_replies (list, strlen (list), log, strlen (log), &error);
  double trigger;

  g_assert_no_error (error);
  g_assert_cmpuint (tks_capture_get_n_records (c), ==, 2);
  g_assert_true (tks_capture_get_trigger (c, &trigger));
  g_assert_cmpfloat (trigger, ==, 11.0);
  g_assert_cmpuint (thread_named (c, "idle")->n_runs, ==, 1);
}

#define DUMP_HEAD \
  "Dump version: 1\r\n" \
  "Library version: 2.0.0\r\n" \
  "Tick frequency: 10000\r\n" \
  "Log size: 3000\r\n" \
  "Mode: frozen\r\n" \
  "Trigger tick: 102\r\n" \
  "Records: 3\r\n" \
  "Dropped while paused: 0\r\n" \
  "Dropped for history: 0\r\n" \
  "Unnumbered threads: 0 live, 0 total\r\n" \
  "Threads:\r\n" \
  "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n" \
  "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n" \
  "Thread number  3 : Prio = 140, Log = Yes, Name = fast\r\n" \
  "Deleted threads: \r\n" \
  "Timestamps:\r\n" \
  "Triggered at     102\r\n" \
  "From  1 to  3 at     100\r\n"

static void
test_dump (void)
{
  /* The checksum of these three records, worked out by hand: FNV-1a over the words. */
  const char *good = DUMP_HEAD "From  3 to  1 at     101\r\n" "From  1 to  3 at     103\r\n"
                     "End of dump: 3 records, checksum b5f60422\r\n";
  const char *damaged = DUMP_HEAD "From  3 to  1 at     101\r\n" "From  1 to  3 at     108\r\n"
                        "End of dump: 3 records, checksum b5f60422\r\n";
  const char *cut = DUMP_HEAD "From  3 to  1 at     101\r\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) c = tks_capture_new_from_dump (good, strlen (good), &error);
  g_autoptr(TksCapture) d = NULL;
  g_autoptr(TksCapture) e = NULL;
  g_autofree char *transcript = g_strconcat ("ch> threads_dump\r\n", good, "ch> ", NULL);
  g_autoptr(TksCapture) f = NULL;
  guint n;
  double trigger;

  g_assert_no_error (error);
  tks_capture_get_warnings (c, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (tks_capture_get_n_records (c), ==, 3);
  g_assert_cmpfloat (tks_capture_get_tick_hz (c), ==, 10000);
  g_assert_cmpuint (tks_capture_get_log_size (c), ==, 3000);
  g_assert_null (tks_capture_get_damage (c));
  g_assert_true (tks_capture_get_trigger (c, &trigger));
  g_assert_cmpfloat (trigger, ==, 102);
  g_assert_cmpuint (thread_named (c, "fast")->n_runs, ==, 2);

  d = tks_capture_new_from_dump (damaged, strlen (damaged), &error);
  g_assert_no_error (error);
  g_assert_true (tks_test_has_warning (d, "do not match the board's checksum"));
  g_assert_nonnull (strstr (tks_capture_get_damage (d), "checksum"));

  e = tks_capture_new_from_dump (cut, strlen (cut), &error);
  g_assert_no_error (error);
  g_assert_true (tks_test_has_warning (e, "the transfer was cut"));
  g_assert_nonnull (strstr (tks_capture_get_damage (e), "cut"));

  /* A checksum with anything after it is damage too. */
  {
    static const char * const tails[] = { "b5f60422zz", "b5f60422 b5f60422", "b5f604220",
                                          "0xb5f60422", "-b5f60422", "b5f60422\x01" };

    for (guint i = 0; i < G_N_ELEMENTS (tails); i++)
      {
        g_autofree char *junk = g_strdup_printf (DUMP_HEAD "From  3 to  1 at     101\r\n"
                                                 "From  1 to  3 at     103\r\n"
                                                 "End of dump: 3 records, checksum %s\r\n",
                                                 tails[i]);
        g_autoptr(TksCapture) j = tks_capture_new_from_dump (junk, strlen (junk), &error);

        g_assert_no_error (error);
        g_test_message ("checksum %s", tails[i]);
        g_assert_nonnull (tks_capture_get_damage (j));
      }
  }

  /* Real bytes of the board library (simulated board, 24-record log): the checksum agrees;
   * one digit garbled on the way: it does not. */
  {
    g_autoptr(TksCapture) real = tks_test_load_data ("simboard-dump.raw.txt");
    g_autoptr(TksCapture) garbled = tks_test_load_data ("simboard-dump-damaged.raw.txt");

    tks_capture_get_warnings (real, &n);
    g_assert_cmpuint (n, ==, 0);
    g_assert_null (tks_capture_get_damage (real));
    g_assert_cmpuint (tks_capture_get_log_size (real), ==, 24);
    g_assert_cmpuint (tks_capture_get_n_records (real), ==, 15);
    g_assert_nonnull (tks_capture_get_damage (garbled));
  }

  /* The same reply inside a transcript. */
  f = tks_test_capture_of_text (transcript, -1);
  tks_capture_get_warnings (f, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (tks_capture_get_n_records (f), ==, 3);
}

/* The board's counters count since boot or run mode: information, not damage to this capture,
 * unless the log holds every record since run mode (then the drops fall inside it). */
static void
test_board_counters (void)
{
  const char *records = "From  3 to  1 at     101\r\n" "From  1 to  3 at     103\r\n"
                        "End of dump: 3 records, checksum b5f60422\r\n";
  g_autoptr(GString) since_boot = g_string_new (DUMP_HEAD);
  g_autoptr(GString) inside = g_string_new (DUMP_HEAD);
  g_autoptr(TksCapture) c = NULL;
  g_autoptr(TksCapture) d = NULL;
  g_autoptr(GError) error = NULL;
  TksBoardCounters counters;
  guint n;

  g_string_replace (since_boot, "Dropped while paused: 0", "Records written: 48211\r\n"
                    "Dropped while paused: 1767258", 1);
  g_string_replace (since_boot, "Dropped for history: 0", "Dropped for history: 16066", 1);
  g_string_append (since_boot, records);
  c = tks_capture_new_from_dump (since_boot->str, since_boot->len, &error);
  g_assert_no_error (error);
  tks_capture_get_warnings (c, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_null (tks_capture_get_damage (c));
  tks_capture_get_board_counters (c, &counters);
  g_assert_true (counters.known);
  g_assert_cmpuint (counters.records_written, ==, 48211);
  g_assert_cmpuint (counters.dropped_paused, ==, 1767258);
  g_assert_cmpuint (counters.dropped_history, ==, 16066);

  /* Three records written since run mode, all three in the log: the two dropped switches
   * are inside it. */
  g_string_replace (inside, "Dropped while paused: 0", "Records written: 3\r\n"
                    "Dropped while paused: 2", 1);
  g_string_append (inside, records);
  d = tks_capture_new_from_dump (inside->str, inside->len, &error);
  g_assert_no_error (error);
  g_assert_true (tks_test_has_warning (d, "did not record 2 switches while this log was paused"));

  /* A legacy transcript has no counters. */
  {
    g_autoptr(TksCapture) legacy = tks_test_load_data ("board-run-mode.raw.txt");

    tks_capture_get_board_counters (legacy, &counters);
    g_assert_false (counters.known);
  }
}

/* A threads_dump of main (1), idle (2) and fast (3) whose log has a hole: the board printed a
 * reply from tick 103 to 150 and did not record 40 switches then. @paused: the header's
 * "Paused:" lines. */
static char *
dump_with_hole (const char *paused)
{
  static const guint32 words[][3] = {
    { 100, 1, 3 }, { 101, 3, 1 }, { 102, 1, 2 },    /* then the hole, before record 3 */
    { 152, 3, 1 }, { 153, 1, 2 }, { 160, 2, 3 },
  };
  GString *text = g_string_new ("Dump version: 1\r\nTick frequency: 1000\r\nLog size: 3000\r\n"
                                "Mode: run\r\nRecords: 6\r\nRecords written: 10\r\n"
                                "Dropped while paused: 40\r\nDropped for history: 0\r\n");
  guint32 hash = 2166136261u;

  g_string_append (text, paused);
  g_string_append (text, "Threads:\r\n"
                   "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
                   "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
                   "Thread number  3 : Prio = 140, Log = Yes, Name = fast\r\n"
                   "Deleted threads: \r\nTimestamps:\r\n");
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      guint32 w = words[i][0] << 12 | words[i][1] << 6 | words[i][2];

      g_string_append_printf (text, "From %2u to %2u at %7u\r\n", words[i][1], words[i][2],
                              words[i][0]);
      for (guint b = 0; b < 4; b++)
        hash = (hash ^ ((w >> (8 * b)) & 0xFF)) * 16777619u;
    }
  g_string_append_printf (text, "End of dump: 6 records, checksum %08X\r\n", hash);
  return g_string_free (text, FALSE);
}

/* A frozen threads_dump of a board whose system time has 16 bits ("Tick bits: 16"): its log
 * crosses the wrap (65300, then 100), so do its hole (65400 to 20) and its trigger (150, the
 * system time's 16 bits). Read at 20 bits, the records after the wrap would be out of order. */
static void
test_tick_bits_16 (void)
{
  static const guint32 words[][3] = {
    { 65000, 1, 2 }, { 65300, 2, 1 },    /* then the hole, before record 2 */
    { 100, 1, 2 }, { 400, 2, 1 },
  };
  GString *text = g_string_new ("threads_dump\r\nDump version: 1\r\nTick frequency: 10000\r\n"
                                "Tick bits: 16\r\nLog size: 8\r\nMode: frozen\r\n"
                                "Trigger tick: 150\r\nTrigger name: Shell command\r\n"
                                "Records: 4\r\nRecords written: 4\r\n"
                                "Dropped while paused: 5\r\nDropped for history: 0\r\n"
                                "Paused: before record 2, ticks 65400 to 20, 5 switches dropped\r\n"
                                "Threads:\r\n"
                                "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
                                "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
                                "Deleted threads: \r\nTimestamps:\r\nTriggered at     150\r\n");
  g_autofree char *dump = NULL;
  g_autoptr(TksCapture) c = NULL;
  guint32 hash = 2166136261u;
  const TksGap *gaps;
  guint n_gaps, n_warnings;
  double trigger;

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      guint32 w = words[i][0] << 12 | words[i][1] << 6 | words[i][2];

      g_string_append_printf (text, "From %2u to %2u at %7u\r\n", words[i][1], words[i][2],
                              words[i][0]);
      for (guint b = 0; b < 4; b++)
        hash = (hash ^ ((w >> (8 * b)) & 0xFF)) * 16777619u;
    }
  g_string_append_printf (text, "End of dump: 4 records, checksum %08X\r\nch> ", hash);
  dump = g_string_free (text, FALSE);

  c = tks_test_capture_of_text (dump, -1);
  g_assert_null (tks_capture_get_damage (c));
  tks_capture_get_warnings (c, &n_warnings);
  g_assert_cmpuint (n_warnings, ==, 0);
  g_assert_cmpuint (tks_capture_get_n_records (c), ==, 4);
  g_assert_cmpfloat (tks_capture_get_start (c), ==, 65000);
  g_assert_cmpfloat (tks_capture_get_end (c), ==, 65536 + 400 + 1);
  /* the hole from 65400 to 20 + 65536, the trigger at 150 + 65536 */
  gaps = tks_capture_get_gaps (c, &n_gaps);
  g_assert_cmpuint (n_gaps, ==, 1);
  g_assert_cmpfloat (gaps[0].begin, ==, 65400);
  g_assert_cmpfloat (gaps[0].end, ==, 65536 + 20);
  g_assert_true (tks_capture_get_trigger (c, &trigger));
  g_assert_cmpfloat (trigger, ==, 65536 + 150);
}

/* A saved capture of a 16-bit board's recording: its heartbeats say that three wraps and a bit
 * passed between the second record and the third (their ticks alone: 100 ticks), and a
 * saved copy of it reads back the same. */
static void
test_tick_bits_16_beats (void)
{
  static const char saved[] =
    "Saved position\n0.0\n1.0\n0.0\n30.0\n"
    "Tickscope capture 1\nTickscope tick-hz 10000\nTickscope tick-bits 16\n"
    "Tickscope beat before record 2, tick 30000\n"
    "Tickscope beat before record 2, tick 60000\n"
    "Tickscope beat before record 2, tick 20000\n"
    "Tickscope beat before record 2, tick 50000\n"
    "Tickscope beat before record 2, tick 10000\n"
    "threads_list\n"
    "Thread number  1 : Prio = 128, Log = Yes, Name = main\n"
    "Thread number  2 : Prio =   1, Log = Yes, Name = idle\n"
    "Deleted threads: \nch> \n"
    "threads_timestamps\n"
    "From  1 to  2 at     100\nFrom  2 to  1 at     200\n"
    "From  1 to  2 at     300\nFrom  2 to  1 at     400\nch> \n";
  g_autoptr(TksCapture) c = tks_test_capture_of_text (saved, -1);
  g_autoptr(TksCapture) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tks-test-beats-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "copy.txt", NULL);
  g_autofree char *copy = NULL;
  guint n_warnings;

  tks_capture_get_warnings (c, &n_warnings);
  g_assert_cmpuint (n_warnings, ==, 0);
  g_assert_cmpuint (tks_capture_get_n_records (c), ==, 4);
  /* 200, then 30000, 60000, 20000 + 65536, 50000 + 65536, 10000 + 2 × 65536, then 300 */
  g_assert_cmpfloat (tks_capture_get_end (c), ==, 3 * 65536 + 400 + 1);

  g_assert_true (tks_capture_save (c, path, NULL, 10000, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &copy, NULL, &error));
  g_assert_nonnull (strstr (copy, "Tickscope tick-bits 16\n"));
  g_assert_nonnull (strstr (copy, "Tickscope beat before record 2, tick 10000\n"));
  again = tks_test_capture_of_text (copy, -1);
  g_assert_cmpfloat (tks_capture_get_start (again), ==, tks_capture_get_start (c));
  g_assert_cmpfloat (tks_capture_get_end (again), ==, tks_capture_get_end (c));
  g_unlink (path);
  g_rmdir (dir);
}

/* A heartbeat behind the records before it (a board that read the time before it sent what
 * its log still held) says nothing of a wrap: the log goes on where it was. */
static void
test_beat_behind_records (void)
{
  static const char saved[] =
    "Saved position\n0.0\n1.0\n0.0\n30.0\n"
    "Tickscope capture 1\nTickscope tick-hz 1000\nTickscope tick-bits 20\n"
    "Tickscope beat before record 2, tick 36307\n"
    "Tickscope beat before record 4, tick 36350\n"
    "threads_list\n"
    "Thread number  1 : Prio = 128, Log = Yes, Name = main\n"
    "Thread number  2 : Prio =   1, Log = Yes, Name = idle\n"
    "Deleted threads: \nch> \n"
    "threads_timestamps\n"
    "From  1 to  2 at   36400\nFrom  2 to  1 at   36416\n"
    "From  1 to  2 at   36428\nFrom  2 to  1 at   36430\n"
    "From  1 to  2 at   36440\nch> \n";
  g_autoptr(TksCapture) c = tks_test_capture_of_text (saved, -1);

  g_assert_cmpuint (tks_capture_get_n_records (c), ==, 5);
  g_assert_cmpfloat (tks_capture_get_end (c), <, 36442);
}

/* The runs of thread @index, as "begin-end begin-end ...". */
static char *
runs_text (TksCapture *c,
           guint       index)
{
  const TksThread *th = tks_capture_get_thread (c, index);
  GString *s = g_string_new (NULL);

  for (guint r = 0; r < th->n_runs; r++)
    g_string_append_printf (s, "%s%g-%g", r > 0 ? " " : "", th->runs[r].begin, th->runs[r].end);
  return g_string_free (s, FALSE);
}

/* No run of @c goes on inside a hole: every run open at a hole's begin ends there. */
static void
assert_no_run_across_holes (TksCapture *c)
{
  guint n_gaps;
  const TksGap *gaps = tks_capture_get_gaps (c, &n_gaps);

  for (guint t = 0; t < tks_capture_get_n_threads (c); t++)
    {
      const TksThread *th = tks_capture_get_thread (c, t);

      for (guint r = 0; r < th->n_runs; r++)
        for (guint g = 0; g < n_gaps; g++)
          if (th->runs[r].begin < gaps[g].end && th->runs[r].end > gaps[g].begin)
            g_error ("thread %s runs from %g to %g, across the hole from %g to %g", th->name,
                     th->runs[r].begin, th->runs[r].end, gaps[g].begin, gaps[g].end);
    }
}

static void
assert_hole_rebuilt (TksCapture *c)
{
  const TksGap *gaps;
  guint n_gaps;
  g_autofree char *main_runs = runs_text (c, 0);
  g_autofree char *idle_runs = runs_text (c, 1);
  g_autofree char *fast_runs = runs_text (c, 2);

  gaps = tks_capture_get_gaps (c, &n_gaps);
  g_assert_cmpuint (n_gaps, ==, 1);
  g_assert_cmpfloat (gaps[0].begin, ==, 103.0);
  g_assert_cmpfloat (gaps[0].end, ==, 150.0);
  g_assert_cmpuint (gaps[0].dropped, ==, 40);
  /* Idle, running when the board began printing, ends there, not at 152. */
  g_assert_cmpstr (idle_runs, ==, "102-103 153-160");
  g_assert_cmpstr (main_runs, ==, "101-102 152-153");
  /* Fast is switched out at 152 without being switched in since the hole: it ran from the
   * hole's end. */
  g_assert_cmpstr (fast_runs, ==, "100-101 150-152 160-161");
  g_assert_false (tks_capture_get_thread (c, 2)->flags & TKS_THREAD_RUNNING_AT_START);
}

/* The board counts records in 32 bits: after 2^32 of them its sequence numbers wrap, and a
 * hole is still placed. */
static void
test_hole_after_counter_wrap (void)
{
  g_autofree char *dump = dump_with_hole ("Paused: before record 4294967295, ticks 103 to 150, "
                                          "40 switches dropped\r\n");
  g_autofree char *wrapped = NULL;
  g_autoptr(TksCapture) c = NULL;
  g_autoptr(GError) error = NULL;
  guint n;
  g_auto(GStrv) parts = g_strsplit (dump, "Records written: 10\r\n", 2);

  /* 2^32 + 2 records written: 2 on the board's counter; the 6 printed start at 2^32 - 4 */
  g_assert_cmpuint (g_strv_length (parts), ==, 2);
  wrapped = g_strjoinv ("Records written: 2\r\n", parts);
  c = tks_capture_new_from_dump (wrapped, strlen (wrapped), &error);
  g_assert_no_error (error);
  tks_capture_get_warnings (c, &n);
  g_assert_cmpuint (n, ==, 0);
  assert_hole_rebuilt (c);
}

/* Warnings cite the line of the record they are about, whatever the line ends (CRLF, LF, CR
 * twice) and the empty lines in the log. */
static void
test_record_lines_mixed_ends (void)
{
  g_autoptr(TksCapture) capture =
    load_text ("threads_list\r\n"                                        /* 1 */
               "Thread number  1 : Prio = 128, Log = Yes, Name = main\n"   /* 2 */
               "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
               "Deleted threads: \r\r\n"                                 /* 4 */
               "ch> \nthreads_timestamps\r\n"                             /* 5, 6 */
               "From  1 to  2 at     100\r\n"                              /* 7 */
               "\r\n"                                                      /* 8 */
               "From  2 to  1 at     101\n"                                 /* 9 */
               "\n"                                                         /* 10 */
               "\r\r\n"                                                    /* 11 */
               "From  1 to  2 at      50\r\r\n"                            /* 12: out of order */
               "From  1 to  2 at     102\r\n"                              /* 13 */
               "From  1 to  2 at     102\n"                                 /* 14: repeated */
               "ch> \n");

  g_assert_true (tks_test_has_warning (capture, "line 12: warning: log line with a tick out of "
                                                "order skipped"));
  g_assert_true (tks_test_has_warning (capture, "line 14: warning: repeated log line skipped"));
}

/* One garbled digit that makes a tick wider than the board's 20 bits costs that record only:
 * the log is still read as a 20-bit one, through its wrap, and a saved copy reloads the same. */
static void
test_wide_tick_garbled (void)
{
  GString *text = g_string_new ("threads_list\n"
                                "Thread number  1 : Prio = 128, Log = Yes, Name = main\n"
                                "Thread number  2 : Prio =   1, Log = Yes, Name = idle\n"
                                "Deleted threads: \nch> \nthreads_timestamps\n");
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(TksCapture) again = NULL;
  g_autoptr(GString) saved = g_string_new (NULL);

  for (guint i = 0; i < 40; i++)
    {
      guint tick = (1040000 + 500 * i) % (1u << 20);

      if (i == 3)
        tick += 4000000;   /* "1041500" read as "5041500" */
      g_string_append_printf (text, "From %2u to %2u at %7u\n", 1 + i % 2, 2 - i % 2, tick);
    }
  g_string_append (text, "ch> \n");
  capture = load_text (text->str);
  g_string_free (text, TRUE);

  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, 39);
  g_assert_true (tks_test_has_warning (capture, "line 10: warning: log line with a tick wider than the "
                              "board's 20 bits skipped"));
  g_assert_cmpfloat (tks_capture_get_start (capture), ==, 1040000);
  g_assert_cmpfloat (tks_capture_get_end (capture), ==, 1040000 + 500 * 39 + 1);
  tks_capture_write (capture, saved, NULL, 0);
  again = tks_test_capture_of_text (saved->str, saved->len);
  g_assert_cmpuint (tks_capture_get_n_records (again), ==, 39);
  g_assert_cmpfloat (tks_capture_get_end (again), ==, tks_capture_get_end (capture));
}

static void
test_hole_in_log (void)
{
  g_autofree char *dump = dump_with_hole ("Paused: before record 7, ticks 103 to 150, "
                                          "40 switches dropped\r\n");
  g_autofree char *outside = dump_with_hole ("Paused: before record 4, ticks 90 to 99, "
                                             "4 switches dropped\r\n"
                                             "Paused: before record 7, ticks 103 to 150, "
                                             "40 switches dropped\r\n"
                                             "Paused: before record 7, ticks 103 to 150\r\n");
  g_autofree char *none = dump_with_hole ("");
  g_autoptr(TksCapture) c = NULL;
  g_autoptr(TksCapture) again = NULL;
  g_autoptr(TksCapture) d = NULL;
  g_autoptr(TksCapture) old = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GString) out2 = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *idle_runs = NULL;
  const TksGap *gaps;
  guint n_gaps, n;

  c = tks_capture_new_from_dump (dump, strlen (dump), &error);
  g_assert_no_error (error);
  g_assert_null (tks_capture_get_damage (c));
  tks_capture_get_warnings (c, &n);
  g_assert_cmpuint (n, ==, 0);
  assert_hole_rebuilt (c);

  /* A saved capture keeps the hole, and reloads the same. */
  tks_capture_write (c, out, NULL, 0);
  g_assert_nonnull (strstr (out->str, "\nTickscope gap before record 3, ticks 103 to 150, "
                                      "40 switches dropped\n"));
  again = tks_test_capture_of_text (out->str, out->len);
  assert_hole_rebuilt (again);
  tks_capture_write (again, out2, NULL, 0);
  g_assert_cmpstr (out->str, ==, out2->str);

  /* A hole before the printed log's first record is placed where it ends (the capture starts
   * there); an unreadable line is not. */
  d = tks_capture_new_from_dump (outside, strlen (outside), &error);
  g_assert_no_error (error);
  gaps = tks_capture_get_gaps (d, &n_gaps);
  g_assert_cmpuint (n_gaps, ==, 2);
  g_assert_cmpfloat (gaps[0].begin, ==, 99.0);
  g_assert_cmpfloat (gaps[0].end, ==, 99.0);
  g_assert_cmpfloat (gaps[1].begin, ==, 103.0);
  g_assert_cmpfloat (gaps[1].end, ==, 150.0);
  g_assert_cmpfloat (tks_capture_get_start (d), ==, 99.0);
  g_assert_false (tks_test_has_warning (d, "“Paused: before record 4, ticks 90 to 99"));
  g_assert_true (tks_test_has_warning (d, "cannot be placed is ignored: “Paused: before record 7, "
                                 "ticks 103 to 150”"));

  /* Without the line (the board's older library), the log does not add up: idle is switched
   * in twice and its first run is lost. */
  old = tks_capture_new_from_dump (none, strlen (none), &error);
  g_assert_no_error (error);
  tks_capture_get_gaps (old, &n_gaps);
  g_assert_cmpuint (n_gaps, ==, 0);
  idle_runs = runs_text (old, 1);
  g_assert_cmpstr (idle_runs, ==, "153-160");
  g_assert_true (tks_test_has_warning (old, "thread “idle”: 1 switches in and 0 switches out could not"));
}

/* Hostile hole lines in a file: two between the same records that overlap follow each other,
 * one after the log's last record ends the capture, and a save keeps what was placed. */
static void
test_hole_lines_hostile (void)
{
  g_autoptr(GString) text = g_string_new (TKS_TEST_GAP_CAPTURE "ch> \n");
  g_autoptr(TksCapture) c = NULL;
  g_autoptr(TksCapture) again = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GString) out2 = g_string_new (NULL);
  const TksGap *gaps;
  guint n_gaps;

  g_string_replace (text, "threads_list\n",
                    "Tickscope gap before record 3, ticks 120 to 160, 2 switches dropped\n"
                    "Tickscope gap before record 6, ticks 170 to 180, 1 switches dropped\n"
                    "threads_list\n", 1);
  c = tks_test_capture_of_text (text->str, text->len);
  gaps = tks_capture_get_gaps (c, &n_gaps);
  g_assert_cmpuint (n_gaps, ==, 3);
  g_assert_cmpfloat (gaps[0].begin, ==, 103.0);
  g_assert_cmpfloat (gaps[0].end, ==, 150.0);
  g_assert_cmpfloat (gaps[1].begin, ==, 150.0);
  g_assert_cmpfloat (gaps[1].end, ==, 152.0);
  g_assert_cmpfloat (gaps[2].begin, ==, 170.0);
  g_assert_cmpfloat (gaps[2].end, ==, 180.0);
  g_assert_cmpfloat (tks_capture_get_end (c), ==, 180.0);
  g_assert_false (tks_test_has_warning (c, "is ignored"));
  assert_no_run_across_holes (c);

  tks_capture_write (c, out, NULL, 0);
  again = tks_test_capture_of_text (out->str, out->len);
  tks_capture_write (again, out2, NULL, 0);
  g_assert_cmpstr (out->str, ==, out2->str);
  gaps = tks_capture_get_gaps (again, &n_gaps);
  g_assert_cmpuint (n_gaps, ==, 3);
  g_assert_cmpfloat (gaps[1].begin, ==, 150.0);
  g_assert_cmpfloat (gaps[2].end, ==, 180.0);
}

/* A threads_dump of main (1), idle (2) and fast (3) with the records @words ({ tick, out, in }),
 * all the board wrote, and the header's "Paused:" lines @paused (@dropped switches in all). */
static char *
dump_of_records (const guint32 (*words)[3],
                 guint          n,
                 guint          dropped,
                 const char    *paused)
{
  GString *text = g_string_new (NULL);
  guint32 hash = 2166136261u;

  g_string_append_printf (text, "Dump version: 1\r\nTick frequency: 1000\r\nLog size: 3000\r\n"
                          "Mode: run\r\nRecords: %u\r\nRecords written: %u\r\n"
                          "Dropped while paused: %u\r\nDropped for history: 0\r\n%s"
                          "Threads:\r\n"
                          "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
                          "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
                          "Thread number  3 : Prio = 140, Log = Yes, Name = fast\r\n"
                          "Deleted threads: \r\nTimestamps:\r\n", n, n, dropped, paused);
  for (guint i = 0; i < n; i++)
    {
      guint32 w = words[i][0] << 12 | words[i][1] << 6 | words[i][2];

      g_string_append_printf (text, "From %2u to %2u at %7u\r\n", words[i][1], words[i][2],
                              words[i][0]);
      for (guint b = 0; b < 4; b++)
        hash = (hash ^ ((w >> (8 * b)) & 0xFF)) * 16777619u;
    }
  g_string_append_printf (text, "End of dump: %u records, checksum %08X\r\n", n, hash);
  return g_string_free (text, FALSE);
}

/* The same switch on both sides of a hole is two switches (the one back was not recorded),
 * not a line printed twice. */
static void
test_hole_between_equal_switches (void)
{
  static const guint32 words[][3] = {
    { 100, 1, 3 }, { 101, 3, 1 }, { 102, 1, 2 },    /* idle back to main during the hole */
    { 102, 1, 2 }, { 103, 2, 1 },
  };
  g_autofree char *dump = dump_of_records (words, G_N_ELEMENTS (words), 1,
                                           "Paused: before record 3, ticks 102 to 102, "
                                           "1 switches dropped\r\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) c = tks_capture_new_from_dump (dump, strlen (dump), &error);
  g_autofree char *idle_runs = NULL;
  guint n;

  g_assert_no_error (error);
  g_assert_false (tks_test_has_warning (c, "repeated log line"));
  tks_capture_get_warnings (c, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (tks_capture_get_n_records (c), ==, 5);
  idle_runs = runs_text (c, 1);
  g_assert_cmpstr (idle_runs, ==, "102-102 102.5-103");
  assert_no_run_across_holes (c);
}

/* A hole longer than half the round of the board's 20-bit tick: the smaller tick after it is
 * a wrap (time went on through the hole), not a tick out of order. */
static void
test_long_hole_wraps (void)
{
  static const guint32 words[][3] = {
    { 800000, 1, 3 }, { 800001, 3, 1 }, { 800002, 1, 2 },
    { 1500000 - (1u << 20), 2, 1 }, { 1500001 - (1u << 20), 1, 2 },
  };
  g_autofree char *dump = dump_of_records (words, G_N_ELEMENTS (words), 7,
                                           "Paused: before record 3, ticks 800003 to 1500000, "
                                           "7 switches dropped\r\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) c = tks_capture_new_from_dump (dump, strlen (dump), &error);
  const TksGap *gaps;
  guint n_gaps, n;

  g_assert_no_error (error);
  tks_capture_get_warnings (c, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (tks_capture_get_n_records (c), ==, 5);
  gaps = tks_capture_get_gaps (c, &n_gaps);
  g_assert_cmpuint (n_gaps, ==, 1);
  g_assert_cmpfloat (gaps[0].begin, ==, 800003.0);
  g_assert_cmpfloat (gaps[0].end, ==, 1500000.0);
  g_assert_cmpfloat (tks_capture_get_end (c), ==, 1500002.0);
  assert_no_run_across_holes (c);

  /* After a short hole, a smaller tick the hole does not account for is out of order. */
  {
    static const guint32 garbled[][3] = {
      { 800000, 1, 3 }, { 800001, 3, 1 }, { 800002, 1, 2 }, { 799990, 2, 1 }, { 800012, 2, 1 },
    };
    g_autofree char *short_hole = dump_of_records (garbled, G_N_ELEMENTS (garbled), 7,
                                                   "Paused: before record 3, ticks 800003 to "
                                                   "800010, 7 switches dropped\r\n");
    g_autoptr(TksCapture) d = tks_capture_new_from_dump (short_hole, strlen (short_hole), &error);

    g_assert_no_error (error);
    g_assert_cmpuint (tks_capture_get_n_records (d), ==, 4);
    g_assert_true (tks_test_has_warning (d, "tick out of order skipped"));
    g_assert_cmpfloat (tks_capture_get_end (d), ==, 800013.0);
  }
}

/* Holes before the log's first record and after its last (several at the same place, each
 * from the same tick as a board's recording gives them) are placed: the capture starts where
 * the first ends (nothing is known before) and ends with the last, and no thread runs across
 * one. A saved copy reloads the same. */
static void
test_holes_at_log_ends (void)
{
  static const guint32 words[][3] = { { 100, 1, 3 }, { 101, 3, 1 }, { 102, 1, 2 } };
  g_autofree char *dump = dump_of_records (words, G_N_ELEMENTS (words), 9,
                                           "Paused: before record 0, ticks 90 to 99, "
                                           "4 switches dropped\r\n"
                                           "Paused: before record 3, ticks 105 to 110, "
                                           "2 switches dropped\r\n"
                                           "Paused: before record 3, ticks 105 to 130, "
                                           "3 switches dropped\r\n");
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) c = tks_capture_new_from_dump (dump, strlen (dump), &error);
  g_autoptr(TksCapture) again = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GString) out2 = g_string_new (NULL);
  const TksGap *gaps;
  guint n_gaps, n;

  g_assert_no_error (error);
  tks_capture_get_warnings (c, &n);
  g_assert_cmpuint (n, ==, 0);
  gaps = tks_capture_get_gaps (c, &n_gaps);
  g_assert_cmpuint (n_gaps, ==, 3);
  g_assert_cmpfloat (gaps[0].begin, ==, 99.0);
  g_assert_cmpfloat (gaps[0].end, ==, 99.0);
  g_assert_cmpuint (gaps[0].dropped, ==, 4);
  g_assert_cmpfloat (gaps[1].begin, ==, 105.0);
  g_assert_cmpfloat (gaps[1].end, ==, 110.0);
  g_assert_cmpfloat (gaps[2].begin, ==, 110.0);
  g_assert_cmpfloat (gaps[2].end, ==, 130.0);
  g_assert_cmpfloat (tks_capture_get_start (c), ==, 99.0);
  g_assert_cmpfloat (tks_capture_get_end (c), ==, 130.0);
  g_assert_cmpfloat (tks_capture_get_log_end (c, NULL), ==, 130.0);
  {
    g_autofree char *main_runs = runs_text (c, 0);
    g_autofree char *idle_runs = runs_text (c, 1);

    /* main, switched out first after the hole, ran from its end; idle runs up to the hole
     * after the last record, and is not running at the end */
    g_assert_cmpstr (main_runs, ==, "99-100 101-102");
    g_assert_cmpstr (idle_runs, ==, "102-105");
    g_assert_false (tks_capture_get_thread (c, 1)->flags & TKS_THREAD_RUNNING_AT_END);
    g_assert_false (tks_capture_get_thread (c, 0)->flags & TKS_THREAD_RUNNING_AT_START);
  }
  assert_no_run_across_holes (c);

  tks_capture_write (c, out, NULL, 0);
  g_assert_nonnull (strstr (out->str, "\nTickscope gap before record 0, ticks 90 to 99, "));
  g_assert_nonnull (strstr (out->str, "\nTickscope gap before record 3, ticks 105 to 130, "));
  again = tks_test_capture_of_text (out->str, out->len);
  tks_capture_get_warnings (again, &n);
  g_assert_cmpuint (n, ==, 0);
  gaps = tks_capture_get_gaps (again, &n_gaps);
  g_assert_cmpuint (n_gaps, ==, 3);
  g_assert_cmpfloat (gaps[2].end, ==, 130.0);
  g_assert_cmpfloat (tks_capture_get_start (again), ==, 99.0);
  tks_capture_write (again, out2, NULL, 0);
  g_assert_cmpstr (out->str, ==, out2->str);
}

/* DUMP_HEAD with these counters, then @tail (the records after its first one). */
static TksCapture *
dump_with_counters (guint       records,
                    guint       written,
                    guint       paused,
                    const char *tail)
{
  g_autoptr(GString) text = g_string_new (DUMP_HEAD);
  g_autofree char *count = g_strdup_printf ("Records: %u", records);
  g_autofree char *counters = g_strdup_printf ("Records written: %u\r\nDropped while paused: %u",
                                               written, paused);
  g_autoptr(GError) error = NULL;
  TksCapture *c;

  g_string_replace (text, "Records: 3", count, 1);
  g_string_replace (text, "Dropped while paused: 0", counters, 1);
  g_string_append (text, tail);
  c = tks_capture_new_from_dump (text->str, text->len, &error);
  g_assert_no_error (error);
  g_assert_null (tks_capture_get_damage (c));
  return c;
}

/* Two dumps of one run: the switches dropped while the first was printed fall inside the
 * second's log when it reaches back that far. */
static void
test_dropped_since (void)
{
  const char *three = "From  3 to  1 at     101\r\n" "From  1 to  3 at     103\r\n"
                      "End of dump: 3 records, checksum b5f60422\r\n";
  const char *six = "From  3 to  1 at     101\r\n" "From  1 to  3 at     103\r\n"
                    "From  3 to  2 at     110\r\n" "From  2 to  3 at     112\r\n"
                    "From  3 to  1 at     115\r\n"
                    "End of dump: 6 records, checksum f343b0d4\r\n";
  g_autoptr(TksCapture) first = dump_with_counters (3, 3, 5, three);
  g_autoptr(TksCapture) second = dump_with_counters (6, 6, 9, six);
  g_autoptr(TksCapture) wrapped = dump_with_counters (6, 9000, 9, six);
  g_autoptr(TksCapture) reset = dump_with_counters (6, 6, 1, six);
  guint64 dropped = 0;

  g_assert_true (tks_capture_get_dropped_since (second, first, &dropped));
  g_assert_cmpuint (dropped, ==, 4);
  /* The log no longer reaches back to the first dump: where the drops fell is unknown. */
  g_assert_false (tks_capture_get_dropped_since (wrapped, first, &dropped));
  /* Counters that went down: another run. */
  g_assert_false (tks_capture_get_dropped_since (reset, first, &dropped));
  /* A capture without counters. */
  {
    g_autoptr(TksCapture) legacy = tks_test_load_data ("board-run-mode.raw.txt");

    g_assert_false (tks_capture_get_dropped_since (second, legacy, &dropped));
  }
}

static void
test_trigger_epoch (void)
{
  /* The log keeps 20 bits of the tick; the trigger all 32. */
  g_autoptr(TksCapture) c = load_text (
    LIST3 "ch> threads_timestamps\r\n"
    "Triggered at 3145735\r\n"
    "From  1 to  3 at       5\r\n"
    "From  3 to  1 at      10\r\n"
    "ch> ");
  double trigger;

  g_assert_true (tks_capture_get_trigger (c, &trigger));
  g_assert_cmpfloat (trigger, ==, 3145735.0);
  g_assert_cmpfloat (tks_capture_get_start (c), ==, 3 * 1048576.0 + 5);
}

/* ------------------------------------------------------------------------------------------ */
/* Capture files */

static void
test_original_file_round_trip (void)
{
  g_autofree char *path = data_path ("board-trigger-exits.saved.txt");
  g_autofree char *original = NULL;
  g_autoptr(TksCapture) c = tks_test_load_data ("board-trigger-exits.saved.txt");
  g_autoptr(TksCapture) again = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GString) out2 = g_string_new (NULL);
  TksSavedView view;
  const char *meta = "Tickscope capture 1\n";
  char *at;

  g_assert_true (g_file_get_contents (path, &original, NULL, NULL));
  g_assert_true (tks_capture_get_saved_view (c, &view));
  g_assert_cmpfloat (view.x0, ==, 0.0);
  g_assert_cmpfloat (view.x1, ==, 1.0);

  /* What Tickscope writes is the original file, plus its own line where the original's
   * loader ignores it. */
  tks_capture_write (c, out, NULL, 0);
  at = strstr (out->str, meta);
  g_assert_nonnull (at);
  g_string_erase (out, at - out->str, strlen (meta));
  g_assert_cmpstr (out->str, ==, original);

  /* And it reads back the same. */
  g_string_insert (out, at - out->str, meta);
  again = tks_test_capture_of_text (out->str, out->len);
  tks_capture_write (again, out2, NULL, 0);
  g_assert_cmpstr (out->str, ==, out2->str);
}

/* A capture read from @name, named @source where the file does not name its own. */
static TksCapture *
load_data_with_source (const char *name,
                       const char *source)
{
  g_autofree char *path = data_path (name);
  g_autoptr(GError) error = NULL;
  TksCapture *capture;
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);

  g_assert_cmpint (fd, >=, 0);
  capture = tks_capture_new_from_fd (fd, name, source, &error);
  close (fd);
  g_assert_no_error (error);
  g_assert_nonnull (capture);
  return capture;
}

static void
test_transcript_to_file (void)
{
  g_autoptr(TksCapture) raw = load_data_with_source ("board-partly-logged-trigger.raw.txt",
                                                     "tcp:localhost:29001");
  g_autoptr(TksCapture) back = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;
  guint n;

  /* The source is the one given when loading; the rate is the one a view shows it at. */
  g_assert_cmpstr (tks_capture_get_source (raw), ==, "tcp:localhost:29001");
  g_assert_cmpfloat (tks_capture_get_tick_hz (raw), ==, 1000);
  tks_capture_write (raw, out, NULL, 10000);
  g_assert_cmpfloat (tks_capture_get_tick_hz (raw), ==, 1000);
  back = tks_test_capture_of_text (out->str, out->len);

  g_assert_cmpuint (tks_capture_get_n_threads (back), ==, tks_capture_get_n_threads (raw));
  g_assert_cmpuint (tks_capture_get_n_records (back), ==, tks_capture_get_n_records (raw));
  g_assert_cmpfloat (tks_capture_get_tick_hz (back), ==, 10000);
  g_assert_cmpstr (tks_capture_get_source (back), ==, "tcp:localhost:29001");
  g_assert_cmpstr (tks_capture_get_trigger_name (back), ==, "Shell command");
  for (guint t = 0; t < tks_capture_get_n_threads (raw); t++)
    {
      const TksThread *a = tks_capture_get_thread (raw, t);
      const TksThread *b = tks_capture_get_thread (back, t);

      g_assert_cmpstr (a->name, ==, b->name);
      g_assert_cmpuint (a->flags, ==, b->flags);
      g_assert_cmpuint (a->n_runs, ==, b->n_runs);
      g_assert_cmpuint (a->n_marks, ==, b->n_marks);
      g_assert_cmpmem (a->runs, a->n_runs * sizeof (TksRun), b->runs, b->n_runs * sizeof (TksRun));
    }

  /* The shape the original loader expects: sections found, last line "ch> ". */
  lines = g_strsplit (out->str, "\n", -1);
  n = g_strv_length (lines);
  g_assert_cmpstr (lines[0], ==, "Saved position");
  g_assert_cmpstr (lines[n - 2], ==, "ch> ");
  g_assert_cmpstr (lines[n - 1], ==, "");
  for (guint i = 1; i < n; i++)
    if (strstr (lines[i], "threads_list") != NULL)
      {
        for (guint j = 1; j < i; j++)
          g_assert_null (strstr (lines[j], "threads_timestamps"));
        g_assert_cmpstr (lines[i + 1], ==, "Thread number  1 : Prio = 128, Log = Yes, Name = main");
        break;
      }
}

static void
test_saved_view_lanes (void)
{
  g_autoptr(TksCapture) c = tks_test_load_data ("board-run-mode.raw.txt");

  /* 20 lanes, 18 of them with data (main and console have none in this log); with or
   * without the lanes of threads that exited before the log, the same rows. */
  for (int all = 0; all <= 1; all++)
    {
      guint n;

      tks_capture_get_shown_lanes (c, all, &n);
      g_assert_cmpfloat (tks_capture_lane_to_legacy_y (c, all, 0), ==, 5.0 + 10.0 * 18);
      g_assert_cmpfloat (tks_capture_lane_to_legacy_y (c, all, n), ==, 5.0);
      for (double lane = 0; lane <= n; lane += 0.5)
        {
          double y = tks_capture_lane_to_legacy_y (c, all, lane);
          double back = tks_capture_legacy_y_to_lane (c, all, y);

          g_assert_cmpfloat_with_epsilon (tks_capture_lane_to_legacy_y (c, all, back), y, 1e-9);
        }
    }
}

static void
test_atomic_save (void)
{
  g_autoptr(TksCapture) c = tks_test_load_data ("board-run-mode.raw.txt");
  g_autofree char *dir = g_dir_make_tmp ("tickscope-test-XXXXXX", NULL);
  g_autofree char *target = g_build_filename (dir, "capture.txt", NULL);
  g_autofree char *blocker = g_build_filename (dir, "not-a-dir", NULL);
  g_autofree char *inside = g_build_filename (blocker, "capture.txt", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) back = NULL;
  TksSavedView view = { 25500, 25600, 40, 120 };
  TksSavedView odd = { 0.1, 1e-7, 123456.789, -3 };
  g_autoptr(GString) text = g_string_new (NULL);
  TksSavedView got;
  GDir *d;
  guint entries = 0;

  g_assert_true (tks_capture_save (c, target, &view, 0, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (target, &contents, NULL, NULL));
  /* Written as Python's str() writes floats, for the original viewer. */
  g_assert_true (g_str_has_prefix (contents, "Saved position\n25500.0\n25600.0\n40.0\n120.0\n"));
  g_clear_pointer (&contents, g_free);
  back = tks_capture_new_from_file (target, &error);
  g_assert_no_error (error);
  g_assert_true (tks_capture_get_saved_view (back, &got));
  g_assert_cmpmem (&got, sizeof got, &view, sizeof view);

  tks_capture_write (c, text, &odd, 0);
  g_assert_true (g_str_has_prefix (text->str, "Saved position\n0.1\n1e-07\n123456.789\n-3.0\n"));

  /* A save that cannot happen leaves what is there alone. */
  g_assert_true (g_file_set_contents (blocker, "keep me", -1, NULL));
  g_assert_false (tks_capture_save (c, inside, &view, 0, &error));
  g_assert_error (error, TKS_ERROR, TKS_ERROR_IO);
  g_assert_true (g_file_get_contents (blocker, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "keep me");

  /* No temporary file is left behind. */
  d = g_dir_open (dir, 0, NULL);
  while (g_dir_read_name (d) != NULL)
    entries++;
  g_dir_close (d);
  g_assert_cmpuint (entries, ==, 2);

  g_unlink (blocker);
  g_unlink (target);
  g_rmdir (dir);
}

static void
test_chunked_reads_agree (void)
{
  /* The same bytes fed by file (chunks) and at once give the same timeline. */
  gsize len;
  g_autofree char *contents = tks_test_data_contents ("board-trigger-exits.raw.txt", &len);
  g_autoptr(TksCapture) a = tks_test_load_data ("board-trigger-exits.raw.txt");
  g_autoptr(TksCapture) b = tks_test_capture_of_text (contents, len);
  g_autoptr(GString) sa = g_string_new (NULL), sb = g_string_new (NULL);

  tks_capture_write (a, sa, NULL, 0);
  tks_capture_write (b, sb, NULL, 0);
  g_assert_cmpstr (sa->str, ==, sb->str);
}

static void
loaded_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  TksCapture **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = tks_capture_load_file_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_async_load (void)
{
  g_autofree char *path = data_path ("board-run-mode.raw.txt");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(TksCapture) capture = NULL;

  tks_capture_load_file_async (file, NULL, loaded_cb, &capture);
  g_assert_true (tks_wait_until (tks_wait_nonnull, &capture));
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, 3000);
}

static void
failed_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  GError **error = user_data;

  g_assert_null (tks_capture_load_file_finish (result, error));
  g_assert_nonnull (*error);
}

/* The error of a load in a worker thread, for a window that names the file itself. */
static GError *
failed_load (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GError *error = NULL;

  tks_capture_load_file_async (file, NULL, failed_cb, &error);
  g_assert_true (tks_wait_until (tks_wait_nonnull, &error));
  return error;
}

/* A load in a worker thread says what is wrong without naming the file, in every language: the
 * window names it, with quotes of its language. */
static void
test_async_load_errors (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tickscope-load-XXXXXX", NULL);
  g_autofree char *broken = g_build_filename (dir, "broken-capture.txt", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing-capture.txt", NULL);
  g_autoptr(GError) not_capture = NULL;
  g_autoptr(GError) absent = NULL;

  if (g_test_subprocess ())
    {
      g_setenv ("LC_ALL", "C.UTF-8", TRUE);
      g_setenv ("LANGUAGE", "fr", TRUE);
      tks_i18n_init ();
    }
  g_assert_true (g_file_set_contents (broken, "hello\n", -1, NULL));
  not_capture = failed_load (broken);
  absent = failed_load (missing);
  g_test_message ("%s / %s", not_capture->message, absent->message);
  g_assert_error (not_capture, TKS_ERROR, TKS_ERROR_NOT_A_CAPTURE);
  g_assert_null (strstr (not_capture->message, "broken-capture"));
  g_assert_error (absent, TKS_ERROR, TKS_ERROR_IO);
  g_assert_cmpstr (absent->message, ==, g_strerror (ENOENT));
  if (g_test_subprocess ())
    {
      g_assert_true (g_str_has_prefix (not_capture->message, "Ce n’est pas une capture de threads"));
      g_print ("%s\n", not_capture->message);
    }
  else
    g_assert_true (g_str_has_prefix (not_capture->message, "This is not a thread capture"));
  g_unlink (broken);
  g_rmdir (dir);

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
      g_test_trap_assert_passed ();
      g_test_trap_assert_stdout ("*Ce n’est pas une capture de threads*");
    }
}

/* A line longer than any line of a capture is skipped with a warning, also when it spans
 * many reads, and the lines around it are read as usual: a thread line keeps its place. */
static void
test_long_lines (void)
{
  g_autoptr(GString) text = g_string_new ("threads_list\n"
                                          "Thread number  1 : Prio = 128, Log = Yes, Name = main\n"
                                          "Thread number  2 : Prio =  10, Log = Yes, Name = ");
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) whole = NULL;
  g_autoptr(TksCapture) read = NULL;
  g_autofree char *path = NULL;
  int fd;

  /* A 3 MiB name (longer than a read) and a 20 KiB log line. */
  for (guint i = 0; i < 3 << 20; i++)
    g_string_append_c (text, 'a' + i % 26);
  g_string_append (text, "\nThread number  3 : Prio =   1, Log = Yes, Name = idle\n"
                         "Deleted threads: \nch> \nthreads_timestamps\n"
                         "From  1 to  3 at       5\nFrom ");
  for (guint i = 0; i < 20000; i++)
    g_string_append_c (text, ' ');
  g_string_append (text, "\nFrom  3 to  1 at       7\nch> \n");

  fd = g_file_open_tmp ("tickscope-long-XXXXXX.txt", &path, &error);
  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, text->str, text->len, &error));

  whole = tks_test_capture_of_text (text->str, text->len);
  read = tks_capture_new_from_file (path, &error);
  g_assert_no_error (error);
  g_unlink (path);

  for (guint c = 0; c < 2; c++)
    {
      TksCapture *capture = c == 0 ? whole : read;

      g_assert_cmpuint (tks_capture_get_n_threads (capture), ==, 3);
      g_assert_cmpstr (tks_capture_get_thread (capture, 1)->name, ==, "Unreadable thread 2");
      g_assert_cmpstr (tks_capture_get_thread (capture, 2)->name, ==, "idle");
      g_assert_true (tks_test_has_warning (capture, "line 3: warning: unreadable thread line kept as "
                                  "“Unreadable thread 2”: a line of 3145777 bytes, longer than "
                                  "any line of a capture, starting “Thread number  2"));
      g_assert_true (tks_test_has_warning (capture, "line 9: warning: unreadable log line skipped: a line "
                                  "of 20005 bytes"));
      g_assert_cmpuint (tks_capture_get_n_records (capture), ==, 2);
      g_assert_cmpuint (thread_named (capture, "idle")->n_runs, ==, 1);
      g_assert_cmpfloat (thread_named (capture, "idle")->runs[0].end, ==, 7);
    }
}

/* In a test's subprocess: at most 512 MiB of address space (not under AddressSanitizer, which
 * reserves far more for itself). */
static void
limit_address_space (void)
{
#if defined (__has_feature)
#if __has_feature (address_sanitizer)
#define TKS_TEST_ASAN 1
#endif
#endif
#if !defined (__SANITIZE_ADDRESS__) && !defined (TKS_TEST_ASAN)
  struct rlimit limit = { 512 << 20, 512 << 20 };

  g_assert_cmpint (setrlimit (RLIMIT_AS, &limit), ==, 0);
#endif
}

/* Endless input that is no capture ends in an error after a bounded amount, in bounded
 * memory (the loading process may not take more than 512 MiB of address space). */
static void
test_endless_input (gconstpointer data)
{
  const char *device = data;
  g_autofree char *expected = NULL;

  if (g_test_subprocess ())
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TksCapture) capture = NULL;

      limit_address_space ();
      capture = tks_capture_new_from_file (device, &error);
      g_assert_null (capture);
      g_assert_error (error, TKS_ERROR, TKS_ERROR_PARSE);
      g_printerr ("%s", error->message);
      return;
    }

  expected = g_strdup_printf ("*%s*: Line *: more than 16 MiB without a readable line of a "
                              "capture: this is not a capture, or the rest of it is damaged",
                              device);
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDOUT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr (expected);
}

/* Lines that are no records inside a log (blank ones, repeated trigger lines) are not junk,
 * but a log holds no more of them than records: endless ones end in an error, in bounded
 * memory. */
static void
test_endless_blank_log_lines (void)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "tks-test-blank-log.txt", NULL);

  if (g_test_subprocess ())
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TksCapture) capture = NULL;

      limit_address_space ();
      capture = tks_capture_new_from_file (path, &error);
      g_assert_null (capture);
      g_assert_error (error, TKS_ERROR, TKS_ERROR_PARSE);
      g_printerr ("%s", error->message);
      return;
    }
  else
    {
      FILE *f = fopen (path, "w");
      static char blanks[2 * 4096];

      g_assert_nonnull (f);
      for (gsize i = 0; i < sizeof blanks; i += 2)
        memcpy (blanks + i, " \n", 2);
      fputs ("threads_list\nThread number  1 : Prio = 1, Log = Yes, Name = a\n"
             "Deleted threads: \nch> \nthreads_timestamps\nFrom  1 to  1 at 5\n", f);
      /* 2^24 + 4096 blank lines */
      for (guint i = 0; i < (1u << 24) / 4096 + 1; i++)
        g_assert_cmpuint (fwrite (blanks, 1, sizeof blanks, f), ==, sizeof blanks);
      g_assert_cmpint (fclose (f), ==, 0);
    }
  g_test_trap_subprocess (NULL, 120 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDOUT);
  g_unlink (path);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("*Line *: the log holds more than 16777216 lines that are not "
                             "records, more than any board prints*");
}

/* A tick rate in a saved file that no board has is refused with a warning: the default
 * stays. */
static void
test_insane_tick_rate (void)
{
  static const char * const bad[] = { "1e-300", "4.9e-324", "1e300", "nan", "inf", "-inf", "0",
                                       "-1000", "1000x", "0.5" };
  static const char * const good[] = { "10000", "32768", "1" };
  static const char tail[] = "threads_list\nThread number  1 : Prio = 1, Log = Yes, Name = a\n"
                             "Deleted threads: \nch> \nthreads_timestamps\n"
                             "From  1 to  1 at 5\nch> \n";

  for (guint i = 0; i < G_N_ELEMENTS (bad) + G_N_ELEMENTS (good); i++)
    {
      gboolean sane = i >= G_N_ELEMENTS (bad);
      const char *rate = sane ? good[i - G_N_ELEMENTS (bad)] : bad[i];
      g_autofree char *text = g_strdup_printf ("Saved position\n0.0\n1.0\n0.0\n1.0\n"
                                               "Tickscope capture 1\nTickscope tick-hz %s\n%s",
                                               rate, tail);
      g_autoptr(TksCapture) c = load_text (text);

      g_test_message ("tick-hz %s", rate);
      g_assert_cmpfloat (tks_capture_get_tick_hz (c), ==, sane ? g_ascii_strtod (rate, NULL) : 1000);
      g_assert_true (tks_test_has_warning (c, "line 7: warning: the tick rate is not a number of hertz "
                                  "from 1 to 1e+09") == !sane);
    }

  /* The same in a threads_dump's header. */
  {
    static const char dump[] = "Tick frequency: 0\r\nThreads:\r\n"
                               "Thread number  1 : Prio =   1, Log = Yes, Name = a\r\n"
                               "Timestamps:\r\nEnd of dump: 0 records, checksum 811c9dc5\r\n";
    g_autoptr(GError) error = NULL;
    g_autoptr(TksCapture) c = tks_capture_new_from_dump (dump, strlen (dump), &error);

    g_assert_no_error (error);
    g_assert_cmpfloat (tks_capture_get_tick_hz (c), ==, 1000);
    g_assert_true (tks_test_has_warning (c, "line 1: warning: the tick rate is not a number of hertz"));
    g_assert_null (tks_capture_get_damage (c));
  }
}

/* With the original library's deleted list full (64), the log can hold exits of threads the
 * list forgot: they keep their numbers as threads not in the list, with a lane, runs and an
 * exit inside the log; they are not threads that exited before the log. */
static void
test_forgotten_exits_shown (void)
{
  GString *text = g_string_new ("threads_list\n"
                                "Thread number  1 : Prio = 128, Log = Yes, Name = main\n"
                                "Thread number  2 : Prio =   1, Log = Yes, Name = idle\n"
                                "Deleted threads: \n");
  g_autoptr(TksCapture) capture = NULL;
  const guint *lanes;
  guint n_lanes, n_forgotten = 0;

  for (guint d = 1; d <= 64; d++)
    g_string_append_printf (text, "Thread number  3 : Prio =  10, Log = Yes, Name = d%u\n", d);
  g_string_append (text, "ch> \nthreads_timestamps\n");
  /* 65 threads run and exit: the list remembers the last 64 */
  for (guint e = 0; e < 65; e++)
    g_string_append_printf (text, "From  1 to  3 at %7u\nFrom  3 to  3 at %7u\nFrom  0 to  1 at %7u\n",
                            100 + 10 * e, 101 + 10 * e, 101 + 10 * e);
  g_string_append (text, "ch> \n");
  capture = load_text (text->str);
  g_string_free (text, TRUE);

  g_assert_cmpuint (tks_capture_get_n_exited_before_log (capture), ==, 0);
  lanes = tks_capture_get_shown_lanes (capture, FALSE, &n_lanes);
  for (guint l = 0; l < n_lanes; l++)
    {
      const TksThread *th = tks_capture_get_thread (capture, lanes[l]);

      if (th->flags & TKS_THREAD_NOT_LISTED)
        {
          n_forgotten++;
          g_assert_cmpuint (th->n_runs, ==, 1);
          g_assert_cmpfloat (th->runs[0].begin, ==, 100.0);
          g_assert_true (th->flags & TKS_THREAD_EXITED);
        }
    }
  g_assert_cmpuint (n_forgotten, ==, 1);
  g_assert_cmpuint (n_lanes, ==, 2 + 65);
}

/* The time a thread ran in a range, from the running sums, against a sum over its runs. */
static void
test_thread_busy (void)
{
  g_autofree char *path = data_path ("board-trigger-exits.saved.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = tks_capture_new_from_file (path, &error);
  GRand *rand = g_rand_new_with_seed (7);
  double start = tks_capture_get_start (capture);
  double end = tks_capture_get_end (capture);
  guint checked = 0;

  g_assert_no_error (error);
  for (guint t = 0; t < tks_capture_get_n_threads (capture); t++)
    {
      const TksThread *th = tks_capture_get_thread (capture, t);

      if (th->n_runs == 0)
        continue;
      g_assert_cmpfloat_with_epsilon (tks_thread_busy (th, start - 1, end + 1),
                                      th->run_time[th->n_runs], 1e-6);
      for (guint k = 0; k < 200; k++)
        {
          double t0 = g_rand_double_range (rand, start - 10, end);
          double t1 = t0 + g_rand_double_range (rand, 0, (end - start) / (k % 2 ? 50 : 2));
          double scan = 0;

          for (guint i = 0; i < th->n_runs; i++)
            scan += MAX (0.0, MIN (th->runs[i].end, t1) - MAX (th->runs[i].begin, t0));
          g_assert_cmpfloat_with_epsilon (tks_thread_busy (th, t0, t1), scan, 1e-6);
          checked++;
        }
    }
  g_assert_cmpuint (checked, >, 1000);
  g_assert_cmpfloat (tks_thread_busy (NULL, 0, 1), ==, 0);
  g_rand_free (rand);
}

static void
test_lookups (void)
{
  static const TksRun runs[] = { { 0, 1 }, { 2, 3 }, { 3, 5 }, { 9, 10 } };
  static const TksMark marks[] = { { 1, TKS_MARK_IN, 1 }, { 2, TKS_MARK_OUT, 1 }, { 2, TKS_MARK_IN, 1 }, { 7, TKS_MARK_OUT, 1 } };

  g_assert_cmpuint (tks_runs_first_ending_after (runs, 4, -1), ==, 0);
  g_assert_cmpuint (tks_runs_first_ending_after (runs, 4, 1), ==, 1);
  g_assert_cmpuint (tks_runs_first_ending_after (runs, 4, 4), ==, 2);
  g_assert_cmpuint (tks_runs_first_ending_after (runs, 4, 10), ==, 4);
  g_assert_cmpuint (tks_runs_first_ending_after (runs, 0, 10), ==, 0);

  g_assert_cmpuint (tks_runs_first_beginning_at (runs, 0, 4, 2.5), ==, 2);
  g_assert_cmpuint (tks_runs_first_beginning_at (runs, 1, 4, 3), ==, 2);
  g_assert_cmpuint (tks_runs_first_beginning_at (runs, 0, 4, 100), ==, 4);
  g_assert_cmpuint (tks_runs_first_beginning_at (runs, 3, 4, 0), ==, 3);

  g_assert_cmpuint (tks_marks_first_at (marks, 0, 4, 2), ==, 1);
  g_assert_cmpuint (tks_marks_first_at (marks, 0, 4, 2.5), ==, 3);
  g_assert_cmpuint (tks_marks_first_at (marks, 0, 4, 8), ==, 4);

  /* Against a scan: runs that touch, marks with repeated times, searches from many starts. */
  {
    GRand *rand = g_rand_new_with_seed (13);
    TksRun many_runs[200];
    TksMark many_marks[200];
    double at = 0;

    for (guint i = 0; i < G_N_ELEMENTS (many_runs); i++)
      {
        at += g_rand_int_range (rand, 0, 3);
        many_runs[i].begin = at;
        at += g_rand_int_range (rand, 1, 3);
        many_runs[i].end = at;
        many_marks[i].pos = floor (many_runs[i].begin / 3);
        many_marks[i].kind = TKS_MARK_IN;
        many_marks[i].width_div = 1;
      }
    for (double t = -1; t <= at + 1; t += 0.25)
      {
        guint n = G_N_ELEMENTS (many_runs), expect = 0;

        while (expect < n && many_runs[expect].end <= t)
          expect++;
        g_assert_cmpuint (tks_runs_first_ending_after (many_runs, n, t), ==, expect);
        for (guint from = 0; from <= n; from += 7)
          {
            expect = from;
            while (expect < n && many_runs[expect].begin < t)
              expect++;
            g_assert_cmpuint (tks_runs_first_beginning_at (many_runs, from, n, t), ==, expect);
            expect = from;
            while (expect < n && many_marks[expect].pos < t)
              expect++;
            g_assert_cmpuint (tks_marks_first_at (many_marks, from, n, t), ==, expect);
          }
      }
    g_rand_free (rand);
  }
}


/* A capture whose list holds @n threads "t0".."t{n-1}" (priorities 100 + i) in the order of
 * @order (NULL: 0 to n-1), an "idle" thread, and two exited jobs of one name; the log has a
 * switch into each. */
static TksCapture *
capture_of_threads (guint        n,
                    const guint *order)
{
  g_autoptr(GString) text = g_string_new ("threads_list\n");
  guint number = 1;

  for (guint k = 0; k < n; k++)
    {
      guint i = order != NULL ? order[k] : k;

      g_string_append_printf (text, "Thread number %2u : Prio = %3u, Log = Yes, Name = t%u\n",
                              number++, 100 + i, i);
    }
  g_string_append_printf (text, "Thread number %2u : Prio =   1, Log = Yes, Name = idle\n", number++);
  g_string_append (text, "Deleted threads: \n");
  for (guint k = 0; k < 2; k++)
    g_string_append_printf (text, "Thread number %2u : Prio =  50, Log = Yes, Name = job\n", number + k);
  g_string_append (text, "ch> \nthreads_timestamps\n");
  for (guint t = 1, tick = 10; t <= number + 1; t++, tick += 10)
    g_string_append_printf (text, "From %2u to %2u at %7u\n", t == 1 ? number + 1 : t - 1, t, tick);
  g_string_append (text, "ch> \n");
  return load_text (text->str);
}

static guint
color_of (TksCapture *capture,
          const char *name)
{
  return thread_named (capture, name)->color;
}

/* A thread's colour follows from its name and priority: the same whatever the order of the
 * list, and nearly always beside new threads; no two of up to 24 identities alike; one
 * identity's threads alike; the idle thread quiet. */
static void
test_thread_colors (void)
{
  guint reversed[24];
  g_autoptr(TksCapture) a = NULL, b = NULL, ten = NULL, eleven = NULL;
  gboolean used[TKS_THREAD_N_COLORS] = { FALSE };
  guint n_jobs = 0, n_moved = 0;

  for (guint i = 0; i < 24; i++)
    {
      reversed[i] = 23 - i;
    }
  a = capture_of_threads (23, NULL);
  b = capture_of_threads (23, reversed + 1);
  for (guint i = 0; i < 23; i++)
    {
      g_autofree char *name = g_strdup_printf ("t%u", i);
      guint color = color_of (a, name);

      g_assert_cmpuint (color, <, TKS_THREAD_N_COLORS);
      g_assert_false (used[color]);
      used[color] = TRUE;
    }
  /* the same threads listed in another order: the same colours */
  for (guint i = 0; i < 23; i++)
    {
      g_autofree char *name = g_strdup_printf ("t%u", i);

      g_assert_cmpuint (color_of (b, name), ==, color_of (a, name));
    }
  /* ten threads, then a new one of the highest priority: the others keep their colours, but
   * at most one whose colour it chose */
  ten = capture_of_threads (10, NULL);
  eleven = capture_of_threads (11, reversed + 13); /* t10 to t0 */
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *name = g_strdup_printf ("t%u", i);

      n_moved += color_of (eleven, name) != color_of (ten, name);
    }
  g_test_message ("%u of 10 threads took another colour beside a new one", n_moved);
  g_assert_cmpuint (n_moved, <=, 1);
  g_assert_cmpuint (color_of (a, "idle"), ==, TKS_THREAD_COLOR_IDLE);
  g_assert_false (used[color_of (a, "job")]);
  for (guint t = 0; t < tks_capture_get_n_threads (a); t++)
    if (g_strcmp0 (tks_capture_get_thread (a, t)->name, "job") == 0)
      {
        g_assert_cmpuint (tks_capture_get_thread (a, t)->color, ==, color_of (a, "job"));
        n_jobs++;
      }
  g_assert_cmpuint (n_jobs, ==, 2);
}

/* A threads_dump reply kept from its first line on, without the command before it (pasted
 * from a terminal): read as the dump it is, the same capture as with its command. */
static void
test_bare_dump (void)
{
  g_autofree char *text = tks_test_data_contents ("simboard-dump.raw.txt", NULL);
  const char *bare = strstr (text, "Dump version:");
  g_autoptr(TksCapture) whole = tks_test_capture_of_text (text, -1);
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (bare);
  capture = tks_capture_new_from_data (bare, strlen (bare), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tks_capture_get_n_records (capture), ==, tks_capture_get_n_records (whole));
  g_assert_cmpuint (tks_capture_get_n_threads (capture), ==, tks_capture_get_n_threads (whole));
  g_assert_cmpfloat (tks_capture_get_end (capture), ==, tks_capture_get_end (whole));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/capture/real/load-cleanly", test_real_captures_load_cleanly);
  g_test_add_func ("/capture/real/matches-original-viewer", test_matches_original);
  g_test_add_func ("/capture/real/runs-sane", test_runs_are_sane);
  g_test_add_func ("/capture/real/runs-touch", test_runs_touch);
  g_test_add_func ("/capture/real/lanes-by-priority", test_lanes_by_priority);
  g_test_add_func ("/capture/real/trigger-and-exits", test_trigger_and_exits);
  g_test_add_func ("/capture/real/tick-wrap", test_tick_wrap);
  g_test_add_func ("/capture/real/partly-logged", test_partly_logged);
  g_test_add_func ("/capture/rules/subtick-placement", test_subtick_placement);
  g_test_add_func ("/capture/rules/assumed-start", test_assumed_start_at_zero);
  g_test_add_func ("/capture/rules/running-at-start", test_running_at_start);
  g_test_add_func ("/capture/rules/renumbering", test_renumbering_after_exit);
  g_test_add_func ("/capture/rules/unlogged-marks", test_unlogged_marks);
  g_test_add_func ("/capture/hazards/unlisted-thread", test_unlisted_thread);
  g_test_add_func ("/capture/hazards/exit-unknown-to-list", test_exit_unknown_to_list);
  g_test_add_func ("/capture/hazards/unlisted-and-zero", test_unlisted_threads_and_zero);
  g_test_add_func ("/capture/hazards/stale-deleted-history", test_stale_deleted_history);
  g_test_add_func ("/capture/hazards/garbled-lines", test_garbled_lines);
  g_test_add_func ("/capture/hazards/garbled-ticks-taken-back", test_garbled_ticks_taken_back);
  g_test_add_func ("/capture/hazards/trigger-epoch", test_trigger_epoch);
  g_test_add_func ("/capture/hazards/kept-records-stable", test_kept_records_are_stable);
  g_test_add_func ("/capture/input/bad", test_bad_inputs);
  g_test_add_func ("/capture/input/empty-log", test_empty_log);
  g_test_add_func ("/capture/input/replies", test_replies);
  g_test_add_func ("/capture/input/dump", test_dump);
  g_test_add_func ("/capture/input/chunked", test_chunked_reads_agree);
  g_test_add_func ("/capture/input/async", test_async_load);
  g_test_add_func ("/capture/input/long-lines", test_long_lines);
  g_test_add_data_func ("/capture/input/endless/zero", "/dev/zero", test_endless_input);
  g_test_add_data_func ("/capture/input/endless/urandom", "/dev/urandom", test_endless_input);
  g_test_add_func ("/capture/input/endless/blank-log-lines", test_endless_blank_log_lines);
  g_test_add_func ("/capture/input/insane-tick-rate", test_insane_tick_rate);
  g_test_add_func ("/capture/file/original-round-trip", test_original_file_round_trip);
  g_test_add_func ("/capture/file/transcript-round-trip", test_transcript_to_file);
  g_test_add_func ("/capture/file/saved-view-lanes", test_saved_view_lanes);
  g_test_add_func ("/capture/log-end/lone-exits", test_log_end_lone_exits);
  g_test_add_func ("/capture/log-end/running-thread-exits", test_log_end_running_thread_exits);
  g_test_add_func ("/capture/log-end/at-capture-end", test_log_end_at_capture_end);
  g_test_add_func ("/capture/board-counters", test_board_counters);
  g_test_add_func ("/capture/dropped-since", test_dropped_since);
  g_test_add_func ("/capture/hole-in-log", test_hole_in_log);
  g_test_add_func ("/capture/wide-tick-garbled", test_wide_tick_garbled);
  g_test_add_func ("/capture/hole-after-counter-wrap", test_hole_after_counter_wrap);
  g_test_add_func ("/capture/hole-lines-hostile", test_hole_lines_hostile);
  g_test_add_func ("/capture/hole-between-equal-switches", test_hole_between_equal_switches);
  g_test_add_func ("/capture/holes-at-log-ends", test_holes_at_log_ends);
  g_test_add_func ("/capture/long-hole-wraps", test_long_hole_wraps);
  g_test_add_func ("/capture/record-lines-mixed-ends", test_record_lines_mixed_ends);
  g_test_add_func ("/capture/exited-before-log", test_exited_before_log_real);
  g_test_add_func ("/capture/forgotten-exits-shown", test_forgotten_exits_shown);
  g_test_add_func ("/capture/file/atomic-save", test_atomic_save);
  g_test_add_func ("/capture/lookups", test_lookups);
  g_test_add_func ("/capture/thread-busy", test_thread_busy);
  g_test_add_func ("/capture/file/async-errors", test_async_load_errors);
  g_test_add_func ("/capture/tick-bits-16", test_tick_bits_16);
  g_test_add_func ("/capture/tick-bits-16-beats", test_tick_bits_16_beats);
  g_test_add_func ("/capture/beat-behind-records", test_beat_behind_records);
  g_test_add_func ("/capture/thread-colors", test_thread_colors);
  g_test_add_func ("/capture/bare-dump", test_bare_dump);

  return g_test_run ();
}
