/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>

#include "tks-capture-private.h"
#include "tks-compact.h"
#include "tks-limits.h"
#include "tks-parser.h"
#include "tks-recording-tail.h"

/* A header longer than this without its "Compact:" line is not a recording's: it is kept as
 * it is and the lines after it go to the tail. */
#define MAX_HEADER (1024 * 1024)
/* Threads a board numbers at most: a list announced longer is not a board's. */
#define MAX_THREADS 63

struct _TksRecordingTail
{
  char     *path;
  gsize     max_bytes;
  guint64   offset;       /* of the file, read up to here */
  GString  *partial;      /* the start of a line not finished yet: past the reader's longest
                           * line, only its first TKS_MAX_LINE_BYTES + 1 bytes (enough for the
                           * reader to say it is too long) */
  guint64   partial_bytes; /* and its length */
  GString  *header;
  gboolean  header_done;
  GQueue   *lines;        /* char *: the kept lines, each with its line break */
  gsize     kept;         /* their bytes */
  GHashTable *overlong;   /* of the kept lines longer than the reader's longest (kept that
                           * long and a byte), each line's length: char * → guint64 * */
  char     *announced[TKS_MAX_NAME_ID];  /* of the lines no longer kept, the latest list line
                                          * of each name id (1 to TKS_MAX_NAME_ID), or NULL */
  gsize     announced_bytes;
  /* The header's thread list, kept as of the first kept line: the header up to its line
   * "Threads:", the list lines without their "Thread number NN" (owned), the rest. */
  gboolean  has_list;
  GString  *head;
  GPtrArray *threads;
  GString  *rest;
  TksCompactDecoder *decoder;
  char     *last_gone;    /* the last compact line let go */
  /* The last switch (or heartbeat) let go: its tick, and how often the tick went round
   * before it */
  gboolean  gone_any;
  gboolean  gone_beat;    /* the last was a heartbeat: what follows comes after it */
  guint32   gone_tick;
  guint64   gone_wraps;
  guint32   wrap;         /* 2^"Tick bits" */
};

TksRecordingTail *
tks_recording_tail_new (const char *path,
                        gsize       max_bytes)
{
  TksRecordingTail *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_new0 (TksRecordingTail, 1);
  self->path = g_strdup (path);
  self->max_bytes = max_bytes;
  self->partial = g_string_new (NULL);
  self->header = g_string_new (NULL);
  self->wrap = 1u << TKS_RECORDING_TICK_BITS;
  self->lines = g_queue_new ();
  self->overlong = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->head = g_string_new (NULL);
  self->threads = g_ptr_array_new_with_free_func (g_free);
  self->rest = g_string_new (NULL);
  return self;
}

void
tks_recording_tail_free (TksRecordingTail *self)
{
  if (self == NULL)
    return;
  g_free (self->path);
  g_string_free (self->partial, TRUE);
  g_string_free (self->header, TRUE);
  g_hash_table_unref (self->overlong);
  g_queue_free_full (self->lines, g_free);
  for (guint i = 0; i < TKS_MAX_NAME_ID; i++)
    g_free (self->announced[i]);
  g_string_free (self->head, TRUE);
  g_ptr_array_unref (self->threads);
  g_string_free (self->rest, TRUE);
  g_clear_pointer (&self->decoder, tks_compact_decoder_free);
  g_free (self->last_gone);
  g_free (self);
}

/* The name id a list line announces ("Name  3 : ..."), 0 when it is none the reader takes
 * (ids 1 to TKS_MAX_NAME_ID: the reader ignores the others). */
static guint
announced_id (const char *line)
{
  const char *p = line + strlen ("Name ");
  guint64 id;
  char *end = NULL;

  if (!g_str_has_prefix (line, "Name "))
    return 0;
  p += strspn (p, " ");
  if (!g_ascii_isdigit (*p))
    return 0;
  id = g_ascii_strtoull (p, &end, 10);
  if (!g_str_has_prefix (end + strspn (end, " "), ":") || id < 1 || id > TKS_MAX_NAME_ID)
    return 0;
  return (guint) id;
}

