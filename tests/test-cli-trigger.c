/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tickscope-cli trigger --when / --wait against the simulated board program
 * (tickscope-simboard, named by $TKS_SIMBOARD) over TCP: a latency condition the demo
 * workload meets, armed, waited for and fetched, the trigger where the condition was met; a
 * wait bounded by --timeout; Ctrl+C while waiting; and bad conditions refused before anything
 * reaches the port.
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "tks-capture.h"
#include "tks-events.h"
#include "tks-test-cli.h"
#include "tks-test-port.h"

typedef struct
{
  GSubprocess *proc;
  char        *address;
} Board;

static void
board_start (Board      *board,
             const char *extra)
{
  const char *exe = g_getenv ("TKS_SIMBOARD");
  g_autoptr(GError) error = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autofree char *port = g_strdup_printf ("%u", free_port ());
  g_autofree char *line = NULL;

  g_assert_nonnull (exe);
  board->proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                                  &error, exe, "--tcp", port, extra, NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (board->proc));
  line = g_data_input_stream_read_line (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  board->address = g_strdup_printf ("tcp:127.0.0.1:%s", port);
}

static void
board_stop (Board *board)
{
  g_subprocess_force_exit (board->proc);
  g_subprocess_wait (board->proc, NULL, NULL);
  g_clear_object (&board->proc);
  g_clear_pointer (&board->address, g_free);
}

/* Armed, waited for, fetched: the capture's trigger lies at the switch-in of a wake-up of
 * sensor later than the limit, and the board's measure of it is that wake-up's latency. */
static void
test_wait (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tickscope-cli-trigger-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "frozen.txt", NULL);
  g_auto(TksCliResult) r = { 0 };
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  const TksEventsInfo *info;
  const TksWakeup *wakeups;
  const TksThread *thread;
  TksEvents *events;
  guint n_wakeups, found = 0;
  double trigger;
  Board board = { 0 };

  board_start (&board, NULL);
  r = tks_run_cli (NULL, "trigger", board.address, "--when", "latency sensor > 12us", "--wait",
                   "--timeout", "120", "-o", path, "--no-history", NULL);
  board_stop (&board);
  g_test_message ("stdout:\n%s\nstderr:\n%s", r.out, r.err);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "Armed: the first wake-up of sensor later than 12 µs "
                                          "sets the trigger\n"));
  g_assert_nonnull (strstr (r.out, "\nTrigger at tick "));
  g_assert_nonnull (strstr (r.out, "; set by latency above 12 us of sensor (measured "));
  /* the progress, a line per change of the board's mode (stderr is no terminal here) */
  g_assert_nonnull (strstr (r.err, "Waiting for the board to freeze: "));
  g_assert_nonnull (strstr (r.err, "Waiting for the board to freeze: frozen: the log is ready to "
                                   "fetch, "));

  capture = tks_capture_new_from_file (path, &error);
  g_assert_no_error (error);
  g_assert_true (tks_capture_get_trigger (capture, &trigger));
  g_assert_cmpstr (tks_capture_get_trigger_name (capture), ==, "latency above 12 us of sensor");
  events = tks_capture_get_events (capture);
  g_assert_nonnull (events);
  info = tks_events_get_info (events);
  g_assert_true (info->has_trigger_value);
  g_assert_cmpuint (info->counter_hz, >, 0);
  g_assert_cmpstr (info->condition, ==, "latency above 12 us of sensor");
  /* The log holds the half before the trigger and the half after it. */
  g_assert_cmpfloat (trigger, >, tks_capture_get_start (capture));
  g_assert_cmpfloat (trigger, <, tks_capture_get_end (capture));

  wakeups = tks_events_get_wakeups (events, &n_wakeups);
  for (guint i = 0; i < n_wakeups; i++)
    {
      const TksWakeup *w = &wakeups[i];
      guint64 us;

      if (w->open || w->thread == G_MAXUINT || fabs (w->run.pos - trigger) > 1e-9)
        continue;
      thread = tks_capture_get_thread (capture, w->thread);
      if (g_strcmp0 (thread->name, "sensor") != 0)
        continue;
      us = (guint64) w->latency / (info->counter_hz / 1000000);
      g_test_message ("the wake-up at the trigger: %" G_GUINT64_FORMAT " µs", us);
      g_assert_cmpuint (us, >, 12);
      g_assert_cmpuint (us, ==, info->trigger_value);
      found++;
    }
  g_assert_cmpuint (found, ==, 1);
  g_unlink (path);
  g_rmdir (dir);
}

