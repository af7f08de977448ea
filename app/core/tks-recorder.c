/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Continuous recording: threads_record's stream to a file, decoded on the way. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "tks-error.h"
#include "tks-recorder.h"
#include "tks-shell.h"

/* A line longer than this is not part of the stream (a compact line has 79 characters, a
 * thread's line a name of at most a few dozen). */
#define MAX_LINE         1024
#define KEEPALIVE_US     G_USEC_PER_SEC
#define SYNC_US          G_USEC_PER_SEC
#define STOP_TIMEOUT_MS  5000
#define STOP_MAX_MS      60000

typedef enum
{
  PHASE_HEADER,    /* the echo, the header and the lists, up to "Compact:" */
  PHASE_LOG,       /* the compact lines and what comes between them */
  PHASE_END,       /* after the end line: the prompt is expected */
} Phase;

struct _TksRecorder
{
  char          *path;
  int            fd;
  TksShell      *shell;         /* owns the transport */
  TksTransport  *transport;
  gint64         started_us;
  gboolean       counting;      /* the last line was a "Counted handler" one */
  gint64         ended_us;
  gint64         last_keepalive_us;
  gint64         last_sync_us;
  gint64         last_byte_us;
  guint          silence_ms;
  gint64         keepalive_us;
  gboolean       events;
  gboolean       unsynced;       /* bytes written since the last flush to disk */
  GError        *fault;          /* the file cannot be written or the stream cannot be read:
                                    * reported by the next call */

  /* Decoding */
  Phase          phase;
  GString       *line;
  gboolean       overlong;
  guint          line_no;
  TksCompactHeader header;       /* what the compact lines need */
  TksCompactDecoder *decoder;
  guint64        lost_pending;   /* slots lost before the next line's entries */
  gboolean       prompt_seen;    /* the board's prompt came back */
  TksRecorderStats stats;

  TksRecorderEntriesFunc entries_func;
  gpointer       entries_data;
  TksRecorderNoticeFunc notice_func;
  gpointer       notice_data;
};

TksRecorder *
tks_recorder_new (const char  *path,
                  GError     **error)
{
  TksRecorder *self;
  int fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Cannot create %s: %s"), path,
                   g_strerror (saved));
      return NULL;
    }
  self = g_new0 (TksRecorder, 1);
  self->path = g_strdup (path);
  self->fd = fd;
  self->line = g_string_new (NULL);
  self->silence_ms = 5000;
  self->keepalive_us = KEEPALIVE_US;
  self->header = (TksCompactHeader) TKS_COMPACT_HEADER_INIT;
  return self;
}

void
tks_recorder_free (TksRecorder *self)
{
  if (self == NULL)
    return;
  if (self->fd >= 0)
    close (self->fd);
  g_clear_pointer (&self->decoder, tks_compact_decoder_free);
  g_clear_pointer (&self->shell, tks_shell_free);
  g_string_free (self->line, TRUE);
  g_clear_error (&self->fault);
  g_free (self->path);
  g_free (self);
}

void
tks_recorder_set_entries_func (TksRecorder            *self,
                               TksRecorderEntriesFunc  func,
                               gpointer                user_data)
{
  self->entries_func = func;
  self->entries_data = user_data;
}

void
tks_recorder_set_notice_func (TksRecorder           *self,
                              TksRecorderNoticeFunc  func,
                              gpointer               user_data)
{
  self->notice_func = func;
  self->notice_data = user_data;
}

void
tks_recorder_set_silence_timeout (TksRecorder *self,
                                  guint        timeout_ms)
{
  self->silence_ms = MAX (timeout_ms, 100u);
}

void
tks_recorder_set_keepalive_interval (TksRecorder *self,
                                     guint        interval_ms)
{
  self->keepalive_us = (gint64) MAX (interval_ms, 1u) * 1000;
}

void
tks_recorder_set_events (TksRecorder *self,
                         gboolean     events)
{
  self->events = events;
}

const char *
tks_recorder_get_path (TksRecorder *self)
{
  return self->path;
}

void
tks_recorder_get_stats (TksRecorder      *self,
                        TksRecorderStats *stats)
{
  *stats = self->stats;
  if (self->started_us != 0)
    stats->seconds = (double) ((self->ended_us != 0 ? self->ended_us : g_get_monotonic_time ())
                               - self->started_us) / G_USEC_PER_SEC;
}

G_GNUC_PRINTF (2, 3)
static void
notice (TksRecorder *self,
        const char  *format,
        ...)
{
  g_autofree char *message = NULL;
  va_list args;

  if (self->notice_func == NULL)
    return;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  self->notice_func (message, self->notice_data);
}

