/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tks-parser-private.h"

/* A capture as the reader gives it (TksParsed): its lists, its log and what goes with it, and
 * the line of the input each record was read on. */

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

void
tks_list_entry_free (gpointer data,
                     gpointer user_data)
{
  TksListEntry *entry = data;

  g_free (entry->name);
  g_free (entry);
}

void
tks_parsed_clear_list (TksParsed *parsed)
{
  g_ptr_array_foreach (parsed->live, tks_list_entry_free, NULL);
  g_ptr_array_foreach (parsed->deleted, tks_list_entry_free, NULL);
  g_ptr_array_set_size (parsed->live, 0);
  g_ptr_array_set_size (parsed->deleted, 0);
}

void
tks_parsed_clear_log (TksParsed *parsed)
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

  tks_parsed_clear_list (parsed);
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
