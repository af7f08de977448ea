/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tks-parser-private.h"

/* A threads_dump reply (versions 1 to 3): its header, its holes and heartbeats, its end line
 * and checksum. */

/* A threads_dump that did not arrive whole: a warning, and remembered for live sessions. */
void
tks_parser_dump_damaged (TksParser  *parser,
                         const char *message)
{
  tks_parser_warn (parser, _("line %u: warning: %s"), parser->line_no, message);
  if (parser->current->damage == NULL)
    parser->current->damage = g_strdup_printf (_("Line %u: %s"), parser->line_no, message);
}

guint32
tks_log_hash_records (guint32          hash,
                      const TksRecord *r,
                      guint            n)
{
  for (guint i = 0; i < n; i++)
    hash = log_hash_add (hash, &r[i]);
  return hash;
}

/* The checksum of every record of the log so far. The reader of record lines hashes as it
 * goes; this adds the records it did not see. */
guint32
tks_parser_log_hash (TksParser *parser)
{
  GArray *records = parser->current->records;

  if (parser->log_hashed < records->len)
    parser->log_hash =
      tks_log_hash_records (parser->log_hash,
                            &g_array_index (records, TksRecord, parser->log_hashed),
                            records->len - parser->log_hashed);
  parser->log_hashed = MAX (parser->log_hashed, records->len);
  return parser->log_hash;
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
void
tks_parser_gap_line (TksParser  *parser,
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
  line = tks_excerpt (p, end - p);
  tks_parser_warn (parser, _("line %u: warning: a hole in the log that cannot be placed is "
                             "ignored: “%s”"), parser->line_no, line);
}

/* A tick rate the input gives (@p to @end: its line): a sane one is taken, any other is
 * warned about and the default stays. */
void
tks_parser_set_tick_hz (TksParser  *parser,
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
  text = tks_excerpt (p, end - p);
  tks_parser_warn (parser, _("line %u: warning: the tick rate is not a number of hertz from %g to "
                             "%g: “%s”: %g Hz is used"), parser->line_no, TKS_TICK_HZ_MIN,
                   TKS_TICK_HZ_MAX, text, TKS_TICK_HZ_DEFAULT);
}

/* The width of the record tick the input gives (@p to @end: its line): 8 to 32 bits are
 * taken; any other is warned about, and the ticks are read as 20-bit ones. */
void
tks_parser_set_tick_bits (TksParser  *parser,
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
  text = tks_excerpt (p, end - p);
  tks_parser_warn (parser, _("line %u: warning: the width of the ticks is not a number of bits "
                             "from 8 to 32: “%s”: 20 bits are used"), parser->line_no, text);
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
void
tks_parser_beat_line (TksParser  *parser,
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
    g_autofree char *line = tks_excerpt (p, end - p);

    tks_parser_warn (parser, _("line %u: warning: an unreadable heartbeat is ignored: “%s”"),
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
  text = tks_excerpt (p, end - p);
  tks_parser_fail (parser, _("Line %u: “%s”: this Tickscope reads dump versions 1 to 3 only: a "
                             "newer Tickscope is needed"), parser->line_no, text);
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
  text = tks_excerpt (p, end - p);
  tks_parser_warn (parser, _("line %u: warning: the header announces more records than any board "
                             "keeps (%u at most): “%s”: the count of the records is not checked"),
                   parser->line_no, MAX_RECORDS, text);
}

/* Counted since boot or run mode, not within this log: kept as information. */
static void
header_records_written (TksParser  *parser,
                        guint64     v,
                        const char *p,
                        const char *end)
{
  parser->current->counters.known = TRUE;
  parser->current->counters.records_written = v;
}

static void
header_dropped_paused (TksParser  *parser,
                       guint64     v,
                       const char *p,
                       const char *end)
{
  parser->current->counters.known = TRUE;
  parser->current->counters.dropped_paused = v;
}

static void
header_dropped_history (TksParser  *parser,
                        guint64     v,
                        const char *p,
                        const char *end)
{
  parser->current->counters.known = TRUE;
  parser->current->counters.dropped_history = v;
}

static void
header_tick_hz (TksParser  *parser,
                guint64     v,
                const char *p,
                const char *end)
{
  tks_parser_set_tick_hz (parser, (double) v, p, end);
}

static void
header_log_size (TksParser  *parser,
                 guint64     v,
                 const char *p,
                 const char *end)
{
  parser->current->log_size = (guint) v;
}

/* "Paused: before record S, ticks B to E, N switches dropped" */
static void
header_paused (TksParser  *parser,
               guint64     v,
               const char *p,
               const char *end)
{
  /* Placed by the header's counts, which come before it. The board counts records in 32
   * bits: its sequence numbers wrap, and so does the difference. */
  TksBoardCounters *c = &parser->current->counters;
  /* (a dump version 2 counts slots: Slots follows Records) */
  guint64 n = parser->pending_events != NULL ? parser->pending_events->info.slots
                                             : parser->dump_records;
  gboolean known = c->known && parser->dump_records != G_MAXUINT && n > 0;

  tks_parser_gap_line (parser, p, end, p + strlen ("Paused:"), known,
                       known ? (guint32) (c->records_written - n) : 0, known ? n : 0, TRUE);
}

/* who set the trigger: a shell command, the code, or the condition that was met */
static void
header_trigger_name (TksParser  *parser,
                     guint64     v,
                     const char *p,
                     const char *end)
{
  const char *q = skip_spaces (p + strlen ("Trigger name:"), end);

  g_free (parser->current->trigger_name);
  parser->current->trigger_name = q < end ? g_utf8_make_valid (q, MIN (end - q, 128)) : NULL;
}

static void
header_unnumbered (TksParser  *parser,
                   guint64     v,
                   const char *p,
                   const char *end)
{
  g_autofree char *text = NULL;

  if (v == 0)
    return;
  text = tks_excerpt (p, end - p);
  tks_parser_warn (parser, _("line %u: warning: the board had more threads than it can "
                             "number: %s"), parser->line_no, text);
}

typedef void (*HeaderFunc) (TksParser  *parser,
                            guint64     v,
                            const char *p,
                            const char *end);

/* The keys of a dump's header. A key's line is read when its value is a number (with @number),
 * or whatever it holds (its value 0 unless it is a number). */
static const struct
{
  const char *key;
  gboolean    number;
  HeaderFunc  func;
} header_keys[] = {
  { "Tick frequency:", TRUE, header_tick_hz },
  { "Tick bits:", FALSE, tks_parser_set_tick_bits },
  { "Records:", TRUE, records_line },
  { "Log size:", TRUE, header_log_size },
  { "Records written:", TRUE, header_records_written },
  { "Dropped while paused:", TRUE, header_dropped_paused },
  { "Dropped for history:", TRUE, header_dropped_history },
  { "Paused:", FALSE, header_paused },
  { "Trigger name:", FALSE, header_trigger_name },
  { "Unnumbered threads:", TRUE, header_unnumbered },
};

/* "Threads:" ends the header: the list, and the events the header announced, begin. */
static void
header_end_line (TksParser *parser)
{
  tks_parser_begin_list (parser);
  parser->in_dump = TRUE;
  /* A compact dump of a board without events is a dump version 1's. */
  if (parser->compact && parser->pending_events != NULL
      && !tks_parsed_events_has_options (parser->pending_events))
    g_clear_pointer (&parser->pending_events, tks_parsed_events_free);
  tks_parsed_events_free (parser->current->events);
  parser->current->events = g_steal_pointer (&parser->pending_events);
}

/* A key of a dump version 2's header: TRUE when @p to @end is one. */
static gboolean
header_events_line (TksParser  *parser,
                    const char *p,
                    const char *end)
{
  g_autofree char *problem = NULL;

  if (parser->pending_events == NULL ||
      !tks_parsed_events_header (parser->pending_events, p, end, &problem))
    return FALSE;
  if (problem != NULL)
    tks_parser_dump_damaged (parser, problem);
  return TRUE;
}

/* The header of a threads_dump reply: "Key: value" lines, then "Threads:". */
void
tks_parser_dump_header_line (TksParser  *parser,
                             const char *p,
                             const char *end)
{
  trim (&p, &end);
  if (has_prefix (p, end, "Threads:"))
    {
      header_end_line (parser);
      return;
    }
  if (tks_parser_check_refusal (parser, p, end))
    return;
  if (has_prefix (p, end, "Dump version:"))
    {
      dump_version_line (parser, p, end);
      return;
    }
  if (header_events_line (parser, p, end))
    return;

  /* (no key is the start of another) */
  for (guint i = 0; i < G_N_ELEMENTS (header_keys); i++)
    {
      guint64 v = 0;
      gboolean read;

      if (!has_prefix (p, end, header_keys[i].key))
        continue;
      read = header_value (p, end, header_keys[i].key, &v);
      if (read || !header_keys[i].number)
        header_keys[i].func (parser, read ? v : 0, p, end);
      return;
    }
}

/* A line of a dump version 2's names, or the line that ends them. */
void
tks_parser_names_line (TksParser  *parser,
                       const char *p,
                       const char *end)
{
  g_autofree char *problem = NULL;

  trim (&p, &end);
  if (p == end)
    return;
  if (has_prefix (p, end, parser->compact ? "Compact:" : "Timestamps:"))
    tks_parser_begin_compact_log (parser);
  else if (tks_parser_check_refusal (parser, p, end))
    return;
  else if (!tks_parsed_events_name (parser->current->events, p, end, &problem))
    {
      g_autofree char *text = tks_excerpt (p, end - p);

      parser->list_garbled++;
      tks_parser_dump_damaged (parser, _("unreadable name line skipped"));
      tks_parser_warn (parser, _("line %u: warning: unreadable name line skipped: “%s”"),
                       parser->line_no, text);
    }
  else if (problem != NULL)
    tks_parser_warn (parser, _("line %u: warning: %s"), parser->line_no, problem);
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
  guint32 hash = events != NULL ? events->hash : tks_parser_log_hash (parser);
  guint64 count;
  g_autofree char *tail = NULL;
  guint64 checksum;
  char *endptr = NULL;
  const char *q;

  parser->dump_ended = TRUE;

  q = parse_uint (skip_spaces (p + strlen ("End of dump:"), end), end, G_MAXUINT32, &count);
  if (q == NULL || (q = expect_word (q, end, "records, checksum")) == NULL)
    {
      tks_parser_dump_damaged (parser, _("unreadable end of the threads_dump reply"));
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

      tks_parser_dump_damaged (parser, message);
    }
  else if (!g_ascii_isxdigit (*tail) || *endptr != '\0' || endptr - tail > 8 || checksum != hash)
    tks_parser_dump_damaged (parser, _("the records do not match the board's checksum: the "
                                       "transfer damaged some of them"));
}

/* The end line of a dump or a recording (@p to @end, a line of its log) is judged when the
 * log ends: the end is the last one. An end line that more of the log follows was noise on
 * the link (a recording's stream goes on after it): named, and passed over. TRUE when the line
 * is an end line. */
gboolean
tks_parser_end_of_log_line (TksParser  *parser,
                            const char *p,
                            const char *end)
{
  const char *q = p, *q_end = end;
  gboolean is_end;

  trim (&q, &q_end);
  is_end = (parser->in_dump || parser->rec_full) && has_prefix (q, q_end, "End of dump:");
  if (parser->end_line != NULL && (is_end || q != q_end))
    {
      g_autofree char *text = tks_excerpt (parser->end_line, strlen (parser->end_line));

      parser->log_garbled++;
      tks_parser_warn (parser, _("line %u: warning: an end line in the middle of the log is "
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

/* The log ends: its last end line is read (see tks_parser_end_of_log_line()). */
void
tks_parser_judge_end_line (TksParser *parser)
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
