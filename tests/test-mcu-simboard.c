/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The simulated board: its workload is a pure function of the seed and looks like a real
 * board's (several switches per tick, exits, unlogged threads, a trigger from code); its shell
 * speaks like ChibiOS's over a real socket.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gio/gio.h>

#include "tks-simboard.h"
#include "tks-simboard-private.h"

static char *
dump_after_events (guint32 seed, guint64 ticks, gboolean events)
{
  TksSimboardOptions opts;
  TksSimboardState *board;
  char *dump;

  tks_simboard_options_init (&opts);
  opts.seed = seed;
  opts.events = events;
  g_assert_true (tks_simboard_state_acquire (NULL));
  board = tks_simboard_state_new (&opts);
  tks_simboard_state_advance (board, ticks);
  g_assert_cmpuint (tks_simboard_state_get_tick (board), ==, ticks);
  dump = tks_simboard_state_run_command (board, "threads_dump");
  tks_simboard_state_free (board);
  tks_simboard_state_release ();
  return dump;
}

static char *
dump_after (guint32 seed, guint64 ticks)
{
  return dump_after_events (seed, ticks, TRUE);
}

static void
test_deterministic (void)
{
  g_autofree char *a = dump_after (7, 5000);
  g_autofree char *b = dump_after (7, 5000);
  g_autofree char *c = dump_after (8, 5000);
  g_autofree char *d = dump_after_events (7, 5000, FALSE);
  g_autofree char *e = dump_after_events (7, 5000, FALSE);

  g_assert_cmpstr (a, ==, b);
  g_assert_cmpstr (a, !=, c);
  g_assert_cmpstr (d, ==, e);
  g_assert_true (g_str_has_prefix (a, "Dump version: 2\r\n"));
  g_assert_true (g_str_has_prefix (d, "Dump version: 1\r\n"));
}

