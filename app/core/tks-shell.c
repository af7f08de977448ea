/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "tks-error.h"
#include "tks-shell.h"

#define PROMPT_LEN 4
#define CHUNK 16384
#define READ_CHUNK 65536
#define DEFAULT_MIN_REPLY ((gsize) 1 << 20)
#define MAX_REPLY ((gsize) 1 << 30)   /* no bound is above this: buffer sizes stay 32-bit */
/* What the shell answers to an empty line: its echo, the line end, then a prompt. */
#define EMPTY_LINE_ANSWER "\r\n" TKS_SHELL_PROMPT
#define EMPTY_LINE_ANSWER_LEN 6

struct _TksShell
{
  TksTransport *transport;
  guint         timeout_ms;
  guint         quiet_ms;
  gboolean      slow_paste;
  gboolean      unsettled;   /* a reply was left before its end: the board may still send it */
  guint         unsettled_ms; /* the time that reply was given */
  gboolean      failed;      /* buf holds what came for the last command, which failed */
  GByteArray   *buf;
};

TksShell *
tks_shell_new (TksTransport *transport)
{
  TksShell *self;

  g_return_val_if_fail (transport != NULL, NULL);

  self = g_new0 (TksShell, 1);
  self->transport = transport;
  self->timeout_ms = 2000;
  self->quiet_ms = 100;
  self->buf = g_byte_array_sized_new (CHUNK);
  return self;
}

void
tks_shell_free (TksShell *self)
{
  if (self == NULL)
    return;
  tks_transport_free (self->transport);
  g_byte_array_unref (self->buf);
  g_free (self);
}

TksTransport *
tks_shell_get_transport (TksShell *self)
{
  return self->transport;
}

void
tks_shell_set_timeout (TksShell *self,
                       guint     timeout_ms)
{
  self->timeout_ms = MAX (timeout_ms, 1);
}

void
tks_shell_set_quiet_time (TksShell *self,
                          guint     quiet_ms)
{
  self->quiet_ms = quiet_ms;
}

void
tks_shell_set_slow_paste (TksShell *self,
                          gboolean  slow_paste)
{
  self->slow_paste = !!slow_paste;
}

guint
tks_shell_get_command_timeout (TksShell *self,
                               gsize     expected_bytes)
{
  double rate = tks_transport_get_bytes_per_second (self->transport);
  double ms = self->timeout_ms;

  if (rate > 0)
    ms += 2000.0 * expected_bytes / rate;
  return (guint) MIN (ms, (double) G_MAXINT);
}

/* The slowest line whose pace moves a reply's deadline (1200 baud, 8N1), in bytes per second. */
#define SLOWEST_LINE_RATE 120.0

/* A reply's deadline has come, short of the bytes the caller expected, while they come at a
 * serial line's pace but slower than the baud rate said (a TCP relay of a slower line, a baud
 * rate set wrong): the deadline moves to what the rest would take at the pace seen, twice,
 * as tks_shell_get_command_timeout() gives at the baud rate. FALSE when it does not move: the
 * bytes expected have come, or they come slower than the slowest line (a board trickling). */
static gboolean
extend_deadline (TksShell *self,
                 gint64    sent,
                 gsize     have,
                 gsize     expected_bytes,
                 guint    *total_ms,
                 gint64   *deadline)
{
  gint64 now = g_get_monotonic_time ();
  double rate = now > sent ? have / ((now - sent) / 1e6) : 0;
  double ms;

  if (have >= expected_bytes || rate < SLOWEST_LINE_RATE)
    return FALSE;
  ms = self->timeout_ms + 2000.0 * expected_bytes / rate;
  if (ms <= *total_ms)
    return FALSE;
  *total_ms = (guint) MIN (ms, (double) G_MAXINT);
  *deadline = sent + (gint64) *total_ms * 1000;
  g_debug ("The reply comes at %.0f bytes/s: %.1f s for it", rate, *total_ms / 1000.0);
  return *deadline > now;
}

