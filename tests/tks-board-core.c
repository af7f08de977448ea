/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tks-board-core.h"

static gpointer
board_core_thread (gpointer data)
{
  TksBoardCore *core = data;
  g_autoptr(GString) line = g_string_new (NULL);

  if (core->greet != NULL && !core->greet (core))
    goto out;
  while (!g_atomic_int_get (&core->stop))
    {
      struct pollfd pfd = { core->fd, POLLIN, 0 };
      char buf[256];
      gssize n;

      if (poll (&pfd, 1, 50) <= 0)
        continue;
      n = read (core->fd, buf, sizeof buf);
      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n < 0 && errno == EIO && core->wait_on_eio)
        {
          g_usleep (20 * 1000);
          continue;
        }
      if (n <= 0)
        break;
      if (core->bytes != NULL && core->bytes (core, buf, (gsize) n))
        continue;
      for (gssize i = 0; i < n; i++)
        {
          if (buf[i] == '\r')
            {
              if (!core->line (core, line->str))
                goto out;
              g_string_truncate (line, 0);
            }
          else if ((guchar) buf[i] >= 0x20 && (core->max_line == 0 || line->len < core->max_line))
            g_string_append_c (line, buf[i]);
        }
    }
out:
  shutdown (core->fd, SHUT_RDWR);
  if (core->close_at_end)
    {
      close (core->fd);
      core->fd = -1;
    }
  return NULL;
}

void
tks_board_core_start (TksBoardCore *core,
                      const char   *name)
{
  g_assert (core->line != NULL);
  core->thread = g_thread_new (name, board_core_thread, core);
}

gboolean
tks_board_core_stopping (TksBoardCore *core)
{
  return g_atomic_int_get (&core->stop);
}

void
tks_board_core_stop (TksBoardCore *core)
{
  g_atomic_int_set (&core->stop, 1);
  g_thread_join (core->thread);
  if (core->fd >= 0)
    close (core->fd);
  core->fd = -1;
}