/* A board started with an uptime is the board that ran that long. */
static void
test_uptime (void)
{
  TksSimboardOptions opts;
  TksSimboardState *board;
  g_autofree char *dump = NULL;
  g_autofree char *expected = dump_after (1, 5000);
  g_autoptr(GError) error = NULL;

  tks_simboard_options_init (&opts);
  g_assert_cmpuint (opts.uptime_ms, ==, 0);
  opts.uptime_ms = 5000;
  g_assert_true (tks_simboard_options_check (&opts, NULL));
  g_assert_true (tks_simboard_state_acquire (NULL));
  board = tks_simboard_state_new (&opts);
  g_assert_cmpuint (tks_simboard_state_get_tick (board), ==, 5000);
  dump = tks_simboard_state_run_command (board, "threads_dump");
  tks_simboard_state_free (board);
  tks_simboard_state_release ();
  g_assert_cmpstr (dump, ==, expected);

  opts.uptime_ms = 600001;
  g_assert_false (tks_simboard_options_check (&opts, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

/* The switches, as a board without the event options records them. */
static void
test_workload (void)
{
  g_autofree char *dump = dump_after_events (1, 20000, FALSE);
  g_auto (GStrv) lines = g_strsplit (dump, "\r\n", -1);
  g_autoptr (GHashTable) per_tick = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint records = 0, exits = 0, max_per_tick = 0, zero_out = 0;
  GHashTableIter iter;
  gpointer key, value;

  g_assert_true (g_str_has_prefix (dump, "Dump version: 1\r\n"));
  g_assert_nonnull (strstr (dump, "Mode: run\r\n"));
  g_assert_nonnull (strstr (dump, "Log =  No, Name = stats\r\n"));
  /* Exited dynamic threads keep their names in a dump (the legacy list does not). */
  g_assert_nonnull (strstr (dump, "Log = Yes, Name = job_"));
  g_assert_null (strstr (dump, "Name = Exited dynamic thread\r\n"));
  for (guint i = 0; lines[i] != NULL; i++)
    {
      int out, in, tick;

      if (sscanf (lines[i], "From %d to %d at %d", &out, &in, &tick) != 3)
        continue;
      records++;
      if (out == in)
        exits++;
      if (out == 0)
        zero_out++;
      g_hash_table_insert (per_tick, GINT_TO_POINTER (tick),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (per_tick, GINT_TO_POINTER (tick))) + 1));
    }
  g_hash_table_iter_init (&iter, per_tick);
  while (g_hash_table_iter_next (&iter, &key, &value))
    max_per_tick = MAX (max_per_tick, GPOINTER_TO_UINT (value));
  g_assert_cmpuint (records, ==, 3000);
  g_assert_cmpuint (exits, >, 0);
  g_assert_cmpuint (zero_out, >=, exits);
  g_assert_cmpuint (max_per_tick, >=, 5);
  g_assert_nonnull (strstr (dump, "End of dump: 3000 records, checksum "));
}

static void
test_trigger_from_code (void)
{
  g_autofree char *dump = dump_after (1, 70000);

  g_assert_nonnull (strstr (dump, "Trigger name: control_overrun\r\n"));
  g_assert_nonnull (strstr (dump, "Mode: frozen\r\n"));
}

static char *
read_until_prompt (int fd)
{
  GString *s = g_string_new (NULL);

  while (!g_str_has_suffix (s->str, "ch> "))
    {
      struct pollfd pfd = { fd, POLLIN, 0 };
      char buf[4096];
      ssize_t n;

      g_assert_cmpint (poll (&pfd, 1, 10000), ==, 1);
      n = read (fd, buf, sizeof buf);
      g_assert_cmpint (n, >, 0);
      g_string_append_len (s, buf, n);
    }
  return g_string_free (s, FALSE);
}

static void
send_line (int fd, const char *line)
{
  g_assert_cmpint (write (fd, line, strlen (line)), ==, (gssize) strlen (line));
}

/* "help" and the board's answer, up to the next prompt */
#define HELP_EXCHANGE \
  "help\r\nCommands: help exit info echo systime threads_list threads_timestamps " \
  "threads_timestamps_trigger threads_timestamps_run threads_stat threads_uc threads_dump " \
  "threads_dump_compact threads_trigger_when threads_record \r\nch> "

static void
test_shell_in_process (void)
{
  TksSimboardOptions opts;
  g_autoptr (GError) error = NULL;
  TksSimboard *board, *second;
  int sv[2];
  char *text;

  tks_simboard_options_init (&opts);
  opts.speed = 5.0;
  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM, 0, sv), ==, 0);
  board = tks_simboard_start (&opts, sv[1], &error);
  g_assert_no_error (error);

  second = tks_simboard_start (&opts, sv[1], &error);
  g_assert_null (second);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
  g_clear_error (&error);

  text = read_until_prompt (sv[0]);
  g_assert_cmpstr (text, ==, "\r\nChibiOS/RT Shell\r\nch> ");
  g_free (text);

  send_line (sv[0], "nosuch\r\n");
  text = read_until_prompt (sv[0]);
  g_assert_cmpstr (text, ==, "nosuch\r\nnosuch ?\r\nch> ");
  g_free (text);

  send_line (sv[0], "threads_list now\r\n");
  text = read_until_prompt (sv[0]);
  g_assert_cmpstr (text, ==, "threads_list now\r\nUsage: threads_list\r\nch> ");
  g_free (text);

  send_line (sv[0], "a b c d e f\r\n");
  text = read_until_prompt (sv[0]);
  g_assert_cmpstr (text, ==, "a b c d e f\r\ntoo many arguments\r\nch> ");
  g_free (text);

  send_line (sv[0], "help\r\n");
  text = read_until_prompt (sv[0]);
  g_assert_cmpstr (text, ==, HELP_EXCHANGE);
  g_free (text);

  /* Backspace edits the line as on a terminal. */
  send_line (sv[0], "systimX\bE\r\n");
  text = read_until_prompt (sv[0]);
  g_assert_true (g_str_has_prefix (text, "systimX\b \bE\r\n"));
  g_assert_true (g_str_has_suffix (text, "\r\nch> "));
  g_free (text);

  send_line (sv[0], "threads_timestamps_trigger\r\n");
  text = read_until_prompt (sv[0]);
  g_assert_true (g_str_has_prefix (text, "threads_timestamps_trigger\r\nTrigger set by Shell command at "));
  g_free (text);

  tks_simboard_stop (board);
  close (sv[0]);
  close (sv[1]);

  /* Stopped: another board may run. */
  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM, 0, sv), ==, 0);
  board = tks_simboard_start (&opts, sv[1], &error);
  g_assert_no_error (error);
  send_line (sv[0], "exit\r\n");
  tks_simboard_stop (board);
  close (sv[0]);
  close (sv[1]);
}

