/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <string.h>

#include "tks-compact.h"
#include "tks-events-private.h"
#include "tks-limits.h"
#include "tks-parser.h"

G_BEGIN_DECLS

/*
 * The reader's insides, shared by its files, one per format:
 *   tks-parser.c          lines, prompts and sections, the bounds, warnings, the result;
 *   tks-parsed.c          the capture as read (TksParsed);
 *   tks-parser-text.c     the shell's text replies: threads_list and threads_timestamps;
 *   tks-parser-dump.c     a threads_dump's header, its holes, heartbeats and end line;
 *   tks-parser-compact.c  the compact log of dump version 3, line by line or by batches;
 *   tks-parser-record.c   the lines of a threads_record stream;
 *   tks-parser-saved.c    a capture file's own lines, after "Saved position";
 *   tks-parser-events.c   the events of dump version 2.
 */

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

/*
 * A compact log of switches only (a recording may be hours long) is decoded by batches of
 * lines, in parallel: each line decodes on its own (see tks_compact_line_decode()); the lines
 * are then taken in order, as one by one, for their sequence numbers, warnings and records.
 */
#define BATCH_LINES 8192
#define CHUNK_LINES 128
#define MAX_DECODE_THREADS 8

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

/* A threads_dump's checksum: FNV-1a over the records' 32-bit words, low byte first. */
static inline guint32
log_hash_add (guint32          hash,
              const TksRecord *r)
{
  return tks_hash_word (hash, ((r->tick & 0xFFFFFu) << 12) | ((guint32) (r->out & 0x3F) << 6)
                               | (r->in & 0x3F));
}

static inline gboolean
has_prefix (const char *p,
            const char *end,
            const char *prefix)
{
  gsize len = strlen (prefix);

  return (gsize) (end - p) >= len && memcmp (p, prefix, len) == 0;
}

static inline void
trim (const char **p,
      const char **end)
{
  while (*p < *end && g_ascii_isspace (**p))
    (*p)++;
  while (*end > *p && g_ascii_isspace ((*end)[-1]))
    (*end)--;
}

/* tks-parsed.c: the capture as read */
void          tks_list_entry_free          (gpointer data,
                                            gpointer user_data);
void          tks_parsed_clear_list        (TksParsed  *parsed);
void          tks_parsed_clear_log         (TksParsed  *parsed);

/* tks-parser.c: lines, prompts and sections, bounds, warnings */
void          tks_parser_warn              (TksParser  *parser,
                                            const char *format,
                                            ...) G_GNUC_PRINTF (2, 3);
void          tks_parser_keep_warning      (TksParser  *parser,
                                            char       *text,
                                            guint       saved_from);
void          tks_parser_fail              (TksParser  *parser,
                                            const char *format,
                                            ...) G_GNUC_PRINTF (2, 3);
char         *tks_excerpt                  (const char *s,
                                            gsize       len);
void          tks_parser_begin_list        (TksParser  *parser);
void          tks_parser_begin_log         (TksParser  *parser);
gboolean      tks_parser_check_refusal     (TksParser  *parser,
                                            const char *p,
                                            const char *end);
void          tks_parser_content_line      (TksParser  *parser,
                                            const char *p,
                                            const char *end);
void          tks_parser_process_line      (TksParser  *parser,
                                            const char *p,
                                            const char *end);
const char   *tks_parser_find_prompt       (const char *p,
                                            const char *end);
void          tks_parser_check_size        (TksParser  *parser);

/* tks-parser-text.c: the shell's text replies (threads_list, threads_timestamps) */
gboolean      tks_parse_record_line        (const char *p,
                                            const char *end,
                                            TksRecord  *record);
TksListEntry *tks_parse_list_entry         (const char *p,
                                            const char *end);
const char   *tks_parser_feed_records      (TksParser  *parser,
                                            const char *p,
                                            const char *end);
void          tks_parser_unreadable_list_line (TksParser  *parser,
                                               const char *text);
void          tks_parser_list_line         (TksParser  *parser,
                                            const char *p,
                                            const char *end);
void          tks_parser_log_line          (TksParser  *parser,
                                            const char *p,
                                            const char *end);
void          tks_parser_trigger_reply_line (TksParser  *parser,
                                             const char *p,
                                             const char *end);

/* tks-parser-dump.c: a threads_dump's header, holes, heartbeats and end */
void          tks_parser_dump_damaged      (TksParser  *parser,
                                            const char *message);
guint32       tks_log_hash_records         (guint32          hash,
                                            const TksRecord *r,
                                            guint            n);
guint32       tks_parser_log_hash          (TksParser  *parser);
void          tks_parser_gap_line          (TksParser  *parser,
                                            const char *p,
                                            const char *end,
                                            const char *text,
                                            gboolean    known,
                                            guint64     base,
                                            guint64     n_records,
                                            gboolean    wraps);
void          tks_parser_set_tick_hz       (TksParser  *parser,
                                            double      hz,
                                            const char *p,
                                            const char *end);
void          tks_parser_set_tick_bits     (TksParser  *parser,
                                            guint64     bits,
                                            const char *p,
                                            const char *end);
void          tks_parser_beat_line         (TksParser  *parser,
                                            const char *p,
                                            const char *end,
                                            gboolean    saved);
void          tks_parser_dump_header_line  (TksParser  *parser,
                                            const char *p,
                                            const char *end);
gboolean      tks_parser_end_of_log_line   (TksParser  *parser,
                                            const char *p,
                                            const char *end);
void          tks_parser_judge_end_line    (TksParser  *parser);
void          tks_parser_names_line        (TksParser  *parser,
                                            const char *p,
                                            const char *end);

/* tks-parser-compact.c: the compact log (dump version 3), line by line or by batches */
void          tks_parser_begin_compact_log (TksParser  *parser);
void          tks_parser_compact_line      (TksParser  *parser,
                                            const char *p,
                                            const char *end);
const char   *tks_parser_feed_compact      (TksParser  *parser,
                                            const char *p,
                                            const char *end);
void          tks_parser_compact_batch_free (struct _CompactBatch *batch);

/* tks-parser-record.c: a threads_record stream's own lines */
gboolean      tks_parser_recording_full    (TksParser  *parser,
                                            guint64     n,
                                            guint64     n_after);
void          tks_parser_recording_renumber (TksParser *parser);
gboolean      tks_parser_recording_line    (TksParser  *parser,
                                            const char *p,
                                            const char *end);

/* tks-parser-saved.c: a capture file's own lines */
void          tks_parser_saved_line        (TksParser  *parser,
                                            const char *p,
                                            const char *end);

/* For the reader's tests: a record line in the board's own layout only, from @p to its line
 * end included: where the next line starts, or NULL for any other layout
 * (tks-parser-text.c). */
const char   *tks_parse_record_fixed       (const char *p,
                                            const char *end,
                                            TksRecord  *record);
/* For the reader's tests (tks-parser.c): batches (FALSE: line by line), the threads that
 * decode a batch, the lines a thread takes at a time and a batch holds at most; a
 * recording's records read at most; whether threads were started to decode batches. */
void          tks_parser_set_batches       (TksParser  *parser,
                                            gboolean    batch,
                                            guint       n_threads,
                                            guint       chunk_lines,
                                            guint       batch_lines);
void          tks_parser_set_max_records   (TksParser  *parser,
                                            guint       max);
gboolean      tks_parser_get_threads_used  (TksParser  *parser);

G_END_DECLS
