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

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>

#include <glib/gstdio.h>

#include <gio/gio.h>

#include "tks-simboard.h"
#include "tks-test-port.h"
#include "tks-test-wait.h"
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
  guint       systime_bits; /* the kernel's system time: 16 bits, else (0) 32 */
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
      || score->right + score->edge_missing != score->truth_runs)
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

/* Reads the board as a client would, both ways, and checks both readings. A board whose system
 * time has 16 bits is read by its dump and its compact dump (the legacy replies do not say how
 * wide their ticks are: a reader takes them for 20-bit ones). */
static void
check_fetch (const TruthCase *c, TksSimboardState *board, Truth *truth, CaseStats *stats)
{
  TksTruthEvent running;
  guint64 now = tks_simboard_state_get_tick (board);
  gboolean narrow = c->systime_bits == 16;
  gint64 period = narrow ? TRUTH_TICK_PERIOD16 : TRUTH_TICK_PERIOD;
  g_autofree char *dump = tks_simboard_state_run_command (board, "threads_dump");
  g_autofree char *list = tks_simboard_state_run_command (board, "threads_list");
  g_autofree char *log = tks_simboard_state_run_command (board, "threads_timestamps");
  g_autofree char *compact = narrow ? tks_simboard_state_run_command (board, "threads_dump_compact")
                                    : NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) from_dump = NULL;
  g_autoptr(TksCapture) from_pair = NULL;
  gint64 first = 0, last = 0;
  guint32 first_raw = 0;

  tks_simboard_state_get_truth_running (board, &running);
  g_assert_true (truth_log_window (log, now, period, &first, &last, &first_raw));
  stats->fetches++;
  stats->wrapped |= last / period != first / period;
  stats->frozen |= strstr (dump, "Mode: frozen") != NULL;
  {
    guint live = 0;

    for (guint t = 0; t < truth->threads->len; t++)
      live += !g_array_index (truth->threads, TruthThread, t).exited;
    stats->many_threads |= live > TRUTH_MAX_NUMBERED;
  }
  stats->exits_in_window += truth_count_exits (log);

  from_dump = tks_capture_new_from_dump (dump, strlen (dump), &error);
  g_assert_no_error (error);
  g_assert_null (tks_capture_get_damage (from_dump));
  if (narrow)
    {
      g_assert_nonnull (strstr (dump, "Tick bits: 16\r\n"));
      /* (a compact dump printed in the same tick: the same log) */
      from_pair = tks_capture_new_from_dump (compact, strlen (compact), &error);
      g_assert_no_error (error);
      g_assert_null (tks_capture_get_damage (from_pair));
    }
  else
    from_pair = tks_capture_new_from_replies (list, strlen (list), log, strlen (log), &error);
  g_assert_no_error (error);

  for (guint way = 0; way < 2; way++)
    {
      TksCapture *capture = way == 0 ? from_dump : from_pair;
      g_autoptr(GArray) read = read_runs_of_capture (capture, first);
      TruthScore score = { 0 };

      /* The dump names the exited dynamic threads; the legacy list calls them "Exited dynamic
       * thread", as the original library does. */
      score.names_kept = way == 0;
      truth_score (truth, &running, read, first, last, &score);
      assert_score (c, way == 0 ? "threads_dump" : narrow ? "threads_dump_compact"
                                                          : "threads_list + threads_timestamps",
                    &score);
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
  opts.events = FALSE;   /* dump version 1: the switches at tick resolution */
  opts.seed = c->seed;
  opts.tick_hz = c->tick_hz;
  opts.log_size = c->log_size;
  opts.workers = c->workers;
  opts.systime_bits = c->systime_bits != 0 ? c->systime_bits : 32;
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
  /* A kernel with a 16-bit system time at 10 kHz: the tick wraps every 6.5 s, and fetches
   * 4 s apart are each more than half a wrap from the one before. */
  { "tick wrap, 16-bit system time", 13, 10000, 3000, 0, 65536 + 300, 4, 40000, FALSE, FALSE,
    FALSE, 16 },
  { "tick wrap, 16-bit system time, trigger", 14, 10000, 3000, 0, 3 * 65536 - 100, 3, 1200,
    FALSE, TRUE, FALSE, 16 },
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
                  stats.many_threads ? ", more than 63 alive" : "");
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

/* A recording (threads_record) of a board whose system time has 16 (or 32) bits, at 10 kHz,
 * over two and a half wraps of a 16-bit tick: every run the stream carried is rebuilt on its
 * thread at its ticks. (Within a tick, a recording places some switches around an exit the
 * board wrote after them at the same place: counted, and as many with either width.) */
