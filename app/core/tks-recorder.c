/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Continuous recording: threads_record's stream to a file, decoded on the way. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "tks-capture-private.h"
#include "tks-error.h"
#include "tks-events-private.h"
#include "tks-recorder.h"
#include "tks-shell.h"

/* A line longer than this is not part of the stream (a compact line has 79 characters, a
 * thread's line a name of at most a few dozen). */
#define MAX_LINE         1024
#define KEEPALIVE_US     G_USEC_PER_SEC
#define SYNC_US          G_USEC_PER_SEC
#define STOP_TIMEOUT_MS  5000
#define STOP_MAX_MS      60000
/* Bytes in a row that are no line of the stream (noise, lines too long) after which the
 * recording ends: well below the capture reader's bound, past which it ignores the rest of a
 * file (tks-parser-private.h), so that the file keeps every record the recorder counted, and
 * a board that sends endless noise does not fill the disk. */
#define MAX_JUNK         ((guint64) 8 << 20)

typedef enum
{
  PHASE_HEADER,    /* the echo, the header and the lists, up to "Compact:" */
  PHASE_LOG,       /* the compact lines and what comes between them */
  PHASE_END,       /* after the end line: the prompt is expected */
} Phase;

struct _TksRecorder
{
  char          *path;
  char          *temp_path;     /* where the file is written until it is placed at path */
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
  guint64        line_bytes;     /* of the line so far, its end included */
  guint64        junk;           /* bytes since the last line of the stream */
  guint          line_no;
  TksCompactHeader header;       /* what the compact lines need */
  TksCompactDecoder *decoder;
  guint64        lost_pending;   /* slots lost before the next line's entries */
  gboolean       prompt_seen;    /* the board's prompt came back */
  guint          end_line_no;    /* the end line's, while it is the last line */
  gboolean       in_deleted;     /* the header's list of exited threads */
  guint          n_live;         /* threads with a number, as the reader keeps them */
  TksParsedEvents *names;        /* the names registered, read as the reader reads them */
  guint64        hole_at;        /* entries before the last hole kept, and its start */
  guint32        hole_begin;
  TksRecorderStats stats;

  TksRecorderEntriesFunc entries_func;
  gpointer       entries_data;
  TksRecorderNoticeFunc notice_func;
  gpointer       notice_data;
};

/* Nothing was recorded: the temporary file goes. */
static void
discard_temp (TksRecorder *self)
{
  if (self->temp_path != NULL)
    g_unlink (self->temp_path);
  g_clear_pointer (&self->temp_path, g_free);
}

TksRecorder *
tks_recorder_new (const char  *path,
                  GError     **error)
{
  TksRecorder *self;
  g_autofree char *temp_path = g_strdup_printf ("%s.XXXXXX", path);
  /* Beside the target, so that the rename stays on its file system. */
  int fd = g_mkstemp_full (temp_path, O_WRONLY | O_CLOEXEC, 0644);

  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Cannot create %s: %s"), path,
                   g_strerror (saved));
      return NULL;
    }
  self = g_new0 (TksRecorder, 1);
  self->path = g_strdup (path);
  self->temp_path = g_steal_pointer (&temp_path);
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
  discard_temp (self);
  g_clear_pointer (&self->decoder, tks_compact_decoder_free);
  g_clear_pointer (&self->names, tks_parsed_events_free);
  g_clear_pointer (&self->shell, tks_shell_free);
  g_string_free (self->line, TRUE);
  g_clear_error (&self->fault);
  g_free (self->path);
  g_free (self);
}

/* The file goes to its place once the board streams: until then an existing file there is
 * left as it was (a board that refuses, a link that fails, write nothing over it). */
