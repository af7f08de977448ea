/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tks-parser-private.h"

/* A threads_record stream: the lines its log carries between the compact lines (threads and
 * names that appear, counted handlers, heartbeats, holes), and its bounds. */

/* A recording longer than a capture holds (hours of a busy board): its first records are read,
 * the rest of its log is passed over (the file keeps it), said once. TRUE when a line that
 * brings the records read (entries with events) from @n to @n_after is one too many. */
gboolean
tks_parser_recording_full (TksParser *parser,
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

      tks_parser_warn (parser, _("line %u: warning: the recording holds more than %u records, more "
                                 "than a capture can: only its first %s are shown (the file keeps "
                                 "them all)"), parser->line_no, parser->rec_max, kept);
    }
  parser->rec_full = TRUE;
  return TRUE;
}

/* A recording gives the numbers of threads that exit back (see WIRE-FORMAT.md): each exit
 * record read since the last call moves its thread from the live list to the deleted one, in
 * exit order, and the threads after it are one lower, as the board renumbered them. At the end
 * the lists are those a threads_dump would have printed then: the rebuild reads them alike. */
void
tks_parser_recording_renumber (TksParser *parser)
{
  TksParsed *cur = parser->current;
  const TksRecord *r = (const TksRecord *) (gconstpointer) cur->records->data;
  guint n = cur->records->len;
  guint i = parser->rec_renumbered > n ? 0 : parser->rec_renumbered;

  for (; i < n; i++)
    {
      const TksRecord *rec = &r[i];
      TksListEntry *entry;

      /* (Exits are rare: the walk to the next one stays in registers. An exit of a number the
       * list lacks is the rebuild's to warn of.) */
      if (G_LIKELY (rec->out != rec->in) || rec->out == 0 || rec->out > cur->live->len)
        continue;
      entry = g_ptr_array_steal_index (cur->live, rec->out - 1u);
      entry->number = rec->out;
      g_ptr_array_add (cur->deleted, entry);
      for (guint j = rec->out - 1u; j < cur->live->len; j++)
        ((TksListEntry *) g_ptr_array_index (cur->live, j))->number = (int) j + 1;
    }
  parser->rec_renumbered = n;
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

      tks_parser_dump_damaged (parser, message);
    }
}

/* "Thread number …": a thread created meanwhile, which takes the next number once the exits
 * before it renumbered. */
static gboolean
recording_thread_line (TksParser  *parser,
                       const char *p,
                       const char *end)
{
  TksParsed *cur = parser->current;
  TksListEntry *entry = tks_parse_list_entry (p, end);

  if (entry == NULL)
    return FALSE;
  entry->line = parser->line_no;
  tks_parser_recording_renumber (parser);
  if (entry->number != (int) cur->live->len + 1)
    tks_parser_warn (parser, _("line %u: warning: thread “%s” comes as number %d, but %u "
                               "threads have a number at that point (lines were lost?)"),
                     parser->line_no, entry->name, entry->number, cur->live->len);
  g_ptr_array_add (cur->live, entry);
  return TRUE;
}

/* "Name …": a name registered meanwhile. */
static gboolean
recording_name_line (TksParser  *parser,
                     const char *p,
                     const char *end)
{
  g_autofree char *problem = NULL;

  if (!tks_parsed_events_name (parser->current->events, p, end, &problem))
    return FALSE;
  if (problem != NULL)
    tks_parser_warn (parser, _("line %u: warning: %s"), parser->line_no, problem);
  return TRUE;
}

/* "Counted handler: …": a recording's running count of the handlers the board does not log. */
static gboolean
recording_counted_line (TksParser  *parser,
                        const char *p,
                        const char *end)
{
  g_autofree char *problem = NULL;

  if (!tks_parsed_events_header (parser->current->events, p, end, &problem) || problem != NULL)
    tks_parser_warn (parser, _("line %u: warning: %s"), parser->line_no,
                     problem != NULL ? problem : "unreadable counted handler");
  return TRUE;
}

static gboolean
recording_beat_line (TksParser  *parser,
                     const char *p,
                     const char *end)
{
  tks_parser_beat_line (parser, p, end, FALSE);
  return TRUE;
}

/* Where a hole arrives: after the entries read so far (by slots with events, which the end of
 * the reading turns into records). */
static guint64
recording_here (TksParser *parser)
{
  TksParsed *cur = parser->current;
  const TksParsedEntry *e;

  if (cur->events == NULL)
    return cur->records->len;
  e = (const TksParsedEntry *) (gconstpointer) cur->events->entries->data;
  for (; parser->rec_entries < cur->events->entries->len; parser->rec_entries++)
    parser->rec_slots += e[parser->rec_entries].slots;
  return parser->rec_slots;
}

/* "Lost: before record S, ticks B to E, N switches dropped": a hole where the board could not
 * send what it recorded (S counts the slots streamed before it). */
static gboolean
recording_lost_line (TksParser  *parser,
                     const char *p,
                     const char *end)
{
  TksParsedGap gap;
  guint64 seq, here;

  if (!tks_parse_lost_line (p, end, &seq, &gap))
    return FALSE;
  if (parser->decoder != NULL)
    tks_compact_decoder_lost (parser->decoder);
  here = recording_here (parser);
  if (seq != here)
    {
      g_autofree char *sent = g_strdup_printf ("%" G_GUINT64_FORMAT, seq);
      g_autofree char *arrived = g_strdup_printf ("%" G_GUINT64_FORMAT, (guint64) here);

      tks_parser_warn (parser, _("line %u: warning: the board lost records before record %s, "
                                 "which arrived as record %s: lines were lost too"),
                       parser->line_no, sent, arrived);
    }
  gap.index = (guint) here;
  keep_hole (parser, &gap);
  return TRUE;
}

typedef gboolean (*RecordingLineFunc) (TksParser  *parser,
                                       const char *p,
                                       const char *end);

/* The lines a recording's log carries between its compact lines (see WIRE-FORMAT.md), by their
 * start; with @events, only in a recording with events. */
static const struct
{
  const char        *prefix;
  gboolean           events;
  RecordingLineFunc  func;
} recording_lines[] = {
  { "Thread number", FALSE, recording_thread_line },
  { "Name ", TRUE, recording_name_line },
  { "Counted handler:", TRUE, recording_counted_line },
  { "Heartbeat:", FALSE, recording_beat_line },
  { "Lost:", FALSE, recording_lost_line },
};

/* A line of a recording's own (@p to @end): TRUE when it is one, and read. */
gboolean
tks_parser_recording_line (TksParser  *parser,
                           const char *p,
                           const char *end)
{
  for (guint i = 0; i < G_N_ELEMENTS (recording_lines); i++)
    if (has_prefix (p, end, recording_lines[i].prefix) &&
        (!recording_lines[i].events || parser->current->events != NULL))
      return recording_lines[i].func (parser, p, end);
  return FALSE;
}
