/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The board library's timestamps log, driven through its kernel hooks on the host stand-in.
 * Built with a 16-record log, every thread logged by default and a 4-entry exited-thread
 * history, so that wrap-around, overflow and triggers are reached in a few switches.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "ch.h"
#include "host-stream.h"
#include "threads_utilities.h"

#define N_THREADS 16

static thread_t threads[N_THREADS];

static void
boot (void)
{
  ch_host_reset ();
  threadsUtilitiesResetState ();
  memset (threads, 0, sizeof threads);
}

static thread_t *
spawn (int i, const char *name, tprio_t prio, tmode_t mode)
{
  memset (&threads[i], 0, sizeof threads[i]);
  ch_host_thread_init (&threads[i], name, prio, mode);
  return &threads[i];
}

static void
sw (thread_t *tp, systime_t tick)
{
  ch_host_time = tick;
  ch_host_switch (tp);
}

static void
quit (thread_t *tp, systime_t tick)
{
  ch_host_time = tick;
  ch_host_thread_exit (tp);
}

/* Switches to the next of the first @n threads, round robin from main. */
static guint rot_index;

static void
rot (guint n, systime_t tick)
{
  rot_index = (rot_index + 1) % n;
  sw (&threads[rot_index], tick);
}

/* Worker @w (thread 2 + @w) runs at @tick and exits one tick later, back to main. */
static void
run_and_exit (guint w, systime_t tick)
{
  sw (&threads[2 + w], tick);
  quit (&threads[2 + w], tick + 1);
  sw (&threads[0], tick + 1);
}

static char *
run0 (void (*cmd) (BaseSequentialStream *, int, char *[]))
{
  return host_run (cmd, 0, NULL);
}

typedef struct
{
  void     (*during) (void);
  gboolean   done;
} During;

static void
during_once (gpointer data)
{
  During *d = data;

  if (d->done)
    return;
  d->done = TRUE;
  d->during ();
}

/* Runs @cmd and returns what it printed; @during runs once, after its first write: code that
 * runs while a shell command prints. */
static char *
run0_during (void (*cmd) (BaseSequentialStream *, int, char *[]),
             void (*during) (void))
{
  During d = { during, FALSE };
  HostStream stream;

  host_stream_init (&stream);
  stream.on_write = during_once;
  stream.on_write_data = &d;
  cmd (&stream.base, 0, NULL);
  g_assert_true (d.done);
  return host_stream_steal (&stream);
}

/* main (1), idle (2), then @n workers "w0".. at prio 64; main is current. */
static void
boot_with (int n)
{
  char name[8];
  int i;

  boot ();
  rot_index = 0;
  spawn (0, "main", 128, CH_FLAG_MODE_STATIC);
  ch_host_switch (&threads[0]);
  spawn (1, "idle", 1, CH_FLAG_MODE_STATIC);
  for (i = 0; i < n; i++)
    {
      g_snprintf (name, sizeof name, "w%d", i);
      spawn (2 + i, g_intern_string (name), 64, CH_FLAG_MODE_STATIC);
    }
}

/* Counts the records of a threads_timestamps reply; fills @exits with the numbers of the exit
 * records, in order. */
static guint
parse_log (const char *text, GArray *exits)
{
  g_auto (GStrv) lines = g_strsplit (text, "\r\n", -1);
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      int out, in, tick;

      if (sscanf (lines[i], "From %d to %d at %d", &out, &in, &tick) == 3)
        {
          n++;
          if (out == in && exits != NULL)
            g_array_append_val (exits, out);
        }
    }
  return n;
}

/* The history printed by threads_list must be exactly the exit records of the log. */
static void
assert_history_matches_log (void)
{
  g_autofree char *list = run0 (cmd_threads_list);
  g_autofree char *log = run0 (cmd_threads_timestamps);
  g_autoptr (GArray) exits = g_array_new (FALSE, FALSE, sizeof (int));
  const char *deleted = strstr (list, "Deleted threads: \r\n");
  g_auto (GStrv) lines = NULL;
  guint n = 0;

  g_assert_nonnull (deleted);
  parse_log (log, exits);
  lines = g_strsplit (deleted + strlen ("Deleted threads: \r\n"), "\r\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      int number;

      g_assert_cmpint (sscanf (lines[i], "Thread number %d :", &number), ==, 1);
      g_assert_cmpuint (n, <, exits->len);
      g_assert_cmpint (number, ==, g_array_index (exits, int, n));
      n++;
    }
  g_assert_cmpuint (n, ==, exits->len);
}