/* The buffer ends with the prompt at the start of a line. */
static gboolean
ends_with_prompt (const guint8 *data,
                  gsize         len)
{
  if (len < PROMPT_LEN || memcmp (data + len - PROMPT_LEN, TKS_SHELL_PROMPT, PROMPT_LEN) != 0)
    return FALSE;
  return len == PROMPT_LEN || data[len - PROMPT_LEN - 1] == '\n';
}

/* An empty line was sent when the buffer held @probe_at bytes, ending with a prompt: whether
 * the buffer now ends with the answer to it, a bare prompt right after a prompt. Any bytes
 * between @probe_at and that answer are the rest of the reply, which came late (with its own
 * prompt). */
static gboolean
ends_with_empty_line_answer (const guint8 *data,
                             gsize         len,
                             gsize         probe_at)
{
  if (len < probe_at + EMPTY_LINE_ANSWER_LEN
      || memcmp (data + len - EMPTY_LINE_ANSWER_LEN, EMPTY_LINE_ANSWER, EMPTY_LINE_ANSWER_LEN) != 0)
    return FALSE;
  return ends_with_prompt (data, len - EMPTY_LINE_ANSWER_LEN);
}

static int
ms_left (gint64 deadline)
{
  gint64 now = g_get_monotonic_time ();

  return now >= deadline ? 0 : (int) MIN ((deadline - now + 999) / 1000, G_MAXINT);
}

static gboolean
send_line (TksShell      *self,
           const char    *line,
           GCancellable  *cancellable,
           GError       **error)
{
  gsize len = strlen (line);

  if (!self->slow_paste)
    return tks_transport_write_all (self->transport, line, len, (int) self->timeout_ms,
                                    cancellable, error);
  for (gsize i = 0; i < len; i++)
    {
      if (!tks_transport_write_all (self->transport, line + i, 1, (int) self->timeout_ms,
                                    cancellable, error))
        return FALSE;
      g_usleep (1000);
    }
  return TRUE;
}

static char *
describe_link (TksShell *self)
{
  TksTransport *t = self->transport;

  if (tks_transport_get_kind (t) == TKS_TRANSPORT_TCP)
    return g_strdup (tks_transport_get_address (t));
  return g_strdup_printf (_("%s at %u baud"), tks_transport_get_address (t),
                          tks_transport_get_baud (t));
}

/* What to check when the link brings nothing, and when it brings only noise. */
static const char *
silence_hint (TksShell *self)
{
  if (tks_transport_get_kind (self->transport) == TKS_TRANSPORT_TCP)
    return _("is the board's shell served at this address?");
  return _("is the board's shell running, and at this baud rate?");
}

static const char *
noise_hint (TksShell *self)
{
  if (tks_transport_get_kind (self->transport) == TKS_TRANSPORT_TCP)
    return _("is it a ChibiOS shell that answers there, and does the serial bridge behind it "
             "use the board's baud rate?");
  return _("is the baud rate right?");
}

/* Keeps the last bytes received, enough to see a prompt that straddles two chunks; whether
 * they end with one (a prompt counts only when nothing follows it). */
static gboolean
keep_tail (TksShell     *self,
           const guint8 *chunk,
           gssize        n)
{
  g_byte_array_append (self->buf, chunk, (guint) n);
  if (self->buf->len > 64)
    g_byte_array_remove_range (self->buf, 0, self->buf->len - 64);
  return ends_with_prompt (self->buf->data, self->buf->len);
}

/* After a reply left before its end (cancelled, stalled), the board may still be sending it:
 * reads on until its prompt has come and the link stays quiet, for as long as that reply was
 * given. A link that falls silent without a prompt, or chatters on past that time, is brought
 * to a fresh prompt. */
