/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tickscope-simboard: a simulated ChibiOS board running the thread timestamps library,
 * serving its shell on a TCP port of 127.0.0.1 or on a pseudo-terminal. Its clock runs from
 * its start, whether or not a client is connected.
 *
 * It simulates a 168 MHz cycle counter, tick, serial and sensor interrupts, sleep in idle,
 * wake-ups, markers and states, which its library records (dump version 2) unless
 * --no-events (dump version 1) or --legacy (the original command set only).
 *
 * --truth FILE writes what its scheduler really did, as it does it (tks-simboard-truth.c).
 * --legacy-defects makes the board behave like the original threads_utilities library
 * (legacy commands only, with its defects).
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>
#include <arpa/inet.h>

#include <gio/gio.h>

#include "tks-simboard.h"
#include "tks-simboard-private.h"

/* Connections the system holds while the board serves another: each is served in turn. */
#define LISTEN_BACKLOG 128
/* A client that sends nothing this long is let go, for the next one. */
#define DEFAULT_IDLE_S 120

static gint stop_flag;

static void
handle_stop_signal (int sig)
{
  (void) sig;
  g_atomic_int_set (&stop_flag, 1);
}

static int
open_listener (guint port, GError **error)
{
  struct sockaddr_in addr;
  int fd, one = 1;

  fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                   "Cannot create a TCP socket: %s", g_strerror (errno));
      return -1;
    }
  setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  memset (&addr, 0, sizeof addr);
  addr.sin_family = AF_INET;
  addr.sin_port = htons ((guint16) port);
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  if (bind (fd, (struct sockaddr *) &addr, sizeof addr) < 0 || listen (fd, LISTEN_BACKLOG) < 0)
    {
      int saved = errno;

      close (fd);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "Cannot listen on 127.0.0.1:%u: %s", port, g_strerror (saved));
      return -1;
    }
  return fd;
}

static int
serve_tcp (TksSimboardState *board, guint port, GError **error)
{
  int listener = open_listener (port, error);

  if (listener < 0)
    return 1;
  g_print ("tickscope-simboard: shell on tcp:127.0.0.1:%u\n", port);

  while (!g_atomic_int_get (&stop_flag))
    {
      struct pollfd pfd = { listener, POLLIN, 0 };
      int client, one = 1;

      /* The board runs while nobody is connected, as a real one does. */
      if (poll (&pfd, 1, tks_simboard_state_catch_up (board) ? 5 : 0) <= 0)
        continue;
      client = accept (listener, NULL, NULL);
      if (client < 0)
        {
          if (errno == EINTR || errno == EAGAIN)
            continue;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                       "Cannot accept a connection: %s", g_strerror (errno));
          close (listener);
          return 1;
        }
      setsockopt (client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      if (tks_simboard_state_serve (board, client, FALSE, &stop_flag) < 0)
        g_printerr ("tickscope-simboard: connection ended: %s\n", g_strerror (errno));
      close (client);
    }
  close (listener);
  return 0;
}

static int
serve_pty (TksSimboardState *board, GError **error)
{
  struct termios tio;
  const char *name;
  int master, slave;

  master = posix_openpt (O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt (master) < 0 || unlockpt (master) < 0
      || (name = ptsname (master)) == NULL)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                   "Cannot create a pseudo-terminal: %s", g_strerror (errno));
      if (master >= 0)
        close (master);
      return 1;
    }

  /* Raw line, like a serial port: no echo, no CR/LF translation. */
  slave = open (name, O_RDWR | O_NOCTTY);
  if (slave >= 0)
    {
      if (tcgetattr (slave, &tio) == 0)
        {
          cfmakeraw (&tio);
          tcsetattr (slave, TCSANOW, &tio);
        }
      close (slave);
    }
  fcntl (master, F_SETFL, fcntl (master, F_GETFL) | O_NONBLOCK);

  g_print ("%s\n", name);
  fflush (stdout);

  while (!g_atomic_int_get (&stop_flag))
    {
      if (tks_simboard_state_serve (board, master, TRUE, &stop_flag) < 0)
        {
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                       "Pseudo-terminal %s failed: %s", name, g_strerror (errno));
          close (master);
          return 1;
        }
    }
  close (master);
  return 0;
}

/* The command line's options, as given. */
static gint tcp_port = 0;
static gboolean pty = FALSE;
static gboolean no_banner = FALSE;
static gint64 seed = 1, tick_hz = 1000, log_size = 3000;
static double speed = 1.0;
static int uptime_ms = 0;
static int packet_bytes = 256;
static gint64 baud = 0;
static int workers = 0;
static int systime_bits = 32;
static int idle_s = DEFAULT_IDLE_S;
static gboolean legacy_defects = FALSE;
static gboolean legacy = FALSE;
static gboolean no_events = FALSE;
static char *truth_path = NULL;