static void
test_list_and_log (void)
{
  g_autofree char *list = NULL;
  g_autofree char *log = NULL;

  boot ();
  spawn (0, "main", 128, CH_FLAG_MODE_STATIC);
  ch_host_switch (&threads[0]);
  spawn (1, "idle", 1, CH_FLAG_MODE_STATIC);
  spawn (2, NULL, 64, CH_FLAG_MODE_STATIC);
  sw (&threads[1], 5);
  sw (&threads[2], 5);
  sw (&threads[0], 7);

  list = run0 (cmd_threads_list);
  g_assert_cmpstr (list, ==,
                   "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
                   "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
                   "Thread number  3 : Prio =  64, Log = Yes, Name = NONAME\r\n"
                   "Deleted threads: \r\n");
  log = run0 (cmd_threads_timestamps);
  g_assert_cmpstr (log, ==,
                   "From  1 to  2 at       5\r\n"
                   "From  2 to  3 at       5\r\n"
                   "From  3 to  1 at       7\r\n");
}

static void
test_exit_renumbers (void)
{
  g_autofree char *list = NULL;
  g_autofree char *log = NULL;

  boot_with (0);
  spawn (2, "a", 70, CH_FLAG_MODE_HEAP);
  spawn (3, "b", 71, CH_FLAG_MODE_STATIC);
  spawn (4, "c", 72, CH_FLAG_MODE_STATIC);
  sw (&threads[2], 10);
  quit (&threads[2], 11);
  sw (&threads[4], 11);
  sw (&threads[3], 12);
  quit (&threads[3], 13);
  sw (&threads[0], 13);
  sw (&threads[4], 14);

  list = run0 (cmd_threads_list);
  g_assert_cmpstr (list, ==,
                   "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
                   "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
                   "Thread number  3 : Prio =  72, Log = Yes, Name = c\r\n"
                   "Deleted threads: \r\n"
                   "Thread number  3 : Prio =  70, Log = Yes, Name = Exited dynamic thread\r\n"
                   "Thread number  3 : Prio =  71, Log = Yes, Name = b\r\n");
  log = run0 (cmd_threads_timestamps);
  g_assert_cmpstr (log, ==,
                   "From  1 to  3 at      10\r\n"
                   "From  3 to  3 at      11\r\n"
                   "From  0 to  4 at      11\r\n"
                   "From  4 to  3 at      12\r\n"
                   "From  3 to  3 at      13\r\n"
                   "From  0 to  1 at      13\r\n"
                   "From  1 to  3 at      14\r\n");
  assert_history_matches_log ();
}

static void
test_tick_wrap (void)
{
  g_autofree char *log = NULL;
  g_autofree char *reply = NULL;

  boot_with (0);
  sw (&threads[1], 1048575);
  sw (&threads[0], 1048576);
  sw (&threads[1], 1048580);
  reply = run0 (cmd_threads_timestamps_trigger);
  g_assert_cmpstr (reply, ==, "Trigger set by Shell command at 1048580\r\n");
  log = run0 (cmd_threads_timestamps);
  g_assert_cmpstr (log, ==,
                   "Triggered at 1048580\r\n"
                   "From  1 to  2 at 1048575\r\n"
                   "From  2 to  1 at       0\r\n"
                   "From  1 to  2 at       4\r\n");
}

static void
test_ring_overwrite (void)
{
  g_autofree char *log = NULL;
  g_autoptr (GString) expected = g_string_new (NULL);
  guint i;

  boot_with (0);
  for (i = 0; i < 20; i++)
    sw (&threads[(i + 1) % 2], 100 + i);
  for (i = 4; i < 20; i++)
    g_string_append_printf (expected, "From %2u to %2u at %7u\r\n",
                            (i % 2) + 1, ((i + 1) % 2) + 1, 100 + i);
  log = run0 (cmd_threads_timestamps);
  g_assert_cmpstr (log, ==, expected->str);
}

static void
test_history_leaves_with_its_record (void)
{
  g_autofree char *list = NULL;
  guint i;

  boot_with (2);
  quit (&threads[2], 10);
  sw (&threads[3], 10);
  assert_history_matches_log ();
  /* 15 more records: the exit record is the oldest, still there. */
  for (i = 0; i < 14; i++)
    sw (&threads[i % 2], 11 + i);
  assert_history_matches_log ();
  list = run0 (cmd_threads_list);
  g_assert_nonnull (strstr (list, "Name = w0\r\n"));
  /* One more overwrites it: the history forgets w0 at the same time. */
  sw (&threads[3], 30);
  g_clear_pointer (&list, g_free);
  list = run0 (cmd_threads_list);
  g_assert_null (strstr (list, "Name = w0\r\n"));
  assert_history_matches_log ();
}

