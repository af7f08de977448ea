/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tks-error.h"
#include "tks-events-private.h"
#include "tks-compact.h"
#include "tks-limits.h"
#include "tks-parser.h"
#include "tks-parser-private.h"

#define MAX_KEPT_WARNINGS 200

/*
 * Bounds of what a capture can hold. The longest line of any format is a thread line of the
 * list or Tickscope's "source" line: a name or a path (at most 4,096 bytes) after 64 bytes of
 * fields; a record line is at most 29 bytes. A longer line is skipped with a warning, never
 * held whole. Input that goes on without a readable line of a capture for MAX_JUNK bytes (an
 * endless device, random bytes, a damaged rest) is refused, and so is a log or a list longer
 * than any board keeps (63 live threads, a log of 20-bit ticks in the board's RAM).
 */
#define MAX_LINE TKS_MAX_LINE_BYTES
#define MAX_JUNK ((guint64) 16 << 20)
#define MAX_RECORDS (1u << 24)
#define MAX_LIST_ENTRIES (1u << 22)
#define PROMPT "ch> "
#define PROMPT_LEN 4

typedef enum
{
  SECTION_NONE,
  SECTION_POSITION,
  SECTION_LIST,
  SECTION_DELETED,
  SECTION_LOG,
  SECTION_TRIGGER_REPLY,
  SECTION_DUMP_HEADER,
  SECTION_NAMES,
  SECTION_OTHER,
} Section;

struct _TksParser
{
  TksParsed *current;       /* being filled */
  TksParsed *complete;      /* last complete list + log pair, when a newer one started */
  gboolean   have_list;
  gboolean   have_log;
  Section    section;
  guint      line_no;
  guint      n_positions;   /* floats read after "Saved position" */
  GString   *partial;       /* an unfinished line between two feeds (for a line longer than
                               MAX_LINE, only its start, for the warning) */
  guint64    overlong;      /* bytes of the line longer than MAX_LINE being skipped, or 0 */
  guint64    junk;          /* bytes since the last readable line of a capture */
  char      *fatal;         /* the input cannot be a capture: why (reading stops) */
  char      *refusal;       /* the board refused a command we need: the reason */
  guint      refusal_line;
  guint      list_garbled;
  guint      log_garbled;
  gboolean   in_dump;       /* the sections come from one threads_dump reply */
  gboolean   dump_ended;
  guint      dump_records;  /* what its header announced */
  guint32    log_hash;      /* the checksum of the log's first log_hashed records */
  guint      log_hashed;
  GArray    *pending_gaps;  /* TksParsedGap read before the log they belong to */
  GArray    *pending_beats; /* TksParsedBeat likewise (a saved capture's) */
  guint      tick_bits;     /* the last "Tick bits" read (0: none), for the logs after it */
  TksParsedEvents *pending_events; /* a dump version 2's header, before its list */
  gboolean   compact;       /* the dump's log comes in the compact encoding (version 3) */
  TksCompactDecoder *decoder; /* its decoder, from the line "Compact:" on */
  gboolean   recording;     /* the dump is a threads_record stream: its log carries the lines
                             * of threads and names that appear, and its holes */
  guint      rec_entries;   /* of a recording's entries, those whose slots rec_slots counts */
  guint64    rec_slots;
  guint      rec_renumbered; /* of a recording's records, those whose exits renumbered */
  guint      rec_max;       /* a recording's records (or entries) read at most: MAX_RECORDS */
  gboolean   rec_full;      /* the recording holds more: the rest of its log is passed over */
  guint64    holes_not_kept; /* a recording's holes beyond TKS_MAX_GAPS */
  char      *end_line;      /* the log's end line, judged when the log ends: an end line that
                             * more of the log follows is not the end (noise on the link) */
  guint      end_line_no;
  gboolean   rest_ignored;  /* junk after a capture: the rest of the input is passed over */
  TksParsedEvents *saved_events;   /* a saved capture's events, for its log */
  GArray    *saved_switches;        /* TksRecord: the switches among them */
  /* Decoding a compact log by batches (FALSE: line by line; both read the same) */
  gboolean   batch_compact;
  guint      batch_lines;   /* lines a batch holds at most */
  guint      chunk_lines;   /* lines a thread takes at a time */
  guint      n_threads;     /* threads that decode a batch, the reader's own included */
  struct _CompactBatch *batch;
  GThreadPool *pool;        /* the other threads, made when a batch first needs them */
};

/* Reading the list or the log of a threads_dump of version 2 (tks-parser-events.c). */
static inline gboolean
in_dump_v2 (TksParser *parser)
{
  return parser->in_dump && parser->current->events != NULL;
}

/* Commands whose echo starts a section when seen without a prompt (capture files). */
static const char * const known_commands[] = {
  "threads_list",
  "threads_timestamps",
  "threads_timestamps_trigger",
  "threads_timestamps_run",
  "threads_stat",
  "threads_uc",
  "threads_dump",
  "threads_dump_compact",
  "threads_record",
  "threads_record events",
};

TksParsed *
tks_parsed_new (void)
{
  TksParsed *parsed = g_new0 (TksParsed, 1);

  parsed->live = g_ptr_array_new ();
  parsed->deleted = g_ptr_array_new ();
  parsed->records = g_array_new (FALSE, FALSE, sizeof (TksRecord));
  parsed->log_other_lines = g_array_new (FALSE, FALSE, sizeof (guint));
  parsed->compact_marks = g_array_new (FALSE, FALSE, sizeof (TksCompactLineMark));
  parsed->gaps = g_array_new (FALSE, FALSE, sizeof (TksParsedGap));
  parsed->beats = g_array_new (FALSE, FALSE, sizeof (TksParsedBeat));
  parsed->warnings = g_ptr_array_new_with_free_func (g_free);
  parsed->warnings_saved = g_array_new (FALSE, FALSE, sizeof (guint));
  return parsed;
}

static void
list_entry_free (gpointer data,
                 gpointer user_data)
{
  TksListEntry *entry = data;

  g_free (entry->name);
  g_free (entry);
}

static void
clear_list (TksParsed *parsed)
{
  g_ptr_array_foreach (parsed->live, list_entry_free, NULL);
  g_ptr_array_foreach (parsed->deleted, list_entry_free, NULL);
  g_ptr_array_set_size (parsed->live, 0);
  g_ptr_array_set_size (parsed->deleted, 0);
}

static void
clear_log (TksParsed *parsed)
{
  g_array_set_size (parsed->records, 0);
  g_array_set_size (parsed->log_other_lines, 0);
  g_array_set_size (parsed->compact_marks, 0);
  g_array_set_size (parsed->gaps, 0);
  g_array_set_size (parsed->beats, 0);
  parsed->has_trigger = FALSE;
  parsed->trigger_tick = 0;
}

void
tks_parsed_free (TksParsed *parsed)
{
  if (parsed == NULL)
    return;

  clear_list (parsed);
  g_ptr_array_unref (parsed->live);
  g_ptr_array_unref (parsed->deleted);
  g_array_unref (parsed->records);
  g_array_unref (parsed->log_other_lines);
  g_array_unref (parsed->compact_marks);
  g_array_unref (parsed->gaps);
  g_array_unref (parsed->beats);
  g_ptr_array_unref (parsed->warnings);
  g_array_unref (parsed->warnings_saved);
  g_free (parsed->trigger_name);
  g_free (parsed->source);
  g_free (parsed->damage);
  tks_parsed_events_free (parsed->events);
  g_free (parsed);
}

guint
tks_parsed_tick_bits (const TksParsed *parsed)
{
  return parsed->tick_bits != 0 ? parsed->tick_bits : 20;
}

