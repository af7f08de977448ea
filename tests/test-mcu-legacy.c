/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The board library against the bytes of a real board: the transcripts of tests/data are
 * replayed through the kernel hooks (every switch and exit of the log, with the threads of
 * the list), and the library must print the same threads_list and threads_timestamps replies
 * byte for byte. Also: more than 63 threads, many exits, threads_uc and threads_stat.
 * Built with the defaults of a board: 3000 records, threads not logged unless asked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "ch.h"
#include "host-stream.h"
#include "threads_utilities.h"

#define MAX_THREADS 256

static thread_t threads[MAX_THREADS];
static guint n_threads;

static void
boot (void)
{
  ch_host_reset ();
  threadsUtilitiesResetState ();
  memset (threads, 0, sizeof threads);
  n_threads = 0;
}

static thread_t *
spawn (const char *name, tprio_t prio, tmode_t mode, gboolean log)
{
  thread_t *tp;

  g_assert_cmpuint (n_threads, <, MAX_THREADS);
  tp = &threads[n_threads++];
  if (log)
    logNextCreatedThreadsTimestamps ();
  else
    dontLogNextCreatedThreadsTimestamps ();
  ch_host_thread_init (tp, name, prio, mode);
  return tp;
}

static char *
run0 (void (*cmd) (BaseSequentialStream *, int, char *[]))
{
  return host_run (cmd, 0, NULL);
}

static char *
load (const char *file)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", file, NULL);
  g_autoptr (GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* The reply to the @nth (0-based) @command of a transcript: what follows the echoed line up
 * to the next prompt. */
static char *
reply_of (const char *transcript, const char *command, guint nth)
{
  g_autofree char *echo = g_strconcat (command, "\r\n", NULL);
  const char *p = transcript;
  const char *end;

  for (;;)
    {
      gboolean at_line_start;

      p = strstr (p, echo);
      g_assert_nonnull (p);
      at_line_start = p == transcript || p[-1] == '\n'
                      || (p - transcript >= 4 && strncmp (p - 4, "ch> ", 4) == 0);
      if (at_line_start)
        {
          if (nth == 0)
            break;
          nth--;
        }
      p += strlen (echo);
    }
  p += strlen (echo);
  end = strstr (p, "ch> ");
  g_assert_nonnull (end);
  return g_strndup (p, (gsize) (end - p));
}

typedef struct
{
  char     *name;
  int       prio;
  gboolean  log;
  gboolean  dynamic;
  thread_t *tp;
} Entry;

static void
entry_free (gpointer data)
{
  Entry *e = data;

  g_free (e->name);
  g_free (e);
}

static Entry *
parse_list_line (const char *line, int *number)
{
  Entry *e = g_new0 (Entry, 1);
  char log[4] = { 0 };
  const char *name = strstr (line, "Name = ");
  int prio;

  g_assert_cmpint (sscanf (line, "Thread number %d : Prio = %d, Log = %3c", number, &prio, log),
                   ==, 3);
  g_assert_nonnull (name);
  e->name = g_strdup (name + strlen ("Name = "));
  e->prio = prio;
  e->log = strcmp (log, "Yes") == 0;
  e->dynamic = strcmp (e->name, "Exited dynamic thread") == 0;
  return e;
}

/* Creates the threads of a threads_list reply in creation order (live list with the deleted
 * threads put back, last deleted first) and returns the working list of the replay. */
static GPtrArray *
create_threads (const char *list_reply, GPtrArray *all)
{
  g_auto (GStrv) lines = g_strsplit (list_reply, "\r\n", -1);
  g_autoptr (GPtrArray) deleted = g_ptr_array_new ();
  g_autoptr (GPtrArray) deleted_numbers = g_ptr_array_new ();
  GPtrArray *working = g_ptr_array_new ();
  gboolean in_deleted = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      int number;
      Entry *e;

      if (lines[i][0] == '\0')
        continue;
      if (strcmp (lines[i], "Deleted threads: ") == 0)
        {
          in_deleted = TRUE;
          continue;
        }
      e = parse_list_line (lines[i], &number);
      g_ptr_array_add (all, e);
      if (in_deleted)
        {
          g_ptr_array_add (deleted, e);
          g_ptr_array_add (deleted_numbers, GINT_TO_POINTER (number));
        }
      else
        {
          g_ptr_array_add (working, e);
        }
    }
  while (deleted->len > 0)
    {
      guint last = deleted->len - 1;
      int number = GPOINTER_TO_INT (g_ptr_array_index (deleted_numbers, last));

      g_assert_cmpint (number, >=, 1);
      g_assert_cmpint (number, <=, (int) working->len + 1);
      g_ptr_array_insert (working, number - 1, g_ptr_array_index (deleted, last));
      g_ptr_array_remove_index (deleted, last);
      g_ptr_array_remove_index (deleted_numbers, last);
    }
  for (guint i = 0; i < working->len; i++)
    {
      Entry *e = g_ptr_array_index (working, i);
      const char *name = strcmp (e->name, "NONAME") == 0 ? NULL : e->name;

      e->tp = spawn (name, (tprio_t) e->prio,
                     e->dynamic ? CH_FLAG_MODE_HEAP : CH_FLAG_MODE_STATIC, e->log);
    }
  return working;
}