static void
test_history_overflow (void)
{
  g_autofree char *dump = NULL;
  g_autofree char *log = NULL;
  g_autoptr (GArray) exits = g_array_new (FALSE, FALSE, sizeof (int));
  guint i;

  boot_with (8);
  /* Six exits: the history holds four, so the log is cut after the second exit record. */
  for (i = 0; i < 6; i++)
    run_and_exit (i, 20 + 2 * i);
  assert_history_matches_log ();
  log = run0 (cmd_threads_timestamps);
  g_assert_cmpuint (parse_log (log, exits), ==, 13);
  g_assert_cmpuint (exits->len, ==, 4);
  /* Every worker was number 3 when it exited. */
  for (i = 0; i < exits->len; i++)
    g_assert_cmpint (g_array_index (exits, int, i), ==, 3);
  g_assert_true (g_str_has_prefix (log, "From  0 to  1 at      23\r\n"));
  dump = run0 (cmd_threads_dump);
  g_assert_nonnull (strstr (dump, "Dropped for history: 5\r\n"));
}

static void
test_trigger_before_half_full (void)
{
  g_autofree char *log = NULL;
  g_autofree char *dump = NULL;
  guint i, n;

  boot_with (0);
  for (i = 0; i < 3; i++)
    rot (2, 50 + i);
  ch_host_time = 100;
  g_assert_cmpstr (setTriggerTimestamps ("code"), ==, "code");
  /* Already set: keeps the first one. */
  g_assert_cmpstr (setTriggerTimestamps ("again"), ==, "code");
  for (i = 0; i < 30; i++)
    rot (2, 101 + i);
  log = run0 (cmd_threads_timestamps);
  n = parse_log (log, NULL);
  g_assert_cmpuint (n, ==, 16);
  g_assert_true (g_str_has_prefix (log, "Triggered at     100\r\nFrom  1 to  2 at      50\r\n"));
  /* 3 before, 13 after the trigger: the whole remaining room. */
  g_assert_true (g_str_has_suffix (log, "at     113\r\n"));
  dump = run0 (cmd_threads_dump);
  g_assert_nonnull (strstr (dump, "Mode: frozen\r\nTrigger tick: 100\r\nTrigger name: code\r\n"));
}

static void
test_trigger_after_full (void)
{
  g_autofree char *log = NULL;
  g_autofree char *reply = NULL;
  g_autofree char *dump = NULL;
  g_auto (GStrv) lines = NULL;
  guint i, after = 0;

  boot_with (0);
  for (i = 0; i < 40; i++)
    rot (2, 10 + i);
  ch_host_time = 60;
  reply = run0 (cmd_threads_timestamps_trigger);
  g_assert_cmpstr (reply, ==, "Trigger set by Shell command at      60\r\n");
  dump = run0 (cmd_threads_dump);
  g_assert_nonnull (strstr (dump, "Mode: armed\r\n"));
  for (i = 0; i < 5; i++)
    rot (2, 61 + i);
  /* Half the log after the trigger: not reached yet. */
  g_clear_pointer (&dump, g_free);
  dump = run0 (cmd_threads_dump);
  g_assert_nonnull (strstr (dump, "Mode: armed\r\n"));
  for (i = 5; i < 20; i++)
    rot (2, 61 + i);
  log = run0 (cmd_threads_timestamps);
  lines = g_strsplit (log, "\r\n", -1);
  for (i = 0; lines[i] != NULL; i++)
    {
      int out, in, tick;

      if (sscanf (lines[i], "From %d to %d at %d", &out, &in, &tick) == 3 && tick > 60)
        after++;
    }
  g_assert_cmpuint (parse_log (log, NULL), ==, 16);
  g_assert_cmpuint (after, ==, 8);

  g_clear_pointer (&reply, g_free);
  reply = run0 (cmd_threads_timestamps_run);
  g_assert_cmpstr (reply, ==, "Run mode\r\n");
  g_clear_pointer (&log, g_free);
  log = run0 (cmd_threads_timestamps);
  g_assert_cmpstr (log, ==, "");
  sw (&threads[1], 200);
  g_clear_pointer (&log, g_free);
  log = run0 (cmd_threads_timestamps);
  g_assert_cmpstr (log, ==, "From  1 to  2 at     200\r\n");
}

