/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tks-parser-private.h"

/* The shell's text replies: threads_list's thread lines, threads_timestamps's record lines. */

/* "From %2d to %2d at %7d" */
gboolean
tks_parse_record_line (const char *p,
                       const char *end,
                       TksRecord  *record)
{
  guint64 out, in, tick;

  if ((p = expect_word (p, end, "From")) == NULL ||
      (p = parse_uint (skip_spaces (p, end), end, 255, &out)) == NULL ||
      (p = expect_word (p, end, "to")) == NULL ||
      (p = parse_uint (skip_spaces (p, end), end, 255, &in)) == NULL ||
      (p = expect_word (p, end, "at")) == NULL ||
      (p = parse_uint (skip_spaces (p, end), end, G_MAXUINT32, &tick)) == NULL)
    return FALSE;
  if (skip_spaces (p, end) != end)
    return FALSE;

  record->out = (guint8) out;
  record->in = (guint8) in;
  record->tick = (guint32) tick;
  record->flags = 0;
  return TRUE;
}

/* A field of "%2d" holding 0 to 99, else -1. */
static inline int
fixed_field (const char *f)
{
  if (f[1] < '0' || f[1] > '9')
    return -1;
  if (f[0] == ' ')
    return f[1] - '0';
  if (f[0] < '0' || f[0] > '9')
    return -1;
  return (f[0] - '0') * 10 + (f[1] - '0');
}

#define FIXED_RECORD_MIN 25 /* "From  1 to  2 at       5\n" */

/* A record line in the board's own layout, "From %2d to %2d at %7d" then CRLF or LF (a tick
 * of more than 7 digits widens its field): the fields are at known places, so nothing is
 * searched. Returns where the next line starts, or NULL for any other layout, which
 * parse_record then reads (it accepts all that this does, with the same values). */
static inline const char *
parse_record_fixed (const char *p,
                    const char *end,
                    TksRecord  *record)
{
  const char *q, *digits;
  guint64 tick = 0;
  int out, in;

  if (end - p < FIXED_RECORD_MIN || memcmp (p, "From ", 5) != 0 ||
      memcmp (p + 7, " to ", 4) != 0 || memcmp (p + 13, " at ", 4) != 0)
    return NULL;
  out = fixed_field (p + 5);
  in = fixed_field (p + 11);
  if (out < 0 || in < 0)
    return NULL;

  /* Spaces, then 1 to 10 digits that reach the field's end at least. */
  q = p + 17;
  while (q < p + 23 && *q == ' ')
    q++;
  for (digits = q; q < end && q - digits < 10 && *q >= '0' && *q <= '9'; q++)
    tick = tick * 10 + (guint64) (*q - '0');
  if (q < p + 24 || tick > G_MAXUINT32)
    return NULL;
  if (q < end && *q == '\r')
    q++;
  if (q == end || *q != '\n')
    return NULL;

  record->tick = (guint32) tick;
  record->out = (guint8) out;
  record->in = (guint8) in;
  record->flags = 0;
  return q + 1;
}

/* Reads the record lines in the board's layout from @p on, straight into the log, and returns
 * where the first other line starts. */
const char *
tks_parser_feed_records (TksParser  *parser,
                         const char *p,
                         const char *end)
{
  GArray *records = parser->current->records;
  TksRecord *data = (TksRecord *) (gpointer) records->data;
  guint first = records->len;
  guint n = first;          /* records in the log */
  guint room = first;       /* records the array holds */
  gboolean hashing = parser->in_dump;
  guint32 hash = hashing ? tks_parser_log_hash (parser) : 0;
  TksRecord record;
  const char *next;

  while ((next = parse_record_fixed (p, end, &record)) != NULL)
    {
      if (n == room)
        {
          /* Room for as many as the rest of the input can hold. */
          room = n + 1 + (guint) MIN ((gsize) (end - next) / FIXED_RECORD_MIN, G_MAXUINT32 / 2);
          g_array_set_size (records, room);
          data = (TksRecord *) (gpointer) records->data;
        }
      data[n++] = record;
      if (hashing)
        hash = log_hash_add (hash, &record);
      p = next;
    }

  if (n != first)
    {
      g_array_set_size (records, n);
      parser->line_no += n - first;
      if (hashing)
        {
          parser->log_hash = hash;
          parser->log_hashed = n;
        }
    }
  return p;
}

/* "Thread number %2d : Prio = %3d, Log = %3s, Name = %s" */
TksListEntry *
tks_parse_list_entry (const char *p,
                      const char *end)
{
  TksListEntry *entry;
  gint64 number, priority;
  gboolean logged;

  if ((p = expect_word (p, end, "Thread number")) == NULL ||
      (p = parse_int (skip_spaces (p, end), end, &number)) == NULL ||
      (p = expect_word (p, end, ":")) == NULL ||
      (p = expect_word (p, end, "Prio")) == NULL ||
      (p = expect_word (p, end, "=")) == NULL ||
      (p = parse_int (skip_spaces (p, end), end, &priority)) == NULL ||
      (p = expect_word (p, end, ",")) == NULL ||
      (p = expect_word (p, end, "Log")) == NULL ||
      (p = expect_word (p, end, "=")) == NULL)
    return NULL;

  p = skip_spaces (p, end);
  if (end - p >= 3 && memcmp (p, "Yes", 3) == 0)
    logged = TRUE;
  else if (end - p >= 2 && memcmp (p, "No", 2) == 0)
    logged = FALSE;
  else
    return NULL;
  p += logged ? 3 : 2;

  if ((p = expect_word (p, end, ",")) == NULL ||
      (p = expect_word (p, end, "Name")) == NULL ||
      (p = expect_word (p, end, "=")) == NULL)
    return NULL;
  if (p < end && *p == ' ')
    p++;
  if (number < 0 || number > 255)
    return NULL;

  entry = g_new0 (TksListEntry, 1);
  entry->number = (int) number;
  entry->priority = (int) priority;
  entry->logged = logged;
  entry->readable = TRUE;
  entry->name = g_utf8_make_valid (p, end - p);
  return entry;
}

gboolean
tks_parse_thread_line (const char *line,
                       const char *end,
                       int        *number)
{
  TksListEntry *entry = tks_parse_list_entry (line, end);

  if (entry == NULL)
    return FALSE;
  *number = entry->number;
  tks_list_entry_free (entry, NULL);
  return TRUE;
}

/* A thread line that cannot be read (@text: what it holds). A live thread keeps its place:
 * every later thread's number depends on it. */
void
tks_parser_unreadable_list_line (TksParser  *parser,
                                 const char *text)
{
  TksParsed *cur = parser->current;
  TksListEntry *entry;

  parser->list_garbled++;
  if (parser->section != SECTION_LIST)
    {
      tks_parser_warn (parser, _("line %u: warning: unreadable deleted-thread line skipped: %s"),
                       parser->line_no, text);
      return;
    }

  entry = g_new0 (TksListEntry, 1);
  entry->number = cur->live->len + 1;
  entry->readable = FALSE;
  entry->logged = TRUE;
  /* Translators: the name of a thread whose line in the thread list cannot be read */
  entry->name = g_strdup_printf (_("Unreadable thread %d"), entry->number);
  entry->line = parser->line_no;
  g_ptr_array_add (cur->live, entry);
  tks_parser_warn (parser, _("line %u: warning: unreadable thread line kept as “%s”: %s"),
                   parser->line_no, entry->name, text);
}