/* A list line let go: the latest of its name id is kept (@line is taken), any other freed. */
static void
announce (TksRecordingTail *self,
          char             *line)
{
  guint id = announced_id (line);

  if (id == 0)
    {
      g_free (line);
      return;
    }
  if (self->announced[id - 1] != NULL)
    self->announced_bytes -= strlen (self->announced[id - 1]);
  g_free (self->announced[id - 1]);
  self->announced[id - 1] = line;
  self->announced_bytes += strlen (line);
}

/* A thread's list line: it takes the next number (its own is rewritten when composing). */
static void
list_add (TksRecordingTail *self,
          const char       *line)
{
  const char *colon = strstr (line, " : ");

  if (colon != NULL && self->threads->len < MAX_THREADS)
    g_ptr_array_add (self->threads, g_strdup (colon));
}

/* Whether the switch of @tick, after the switch of @before, came after a wrap, as the whole
 * file's reading tells (docs/rebuild.md): its tick is smaller by more than half a wrap.
 * (Smaller by less, it is out of order, and that reading leaves it out.) */
static gboolean
after_wrap (TksRecordingTail *self,
            guint32           before,
            guint32           tick)
{
  return tick < before && before - tick > self->wrap / 2;
}

/* A heartbeat let go ("Heartbeat: tick T"): it comes after the switch or heartbeat before it,
 * as the switch after it comes after it. */
static void
list_beat (TksRecordingTail *self,
           const char       *line)
{
  guint64 tick;
  char *end = NULL;

  if (!g_str_has_prefix (line, "Heartbeat: tick "))
    return;
  tick = g_ascii_strtoull (line + strlen ("Heartbeat: tick "), &end, 10);
  if (end == line + strlen ("Heartbeat: tick ") || tick >= self->wrap)
    return;
  if (self->gone_any && tick < self->gone_tick)
    self->gone_wraps++;
  self->gone_tick = (guint32) tick;
  self->gone_any = TRUE;
  self->gone_beat = TRUE;
}

/* A compact line let go: its exit records take their threads out of the list, the threads
 * after them one lower (see mcu-lib/WIRE-FORMAT.md); a line that does not decode changes
 * nothing. */
static void
list_exits (TksRecordingTail *self,
            const char       *line)
{
  TksEntry entries[TKS_COMPACT_MAX_ENTRIES];
  TksCompactLine decoded;
  gsize len = strcspn (line, "\r\n");

  tks_compact_line_decode (self->decoder, line, len, &decoded, entries);
  /* (taken, so that a line that came twice takes its exits out once) */
  if (decoded.status != TKS_COMPACT_LINE_OK ||
      !tks_compact_decoder_take (self->decoder, &decoded, NULL))
    return;
  for (guint i = 0; i < decoded.n_entries; i++)
    {
      guint out = (entries[i].record >> 6) & 0x3F, in = entries[i].record & 0x3F;
      guint32 tick = entries[i].record >> 12;

      if (entries[i].kind != TKS_ENTRY_SWITCH)
        continue;
      if (out == in && out != 0 && out <= self->threads->len)
        g_ptr_array_remove_index (self->threads, out - 1);
      /* the wraps as the file's reading counts them, on the switches */
      if (self->gone_beat)
        self->gone_wraps += tick < self->gone_tick;
      else if (self->gone_any && after_wrap (self, self->gone_tick, tick))
        self->gone_wraps++;
      else if (self->gone_any && tick < self->gone_tick)
        continue;
      self->gone_tick = tick;
      self->gone_any = TRUE;
      self->gone_beat = FALSE;
    }
}

/* Whether the kept lines may begin at @line: not at a compact line without a key frame (with
 * the counter's coder 2, the lines between key frames go on from the line before them), nor
 * at a copy of the compact line let go last, whole or damaged ("Z" and the same number: its
 * exits are in the list already). */