/* When >= 0, replay() sets the trigger before this record (0-based) instead. */
static int replay_trigger_record = -1;

/* Replays @log_reply; @trigger_tick >= 0 sets the trigger before the first record past it. */
static void
replay (GPtrArray *working, const char *log_reply, long trigger_tick)
{
  int ordinal = -1;

  g_auto (GStrv) lines = g_strsplit (log_reply, "\r\n", -1);
  gboolean triggered = FALSE;
  gboolean first = TRUE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      int out, in, tick;
      Entry *e;

      if (sscanf (lines[i], "From %d to %d at %d", &out, &in, &tick) != 3)
        continue;
      ordinal++;
      if (trigger_tick >= 0 && !triggered
          && (replay_trigger_record >= 0 ? ordinal == replay_trigger_record : tick > trigger_tick))
        {
          ch_host_time = (systime_t) trigger_tick;
          setTriggerTimestamps ("Shell command");
          triggered = TRUE;
        }
      ch_host_time = (systime_t) tick;
      if (out == in)
        {
          g_assert_cmpint (out, >=, 1);
          g_assert_cmpint (out, <=, (int) working->len);
          e = g_ptr_array_index (working, out - 1);
          ch_host_set_current (e->tp);
          ch_host_thread_exit (e->tp);
          g_ptr_array_remove_index (working, out - 1);
          first = FALSE;
          continue;
        }
      if (out != 0)
        {
          e = g_ptr_array_index (working, out - 1);
          if (ch_host_current () != e->tp)
            ch_host_set_current (e->tp);
        }
      else if (first)
        {
          g_assert_not_reached ();
        }
      g_assert_cmpint (in, >=, 1);
      g_assert_cmpint (in, <=, (int) working->len);
      e = g_ptr_array_index (working, in - 1);
      ch_host_switch (e->tp);
      first = FALSE;
    }
}

static void
check_replay (const char *file, long trigger_tick)
{
  g_autofree char *transcript = load (file);
  g_autofree char *list_reply = reply_of (transcript, "threads_list", 0);
  g_autofree char *log_reply = reply_of (transcript, "threads_timestamps", 0);
  g_autoptr (GPtrArray) all = g_ptr_array_new_with_free_func (entry_free);
  g_autoptr (GPtrArray) working = NULL;
  g_autofree char *list = NULL;
  g_autofree char *log = NULL;

  boot ();
  working = create_threads (list_reply, all);
  /* The board's first thread is current when the window starts. */
  ch_host_set_current (((Entry *) g_ptr_array_index (working, 0))->tp);
  replay (working, log_reply, trigger_tick);

  log = run0 (cmd_threads_timestamps);
  g_assert_cmpstr (log, ==, log_reply);
  list = run0 (cmd_threads_list);
  g_assert_cmpstr (list, ==, list_reply);
}

static void
test_replay_run_mode (void)
{
  check_replay ("board-run-mode.raw.txt", -1);
}

static void
test_replay_tick_wrap (void)
{
  check_replay ("board-tick-wrap.raw.txt", -1);
}

static void
test_replay_partly_logged_trigger (void)
{
  check_replay ("board-partly-logged-trigger.raw.txt", 23791);
}

/* The original kept writing exit records after the trigger froze its log, overwriting the
 * oldest records (the transcript ends with lone exits). Replayed here, the frozen log stays as
 * it was: the same records without the late exits, and the threads that exited late are still
 * listed with the numbers the log knows them by. */