static void
test_exits_after_trigger (void)
{
  g_autofree char *dump = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *list = NULL;
  g_autofree char *log = NULL;
  guint i;

  boot_with (3);
  for (i = 0; i < 16; i++)
    rot (5, 10 + i);
  ch_host_time = 30;
  setTriggerTimestamps ("code");
  for (i = 0; i < 8; i++)
    rot (5, 31 + i);
  before = run0 (cmd_threads_timestamps);
  /* Frozen: exits neither write nor renumber. */
  sw (&threads[2], 50);
  quit (&threads[2], 51);
  sw (&threads[3], 51);
  quit (&threads[3], 52);
  sw (&threads[4], 52);
  spawn (8, "late", 90, CH_FLAG_MODE_STATIC);
  /* Threads created and gone after the freeze are not in the log: they leave at once and
   * never exhaust the numbers. */
  for (i = 0; i < 100; i++)
    {
      spawn (9, "tmp", 95, CH_FLAG_MODE_HEAP);
      g_assert_cmpuint (threads[9].tu_number, ==, 7);
      sw (&threads[9], 53);
      quit (&threads[9], 53);
      sw (&threads[4], 53);
    }
  after = run0 (cmd_threads_timestamps);
  g_assert_cmpstr (before, ==, after);
  list = run0 (cmd_threads_list);
  g_assert_cmpstr (list, ==,
                   "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
                   "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
                   "Thread number  3 : Prio =  64, Log = Yes, Name = w0\r\n"
                   "Thread number  4 : Prio =  64, Log = Yes, Name = w1\r\n"
                   "Thread number  5 : Prio =  64, Log = Yes, Name = w2\r\n"
                   "Thread number  6 : Prio =  90, Log = Yes, Name = late\r\n"
                   "Deleted threads: \r\n");
  dump = run0 (cmd_threads_dump);
  g_assert_nonnull (strstr (dump, "Unnumbered threads: 0 live, 0 total\r\n"));

  /* Run mode: a new log, and the exited threads are gone for good. */
  resetTriggerTimestamps ();
  sw (&threads[8], 60);
  g_clear_pointer (&list, g_free);
  list = run0 (cmd_threads_list);
  g_assert_cmpstr (list, ==,
                   "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
                   "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
                   "Thread number  3 : Prio =  64, Log = Yes, Name = w2\r\n"
                   "Thread number  4 : Prio =  90, Log = Yes, Name = late\r\n"
                   "Deleted threads: \r\n");
  log = run0 (cmd_threads_timestamps);
  g_assert_cmpstr (log, ==, "From  3 to  4 at      60\r\n");
}

/* The log has records from before the trigger at @tick, at least as many as after it. */
static void
assert_trigger_inside (int trigger)
{
  g_autofree char *log = run0 (cmd_threads_timestamps);
  g_auto (GStrv) lines = g_strsplit (log, "\r\n", -1);
  guint before = 0, after = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      int out, in, tick;

      if (sscanf (lines[i], "From %d to %d at %d", &out, &in, &tick) == 3)
        {
          if (tick < trigger)
            before++;
          else
            after++;
        }
    }
  g_test_message ("%u records before the trigger, %u after", before, after);
  g_assert_cmpuint (before, >, 0);
  g_assert_cmpuint (after, >, 0);
  g_assert_cmpuint (before, >=, after);
}

/* Threads exiting after a trigger, with the history full: each exit discards the oldest
 * records, but never so many that the trigger leaves the log; the log freezes first, with
 * as many records before the trigger as after it at least. */
static void
test_trigger_stays_through_exits (void)
{
  g_autofree char *dump = NULL;
  guint i;

  boot_with (8);
  /* Four exits fill the history (12 records); then the trigger, half the log to go */
  for (i = 0; i < 4; i++)
    run_and_exit (i, 10 + 2 * i);
  ch_host_time = 100;
  setTriggerTimestamps ("code");
  for (i = 4; i < 8; i++)
    run_and_exit (i, 101 + 2 * i);
  dump = run0 (cmd_threads_dump);
  g_assert_nonnull (strstr (dump, "Mode: frozen\r\n"));
  assert_history_matches_log ();

  assert_trigger_inside (100);
}

/* Threads that exit while the log is printed are held, and written when printing ends:
 * those exits keep the trigger in the log too. */
static void
exit_all (void)
{
  for (guint i = 4; i < 8; i++)
    run_and_exit (i, 200 + 2 * i);
}