static gboolean
may_begin_at (TksRecordingTail *self,
              const char       *line)
{
  if (self->decoder == NULL)
    return TRUE;
  return tks_compact_line_may_start (self->decoder, line, strlen (line)) &&
         !(self->last_gone != NULL && strncmp (line, self->last_gone, 4) == 0);
}

/* Keeps at most max_bytes of lines (the last one always): the lines let go keep their
 * announcements, and their exits and threads make the list the kept lines begin with. */
static void
trim (TksRecordingTail *self)
{
  while (self->lines->length > 1 &&
         (self->kept > self->max_bytes || !may_begin_at (self, g_queue_peek_head (self->lines))))
    {
      char *line = g_queue_pop_head (self->lines);

      g_hash_table_remove (self->overlong, line);
      self->kept -= strlen (line);
      if (self->has_list && g_str_has_prefix (line, "Thread number "))
        list_add (self, line);
      else if (self->has_list && line[0] == 'Z')
        {
          list_exits (self, line);
          g_free (self->last_gone);
          self->last_gone = g_strdup (line);
        }
      else if (self->has_list && g_str_has_prefix (line, "Lost:"))
        /* (as the file's reading does: with coder 2, the line after it must have a key frame) */
        tks_compact_decoder_lost (self->decoder);
      else if (self->has_list && line[0] == 'H')
        list_beat (self, line);
      announce (self, line);
    }
}

/* The header is complete: its thread list apart, and a decoder for the lines let go. */
static void
split_header (TksRecordingTail *self)
{
  g_auto(GStrv) lines = NULL;
  TksCompactHeader facts = TKS_COMPACT_HEADER_INIT;
  int part = 0;

  if (strstr (self->header->str, "\nThreads:") == NULL)
    return;
  lines = g_strsplit (self->header->str, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *eol = lines[i + 1] != NULL ? "\n" : "";

      tks_compact_header_line (&facts, line);
      if (part == 1 && g_str_has_prefix (line, "Thread number "))
        {
          g_autofree char *whole = g_strconcat (line, eol, NULL);

          list_add (self, whole);
          continue;
        }
      if (part == 1)
        part = 2;
      g_string_append_printf (part == 0 ? self->head : self->rest, "%s%s", line, eol);
      if (part == 0 && strncmp (line, "Threads:", 8) == 0 && strspn (line + 8, "\r") == strlen (line + 8))
        part = 1;
    }
  if (part == 0)
    {
      g_string_truncate (self->head, 0);
      g_ptr_array_set_size (self->threads, 0);
      return;
    }
  self->has_list = TRUE;
  self->decoder = tks_compact_header_decoder (&facts);
  if (facts.tick_bits >= 8 && facts.tick_bits <= 20)
    self->wrap = 1u << facts.tick_bits;
}

/* A line of the file (@len bytes, its line break included; @bytes: its length in the file, more
 * than @len for a line longer than the reader's longest). */
static void
add_line (TksRecordingTail *self,
          const char       *line,
          gsize             len,
          guint64           bytes)
{
  char *kept;

  if (!self->header_done)
    {
      g_string_append_len (self->header, line, (gssize) len);
      /* "Compact:" ends the header, whatever ends its line */
      if (len >= 8 && strncmp (line, "Compact:", 8) == 0 && strspn (line + 8, "\r\n") == len - 8)
        {
          self->header_done = TRUE;
          split_header (self);
        }
      else if (self->header->len > MAX_HEADER)
        self->header_done = TRUE;
      return;
    }
  kept = g_strndup (line, len);
  g_queue_push_tail (self->lines, kept);
  self->kept += len;
  if (bytes > len)
    g_hash_table_insert (self->overlong, kept, g_memdup2 (&bytes, sizeof bytes));
  trim (self);
}

