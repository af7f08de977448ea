/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Rebuilt timelines against the ground truth: the simulated board reports what its scheduler
 * really did, and the runs Tickscope rebuilds from what the board sent (a threads_dump reply,
 * and the legacy threads_list + threads_timestamps pair) must be the same, tick for tick, on
 * the right threads, in the right order within each tick (tks-truth-check.h). Over many seeds,
 * log sizes, tick rates and durations: tick wrap, log wrap, many exits, a full deleted
 * history, more than 63 live threads, triggers, run mode, fetches right after exits.
 */
#include "config.h"

#include <signal.h>

#include <gio/gio.h>

#include "tks-simboard.h"
#include "tks-truth-check.h"

typedef struct
{
  const char *what;
  guint32     seed;
  guint       tick_hz;
  guint       log_size;
  guint       workers;
  guint64     ticks;        /* before the first fetch */
  guint       n_fetches;
  guint64     gap;          /* ticks between fetches */
  gboolean    at_exit;      /* fetch in the tick a thread exits */
  gboolean    trigger;      /* threads_timestamps_trigger after @ticks, then @gap ticks */
  gboolean    run_mode;     /* threads_timestamps_run before every fetch after the first */
} TruthCase;

typedef struct
{
  guint fetches;
  guint runs;
  guint exits_in_window;
  gboolean wrapped;
  gboolean frozen;
  gboolean many_threads;
} CaseStats;

static void
assert_score (const TruthCase *c, const char *how, TruthScore *score)
{
  if (score->wrong_thread + score->wrong_ticks + score->spurious + score->order_errors != 0
      || score->right + score->edge_missing != score->truth_runs || score->right == 0)
    {
      g_test_message ("%s (seed %u, %u Hz, log %u, %u workers), %s: %u truth runs, %u right, "
                      "%u wrong thread, %u wrong ticks, %u spurious, %u edge, %u order errors\n%s",
                      c->what, c->seed, c->tick_hz, c->log_size, c->workers, how,
                      score->truth_runs, score->right, score->wrong_thread, score->wrong_ticks,
                      score->spurious, score->edge_missing, score->order_errors,
                      score->errors != NULL ? score->errors->str : "");
      g_test_fail ();
    }
}

/* Reads the board as a client would, both ways, and checks both readings. */
static void
check_fetch (const TruthCase *c, TksSimboardState *board, Truth *truth, CaseStats *stats)
{
  TksTruthEvent running;
  guint64 now = tks_simboard_state_get_tick (board);
  g_autofree char *dump = tks_simboard_state_run_command (board, "threads_dump");
  g_autofree char *list = tks_simboard_state_run_command (board, "threads_list");
  g_autofree char *log = tks_simboard_state_run_command (board, "threads_timestamps");
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) from_dump = NULL;
  g_autoptr(TksCapture) from_pair = NULL;
  gint64 first = 0, last = 0;
  guint32 first_raw = 0;

  tks_simboard_state_get_truth_running (board, &running);
  g_assert_true (truth_log_window (log, now, &first, &last, &first_raw));
  stats->fetches++;
  stats->wrapped |= last / TRUTH_TICK_PERIOD != first / TRUTH_TICK_PERIOD;
  stats->frozen |= strstr (dump, "Mode: frozen") != NULL;
  stats->many_threads |= truth->live_numbered >= TRUTH_MAX_NUMBERED;
  {
    g_auto(GStrv) lines = g_strsplit (log, "\n", -1);

    for (guint i = 0; lines[i] != NULL; i++)
      {
        int out, in, tick;

        if (sscanf (lines[i], "From %d to %d at %d", &out, &in, &tick) == 3 && out == in)
          stats->exits_in_window++;
      }
  }

  from_dump = tks_capture_new_from_dump (dump, strlen (dump), &error);
  g_assert_no_error (error);
  g_assert_null (tks_capture_get_damage (from_dump));
  from_pair = tks_capture_new_from_replies (list, strlen (list), log, strlen (log), &error);
  g_assert_no_error (error);

  for (guint way = 0; way < 2; way++)
    {
      TksCapture *capture = way == 0 ? from_dump : from_pair;
      g_autoptr(GArray) read = read_runs_of_capture (capture, first);
      TruthScore score = { 0 };

      truth_score (truth, &running, read, first, last, &score);
      assert_score (c, way == 0 ? "threads_dump" : "threads_list + threads_timestamps", &score);
      stats->runs += score.right;
      truth_score_clear (&score);
    }
}

static void
advance_to_exit (TksSimboardState *board, Truth *truth, guint64 limit)
{
  guint exits = truth->n_exits;

  for (guint64 t = 0; t < limit; t++)
    {
      tks_simboard_state_advance (board, 1);
      if (truth->n_exits != exits)
        return;
    }
}

static void
run_case (const TruthCase *c, CaseStats *stats)
{
  TksSimboardOptions opts;
  TksSimboardState *board;
  g_autoptr(Truth) truth = truth_new ();

  tks_simboard_options_init (&opts);
  opts.seed = c->seed;
  opts.tick_hz = c->tick_hz;
  opts.log_size = c->log_size;
  opts.workers = c->workers;
  g_assert_true (tks_simboard_options_check (&opts, NULL));
  g_assert_true (tks_simboard_state_acquire (NULL));
  board = tks_simboard_state_new_traced (&opts, truth_collect, truth);

  tks_simboard_state_advance (board, c->ticks);
  if (c->trigger)
    {
      g_autofree char *reply = tks_simboard_state_run_command (board, "threads_timestamps_trigger");

      g_assert_true (g_str_has_prefix (reply, "Trigger set by "));
      tks_simboard_state_advance (board, c->gap);
    }
  for (guint f = 0; f < c->n_fetches; f++)
    {
      if (f > 0)
        {
          if (c->run_mode)
            g_free (tks_simboard_state_run_command (board, "threads_timestamps_run"));
          tks_simboard_state_advance (board, c->gap);
        }
      if (c->at_exit)
        advance_to_exit (board, truth, 20 * c->tick_hz);
      check_fetch (c, board, truth, stats);
      /* Older runs cannot be in a later log: bounded memory over long cases. */
      truth_forget_before (truth, (double) tks_simboard_state_get_tick (board) - 70000.0);
    }
  tks_simboard_state_free (board);
  tks_simboard_state_release ();
}