static void
test_trigger_stays_through_held_exits (void)
{
  g_autofree char *printed = NULL;
  g_autofree char *dump = NULL;

  boot_with (8);
  for (guint i = 0; i < 4; i++)
    run_and_exit (i, 10 + 2 * i);
  ch_host_time = 100;
  setTriggerTimestamps ("code");

  printed = run0_during (cmd_threads_timestamps, exit_all);

  dump = run0 (cmd_threads_dump);
  g_test_message ("%s", dump);
  g_assert_nonnull (strstr (dump, "Mode: frozen\r\n"));
  assert_trigger_inside (100);
  assert_history_matches_log ();
}

static void
exit_b (void)
{
  /* Thread "b" exits while the list is being printed. */
  quit (&threads[3], 41);
  sw (&threads[0], 41);
}

static void
test_exit_while_printing (void)
{
  g_autofree char *list = NULL;
  g_autofree char *list2 = NULL;
  g_autofree char *log = NULL;

  boot_with (0);
  spawn (2, "a", 70, CH_FLAG_MODE_STATIC);
  spawn (3, "b", 71, CH_FLAG_MODE_STATIC);
  spawn (4, "c", 72, CH_FLAG_MODE_STATIC);
  sw (&threads[3], 40);

  ch_host_time = 40;
  list = run0_during (cmd_threads_list, exit_b);
  /* Numbers held while printing: b still 4, c still 5. */
  g_assert_cmpstr (list, ==,
                   "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
                   "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
                   "Thread number  3 : Prio =  70, Log = Yes, Name = a\r\n"
                   "Thread number  4 : Prio =  71, Log = Yes, Name = b\r\n"
                   "Thread number  5 : Prio =  72, Log = Yes, Name = c\r\n"
                   "Deleted threads: \r\n");
  /* The exit is written when printing ends; the switch away from b names it. */
  ch_host_time = 42;
  sw (&threads[4], 43);
  log = run0 (cmd_threads_timestamps);
  g_assert_cmpstr (log, ==,
                   "From  1 to  4 at      40\r\n"
                   "From  4 to  1 at      41\r\n"
                   "From  4 to  4 at      41\r\n"
                   "From  1 to  4 at      43\r\n");
  list2 = run0 (cmd_threads_list);
  g_assert_cmpstr (list2, ==,
                   "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
                   "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
                   "Thread number  3 : Prio =  70, Log = Yes, Name = a\r\n"
                   "Thread number  4 : Prio =  72, Log = Yes, Name = c\r\n"
                   "Deleted threads: \r\n"
                   "Thread number  4 : Prio =  71, Log = Yes, Name = b\r\n");
  assert_history_matches_log ();
}

static void
exit_late (void)
{
  quit (&threads[5], 90);
  sw (&threads[0], 90);
}

static void
test_late_exit_while_frozen_and_printing (void)
{
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *list = NULL;
  g_autofree char *list2 = NULL;

  boot_with (1);
  ch_host_time = 10;
  setTriggerTimestamps ("code");
  for (guint i = 0; i < 16; i++)
    rot (3, 11 + i);
  spawn (4, "late1", 80, CH_FLAG_MODE_HEAP);
  spawn (5, "late2", 81, CH_FLAG_MODE_HEAP);
  spawn (6, "late3", 82, CH_FLAG_MODE_STATIC);
  sw (&threads[5], 89);
  before = run0 (cmd_threads_timestamps);

  list = run0_during (cmd_threads_list, exit_late);
  g_assert_cmpstr (list, ==,
                   "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
                   "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
                   "Thread number  3 : Prio =  64, Log = Yes, Name = w0\r\n"
                   "Thread number  4 : Prio =  80, Log = Yes, Name = late1\r\n"
                   "Thread number  5 : Prio =  81, Log = Yes, Name = Exited dynamic thread\r\n"
                   "Thread number  6 : Prio =  82, Log = Yes, Name = late3\r\n"
                   "Deleted threads: \r\n");
  list2 = run0 (cmd_threads_list);
  g_assert_cmpstr (list2, ==,
                   "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
                   "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
                   "Thread number  3 : Prio =  64, Log = Yes, Name = w0\r\n"
                   "Thread number  4 : Prio =  80, Log = Yes, Name = late1\r\n"
                   "Thread number  5 : Prio =  82, Log = Yes, Name = late3\r\n"
                   "Deleted threads: \r\n");
  g_assert_cmpuint (threads[6].tu_number, ==, 5);
  after = run0 (cmd_threads_timestamps);
  g_assert_cmpstr (before, ==, after);
}