guint
tks_parsed_record_line (const TksParsed *parsed,
                        guint            record)
{
  const guint *other = (const guint *) (gconstpointer) parsed->log_other_lines->data;
  const TksCompactLineMark *marks = (const TksCompactLineMark *) (gconstpointer) parsed->compact_marks->data;
  guint line;
  guint lo = 0, hi = parsed->compact_marks->len;

  /* A compact line holds many records: they are all on it, and take one line. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (marks[mid].first <= record)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo > 0)
    {
      const TksCompactLineMark *m = &marks[lo - 1];

      record = record < m->first + m->count ? m->first - m->extra
                                            : record - m->extra - (m->count - 1);
    }
  line = parsed->log_first_line + record;
  lo = 0;
  hi = parsed->log_other_lines->len;

  /* Lines of the log section that are not records push the records further down: the j-th
   * of them (0-based, in increasing order) comes before the record when other[j] - j <= line,
   * which grows with j, so a binary search finds how many do. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (other[mid] - mid <= line)
        lo = mid + 1;
      else
        hi = mid;
    }
  return line + lo;
}

TksParser *
tks_parser_new (void)
{
  TksParser *parser = g_new0 (TksParser, 1);

  parser->current = tks_parsed_new ();
  parser->partial = g_string_new (NULL);
  parser->pending_gaps = g_array_new (FALSE, FALSE, sizeof (TksParsedGap));
  parser->pending_beats = g_array_new (FALSE, FALSE, sizeof (TksParsedBeat));
  parser->saved_switches = g_array_new (FALSE, FALSE, sizeof (TksRecord));
  parser->batch_compact = TRUE;
  parser->batch_lines = BATCH_LINES;
  parser->chunk_lines = CHUNK_LINES;
  parser->rec_max = MAX_RECORDS;
  parser->n_threads = CLAMP (g_get_num_processors (), 1, MAX_DECODE_THREADS);
  return parser;
}

static void compact_batch_free (struct _CompactBatch *batch);

void
tks_parser_free (TksParser *parser)
{
  if (parser == NULL)
    return;

  g_clear_pointer (&parser->current, tks_parsed_free);
  g_clear_pointer (&parser->complete, tks_parsed_free);
  g_string_free (parser->partial, TRUE);
  g_array_unref (parser->pending_gaps);
  g_array_unref (parser->pending_beats);
  tks_parsed_events_free (parser->pending_events);
  tks_compact_decoder_free (parser->decoder);
  tks_parsed_events_free (parser->saved_events);
  g_array_unref (parser->saved_switches);
  g_free (parser->end_line);
  if (parser->pool != NULL)
    g_thread_pool_free (parser->pool, FALSE, TRUE);
  compact_batch_free (parser->batch);
  g_free (parser->refusal);
  g_free (parser->fatal);
  g_free (parser);
}

static void
add_warning (TksParser  *parser,
             const char *format,
             ...) G_GNUC_PRINTF (2, 3);

/* Keeps @text (taken) unless enough are kept; a save writes it from @saved_from on. */
static void
keep_warning (TksParser *parser,
              char      *text,
              guint      saved_from)
{
  TksParsed *parsed = parser->current;

  parsed->n_warnings++;
  if (parsed->warnings->len >= MAX_KEPT_WARNINGS)
    {
      g_free (text);
      return;
    }
  g_ptr_array_add (parsed->warnings, text);
  g_array_append_val (parsed->warnings_saved, saved_from);
}

static void
fail (TksParser  *parser,
      const char *format,
      ...) G_GNUC_PRINTF (2, 3);

static void
add_warning (TksParser  *parser,
             const char *format,
             ...)
{
  va_list args;

  va_start (args, format);
  keep_warning (parser, g_strdup_vprintf (format, args), 0);
  va_end (args);
}

/* A threads_dump that did not arrive whole: a warning, and remembered for live sessions. */
static void
dump_damaged (TksParser  *parser,
              const char *message)
{
  add_warning (parser, _("line %u: warning: %s"), parser->line_no, message);
  if (parser->current->damage == NULL)
    parser->current->damage = g_strdup_printf (_("Line %u: %s"), parser->line_no, message);
}

/* A short, printable excerpt of a bad line for messages. */
static char *
excerpt (const char *s,
         gsize       len)
{
  GString *out = g_string_new (NULL);
  gsize n = MIN (len, 60);

  for (gsize i = 0; i < n; i++)
    {
      guchar c = (guchar) s[i];

      if (c >= 0x20 && c < 0x7f)
        g_string_append_c (out, (char) c);
      else
        g_string_append_printf (out, "\\x%02x", c);
    }
  if (len > n)
    g_string_append (out, "…");
  return g_string_free (out, FALSE);
}

/* Number parsing that never reads past @end. */
static inline const char *
skip_spaces (const char *p,
             const char *end)
{
  while (p < end && *p == ' ')
    p++;
  return p;
}

static inline const char *
parse_uint (const char *p,
            const char *end,
            guint64     max,
            guint64    *out)
{
  guint64 v = 0;
  const char *start = p;

  while (p < end && *p >= '0' && *p <= '9')
    {
      v = v * 10 + (guint64) (*p - '0');
      if (v > max)
        return NULL;
      p++;
    }
  if (p == start || p - start > 10)
    return NULL;
  *out = v;
  return p;
}

static inline const char *
parse_int (const char *p,
           const char *end,
           gint64     *out)
{
  gboolean negative = FALSE;
  guint64 v;

  if (p < end && *p == '-')
    {
      negative = TRUE;
      p++;
    }
  p = parse_uint (p, end, G_MAXINT32, &v);
  if (p == NULL)
    return NULL;
  *out = negative ? -(gint64) v : (gint64) v;
  return p;
}

static inline const char *
expect_word (const char *p,
             const char *end,
             const char *word)
{
  gsize len = strlen (word);

  p = skip_spaces (p, end);
  if ((gsize) (end - p) < len || memcmp (p, word, len) != 0)
    return NULL;
  return p + len;
}

/* "From %2d to %2d at %7d" */
static gboolean
parse_record (const char *p,
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

/* A threads_dump's checksum: FNV-1a over the records' 32-bit words, low byte first. */
static inline guint32
log_hash_add (guint32          hash,
              const TksRecord *r)
{
  return tks_hash_word (hash, ((r->tick & 0xFFFFFu) << 12) | ((guint32) (r->out & 0x3F) << 6)
                               | (r->in & 0x3F));
}

static guint32
log_hash_records (guint32          hash,
                  const TksRecord *r,
                  guint            n)
{
  for (guint i = 0; i < n; i++)
    hash = log_hash_add (hash, &r[i]);
  return hash;
}

/* The checksum of every record of the log so far. The reader of record lines hashes as it
 * goes; this adds the records it did not see. */
static guint32
log_hash (TksParser *parser)
{
  GArray *records = parser->current->records;

  if (parser->log_hashed < records->len)
    parser->log_hash = log_hash_records (parser->log_hash,
                                         &g_array_index (records, TksRecord, parser->log_hashed),
                                         records->len - parser->log_hashed);
  parser->log_hashed = MAX (parser->log_hashed, records->len);
  return parser->log_hash;
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
static const char *
feed_records (TksParser  *parser,
              const char *p,
              const char *end)
{
  GArray *records = parser->current->records;
  TksRecord *data = (TksRecord *) (gpointer) records->data;
  guint first = records->len;
  guint n = first;          /* records in the log */
  guint room = first;       /* records the array holds */
  gboolean hashing = parser->in_dump;
  guint32 hash = hashing ? log_hash (parser) : 0;
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
static TksListEntry *
parse_list_entry (const char *p,
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
  TksListEntry *entry = parse_list_entry (line, end);

  if (entry == NULL)
    return FALSE;
  *number = entry->number;
  list_entry_free (entry, NULL);
  return TRUE;
}

static gboolean
has_prefix (const char *p,
            const char *end,
            const char *prefix)
{
  gsize len = strlen (prefix);

  return (gsize) (end - p) >= len && memcmp (p, prefix, len) == 0;
}

static void
trim (const char **p,
      const char **end)
{
  while (*p < *end && g_ascii_isspace (**p))
    (*p)++;
  while (*end > *p && g_ascii_isspace ((*end)[-1]))
    (*end)--;
}

static void
refuse (TksParser  *parser,
        const char *reason)
{
  if (parser->refusal == NULL)
    {
      parser->refusal = g_strdup (reason);
      parser->refusal_line = parser->line_no;
    }
}

static void
begin_list (TksParser *parser)
{
  TksParsed *cur = parser->current;

  if (parser->have_list && parser->have_log)
    {
      /* A newer pair starts: keep the complete one until this one is complete too. */
      TksParsed *next = tks_parsed_new ();

      next->has_saved_view = cur->has_saved_view;
      next->saved_view = cur->saved_view;
      next->tick_hz = cur->tick_hz;
      next->source = g_strdup (cur->source);
      next->trigger_name = g_strdup (cur->trigger_name);
      next->n_warnings = cur->n_warnings;
      for (guint i = 0; i < cur->warnings->len; i++)
        g_ptr_array_add (next->warnings, g_strdup (g_ptr_array_index (cur->warnings, i)));
      g_array_append_vals (next->warnings_saved, cur->warnings_saved->data,
                           cur->warnings_saved->len);

      g_clear_pointer (&parser->complete, tks_parsed_free);
      parser->complete = g_steal_pointer (&parser->current);
      parser->current = next;
      parser->have_log = FALSE;
    }
  else
    clear_list (parser->current);

  parser->have_list = TRUE;
  parser->list_garbled = 0;
  parser->section = SECTION_LIST;
}

static void
begin_log (TksParser *parser)
{
  clear_log (parser->current);
  parser->rec_renumbered = 0;
  parser->rec_full = FALSE;
  if (!parser->in_dump)
    g_clear_pointer (&parser->current->events, tks_parsed_events_free);
  else if (parser->current->events != NULL)
    tks_parsed_events_clear_log (parser->current->events);
  /* The holes read before the log (dump header, saved file) are this log's. */
  g_array_append_vals (parser->current->gaps, parser->pending_gaps->data,
                       parser->pending_gaps->len);
  g_array_set_size (parser->pending_gaps, 0);
  g_array_append_vals (parser->current->beats, parser->pending_beats->data,
                       parser->pending_beats->len);
  g_array_set_size (parser->pending_beats, 0);
  parser->current->tick_bits = parser->tick_bits;
  parser->have_log = TRUE;
  parser->log_garbled = 0;
  parser->log_hash = TKS_HASH_START;
  parser->log_hashed = 0;
  parser->current->log_first_line = parser->line_no + 1;
  parser->section = SECTION_LOG;
}

static void
begin_command (TksParser  *parser,
               const char *p,
               const char *end)
{
  trim (&p, &end);

#define IS(word) ((gsize) (end - p) == strlen (word) && memcmp (p, word, strlen (word)) == 0)
  if (IS ("threads_list"))
    begin_list (parser);
  else if (IS ("threads_timestamps"))
    begin_log (parser);
  else if (IS ("threads_timestamps_trigger"))
    parser->section = SECTION_TRIGGER_REPLY;
  else if (IS ("threads_dump") || IS ("threads_dump_compact") || IS ("threads_record") ||
           IS ("threads_record events"))
    {
      parser->section = SECTION_DUMP_HEADER;
      parser->recording = IS ("threads_record") || IS ("threads_record events");
      parser->rec_entries = 0;
      parser->rec_slots = 0;
      parser->rec_renumbered = 0;
      parser->rec_full = FALSE;
      parser->in_dump = TRUE;
      parser->dump_ended = FALSE;
      parser->dump_records = G_MAXUINT;
      parser->tick_bits = 0;
      g_array_set_size (parser->pending_gaps, 0);
      g_array_set_size (parser->pending_beats, 0);
      g_clear_pointer (&parser->pending_events, tks_parsed_events_free);
    }
  else if (IS ("Saved position"))
    {
      parser->section = SECTION_POSITION;
      parser->n_positions = 0;
    }
  else
    parser->section = SECTION_OTHER;
#undef IS
}

static gboolean
is_known_command (const char *p,
                  const char *end)
{
  gsize len = end - p;

  if (len == strlen ("Saved position") && memcmp (p, "Saved position", len) == 0)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (known_commands); i++)
    if (len == strlen (known_commands[i]) && memcmp (p, known_commands[i], len) == 0)
      return TRUE;
  return FALSE;
}

/* Replies that mean the board refused or does not have a command. */
static gboolean
check_refusal (TksParser  *parser,
               const char *p,
               const char *end)
{
  g_autofree char *text = NULL;

  if (!(has_prefix (p, end, "threads_") && end - p > 2 && end[-1] == '?' && end[-2] == ' ') &&
      !has_prefix (p, end, "The thread timestamps functionality is disabled") &&
      !has_prefix (p, end, "Usage: threads_"))
    return FALSE;

  text = excerpt (p, end - p);
  if (has_prefix (p, end, "Usage: "))
    refuse (parser, text);
  else if (end[-1] == '?')
    refuse (parser, _("the board's shell does not know the threads_list or threads_timestamps "
                      "command: is THREADS_UTILITIES_SHELL_CMD in its command table?"));
  else
    refuse (parser, _("the board's library was built without the timestamps: set "
                      "USE_THREADS_TIMESTAMPS = true in its makefile"));
  return TRUE;
}

static gboolean
header_value (const char  *p,
              const char  *end,
              const char  *key,
              guint64     *value)
{
  const char *q;

  if (!has_prefix (p, end, key))
    return FALSE;
  q = parse_uint (skip_spaces (p + strlen (key), end), end, G_MAXUINT32, value);
  return q != NULL;
}

/* "before record S, ticks B to E, N switches dropped" (after "Paused:" in a threads_dump
 * header, after "Tickscope gap" in a saved capture). */
static gboolean
parse_gap (const char   *p,
           const char   *end,
           guint64      *seq,
           TksParsedGap *gap)
{
  guint64 begin, gap_end, dropped;

  if ((p = expect_word (p, end, "before record")) == NULL ||
      (p = parse_uint (skip_spaces (p, end), end, G_MAXUINT32, seq)) == NULL ||
      (p = expect_word (p, end, ", ticks")) == NULL ||
      (p = parse_uint (skip_spaces (p, end), end, G_MAXUINT32, &begin)) == NULL ||
      (p = expect_word (p, end, "to")) == NULL ||
      (p = parse_uint (skip_spaces (p, end), end, G_MAXUINT32, &gap_end)) == NULL ||
      (p = expect_word (p, end, ",")) == NULL ||
      (p = parse_uint (skip_spaces (p, end), end, G_MAXUINT32, &dropped)) == NULL ||
      (p = expect_word (p, end, "switches dropped")) == NULL ||
      skip_spaces (p, end) != end)
    return FALSE;
  gap->begin = (guint32) begin;
  gap->end = (guint32) gap_end;
  gap->dropped = dropped;
  return TRUE;
}

gboolean
tks_parse_lost_line (const char   *line,
                     const char   *end,
                     guint64      *seq,
                     TksParsedGap *gap)
{
  return has_prefix (line, end, "Lost:") && parse_gap (line + strlen ("Lost:"), end, seq, gap);
}

/* A hole line (@p to @end, @text after its key): kept for the log that follows when it reads
 * and lies inside the log (@known: the log's place is known; @base: the sequence number of
 * its first record, 0 in a saved capture where the number is the record's position; @n_records:
 * how many it holds), else warned about. */
static void
gap_line (TksParser  *parser,
          const char *p,
          const char *end,
          const char *text,
          gboolean    known,
          guint64     base,
          guint64     n_records,
          gboolean    wraps)
{
  TksParsedGap gap;
  guint64 seq, index;
  g_autofree char *line = NULL;

  /* (Before the first record and after the last too: the log's ends lie in them.) */
  if (parse_gap (text, end, &seq, &gap) && known && (wraps || seq >= base) &&
      (index = wraps ? (guint32) (seq - base) : seq - base) <= n_records &&
      parser->pending_gaps->len < TKS_MAX_GAPS)
    {
      gap.index = (guint) index;
      g_array_append_val (parser->pending_gaps, gap);
      return;
    }
  line = excerpt (p, end - p);
  add_warning (parser, _("line %u: warning: a hole in the log that cannot be placed is ignored: "
                 "“%s”"), parser->line_no, line);
}

/* A tick rate the input gives (@p to @end: its line): a sane one is taken, any other is
 * warned about and the default stays. */
static void
set_tick_hz (TksParser  *parser,
             double      hz,
             const char *p,
             const char *end)
{
  g_autofree char *text = NULL;

  if (tks_tick_hz_is_sane (hz))
    {
      parser->current->tick_hz = hz;
      return;
    }
  text = excerpt (p, end - p);
  add_warning (parser, _("line %u: warning: the tick rate is not a number of hertz from %g to %g: "
                 "“%s”: %g Hz is used"), parser->line_no, TKS_TICK_HZ_MIN, TKS_TICK_HZ_MAX,
               text, TKS_TICK_HZ_DEFAULT);
}

/* The width of the record tick the input gives (@p to @end: its line): 8 to 32 bits are
 * taken; any other is warned about, and the ticks are read as 20-bit ones. */
static void
set_tick_bits (TksParser  *parser,
               guint64     bits,
               const char *p,
               const char *end)
{
  g_autofree char *text = NULL;

  if (bits >= 8 && bits <= 32)
    {
      parser->tick_bits = (guint) bits;
      return;
    }
  parser->tick_bits = 0;
  text = excerpt (p, end - p);
  add_warning (parser, _("line %u: warning: the width of the ticks is not a number of bits from "
                         "8 to 32: “%s”: 20 bits are used"), parser->line_no, text);
}

/* "Heartbeat: tick T" (a recording's), or "beat before record I[, entry E], tick T" (after
 * "Tickscope " in a saved capture): the tick, and for a saved one the record (and the entry
 * of a log with events) it comes before. */
static gboolean
parse_beat (const char *p,
            const char *end,
            gboolean    saved,
            guint64    *index,
            guint64    *entry,
            guint64    *tick)
{
  if (saved)
    {
      if ((p = expect_word (p, end, "beat before record")) == NULL ||
          (p = parse_uint (skip_spaces (p, end), end, G_MAXUINT32, index)) == NULL ||
          (p = expect_word (p, end, ",")) == NULL)
        return FALSE;
      if (has_prefix (skip_spaces (p, end), end, "entry") &&
          ((p = expect_word (p, end, "entry")) == NULL ||
           (p = parse_uint (skip_spaces (p, end), end, G_MAXUINT32 - 1, entry)) == NULL ||
           (p = expect_word (p, end, ",")) == NULL))
        return FALSE;
    }
  else if ((p = expect_word (p, end, "Heartbeat:")) == NULL)
    return FALSE;
  return (p = expect_word (p, end, "tick")) != NULL &&
         (p = parse_uint (skip_spaces (p, end), end, G_MAXUINT32, tick)) != NULL &&
         skip_spaces (p, end) == end;
}

/* A heartbeat line (@p to @end) of a recording (@saved FALSE: placed after the records read so
 * far) or of a saved capture (kept for the log that follows): kept when it reads, else warned
 * about. */
static void
beat_line (TksParser  *parser,
           const char *p,
           const char *end,
           gboolean    saved)
{
  GArray *beats = saved ? parser->pending_beats : parser->current->beats;
  guint bits = parser->tick_bits != 0 ? parser->tick_bits : 20;
  TksParsedEvents *events = parser->current->events;
  guint64 index = parser->current->records->len, tick;
  guint64 entry = !saved && events != NULL ? events->entries->len : G_MAXUINT;

  if (parse_beat (saved ? p + strlen ("Tickscope ") : p, end, saved, &index, &entry, &tick) &&
      tick < ((guint64) 1 << bits) &&
      index <= MAX_RECORDS && beats->len < TKS_MAX_BEATS)
    {
      TksParsedBeat beat = { (guint) index, (guint) entry, (guint32) tick };

      g_array_append_val (beats, beat);
      return;
    }
  {
    g_autofree char *line = excerpt (p, end - p);

    add_warning (parser, _("line %u: warning: an unreadable heartbeat is ignored: “%s”"),
                 parser->line_no, line);
  }
}

/* "Dump version: N": 1 and 2 are read; a later one is refused, as its lines may mean other
 * things. */
static void
dump_version_line (TksParser  *parser,
                   const char *p,
                   const char *end)
{
  guint64 version = 0;
  g_autofree char *text = NULL;

  g_clear_pointer (&parser->pending_events, tks_parsed_events_free);
  g_clear_pointer (&parser->decoder, tks_compact_decoder_free);
  parser->compact = FALSE;
  if (header_value (p, end, "Dump version:", &version) && version >= 1 && version <= 3)
    {
      /* Version 3 is version 2's (or 1's, without events) in the compact encoding: its
       * header says which. */
      if (version >= 2)
        parser->pending_events = tks_parsed_events_new ((guint) version);
      parser->compact = version == 3;
      return;
    }
  text = excerpt (p, end - p);
  fail (parser, _("Line %u: “%s”: this Tickscope reads dump versions 1 to 3 only: a newer "
          "Tickscope is needed"), parser->line_no, text);
}

/* "Records: N" of a dump's header: a count no board reaches is said, and not checked. */
static void
records_line (TksParser  *parser,
              guint64     n,
              const char *p,
              const char *end)
{
  g_autofree char *text = NULL;

  if (n <= MAX_RECORDS)
    {
      parser->dump_records = (guint) n;
      return;
    }
  parser->dump_records = G_MAXUINT;
  text = excerpt (p, end - p);
  add_warning (parser, _("line %u: warning: the header announces more records than any board "
                         "keeps (%u at most): “%s”: the count of the records is not checked"),
               parser->line_no, MAX_RECORDS, text);
}

/* The header of a threads_dump reply: "Key: value" lines, then "Threads:". */
static void
dump_header_line (TksParser  *parser,
                  const char *p,
                  const char *end)
{
  guint64 v;

  trim (&p, &end);
  if (has_prefix (p, end, "Threads:"))
    {
      begin_list (parser);
      parser->in_dump = TRUE;
      /* A compact dump of a board without events is a dump version 1's. */
      if (parser->compact && parser->pending_events != NULL
          && !tks_parsed_events_has_options (parser->pending_events))
        g_clear_pointer (&parser->pending_events, tks_parsed_events_free);
      tks_parsed_events_free (parser->current->events);
      parser->current->events = g_steal_pointer (&parser->pending_events);
      return;
    }
  if (check_refusal (parser, p, end))
    return;
  if (has_prefix (p, end, "Dump version:"))
    {
      dump_version_line (parser, p, end);
      return;
    }
  if (parser->pending_events != NULL)
    {
      g_autofree char *problem = NULL;

      if (tks_parsed_events_header (parser->pending_events, p, end, &problem))
        {
          if (problem != NULL)
            dump_damaged (parser, problem);
          return;
        }
    }
  if (header_value (p, end, "Tick frequency:", &v))
    set_tick_hz (parser, (double) v, p, end);
  else if (has_prefix (p, end, "Tick bits:"))
    set_tick_bits (parser, header_value (p, end, "Tick bits:", &v) ? v : 0, p, end);
  else if (header_value (p, end, "Records:", &v))
    records_line (parser, v, p, end);
  else if (header_value (p, end, "Log size:", &v))
    parser->current->log_size = (guint) v;
  /* Counted since boot or run mode, not within this log: kept as information. */
  else if (header_value (p, end, "Records written:", &v))
    {
      parser->current->counters.known = TRUE;
      parser->current->counters.records_written = v;
    }
  else if (header_value (p, end, "Dropped while paused:", &v))
    {
      parser->current->counters.known = TRUE;
      parser->current->counters.dropped_paused = v;
    }
  else if (header_value (p, end, "Dropped for history:", &v))
    {
      parser->current->counters.known = TRUE;
      parser->current->counters.dropped_history = v;
    }
  else if (has_prefix (p, end, "Paused:"))
    {
      /* Placed by the header's counts, which come before it. The board counts records in 32
       * bits: its sequence numbers wrap, and so does the difference. */
      TksBoardCounters *c = &parser->current->counters;
      /* (a dump version 2 counts slots: Slots follows Records) */
      guint64 n = parser->pending_events != NULL ? parser->pending_events->info.slots
                                                 : parser->dump_records;
      gboolean known = c->known && parser->dump_records != G_MAXUINT && n > 0;

      gap_line (parser, p, end, p + strlen ("Paused:"), known,
                known ? (guint32) (c->records_written - n) : 0, known ? n : 0, TRUE);
    }
  else if (has_prefix (p, end, "Trigger name:"))
    {
      /* who set the trigger: a shell command, the code, or the condition that was met */
      const char *q = skip_spaces (p + strlen ("Trigger name:"), end);

      g_free (parser->current->trigger_name);
      parser->current->trigger_name = q < end ? g_utf8_make_valid (q, MIN (end - q, 128)) : NULL;
    }
  else if (header_value (p, end, "Unnumbered threads:", &v) && v > 0)
    {
      g_autofree char *text = excerpt (p, end - p);

      add_warning (parser, _("line %u: warning: the board had more threads than it can number: %s"),
                   parser->line_no, text);
    }
}

/* "End of dump: N records, checksum X". */
static void
dump_end_line (TksParser  *parser,
               const char *p,
               const char *end)
{
  GArray *records = parser->current->records;
  TksParsedEvents *events = in_dump_v2 (parser) ? parser->current->events : NULL;
  /* version 2: every entry counts, and every word of it is hashed */
  guint n_read = events != NULL ? events->entries->len : records->len;
  guint32 hash = events != NULL ? events->hash : log_hash (parser);
  guint64 count;
  g_autofree char *tail = NULL;
  guint64 checksum;
  char *endptr = NULL;
  const char *q;

  parser->dump_ended = TRUE;

  q = parse_uint (skip_spaces (p + strlen ("End of dump:"), end), end, G_MAXUINT32, &count);
  if (q == NULL || (q = expect_word (q, end, "records, checksum")) == NULL)
    {
      dump_damaged (parser, _("unreadable end of the threads_dump reply"));
      return;
    }
  tail = g_strndup (skip_spaces (q, end), end - skip_spaces (q, end));
  checksum = g_ascii_strtoull (tail, &endptr, 16);
  if (count != n_read || (parser->dump_records != G_MAXUINT && count != parser->dump_records))
    {
      g_autofree char *sent = g_strdup_printf ("%" G_GUINT64_FORMAT, count);
      g_autofree char *message =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "the board sent %s record, %u arrived: the transfer lost "
                                      "lines",
                                      "the board sent %s records, %u arrived: the transfer lost "
                                      "lines", (gulong) count),
                         sent, n_read);

      dump_damaged (parser, message);
    }
  else if (!g_ascii_isxdigit (*tail) || *endptr != '\0' || endptr - tail > 8 || checksum != hash)
    dump_damaged (parser, _("the records do not match the board's checksum: the transfer "
                    "damaged some of them"));
}

/* A thread line that cannot be read (@text: what it holds). A live thread keeps its place:
 * every later thread's number depends on it. */
static void
unreadable_list_line (TksParser  *parser,
                      const char *text)
{
  TksParsed *cur = parser->current;
  TksListEntry *entry;

  parser->list_garbled++;
  if (parser->section != SECTION_LIST)
    {
      add_warning (parser, _("line %u: warning: unreadable deleted-thread line skipped: %s"),
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
  add_warning (parser, _("line %u: warning: unreadable thread line kept as “%s”: %s"),
               parser->line_no, entry->name, text);
}

/* The input cannot be a capture: reading stops, and finishing gives this error. */
static void
fail (TksParser  *parser,
      const char *format,
      ...)
{
  va_list args;

  if (parser->fatal != NULL)
    return;
  va_start (args, format);
  parser->fatal = g_strdup_vprintf (format, args);
  va_end (args);
}

/* @n bytes that are no readable line of a capture. */
static void
add_junk (TksParser *parser,
          guint64    n)
{
  parser->junk += n;
  if (parser->junk > MAX_JUNK && (parser->have_log || parser->current->records->len > 0))
    {
      /* Records were read: what follows them is left out, said once. */
      parser->rest_ignored = TRUE;
      add_warning (parser, _("line %u: warning: more than %u MiB follow without a readable line "
                             "of a capture: the rest of the input is ignored"),
                   parser->line_no + (parser->overlong > 0), (guint) (MAX_JUNK >> 20));
    }
  else if (parser->junk > MAX_JUNK)
    fail (parser, _("Line %u: more than %u MiB without a readable line of a capture: this is "
                    "not a capture, or the rest of it is damaged"),
          parser->line_no + (parser->overlong > 0), (guint) (MAX_JUNK >> 20));
}

/* A line longer than any line of a capture (@head: its first bytes, @len: its length). */
static void
overlong_line (TksParser  *parser,
               const char *head,
               gsize       head_len,
               guint64     len)
{
  g_autofree char *start = excerpt (head, head_len);
  g_autofree char *bytes = g_strdup_printf ("%" G_GUINT64_FORMAT, len);
  g_autofree char *text = g_strdup_printf (_("a line of %s bytes, longer than any line of a "
                                             "capture, starting “%s”"), bytes, start);

  parser->line_no++;
  if (parser->section == SECTION_LIST || parser->section == SECTION_DELETED)
    unreadable_list_line (parser, text);
  else if (parser->section == SECTION_LOG)
    {
      g_array_append_val (parser->current->log_other_lines, parser->line_no);
      parser->log_garbled++;
      add_warning (parser, _("line %u: warning: unreadable log line skipped: %s"),
                   parser->line_no, text);
    }
  else
    add_warning (parser, _("line %u: warning: %s: skipped"), parser->line_no, text);
}

static void content_line (TksParser  *parser,
                          const char *p,
                          const char *end);

/* The log of a dump begins; in a compact dump, its lines are decoded from here on. */
static void
begin_compact_log (TksParser *parser)
{
  TksParsed *cur = parser->current;
  guint64 counter_hz = cur->events != NULL ? tks_parsed_events_counter_hz (cur->events) : 0;

  begin_log (parser);
  g_clear_pointer (&parser->decoder, tks_compact_decoder_free);
  if (parser->compact)
    {
      parser->decoder = tks_compact_decoder_new (cur->tick_hz > 0 ? (guint64) cur->tick_hz : 1000,
                                                 counter_hz);
      tks_compact_decoder_set_coder (parser->decoder,
                                     tks_parsed_events_counter_coder (cur->events));
      if (cur->tick_bits >= 8 && cur->tick_bits < 20)
        tks_compact_decoder_set_tick_bits (parser->decoder, cur->tick_bits);
    }
}

/* A switch of a compact log without events, as the record its line would read. */
static inline TksRecord
record_of_entry (const TksEntry *e)
{
  TksRecord record;

  record.tick = e->record >> 12;
  record.out = (guint8) ((e->record >> 6) & 0x3F);
  record.in = (guint8) (e->record & 0x3F);
  record.flags = 0;
  return record;
}

/* A compact line (at line @line_no) took the log's records from @first to @n: they are on
 * it; one that gave none is a line of the log that is not a record. */
static void
compact_line_mark (TksParsed *cur,
                   guint      first,
                   guint      n,
                   guint      line_no)
{
  GArray *marks = cur->compact_marks;
  TksCompactLineMark mark = { first, n - first, 0 };

  if (n <= first)
    {
      g_array_append_val (cur->log_other_lines, line_no);
      return;
    }
  if (marks->len > 0)
    {
      const TksCompactLineMark *m = &g_array_index (marks, TksCompactLineMark, marks->len - 1);

      mark.extra = m->extra + m->count - 1;
    }
  g_array_append_val (marks, mark);
}

/* Takes a decoded compact line (read at line @line_no) in the order of the log: warns of what
 * is lost; TRUE when its entries belong to the log. */
static gboolean
compact_line_take (TksParser            *parser,
                   const TksCompactLine *line,
                   guint                 line_no)
{
  g_autoptr(GError) error = NULL;
  gboolean keep = tks_compact_decoder_take (parser->decoder, line, &error);

  if (error != NULL)
    add_warning (parser, _("line %u: warning: %s"), line_no, error->message);
  return keep;
}

/* A recording longer than a capture holds (hours of a busy board): its first records are read,
 * the rest of its log is passed over (the file keeps it), said once. TRUE when a line that
 * brings the records read (entries with events) from @n to @n_after is one too many. */
static gboolean
recording_full (TksParser *parser,
                guint64    n,
                guint64    n_after)
{
  if (!parser->recording || parser->section != SECTION_LOG)
    return FALSE;
  if (!parser->rec_full && n_after <= parser->rec_max)
    return FALSE;
  if (!parser->rec_full)
    {
      g_autofree char *kept = g_strdup_printf ("%" G_GUINT64_FORMAT, n);

      add_warning (parser, _("line %u: warning: the recording holds more than %u records, more "
                             "than a capture can: only its first %s are shown (the file keeps "
                             "them all)"), parser->line_no, parser->rec_max, kept);
    }
  parser->rec_full = TRUE;
  return TRUE;
}

/* The records (entries with events) of the log read so far. */
static guint
log_count (TksParser *parser)
{
  return in_dump_v2 (parser) ? parser->current->events->entries->len
                             : parser->current->records->len;
}

/* A line of a compact log: its entries are read as the lines of dump version 2 (or 1) that
 * the board would have printed, so that they go through the same checks and checksum. */
static void
compact_line (TksParser  *parser,
              const char *p,
              const char *end)
{
  TksEntry entries[TKS_COMPACT_MAX_ENTRIES];
  TksCompactLine line;
  TksParsed *cur = parser->current;
  guint first = cur->records->len, n_other = cur->log_other_lines->len;

  tks_compact_line_decode (parser->decoder, p, end - p, &line, entries);
  /* (in the order of the batches' reading: the line that is one too many says nothing more) */
  if (line.status == TKS_COMPACT_LINE_OK &&
      recording_full (parser, log_count (parser), (guint64) log_count (parser) + line.n_entries))
    return;
  if (!compact_line_take (parser, &line, parser->line_no))
    {
      if (parser->section == SECTION_LOG)
        compact_line_mark (cur, first, first, parser->line_no);
      return;
    }
  for (guint i = 0; i < line.n_entries; i++)
    {
      const TksEntry *e = &entries[i];
      g_autofree char *text = NULL;

      /* Switches only (dump version 1): the record as its line would read, without the line. */
      if (!in_dump_v2 (parser) && parser->section == SECTION_LOG)
        {
          TksRecord record = record_of_entry (e);

          g_array_append_val (parser->current->records, record);
          continue;
        }
      text = tks_entry_format (e, tks_parsed_events_counter_hz (parser->current->events) > 0);
      content_line (parser, text, text + strlen (text));
    }
  /* (The entries were read as lines of their own: they are on this one.) */
  if (parser->section == SECTION_LOG && parser->current == cur)
    {
      g_array_set_size (cur->log_other_lines, MIN (n_other, cur->log_other_lines->len));
      compact_line_mark (cur, first, cur->records->len, parser->line_no);
    }
}

/* A recording gives the numbers of threads that exit back (see WIRE-FORMAT.md): each exit
 * record read since the last call moves its thread from the live list to the deleted one, in
 * exit order, and the threads after it are one lower, as the board renumbered them. At the end
 * the lists are those a threads_dump would have printed then: the rebuild reads them alike. */
static void
recording_renumber (TksParser *parser)
{
  TksParsed *cur = parser->current;
  const TksRecord *r = (const TksRecord *) (gconstpointer) cur->records->data;

  if (parser->rec_renumbered > cur->records->len)
    parser->rec_renumbered = 0;
  for (; parser->rec_renumbered < cur->records->len; parser->rec_renumbered++)
    {
      const TksRecord *rec = &r[parser->rec_renumbered];
      TksListEntry *entry;

      /* (An exit of a number the list lacks is the rebuild's to warn of.) */
      if (rec->out != rec->in || rec->out == 0 || rec->out > cur->live->len)
        continue;
      entry = g_ptr_array_steal_index (cur->live, rec->out - 1u);
      entry->number = rec->out;
      g_ptr_array_add (cur->deleted, entry);
      for (guint i = rec->out - 1u; i < cur->live->len; i++)
        ((TksListEntry *) g_ptr_array_index (cur->live, i))->number = (int) i + 1;
    }
}

/* A recording's hole (@gap), kept unless a capture holds TKS_MAX_GAPS already: then it joins
 * the last one kept when no record lies between them (the board's "Lost:" lines that follow
 * each other while the link stays slow), else it is counted, and the capture is damaged (runs
 * across the holes not kept are drawn too long). */
static void
keep_hole (TksParser    *parser,
           TksParsedGap *gap)
{
  GArray *gaps = parser->current->gaps;
  TksParsedGap *last = gaps->len > 0 ? &g_array_index (gaps, TksParsedGap, gaps->len - 1) : NULL;

  if (gaps->len < TKS_MAX_GAPS)
    {
      g_array_append_val (gaps, *gap);
      return;
    }
  if (last != NULL && last->index == gap->index && last->begin == gap->begin)
    {
      last->end = gap->end;
      last->dropped += gap->dropped;
      return;
    }
  if (parser->holes_not_kept++ == 0)
    {
      g_autofree char *message =
        g_strdup_printf (_("the recording has more than %u holes, more than a capture keeps: "
                           "those after this line are not shown, and runs across them are "
                           "drawn too long"), TKS_MAX_GAPS);

      dump_damaged (parser, message);
    }
}

/* The lines a recording's log carries between its compact lines (see WIRE-FORMAT.md): a
 * thread created or a name registered meanwhile (a thread takes the next number once the
 * exits before it renumbered), and "Lost: before record S, ticks B to E, N switches dropped",
 * a hole where the board could not send what it recorded (S counts the slots streamed before
 * it). */
static gboolean
recording_line (TksParser  *parser,
                const char *p,
                const char *end)
{
  TksParsed *cur = parser->current;

  if (has_prefix (p, end, "Thread number"))
    {
      TksListEntry *entry = parse_list_entry (p, end);

      if (entry == NULL)
        return FALSE;
      entry->line = parser->line_no;
      recording_renumber (parser);
      if (entry->number != (int) cur->live->len + 1)
        add_warning (parser, _("line %u: warning: thread “%s” comes as number %d, but %u "
                               "threads have a number at that point (lines were lost?)"),
                     parser->line_no, entry->name, entry->number, cur->live->len);
      g_ptr_array_add (cur->live, entry);
      return TRUE;
    }
  if (has_prefix (p, end, "Name ") && cur->events != NULL)
    {
      g_autofree char *problem = NULL;

      if (!tks_parsed_events_name (cur->events, p, end, &problem))
        return FALSE;
      if (problem != NULL)
        add_warning (parser, _("line %u: warning: %s"), parser->line_no, problem);
      return TRUE;
    }
  if (has_prefix (p, end, "Counted handler:") && cur->events != NULL)
    {
      g_autofree char *problem = NULL;

      /* A recording's running count of the handlers the board does not log. */
      if (!tks_parsed_events_header (cur->events, p, end, &problem) || problem != NULL)
        add_warning (parser, _("line %u: warning: %s"), parser->line_no,
                     problem != NULL ? problem : "unreadable counted handler");
      return TRUE;
    }
  if (has_prefix (p, end, "Heartbeat:"))
    {
      beat_line (parser, p, end, FALSE);
      return TRUE;
    }
  if (has_prefix (p, end, "Lost:"))
    {
      TksParsedGap gap;
      guint64 seq, here;

      if (!tks_parse_lost_line (p, end, &seq, &gap))
        return FALSE;
      if (parser->decoder != NULL)
        tks_compact_decoder_lost (parser->decoder);
      /* Placed where it arrived: after the entries read so far (by slots with events, which
       * the end of the reading turns into records). */
      if (cur->events != NULL)
        {
          const TksParsedEntry *e = (const TksParsedEntry *) (gconstpointer) cur->events->entries->data;

          for (; parser->rec_entries < cur->events->entries->len; parser->rec_entries++)
            parser->rec_slots += e[parser->rec_entries].slots;
          here = parser->rec_slots;
        }
      else
        here = cur->records->len;
      if (seq != here)
        {
          g_autofree char *sent = g_strdup_printf ("%" G_GUINT64_FORMAT, seq);
          g_autofree char *arrived = g_strdup_printf ("%" G_GUINT64_FORMAT, (guint64) here);

          add_warning (parser, _("line %u: warning: the board lost records before record %s, "
                                 "which arrived as record %s: lines were lost too"),
                       parser->line_no, sent, arrived);
        }
      gap.index = (guint) here;
      keep_hole (parser, &gap);
      return TRUE;
    }
  return FALSE;
}

/* The end line of a dump or a recording (@p to @end, a line of its log) is judged when the
 * log ends: the end is the last one. An end line that more of the log follows was noise on
 * the link (a recording's stream goes on after it): named, and passed over. TRUE when the line
 * is an end line. */
static gboolean
end_of_log_line (TksParser  *parser,
                 const char *p,
                 const char *end)
{
  const char *q = p, *q_end = end;
  gboolean is_end;

  trim (&q, &q_end);
  is_end = (parser->in_dump || parser->rec_full) && has_prefix (q, q_end, "End of dump:");
  if (parser->end_line != NULL && (is_end || q != q_end))
    {
      g_autofree char *text = excerpt (parser->end_line, strlen (parser->end_line));

      parser->log_garbled++;
      add_warning (parser, _("line %u: warning: an end line in the middle of the log is "
                             "ignored (more of the log follows it: noise on the link?): “%s”"),
                   parser->end_line_no, text);
      g_clear_pointer (&parser->end_line, g_free);
    }
  if (!is_end)
    return FALSE;
  parser->end_line = g_strndup (q, q_end - q);
  parser->end_line_no = parser->line_no;
  return TRUE;
}

/* The log ends: its last end line is read (see end_of_log_line()). */
static void
judge_end_line (TksParser *parser)
{
  g_autofree char *line = g_steal_pointer (&parser->end_line);
  guint line_no = parser->line_no;

  if (line == NULL)
    return;
  /* (the rest of a recording too long: its end line says nothing of what was read) */
  if (parser->rec_full)
    {
      parser->dump_ended = TRUE;
      return;
    }
  parser->line_no = parser->end_line_no;
  dump_end_line (parser, line, line + strlen (line));
  parser->line_no = line_no;
}

static void
content_line (TksParser  *parser,
              const char *p,
              const char *end)
{
  TksParsed *cur = parser->current;

  switch (parser->section)
    {
    case SECTION_LOG:
      {
        TksRecord record;

        if (end_of_log_line (parser, p, end) || parser->rec_full)
          return;
        if (parser->decoder != NULL && end > p && *p == 'Z')
          {
            compact_line (parser, p, end);
            return;
          }
        if (in_dump_v2 (parser))
          {
            TksLogLine entry = tks_parsed_events_log_line (cur->events, cur->records, p, end);

            if (entry == TKS_LOG_LINE_SWITCH)
              return;
            if (entry == TKS_LOG_LINE_EVENT)
              {
                g_array_append_val (cur->log_other_lines, parser->line_no);
                return;
              }
          }
        else if (G_LIKELY (parse_record (p, end, &record)))
          {
            g_array_append_val (cur->records, record);
            return;
          }

        g_array_append_val (cur->log_other_lines, parser->line_no);
        trim (&p, &end);
        if (p == end)
          return;
        if (parser->recording && parser->decoder != NULL && recording_line (parser, p, end))
          return;
        if (has_prefix (p, end, "Triggered at"))
          {
            guint64 tick;
            const char *q = parse_uint (skip_spaces (p + strlen ("Triggered at"), end), end,
                                        G_MAXUINT32, &tick);

            if (q != NULL && skip_spaces (q, end) == end)
              {
                cur->has_trigger = TRUE;
                cur->trigger_tick = (guint32) tick;
                return;
              }
          }
        if (check_refusal (parser, p, end))
          return;
        {
          g_autofree char *text = excerpt (p, end - p);

          parser->log_garbled++;
          add_warning (parser, _("line %u: warning: unreadable log line skipped: “%s”"),
                       parser->line_no, text);
        }
      }
      break;

    case SECTION_LIST:
    case SECTION_DELETED:
      {
        TksListEntry *entry;

        trim (&p, &end);
        if (p == end)
          return;
        if (has_prefix (p, end, "Deleted threads:"))
          {
            parser->section = SECTION_DELETED;
            return;
          }
        if (parser->in_dump && has_prefix (p, end, parser->compact ? "Compact:" : "Timestamps:"))
          {
            begin_compact_log (parser);
            return;
          }
        if (in_dump_v2 (parser) && has_prefix (p, end, "Names:"))
          {
            parser->section = SECTION_NAMES;
            return;
          }
        if (check_refusal (parser, p, end))
          return;

        entry = parse_list_entry (p, end);
        if (entry != NULL)
          {
            entry->line = parser->line_no;
            g_ptr_array_add (parser->section == SECTION_LIST ? cur->live : cur->deleted, entry);
            return;
          }

        {
          g_autofree char *text = excerpt (p, end - p);
          g_autofree char *quoted = g_strdup_printf ("“%s”", text);

          unreadable_list_line (parser, quoted);
        }
      }
      break;

    case SECTION_POSITION:
      trim (&p, &end);
      if (p == end)
        return;
      if (parser->n_positions < 4)
        {
          g_autofree char *text = g_strndup (p, end - p);
          char *endptr = NULL;
          double v = g_ascii_strtod (text, &endptr);

          if (endptr != NULL && *endptr == '\0' && isfinite (v))
            {
              double *slot[] = { &cur->saved_view.x0, &cur->saved_view.x1,
                                 &cur->saved_view.y0, &cur->saved_view.y1 };

              *slot[parser->n_positions++] = v;
              cur->has_saved_view = parser->n_positions == 4;
              return;
            }
          parser->n_positions = 4;
          add_warning (parser, _("line %u: warning: the saved position is unreadable; "
                         "the whole capture is shown"), parser->line_no);
          return;
        }
      if (has_prefix (p, end, "Tickscope event"))
        {
          g_autofree char *problem = NULL;

          if (tks_parsed_events_saved_line (&parser->saved_events, parser->saved_switches, p, end,
                                            &problem))
            {
              if (problem != NULL)
                add_warning (parser, _("line %u: warning: %s"), parser->line_no, problem);
              if (parser->saved_switches->len > MAX_RECORDS)
                fail (parser, _("Line %u: the saved events hold more than %u switches, more than "
                      "any board keeps"), parser->line_no, MAX_RECORDS);
              return;
            }
        }
      if (has_prefix (p, end, "Tickscope gap "))
        gap_line (parser, p, end, p + strlen ("Tickscope gap "), TRUE, 0, MAX_RECORDS, FALSE);
      else if (has_prefix (p, end, "Tickscope beat "))
        beat_line (parser, p, end, TRUE);
      else if (has_prefix (p, end, "Tickscope "))
        {
          g_autofree char *text = g_strndup (p + strlen ("Tickscope "), end - p - strlen ("Tickscope "));
          char *value = strchr (text, ' ');

          if (value == NULL)
            return;
          *value++ = '\0';
          if (g_str_equal (text, "tick-bits"))
            {
              guint64 bits = 0;
              const char *v_end = value + strlen (value);

              if (parse_uint (value, v_end, 64, &bits) != v_end)
                bits = 0;
              set_tick_bits (parser, bits, p, end);
            }
          else if (g_str_equal (text, "tick-hz"))
            {
              char *endptr = NULL;
              double hz = g_ascii_strtod (value, &endptr);

              if (endptr == value || *endptr != '\0')
                hz = NAN;
              set_tick_hz (parser, hz, p, end);
            }
          else if (g_str_equal (text, "source"))
            {
              g_free (cur->source);
              cur->source = g_utf8_make_valid (value, -1);
            }
          else if (g_str_equal (text, "trigger-name"))
            {
              g_free (cur->trigger_name);
              cur->trigger_name = g_utf8_make_valid (value, -1);
            }
          else if (g_str_equal (text, "damage"))
            {
              g_autofree char *damage = g_utf8_make_valid (value, -1);
              char *shown = g_strdup_printf (_("line %u: warning: in the input this capture "
                                               "was made from: %s"), parser->line_no, damage);

              keep_warning (parser, shown, strlen (shown) - strlen (damage));
            }
        }
      break;

    case SECTION_DUMP_HEADER:
      dump_header_line (parser, p, end);
      break;

    case SECTION_NAMES:
      {
        g_autofree char *problem = NULL;

        trim (&p, &end);
        if (p == end)
          return;
        if (has_prefix (p, end, parser->compact ? "Compact:" : "Timestamps:"))
          begin_compact_log (parser);
        else if (check_refusal (parser, p, end))
          return;
        else if (!tks_parsed_events_name (cur->events, p, end, &problem))
          {
            g_autofree char *text = excerpt (p, end - p);

            parser->list_garbled++;
            dump_damaged (parser, _("unreadable name line skipped"));
            add_warning (parser, _("line %u: warning: unreadable name line skipped: “%s”"),
                         parser->line_no, text);
          }
        else if (problem != NULL)
          add_warning (parser, _("line %u: warning: %s"), parser->line_no, problem);
      }
      break;

    case SECTION_TRIGGER_REPLY:
      trim (&p, &end);
      if (has_prefix (p, end, "Trigger set by "))
        {
          const char *at = g_strrstr_len (p, end - p, " at ");

          if (at != NULL && at > p + strlen ("Trigger set by "))
            {
              g_free (cur->trigger_name);
              cur->trigger_name = g_utf8_make_valid (p + strlen ("Trigger set by "),
                                                     at - (p + strlen ("Trigger set by ")));
            }
        }
      break;

    case SECTION_NONE:
    case SECTION_OTHER:
    default:
      break;
    }
}

static void
end_section (TksParser *parser)
{
  if (parser->section == SECTION_LOG)
    judge_end_line (parser);
  g_clear_pointer (&parser->end_line, g_free);
  if (parser->holes_not_kept > 0)
    {
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, parser->holes_not_kept);

      add_warning (parser, _("line %u: warning: %s holes of the recording are not shown (beyond "
                             "the %u a capture keeps)"), parser->line_no, n, TKS_MAX_GAPS);
      parser->holes_not_kept = 0;
    }
  if (parser->recording && parser->in_dump && parser->section == SECTION_LOG)
    recording_renumber (parser);
  if (parser->in_dump && parser->section == SECTION_LOG && !parser->dump_ended)
    dump_damaged (parser, _("the threads_dump reply ends before its last line: the transfer was cut"));
  if (parser->section != SECTION_DUMP_HEADER)
    parser->in_dump = FALSE;
  parser->section = SECTION_NONE;
}

/* The prompt, or a bare "ch>" ending the line (an editor may strip the space). */
static const char *
find_prompt (const char *p,
             const char *end)
{
  const char *prompt = NULL;

  for (const char *c = p; c + PROMPT_LEN <= end; c++)
    {
      c = memchr (c, 'c', end - c);
      if (c == NULL || c + PROMPT_LEN > end)
        break;
      if (memcmp (c, PROMPT, PROMPT_LEN) == 0)
        {
          prompt = c;
          break;
        }
    }

  if (prompt == NULL && end - p >= 3 && memcmp (end - 3, "ch>", 3) == 0)
    prompt = end - 3;
  return prompt;
}

static void
process_line_content (TksParser  *parser,
                      const char *p,
                      const char *end)
{
  const char *prompt;
  const char *tp, *tend;
  gboolean saw_prompt = FALSE;

  parser->line_no++;

  while (end > p && end[-1] == '\r')
    end--;

  /* The prompt ends a reply; what follows it on the line is the echo of the next command. */
  while ((prompt = find_prompt (p, end)) != NULL)
    {
      if (prompt > p)
        content_line (parser, p, prompt);
      end_section (parser);
      p = MIN (prompt + PROMPT_LEN, end);
      saw_prompt = TRUE;
    }

  if (p == end)
    {
      /* (an empty line of a log is one of its lines all the same) */
      if (!saw_prompt && parser->section == SECTION_LOG)
        g_array_append_val (parser->current->log_other_lines, parser->line_no);
      return;
    }

  tp = p;
  tend = end;
  trim (&tp, &tend);
  if (saw_prompt)
    {
      if (tp < tend)
        begin_command (parser, tp, tend);
      return;
    }

  /* Capture files hold the commands without a prompt. */
  if ((parser->section != SECTION_LOG || *tp == 't') && is_known_command (tp, tend))
    {
      begin_command (parser, tp, tend);
      return;
    }

  content_line (parser, p, end);
}

/* Stops reading a log or a list longer than any board keeps. */
static void
check_size (TksParser *parser)
{
  TksParsed *cur = parser->current;

  if (cur->records->len > MAX_RECORDS)
    fail (parser, _("Line %u: the log holds more than %u records, more than any board keeps"),
          parser->line_no, MAX_RECORDS);
  else if (cur->log_other_lines->len > MAX_RECORDS)
    /* blank lines and repeated trigger lines are not junk, but a log does not hold more of
     * them than records */
    fail (parser, _("Line %u: the log holds more than %u lines that are not records, more than "
            "any board prints"), parser->line_no, MAX_RECORDS);
  else if (cur->events != NULL && cur->events->entries->len > MAX_RECORDS)
    fail (parser, _("Line %u: the log holds more than %u entries, more than any board keeps"),
          parser->line_no, MAX_RECORDS);
  else if (cur->live->len + cur->deleted->len > MAX_LIST_ENTRIES)
    fail (parser, _("Line %u: the thread list holds more than %u threads, more than any board "
            "keeps"), parser->line_no, MAX_LIST_ENTRIES);
}

static void
process_line (TksParser  *parser,
              const char *p,
              const char *end)
{
  guint garbled = parser->list_garbled + parser->log_garbled;

  if ((gsize) (end - p) > MAX_LINE)
    {
      overlong_line (parser, p, MIN ((gsize) (end - p), 64), (guint64) (end - p));
      add_junk (parser, (guint64) (end - p) + 1);
      return;
    }

  process_line_content (parser, p, end);
  if (parser->section == SECTION_NONE || parser->section == SECTION_OTHER ||
      parser->list_garbled + parser->log_garbled != garbled)
    add_junk (parser, (guint64) (end - p) + 1);
  else
    parser->junk = 0;
  check_size (parser);
}

/* A compact line of a batch: where it is in the input being fed, and what decoding it gave. */
typedef struct
{
  const char    *text;      /* the line without its end */
  const char    *nl;        /* its LF */
  guint          len;
  guint          line_no;
  guint          first;     /* where its records go, from the batch's first */
  guint          room;      /* how many its key frame announces */
  gboolean       has_prompt; /* not a compact line, and a prompt in it (read line by line) */
  TksCompactLine result;
} BatchLine;

typedef struct _CompactBatch
{
  BatchLine               *lines;
  guint                    n_lines;
  guint                    n_chunks;
  guint                    chunk_lines;
  gint                     next_chunk;  /* the next chunk a thread takes (atomic) */
  TksCompactDecoder       *decoder;     /* coder 1 (switches only): only read */
  TksRecord               *records;     /* the batch's records, at the log's end */
  /* The checksum of the records before the batch that it does not have yet, worked out by
   * one of the threads meanwhile (the checksum goes record by record: one thread only). */
  const TksRecord         *hash_records;
  guint                    hash_n;
  guint32                  hash;
  gint                     hash_taken;  /* atomic */
  GMutex                   lock;
  GCond                    done;
  guint                    helpers;     /* other threads not done yet */
} CompactBatch;

static void
compact_batch_free (CompactBatch *batch)
{
  if (batch == NULL)
    return;
  g_mutex_clear (&batch->lock);
  g_cond_clear (&batch->done);
  g_free (batch->lines);
  g_free (batch);
}

/* Decodes the chunks of the batch no thread has taken yet. Each line's records go to its own
 * place: nothing here is shared but the chunk counter. */
static void
compact_batch_decode (CompactBatch *batch)
{
  guint c;

  if (batch->hash_n > 0 && g_atomic_int_compare_and_exchange (&batch->hash_taken, 0, 1))
    batch->hash = log_hash_records (batch->hash, batch->hash_records, batch->hash_n);
  while ((c = (guint) g_atomic_int_add (&batch->next_chunk, 1)) < batch->n_chunks)
    {
      guint last = MIN ((c + 1) * batch->chunk_lines, batch->n_lines);

      for (guint l = c * batch->chunk_lines; l < last; l++)
        {
          BatchLine *bl = &batch->lines[l];
          TksEntry entries[TKS_COMPACT_MAX_ENTRIES];
          TksRecord *records = batch->records + bl->first;

          tks_compact_line_decode (batch->decoder, bl->text, bl->len, &bl->result, entries);
          if (bl->result.status != TKS_COMPACT_LINE_OK)
            {
              bl->has_prompt = find_prompt (bl->text, bl->text + bl->len) != NULL;
              continue;
            }
          /* (A line that decodes holds what its key frame announces.) */
          g_assert (bl->result.n_entries <= bl->room);
          for (guint i = 0; i < bl->result.n_entries; i++)
            records[i] = record_of_entry (&entries[i]);
        }
    }
}

static void
compact_batch_help (gpointer data,
                    gpointer user_data)
{
  CompactBatch *batch = data;

  compact_batch_decode (batch);
  g_mutex_lock (&batch->lock);
  if (--batch->helpers == 0)
    g_cond_signal (&batch->done);
  g_mutex_unlock (&batch->lock);
}

/* Decodes the batch's lines, with the other threads when it is worth it. */
static void
compact_batch_run (TksParser    *parser,
                   CompactBatch *batch)
{
  guint helpers = MIN (parser->n_threads, batch->n_chunks) - 1;

  g_atomic_int_set (&batch->next_chunk, 0);
  batch->helpers = 0;
  if (helpers > 0 && parser->pool == NULL)
    parser->pool = g_thread_pool_new (compact_batch_help, NULL, (gint) parser->n_threads - 1,
                                      FALSE, NULL);
  g_mutex_lock (&batch->lock);
  for (guint h = 0; h < helpers && parser->pool != NULL; h++)
    /* (A thread that cannot be made leaves its share to the others.) */
    batch->helpers += g_thread_pool_push (parser->pool, batch, NULL);
  g_mutex_unlock (&batch->lock);

  compact_batch_decode (batch);

  g_mutex_lock (&batch->lock);
  while (batch->helpers > 0)
    g_cond_wait (&batch->done, &batch->lock);
  g_mutex_unlock (&batch->lock);
}

/* Takes the decoded lines in order, as compact_line() would one by one: their warnings, their
 * records moved up over those of the lines lost before them. Returns where reading goes on:
 * after the batch, or after a line with a prompt, which is read as any line. */
static const char *
compact_batch_take (TksParser    *parser,
                    CompactBatch *batch,
                    guint         base)
{
  GArray *records = parser->current->records;
  TksRecord *data = (TksRecord *) (gpointer) records->data;
  guint n = base;

  for (guint l = 0; l < batch->n_lines; l++)
    {
      const BatchLine *bl = &batch->lines[l];

      if (bl->has_prompt)
        {
          g_array_set_size (records, n);
          parser->line_no = bl->line_no - 1;
          process_line (parser, bl->text, bl->nl);
          return bl->nl + 1;
        }
      parser->line_no = bl->line_no;
      if (bl->result.status == TKS_COMPACT_LINE_OK &&
          recording_full (parser, n, (guint64) n + bl->result.n_entries))
        {
          g_array_set_size (records, n);
          return bl->nl + 1;
        }
      if (compact_line_take (parser, &bl->result, bl->line_no))
        {
          if (n != base + bl->first)
            memmove (data + n, data + base + bl->first, bl->result.n_entries * sizeof *data);
          compact_line_mark (parser->current, n, n + bl->result.n_entries, bl->line_no);
          n += bl->result.n_entries;
        }
      else
        compact_line_mark (parser->current, n, n, bl->line_no);
      parser->junk = 0;
      if (n > MAX_RECORDS)
        {
          g_array_set_size (records, n);
          check_size (parser);
          return bl->nl + 1;
        }
    }
  g_array_set_size (records, n);
  return batch->lines[batch->n_lines - 1].nl + 1;
}

/* Reads the compact lines from @p on by batches, and returns where the first other line (or
 * an unfinished one) starts. */
static const char *
feed_compact (TksParser  *parser,
              const char *p,
              const char *end)
{
  CompactBatch *batch = parser->batch;

  if (batch == NULL)
    {
      batch = parser->batch = g_new0 (CompactBatch, 1);
      batch->lines = g_new (BatchLine, parser->batch_lines);
      g_mutex_init (&batch->lock);
      g_cond_init (&batch->done);
    }

  while (p < end && parser->fatal == NULL && parser->section == SECTION_LOG &&
         parser->decoder != NULL && !in_dump_v2 (parser) && !parser->rec_full)
    {
      GArray *records = parser->current->records;
      guint base = records->len;
      guint n_room = 0;

      /* The lines: a Z, then at most MAX_LINE bytes to its LF (CRs before it dropped). */
      batch->n_lines = 0;
      while (batch->n_lines < parser->batch_lines && p < end && *p == 'Z')
        {
          const char *nl = memchr (p, '\n', MIN ((gsize) (end - p), MAX_LINE + 1));
          const char *lend = nl;
          BatchLine *bl;

          if (nl == NULL || nl - p > MAX_LINE)
            break;
          while (lend > p && lend[-1] == '\r')
            lend--;
          bl = &batch->lines[batch->n_lines];
          bl->text = p;
          bl->nl = nl;
          bl->len = (guint) (lend - p);
          bl->line_no = parser->line_no + ++batch->n_lines;
          bl->first = n_room;
          bl->room = tks_compact_line_room (p, lend - p);
          bl->has_prompt = FALSE;
          n_room += bl->room;
          p = nl + 1;
        }
      if (batch->n_lines == 0)
        break;

      /* Room for every record the lines announce; those of lines lost are taken back. */
      g_array_set_size (records, base + n_room);
      batch->records = (TksRecord *) (gpointer) records->data + base;
      batch->decoder = parser->decoder;
      batch->chunk_lines = MAX (parser->chunk_lines, 1);
      batch->n_chunks = (batch->n_lines + batch->chunk_lines - 1) / batch->chunk_lines;
      batch->hash_n = parser->in_dump && base > parser->log_hashed ? base - parser->log_hashed : 0;
      batch->hash_records = (TksRecord *) (gpointer) records->data + parser->log_hashed;
      batch->hash = parser->log_hash;
      g_atomic_int_set (&batch->hash_taken, 0);
      compact_batch_run (parser, batch);
      if (batch->hash_n > 0)
        {
          parser->log_hash = batch->hash;
          parser->log_hashed = base;
        }
      p = compact_batch_take (parser, batch, base);
    }
  return p;
}

/* The rest of an unfinished line: kept while it may be a line of a capture; past MAX_LINE
 * only counted, its start kept for the warning. */
static void
add_partial (TksParser  *parser,
             const char *p,
             gsize       len)
{
  if (parser->overlong == 0 && parser->partial->len + len <= MAX_LINE)
    {
      g_string_append_len (parser->partial, p, len);
      return;
    }
  if (parser->overlong == 0)
    {
      parser->overlong = parser->partial->len;
      if (parser->partial->len < 64)
        g_string_append_len (parser->partial, p, MIN (len, 64 - parser->partial->len));
      else
        g_string_truncate (parser->partial, 64);
      add_junk (parser, parser->overlong);
    }
  parser->overlong += len;
  add_junk (parser, len);
}

/* The line kept in parser->partial ends. */
static void
end_partial (TksParser *parser)
{
  if (parser->overlong > 0)
    overlong_line (parser, parser->partial->str, parser->partial->len, parser->overlong);
  else
    process_line (parser, parser->partial->str, parser->partial->str + parser->partial->len);
  g_string_truncate (parser->partial, 0);
  parser->overlong = 0;
}

void
tks_parser_begin_reply (TksParser        *parser,
                        TksParserSection  section)
{
  g_return_if_fail (parser != NULL);

  if (parser->partial->len > 0)
    end_partial (parser);

  switch (section)
    {
    case TKS_PARSER_SECTION_LIST:
      begin_list (parser);
      break;
    case TKS_PARSER_SECTION_LOG:
      begin_log (parser);
      break;
    case TKS_PARSER_SECTION_DUMP:
      {
        static const char command[] = "threads_dump";

        begin_command (parser, command, command + strlen (command));
      }
      break;
    case TKS_PARSER_SECTION_NONE:
    default:
      end_section (parser);
      break;
    }
}

void
tks_parser_reserve (TksParser *parser,
                    guint64    bytes)
{
  /* A record line is at least 24 bytes ("From  1 to  2 at       5\n"). */
  guint64 records = MIN (bytes / 24, G_MAXUINT32 / 2);

  g_return_if_fail (parser != NULL);

  if (records > parser->current->records->len)
    {
      guint len = parser->current->records->len;

      g_array_set_size (parser->current->records, records);
      g_array_set_size (parser->current->records, len);
    }
}

void
tks_parser_feed (TksParser  *parser,
                 const char *data,
                 gsize       len)
{
  const char *p = data;
  const char *end = data + len;

  g_return_if_fail (parser != NULL);

  if (parser->fatal != NULL || parser->rest_ignored)
    return;

  if (parser->partial->len > 0)
    {
      const char *nl = memchr (p, '\n', end - p);

      if (nl == NULL)
        {
          add_partial (parser, p, end - p);
          return;
        }
      add_partial (parser, p, nl - p);
      end_partial (parser);
      p = nl + 1;
    }

  while (p < end && parser->fatal == NULL && !parser->rest_ignored)
    {
      const char *nl;

      /* The hot path: the log's record lines (a dump version 2 is read line by line). */
      if (parser->section == SECTION_LOG && !in_dump_v2 (parser) && parser->end_line == NULL)
        {
          const char *start = p;

          if (parser->decoder != NULL && parser->batch_compact && *p == 'Z')
            {
              p = feed_compact (parser, p, end);
              if (p == end || parser->fatal != NULL)
                return;
              if (p != start)
                continue;
            }
          p = feed_records (parser, p, end);
          if (p != start)
            {
              parser->junk = 0;
              check_size (parser);
            }
          if (p == end)
            return;
        }

      nl = memchr (p, '\n', end - p);
      if (nl == NULL)
        {
          add_partial (parser, p, end - p);
          return;
        }

      /* A record line in another layout. */
      if (parser->section == SECTION_LOG && *p == 'F' && !in_dump_v2 (parser) &&
          parser->end_line == NULL)
        {
          TksRecord record;
          const char *lend = nl;

          if (lend > p && lend[-1] == '\r')
            lend--;
          if (G_LIKELY (parse_record (p, lend, &record)))
            {
              parser->line_no++;
              parser->junk = 0;
              g_array_append_val (parser->current->records, record);
              p = nl + 1;
              continue;
            }
        }

      process_line (parser, p, nl);
      p = nl + 1;
    }
}

gboolean
tks_parser_failed (TksParser *parser)
{
  g_return_val_if_fail (parser != NULL, TRUE);
  return parser->fatal != NULL;
}

guint
tks_parser_get_n_records (TksParser *parser)
{
  g_return_val_if_fail (parser != NULL, 0);
  if (parser->current != NULL && in_dump_v2 (parser))
    return parser->current->events->entries->len;
  return parser->current != NULL ? parser->current->records->len : 0;
}

guint
tks_parser_get_announced_records (TksParser *parser)
{
  g_return_val_if_fail (parser != NULL, 0);
  return parser->in_dump && parser->dump_records != G_MAXUINT ? parser->dump_records : 0;
}

guint
tks_parser_get_n_unreadable (TksParser *parser)
{
  g_return_val_if_fail (parser != NULL, 0);
  return parser->list_garbled + parser->log_garbled;
}

TksParsed *
tks_parser_finish (TksParser  *parser,
                   GError    **error)
{
  TksParsed *result;

  g_return_val_if_fail (parser != NULL, NULL);

  if (parser->partial->len > 0 && parser->fatal == NULL)
    end_partial (parser);
  end_section (parser);

  if (parser->fatal != NULL)
    {
      g_set_error_literal (error, TKS_ERROR, TKS_ERROR_PARSE, parser->fatal);
      return NULL;
    }

  if (parser->have_list && parser->have_log)
    result = g_steal_pointer (&parser->current);
  else if (parser->complete != NULL)
    result = g_steal_pointer (&parser->complete);
  else
    {
      if (parser->refusal != NULL)
        g_set_error (error, TKS_ERROR, TKS_ERROR_UNKNOWN_COMMAND,
                     _("Line %u: %s"), parser->refusal_line, parser->refusal);
      else if (!parser->have_list && !parser->have_log)
        g_set_error (error, TKS_ERROR, TKS_ERROR_NOT_A_CAPTURE,
                     _("This is not a thread capture: it holds no threads_list reply and no "
                       "threads_timestamps reply"));
      else if (!parser->have_list)
        g_set_error (error, TKS_ERROR, TKS_ERROR_EMPTY,
                     _("The capture has a log but no threads_list reply, so its thread numbers "
                       "cannot be named"));
      else
        g_set_error (error, TKS_ERROR, TKS_ERROR_EMPTY,
                     _("The capture has a thread list but no threads_timestamps reply"));
      return NULL;
    }

  if (result->live->len == 0 && result->deleted->len == 0)
    {
      if (parser->refusal != NULL)
        g_set_error (error, TKS_ERROR, TKS_ERROR_UNKNOWN_COMMAND,
                     _("Line %u: %s"), parser->refusal_line, parser->refusal);
      else
        g_set_error_literal (error, TKS_ERROR, TKS_ERROR_PARSE,
                             _("The threads_list reply lists no thread"));
      tks_parsed_free (result);
      return NULL;
    }

  /* A dump version 2's events go with its log only: a log read otherwise (a transcript's
   * threads_timestamps in the middle of a dump) leaves them out. */
  if (result->events != NULL &&
      tks_parsed_events_n_switches (result->events) != result->records->len)
    g_clear_pointer (&result->events, tks_parsed_events_free);
  /* A dump version 2's holes are placed by slots: the rebuild places them by records. */
  if (result->events != NULL)
    tks_parsed_events_place_gaps (result->events, result->gaps, result->events->info.slots);
  /* A saved capture's events, when they are those of its log. */
  else if (parser->saved_events != NULL)
    {
      g_autofree char *problem = NULL;

      result->events = tks_parsed_events_attach_saved (g_steal_pointer (&parser->saved_events),
                                                       parser->saved_switches, result->records,
                                                       &problem);
      if (problem != NULL && result->warnings->len < MAX_KEPT_WARNINGS)
        {
          guint saved_from = 0;

          g_ptr_array_add (result->warnings, g_strdup_printf ("warning: %s", problem));
          g_array_append_val (result->warnings_saved, saved_from);
        }
      result->n_warnings += problem != NULL;
    }

  /* A reply that is mostly noise is a wrong baud rate or a broken link, not a capture. (Not a
   * recording whose lines decode: its header and checksums say it is one, and its noise is
   * named line by line.) */
  if (parser->log_garbled > 0 && !(parser->recording && result->records->len > 0) &&
      parser->log_garbled >= (result->events != NULL ? result->events->entries->len
                                                      : result->records->len))
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE,
                   _("The log is unreadable (%u bad lines, %u readable records): %s"),
                   parser->log_garbled, result->records->len,
                   result->warnings->len > 0 ? (char *) g_ptr_array_index (result->warnings, 0)
                                             : "");
      tks_parsed_free (result);
      return NULL;
    }

  return result;
}

/* For the reader's tests (tks-parser-private.h). */
gboolean
tks_parse_record_line (const char *p,
                       const char *end,
                       TksRecord  *record)
{
  return parse_record (p, end, record);
}

const char *
tks_parse_record_fixed (const char *p,
                        const char *end,
                        TksRecord  *record)
{
  return parse_record_fixed (p, end, record);
}

void
tks_parser_set_batches (TksParser *parser,
                        gboolean   batch,
                        guint      n_threads,
                        guint      chunk_lines,
                        guint      batch_lines)
{
  parser->batch_compact = batch;
  parser->n_threads = n_threads;
  parser->chunk_lines = chunk_lines;
  parser->batch_lines = batch_lines;
}

void
tks_parser_set_max_records (TksParser *parser,
                            guint      max)
{
  parser->rec_max = max;
}

gboolean
tks_parser_get_threads_used (TksParser *parser)
{
  return parser->pool != NULL;
}
