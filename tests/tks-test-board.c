/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tks-board-core.h"
#include "tks-test-board.h"

typedef struct
{
  char  *command;
  char  *reply;
  gsize  len;
  guint  used;
} Segment;

struct _TksTestBoard
{
  TksBoardCore      core;
  TksTestBoardMode  mode;
  gsize             fault_after;
  gsize             chunk;
  char             *banner;
  GPtrArray        *segments;
  GRand            *rand;
};

static void
segment_free (gpointer data)
{
  Segment *seg = data;

  g_free (seg->command);
  g_free (seg->reply);
  g_free (seg);
}

/* Splits the transcript at every prompt that starts a line. */
static void
load_fixture (TksTestBoard *self,
              const char   *fixture)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", fixture, NULL);
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize len, pos = 0;
  gboolean first = TRUE;

  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);

  while (pos < len)
    {
      gsize end = pos;
      const char *eol;
      Segment *seg;

      /* the next prompt at the start of a line */
      for (;;)
        {
          const char *hit = memmem (data + end, len - end, "ch> ", 4);

          if (hit == NULL)
            {
              end = len;
              break;
            }
          end = (gsize) (hit - data);
          if (end == 0 || data[end - 1] == '\n')
            break;
          end++;
        }

      eol = memmem (data + pos, end - pos, "\r\n", 2);
      if (first && (eol == NULL || strstr (data + pos, "ChibiOS/RT Shell") == data + pos + 2))
        self->banner = g_strndup (data + pos, end - pos);
      else if (eol != NULL)
        {
          seg = g_new0 (Segment, 1);
          seg->command = g_strndup (data + pos, (gsize) (eol - (data + pos)));
          seg->len = end - (gsize) (eol + 2 - data);
          seg->reply = g_strndup (eol + 2, seg->len);
          g_ptr_array_add (self->segments, seg);
        }
      first = FALSE;
      pos = end + 4;
    }
}

const char *
tks_test_board_reply (TksTestBoard *self,
                      const char   *command,
                      guint         nth,
                      gsize        *len)
{
  for (guint i = 0; i < self->segments->len; i++)
    {
      Segment *seg = g_ptr_array_index (self->segments, i);

      if (g_str_equal (seg->command, command) && nth-- == 0)
        {
          *len = seg->len;
          return seg->reply;
        }
    }
  g_assert_not_reached ();
  return NULL;
}

static gboolean
send_all (TksTestBoard *self,
          const char   *data,
          gsize         len)
{
  while (len > 0)
    {
      gssize n = send (self->core.fd, data, MIN (len, self->chunk), MSG_NOSIGNAL);

      if (n < 0 && errno == ENOTSOCK)
        n = write (self->core.fd, data, MIN (len, self->chunk));

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      data += n;
      len -= (gsize) n;
      /* Byte by byte: a pause after each, so that a busy machine does not join them into one
       * read before the reader wakes. */
      if (self->chunk == 1 && len > 0)
        g_usleep (100);
    }
  return TRUE;
}

static gboolean
send_str (TksTestBoard *self,
          const char   *s)
{
  return send_all (self, s, strlen (s));
}

static gboolean
send_reply (TksTestBoard *self,
            const char   *reply,
            gsize         len)
{
  gsize cut = MIN (self->fault_after, len);

  /* Faults hit only the replies longer than fault_after. */
  if (len <= self->fault_after)
    return send_all (self, reply, len) && send_str (self, "ch> ");

  switch (self->mode)
    {
    case TKS_TEST_BOARD_CLOSE_AFTER:
      send_all (self, reply, cut);
      return FALSE;
    case TKS_TEST_BOARD_RESET_AFTER:
      send_all (self, reply, cut);
      return send_str (self, "\r\nChibiOS/RT Shell\r\nch> ");
    case TKS_TEST_BOARD_STALL_AFTER:
      send_all (self, reply, cut);
      while (!tks_board_core_stopping (&self->core))
        g_usleep (10 * 1000);
      return FALSE;
    case TKS_TEST_BOARD_DEAF_AFTER:
      if (!send_all (self, reply, cut))
        return FALSE;
      while (!tks_board_core_stopping (&self->core))
        {
          if (!send_str (self, "Heartbeat: tick 0\r\n"))
            return FALSE;
          g_usleep (20 * 1000);
        }
      return FALSE;
    case TKS_TEST_BOARD_NORMAL:
    case TKS_TEST_BOARD_SILENT:
    case TKS_TEST_BOARD_GARBAGE:
    case TKS_TEST_BOARD_NOISE_FIRST:
    default:
      return send_all (self, reply, len) && send_str (self, "ch> ");
    }
}