static void
test_recording_systime (gconstpointer data)
{
  guint bits = GPOINTER_TO_UINT (data);
  TruthCase c = { "recording", 15, 10000, 3000, 0, 0, 1, 0, FALSE, FALSE, FALSE, bits };
  TksSimboardOptions opts;
  TksSimboardState *board;
  g_autoptr(Truth) truth = truth_new ();
  g_autofree char *stream = NULL, *text = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GArray) read = NULL;
  TksTruthEvent running;
  TruthScore score = { 0 };
  guint64 began;
  gint64 first, last, start;
  guint n_warnings = 0;

  tks_simboard_options_init (&opts);
  opts.events = FALSE;
  opts.seed = c.seed;
  opts.tick_hz = c.tick_hz;
  opts.log_size = c.log_size;
  opts.systime_bits = bits;
  g_assert_true (tks_simboard_options_check (&opts, NULL));
  g_assert_true (tks_simboard_state_acquire (NULL));
  board = tks_simboard_state_new_traced (&opts, truth_collect, truth);
  tks_simboard_state_advance (board, 65536 - 5000);
  began = tks_simboard_state_get_tick (board);
  /* polled every 5 ms, as a board's shell thread does */
  stream = tks_simboard_state_record (board, FALSE, 2 * 65536 + 32768, 50);
  tks_simboard_state_get_truth_running (board, &running);
  g_assert_nonnull (strstr (stream, bits == 16 ? "Tick bits: 16\r\n" : "Tick bits: 20\r\n"));
  g_assert_null (strstr (stream, "Lost:"));
  text = g_strconcat ("threads_record\r\n", stream, "ch> ", NULL);
  capture = tks_capture_new_from_data (text, strlen (text), NULL);
  g_assert_nonnull (capture);
  g_assert_null (tks_capture_get_damage (capture));
  tks_capture_get_warnings (capture, &n_warnings);
  g_assert_cmpuint (n_warnings, ==, 0);

  /* The first switch's tick: its low bits, at or after the recording began. */
  start = (gint64) tks_capture_get_start (capture);
  first = (gint64) began - (gint64) (began % (bits == 16 ? 65536 : 1048576)) + start;
  if (first < (gint64) began)
    first += bits == 16 ? 65536 : 1048576;
  last = first + (gint64) tks_capture_get_end (capture) - 1 - start;
  g_test_message ("recording of ticks %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT ", %u records",
                  first, last, tks_capture_get_n_records (capture));
  g_assert_cmpint (last - first, >, 2 * 65536);

  read = read_runs_of_capture (capture, first);
  truth_score (truth, &running, read, first, last, &score);
  g_test_message ("%u truth runs, %u right, %u at the edges, %u placed out of order within "
                  "their tick", score.truth_runs, score.right, score.edge_missing,
                  score.order_errors);
  g_assert_cmpuint (score.wrong_thread, ==, 0);
  g_assert_cmpuint (score.wrong_ticks, ==, 0);
  g_assert_cmpuint (score.spurious, ==, 0);
  g_assert_cmpuint (score.right + score.edge_missing, ==, score.truth_runs);
  g_assert_cmpuint (score.right, >, 100000);
  truth_score_clear (&score);
  tks_simboard_state_free (board);
  tks_simboard_state_release ();
}

/* A threads_dump printed while the board runs (a tick every line): threads exit and are
 * created while the library prints; the dump is the board at the moment it began. The
 * library drops the switches while it prints, so the next log has a hole there: the next dump
 * says where ("Paused:"), and outside the hole that log is the truth too. */