/* ------------------------------------------------------------------------------------------ */
/* The file                                                                                     */

static void
write_file (TksRecorder  *self,
            const guint8 *data,
            gsize         len)
{
  while (len > 0 && self->fault == NULL)
    {
      ssize_t n = write (self->fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int saved = errno;

          g_set_error (&self->fault, TKS_ERROR, TKS_ERROR_IO, _("Cannot write %s: %s"),
                       self->path, g_strerror (saved));
          return;
        }
      data += n;
      len -= (gsize) n;
      self->unsynced = TRUE;
    }
}

/* At most every second, what was written goes to the disk: a host that dies loses at most
 * that (a killed process loses nothing written). */
static void
sync_file (TksRecorder *self,
           gboolean     now)
{
  gint64 t = g_get_monotonic_time ();

  if (!self->unsynced || (!now && t - self->last_sync_us < SYNC_US))
    return;
  self->last_sync_us = t;
  self->unsynced = FALSE;
  (void) fdatasync (self->fd);
}

/* ------------------------------------------------------------------------------------------ */
/* Decoding                                                                                     */

static gboolean
starts (const char *line,
        const char *prefix)
{
  return g_str_has_prefix (line, prefix);
}

static void
entries_out (TksRecorder *self)
{
  GArray *entries = tks_compact_decoder_entries (self->decoder);

  if (entries->len > 0)
    {
      self->stats.entries += entries->len;
      if (self->entries_func != NULL)
        self->entries_func ((const TksEntry *) (gconstpointer) entries->data, entries->len,
                            self->lost_pending, self->entries_data);
      self->lost_pending = 0;
    }
  /* Nothing is kept: the file has it all. */
  g_array_set_size (entries, 0);
  g_array_set_size (tks_compact_decoder_losses (self->decoder), 0);
}

/* "Lost: before record S, ticks B to E, N switches dropped": N. */
static gboolean
lost_count (const char *line,
            guint64    *n)
{
  const char *comma = strrchr (line, ',');
  char *end = NULL;

  if (!starts (line, "Lost: before record ") || comma == NULL ||
      !g_str_has_suffix (line, " switches dropped"))
    return FALSE;
  *n = g_ascii_strtoull (comma + 1, &end, 10);
  return end != comma + 1 && strcmp (end, " switches dropped") == 0;
}

/* "Counted handler: NAME, N calls": N. */
static gboolean
counted_calls (const char *line,
               guint64    *n)
{
  const char *comma = strrchr (line, ',');
  char *end = NULL;

  if (!starts (line, "Counted handler: ") || comma == NULL || !g_str_has_suffix (line, " calls"))
    return FALSE;
  *n = g_ascii_strtoull (comma + 1, &end, 10);
  return end != comma + 1 && strcmp (end, " calls") == 0;
}

static void
log_line (TksRecorder *self,
          const char  *line)
{
  guint64 n;
  gboolean counting = self->counting;

  /* The board reports all its counted handlers together: a report's first line starts the
   * sum again. */
  self->counting = FALSE;

  if (line[0] == 'Z')
    {
      g_autoptr(GError) error = NULL;
      guint lost = tks_compact_decoder_n_lost (self->decoder);
      guint decoded = tks_compact_decoder_n_lines (self->decoder);

      tks_compact_decoder_line (self->decoder, line, strlen (line), &error);
      /* the lines lost, each once (a line that came twice or late loses nothing more; a
       * damaged one come again whole gives its records back: modulo 2^32, one less) */
      self->stats.damaged += tks_compact_decoder_n_lost (self->decoder) - lost;
      self->stats.lines += tks_compact_decoder_n_lines (self->decoder) - decoded;
      if (error != NULL)
        notice (self, _("line %u: %s"), self->line_no, error->message);
      entries_out (self);
    }
  else if (starts (line, "Thread number"))
    self->stats.threads++;
  else if (starts (line, "Name ") || starts (line, "Heartbeat:"))
    ;
  else if (counted_calls (line, &n))
    {
      self->stats.counted = (counting ? self->stats.counted : 0) + n;
      self->counting = TRUE;
    }
  else if (lost_count (line, &n))
    {
      g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, n);

      self->stats.dropped += n;
      self->lost_pending += n;
      tks_compact_decoder_lost (self->decoder);
      notice (self, g_dngettext (GETTEXT_PACKAGE,
                                 "line %u: the board could not send %s record "
                                 "(the link was too slow): %s",
                                 "line %u: the board could not send %s records "
                                 "(the link was too slow): %s", (gulong) MIN (n, G_MAXULONG)),
              self->line_no, count, line);
    }
  else if (starts (line, "End of dump:"))
    {
      /* Slots lost after the last line (the board could not send its backlog): told with
       * no entries, so that what was lost adds up to the drops. */
      if (self->lost_pending > 0 && self->entries_func != NULL)
        self->entries_func (NULL, 0, self->lost_pending, self->entries_data);
      self->lost_pending = 0;
      self->phase = PHASE_END;
    }
  else if (line[0] != '\0')
    {
      g_autofree char *shown = g_strescape (line, NULL);

      self->stats.damaged++;
      notice (self, _("line %u is not part of the stream (noise on the link?): “%s”"),
              self->line_no, shown);
    }
}