static void
switch_while_printing (gpointer data)
{
  guint *n = data;

  (*n)++;
  sw (&threads[*n % 2], 70 + *n);
}

static void
test_paused_while_printing (void)
{
  HostStream stream;
  guint n = 0;
  g_autofree char *log = NULL;
  g_autofree char *log2 = NULL;
  g_autofree char *dump = NULL;

  boot_with (0);
  sw (&threads[1], 60);
  sw (&threads[0], 61);
  host_stream_init (&stream);
  stream.on_write = switch_while_printing;
  stream.on_write_data = &n;
  cmd_threads_timestamps (&stream.base, 0, NULL);
  log = host_stream_steal (&stream);
  g_assert_cmpstr (log, ==,
                   "From  1 to  2 at      60\r\n"
                   "From  2 to  1 at      61\r\n");
  g_assert_cmpuint (n, ==, 2);
  log2 = run0 (cmd_threads_timestamps);
  g_assert_cmpstr (log, ==, log2);
  dump = run0 (cmd_threads_dump);
  g_assert_nonnull (strstr (dump, "Dropped while paused: 2\r\n"));
}

/* Switches between main and idle at @tick. */
static void
toggle (systime_t tick)
{
  sw (&threads[threads[0].state == CH_STATE_CURRENT ? 1 : 0], tick);
}

/* On each write of a reply: the next tick, and a switch. */
static void
switch_at (gpointer data)
{
  systime_t *tick = data;

  *tick += 1;
  toggle (*tick);
}

/* Runs @cmd from @tick while main and idle switch on each write (its first two writes at
 * @tick + 1, @tick + 2, ...). */
static char *
print_while_switching (void (*cmd) (BaseSequentialStream *, int, char *[]),
                       systime_t tick)
{
  HostStream stream;

  host_stream_init (&stream);
  stream.on_write = switch_at;
  stream.on_write_data = &tick;
  ch_host_time = tick;
  cmd (&stream.base, 0, NULL);
  return host_stream_steal (&stream);
}

/* The dump tells where the switches dropped while a reply was printed are missing: one line
 * per pause with records on both sides of its hole, the last eight pauses at most. */
static void
test_pause_lines (void)
{
  g_autofree char *dump = NULL;
  g_autofree char *dump2 = NULL;
  g_autofree char *dump3 = NULL;
  g_autofree char *legacy = NULL;
  g_autofree char *log = NULL;
  g_auto (GStrv) parts = NULL;
  const char *line;

  boot_with (0);
  sw (&threads[1], 60);
  sw (&threads[0], 61);
  log = print_while_switching (cmd_threads_timestamps, 70);   /* two writes: 71, 72 */
  toggle (80);

  /* The dump's own pause, with switches, is not yet a hole of the log it prints. */
  dump = print_while_switching (cmd_threads_dump, 90);
  g_assert_nonnull (strstr (dump,
                            "Records: 3\r\n"
                            "Records written: 3\r\n"
                            "Dropped while paused: 2\r\n"
                            "Dropped for history: 0\r\n"
                            "Unnumbered threads: 0 live, 0 total\r\n"
                            "Paused: before record 2, ticks 70 to 72, 2 switches dropped\r\n"
                            "Threads:\r\n"));

  /* The dump's pause has no record after it yet; with one, it is listed. */
  toggle (200);
  dump2 = run0 (cmd_threads_dump);
  line = strstr (dump2, "Paused: before record 3, ticks 90 to ");
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (strstr (dump2, "Paused: "),
                                   "Paused: before record 2, ticks 70 to 72, 2 switches dropped\r\n"
                                   "Paused: before record 3, ticks 90 to "));
  g_assert_null (strstr (dump2, "Paused: before record 4"));

  /* The legacy replies say nothing of it. */
  legacy = run0 (cmd_threads_timestamps);
  g_assert_null (strstr (legacy, "Paused"));

  /* Ten more pauses: the eight newest are remembered. */
  for (guint p = 0; p < 10; p++)
    {
      g_free (log);
      log = print_while_switching (cmd_threads_timestamps, 300 + 10 * p);
      toggle (309 + 10 * p);
    }
  dump3 = run0 (cmd_threads_dump);
  g_assert_null (strstr (dump3, "ticks 70 to"));
  g_assert_null (strstr (dump3, "ticks 90 to"));
  g_assert_null (strstr (dump3, "ticks 300 to"));
  g_assert_null (strstr (dump3, "ticks 310 to"));
  line = strstr (dump3, "Paused: before record");
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "Paused: before record 6, ticks 320 to "));
  parts = g_strsplit (dump3, "Paused:", -1);
  g_assert_cmpuint (g_strv_length (parts), ==, 9);

  /* Once the log has overwritten the records before a hole, the hole is no longer in it. */
  for (guint i = 0; i < 16; i++)
    toggle (400 + i);
  g_free (dump3);
  dump3 = run0 (cmd_threads_dump);
  g_assert_null (strstr (dump3, "Paused:"));
  g_assert_nonnull (strstr (dump3, "Dropped while paused: "));
}