static gboolean
settle (TksShell      *self,
        GCancellable  *cancellable,
        GError       **error)
{
  guint8 chunk[CHUNK];
  gint64 deadline = g_get_monotonic_time ()
                    + ((gint64) self->unsettled_ms + self->timeout_ms) * 1000;
  gboolean saw_prompt = FALSE;
  guint64 dropped = 0;

  self->failed = FALSE;
  g_byte_array_set_size (self->buf, 0);
  /* A reply stopped for passing its bound is not waited out: nothing good comes of it. */
  if (self->unsettled_ms == 0)
    return tks_shell_sync (self, cancellable, error);
  for (;;)
    {
      int wait_ms = MIN (ms_left (deadline), (int) (saw_prompt ? self->quiet_ms : self->timeout_ms));
      gssize n = tks_transport_read (self->transport, chunk, sizeof chunk, wait_ms, cancellable,
                                     error);

      if (n < 0)
        return FALSE;
      if (n > 0 && ms_left (deadline) > 0)
        {
          dropped += (guint64) n;
          saw_prompt = keep_tail (self, chunk, n);
          continue;
        }
      g_debug ("Dropped %" G_GUINT64_FORMAT " bytes of an unfinished reply", dropped);
      if (!saw_prompt || n > 0)
        return tks_shell_sync (self, cancellable, error);
      g_byte_array_set_size (self->buf, 0);
      self->unsettled = FALSE;
      return TRUE;
    }
}

gboolean
tks_shell_sync (TksShell      *self,
                GCancellable  *cancellable,
                GError       **error)
{
  guint8 chunk[CHUNK];
  gint64 start = g_get_monotonic_time ();
  gint64 deadline = start + (gint64) self->timeout_ms * 1000;
  gint64 next_crlf = start;
  gsize received = 0;
  gboolean saw_prompt = FALSE;

  self->failed = FALSE;
  g_byte_array_set_size (self->buf, 0);

  for (;;)
    {
      int wait_ms;
      gssize n;

      if (g_get_monotonic_time () >= next_crlf && !saw_prompt)
        {
          /* Ends whatever half line the shell holds; a prompt follows. */
          if (!send_line (self, "\r\n", cancellable, error))
            return FALSE;
          next_crlf = g_get_monotonic_time () + (gint64) self->timeout_ms * 1000 / 4;
        }

      wait_ms = ms_left (deadline);
      if (saw_prompt)
        wait_ms = MIN (wait_ms, (int) self->quiet_ms);
      else
        wait_ms = MIN (wait_ms, ms_left (next_crlf));

      n = tks_transport_read (self->transport, chunk, sizeof chunk, wait_ms, cancellable, error);
      if (n < 0)
        return FALSE;
      if (n > 0)
        {
          received += (gsize) n;
          saw_prompt = keep_tail (self, chunk, n);
          /* A link that never falls quiet ends at the deadline too. */
          if (g_get_monotonic_time () < deadline)
            continue;
        }

      /* Nothing within the wait */
      if (saw_prompt && n == 0)
        {
          g_byte_array_set_size (self->buf, 0);
          self->unsettled = FALSE;
          return TRUE;
        }
      if (g_get_monotonic_time () < deadline)
        continue;

      {
        g_autofree char *link = describe_link (self);

        if (received == 0)
          g_set_error (error, TKS_ERROR, TKS_ERROR_TIMEOUT,
                       /* Translators: the link, a time in seconds, then what to check */
                       _("No reply from %s within %.1f s: %s"), link, self->timeout_ms / 1000.0,
                       silence_hint (self));
        else if (saw_prompt)
          g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE,
                       /* Translators: the link, a number of bytes, then a time in seconds */
                       g_dngettext (GETTEXT_PACKAGE,
                                    "%s sent %lu byte within %.1f s and kept sending after "
                                    "its prompt: is something else printing on the board's shell?",
                                    "%s sent %lu bytes within %.1f s and kept sending after "
                                    "its prompt: is something else printing on the board's shell?",
                                    received),
                       link, (gulong) received, self->timeout_ms / 1000.0);
        else
          g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE,
                       /* Translators: the link, a number of bytes, a time in seconds, then
                        * what to check; “ch> ” is the shell's prompt, as it is */
                       g_dngettext (GETTEXT_PACKAGE,
                                    "%s sent %lu byte but never the shell prompt “ch> ” "
                                    "within %.1f s: %s",
                                    "%s sent %lu bytes but never the shell prompt “ch> ” "
                                    "within %.1f s: %s",
                                    received),
                       link, (gulong) received, self->timeout_ms / 1000.0, noise_hint (self));
      }
      return FALSE;
    }
}