static void
test_replay_exits_after_trigger (void)
{
  g_autofree char *transcript = load ("board-trigger-exits.raw.txt");
  g_autofree char *list_reply = reply_of (transcript, "threads_list", 0);
  g_autofree char *log_reply = reply_of (transcript, "threads_timestamps", 0);
  g_autoptr (GPtrArray) all = g_ptr_array_new_with_free_func (entry_free);
  g_autoptr (GPtrArray) working = NULL;
  g_autofree char *log = NULL;
  g_autofree char *list = NULL;
  g_auto (GStrv) theirs = g_strsplit (log_reply, "\r\n", -1);
  g_auto (GStrv) ours = NULL;
  guint n_theirs = 0, n_ours = 0, late = 0, live_before, live_after;

  boot ();
  working = create_threads (list_reply, all);
  live_before = working->len;
  /* The board's log was full when the trigger came (1498 records of the window before it,
   * 1500 after, 2 late exits): fill it up to 3000 records before replaying. */
  ch_host_set_current (((Entry *) g_ptr_array_index (working, 0))->tp);
  ch_host_time = 1;
  for (guint i = 0; i < 3000 - 1498; i++)
    ch_host_switch (((Entry *) g_ptr_array_index (working, (i + 1) % 2))->tp);
  ch_host_set_current (((Entry *) g_ptr_array_index (working, 0))->tp);
  replay_trigger_record = 1498;
  replay (working, log_reply, 17154);
  replay_trigger_record = -1;
  live_after = working->len;

  log = run0 (cmd_threads_timestamps);
  ours = g_strsplit (log, "\r\n", -1);
  g_assert_cmpstr (ours[0], ==, "Triggered at   17154");
  g_assert_cmpstr (theirs[0], ==, "Triggered at   17154");
  /* Our log still starts with the two oldest records the late exits overwrote on the board
   * (here two of the filling switches), then the board's records in the same order. */
  g_assert_cmpstr (ours[1], ==, "From  1 to  2 at       1");
  g_assert_cmpstr (ours[2], ==, "From  2 to  1 at       1");
  for (n_ours = 1; ours[n_ours + 2] != NULL && ours[n_ours + 2][0] != '\0'; n_ours++)
    g_assert_cmpstr (ours[n_ours + 2], ==, theirs[n_ours]);
  for (n_theirs = n_ours; theirs[n_theirs] != NULL && theirs[n_theirs][0] != '\0'; n_theirs++)
    {
      int out, in, tick;

      g_assert_cmpint (sscanf (theirs[n_theirs], "From %d to %d at %d", &out, &in, &tick), ==, 3);
      g_assert_cmpint (out, ==, in);
      late++;
    }
  g_assert_cmpuint (late, ==, 2);
  g_assert_cmpuint (n_ours - 1 + late, ==, 3000);

  /* The late exits are held: the live list is as long as when the log froze. */
  list = run0 (cmd_threads_list);
  {
    g_auto (GStrv) lines = g_strsplit (list, "\r\n", -1);
    guint live = 0;

    for (guint i = 0; lines[i] != NULL && strcmp (lines[i], "Deleted threads: ") != 0; i++)
      live++;
    g_assert_cmpuint (live, ==, live_after + late);
    g_assert_cmpuint (live, <=, live_before);
  }
}

static void
test_trigger_reply (void)
{
  g_autofree char *transcript = load ("board-trigger-exits.raw.txt");
  g_autofree char *expected = reply_of (transcript, "threads_timestamps_trigger", 0);
  g_autofree char *expected_run = reply_of (transcript, "threads_timestamps_run", 0);
  g_autofree char *reply = NULL;
  g_autofree char *run = NULL;

  boot ();
  spawn ("main", 128, CH_FLAG_MODE_STATIC, TRUE);
  ch_host_time = 17154;
  reply = run0 (cmd_threads_timestamps_trigger);
  g_assert_cmpstr (reply, ==, expected);
  run = run0 (cmd_threads_timestamps_run);
  g_assert_cmpstr (run, ==, expected_run);
}

