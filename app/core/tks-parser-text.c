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

/* "Thread number %2d : Prio = %3d, Log =": where the rest starts, or NULL. */
static const char *
parse_list_head (const char *p,
                 const char *end,
                 gint64     *number,
                 gint64     *priority)
{
  if ((p = expect_word (p, end, "Thread number")) == NULL ||
      (p = parse_int (skip_spaces (p, end), end, number)) == NULL ||
      (p = expect_word (p, end, ":")) == NULL ||
      (p = expect_word (p, end, "Prio")) == NULL ||
      (p = expect_word (p, end, "=")) == NULL ||
      (p = parse_int (skip_spaces (p, end), end, priority)) == NULL ||
      (p = expect_word (p, end, ",")) == NULL ||
      (p = expect_word (p, end, "Log")) == NULL)
    return NULL;
  return expect_word (p, end, "=");
}

/* "Yes" or "No": where it ends, or NULL. */
static const char *
parse_yes_no (const char *p,
              const char *end,
              gboolean   *yes)
{
  p = skip_spaces (p, end);
  *yes = end - p >= 3 && memcmp (p, "Yes", 3) == 0;
  if (*yes)
    return p + 3;
  if (end - p >= 2 && memcmp (p, "No", 2) == 0)
    return p + 2;
  return NULL;
}

/* "Thread number %2d : Prio = %3d, Log = %3s, Name = %s" */
TksListEntry *
tks_parse_list_entry (const char *p,
                      const char *end)
{
  TksListEntry *entry;
  gint64 number, priority;
  gboolean logged;

  if ((p = parse_list_head (p, end, &number, &priority)) == NULL ||
      (p = parse_yes_no (p, end, &logged)) == NULL ||
      (p = expect_word (p, end, ",")) == NULL ||
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

/* A line of the log that is an entry or a record (a compact line, a dump version 2's entry, a
 * record line): read, TRUE. */
static gboolean
log_entry_line (TksParser  *parser,
                const char *p,
                const char *end)
{
  TksParsed *cur = parser->current;
  TksRecord record;

  if (parser->decoder != NULL && end > p && *p == 'Z')
    {
      tks_parser_compact_line (parser, p, end);
      return TRUE;
    }
  if (in_dump_v2 (parser))
    {
      TksLogLine entry = tks_parsed_events_log_line (cur->events, cur->records, p, end);

      if (entry == TKS_LOG_LINE_EVENT)
        g_array_append_val (cur->log_other_lines, parser->line_no);
      return entry != TKS_LOG_LINE_NONE;
    }
  if (G_LIKELY (tks_parse_record_line (p, end, &record)))
    {
      g_array_append_val (cur->records, record);
      return TRUE;
    }
  return FALSE;
}

/* "Triggered at T": TRUE when @p to @end is one. */
static gboolean
triggered_line (TksParser  *parser,
                const char *p,
                const char *end)
{
  guint64 tick;
  const char *q;

  if (!has_prefix (p, end, "Triggered at"))
    return FALSE;
  q = parse_uint (skip_spaces (p + strlen ("Triggered at"), end), end, G_MAXUINT32, &tick);
  if (q == NULL || skip_spaces (q, end) != end)
    return FALSE;
  parser->current->has_trigger = TRUE;
  parser->current->trigger_tick = (guint32) tick;
  return TRUE;
}

/* A line of a log: threads_timestamps's, a dump's or a recording's. */
void
tks_parser_log_line (TksParser  *parser,
                     const char *p,
                     const char *end)
{
  g_autofree char *text = NULL;

  if (tks_parser_end_of_log_line (parser, p, end) || parser->rec_full)
    return;
  if (log_entry_line (parser, p, end))
    return;

  g_array_append_val (parser->current->log_other_lines, parser->line_no);
  trim (&p, &end);
  if (p == end)
    return;
  if (parser->recording && parser->decoder != NULL &&
      tks_parser_recording_line (parser, p, end))
    return;
  if (triggered_line (parser, p, end) || tks_parser_check_refusal (parser, p, end))
    return;
  text = tks_excerpt (p, end - p);
  parser->log_garbled++;
  tks_parser_warn (parser, _("line %u: warning: unreadable log line skipped: “%s”"),
                   parser->line_no, text);
}

/* The lines of a list that begin what follows it (deleted threads, a dump's log or names):
 * TRUE when @p to @end is one. */
static gboolean
list_turn_line (TksParser  *parser,
                const char *p,
                const char *end)
{
  if (has_prefix (p, end, "Deleted threads:"))
    {
      parser->section = SECTION_DELETED;
      return TRUE;
    }
  if (parser->in_dump && has_prefix (p, end, parser->compact ? "Compact:" : "Timestamps:"))
    {
      tks_parser_begin_compact_log (parser);
      return TRUE;
    }
  if (in_dump_v2 (parser) && has_prefix (p, end, "Names:"))
    {
      parser->section = SECTION_NAMES;
      return TRUE;
    }
  return FALSE;
}

/* A line of a thread list (live or deleted threads). */
void
tks_parser_list_line (TksParser  *parser,
                      const char *p,
                      const char *end)
{
  TksParsed *cur = parser->current;
  TksListEntry *entry;
  g_autofree char *text = NULL;
  g_autofree char *quoted = NULL;

  trim (&p, &end);
  if (p == end || list_turn_line (parser, p, end) || tks_parser_check_refusal (parser, p, end))
    return;

  entry = tks_parse_list_entry (p, end);
  if (entry != NULL)
    {
      entry->line = parser->line_no;
      g_ptr_array_add (parser->section == SECTION_LIST ? cur->live : cur->deleted, entry);
      return;
    }
  text = tks_excerpt (p, end - p);
  quoted = g_strdup_printf ("“%s”", text);
  tks_parser_unreadable_list_line (parser, quoted);
}

/* A line of threads_timestamps_trigger's reply: "Trigger set by NAME at T". */
void
tks_parser_trigger_reply_line (TksParser  *parser,
                               const char *p,
                               const char *end)
{
  static const char head[] = "Trigger set by ";
  TksParsed *cur = parser->current;
  const char *at;

  trim (&p, &end);
  if (!has_prefix (p, end, head))
    return;
  at = g_strrstr_len (p, end - p, " at ");
  if (at != NULL && at > p + strlen (head))
    {
      g_free (cur->trigger_name);
      cur->trigger_name = g_utf8_make_valid (p + strlen (head), at - (p + strlen (head)));
    }
}

/* For the reader's tests (tks-parser-private.h). */
const char *
tks_parse_record_fixed (const char *p,
                        const char *end,
                        TksRecord  *record)
{
  return parse_record_fixed (p, end, record);
}