static void
header_line (TksRecorder *self,
             const char  *line)
{
  if (tks_compact_header_line (&self->header, line))
    return;
  if (starts (line, "Thread number"))
    self->stats.threads++;
  else if (strcmp (line, "Compact:") == 0)
    {
      if (self->header.coder > TKS_COMPACT_LAST_CODER && self->fault == NULL)
        {
          /* Its lines would decode to wrong times: better none. */
          g_set_error (&self->fault, TKS_ERROR, TKS_ERROR_PARSE,
                       _("The board codes its cycle counter in a way this version of Tickscope "
                         "does not know (Counter coder: %u): update Tickscope"),
                       (guint) MIN (self->header.coder, G_MAXUINT));
          return;
        }
      self->decoder = tks_compact_header_decoder (&self->header);
      self->phase = PHASE_LOG;
    }
}

static void
end_line (TksRecorder *self)
{
  char *line;

  self->line_no++;
  if (self->overlong)
    {
      self->overlong = FALSE;
      self->stats.damaged++;
      notice (self, _("line %u is too long to be part of the stream (noise on the link?)"),
              self->line_no);
      g_string_truncate (self->line, 0);
      return;
    }
  line = self->line->str;
  if (self->line->len > 0 && line[self->line->len - 1] == '\r')
    g_string_truncate (self->line, self->line->len - 1);
  if (self->phase == PHASE_HEADER)
    header_line (self, line);
  else if (self->phase == PHASE_LOG)
    log_line (self, line);
  g_string_truncate (self->line, 0);
}

void
tks_recorder_feed (TksRecorder  *self,
                   const guint8 *data,
                   gsize         len)
{
  if (self->started_us == 0)
    self->started_us = g_get_monotonic_time ();
  write_file (self, data, len);
  self->stats.bytes += len;
  for (gsize i = 0; i < len; i++)
    {
      char c = (char) data[i];

      if (c == '\n')
        {
          end_line (self);
          continue;
        }
      if (self->line->len >= MAX_LINE)
        self->overlong = TRUE;
      else
        g_string_append_c (self->line, c);
      /* The prompt: at the start of a line, without a line end after it. */
      if (self->line->len == strlen (TKS_SHELL_PROMPT) &&
          strcmp (self->line->str, TKS_SHELL_PROMPT) == 0 && self->line_no >= 1)
        self->prompt_seen = TRUE;
    }
  if (self->prompt_seen && self->phase == PHASE_END && !self->stats.ended)
    {
      self->stats.ended = TRUE;
      self->ended_us = g_get_monotonic_time ();
    }
}

/* ------------------------------------------------------------------------------------------ */
/* The link                                                                                     */

gboolean
tks_recorder_start (TksRecorder   *self,
                    TksTransport  *transport,
                    GCancellable  *cancellable,
                    GError       **error)
{
  TksShell *shell;
  g_autofree char *help = NULL;
  g_auto(GStrv) commands = NULL;
  const char *command = self->events ? "threads_record events\r" : "threads_record\r";

  g_return_val_if_fail (self->shell == NULL, FALSE);
  shell = self->shell = tks_shell_new (transport);
  if (!tks_shell_sync (shell, cancellable, error))
    return FALSE;
  help = tks_shell_command (shell, "help", 0, NULL, NULL, NULL, cancellable, error);
  if (help == NULL)
    return FALSE;
  commands = tks_shell_parse_help (help);
  if (commands == NULL || !g_strv_contains ((const char * const *) commands, "threads_record"))
    {
      g_set_error_literal (error, TKS_ERROR, TKS_ERROR_UNKNOWN_COMMAND,
                           _("The board does not offer threads_record: build its library with "
                             "THREADS_TIMESTAMPS_RECORD = true"));
      return FALSE;
    }
  if (!tks_transport_write_all (transport, command, strlen (command), 2000, cancellable, error))
    return FALSE;
  self->transport = transport;
  self->started_us = self->last_keepalive_us = self->last_sync_us = self->last_byte_us =
    g_get_monotonic_time ();
  return TRUE;
}