static void
test_many_threads (void)
{
  g_autofree char *list = NULL;
  g_autofree char *log = NULL;
  g_autofree char *dump = NULL;
  g_auto (GStrv) lines = NULL;
  guint i, listed = 0;

  boot ();
  for (i = 0; i < 70; i++)
    {
      char name[8];

      g_snprintf (name, sizeof name, "t%u", i);
      spawn (g_intern_string (name), 64, CH_FLAG_MODE_STATIC, TRUE);
    }
  ch_host_set_current (&threads[0]);

  /* 63 numbered; t63..t69 have no number and appear as 0, never as a wrong thread. */
  ch_host_time = 5;
  ch_host_switch (&threads[62]);
  ch_host_switch (&threads[65]);
  ch_host_switch (&threads[1]);
  ch_host_time = 6;
  ch_host_set_current (&threads[66]);
  ch_host_thread_exit (&threads[66]);
  ch_host_switch (&threads[2]);
  log = run0 (cmd_threads_timestamps);
  g_assert_cmpstr (log, ==,
                   "From  1 to 63 at       5\r\n"
                   "From 63 to  0 at       5\r\n"
                   "From  0 to  2 at       5\r\n"
                   "From  0 to  3 at       6\r\n");

  list = run0 (cmd_threads_list);
  lines = g_strsplit (list, "\r\n", -1);
  for (i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "Thread number "))
      listed++;
  g_assert_cmpuint (listed, ==, 63);
  g_assert_nonnull (strstr (list, "Thread number 63 : Prio =  64, Log = Yes, Name = t62\r\n"));
  g_assert_null (strstr (list, "t63"));

  dump = run0 (cmd_threads_dump);
  g_assert_nonnull (strstr (dump, "Unnumbered threads: 6 live, 7 total\r\n"));

  /* A numbered thread exits: numbers above it shift, still never past 63. */
  ch_host_time = 7;
  ch_host_set_current (&threads[10]);
  ch_host_thread_exit (&threads[10]);
  ch_host_switch (&threads[62]);
  g_clear_pointer (&log, g_free);
  log = run0 (cmd_threads_timestamps);
  g_assert_true (g_str_has_suffix (log, "From 11 to 11 at       7\r\nFrom  0 to 62 at       7\r\n"));
}

static void
test_many_exits (void)
{
  g_autofree char *list = NULL;
  g_autofree char *log = NULL;
  g_autofree char *dump = NULL;
  g_auto (GStrv) log_lines = NULL;
  g_auto (GStrv) list_lines = NULL;
  GArray *exits = g_array_new (FALSE, FALSE, sizeof (int));
  guint i, n_deleted = 0;
  thread_t *main_tp, *idle_tp;

  boot ();
  main_tp = spawn ("main", 128, CH_FLAG_MODE_STATIC, TRUE);
  idle_tp = spawn ("idle", 1, CH_FLAG_MODE_STATIC, TRUE);
  ch_host_set_current (main_tp);
  /* 100 dynamic jobs created and exiting: more than the 64 exits the history holds. */
  for (i = 0; i < 100; i++)
    {
      thread_t *job = spawn ("job", 100 + (i % 20), CH_FLAG_MODE_HEAP, TRUE);

      ch_host_time = 10 + i;
      ch_host_switch (job);
      ch_host_switch (idle_tp);
      ch_host_switch (job);
      ch_host_thread_exit (job);
      ch_host_switch (main_tp);
    }
  log = run0 (cmd_threads_timestamps);
  log_lines = g_strsplit (log, "\r\n", -1);
  for (i = 0; log_lines[i] != NULL; i++)
    {
      int out, in, tick;

      if (sscanf (log_lines[i], "From %d to %d at %d", &out, &in, &tick) == 3 && out == in)
        g_array_append_val (exits, out);
    }
  list = run0 (cmd_threads_list);
  list_lines = g_strsplit (strstr (list, "Deleted threads: \r\n"), "\r\n", -1);
  for (i = 1; list_lines[i] != NULL && list_lines[i][0] != '\0'; i++)
    {
      g_assert_cmpuint (n_deleted, <, exits->len);
      g_assert_true (g_str_has_prefix (list_lines[i], "Thread number  3 : Prio = "));
      g_assert_true (g_str_has_suffix (list_lines[i], ", Log = Yes, Name = Exited dynamic thread"));
      n_deleted++;
    }
  g_assert_cmpuint (n_deleted, ==, 64);
  g_assert_cmpuint (exits->len, ==, 64);
  /* The log starts right after the last exit the history had to forget. */
  g_assert_true (g_str_has_prefix (log, "From  0 to  1 at      45\r\n"));
  dump = run0 (cmd_threads_dump);
  g_assert_nonnull (strstr (dump, "Records: 321\r\nRecords written: 500\r\n"));
  g_assert_nonnull (strstr (dump, "Dropped for history: 179\r\n"));
  g_array_unref (exits);
}