/* Where the echoed command line ends, or -1: the echo stands at the start of a line (or right
 * after a prompt). Found in a part of the reply, it is where the whole reply's echo ends too. */
static gssize
find_echo_at_line_start (const guint8 *data,
                         gsize         len,
                         const char   *command)
{
  gsize clen = strlen (command);
  const guint8 *p = data;
  const guint8 *end = data + len;

  while (p < end)
    {
      const guint8 *hit = memmem (p, (gsize) (end - p), command, clen);
      gsize at;

      if (hit == NULL)
        break;
      at = (gsize) (hit - data);
      if ((at == 0 || data[at - 1] == '\n'
           || (at >= PROMPT_LEN && memcmp (data + at - PROMPT_LEN, TKS_SHELL_PROMPT, PROMPT_LEN) == 0))
          && at + clen + 2 <= len && data[at + clen] == '\r' && data[at + clen + 1] == '\n')
        return (gssize) (at + clen + 2);
      p = hit + 1;
    }
  return -1;
}

/* Where the echo ends in a complete reply, or -1. */
static gssize
find_echo_end (const guint8 *data,
               gsize         len,
               const char   *command)
{
  gssize at = find_echo_at_line_start (data, len, command);

  /* Noise on the line before the echo (a glitch, a half-sent byte): take the first echo. */
  if (at < 0)
    {
      g_autofree char *line = g_strconcat (command, "\r\n", NULL);
      const guint8 *hit = memmem (data, len, line, strlen (line));

      if (hit != NULL)
        at = (gssize) ((gsize) (hit - data) + strlen (line));
    }
  return at;
}

static void
set_incomplete (TksShell    *self,
                const char  *link,
                const char  *command,
                guint        total_ms,
                guint64      lines,
                GError     **error)
{
  g_set_error (error, TKS_ERROR, TKS_ERROR_TIMEOUT,
               /* Translators: the link, the shell command, a time in seconds, then the bytes
                * and the lines received */
               g_dngettext (GETTEXT_PACKAGE,
                            "The reply of %s to “%s” was not complete within %.1f s (%u bytes, "
                            "%lu line so far)",
                            "The reply of %s to “%s” was not complete within %.1f s (%u bytes, "
                            "%lu lines so far)", (gulong) lines),
               link, command, total_ms / 1000.0, self->buf->len, (gulong) lines);
}

char *
tks_shell_command (TksShell             *self,
                   const char           *command,
                   gsize                 expected_bytes,
                   TksShellProgressFunc  progress,
                   gpointer              user_data,
                   gsize                *len,
                   GCancellable         *cancellable,
                   GError              **error)
{
  return tks_shell_command_streamed (self, command, expected_bytes, progress, NULL, user_data,
                                     len, cancellable, error);
}

char *
tks_shell_command_streamed (TksShell             *self,
                            const char           *command,
                            gsize                 expected_bytes,
                            TksShellProgressFunc  progress,
                            TksShellBodyFunc      body_func,
                            gpointer              user_data,
                            gsize                *len,
                            GCancellable         *cancellable,
                            GError              **error)
{
  TksShellRequest request = { command, expected_bytes, NULL, progress, body_func, user_data };

  return tks_shell_command_limited (self, &request, len, cancellable, error);
}

const guint8 *
tks_shell_get_failed_reply (TksShell *self,
                            gsize    *len)
{
  g_return_val_if_fail (self != NULL, NULL);

  *len = self->failed ? self->buf->len : 0;
  return *len > 0 ? self->buf->data : NULL;
}

/* The bound of a reply: the caller's, or four times what is expected, at least 1 MiB; never
 * more than MAX_REPLY, so that sizes stay far from any wrap. */
static gsize
reply_bound (const TksShellLimit *limit,
             gsize                expected_bytes)
{
  gsize max = limit != NULL ? limit->max_bytes : 0;

  if (max == 0)
    max = MAX (MIN (expected_bytes, MAX_REPLY / 4) * 4, DEFAULT_MIN_REPLY);
  return MIN (max, MAX_REPLY);
}