/* The options given, as the board's (those out of range as such, for the board's check):
 * FALSE, said, when they do not make sense together or do not fit. */
static gboolean
options_from_args (TksSimboardOptions *opts)
{
  if ((tcp_port > 0) == pty)
    {
      g_printerr ("tickscope-simboard: give either --tcp PORT or --pty\n");
      return FALSE;
    }
  if (tcp_port > 65535)
    {
      g_printerr ("tickscope-simboard: TCP port %d is out of range (1 to 65535)\n", tcp_port);
      return FALSE;
    }
  if (seed < 0 || seed > G_MAXUINT32 || tick_hz < 0 || tick_hz > G_MAXUINT || log_size < 0
      || log_size > G_MAXUINT)
    {
      g_printerr ("tickscope-simboard: --seed, --tick-hz and --log-size take positive numbers\n");
      return FALSE;
    }

  tks_simboard_options_init (opts);
  opts->seed = (guint32) seed;
  opts->tick_hz = (guint) tick_hz;
  opts->log_size = (guint) log_size;
  opts->speed = speed;
  opts->uptime_ms = uptime_ms < 0 ? G_MAXUINT : (guint) uptime_ms;
  opts->banner = !no_banner;
  opts->packet_bytes = packet_bytes < 0 ? G_MAXUINT : (guint) packet_bytes;
  opts->baud = baud < 0 || baud > G_MAXUINT ? G_MAXUINT : (guint) baud;
  opts->workers = workers < 0 ? G_MAXUINT : (guint) workers;
  opts->legacy_defects = legacy_defects;
  opts->legacy = legacy;
  opts->events = !no_events;
  opts->systime_bits = systime_bits < 0 ? 0 : (guint) systime_bits;
  if (idle_s < 0)
    {
      g_printerr ("tickscope-simboard: --idle-timeout takes a number of seconds, 0 for never\n");
      return FALSE;
    }
  opts->idle_s = (guint) idle_s;
  return TRUE;
}

static void
catch_stop_signals (void)
{
  struct sigaction sa;

  signal (SIGPIPE, SIG_IGN);
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = handle_stop_signal;
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);
}