/* A viewer that stops reading must not keep the board from stopping. */
static void
test_stop_without_reader (void)
{
  TksSimboardOptions opts;
  g_autoptr (GError) error = NULL;
  TksSimboard *board;
  gint64 t0;
  int sv[2];

  tks_simboard_options_init (&opts);
  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM, 0, sv), ==, 0);
  board = tks_simboard_start (&opts, sv[1], &error);
  g_assert_no_error (error);
  /* Ask for far more output than the socket buffers hold, and never read it. */
  for (guint i = 0; i < 40; i++)
    send_line (sv[0], "threads_timestamps\r\n");
  g_usleep (300000);
  t0 = g_get_monotonic_time ();
  tks_simboard_stop (board);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 2 * G_USEC_PER_SEC);
  close (sv[0]);
  close (sv[1]);
}

static void
test_serve_fd_eof (void)
{
  TksSimboardOptions opts;
  int sv[2];

  tks_simboard_options_init (&opts);
  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM, 0, sv), ==, 0);
  send_line (sv[0], "systime\r\n");
  shutdown (sv[0], SHUT_WR);
  g_assert_cmpint (tks_simboard_serve_fd (&opts, sv[1]), ==, 0);
  close (sv[0]);
  close (sv[1]);

  opts.tick_hz = 5;
  errno = 0;
  g_assert_cmpint (tks_simboard_serve_fd (&opts, 0), ==, -1);
  g_assert_cmpint (errno, ==, EINVAL);
}

static void
test_options (void)
{
  TksSimboardOptions opts;
  g_autoptr (GError) error = NULL;

  tks_simboard_options_init (&opts);
  g_assert_true (tks_simboard_options_check (&opts, NULL));
  opts.log_size = 8;
  g_assert_false (tks_simboard_options_check (&opts, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "Log size 8"));
  g_clear_error (&error);

  tks_simboard_options_init (&opts);
  g_assert_cmpuint (opts.packet_bytes, ==, 256);
  opts.packet_bytes = 70000;
  g_assert_false (tks_simboard_options_check (&opts, &error));
  g_assert_nonnull (strstr (error->message, "Packet size 70000"));
}

/* Output sent in small packets while it is printed, or whole: the same bytes either way. */
static void
test_packets (void)
{
  static const guint sizes[] = { 1, 16, 0 };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      TksSimboardOptions opts;
      g_autoptr (GError) error = NULL;
      TksSimboard *board;
      int sv[2];
      char *text;

      tks_simboard_options_init (&opts);
      opts.packet_bytes = sizes[i];
      g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM, 0, sv), ==, 0);
      board = tks_simboard_start (&opts, sv[1], &error);
      g_assert_no_error (error);
      g_free (read_until_prompt (sv[0]));
      send_line (sv[0], "help\r\n");
      text = read_until_prompt (sv[0]);
      g_assert_cmpstr (text, ==, HELP_EXCHANGE);
      g_free (text);
      tks_simboard_stop (board);
      close (sv[0]);
      close (sv[1]);
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mcu/simboard/deterministic", test_deterministic);
  g_test_add_func ("/mcu/simboard/workload", test_workload);
  g_test_add_func ("/mcu/simboard/uptime", test_uptime);
  g_test_add_func ("/mcu/simboard/trigger-from-code", test_trigger_from_code);
  g_test_add_func ("/mcu/simboard/shell-in-process", test_shell_in_process);
  g_test_add_func ("/mcu/simboard/stop-without-reader", test_stop_without_reader);
  g_test_add_func ("/mcu/simboard/serve-fd-eof", test_serve_fd_eof);
  g_test_add_func ("/mcu/simboard/options", test_options);
  g_test_add_func ("/mcu/simboard/packets", test_packets);

  return g_test_run ();
}