/* Hand-picked cases, one per hazard. */
static const TruthCase fixed_cases[] = {
  { "boot, the log not yet full", 1, 1000, 3000, 0, 300, 1, 0, FALSE, FALSE, FALSE },
  { "log wrap", 2, 1000, 3000, 0, 4000, 3, 1500, FALSE, FALSE, FALSE },
  { "small log", 3, 1000, 16, 0, 2000, 4, 333, FALSE, FALSE, FALSE },
  { "fetches in the tick a thread exits", 4, 1000, 2000, 0, 1000, 6, 50, TRUE, FALSE, FALSE },
  { "many exits, full deleted history", 5, 1000, 65536, 0, 30000, 2, 3000, FALSE, FALSE, FALSE },
  { "trigger from the shell", 6, 1000, 3000, 0, 3000, 2, 2500, FALSE, TRUE, FALSE },
  { "trigger before the log is half full", 7, 1000, 3000, 0, 100, 1, 3000, FALSE, TRUE, FALSE },
  { "trigger from code", 8, 100, 3000, 0, 6000, 2, 500, FALSE, FALSE, FALSE },
  { "run mode between fetches", 9, 1000, 3000, 0, 3000, 3, 700, FALSE, TRUE, TRUE },
  { "more than 63 live threads", 10, 1000, 3000, 70, 2000, 2, 900, FALSE, FALSE, FALSE },
  { "numbers running out, exits", 11, 1000, 4000, 49, 3000, 4, 400, TRUE, FALSE, FALSE },
  { "tick wrap at 100 kHz", 12, 100000, 3000, 0, 1048576 - 300, 3, 250, FALSE, FALSE, FALSE },
};

static void
test_fixed (gconstpointer data)
{
  const TruthCase *c = data;
  CaseStats stats = { 0 };

  run_case (c, &stats);
  g_test_message ("%s: %u fetches, %u runs right, %u exits in the logs%s%s%s", c->what,
                  stats.fetches, stats.runs, stats.exits_in_window,
                  stats.wrapped ? ", tick wrapped" : "", stats.frozen ? ", frozen" : "",
                  stats.many_threads ? ", 63 numbered" : "");
  g_assert_cmpuint (stats.runs, >, 0);
  if (strstr (c->what, "tick wrap") != NULL)
    g_assert_true (stats.wrapped);
  if (strstr (c->what, "exit") != NULL)
    g_assert_cmpuint (stats.exits_in_window, >, 0);
  if (strstr (c->what, "trigger") != NULL)
    g_assert_true (stats.frozen);
  if (strstr (c->what, "63") != NULL)
    g_assert_true (stats.many_threads);
}

/* Random cases: seeds, tick rates, log sizes, durations, workers, triggers and fetch moments
 * drawn from the test's random seed (g_test prints it; --seed replays it). 40 cases, or
 * $TKS_TRUTH_CASES for a longer search. */
static void
test_random (void)
{
  static const guint rates[] = { 100, 1000, 1000, 10000, 100000 };
  static const guint sizes[] = { 16, 64, 500, 3000, 3000, 12000 };
  const char *env = g_getenv ("TKS_TRUTH_CASES");
  guint n_cases = env != NULL ? (guint) g_ascii_strtoull (env, NULL, 10) : 40;
  CaseStats stats = { 0 };

  for (guint n = 0; n < n_cases; n++)
    {
      TruthCase c = { "random", g_test_rand_int (), 1000, 3000, 0, 0, 1, 0, FALSE, FALSE, FALSE };

      c.tick_hz = rates[g_test_rand_int_range (0, G_N_ELEMENTS (rates))];
      c.log_size = sizes[g_test_rand_int_range (0, G_N_ELEMENTS (sizes))];
      c.workers = g_test_rand_int_range (0, 4) == 0 ? (guint) g_test_rand_int_range (1, 80) : 0;
      c.ticks = (guint64) g_test_rand_int_range (1, 6000);
      c.n_fetches = (guint) g_test_rand_int_range (1, 4);
      c.gap = (guint64) g_test_rand_int_range (1, 2000);
      c.at_exit = g_test_rand_bit ();
      c.trigger = c.workers == 0 && g_test_rand_int_range (0, 3) == 0;
      c.run_mode = c.trigger && g_test_rand_bit ();
      run_case (&c, &stats);
      if (g_test_failed ())
        {
          g_test_message ("failing case: seed %u, %u Hz, log %u, %u workers, %" G_GUINT64_FORMAT
                          " ticks, %u fetches %" G_GUINT64_FORMAT " apart%s%s%s", c.seed,
                          c.tick_hz, c.log_size, c.workers, c.ticks, c.n_fetches, c.gap,
                          c.at_exit ? ", at exits" : "", c.trigger ? ", trigger" : "",
                          c.run_mode ? ", run mode" : "");
          return;
        }
    }
  g_test_message ("%u fetches, %u runs right, %u exits in the logs", stats.fetches, stats.runs,
                  stats.exits_in_window);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (fixed_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/truth/case/%02u", i + 1);

      g_test_add_data_func (path, &fixed_cases[i], test_fixed);
    }
  g_test_add_func ("/truth/random", test_random);
  return g_test_run ();
}