static void
test_fetch_while_printing (void)
{
  guint exits_during = 0, fetches = 0, n_holes = 0;

  for (guint32 seed = 1; seed <= 30; seed++)
    {
      TruthCase c = { "fetch while printing", seed, 1000, 3000, 0, 0, 1, 0, FALSE, FALSE, FALSE };
      TksSimboardOptions opts;
      TksSimboardState *board;
      g_autoptr(Truth) truth = truth_new ();

      tks_simboard_options_init (&opts);
      opts.events = FALSE;
      opts.seed = seed;
      g_assert_true (tks_simboard_state_acquire (NULL));
      board = tks_simboard_state_new_traced (&opts, truth_collect, truth);
      tks_simboard_state_advance (board, 1000 + 97 * seed);
      /* The second fetch's log holds the hole the first one's printing left. */
      for (guint fetch = 0; fetch < 2; fetch++)
        {
          TksTruthEvent running;
          guint64 now = tks_simboard_state_get_tick (board);
          guint exits = truth->n_exits;
          g_autofree char *dump = NULL;
          g_autoptr(GError) error = NULL;
          g_autoptr(TksCapture) capture = NULL;
          g_autoptr(GArray) read = NULL;
          g_autoptr(GArray) holes = NULL;
          g_autoptr(Truth) outside = NULL;
          TruthScore score = { .names_kept = TRUE };
          gint64 first = 0, last = 0;
          guint32 first_raw = 0;
          const TksGap *gaps;
          guint n_gaps;

          tks_simboard_state_get_truth_running (board, &running);
          dump = tks_simboard_state_run_command_slowly (board, "threads_dump", 1);
          g_assert_cmpuint (tks_simboard_state_get_tick (board), >, now + 500);
          exits_during += truth->n_exits - exits;
          fetches++;
          g_assert_true (truth_log_window (dump, now, TRUTH_TICK_PERIOD, &first, &last, &first_raw));
          capture = tks_capture_new_from_dump (dump, strlen (dump), &error);
          g_assert_no_error (error);
          g_assert_null (tks_capture_get_damage (capture));

          /* The board says where its log has holes, and the capture has them there. */
          holes = truth_holes (dump);
          g_assert_cmpuint (holes->len, ==, fetch);
          gaps = tks_capture_get_gaps (capture, &n_gaps);
          g_assert_cmpuint (n_gaps, ==, holes->len);
          for (guint h = 0; h < holes->len; h++)
            {
              gint64 offset = first - (gint64) floor (tks_capture_get_start (capture));

              g_assert_cmpint ((gint64) floor (gaps[h].begin) + offset, ==,
                               g_array_index (holes, TruthHole, h).begin);
              g_assert_cmpint ((gint64) floor (gaps[h].end) + offset, ==,
                               g_array_index (holes, TruthHole, h).end);
              g_assert_cmpuint (gaps[h].dropped, >, 0);
              n_holes++;
            }

          /* Every run open at a hole's begin ends there: none is drawn across one. */
          for (guint t = 0; t < tks_capture_get_n_threads (capture); t++)
            {
              const TksThread *th = tks_capture_get_thread (capture, t);

              for (guint r = 0; r < th->n_runs; r++)
                for (guint h = 0; h < n_gaps; h++)
                  g_assert_false (th->runs[r].begin < gaps[h].end &&
                                  th->runs[r].end > gaps[h].begin);
            }
          read = read_runs_of_capture (capture, first);
          truth_cut_read (read, holes);
          outside = truth_cut_holes (truth, holes, &running);
          truth_score (outside, &running, read, first, last, &score);
          assert_score (&c, fetch == 0 ? "threads_dump printed while the board runs"
                                       : "the next threads_dump, outside the hole", &score);
          truth_score_clear (&score);
          tks_simboard_state_advance (board, 20 + seed);
        }
      tks_simboard_state_free (board);
      tks_simboard_state_release ();
    }
  g_test_message ("%u fetches, %u exits while the dump was printed, %u holes", fetches,
                  exits_during, n_holes);
  g_assert_cmpuint (exits_during, >, 10);
}

/* ------------------------------------------------------------------------------------------ */
/* The board behaving like the original library (--legacy-defects). */

static TksSimboardState *
legacy_board (Truth *truth)
{
  TksSimboardOptions opts;

  tks_simboard_options_init (&opts);
  opts.legacy_defects = TRUE;
  g_assert_true (tks_simboard_state_acquire (NULL));
  return tks_simboard_state_new_traced (&opts, truth_collect, truth);
}

/* Each line of @reply is a line the original library prints, as in a real board's capture. */
static guint
assert_legacy_lines (const char *reply, GRegex *line_re)
{
  g_auto(GStrv) lines = truth_lines (reply, FALSE);
  guint n = 0;

  /* Every line ends in CRLF. */
  for (const char *p = reply; *p != '\0'; p++)
    g_assert_true (*p != '\n' || (p > reply && p[-1] == '\r'));
  g_assert_true (*reply == '\0' || g_str_has_suffix (reply, "\r\n"));

  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++, n++)
    if (!g_regex_match (line_re, lines[i], 0, NULL))
      g_error ("not a line of the original library: “%s”", lines[i]);
  return n;
}