static void
place_file (TksRecorder *self)
{
  if (self->temp_path == NULL)
    return;
  if (g_rename (self->temp_path, self->path) != 0 && self->fault == NULL)
    {
      int saved = errno;

      g_set_error (&self->fault, TKS_ERROR, TKS_ERROR_IO, _("Cannot write %s: %s"), self->path,
                   g_strerror (saved));
      return;
    }
  g_clear_pointer (&self->temp_path, g_free);
  self->stats.placed = TRUE;
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

/* An exit (From N to N) gives its number back, as the board and the reader renumber. */
static void
exit_renumbers (TksRecorder    *self,
                const TksEntry *e)
{
  guint out = (e->record >> 6) & 63, in = e->record & 63;

  if (e->kind == TKS_ENTRY_SWITCH && out == in && out != 0 && out <= self->n_live)
    self->n_live--;
}

static void
entries_out (TksRecorder *self)
{
  GArray *entries = tks_compact_decoder_entries (self->decoder);

  for (guint i = 0; i < entries->len; i++)
    exit_renumbers (self, &g_array_index (entries, TksEntry, i));
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

/* "Thread number N : ...": a thread created since; it takes the next number (see
 * WIRE-FORMAT.md). One that does not read, or comes with another number, is named as the
 * reader names it. */
static void
announcement (TksRecorder *self,
              const char  *line)
{
  int number;

  if (!tks_parse_thread_line (line, line + strlen (line), &number))
    {
      g_autofree char *shown = g_strescape (line, NULL);

      self->stats.damaged++;
      notice (self, _("line %u: an unreadable thread announcement: “%s”"), self->line_no,
              shown);
      return;
    }
  self->stats.threads++;
  if ((guint) number != self->n_live + 1)
    {
      self->stats.misnumbered++;
      notice (self, _("line %u: a thread comes as number %d, but %u threads have a number at "
                      "that point (lines were lost?)"), self->line_no, number, self->n_live);
    }
  self->n_live++;
}

/* "Name N : Kind = K, Name = NAME" (with events): a name registered since, read as the reader
 * reads it. */
static void
name_line (TksRecorder *self,
           const char  *line)
{
  g_autofree char *problem = NULL;

  if (self->names == NULL)
    self->names = tks_parsed_events_new (2);
  if (!tks_parsed_events_name (self->names, line, line + strlen (line), &problem))
    {
      g_autofree char *shown = g_strescape (line, NULL);

      self->stats.damaged++;
      notice (self, _("line %u: an unreadable name line: “%s”"), self->line_no, shown);
    }
  else if (problem != NULL)
    notice (self, _("line %u: %s"), self->line_no, problem);
}

/* A hole kept as the reader keeps it: joined to the one before when no entry lies between them
 * and they start alike, not kept beyond the holes a capture holds. */
static void
count_hole (TksRecorder        *self,
            const TksParsedGap *gap)
{
  if (self->stats.holes < TKS_MAX_GAPS)
    self->stats.holes++;
  else if (self->hole_at != self->stats.entries || self->hole_begin != gap->begin)
    {
      if (self->stats.holes_not_kept++ == 0)
        notice (self, _("line %u: the recording has more than %u holes, more than a capture "
                        "keeps: those from here on are not shown, and runs across them are "
                        "drawn too long"), self->line_no, TKS_MAX_GAPS);
      return;
    }
  self->hole_at = self->stats.entries;
  self->hole_begin = gap->begin;
}

/* "Lost: before record S, ticks B to E, N switches dropped", read as the reader reads it. */
static void
lost_line (TksRecorder *self,
           const char  *line)
{
  TksParsedGap gap;
  guint64 seq;
  g_autofree char *count = NULL;

  if (!tks_parse_lost_line (line, line + strlen (line), &seq, &gap))
    {
      g_autofree char *shown = g_strescape (line, NULL);

      self->stats.damaged++;
      notice (self, _("line %u: an unreadable hole line (its numbers are 0 to %u): “%s”"),
              self->line_no, G_MAXUINT32, shown);
      return;
    }
  count = g_strdup_printf ("%" G_GUINT64_FORMAT, gap.dropped);
  self->stats.dropped += gap.dropped;
  self->lost_pending += gap.dropped;
  count_hole (self, &gap);
  tks_compact_decoder_lost (self->decoder);
  notice (self, g_dngettext (GETTEXT_PACKAGE,
                             "line %u: the board could not send %s record "
                             "(the link was too slow): %s",
                             "line %u: the board could not send %s records "
                             "(the link was too slow): %s", (gulong) MIN (gap.dropped, G_MAXULONG)),
          self->line_no, count, line);
}

/* @n more bytes that are no line of the stream: past MAX_JUNK in a row, the recording ends. */
static void
add_junk (TksRecorder *self,
          guint64      n,
          guint        line_no)
{
  self->junk += n;
  if (self->junk > MAX_JUNK && self->fault == NULL)
    g_set_error (&self->fault, TKS_ERROR, TKS_ERROR_PARSE,
                 _("Line %u: more than %u MiB arrived without a line of the stream (noise on the "
                   "link, or a board that is not recording?): the recording ends there"),
                 line_no, (guint) (MAX_JUNK >> 20));
}

static void
log_line (TksRecorder *self,
          const char  *line)
{
  guint64 n;
  gboolean counting = self->counting, noise = FALSE;

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
    announcement (self, line);
  else if (starts (line, "Name "))
    name_line (self, line);
  else if (starts (line, "Heartbeat:"))
    ;
  else if (counted_calls (line, &n))
    {
      self->stats.counted = (counting ? self->stats.counted : 0) + n;
      self->counting = TRUE;
    }
  else if (starts (line, "Lost:"))
    lost_line (self, line);
  else if (starts (line, "End of dump:"))
    {
      /* Slots lost after the last line (the board could not send its backlog): told with
       * no entries, so that what was lost adds up to the drops. */
      if (self->lost_pending > 0 && self->entries_func != NULL)
        self->entries_func (NULL, 0, self->lost_pending, self->entries_data);
      self->lost_pending = 0;
      self->phase = PHASE_END;
      self->end_line_no = self->line_no;
    }
  else if (line[0] != '\0')
    {
      g_autofree char *shown = g_strescape (line, NULL);

      self->stats.damaged++;
      notice (self, _("line %u is not part of the stream (noise on the link?): “%s”"),
              self->line_no, shown);
      noise = TRUE;
    }
  /* a line of the stream, even a damaged one, ends a run of noise (as for the reader) */
  if (noise)
    add_junk (self, self->line_bytes, self->line_no);
  else
    self->junk = 0;
}

static void
header_line (TksRecorder *self,
             const char  *line)
{
  /* (the board answers with the stream: the file goes to its place) */
  if (starts (line, "Dump version:"))
    place_file (self);
  if (tks_compact_header_line (&self->header, line))
    {
      place_file (self);
      return;
    }
  if (starts (line, "Thread number"))
    {
      self->stats.threads++;
      self->n_live += !self->in_deleted;
    }
  else if (starts (line, "Deleted threads:"))
    self->in_deleted = TRUE;
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
      place_file (self);
      self->decoder = tks_compact_header_decoder (&self->header);
      self->phase = PHASE_LOG;
    }
}

/* More of the stream after an end line: that was no end (noise on the link); the stream goes
 * on, as the reader reads it. */
static void
stray_end_line (TksRecorder *self)
{
  self->stats.ignored++;
  notice (self, _("line %u: an end line in the middle of the stream is ignored (more of the "
                  "stream follows it: noise on the link?)"), self->end_line_no);
  self->phase = PHASE_LOG;
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
      self->line_bytes = 0;
      return;
    }
  line = self->line->str;
  if (self->line->len > 0 && line[self->line->len - 1] == '\r')
    g_string_truncate (self->line, self->line->len - 1);
  if (self->phase == PHASE_END && line[0] != '\0')
    stray_end_line (self);
  if (self->phase == PHASE_HEADER)
    header_line (self, line);
  else if (self->phase == PHASE_LOG)
    log_line (self, line);
  g_string_truncate (self->line, 0);
  self->line_bytes = 0;
}

void
tks_recorder_feed (TksRecorder  *self,
                   const guint8 *data,
                   gsize         len)
{
  if (self->started_us == 0)
    self->started_us = g_get_monotonic_time ();
  self->stats.bytes += len;
  /* After a fault nothing more is written, and so nothing more is counted: the recorder's
   * figures stay those of the file. */
  if (self->fault != NULL)
    return;
  write_file (self, data, len);
  for (gsize i = 0; i < len; i++)
    {
      char c = (char) data[i];

      self->line_bytes++;
      if (c == '\n')
        {
          end_line (self);
          continue;
        }
      if (self->line->len >= MAX_LINE)
        {
          /* (counted as it comes: such a line may never end) */
          add_junk (self, self->overlong ? 1 : self->line_bytes, self->line_no + 1);
          self->overlong = TRUE;
        }
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

static gboolean
close_file (TksRecorder  *self,
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

gboolean
tks_recorder_close (TksRecorder  *self,
                    GError      **error)
{
  gboolean ok = close_file (self, error);

  discard_temp (self);
  return ok;
}
