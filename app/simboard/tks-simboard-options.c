/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The simulated board's options, checked, and the one board a process may run. */
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

static gint board_running;

/********************                  PUBLIC API                  ********************/

void
tks_simboard_options_init (TksSimboardOptions *opts)
{
  g_return_if_fail (opts != NULL);
  opts->seed = 1;
  opts->tick_hz = 1000;
  opts->log_size = 3000;
  opts->speed = 1.0;
  opts->banner = TRUE;
  opts->uptime_ms = 0;
  opts->packet_bytes = 256;
  opts->baud = 0;
  opts->workers = 0;
  opts->legacy_defects = FALSE;
  opts->events = TRUE;
  opts->legacy = FALSE;
  opts->systime_bits = 32;
  opts->idle_s = 0;
}

gboolean
tks_simboard_options_check (const TksSimboardOptions *opts, GError **error)
{
  g_return_val_if_fail (opts != NULL, FALSE);

  if (opts->tick_hz < 100 || opts->tick_hz > 100000)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Tick frequency %u Hz is out of range: use 100 to 100000 Hz", opts->tick_hz);
      return FALSE;
    }
  if (opts->systime_bits != 16 && opts->systime_bits != 32)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "A system time of %u bits is not simulated: use 16 or 32", opts->systime_bits);
      return FALSE;
    }
  if (opts->log_size < 16 || opts->log_size > TKS_SIMBOARD_MAX_LOG_SIZE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Log size %u is out of range: use 16 to %u records", opts->log_size,
                   (guint) TKS_SIMBOARD_MAX_LOG_SIZE);
      return FALSE;
    }
  if (opts->uptime_ms > 600000)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Uptime %u ms is out of range: use 0 to 600000 ms", opts->uptime_ms);
      return FALSE;
    }
  if (opts->baud != 0 && (opts->baud < 300 || opts->baud > 10000000))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Baud rate %u is out of range: use 300 to 10000000, or 0 for no limit",
                   opts->baud);
      return FALSE;
    }
  if (opts->packet_bytes > 65536)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Packet size %u is out of range: use 0 (whole replies) to 65536 bytes",
                   opts->packet_bytes);
      return FALSE;
    }
  if (opts->workers > SIM_MAX_WORKERS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%u workers is out of range: use 0 to %u", opts->workers,
                   (guint) SIM_MAX_WORKERS);
      return FALSE;
    }
  if (!(opts->speed > 0.0 && opts->speed <= 1000.0))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Speed %g is out of range: use a factor above 0 and up to 1000", opts->speed);
      return FALSE;
    }
  return TRUE;
}

gboolean
tks_simboard_state_acquire (GError **error)
{
  if (!g_atomic_int_compare_and_exchange (&board_running, 0, 1))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           "A simulated board is already running in this process");
      return FALSE;
    }
  return TRUE;
}

void
tks_simboard_state_release (void)
{
  g_atomic_int_set (&board_running, 0);
}