/* Bytes of a line not finished yet: past the reader's longest line, only counted. */
static void
partial_add (TksRecordingTail *self,
             const char       *p,
             gsize             len)
{
  gsize room = TKS_MAX_LINE_BYTES + 1 - MIN (self->partial->len, TKS_MAX_LINE_BYTES + 1);

  g_string_append_len (self->partial, p, (gssize) MIN (len, room));
  self->partial_bytes += len;
}

/* The bytes @p to @end (of the file, in order), cut into lines. */
static void
add_bytes (TksRecordingTail *self,
           const char       *p,
           const char       *end)
{
  while (p < end)
    {
      const char *nl = memchr (p, '\n', (size_t) (end - p));

      if (nl == NULL)
        {
          partial_add (self, p, (gsize) (end - p));
          break;
        }
      if (self->partial->len > 0 || nl - p > TKS_MAX_LINE_BYTES)
        {
          /* (a line longer than the reader's longest is kept too long by a byte: the reader
           * says so, and skips it) */
          partial_add (self, p, (gsize) (nl + 1 - p));
          if (self->partial->str[self->partial->len - 1] != '\n')
            g_string_append_c (self->partial, '\n');
          add_line (self, self->partial->str, self->partial->len, self->partial_bytes);
          g_string_truncate (self->partial, 0);
          self->partial_bytes = 0;
        }
      else
        add_line (self, p, (gsize) (nl + 1 - p), (guint64) (nl + 1 - p));
      p = nl + 1;
    }
}

void
tks_recording_tail_set_max_bytes (TksRecordingTail *self,
                                  gsize             max_bytes)
{
  g_return_if_fail (self != NULL);

  self->max_bytes = max_bytes;
  trim (self);
}

gboolean
tks_recording_tail_update (TksRecordingTail  *self,
                           GError           **error)
{
  return tks_recording_tail_update_to (self, G_MAXUINT64, error);
}

gboolean
tks_recording_tail_update_to (TksRecordingTail  *self,
                              guint64            limit,
                              GError           **error)
{
  g_autofree char *buffer = NULL;
  FILE *file;
  size_t n;
  int saved;

  g_return_val_if_fail (self != NULL, FALSE);

  file = g_fopen (self->path, "rb");
  if (file == NULL || fseeko (file, (off_t) self->offset, SEEK_SET) != 0)
    {
      saved = errno;
      if (file != NULL)
        fclose (file);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot read “%s”: %s"), self->path, g_strerror (saved));
      return FALSE;
    }
  buffer = g_malloc (64 * 1024);
  while (self->offset < limit &&
         (n = fread (buffer, 1, (size_t) MIN (64 * 1024, limit - self->offset), file)) > 0)
    {
      self->offset += n;
      add_bytes (self, buffer, buffer + n);
    }
  saved = errno;
  if (ferror (file))
    {
      fclose (file);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot read “%s”: %s"), self->path, g_strerror (saved));
      return FALSE;
    }
  fclose (file);
  return TRUE;
}


/* The header with its list as of the first kept line, and the announcements let go. */
static GString *
compose_head (TksRecordingTail *self)
{
  GString *text = g_string_sized_new (self->header->len + self->kept + 4096);

  if (self->has_list)
    {
      /* The list as of the first kept line: the threads that exited before it are gone, those
       * announced before it are in, each with the number it has there. */
      g_string_append_len (text, self->head->str, (gssize) self->head->len);
      for (guint i = 0; i < self->threads->len; i++)
        g_string_append_printf (text, "Thread number %2u%s", i + 1,
                                (const char *) g_ptr_array_index (self->threads, i));
      g_string_append_len (text, self->rest->str, (gssize) self->rest->len);
    }
  else
    g_string_append_len (text, self->header->str, (gssize) self->header->len);
  for (guint i = 0; i < TKS_MAX_NAME_ID; i++)
    if (self->announced[i] != NULL)
      g_string_append (text, self->announced[i]);
  return text;
}