/* A board whose log an earlier trigger holds: the condition could never set the next one, so
 * the log is restarted (run mode, which keeps the condition), and the trigger fetched is the
 * condition's. */
static void
test_held (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tickscope-cli-trigger-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "again.txt", NULL);
  g_auto(TksCliResult) now = { 0 };
  g_auto(TksCliResult) r = { 0 };
  g_autoptr(TksCapture) capture = NULL;
  double trigger;
  Board board = { 0 };

  board_start (&board, NULL);
  now = tks_run_cli (NULL, "trigger", board.address, NULL);
  g_assert_cmpint (now.status, ==, 0);
  g_assert_true (g_str_has_prefix (now.out, "Trigger set by Shell command at "));
  r = tks_run_cli (NULL, "trigger", board.address, "--when", "latency sensor > 12us", "--wait",
                   "--timeout", "120", "-o", path, "--no-history", NULL);
  board_stop (&board);
  g_test_message ("stdout:\n%s\nstderr:\n%s", r.out, r.err);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "Armed: the first wake-up of sensor later than 12 µs "
                                          "sets the trigger\nThe board's log was held by an "
                                          "earlier trigger: it runs again (run mode), and the "
                                          "condition sets the next one\n"));
  capture = tks_capture_new_from_file (path, NULL);
  g_assert_nonnull (capture);
  g_assert_true (tks_capture_get_trigger (capture, &trigger));
  g_assert_cmpstr (tks_capture_get_trigger_name (capture), ==, "latency above 12 us of sensor");
  g_unlink (path);
  g_rmdir (dir);
}

