/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The simulated board serving its shell on a link (a TCP connection, a pty, a socketpair): its
 * output at the link's pace, its clock against real time, a client let go, a link's end. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>

#include "ch.h"
#include "chprintf.h"
#include "threads_utilities.h"

#include "tks-simboard-board.h"

static gboolean
stopping (TksSimboardState *b)
{
  return b->stop != NULL && g_atomic_int_get (b->stop);
}

/* Writes @len bytes. A pty without a reader drops output like a serial line. */
static void
send_out (TksSimboardState *b,
          const guint8     *data,
          gsize             len)
{
  gsize done = 0;

  while (done < len && !b->io_error)
    {
      ssize_t n = send (b->fd, data + done, len - done, MSG_NOSIGNAL | MSG_DONTWAIT);

      if (n < 0 && errno == ENOTSOCK)
        n = write (b->fd, data + done, len - done);

      if (n > 0)
        {
          done += (gsize) n;
          continue;
        }
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && errno == EAGAIN)
        {
          struct pollfd pfd = { b->fd, POLLOUT, 0 };
          int waited_ms = 0;

          /* A reader that stops reading: give up after 5 s (50 ms on a pty, whose output
           * nobody may be reading), or as soon as the board is asked to stop. */
          while (poll (&pfd, 1, 50) == 0)
            {
              waited_ms += 50;
              if (stopping (b) || waited_ms >= (b->is_pty ? 50 : 5000))
                break;
            }
          if ((pfd.revents & POLLOUT) == 0)
            {
              if (b->is_pty)
                break;
              b->io_error = TRUE;
            }
          continue;
        }
      if (b->is_pty && n < 0 && errno == EIO)
        break;
      b->io_error = TRUE;
    }
}

/* Writes the pending output; at a baud rate, no faster than a serial line at that rate, 8N1
 * (ten bits a byte), a slice of at most 10 ms at a time. */
void
tks_sim_flush_out (TksSimboardState *b)
{
  gsize slice = b->opts.baud > 0 ? MAX (b->opts.baud / 1000, 1) : b->out->len;

  for (gsize done = 0; done < b->out->len && !b->io_error && !stopping (b); )
    {
      gsize n = MIN (slice, b->out->len - done);

      if (b->opts.baud > 0 && !b->recording)
        {
          gint64 now = g_get_monotonic_time ();

          if (b->wire_free_us > now)
            g_usleep ((gulong) (b->wire_free_us - now));
          b->wire_free_us = MAX (now, b->wire_free_us) + (gint64) n * 10 * G_USEC_PER_SEC / b->opts.baud;
        }
      send_out (b, b->out->data + done, n);
      done += n;
    }
  g_byte_array_set_size (b->out, 0);
}

/* The tick real time has reached: the clock runs from the board's start. */
static guint64
clock_target (TksSimboardState *b)
{
  double ticks_per_us = b->opts.tick_hz * b->opts.speed / 1e6;

  return b->clock_tick + (guint64) ((double) (g_get_monotonic_time () - b->clock_us) * ticks_per_us);
}

/* Whether the client has sent nothing for the idle time (never on a pty, which has no next
 * client): it is told so, and let go. */
static gboolean
client_idle (TksSimboardState *b)
{
  g_autofree char *text = NULL;

  if (b->opts.idle_s == 0 || b->is_pty ||
      g_get_monotonic_time () - b->heard_us < (gint64) b->opts.idle_s * G_USEC_PER_SEC)
    return FALSE;
  text = g_strdup_printf ("\r\ntickscope-simboard: nothing heard from you for %u s: the board "
                          "lets you go, for the next client\r\n", b->opts.idle_s);
  tks_sim_out_str (b, text);
  tks_sim_flush_out (b);
  return TRUE;
}

/* The link is gone, or another begins (with no link: b->fd is -1). What the host it served
 * asked for goes with it:
 * - a recording it streamed ends, as the board's silence would end it, and nobody reads its
 *   end;
 * - a command line it sent that the shell has not run yet is dropped, with the note of its
 *   interrupt. Run with nobody connected, the board would run it alone: a threads_record run
 *   so would start a recording nothing polls, which no silence would ever end, and every
 *   later host's would be refused ("A recording is already under way"). */
static void
link_reset (TksSimboardState *b)
{
  if (b->recording)
    {
      static const guint8 stop_byte = 3;
      BoardStream stream = { { &tks_sim_stream_vmt }, b };

      g_assert (b->fd < 0);
      (void) b->mcu->record_poll (&stream.base, &stop_byte, 1);
      b->recording = FALSE;
    }
  b->line_len = 0;
  b->command_pending = FALSE;
  b->uart_rx_raised = FALSE;
  g_byte_array_set_size (b->in, 0);
  g_byte_array_set_size (b->out, 0);
}

gboolean
tks_simboard_state_catch_up (TksSimboardState *b)
{
  guint64 target = clock_target (b);

  /* A bounded amount per call, so input stays responsive. */
  for (guint steps = 0; b->tick < target && steps < 20000; steps++)
    {
      tks_sim_tick (b);
      if (b->fd >= 0)
        tks_sim_record_step (b);
      if (b->out->len > 0 && b->fd >= 0)
        tks_sim_flush_out (b);
    }
  return b->tick >= target;
}