static void
test_legacy_replies (void)
{
  g_autoptr(Truth) truth = truth_new ();
  TksSimboardState *board = legacy_board (truth);
  g_autoptr(GRegex) line_re = g_regex_new (
    "^(Thread number [ 0-9]{2} : Prio = [ 0-9]{3}, Log = (Yes| No), Name = [^\r]+"
    "|Deleted threads: |From [ 0-9]{2} to [ 0-9]{2} at [ 0-9]{7}|Triggered at [ 0-9]{7})$",
    0, 0, NULL);
  g_autofree char *help = tks_simboard_state_run_command (board, "help");
  g_autofree char *dump = tks_simboard_state_run_command (board, "threads_dump");
  g_autofree char *real = NULL;
  g_autofree char *list = NULL;
  g_autofree char *log = NULL;
  g_autofree char *trigger = NULL;
  g_autofree char *late = NULL;
  const char *deleted;
  guint n_deleted, exits = 0, lone = 0, last_switch = 0;
  g_autoptr(GArray) records = NULL;

  /* The original's commands, in its order; no threads_dump. */
  g_assert_true (g_str_has_suffix (help, " threads_list threads_timestamps "
                                   "threads_timestamps_trigger threads_timestamps_run "
                                   "threads_stat threads_uc \r\n"));
  g_assert_cmpstr (dump, ==, "threads_dump ?\r\n");
  /* The line formats are those of a real board's capture. */
  {
    g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data",
                                                   "board-trigger-exits.raw.txt", NULL);

    g_assert_true (g_file_get_contents (path, &real, NULL, NULL));
  }
  {
    g_auto(GStrv) real_lines = truth_lines (real, FALSE);
    guint matched = 0;

    for (guint i = 0; real_lines[i] != NULL; i++)
      matched += g_regex_match (line_re, real_lines[i], 0, NULL);
    g_assert_cmpuint (matched, >, 6000);
  }

  /* Long after the 64th exit: the history keeps 64 threads, whatever the log holds. */
  tks_simboard_state_advance (board, 40000);
  list = tks_simboard_state_run_command (board, "threads_list");
  log = tks_simboard_state_run_command (board, "threads_timestamps");
  assert_legacy_lines (list, line_re);
  g_assert_cmpuint (assert_legacy_lines (log, line_re), ==, 3000);
  deleted = strstr (list, "Deleted threads: \r\n");
  g_assert_nonnull (deleted);
  n_deleted = assert_legacy_lines (deleted, line_re) - 1;
  g_assert_cmpuint (n_deleted, ==, 64);
  exits = truth_count_exits (log);
  g_assert_cmpuint (exits, <, 16);
  g_assert_cmpuint (truth->n_exits, >, 100);

  /* Frozen by a trigger, the log still takes exit records: read late, it ends with them. */
  trigger = tks_simboard_state_run_command (board, "threads_timestamps_trigger");
  g_assert_true (g_str_has_prefix (trigger, "Trigger set by Shell command at   40000\r\n"));
  tks_simboard_state_advance (board, 20000);
  late = tks_simboard_state_run_command (board, "threads_timestamps");
  g_assert_true (g_str_has_prefix (late, "Triggered at   40000\r\n"));
  assert_legacy_lines (late, line_re);
  records = truth_records (late);
  for (guint i = 0; i < records->len; i++)
    {
      const TruthRecord *rec = &g_array_index (records, TruthRecord, i);

      if (rec->out != rec->in)
        {
          last_switch = (guint) rec->tick;
          lone = 0;
        }
      else if ((guint) rec->tick > last_switch + 100)
        lone++;
    }
  g_test_message ("%u lone exit records after the log froze at tick %u", lone, last_switch);
  g_assert_cmpuint (lone, >, 20);
  g_assert_cmpuint (last_switch, <, 42000);

  tks_simboard_state_free (board);
  tks_simboard_state_release ();
}

/* Read late after a trigger, the log holds more exits than the original library's history
 * remembers (it keeps the last 64, here mostly exits after the freeze). The threads whose
 * exits the history forgot must not take the names of others: they are shown as not in the
 * list, and every named run is right. */
static void
test_legacy_forgotten_exits (void)
{
  g_autoptr(Truth) truth = truth_new ();
  TksSimboardState *board = legacy_board (truth);
  g_autofree char *trigger = NULL;
  g_autofree char *list = NULL;
  g_autofree char *log = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GArray) read = NULL;
  TksTruthEvent running;
  TruthScore score = { 0 };
  gint64 first = 0, last = 0;
  guint32 first_raw = 0;

  tks_simboard_state_advance (board, 5000);
  trigger = tks_simboard_state_run_command (board, "threads_timestamps_trigger");
  tks_simboard_state_advance (board, 25000);
  list = tks_simboard_state_run_command (board, "threads_list");
  log = tks_simboard_state_run_command (board, "threads_timestamps");
  tks_simboard_state_get_truth_running (board, &running);
  g_assert_true (truth_log_window (log, tks_simboard_state_get_tick (board), TRUTH_TICK_PERIOD, &first, &last, &first_raw));

  capture = tks_capture_new_from_replies (list, strlen (list), log, strlen (log), &error);
  g_assert_no_error (error);
  read = read_runs_of_capture (capture, first);
  truth_score (truth, &running, read, first, last, &score);
  g_test_message ("%u runs, %u right, %u on threads not in the list, %u on named threads wrong",
                  score.truth_runs - score.edge_missing, score.right, score.wrong_thread,
                  score.wrong_named);
  if (score.wrong_named != 0 || score.wrong_ticks != 0 || score.order_errors != 0)
    {
      g_test_message ("%s", score.errors != NULL ? score.errors->str : "");
      g_test_fail ();
    }
  g_assert_cmpuint (score.right, >, 2500);
  truth_score_clear (&score);
  tks_simboard_state_free (board);
  tks_simboard_state_release ();
}

/* ------------------------------------------------------------------------------------------ */
/* The board program: its clock runs from its start, and --truth FILE is written as it runs. */

