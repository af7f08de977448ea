/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <glib-unix.h>

#include "tks-board-core.h"
#include "tks-hostile-board.h"

#define N_RECORDS   3000
#define N_DAMAGED   20
#define PIECE       4096
#define HELP_LINE   "Commands: help exit info echo systime mem threads threads_list " \
                    "threads_timestamps threads_timestamps_trigger threads_timestamps_run "
#define THREADS     "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n" \
                    "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n" \
                    "Thread number  3 : Prio = 129, Log = Yes, Name = sensor\r\n" \
                    "Thread number  4 : Prio = 133, Log = Yes, Name = control\r\n" \
                    "Deleted threads: \r\n"
/* The head of a threads_dump that announces 10 records (what follows it is hostile). */
#define DUMP_HEAD   "Dump version: 1\r\nLog size: 3000\r\nRecords: 10\r\nThreads:\r\n" \
                    THREADS "Timestamps:\r\n"

struct _TksHostileBoard
{
  TksBoardCore    core;
  TksHostileMode  mode;
  char           *target;
  guint           good_replies;
  guint           asked;
  guint64         max_bytes;
  guint64         sent;      /* atomic */
};

typedef enum
{
  SENT,
  INTERRUPTED, /* the other side sent something, or the board is stopped or over its bound */
  FAILED,
} SendResult;

static void
add_record (GString *s,
            guint64  i)
{
  g_string_append_printf (s, "From %2u to %2u at %7u\r\n", (guint) (i % 4) + 1,
                          (guint) ((i + 1) % 4) + 1, (guint) ((1000 + 2 * i) % (1u << 20)));
}

char *
tks_hostile_board_reply (const char *command)
{
  GString *s = g_string_new (NULL);

  if (g_str_equal (command, "help"))
    g_string_append (s, HELP_LINE "\r\n");
  else if (g_str_equal (command, "threads_list"))
    g_string_append (s, THREADS);
  else if (g_str_equal (command, "threads_timestamps"))
    for (guint64 i = 0; i < N_RECORDS; i++)
      add_record (s, i);
  else if (g_str_equal (command, "threads_timestamps_trigger"))
    g_string_append (s, "Trigger set by Shell command at   17154\r\n");
  else if (g_str_equal (command, "threads_timestamps_run"))
    g_string_append (s, "Run mode\r\n");
  else
    g_string_append_printf (s, "%s ?\r\n", command);
  return g_string_free (s, FALSE);
}

/* Sends @len bytes; with @interruptible, gives up as soon as the other side sends anything. */
static SendResult
send_bytes (TksHostileBoard *self,
            const char      *data,
            gsize            len,
            gboolean         interruptible)
{
  while (len > 0)
    {
      struct pollfd pfd = { self->core.fd, POLLOUT | (interruptible ? POLLIN : 0), 0 };
      gssize n;

      if (tks_board_core_stopping (&self->core))
        return INTERRUPTED;
      if (interruptible && __atomic_load_n (&self->sent, __ATOMIC_RELAXED) >= self->max_bytes)
        return INTERRUPTED;
      if (poll (&pfd, 1, 50) <= 0)
        continue;
      if (interruptible && (pfd.revents & POLLIN))
        return INTERRUPTED;
      if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL))
        return FAILED;
      n = send (self->core.fd, data, len, MSG_NOSIGNAL);
      if (n < 0 && errno == ENOTSOCK)
        n = write (self->core.fd, data, len);
      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n <= 0)
        return FAILED;
      __atomic_fetch_add (&self->sent, (guint64) n, __ATOMIC_RELAXED);
      data += n;
      len -= (gsize) n;
    }
  return SENT;
}

static SendResult
send_str (TksHostileBoard *self,
          const char      *s)
{
  return send_bytes (self, s, strlen (s), FALSE);
}

/* The reply's lines over and over (records go on counting), until interrupted. */
static SendResult
send_endless (TksHostileBoard *self,
              const char      *command,
              const char      *reply,
              TksHostileMode   mode)
{
  g_autoptr(GString) piece = g_string_new (NULL);
  guint64 record = 0;
  gboolean records = g_str_equal (command, "threads_timestamps") || g_str_equal (command, "threads_dump");

  if (g_str_equal (command, "threads_dump"))
    {
      SendResult r = send_str (self, DUMP_HEAD);

      if (r != SENT)
        return r;
    }
  for (;;)
    {
      SendResult r;

      g_string_truncate (piece, 0);
      if (records)
        while (piece->len < PIECE)
          add_record (piece, record++);
      else
        while (piece->len < PIECE)
          g_string_append (piece, reply);

      if (mode == TKS_HOSTILE_STEADY)
        {
          r = send_bytes (self, piece->str, piece->len, TRUE);
          g_usleep (1000);
        }
      else if (mode != TKS_HOSTILE_TRICKLE)
        r = send_bytes (self, piece->str, piece->len, TRUE);
      else
        {
          r = SENT;
          for (gsize i = 0; i < piece->len && r == SENT; i++)
            {
              r = send_bytes (self, piece->str + i, 1, TRUE);
              g_usleep (100 * 1000);
            }
        }
      if (r != SENT)
        return r;
    }
}