/* What the client sent, if anything: -1 when the link ended (an errno, or 0 at its end). */
static int
take_input (TksSimboardState *b)
{
  guint8 buf[512];
  ssize_t n = read (b->fd, buf, sizeof buf);

  if (n > 0)
    {
      g_byte_array_append (b->in, buf, (guint) n);
      b->heard_us = g_get_monotonic_time ();
      tks_sim_shell_input (b);
      tks_sim_record_step (b);
      return 0;
    }
  if (n == 0)
    return -1;   /* EOF */
  if (errno == EINTR || errno == EAGAIN)
    return 0;
  if (b->is_pty && errno == EIO)
    {
      /* Nobody has the pty open: wait for a reader. */
      g_usleep (20000);
      return 0;
    }
  return errno;
}

/* A turn of the board's loop: it catches up with real time, takes the client's input, and
 * waits a little for more. 0 while the link goes on; -1 when it ended, or an errno. */
static int
serve_turn (TksSimboardState *b,
            double            ticks_per_us)
{
  struct pollfd pfd = { b->fd, POLLIN, 0 };
  gboolean caught_up = tks_simboard_state_catch_up (b);
  int timeout_ms;
  int r;

  tks_sim_shell_input (b);
  if (b->out->len > 0)
    tks_sim_flush_out (b);
  if (client_idle (b))
    return -1;

  timeout_ms = !caught_up ? 0 : (int) MAX (1.0, MIN (20.0, 1000.0 / (ticks_per_us * 1e6)));
  r = poll (&pfd, 1, timeout_ms);
  if (r < 0)
    return errno == EINTR ? 0 : errno;
  if (r > 0 && (pfd.revents & (POLLIN | POLLHUP | POLLERR)) != 0)
    return take_input (b);
  return 0;
}

int
tks_simboard_state_serve (TksSimboardState *b, int fd, gboolean is_pty, const gint *stop)
{
  double ticks_per_us = b->opts.tick_hz * b->opts.speed / 1e6;
  int ended = 0;

  link_reset (b);
  b->fd = fd;
  b->is_pty = is_pty;
  b->stop = stop;
  b->io_error = FALSE;
  b->want_exit = FALSE;
  b->heard_us = g_get_monotonic_time ();

  if (b->opts.banner)
    tks_sim_out_str (b, "\r\nChibiOS/RT Shell\r\n");
  tks_sim_out_str (b, "ch> ");
  tks_sim_flush_out (b);

  while (ended == 0 && !b->io_error && !b->want_exit && (stop == NULL || !g_atomic_int_get (stop)))
    ended = serve_turn (b, ticks_per_us);
  if (b->recording)
    g_byte_array_set_size (b->out, 0);
  tks_sim_flush_out (b);
  b->fd = -1;
  link_reset (b);
  if (ended > 0)
    {
      errno = ended;
      return -1;
    }
  return 0;
}

int
tks_simboard_serve_fd (const TksSimboardOptions *opts, int fd)
{
  TksSimboardState *b;
  int r, saved;

  if (opts == NULL || fd < 0 || !tks_simboard_options_check (opts, NULL))
    {
      errno = EINVAL;
      return -1;
    }
  if (!tks_simboard_state_acquire (NULL))
    {
      errno = EBUSY;
      return -1;
    }
  b = tks_simboard_state_new (opts);
  r = tks_simboard_state_serve (b, fd, FALSE, NULL);
  saved = errno;
  tks_simboard_state_free (b);
  tks_simboard_state_release ();
  errno = saved;
  return r;
}

struct _TksSimboard
{
  TksSimboardState *board;
  GThread     *thread;
  int          fd;
  gint         stop;
};

static gpointer
board_thread (gpointer data)
{
  TksSimboard *self = data;

  tks_simboard_state_serve (self->board, self->fd, FALSE, &self->stop);
  return NULL;
}

TksSimboard *
tks_simboard_start (const TksSimboardOptions *opts, int fd, GError **error)
{
  TksSimboard *self;

  g_return_val_if_fail (opts != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (fd < 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           "The simulated board needs a connected file descriptor");
      return NULL;
    }
  if (!tks_simboard_options_check (opts, error))
    return NULL;
  if (!tks_simboard_state_acquire (error))
    return NULL;

  self = g_new0 (TksSimboard, 1);
  self->fd = fd;
  self->board = tks_simboard_state_new (opts);
  self->thread = g_thread_new ("tks-simboard", board_thread, self);
  return self;
}

void
tks_simboard_stop (TksSimboard *self)
{
  if (self == NULL)
    return;
  g_atomic_int_set (&self->stop, 1);
  g_thread_join (self->thread);
  tks_simboard_state_free (self->board);
  g_free (self);
  tks_simboard_state_release ();
}

gpointer
tks_simboard_start_demo (int fd, GError **error)
{
  TksSimboardOptions opts;

  tks_simboard_options_init (&opts);
  opts.uptime_ms = 10000;
  opts.events = g_strcmp0 (g_getenv ("TICKSCOPE_DEMO_EVENTS"), "0") != 0;
  /* With every interrupt recorded, 3000 slots hold a fifth of a second: the demo's log holds
   * a couple of seconds, as a board with a larger log would. */
  if (opts.events)
    opts.log_size = 32768;
  return tks_simboard_start (&opts, fd, error);
}

void
tks_simboard_stop_demo (gpointer board)
{
  tks_simboard_stop (board);
}