/* Reads from @in until what was read ends with @end. */
static char *
read_until (GInputStream *in, GString *buf, const char *end)
{
  g_autoptr(GError) error = NULL;

  while (!g_str_has_suffix (buf->str, end))
    {
      char chunk[4096];
      gssize n = g_input_stream_read (in, chunk, sizeof chunk, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpint (n, >, 0);
      g_string_append_len (buf, chunk, n);
      g_assert_cmpuint (buf->len, <, 4 << 20);
    }
  return g_strdup (buf->str);
}

/* The truth of a CSV file; the workload's unlogged threads are @unlogged. Sequence numbers
 * follow the rows: a run's row comes when it ends, an exit's row after its last run. */
static Truth *
truth_from_csv (const char *text, const char * const *unlogged, TksTruthEvent *running)
{
  g_auto(GStrv) lines = truth_lines (text, TRUE);
  Truth *truth = truth_new ();
  guint64 next_begin = 0;

  g_assert_cmpstr (lines[0], ==, "kind,thread,priority,creation_order,begin,end,value");
  /* Complete rows only: a file read while the board writes may end in part of one. */
  for (guint r = 1; lines[r] != NULL; r++)
    {
      g_auto(GStrv) f = g_strsplit (lines[r], ",", -1);
      TksTruthEvent ev = { 0 };

      g_assert_cmpuint (g_strv_length (f), ==, 7);
      /* The events beyond the switches are checked against dump version 2 elsewhere. */
      if (g_strv_contains ((const char * const[]) { "irq", "wakeup", "waker", "cause", "marker",
                                                    "state", "sleep", NULL }, f[0]))
        continue;
      ev.name = g_intern_string (f[1]);
      ev.priority = atoi (f[2]);
      ev.thread = (guint) atoi (f[3]);
      ev.begin = g_ascii_strtod (f[4], NULL);
      ev.end = g_ascii_strtod (f[5], NULL);
      ev.logged = !g_strv_contains (unlogged, f[1]);
      ev.dynamic = g_str_has_prefix (f[1], "job_");
      g_assert_cmpfloat (ev.begin, <=, ev.end);
      if (g_str_equal (f[0], "create"))
        ev.kind = TKS_TRUTH_CREATE;
      else if (g_str_equal (f[0], "exit"))
        {
          ev.kind = TKS_TRUTH_EXIT;
          next_begin = 2 * r;
        }
      else
        {
          g_assert_true (g_str_equal (f[0], "run") || g_str_equal (f[0], "running"));
          ev.kind = TKS_TRUTH_RUN;
          ev.begin_seq = next_begin;
          ev.end_seq = next_begin = 2 * r;
          if (g_str_equal (f[0], "running"))
            {
              *running = ev;
              continue;
            }
        }
      truth_collect (&ev, truth);
    }
  return truth;
}

static void
die_with_parent (gpointer data)
{
  (void) data;
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}

/* The board program, serving on TCP, connected after @wait_us. */
typedef struct
{
  GSubprocess       *proc;
  GSocketConnection *conn;
  GString           *buf;
} ProgramBoard;

static void
program_start (ProgramBoard *board, const char * const *options, gulong wait_us)
{
  const char *exe = g_getenv ("TKS_SIMBOARD");
  g_autofree char *port = g_strdup_printf ("%u", free_port ());
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;

  g_assert_nonnull (exe);
  g_ptr_array_add (argv, (gpointer) exe);
  g_ptr_array_add (argv, (gpointer) "--tcp");
  g_ptr_array_add (argv, port);
  for (guint i = 0; options[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) options[i]);
  g_ptr_array_add (argv, NULL);
  /* A failing test does not leave the board running. */
  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  board->proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (board->proc));
  line = g_data_input_stream_read_line (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (line, port));

  g_usleep (wait_us);
  g_socket_client_set_enable_proxy (client, FALSE);   /* a board on this machine */
  board->conn = g_socket_client_connect_to_host (client, "127.0.0.1", (guint16) atoi (port), NULL, &error);
  g_assert_no_error (error);
  board->buf = g_string_new (NULL);
  g_free (read_until (g_io_stream_get_input_stream (G_IO_STREAM (board->conn)), board->buf, "ch> "));
}

/* Runs @command; returns its reply with the echo, up to the prompt. */
static char *
program_command (ProgramBoard *board, const char *command)
{
  g_autofree char *line = g_strconcat (command, "\r\n", NULL);
  g_autoptr(GError) error = NULL;

  g_string_truncate (board->buf, 0);
  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (board->conn)), line,
                             strlen (line), NULL, NULL, &error);
  g_assert_no_error (error);
  return read_until (g_io_stream_get_input_stream (G_IO_STREAM (board->conn)), board->buf, "\r\nch> ");
}

static void
program_stop (ProgramBoard *board)
{
  g_autoptr(GError) error = NULL;

  g_io_stream_close (G_IO_STREAM (board->conn), NULL, NULL);
  g_subprocess_send_signal (board->proc, SIGTERM);
  g_subprocess_wait_check (board->proc, NULL, &error);
  g_assert_no_error (error);
  g_clear_object (&board->conn);
  g_clear_object (&board->proc);
  g_string_free (board->buf, TRUE);
}

/* The thread of @truth that @th is (the same name and priority), or NULL. */
static const TruthThread *
truth_thread_named (const Truth     *truth,
                    const TksThread *th)
{
  for (guint t = 0; t < truth->threads->len; t++)
    {
      const TruthThread *tt = &g_array_index (truth->threads, TruthThread, t);

      if (tt->priority == th->priority && g_strcmp0 (tt->name, th->name) == 0)
        return tt;
    }
  return NULL;
}