/* A condition the workload never meets: --timeout ends the wait, nothing is written. */
static void
test_timeout (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tickscope-cli-trigger-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "never.txt", NULL);
  g_auto(TksCliResult) r = { 0 };
  g_auto(TksCliResult) off = { 0 };
  Board board = { 0 };

  board_start (&board, NULL);
  r = tks_run_cli (NULL, "trigger", board.address, "--when", "run idle > 20s", "--wait",
                   "--timeout", "1", "-o", path, "--no-history", NULL);
  off = tks_run_cli (NULL, "trigger", board.address, "--when", "off", NULL);
  board_stop (&board);
  g_test_message ("stdout:\n%s\nstderr:\n%s", r.out, r.err);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpstr (r.out, ==, "Armed: the first run of idle longer than 20000000 µs sets the "
                              "trigger\n");
  g_assert_nonnull (strstr (r.err, "tickscope-cli trigger: the board did not freeze within 1 s; "
                                   "the condition stays armed (--when off removes it)\n"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_cmpint (off.status, ==, 0);
  g_assert_cmpstr (off.out, ==, "No condition is set\n");
  g_rmdir (dir);
}

/* Ctrl+C while waiting: the program ends at once, says so, writes nothing. */
static void
test_interrupt (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tickscope-cli-trigger-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "stopped.txt", NULL);
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (
    G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GDataInputStream) err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) seen = g_string_new (NULL);
  char *line;
  Board board = { 0 };

  board_start (&board, NULL);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "LANGUAGE");
  proc = g_subprocess_launcher_spawn (launcher, &error, TICKSCOPE_CLI, "trigger", board.address,
                                      "--when", "marker sample = 4294967294", "--wait", "-o",
                                      path, "--no-history", NULL);
  g_assert_no_error (error);
  err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (proc));
  /* the first progress line: it waits */
  while ((line = g_data_input_stream_read_line (err, NULL, NULL, &error)) != NULL)
    {
      g_string_append_printf (seen, "%s\n", line);
      if (g_str_has_prefix (line, "Waiting for the board to freeze: recording"))
        {
          g_free (line);
          break;
        }
      g_free (line);
    }
  g_assert_no_error (error);
  g_assert_nonnull (strstr (seen->str, "Waiting for the board to freeze: recording"));
  g_subprocess_send_signal (proc, SIGINT);
  while ((line = g_data_input_stream_read_line (err, NULL, NULL, &error)) != NULL)
    {
      g_string_append_printf (seen, "%s\n", line);
      g_free (line);
    }
  g_assert_true (g_subprocess_wait (proc, NULL, NULL));
  board_stop (&board);
  g_test_message ("%s", seen->str);
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 1);
  g_assert_nonnull (strstr (seen->str, "tickscope-cli trigger: stopped by Ctrl+C; the board keeps "
                                       "its condition (--when off removes it)\n"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_rmdir (dir);
}

/* A bad condition: exit 2 and a message naming what is wrong, and not a byte reaches the
 * port (a pty whose other end this test holds open). */
static void
test_bad_conditions (void)
{
  static const struct
  {
    const char *when;
    const char *message;
  } bad[] = {
    { "latency comm > 1000", "tickscope-cli trigger: “latency comm > 1000”, column 20: the time "
                             "1000 has no unit: write us, ms or s after it\n" },
    { "latenzy comm > 1ms", "column 1: “latenzy” is not a kind of condition" },
    { "latency comm < 1ms", "column 14: “<” is not offered" },
    { "marker sample > 3", "column 15: a marker is compared with “=” only" },
    { "run a-thread-name-much-longer-than-the-forty-seven-bytes > 1ms",
      "the thread's name is 52 bytes long; the board keeps at most 47" },
    { "latency a-thread-name-of-thirty-bytesX > 1000us",
      "more than the 63 a ChibiOS shell line holds" },
  };
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
  int slave;
  char byte;

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  slave = open (ptsname (master), O_RDWR | O_NOCTTY | O_CLOEXEC);
  g_assert_cmpint (slave, >=, 0);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_auto(TksCliResult) r = tks_run_cli (NULL, "trigger", ptsname (master), "--when",
                                            bad[i].when, NULL);

      g_test_message ("%s → %s", bad[i].when, r.err);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_cmpstr (r.out, ==, "");
      g_assert_nonnull (strstr (r.err, bad[i].message));
      /* nothing was sent: the port holds no byte */
      g_assert_cmpint (read (master, &byte, 1), ==, -1);
      g_assert_cmpint (errno, ==, EAGAIN);
    }
  {
    /* --wait needs -o, -o needs --wait: refused before anything is sent too */
    g_auto(TksCliResult) no_output = tks_run_cli (NULL, "trigger", ptsname (master), "--when",
                                                  "latency > 1ms", "--wait", NULL);
    g_auto(TksCliResult) no_wait = tks_run_cli (NULL, "trigger", ptsname (master), "-o",
                                                "x.txt", NULL);

    g_assert_cmpint (no_output.status, ==, 2);
    g_assert_nonnull (strstr (no_output.err, "say where the capture goes"));
    g_assert_cmpint (no_wait.status, ==, 2);
    g_assert_nonnull (strstr (no_wait.err, "-o goes with --wait"));
    g_assert_cmpint (read (master, &byte, 1), ==, -1);
    g_assert_cmpint (errno, ==, EAGAIN);
  }
  close (slave);
  close (master);
}

/* A board built without conditions: said in words, and the condition is not sent. */
static void
test_board_without (void)
{
  g_auto(TksCliResult) r = { 0 };
  Board board = { 0 };

  board_start (&board, "--no-events");
  r = tks_run_cli (NULL, "trigger", board.address, "--when", "latency > 1ms", NULL);
  board_stop (&board);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpstr (r.out, ==, "");
  g_assert_nonnull (strstr (r.err, "tickscope-cli trigger: The board does not offer condition "
                                   "triggers: its help does not list threads_trigger_when"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli/trigger/bad-conditions", test_bad_conditions);
  g_test_add_func ("/cli/trigger/wait", test_wait);
  g_test_add_func ("/cli/trigger/held", test_held);
  g_test_add_func ("/cli/trigger/timeout", test_timeout);
  g_test_add_func ("/cli/trigger/interrupt", test_interrupt);
  g_test_add_func ("/cli/trigger/board-without", test_board_without);
  return g_test_run ();
}
