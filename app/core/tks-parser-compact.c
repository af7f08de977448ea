/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tks-compact-private.h"
#include "tks-parser-private.h"

/* The compact log of a dump version 3 (and of a recording), decoded line by line, or for a
 * log of switches only, by batches of lines on several threads. */

/* The log of a dump begins; in a compact dump, its lines are decoded from here on. */
void
tks_parser_begin_compact_log (TksParser *parser)
{
  TksParsed *cur = parser->current;
  guint64 counter_hz = cur->events != NULL ? tks_parsed_events_counter_hz (cur->events) : 0;

  tks_parser_begin_log (parser);
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
    tks_parser_warn (parser, _("line %u: warning: %s"), line_no, error->message);
  return keep;
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
void
tks_parser_compact_line (TksParser  *parser,
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
      tks_parser_recording_full (parser, log_count (parser),
                                 (guint64) log_count (parser) + line.n_entries))
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
      tks_parser_content_line (parser, text, text + strlen (text));
    }
  /* (The entries were read as lines of their own: they are on this one.) */
  if (parser->section == SECTION_LOG && parser->current == cur)
    {
      g_array_set_size (cur->log_other_lines, MIN (n_other, cur->log_other_lines->len));
      compact_line_mark (cur, first, cur->records->len, parser->line_no);
    }
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

void
tks_parser_compact_batch_free (CompactBatch *batch)
{
  if (batch == NULL)
    return;
  g_mutex_clear (&batch->lock);
  g_cond_clear (&batch->done);
  g_free (batch->lines);
  g_free (batch);
}

/* Record @index of @records, or NULL while the array has no storage yet (no pointer is made
 * from a NULL one). */
static TksRecord *
record_at (GArray *records,
           guint   index)
{
  return records->data != NULL ? (TksRecord *) (gpointer) records->data + index : NULL;
}

/* Decodes the chunks of the batch no thread has taken yet. Each line's records go to its own
 * place: nothing here is shared but the chunk counter. */
static void
compact_batch_decode (CompactBatch *batch)
{
  guint c;

  if (batch->hash_n > 0 && g_atomic_int_compare_and_exchange (&batch->hash_taken, 0, 1))
    batch->hash = tks_log_hash_records (batch->hash, batch->hash_records, batch->hash_n);
  while ((c = (guint) g_atomic_int_add (&batch->next_chunk, 1)) < batch->n_chunks)
    {
      guint last = MIN ((c + 1) * batch->chunk_lines, batch->n_lines);

      for (guint l = c * batch->chunk_lines; l < last; l++)
        {
          BatchLine *bl = &batch->lines[l];
          TksEntry entries[TKS_COMPACT_MAX_ENTRIES];
          /* (no room at all: no array yet, and no pointer made from it) */
          TksRecord *records = batch->records != NULL ? batch->records + bl->first : NULL;
          /* (a line of the range coder gives its records straight into their place) */
          gboolean direct = tks_compact_rc_decode_records (batch->decoder, bl->text, bl->len,
                                                           &bl->result, records, bl->room);

          if (!direct)
            tks_compact_line_decode (batch->decoder, bl->text, bl->len, &bl->result, entries);
          if (bl->result.status != TKS_COMPACT_LINE_OK)
            {
              bl->has_prompt = tks_parser_find_prompt (bl->text, bl->text + bl->len) != NULL;
              continue;
            }
          /* (A line that decodes holds what its key frame announces.) */
          g_assert (bl->result.n_entries <= bl->room);
          for (guint i = 0; !direct && i < bl->result.n_entries; i++)
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

/* Takes the decoded lines in order, as tks_parser_compact_line() would one by one: their
 * warnings, their records moved up over those of the lines lost before them. Returns where
 * reading goes on: after the batch, or after a line with a prompt, which is read as any line. */
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
          tks_parser_process_line (parser, bl->text, bl->nl);
          return bl->nl + 1;
        }
      parser->line_no = bl->line_no;
      if (bl->result.status == TKS_COMPACT_LINE_OK &&
          tks_parser_recording_full (parser, n, (guint64) n + bl->result.n_entries))
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
          tks_parser_check_size (parser);
          return bl->nl + 1;
        }
    }
  g_array_set_size (records, n);
  return batch->lines[batch->n_lines - 1].nl + 1;
}

/* Reads the compact lines from @p on by batches, and returns where the first other line (or
 * an unfinished one) starts. */
const char *
tks_parser_feed_compact (TksParser  *parser,
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
      batch->records = record_at (records, base);
      batch->decoder = parser->decoder;
      batch->chunk_lines = MAX (parser->chunk_lines, 1);
      batch->n_chunks = (batch->n_lines + batch->chunk_lines - 1) / batch->chunk_lines;
      batch->hash_n = parser->in_dump && base > parser->log_hashed ? base - parser->log_hashed : 0;
      batch->hash_records = record_at (records, parser->log_hashed);
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