static gboolean
answer (TksTestBoard *self,
        const char   *line)
{
  if (*line == '\0')
    return send_str (self, "ch> ");

  for (guint i = 0; i < self->segments->len; i++)
    {
      Segment *seg = g_ptr_array_index (self->segments, i);

      if (g_str_equal (seg->command, line) && seg->used == 0)
        {
          seg->used = 1;
          return send_reply (self, seg->reply, seg->len);
        }
    }
  /* Asked again: the last recorded reply. */
  for (guint i = self->segments->len; i > 0; i--)
    {
      Segment *seg = g_ptr_array_index (self->segments, i - 1);

      if (g_str_equal (seg->command, line))
        return send_reply (self, seg->reply, seg->len);
    }
  {
    g_autofree char *unknown = g_strdup_printf ("%s ?\r\nch> ", line);

    return send_str (self, unknown);
  }
}

/* The banner of a board that works, noise of one that does not yet. */
static gboolean
greet (TksBoardCore *core)
{
  TksTestBoard *self = (TksTestBoard *) core;

  if (self->mode == TKS_TEST_BOARD_NOISE_FIRST)
    send_str (self, "\xff\x80garbled half line\x01");
  else if (self->banner != NULL && self->mode == TKS_TEST_BOARD_NORMAL)
    {
      if (send_str (self, self->banner))
        send_str (self, "ch> ");
    }
  return TRUE;
}

/* A silent board reads and says nothing; one at another baud rate answers with bytes, never
 * a prompt. */
static gboolean
bytes (TksBoardCore *core,
       const char   *buf,
       gsize         n)
{
  TksTestBoard *self = (TksTestBoard *) core;
  char junk[64];

  if (self->mode == TKS_TEST_BOARD_SILENT)
    return TRUE;
  if (self->mode != TKS_TEST_BOARD_GARBAGE)
    return FALSE;
  for (gsize i = 0; i < sizeof junk; i++)
    junk[i] = (char) (0x80 | g_rand_int_range (self->rand, 0, 0x80));
  send_all (self, junk, sizeof junk);
  return TRUE;
}

/* The shell echoes the line end, then answers. */
static gboolean
line (TksBoardCore *core,
      const char   *text)
{
  TksTestBoard *self = (TksTestBoard *) core;
  g_autofree char *echo = g_strconcat (text, "\r\n", NULL);

  return send_str (self, echo) && answer (self, text);
}

TksTestBoard *
tks_test_board_start (const char       *fixture,
                      int               fd,
                      TksTestBoardMode  mode,
                      gsize             fault_after,
                      gsize             chunk)
{
  TksTestBoard *self = g_new0 (TksTestBoard, 1);

  self->core.fd = fd;
  self->core.close_at_end = TRUE;
  self->core.greet = greet;
  self->core.bytes = bytes;
  self->core.line = line;
  self->rand = g_rand_new_with_seed (42);
  self->mode = mode;
  self->fault_after = fault_after;
  self->chunk = chunk ? chunk : 4096;
  self->segments = g_ptr_array_new_with_free_func (segment_free);
  load_fixture (self, fixture);
  tks_board_core_start (&self->core, "test-board");
  return self;
}

void
tks_test_board_stop (TksTestBoard *self)
{
  if (self == NULL)
    return;
  tks_board_core_stop (&self->core);
  g_rand_free (self->rand);
  g_ptr_array_unref (self->segments);
  g_free (self->banner);
  g_free (self);
}