static void
set_too_long (TksShell            *self,
              const char          *command,
              gsize                bound,
              const TksShellLimit *limit,
              GError             **error)
{
  g_autofree char *size = g_format_size (bound);
  const char *why = limit != NULL && limit->bound != NULL ? limit->bound : "";

  if (*why != '\0')
    g_set_error (error, TKS_ERROR, TKS_ERROR_TOO_LONG,
                 /* Translators: the shell command, a size (“1.0 MB”), the bytes read, then why
                  * no more can come (“the log holds at most 3000 records”) */
                 _("The reply to “%s” passed %s (%u bytes read; %s): stopped reading"),
                 command, size, self->buf->len, why);
  else
    g_set_error (error, TKS_ERROR, TKS_ERROR_TOO_LONG,
                 /* Translators: the shell command, a size (“1.0 MB”), then the bytes read */
                 _("The reply to “%s” passed %s (%u bytes read): stopped reading"),
                 command, size, self->buf->len);
}

/* One command's exchange: what was asked, and how far its reply has come. */
typedef struct
{
  TksShell              *self;
  const TksShellRequest *request;
  TksShellLimit         *limit;     /* the request's, or the default one */
  guint                  total_ms;  /* the time the reply is given so far */
  gint64                 sent;      /* when the command went out */
  gint64                 deadline;
  guint64                lines;     /* line ends received */
  gssize                 echo_end;  /* where the echo ends, -1 until found */
  gsize                  fed;       /* bytes of the buffer handed to the body callback */
  gsize                  probe_at;  /* confirm_end: the bytes read when the empty line was
                                     * sent; 0: not yet */
} Exchange;

static gboolean
check_command_line (const char  *command,
                    GError     **error)
{
  if (strlen (command) > 63 || strpbrk (command, "\r\n") != NULL)
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE,
                   _("“%s” is not a shell command line (one line, at most 63 characters)"),
                   command);
      return FALSE;
    }
  return TRUE;
}

/* Drops whatever the board sent unasked, so it does not mix into the reply; a board that
 * never stops sending is brought to a prompt instead. */
static gboolean
drop_unasked (TksShell      *self,
              const char    *command,
              GCancellable  *cancellable,
              GError       **error)
{
  guint8 chunk[CHUNK];

  for (guint64 dropped = 0;;)
    {
      gssize n = tks_transport_read (self->transport, chunk, sizeof chunk, 0, cancellable, error);

      if (n < 0)
        return FALSE;
      if (n == 0)
        return TRUE;
      g_debug ("Dropped %" G_GSSIZE_FORMAT " unasked bytes before “%s”", n, command);
      dropped += (guint64) n;
      if (dropped > DEFAULT_MIN_REPLY)
        return tks_shell_sync (self, cancellable, error);
    }
}

/* Sends the command, with room for its whole reply in the buffer, and starts its clock. */
static gboolean
send_command (Exchange      *x,
              GCancellable  *cancellable,
              GError       **error)
{
  TksShell *self = x->self;
  gsize expected = x->request->expected_bytes;
  g_autofree char *line = g_strconcat (x->request->command, "\r\n", NULL);

  g_byte_array_set_size (self->buf,
                         (guint) MIN (MIN (expected, MAX_REPLY) + 2 * READ_CHUNK,
                                      reply_bound (x->limit, expected) + READ_CHUNK));
  g_byte_array_set_size (self->buf, 0);
  /* until its prompt has come */
  self->unsettled = TRUE;
  self->unsettled_ms = tks_shell_get_command_timeout (self, expected);
  if (!send_line (self, line, cancellable, error))
    return FALSE;
  x->total_ms = tks_shell_get_command_timeout (self, expected);
  x->sent = g_get_monotonic_time ();
  x->deadline = x->sent + (gint64) x->total_ms * 1000;
  return TRUE;
}

/* Reads the next bytes of the reply (up to one byte past its bound) into the buffer, within
 * @wait_ms: how many came, 0 when none, -1 on an error (said with what came before it). */
