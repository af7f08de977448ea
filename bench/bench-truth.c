/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Tickscope and the original viewer against the ground truth, on the simulated board behaving
 * like the original threads_utilities library (--legacy-defects). For each hazard, over many
 * seeds: the board runs, a client reads threads_list and threads_timestamps as the original
 * viewer does, and the runs each reading draws are scored against what the board's scheduler
 * really did (tests/tks-truth-check.h): how many are right, tick for tick, on the right
 * thread. The original viewer's reading is the model in tests/tks-legacy-viewer.h.
 *
 * Run: meson compile -C BUILD bench-truth && BUILD/bench/bench-truth [SEEDS]
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "tks-simboard.h"
#include "tks-legacy-viewer.h"
#include "tks-truth-check.h"

typedef struct
{
  const char *hazard;
  guint       tick_hz;
  guint64     ticks;        /* before the list is read */
  guint64     trigger_at;   /* 0: no trigger; else threads_timestamps_trigger at this tick */
  guint64     apart;        /* ticks between threads_list and threads_timestamps */
  gboolean    mcu_lib;      /* the product library instead of the original's defects */
} Scenario;

static const Scenario scenarios[] = {
  { "1. History lists a thread gone before the log", 1000, 2500, 0, 0, FALSE },
  { "2. History full (64), the log holds a few exits", 1000, 40000, 0, 0, FALSE },
  { "3. Exits recorded after the trigger froze the log", 1000, 30000, 5000, 0, FALSE },
  { "4. List and log read 600 ticks apart", 1000, 3000, 0, 600, FALSE },
  { "5. Tick wrap (20-bit tick at 100 kHz)", 100000, 1048576 + 600, 0, 0, FALSE },
  { "6. Rows 1 to 4 on this project's board library", 1000, 0, 0, 0, TRUE },
};

typedef struct
{
  guint truth_runs;
  guint tickscope_right;
  guint tickscope_wrong_named;
  guint tickscope_past_end;
  guint original_right;
  guint original_stopped;
  guint readings;
} Totals;

static void
score_reading (const Truth *truth, const TksTruthEvent *running, const char *list,
               const char *log, guint64 now, Totals *totals)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autofree char *transcript = NULL;
  g_autoptr(GPtrArray) legacy = NULL;
  gint64 first = 0, last = 0;
  guint32 first_raw = 0;
  gboolean failed;
  TruthScore mine = { 0 }, original = { 0 };

  if (!truth_log_window (log, now, TRUTH_TICK_PERIOD, &first, &last, &first_raw))
    return;
  totals->readings++;

  capture = tks_capture_new_from_replies (list, strlen (list), log, strlen (log), &error);
  if (capture != NULL)
    {
      g_autoptr(GArray) read = read_runs_of_capture (capture, first);
      /* Where the last run is drawn to: the log's end (after its last switch). */
      double end = tks_capture_get_log_end (capture, NULL) +
                   (double) (first - (gint64) floor (tks_capture_get_start (capture)));

      truth_score (truth, running, read, first, last, &mine);
      if (g_getenv ("BENCH_TRUTH_VERBOSE") != NULL && mine.errors != NULL)
        g_printerr ("Tickscope, window %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT ":\n%s", first, last,
                    mine.errors->str);
      /* Past the log when it is drawn beyond the last record's tick (lone exits follow). */
      if (end > (double) last + 1.0)
        for (guint i = 0; i < read->len; i++)
          totals->tickscope_past_end += g_array_index (read, ReadRun, i).open_end;
    }

  transcript = g_strdup_printf ("threads_list\r\n%sch> threads_timestamps\r\n%sch> ", list, log);
  legacy = legacy_viewer_rebuild (transcript, &failed);
  if (legacy != NULL)
    {
      g_autoptr(GArray) read = read_runs_of_legacy (legacy, first, first_raw);

      truth_score (truth, running, read, first, last, &original);
      if (g_getenv ("BENCH_TRUTH_VERBOSE") != NULL && original.errors != NULL)
        g_printerr ("Original, window %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT ":\n%s", first, last,
                    original.errors->str);
    }
  else
    {
      TruthScore none = { 0 };

      /* Stopped on the input: nothing drawn. */
      truth_score (truth, running, g_array_new (FALSE, FALSE, sizeof (ReadRun)), first, last, &none);
      original.truth_runs = none.truth_runs;
      totals->original_stopped++;
      truth_score_clear (&none);
    }

  totals->truth_runs += mine.truth_runs - mine.edge_missing;
  totals->tickscope_right += mine.right;
  totals->tickscope_wrong_named += mine.wrong_named;
  totals->original_right += original.right;
  truth_score_clear (&mine);
  truth_score_clear (&original);
}