GBytes *
tks_recording_tail_compose (TksRecordingTail *self)
{
  GString *text;

  g_return_val_if_fail (self != NULL, NULL);

  if (!self->header_done)
    return NULL;
  text = compose_head (self);
  for (GList *l = self->lines->head; l != NULL; l = l->next)
    g_string_append (text, l->data);
  /* a line that goes on past the reader's longest: it says so as it reads the file */
  if (self->partial->len > TKS_MAX_LINE_BYTES)
    g_string_append_printf (text, "%s\n", self->partial->str);
  return g_string_free_to_bytes (text);
}

/* A line longer than the reader's longest, of which @kept bytes were kept (without their line
 * break): the reader is given what stands for the rest (it only counts those bytes), so that it
 * tells of the line as it does reading the file. */
static void
feed_overlong (TksParser  *parser,
               const char *kept,
               gsize       len,
               guint64     bytes)
{
  g_autofree char *filler = g_malloc (64 * 1024);

  memset (filler, 'x', 64 * 1024);
  tks_parser_feed (parser, kept, len);
  for (guint64 left = bytes - MIN (bytes, len + 1); left > 0; )
    {
      gsize n = (gsize) MIN (left, 64 * 1024);

      tks_parser_feed (parser, filler, n);
      left -= n;
    }
  tks_parser_feed (parser, "\n", 1);
}

TksCapture *
tks_recording_tail_read (TksRecordingTail  *self,
                         GError           **error)
{
  g_autoptr(TksParser) parser = NULL;
  g_autoptr(GString) head = NULL;
  TksParsed *parsed;

  g_return_val_if_fail (self != NULL, NULL);

  if (!self->header_done)
    return NULL;
  parser = tks_parser_new ();
  head = compose_head (self);
  tks_parser_feed (parser, head->str, head->len);
  for (GList *l = self->lines->head; l != NULL; l = l->next)
    {
      const guint64 *bytes = g_hash_table_lookup (self->overlong, l->data);
      gsize len = strlen (l->data);

      if (bytes != NULL)
        feed_overlong (parser, l->data, len - 1, *bytes);
      else
        tks_parser_feed (parser, l->data, len);
    }
  if (self->partial->len > TKS_MAX_LINE_BYTES)
    feed_overlong (parser, self->partial->str, self->partial->len, self->partial_bytes + 1);
  parsed = tks_parser_finish (parser, error);
  return parsed != NULL ? tks_capture_new_from_parsed (parsed) : NULL;
}

guint64
tks_recording_tail_get_offset (TksRecordingTail *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->offset;
}

gsize
tks_recording_tail_get_kept (TksRecordingTail *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->kept;
}

gsize
tks_recording_tail_get_held (TksRecordingTail *self)
{
  gsize held;

  g_return_val_if_fail (self != NULL, 0);
  held = self->header->len + self->partial->len + self->kept + self->announced_bytes +
         self->head->len + self->rest->len + (self->last_gone != NULL ? strlen (self->last_gone) : 0);
  for (guint i = 0; i < self->threads->len; i++)
    held += strlen (g_ptr_array_index (self->threads, i));
  return held;
}

double
tks_recording_tail_wraps_before (TksRecordingTail *self,
                                 double            start)
{
  double epochs, tick;

  g_return_val_if_fail (self != NULL, 0);

  /* nothing let go: the stretch begins where the file does */
  if (!self->gone_any || !isfinite (start))
    return 0;
  /* @start counts from the stretch's first switch, in its tick's epoch: an event before it
   * and before a wrap is below 0 */
  epochs = floor (start / self->wrap);
  tick = floor (start - epochs * self->wrap);
  return (double) self->gone_wraps - epochs +
         (self->gone_beat ? tick < self->gone_tick : after_wrap (self, self->gone_tick, (guint32) tick));
}

double
tks_recording_tail_get_tick_wrap (TksRecordingTail *self)
{
  g_return_val_if_fail (self != NULL, TKS_RECORDING_TICK_WRAP);

  return self->wrap;
}