static gssize
read_chunk (Exchange      *x,
            int            wait_ms,
            GCancellable  *cancellable,
            GError       **error)
{
  TksShell *self = x->self;
  gsize have = self->buf->len;
  gsize bound = reply_bound (x->limit, x->request->expected_bytes);
  gsize room = MIN (READ_CHUNK, bound + 1 - MIN (have, bound));
  GError *read_error = NULL;
  gssize n;

  g_byte_array_set_size (self->buf, (guint) (have + room));
  n = tks_transport_read (self->transport, self->buf->data + have, room, wait_ms,
                          cancellable, &read_error);
  g_byte_array_set_size (self->buf, (guint) (have + (gsize) MAX (n, 0)));
  if (n < 0)
    {
      self->failed = TRUE;
      if (self->buf->len > 0 && read_error->domain == TKS_ERROR)
        g_prefix_error (&read_error,
                        /* Translators: a number of bytes, then the shell command */
                        g_dngettext (GETTEXT_PACKAGE,
                                     "After %u byte of the reply to “%s”: ",
                                     "After %u bytes of the reply to “%s”: ",
                                     self->buf->len),
                        self->buf->len, x->request->command);
      g_propagate_error (error, read_error);
      return -1;
    }
  for (const guint8 *c = self->buf->data + have, *end = c + n;
       (c = memchr (c, '\n', (gsize) (end - c))) != NULL; c++)
    x->lines++;
  return n;
}

/* Nothing came for @wait_ms: says why the reply is not whole. */
static void
set_silence_error (Exchange  *x,
                   int        wait_ms,
                   GError   **error)
{
  TksShell *self = x->self;
  const char *command = x->request->command;
  g_autofree char *link = describe_link (self);
  gboolean idle = ms_left (x->deadline) > 0;
  gulong lines = (gulong) x->lines;

  self->failed = TRUE;
  if (x->probe_at > 0 && idle)
    g_set_error (error, TKS_ERROR, TKS_ERROR_TIMEOUT,
                 /* Translators: the link, the shell command, the bytes received, then a time
                  * in seconds */
                 _("The reply of %s to “%s” ended with a prompt after %u bytes, but the "
                   "board did not answer the empty line sent after it within %.1f s"),
                 link, command, (guint) x->probe_at, wait_ms / 1000.0);
  else if (self->buf->len == 0)
    g_set_error (error, TKS_ERROR, TKS_ERROR_TIMEOUT,
                 /* Translators: the link, the shell command, a time in seconds, then what to
                  * check */
                 _("No reply from %s to “%s” within %.1f s: %s"), link, command,
                 wait_ms / 1000.0, silence_hint (self));
  else if (find_echo_end (self->buf->data, self->buf->len, command) < 0)
    g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE,
                 /* Translators: the link, the shell command, a number of bytes, then what to
                  * check */
                 g_dngettext (GETTEXT_PACKAGE,
                              "%s answered “%s” with %u unreadable byte and no prompt: %s",
                              "%s answered “%s” with %u unreadable bytes and no prompt: %s",
                              self->buf->len),
                 link, command, self->buf->len, noise_hint (self));
  else if (idle)
    g_set_error (error, TKS_ERROR, TKS_ERROR_TIMEOUT,
                 /* Translators: the link, the shell command, the bytes and the lines
                  * received, then a time in seconds */
                 g_dngettext (GETTEXT_PACKAGE,
                              "The reply of %s to “%s” stopped after %u bytes (%lu line): "
                              "nothing more came for %.1f s",
                              "The reply of %s to “%s” stopped after %u bytes (%lu lines): "
                              "nothing more came for %.1f s", lines),
                 link, command, self->buf->len, lines, wait_ms / 1000.0);
  else
    set_incomplete (self, link, command, x->total_ms, x->lines, error);
}

typedef enum
{
  REPLY_GOES_ON,
  REPLY_WHOLE,
  REPLY_FAILED,
} ReplyState;

/* Whether the reply is whole after what just came: at its prompt, or, for a reply with no
 * end of its own (the limit's confirm_end), once the board answered the empty line sent at
 * that prompt. */