/* Records the board program (started with its truth in @path) until its stream has announced
 * @n_threads threads, with a keep-alive byte after every read, within a generous deadline;
 * then stops the stream and the program. Returns the recording; @truth and @running are the
 * program's truth. */
static char *
record_until_announced (ProgramBoard        *board,
                        guint                n_threads,
                        const char          *path,
                        const char * const  *unlogged,
                        Truth              **truth,
                        TksTruthEvent       *running)
{
  static const char stop = 3;
  GInputStream *from_board = g_io_stream_get_input_stream (G_IO_STREAM (board->conn));
  GOutputStream *to_board = g_io_stream_get_output_stream (G_IO_STREAM (board->conn));
  g_autoptr(GError) error = NULL;
  g_autofree char *csv = NULL;
  gint64 deadline = g_get_monotonic_time () + TKS_WAIT_SECONDS * G_USEC_PER_SEC;
  char *text;

  g_string_truncate (board->buf, 0);
  g_output_stream_write_all (to_board, "threads_record events\r\n", 23, NULL, NULL, &error);
  g_assert_no_error (error);
  for (;;)
    {
      const char *p = strstr (board->buf->str, "Compact:\r\n");
      guint announced = 0;
      char chunk[4096];
      gssize n;

      while (p != NULL && (p = strstr (p + 1, "\r\nThread number ")) != NULL)
        announced++;
      if (announced >= n_threads)
        break;
      if (g_get_monotonic_time () > deadline)
        {
          g_test_message ("only %u threads announced in %d s", announced, TKS_WAIT_SECONDS);
          g_assert_cmpuint (announced, >=, n_threads);
        }
      n = g_input_stream_read (from_board, chunk, sizeof chunk, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (n, >, 0);
      g_string_append_len (board->buf, chunk, n);
      g_assert_cmpuint (board->buf->len, <, 64 << 20);
      g_output_stream_write_all (to_board, "\x16", 1, NULL, NULL, &error);
      g_assert_no_error (error);
    }
  g_output_stream_write_all (to_board, &stop, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  text = read_until (from_board, board->buf, "\r\nch> ");
  program_stop (board);
  g_assert_true (g_file_get_contents (path, &csv, NULL, &error));
  *truth = truth_from_csv (csv, unlogged, running);
  return text;
}

static void
test_program (void)
{
  static const char * const unlogged[] = { "stats", "watchdog", "job_g", NULL };
  g_autofree char *dir = g_dir_make_tmp ("tks-truth-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "truth.csv", NULL);
  const char * const options[] = { "--truth", path, "--no-events", NULL };
  ProgramBoard board = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *dump = NULL;
  g_autofree char *systime = NULL;
  g_autofree char *csv = NULL;
  guint64 now;
  g_autoptr(Truth) truth = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GArray) read = NULL;
  TksTruthEvent running = { 0 };
  TruthScore score = { 0 };
  guint64 written = 0, exits = 0;
  gint64 first = 0, last = 0;
  guint32 first_raw = 0;
  const char *p;

  if (g_getenv ("TKS_SIMBOARD") == NULL)
    {
      g_test_skip ("TKS_SIMBOARD names no simulated board program");
      return;
    }
  /* Nobody connected for 1.5 s: the board ran all the same. */
  program_start (&board, options, 1500000);
  dump = program_command (&board, "threads_dump");
  systime = program_command (&board, "systime");
  now = g_ascii_strtoull (systime + strlen ("systime\r\n"), NULL, 10);
  g_assert_cmpuint (now, >=, 1500);

  p = strstr (dump, "Records written: ");
  g_assert_nonnull (p);
  written = g_ascii_strtoull (p + strlen ("Records written: "), NULL, 10);
  g_assert_cmpuint (written, >, 3000);
  exits = truth_count_exits (dump);
  g_assert_cmpuint (exits, >, 0);
  g_assert_true (truth_log_window (dump, now, TRUTH_TICK_PERIOD, &first, &last, &first_raw));
  g_test_message ("1.5 s after start: %" G_GUINT64_FORMAT " records written, log from tick %"
                  G_GINT64_FORMAT " to %" G_GINT64_FORMAT ", %" G_GUINT64_FORMAT " exits",
                  written, first, last, exits);
  g_assert_cmpint (last, >=, 1400);

  /* The truth is in the file while the board runs. */
  g_assert_true (g_file_get_contents (path, &csv, NULL, &error));
  g_assert_nonnull (strstr (csv, "\r\ncreate,main,128,0,0.000,0.000,\r\n"));
  g_clear_pointer (&csv, g_free);
  g_usleep (100000);
  g_assert_true (g_file_get_contents (path, &csv, NULL, &error));
  {
    g_autoptr(Truth) so_far = truth_from_csv (csv, unlogged, &running);

    g_assert_cmpuint (so_far->runs->len, >, 1000);
    g_assert_cmpfloat (g_array_index (so_far->runs, TruthRun, so_far->runs->len - 1).end, >=, 1400);
  }
  g_clear_pointer (&csv, g_free);

  /* Stopped, it ends the truth with the run going on; the dump's runs are the truth's. */
  program_stop (&board);
  g_assert_true (g_file_get_contents (path, &csv, NULL, &error));
  g_assert_nonnull (strstr (csv, "\r\nrunning,"));
  truth = truth_from_csv (csv, unlogged, &running);
  g_assert_cmpuint (truth->n_exits, >, 0);

  capture = tks_capture_new_from_dump (strstr (dump, "Dump version"), strlen (strstr (dump, "Dump version")) - 4, &error);
  g_assert_no_error (error);
  read = read_runs_of_capture (capture, first);
  truth_score (truth, &running, read, first, last, &score);
  g_test_message ("%u truth runs in the log's window, %u right, %u edge", score.truth_runs,
                  score.right, score.edge_missing);
  if (score.wrong_thread + score.wrong_ticks + score.spurious + score.order_errors != 0
      || score.right + score.edge_missing != score.truth_runs || score.right < 1000)
    {
      g_test_message ("%s", score.errors != NULL ? score.errors->str : "");
      g_test_fail ();
    }
  truth_score_clear (&score);
  g_unlink (path);
  g_rmdir (dir);
}

/* The program with its events: dump version 2, and the truth of every kind of event. */
/* A recording of the board program whose jobs (heap threads) start and exit while the shell
 * waits for its serial line, so that they are announced after they exited: each thread of the
 * recording is named as in the truth, at its priority, none "Exited dynamic thread". */
static void
test_program_record_names (void)
{
  static const char * const unlogged[] = { "stats", "watchdog", "job_g", NULL };
  g_autofree char *dir = g_dir_make_tmp ("tks-truth-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "truth.csv", NULL);
  /* Four times as fast, and a serial line the shell waits for: jobs start and exit while it
   * waits, before it announces them. */
  const char * const options[] = { "--truth", path, "--speed", "4", "--baud", "115200", NULL };
  ProgramBoard board = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autoptr(Truth) truth = NULL;
  g_autoptr(TksCapture) capture = NULL;
  TksTruthEvent running = { 0 };
  guint exited = 0;

  if (g_getenv ("TKS_SIMBOARD") == NULL)
    {
      g_test_skip ("TKS_SIMBOARD names no simulated board program");
      return;
    }
  program_start (&board, options, 100000);
  /* Until the board announced 12 threads in the stream. */
  text = record_until_announced (&board, 12, path, unlogged, &truth, &running);

  g_assert_null (strstr (text, "Exited dynamic thread"));
  capture = tks_capture_new_from_data (text, strlen (text), &error);
  g_assert_no_error (error);
  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    {
      const TksThread *th = tks_capture_get_thread (capture, i);
      const TruthThread *tt = truth_thread_named (truth, th);

      if (tt == NULL)
        g_test_message ("thread %s (priority %d) is not in the truth", th->name, th->priority);
      g_assert_nonnull (tt);
      exited += tt->dynamic && tt->exited;
    }
  g_test_message ("%u threads of the recording exited in the truth, named as there", exited);
  g_assert_cmpuint (exited, >=, 8);
  g_unlink (path);
  g_rmdir (dir);
}

/* A recording of the board program, four times as fast, on a serial line it saturates: the
 * shell thread never catches up with the log, and its jobs come and go far beyond the 62
 * numbers. Each thread is announced with a number (none recorded as number 0), named as in
 * the truth, and the holes are counted. */
static void
test_program_record_saturated_numbers (void)
{
  static const char * const unlogged[] = { "stats", "watchdog", "job_g", NULL };
  g_autofree char *dir = g_dir_make_tmp ("tks-truth-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "truth.csv", NULL);
  const char * const options[] = { "--truth", path, "--speed", "4", "--baud", "115200", NULL };
  ProgramBoard board = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autoptr(Truth) truth = NULL;
  g_autoptr(TksCapture) capture = NULL;
  TksTruthEvent running = { 0 };
  const char * const *warnings;
  guint n_warnings = 0, numbered = 0;

  if (g_getenv ("TKS_SIMBOARD") == NULL)
    {
      g_test_skip ("TKS_SIMBOARD names no simulated board program");
      return;
    }
  program_start (&board, options, 100000);
  /* Until the stream announced 80 threads (about 6 s; a minute on a busy machine; without
   * numbers given back, never). */
  text = record_until_announced (&board, 80, path, unlogged, &truth, &running);

  /* The link was saturated: the board left out what it could not send, and said so. */
  g_assert_nonnull (strstr (text, "\r\nLost: before record "));
  capture = tks_capture_new_from_data (text, strlen (text), &error);
  g_assert_no_error (error);
  warnings = tks_capture_get_warnings (capture, &n_warnings);
  for (guint i = 0; i < n_warnings; i++)
    {
      g_test_message ("%s", warnings[i]);
      g_assert_null (strstr (warnings[i], "without a number"));
      g_assert_null (strstr (warnings[i], "comes as number"));
    }
  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    {
      const TksThread *th = tks_capture_get_thread (capture, i);

      g_assert_false (th->flags & TKS_THREAD_NOT_LISTED);
      g_assert_nonnull (truth_thread_named (truth, th));
      numbered += th->number > 0;
    }
  g_test_message ("%u threads numbered in the capture", numbered);
  g_assert_cmpuint (numbered, >, 63);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_program_events (void)
{
  static const char * const kinds[] = {
    "\r\nirq,SysTick_Handler,,,", "\r\nirq,EXTI0_IRQHandler,,,", "\r\nirq,USART2_IRQHandler,,,",
    "\r\nwakeup,sensor,148,5,", "\r\nwaker,EXTI0_IRQHandler,,,", "\r\ncause,",
    "\r\nmarker,sample,,,", "\r\nstate,filter: busy,,,",
    "\r\nstate,filter: calibrate,,,", "\r\nsleep,SysTick_Handler,,,",
  };
  g_autofree char *dir = g_dir_make_tmp ("tks-truth-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "truth.csv", NULL);
  const char * const options[] = { "--truth", path, "--uptime", "3000", NULL };
  ProgramBoard board = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *dump = NULL;
  g_autofree char *csv = NULL;

  if (g_getenv ("TKS_SIMBOARD") == NULL)
    {
      g_test_skip ("TKS_SIMBOARD names no simulated board program");
      return;
    }
  program_start (&board, options, 200000);
  dump = program_command (&board, "threads_dump");
  program_stop (&board);
  g_assert_true (g_str_has_prefix (dump, "threads_dump\r\nDump version: 2\r\n"));
  g_assert_nonnull (strstr (dump, "\r\nCounter frequency: 168000000\r\n"));
  g_assert_nonnull (strstr (dump, "\r\nIrq enter "));
  g_assert_true (g_file_get_contents (path, &csv, NULL, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    g_assert_nonnull (strstr (csv, kinds[i]));
  g_unlink (path);
  g_rmdir (dir);
}

/* The program says what it simulates, and how to have the dump of a board without events. */
static void
test_program_help (void)
{
  static const char * const said[] = {
    "168 MHz cycle counter", "SysTick_Handler", "USART2_IRQHandler", "EXTI0_IRQHandler",
    "sleeping", "wake-ups", "marker \"sample\"", "channel \"filter\"", "--no-events",
    "--legacy ",
  };
  const char *argv[] = { g_getenv ("TKS_SIMBOARD"), "--help", NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status = -1;

  if (argv[0] == NULL)
    {
      g_test_skip ("TKS_SIMBOARD names no simulated board program");
      return;
    }
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (said); i++)
    g_assert_nonnull (strstr (out, said[i]));
}

/* The program with --legacy-defects speaks as the original library does. */
static void
test_program_legacy (void)
{
  const char * const options[] = { "--legacy-defects", NULL };
  ProgramBoard board = { 0 };
  g_autofree char *help = NULL;
  g_autofree char *dump = NULL;
  g_autofree char *list = NULL;

  if (g_getenv ("TKS_SIMBOARD") == NULL)
    {
      g_test_skip ("TKS_SIMBOARD names no simulated board program");
      return;
    }
  program_start (&board, options, 0);
  help = program_command (&board, "help");
  g_assert_nonnull (strstr (help, " threads_list threads_timestamps "));
  g_assert_null (strstr (help, "threads_dump"));
  dump = program_command (&board, "threads_dump");
  g_assert_cmpstr (dump, ==, "threads_dump\r\nthreads_dump ?\r\nch> ");
  list = program_command (&board, "threads_list");
  g_assert_true (g_str_has_prefix (list, "threads_list\r\nThread number  1 : Prio = 128, Log = Yes, Name = main\r\n"));
  g_assert_nonnull (strstr (list, "\r\nDeleted threads: \r\n"));
  program_stop (&board);
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
  g_test_add_func ("/truth/fetch-while-printing", test_fetch_while_printing);
  g_test_add_data_func ("/truth/recording/systime-16", GUINT_TO_POINTER (16),
                        test_recording_systime);
  g_test_add_data_func ("/truth/recording/systime-32", GUINT_TO_POINTER (32),
                        test_recording_systime);
  g_test_add_func ("/truth/program", test_program);
  g_test_add_func ("/truth/program-record-names", test_program_record_names);
  g_test_add_func ("/truth/program-record-saturated-numbers",
                   test_program_record_saturated_numbers);
  g_test_add_func ("/truth/program-events", test_program_events);
  g_test_add_func ("/truth/program-help", test_program_help);
  g_test_add_func ("/truth/program-legacy", test_program_legacy);
  g_test_add_func ("/truth/legacy/replies", test_legacy_replies);
  g_test_add_func ("/truth/legacy/forgotten-exits", test_legacy_forgotten_exits);
  return g_test_run ();
}