static void
run_scenario (const Scenario *sc, guint32 seed, Totals *totals)
{
  TksSimboardOptions opts;
  TksSimboardState *board;
  g_autoptr(Truth) truth = truth_new ();
  g_autofree char *list = NULL;
  g_autofree char *log = NULL;
  TksTruthEvent running;

  tks_simboard_options_init (&opts);
  opts.seed = seed;
  opts.tick_hz = sc->tick_hz;
  opts.legacy_defects = !sc->mcu_lib;
  opts.events = FALSE;   /* dump version 1 */
  if (!tks_simboard_state_acquire (NULL))
    g_error ("cannot run a board");
  board = tks_simboard_state_new_traced (&opts, truth_collect, truth);
  if (sc->trigger_at > 0)
    {
      tks_simboard_state_advance (board, sc->trigger_at);
      g_free (tks_simboard_state_run_command (board, "threads_timestamps_trigger"));
    }
  tks_simboard_state_advance (board, sc->ticks - sc->trigger_at);
  truth_forget_before (truth, (double) tks_simboard_state_get_tick (board) - 70000.0);
  list = tks_simboard_state_run_command (board, "threads_list");
  tks_simboard_state_advance (board, sc->apart);
  log = tks_simboard_state_run_command (board, "threads_timestamps");
  tks_simboard_state_get_truth_running (board, &running);
  score_reading (truth, &running, list, log, tks_simboard_state_get_tick (board), totals);
  tks_simboard_state_free (board);
  tks_simboard_state_release ();
}

static void
print_row (const char *hazard, const Totals *t)
{
  g_print ("| %-52s | %7u | %7.1f %% | %10u | %6.1f %% | %3u of %-3u |\n", hazard, t->truth_runs,
           t->truth_runs ? 100.0 * t->tickscope_right / t->truth_runs : 0.0,
           t->tickscope_wrong_named,
           t->truth_runs ? 100.0 * t->original_right / t->truth_runs : 0.0,
           t->original_stopped, t->readings);
}

int
main (int argc, char *argv[])
{
  guint seeds = argc > 1 ? (guint) atoi (argv[1]) : 20;

  g_print ("Runs of the logged threads inside the log's window, read as threads_list then\n"
           "threads_timestamps, %u seeds per row. Right: on the right thread (name, priority,\n"
           "creation order), from the same tick to the same tick as the scheduler ran it.\n"
           "Wrong name: runs Tickscope shows on another named thread. Stops: readings the\n"
           "original viewer gives up on (IndexError), nothing drawn.\n\n", seeds);
  g_print ("| %-52s | %7s | %9s | %10s | %8s | %10s |\n", "Hazard (tickscope-simboard --legacy-defects)",
           "Runs", "Tickscope", "Wrong name", "Original", "Stops");
  g_print ("|%s|%s|%s|%s|%s|%s|\n", "------------------------------------------------------",
           "---------", "-----------", "------------", "----------", "------------");
  for (guint s = 0; s < G_N_ELEMENTS (scenarios); s++)
    {
      Totals totals = { 0 };

      if (scenarios[s].mcu_lib)
        {
          /* The four hazards again, on the board library of this project. */
          for (guint h = 0; h < 4; h++)
            {
              Scenario sc = scenarios[h];

              sc.mcu_lib = TRUE;
              if (g_getenv ("BENCH_TRUTH_VERBOSE") != NULL)
                g_printerr ("On this project's board library: %s\n", sc.hazard);
              for (guint32 seed = 1; seed <= seeds; seed++)
                run_scenario (&sc, seed, &totals);
            }
        }
      else
        for (guint32 seed = 1; seed <= seeds; seed++)
          run_scenario (&scenarios[s], seed, &totals);
      print_row (scenarios[s].hazard, &totals);
      if (totals.tickscope_past_end > 0)
        g_print ("| %-52s | %7s | %9u | %10s | %8s | %10s |\n", "   readings drawn by Tickscope past the log's end",
                 "", totals.tickscope_past_end, "", "", "");
    }
  return 0;
}