static void
test_threads_uc (void)
{
  g_autofree char *reply = NULL;
  thread_t *main_tp, *idle_tp;

  boot ();
  main_tp = spawn ("main", 128, CH_FLAG_MODE_STATIC, TRUE);
  idle_tp = spawn ("idle", 1, CH_FLAG_MODE_STATIC, TRUE);
  spawn (NULL, 10, CH_FLAG_MODE_STATIC, TRUE);
  main_tp->stats.cumulative = 9;        /* 0.09 % */
  idle_tp->stats.cumulative = 9300;     /* 93.00 % */
  ch.kernel_stats.m_crit_thd.cumulative = 641;
  ch.kernel_stats.m_crit_isr.cumulative = 50;
  reply = run0 (cmd_threads_uc);
  g_assert_cmpstr (reply, ==,
                   "                     main          0.09%\r\n"
                   "                     idle          93.00%\r\n"
                   "                   NONAME          0.00%\r\n"
                   "\r\n"
                   "            critical thd:6.41%   critical isr:0.50%\r\n"
                   "\r\n");
}

typedef struct
{
  stkalign_t stack[512];
  thread_t   thread;
} WorkingArea;

static void
test_threads_stat (void)
{
  static WorkingArea wa;
  g_autofree char *reply = NULL;
  g_autofree char *expected = NULL;
  thread_t *main_tp;
  unsigned long size;

  boot ();
  main_tp = spawn ("main", 128, CH_FLAG_MODE_STATIC, TRUE);
  main_tp->state = CH_STATE_WTMSG;
  memset (wa.stack, CH_DBG_STACK_FILL_VALUE, sizeof wa.stack);
  memset (wa.stack + sizeof wa.stack - 100, 0, 100);
  logNextCreatedThreadsTimestamps ();
  ch_host_thread_init (&wa.thread, "worker", 64, CH_FLAG_MODE_STATIC);
  wa.thread.wabase = wa.stack;
  wa.thread.state = CH_STATE_SLEEPING;
  size = (unsigned long) ((uint8_t *) &wa.thread - (uint8_t *) wa.stack);

  reply = run0 (cmd_threads_stat);
  expected = g_strdup_printf ("\r\n"
                              "     begin        end   size   used    %% prio     state         name\r\n"
                              "--------------------------------------------------------------------\r\n"
                              "0x%08lX 0x%08lX    ???    ???  ???  128     WTMSG         main\r\n"
                              "0x%08lX 0x%08lX %6lu %6lu %3lu%%   64  SLEEPING       worker\r\n"
                              "\r\n",
                              0UL, (unsigned long) (uintptr_t) main_tp,
                              (unsigned long) (uintptr_t) wa.stack,
                              (unsigned long) (uintptr_t) &wa.thread,
                              size, 100UL + (size - sizeof wa.stack), (100UL + (size - sizeof wa.stack)) * 100 / size);
  g_assert_cmpstr (reply, ==, expected);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mcu/legacy/replay/run-mode", test_replay_run_mode);
  g_test_add_func ("/mcu/legacy/replay/tick-wrap", test_replay_tick_wrap);
  g_test_add_func ("/mcu/legacy/replay/partly-logged-trigger", test_replay_partly_logged_trigger);
  g_test_add_func ("/mcu/legacy/replay/exits-after-trigger", test_replay_exits_after_trigger);
  g_test_add_func ("/mcu/legacy/trigger-reply", test_trigger_reply);
  g_test_add_func ("/mcu/legacy/many-threads", test_many_threads);
  g_test_add_func ("/mcu/legacy/many-exits", test_many_exits);
  g_test_add_func ("/mcu/legacy/threads-uc", test_threads_uc);
  g_test_add_func ("/mcu/legacy/threads-stat", test_threads_stat);

  return g_test_run ();
}