static ReplyState
reply_state (Exchange      *x,
             GCancellable  *cancellable,
             GError       **error)
{
  TksShell *self = x->self;

  if (x->probe_at > 0)
    return ends_with_empty_line_answer (self->buf->data, self->buf->len, x->probe_at)
           ? REPLY_WHOLE : REPLY_GOES_ON;
  if (!ends_with_prompt (self->buf->data, self->buf->len))
    return REPLY_GOES_ON;
  if (!x->limit->confirm_end)
    return REPLY_WHOLE;
  /* A prompt may stand inside a reply, the rest following after a pause: an empty line now is
   * answered once the whole reply is out, so what comes before that answer belongs to the
   * reply. It costs one short exchange, not a wait for silence. */
  if (!send_line (self, "\r\n", cancellable, error))
    {
      self->failed = TRUE;
      return REPLY_FAILED;
    }
  x->probe_at = self->buf->len;
  x->deadline = MAX (x->deadline, g_get_monotonic_time () + (gint64) self->timeout_ms * 1000);
  return REPLY_GOES_ON;
}

/* Hands on what has come after the echo, short of the last bytes, which may be the start of
 * the closing prompt. */
static void
feed_body (Exchange *x)
{
  TksShell *self = x->self;

  if (x->request->body == NULL || x->probe_at > 0)
    return;
  if (x->echo_end < 0)
    {
      x->echo_end = find_echo_at_line_start (self->buf->data, self->buf->len,
                                             x->request->command);
      x->fed = x->echo_end < 0 ? 0 : (gsize) x->echo_end;
    }
  if (x->echo_end >= 0 && self->buf->len > x->fed + PROMPT_LEN)
    {
      x->request->body ((const char *) self->buf->data + x->fed,
                        self->buf->len - PROMPT_LEN - x->fed, x->request->user_data);
      x->fed = self->buf->len - PROMPT_LEN;
    }
}

static void
report_progress (Exchange *x)
{
  if (x->request->progress != NULL)
    x->request->progress (x->self->buf->len, (guint) MIN (x->lines, G_MAXUINT),
                          x->request->user_data);
}

/* Reads until the reply is whole (TRUE) or cannot be (FALSE, with @error set). */
static gboolean
read_reply (Exchange      *x,
            GCancellable  *cancellable,
            GError       **error)
{
  TksShell *self = x->self;
  gsize expected = x->request->expected_bytes;

  for (;;)
    {
      int wait_ms = MIN (ms_left (x->deadline), (int) self->timeout_ms);
      gsize bound = reply_bound (x->limit, expected);
      gssize n = read_chunk (x, wait_ms, cancellable, error);
      ReplyState state;

      if (n < 0)
        return FALSE;
      if (n == 0 && ms_left (x->deadline) == 0 &&
          extend_deadline (self, x->sent, self->buf->len, expected, &x->total_ms, &x->deadline))
        continue;
      if (n == 0)
        {
          set_silence_error (x, wait_ms, error);
          return FALSE;
        }
      if (self->buf->len > bound)
        {
          self->failed = TRUE;
          /* The board may go on: the next command first brings it to a prompt, at once. */
          self->unsettled_ms = 0;
          set_too_long (self, x->request->command, bound, x->limit, error);
          return FALSE;
        }
      state = reply_state (x, cancellable, error);
      if (state == REPLY_WHOLE)
        report_progress (x);
      if (state != REPLY_GOES_ON)
        return state == REPLY_WHOLE;
      if (ms_left (x->deadline) == 0 &&
          !extend_deadline (self, x->sent, self->buf->len, expected, &x->total_ms, &x->deadline))
        {
          /* Bytes still trickle in, but the reply's time is over. */
          g_autofree char *link = describe_link (self);

          self->failed = TRUE;
          set_incomplete (self, link, x->request->command, x->total_ms, x->lines, error);
          return FALSE;
        }
      feed_body (x);
      report_progress (x);
    }
}

/* The reply of a whole exchange: its body, between the echo and the prompt (the rest handed
 * to the body callback), or NULL when it says the board restarted or does not know the
 * command. */