static void
test_unlogged_threads (void)
{
  g_autofree char *list = NULL;
  g_autofree char *log = NULL;

  boot_with (0);
  dontLogNextCreatedThreadsTimestamps ();
  spawn (2, "u1", 10, CH_FLAG_MODE_STATIC);
  spawn (3, "u2", 10, CH_FLAG_MODE_MPOOL);
  logNextCreatedThreadsTimestamps ();
  spawn (4, "l1", 10, CH_FLAG_MODE_STATIC);
  sw (&threads[2], 1);
  sw (&threads[3], 2);              /* u1 -> u2: not recorded */
  sw (&threads[4], 3);              /* u2 -> l1 */
  sw (&threads[2], 4);              /* l1 -> u1 */
  sw (&threads[3], 5);              /* u1 -> u2: not recorded */
  ch_host_time = 6;
  ch_host_thread_exit (&threads[3]);
  sw (&threads[0], 6);              /* exited unlogged u2 -> main */

  list = run0 (cmd_threads_list);
  g_assert_cmpstr (list, ==,
                   "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
                   "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
                   "Thread number  3 : Prio =  10, Log =  No, Name = u1\r\n"
                   "Thread number  4 : Prio =  10, Log = Yes, Name = l1\r\n"
                   "Deleted threads: \r\n"
                   "Thread number  4 : Prio =  10, Log =  No, Name = Exited dynamic thread\r\n");
  dontLogThisThreadTimestamps ();
  g_clear_pointer (&list, g_free);
  list = run0 (cmd_threads_list);
  g_assert_true (g_str_has_prefix (list, "Thread number  1 : Prio = 128, Log =  No, Name = main\r\n"));
  logThisThreadTimestamps ();
  log = run0 (cmd_threads_timestamps);
  g_assert_cmpstr (log, ==,
                   "From  1 to  3 at       1\r\n"
                   "From  4 to  5 at       3\r\n"
                   "From  5 to  3 at       4\r\n"
                   "From  4 to  4 at       6\r\n"
                   "From  0 to  1 at       6\r\n");
}

static void
test_trigger_from_isr (void)
{
  g_autofree char *reply = NULL;

  boot_with (0);
  ch_host_time = 77;
  chSysLockFromISR ();
  g_assert_cmpstr (setTriggerTimestampsI ("isr"), ==, "isr");
  chSysUnlockFromISR ();
  ch_host_time = 90;
  reply = run0 (cmd_threads_timestamps_trigger);
  g_assert_cmpstr (reply, ==, "Trigger set by isr at      77\r\n");
  chSysLockFromISR ();
  resetTriggerTimestampsI ();
  chSysUnlockFromISR ();
  g_clear_pointer (&reply, g_free);
  reply = run0 (cmd_threads_timestamps_trigger);
  g_assert_cmpstr (reply, ==, "Trigger set by Shell command at      90\r\n");
}

static void
test_i_class_needs_lock (void)
{
  if (g_test_subprocess ())
    {
      boot_with (0);
      setTriggerTimestampsI ("unlocked");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*I-class function called without the system lock*");
}

static void
test_usage (void)
{
  char *argv[] = { (char *) "x", NULL };
  struct { void (*cmd) (BaseSequentialStream *, int, char *[]); const char *reply; } cases[] = {
    { cmd_threads_list, "Usage: threads_list\r\n" },
    { cmd_threads_timestamps, "Usage: threads_timestamps\r\n" },
    { cmd_threads_timestamps_trigger, "Usage: threads_timestamps_trigger\r\n" },
    { cmd_threads_timestamps_run, "Usage: threads_timestamps_run\r\n" },
    { cmd_threads_dump, "Usage: threads_dump\r\n" },
  };

  boot_with (0);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *reply = host_run (cases[i].cmd, 1, argv);
      g_assert_cmpstr (reply, ==, cases[i].reply);
    }
}