int
main (int argc, char *argv[])
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  TksSimboardOptions opts;
  TksSimboardState *board;
  TksTruthWriter *truth = NULL;
  int status;
  GOptionEntry entries[] = {
    { "tcp", 't', 0, G_OPTION_ARG_INT, &tcp_port, "Serve the shell on 127.0.0.1:PORT", "PORT" },
    { "pty", 'p', 0, G_OPTION_ARG_NONE, &pty, "Serve the shell on a pseudo-terminal (prints its path)", NULL },
    { "seed", 's', 0, G_OPTION_ARG_INT64, &seed, "Workload seed (default 1)", "N" },
    { "tick-hz", 0, 0, G_OPTION_ARG_INT64, &tick_hz, "System tick frequency (default 1000)", "HZ" },
    { "log-size", 0, 0, G_OPTION_ARG_INT64, &log_size, "Records in the log (default 3000)", "N" },
    { "speed", 0, 0, G_OPTION_ARG_DOUBLE, &speed, "Simulated seconds per real second (default 1)", "X" },
    { "uptime", 0, 0, G_OPTION_ARG_INT, &uptime_ms, "Milliseconds the board has already run when the shell starts (default 0)", "MS" },
    { "packet", 0, 0, G_OPTION_ARG_INT, &packet_bytes, "Send the shell's output as it is printed, whenever BYTES are waiting; 0 sends each reply whole (default 256)", "BYTES" },
    { "baud", 0, 0, G_OPTION_ARG_INT64, &baud, "Send no faster than a serial line at this baud rate (default: no limit)", "BAUD" },
    { "no-banner", 0, 0, G_OPTION_ARG_NONE, &no_banner, "Do not print the shell banner on connect", NULL },
    { "workers", 0, 0, G_OPTION_ARG_INT, &workers, "Extra logged threads alive from boot, to have more than the log can number (63; 62 with events) (default 0)", "N" },
    { "systime-bits", 0, 0, G_OPTION_ARG_INT, &systime_bits, "Width of the kernel's system time, 32 or 16 (CH_CFG_ST_RESOLUTION 16: ticks wrap every 65536) (default 32)", "BITS" },
    { "idle-timeout", 0, 0, G_OPTION_ARG_INT, &idle_s, "Over TCP, let a client that sends nothing for SECONDS go, for the next one (default 120; 0: never)", "SECONDS" },
    { "no-events", 0, 0, G_OPTION_ARG_NONE, &no_events, "Run the board library built without its event options: threads_dump answers dump version 1 (switches only, at tick resolution), no threads_trigger_when", NULL },
    { "legacy", 0, 0, G_OPTION_ARG_NONE, &legacy, "Serve the original command set only (threads_list, threads_timestamps, threads_timestamps_trigger, threads_timestamps_run, threads_stat, threads_uc), from the library without events", NULL },
    { "legacy-defects", 0, 0, G_OPTION_ARG_NONE, &legacy_defects, "Behave like the original threads_utilities library: legacy commands only (no threads_dump), exit records written after a trigger froze the log, a deleted-thread history of the last 64 exits whatever the log holds", NULL },
    { "truth", 0, 0, G_OPTION_ARG_FILENAME, &truth_path, "Write what the board really did to FILE as CSV (kind,thread,priority,creation_order,begin,end,value): kinds create, run, exit, running (the run going on when the board stopped), irq (thread: the handler; value: its nesting depth), wakeup (begin: made ready, end: switched in; each followed by a waker row, what made it ready, and a cause row per handler or thread that held the CPU meanwhile, value: its cycles, 1000 a tick), marker (thread: its name; value), state (thread: \"channel: state\"; value: its depth) and sleep (thread: the handler that woke the CPU); times in ticks, the cycles of a tick as a fraction", "FILE" },
    { NULL }
  };

  context = g_option_context_new ("- a simulated ChibiOS board with thread timestamps");
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    "The board runs a deterministic workload (the same seed gives the same switches) in real\n"
    "time from its start, whether or not a client is connected, and answers the ChibiOS shell\n"
    "commands of the thread timestamps library, including threads_dump (not with --legacy or\n"
    "--legacy-defects) and threads_trigger_when (with events).\n"
    "\n"
    "It simulates:\n"
    "  a 168 MHz cycle counter (32 bits, wrapping every 25.6 s), stamped on every event;\n"
    "  a tick interrupt every tick (SysTick_Handler), which makes the sleeping threads due ready;\n"
    "  a serial interrupt for every 64 bytes of a reply sent at the baud rate (115200 without\n"
    "    --baud) and when a command line arrives (USART2_IRQHandler), waking the shell;\n"
    "  a sensor interrupt every other tick (EXTI0_IRQHandler, the highest priority: it\n"
    "    sometimes interrupts the others) that wakes the thread \"sensor\";\n"
    "  the CPU sleeping while the idle thread runs, and the handler that woke it;\n"
    "  wake-ups (made ready, then switched in once the handlers have left);\n"
    "  a marker \"sample\" with the sensor's reading, from the thread \"sensor\";\n"
    "  the states \"busy\" and \"calibrate\" (nested) of a channel \"filter\".\n"
    "Its library records all of it (dump version 2) unless --no-events or --legacy.\n"
    "\n"
    "Over TCP it serves one client at a time, the others waiting their turn: a client that\n"
    "sends nothing for --idle-timeout seconds is told so and let go, and a recording\n"
    "(threads_record) whose client goes or falls silent ends, as on a board.\n"
    "\n"
    "Example: tickscope-simboard --tcp 29001, then tickscope tcp:127.0.0.1:29001");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("tickscope-simboard: %s\n", error->message);
      return 2;
    }
  if (!options_from_args (&opts))
    return 2;
  if (!tks_simboard_options_check (&opts, &error) || !tks_simboard_state_acquire (&error))
    {
      g_printerr ("tickscope-simboard: %s\n", error->message);
      return 2;
    }

  catch_stop_signals ();

  if (truth_path != NULL && (truth = tks_truth_writer_open (truth_path, &error)) == NULL)
    {
      g_printerr ("tickscope-simboard: %s\n", error->message);
      tks_simboard_state_release ();
      return 2;
    }
  board = tks_simboard_state_new_traced (&opts, truth != NULL ? tks_truth_writer_write : NULL, truth);
  status = pty ? serve_pty (board, &error) : serve_tcp (board, (guint) tcp_port, &error);
  if (error != NULL)
    g_printerr ("tickscope-simboard: %s\n", error->message);
  g_clear_error (&error);
  tks_simboard_state_end_truth (board);
  if (!tks_truth_writer_close (truth, &error))
    {
      g_printerr ("tickscope-simboard: %s\n", error->message);
      status = 1;
    }
  tks_simboard_state_free (board);
  tks_simboard_state_release ();
  return status;
}