static char *
take_reply (Exchange  *x,
            gsize     *len,
            GError   **error)
{
  TksShell *self = x->self;
  const char *command = x->request->command;
  g_autofree char *unknown = g_strconcat (command, " ?\r\n", NULL);
  const guint8 *body, *banner;
  gsize body_len;
  char *reply;

  if (x->probe_at > 0)
    {
      /* The answer to the empty line is not the reply's; what came before it is. */
      if (self->buf->len > x->probe_at + EMPTY_LINE_ANSWER_LEN)
        g_debug ("%u bytes of the reply to “%s” came after a prompt",
                 (guint) (self->buf->len - x->probe_at - EMPTY_LINE_ANSWER_LEN), command);
      g_byte_array_set_size (self->buf, self->buf->len - EMPTY_LINE_ANSWER_LEN);
    }
  if (x->echo_end < 0)
    x->echo_end = find_echo_end (self->buf->data, self->buf->len, command);
  if (x->echo_end < 0)
    {
      /* The echo was lost or garbled: keep everything before the prompt. */
      g_debug ("No echo of “%s” in its reply", command);
      x->echo_end = 0;
    }
  body = self->buf->data + x->echo_end;
  body_len = self->buf->len - (gsize) x->echo_end - PROMPT_LEN;

  banner = memmem (body, body_len, TKS_SHELL_BANNER, strlen (TKS_SHELL_BANNER));
  if (banner != NULL)
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_RESTARTED,
                   /* Translators: the shell command, then a number of bytes */
                   _("The board restarted during “%s” (its shell banner came after %lu bytes "
                     "of the reply): ask again"), command, (gulong) (banner - body));
      return NULL;
    }
  if (body_len == strlen (unknown) && memcmp (body, unknown, body_len) == 0)
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_UNKNOWN_COMMAND,
                   _("The board's shell does not know “%s”"), command);
      return NULL;
    }

  if (x->request->body != NULL)
    {
      gsize done = MAX (x->fed, (gsize) x->echo_end) - (gsize) x->echo_end;

      if (body_len > done)
        x->request->body ((const char *) body + done, body_len - done, x->request->user_data);
    }

  reply = g_malloc (body_len + 1);
  memcpy (reply, body, body_len);
  reply[body_len] = '\0';
  if (len != NULL)
    *len = body_len;
  g_byte_array_set_size (self->buf, 0);
  return reply;
}

char *
tks_shell_command_limited (TksShell              *self,
                           const TksShellRequest *request,
                           gsize                 *len,
                           GCancellable          *cancellable,
                           GError               **error)
{
  TksShellLimit default_limit = { 0 };
  Exchange x = { self, request, NULL, 0, 0, 0, 0, -1, 0, 0 };

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (request->command != NULL && *request->command != '\0', NULL);

  x.limit = request->limit != NULL ? request->limit : &default_limit;
  self->failed = FALSE;
  g_byte_array_set_size (self->buf, 0);

  if (!check_command_line (request->command, error))
    return NULL;
  if (self->unsettled && !settle (self, cancellable, error))
    return NULL;
  if (!drop_unasked (self, request->command, cancellable, error) ||
      !send_command (&x, cancellable, error) ||
      !read_reply (&x, cancellable, error))
    return NULL;
  self->unsettled = FALSE;
  return take_reply (&x, len, error);
}

GStrv
tks_shell_parse_help (const char *reply)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  const char *p;

  g_return_val_if_fail (reply != NULL, NULL);

  p = strstr (reply, "Commands:");
  if (p != NULL)
    {
      g_auto(GStrv) words = NULL;
      const char *eol = strpbrk (p, "\r\n");
      g_autofree char *line = eol ? g_strndup (p, (gsize) (eol - p)) : g_strdup (p);

      words = g_strsplit_set (line + strlen ("Commands:"), " \t", -1);
      for (guint i = 0; words[i] != NULL; i++)
        if (*words[i] != '\0')
          g_strv_builder_add (builder, words[i]);
    }
  return g_strv_builder_end (builder);
}