static void
test_dump (void)
{
  g_autofree char *dump = NULL;
  const char *ts, *end;
  guint32 hash = 2166136261U;
  g_auto (GStrv) lines = NULL;
  char expected_end[64];

  boot_with (1);
  sw (&threads[2], 3);
  sw (&threads[1], 1048579);
  sw (&threads[2], 1048580);
  quit (&threads[2], 1048580);
  sw (&threads[0], 1048580);
  dump = run0 (cmd_threads_dump);
  g_assert_true (g_str_has_prefix (dump,
                                   "Dump version: 1\r\n"
                                   "Library version: " THREADS_UTILITIES_VERSION "\r\n"
                                   "Kernel version: 5.1.0\r\n"
                                   "Tick frequency: 1000\r\n"
                                   "Tick bits: 20\r\n"
                                   "Log size: 16\r\n"
                                   "Max threads: 63\r\n"
                                   "Max deleted: 4\r\n"
                                   "Default log: Yes\r\n"
                                   "Mode: run\r\n"
                                   "Records: 5\r\n"
                                   "Records written: 5\r\n"
                                   "Dropped while paused: 0\r\n"
                                   "Dropped for history: 0\r\n"
                                   "Unnumbered threads: 0 live, 0 total\r\n"
                                   "Threads:\r\n"
                                   "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
                                   "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
                                   "Deleted threads: \r\n"
                                   "Thread number  3 : Prio =  64, Log = Yes, Name = w0\r\n"
                                   "Timestamps:\r\n"
                                   "From  1 to  3 at       3\r\n"
                                   "From  3 to  2 at       3\r\n"
                                   "From  2 to  3 at       4\r\n"
                                   "From  3 to  3 at       4\r\n"
                                   "From  0 to  1 at       4\r\n"
                                   "End of dump: 5 records, checksum "));
  /* The checksum is FNV-1a over the four bytes (little end first) of each record word. */
  ts = strstr (dump, "Timestamps:\r\n");
  lines = g_strsplit (ts, "\r\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      int out, in, tick;

      if (sscanf (lines[i], "From %d to %d at %d", &out, &in, &tick) == 3)
        {
          guint32 word = ((guint32) tick << 12) | ((guint32) out << 6) | (guint32) in;

          for (guint b = 0; b < 4; b++)
            {
              hash ^= (word >> (8 * b)) & 0xFF;
              hash *= 16777619U;
            }
        }
    }
  g_snprintf (expected_end, sizeof expected_end, "End of dump: 5 records, checksum %08X\r\n",
              hash);
  end = strstr (dump, "End of dump:");
  g_assert_cmpstr (end, ==, expected_end);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mcu/timestamps/list-and-log", test_list_and_log);
  g_test_add_func ("/mcu/timestamps/exit-renumbers", test_exit_renumbers);
  g_test_add_func ("/mcu/timestamps/tick-wrap", test_tick_wrap);
  g_test_add_func ("/mcu/timestamps/ring-overwrite", test_ring_overwrite);
  g_test_add_func ("/mcu/timestamps/history-leaves-with-its-record",
                   test_history_leaves_with_its_record);
  g_test_add_func ("/mcu/timestamps/history-overflow", test_history_overflow);
  g_test_add_func ("/mcu/timestamps/trigger-before-half-full", test_trigger_before_half_full);
  g_test_add_func ("/mcu/timestamps/trigger-after-full", test_trigger_after_full);
  g_test_add_func ("/mcu/timestamps/exits-after-trigger", test_exits_after_trigger);
  g_test_add_func ("/mcu/timestamps/trigger-stays-through-exits", test_trigger_stays_through_exits);
  g_test_add_func ("/mcu/timestamps/trigger-stays-through-held-exits",
                   test_trigger_stays_through_held_exits);
  g_test_add_func ("/mcu/timestamps/exit-while-printing", test_exit_while_printing);
  g_test_add_func ("/mcu/timestamps/paused-while-printing", test_paused_while_printing);
  g_test_add_func ("/mcu/timestamps/late-exit-while-frozen-and-printing",
                   test_late_exit_while_frozen_and_printing);
  g_test_add_func ("/mcu/timestamps/pause-lines", test_pause_lines);
  g_test_add_func ("/mcu/timestamps/unlogged-threads", test_unlogged_threads);
  g_test_add_func ("/mcu/timestamps/trigger-from-isr", test_trigger_from_isr);
  g_test_add_func ("/mcu/timestamps/i-class-needs-lock", test_i_class_needs_lock);
  g_test_add_func ("/mcu/timestamps/usage", test_usage);
  g_test_add_func ("/mcu/timestamps/dump", test_dump);

  return g_test_run ();
}