static SendResult
send_hostile (TksHostileBoard *self,
              const char      *command,
              const char      *reply)
{
  gsize len = strlen (reply);

  switch (self->mode)
    {
    case TKS_HOSTILE_NO_PROMPT:
      return send_str (self, reply);

    case TKS_HOSTILE_ENDLESS_LINE:
      {
        char piece[PIECE];
        SendResult r;

        memset (piece, 'x', sizeof piece);
        if ((r = send_str (self, "From  1 to  2 at ")) != SENT)
          return r;
        while ((r = send_bytes (self, piece, sizeof piece, TRUE)) == SENT)
          ;
        return r;
      }

    case TKS_HOSTILE_ENDLESS:
    case TKS_HOSTILE_TRICKLE:
    case TKS_HOSTILE_STEADY:
      return send_endless (self, command, reply, self->mode);

    case TKS_HOSTILE_MID_PROMPT:
    case TKS_HOSTILE_MID_PROMPT_PAUSE:
      {
        /* cut at the start of the line nearest the middle */
        const char *mid = memchr (reply + len / 2, '\n', len - len / 2);
        gsize cut = mid != NULL ? (gsize) (mid + 1 - reply) : len;
        SendResult r;

        if ((r = send_bytes (self, reply, cut, FALSE)) != SENT
            || (r = send_str (self, "ch> ")) != SENT)
          return r;
        if (self->mode == TKS_HOSTILE_MID_PROMPT_PAUSE)
          g_usleep (G_USEC_PER_SEC / 2);
        if ((r = send_bytes (self, reply + cut, len - cut, FALSE)) != SENT)
          return r;
        return send_str (self, "ch> ");
      }

    case TKS_HOSTILE_NUL_DAMAGE:
      {
        g_autofree char *damaged = g_strdup (reply);
        g_auto(GStrv) lines = g_strsplit (reply, "\n", -1);
        guint n_lines = g_strv_length (lines);
        guint step = MAX (n_lines / (N_DAMAGED + 1), 1);
        gsize at = 0;
        SendResult r;

        /* the in-thread's digit of a record, the priority's of a thread line */
        for (guint i = 0, hit = 0; lines[i] != NULL && hit < N_DAMAGED; i++)
          {
            if (i % step == step - 1 && strlen (lines[i]) > 13)
              {
                damaged[at + 12] = '\0';
                hit++;
              }
            at += strlen (lines[i]) + 1;
          }
        if ((r = send_bytes (self, damaged, len, FALSE)) != SENT)
          return r;
        return send_str (self, "ch> ");
      }

    case TKS_HOSTILE_NONE:
    default:
      {
        SendResult r = send_str (self, reply);

        return r == SENT ? send_str (self, "ch> ") : r;
      }
    }
}

static SendResult
answer (TksHostileBoard *self,
        const char      *line)
{
  g_autofree char *echo = g_strconcat (line, "\r\n", NULL);
  g_autofree char *reply = NULL;
  SendResult r;

  if ((r = send_str (self, echo)) != SENT)
    return r;
  if (*line == '\0')
    return send_str (self, "ch> ");
  reply = tks_hostile_board_reply (line);
  if (g_str_equal (line, "help") && g_str_equal (self->target, "threads_dump"))
    {
      /* offered only to be hostile with */
      g_free (reply);
      reply = g_strdup (HELP_LINE "threads_dump \r\n");
    }
  if (g_str_equal (line, self->target) && self->asked++ >= self->good_replies)
    return send_hostile (self, line, reply);
  if ((r = send_str (self, reply)) != SENT)
    return r;
  return send_str (self, "ch> ");
}

static gboolean
line (TksBoardCore *core,
      const char   *text)
{
  return answer ((TksHostileBoard *) core, text) != FAILED;
}

TksHostileBoard *
tks_hostile_board_start (int             fd,
                         TksHostileMode  mode,
                         const char     *target,
                         guint           good_replies,
                         guint64         max_bytes)
{
  TksHostileBoard *self = g_new0 (TksHostileBoard, 1);

  g_unix_set_fd_nonblocking (fd, TRUE, NULL);
  self->core.fd = fd;
  self->core.max_line = 256;
  self->core.wait_on_eio = TRUE;
  self->core.line = line;
  self->mode = mode;
  self->target = g_strdup (target);
  self->good_replies = good_replies;
  self->max_bytes = max_bytes ? max_bytes : G_MAXUINT64;
  tks_board_core_start (&self->core, "hostile-board");
  return self;
}

guint64
tks_hostile_board_get_sent (TksHostileBoard *self)
{
  return __atomic_load_n (&self->sent, __ATOMIC_RELAXED);
}

void
tks_hostile_board_stop (TksHostileBoard *self)
{
  if (self == NULL)
    return;
  tks_board_core_stop (&self->core);
  g_free (self->target);
  g_free (self);
}

TksHostileMode
tks_hostile_mode_from_string (const char *name)
{
  static const char * const names[] = {
    "none", "no-prompt", "endless-line", "endless", "mid-prompt", "nul-damage", "trickle",
    "mid-prompt-pause", "steady",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (name, names[i]))
      return (TksHostileMode) i;
  return (TksHostileMode) -1;
}