/* A fault ends the recording: the board is asked to stop streaming (if the link still takes
 * a byte), and the fault is reported. */
static gboolean
take_fault (TksRecorder  *self,
            GError      **error)
{
  static const guint8 stop = TKS_RECORD_STOP_BYTE;

  if (self->fault == NULL)
    return TRUE;
  if (self->transport != NULL && !self->stats.ended)
    (void) tks_transport_write_all (self->transport, &stop, 1, 200, NULL, NULL);
  if (self->ended_us == 0)
    self->ended_us = g_get_monotonic_time ();
  if (self->fd >= 0)
    sync_file (self, TRUE);
  g_propagate_error (error, g_steal_pointer (&self->fault));
  return FALSE;
}

gboolean
tks_recorder_step (TksRecorder   *self,
                   int            timeout_ms,
                   GCancellable  *cancellable,
                   GError       **error)
{
  guint8 buf[16384];
  gint64 now;
  gssize n;

  g_return_val_if_fail (self->transport != NULL, FALSE);
  if (self->stats.ended)
    return TRUE;
  n = tks_transport_read (self->transport, buf, sizeof buf, timeout_ms, cancellable, error);
  now = g_get_monotonic_time ();
  if (n < 0)
    {
      self->ended_us = now;
      sync_file (self, TRUE);
      return FALSE;
    }
  if (n > 0)
    {
      self->last_byte_us = now;
      tks_recorder_feed (self, buf, (gsize) n);
    }
  sync_file (self, FALSE);
  if (!take_fault (self, error))
    return FALSE;
  if (self->stats.ended)
    return TRUE;
  if (self->prompt_seen)
    {
      /* A prompt without the end line: the board started again (reset) or refused. */
      self->ended_us = now;
      sync_file (self, TRUE);
      g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE,
                   self->phase == PHASE_HEADER
                   ? _("The board refused threads_record (see the file for its reply)")
                   : _("The board stopped streaming without ending the recording (was it "
                       "reset?)"));
      return FALSE;
    }
  if (now - self->last_byte_us > (gint64) self->silence_ms * 1000)
    {
      self->ended_us = now;
      sync_file (self, TRUE);
      g_set_error (error, TKS_ERROR, TKS_ERROR_TIMEOUT,
                   _("The board sent nothing for %.1f s: the recording ends there"),
                   self->silence_ms / 1000.0);
      return FALSE;
    }
  if (now - self->last_keepalive_us >= self->keepalive_us)
    {
      static const guint8 keepalive = TKS_RECORD_KEEPALIVE_BYTE;

      self->last_keepalive_us = now;
      if (!tks_transport_write_all (self->transport, &keepalive, 1, 1000, cancellable, error))
        {
          self->ended_us = now;
          sync_file (self, TRUE);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
tks_recorder_stop (TksRecorder   *self,
                   GCancellable  *cancellable,
                   GError       **error)
{
  static const guint8 stop = TKS_RECORD_STOP_BYTE;
  gint64 deadline;

  g_return_val_if_fail (self->transport != NULL, FALSE);
  if (self->stats.ended)
    return TRUE;
  if (!tks_transport_write_all (self->transport, &stop, 1, 1000, cancellable, error))
    return FALSE;
  self->last_byte_us = g_get_monotonic_time ();
  /* The board sends what it still holds first, at the link's pace: it may take long on a
   * slow link, as long as bytes come. */
  deadline = g_get_monotonic_time () + STOP_MAX_MS * 1000;
  while (!self->stats.ended)
    {
      gint64 now = g_get_monotonic_time ();

      if (now > deadline || now - self->last_byte_us > STOP_TIMEOUT_MS * 1000)
        {
          g_set_error (error, TKS_ERROR, TKS_ERROR_TIMEOUT,
                       _("The board did not end the recording after the stop byte"));
          return FALSE;
        }
      if (!tks_recorder_step (self, 100, cancellable, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
tks_recorder_close (TksRecorder  *self,
                    GError      **error)
{
  int fd = self->fd;

  if (fd < 0)
    return TRUE;
  self->fd = -1;
  if (self->ended_us == 0)
    self->ended_us = g_get_monotonic_time ();
  if (!take_fault (self, error))
    {
      close (fd);
      return FALSE;
    }
  if (fsync (fd) != 0 && errno != EINVAL)
    {
      int saved = errno;

      close (fd);
      g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Cannot write %s: %s"), self->path,
                   g_strerror (saved));
      return FALSE;
    }
  if (close (fd) != 0)
    {
      int saved = errno;

      g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Cannot write %s: %s"), self->path,
                   g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}
