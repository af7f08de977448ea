/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "tks-error.h"
#include "tks-parser-private.h"

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
  tks_parser_compact_batch_free (parser->batch);
  g_free (parser->refusal);
  g_free (parser->fatal);
  g_free (parser);
}

/* Keeps @text (taken) unless enough are kept; a save writes it from @saved_from on. */
void
tks_parser_keep_warning (TksParser *parser,
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

void
tks_parser_warn (TksParser  *parser,
                 const char *format,
                 ...)
{
  va_list args;

  va_start (args, format);
  tks_parser_keep_warning (parser, g_strdup_vprintf (format, args), 0);
  va_end (args);
}

/* A short, printable excerpt of a bad line for messages. */
char *
tks_excerpt (const char *s,
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

void
tks_parser_begin_list (TksParser *parser)
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
    tks_parsed_clear_list (parser->current);

  parser->have_list = TRUE;
  parser->list_garbled = 0;
  parser->section = SECTION_LIST;
}

void
tks_parser_begin_log (TksParser *parser)
{
  tks_parsed_clear_log (parser->current);
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
    tks_parser_begin_list (parser);
  else if (IS ("threads_timestamps"))
    tks_parser_begin_log (parser);
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
gboolean
tks_parser_check_refusal (TksParser  *parser,
                          const char *p,
                          const char *end)
{
  g_autofree char *text = NULL;

  if (!(has_prefix (p, end, "threads_") && end - p > 2 && end[-1] == '?' && end[-2] == ' ') &&
      !has_prefix (p, end, "The thread timestamps functionality is disabled") &&
      !has_prefix (p, end, "Usage: threads_"))
    return FALSE;

  text = tks_excerpt (p, end - p);
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

/* The input cannot be a capture: reading stops, and finishing gives this error. */
void
tks_parser_fail (TksParser  *parser,
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
      tks_parser_warn (parser, _("line %u: warning: more than %u MiB follow without a readable "
                                 "line of a capture: the rest of the input is ignored"),
                       parser->line_no + (parser->overlong > 0), (guint) (MAX_JUNK >> 20));
    }
  else if (parser->junk > MAX_JUNK)
    tks_parser_fail (parser, _("Line %u: more than %u MiB without a readable line of a capture: "
                               "this is not a capture, or the rest of it is damaged"),
                     parser->line_no + (parser->overlong > 0), (guint) (MAX_JUNK >> 20));
}

/* A line longer than any line of a capture (@head: its first bytes, @len: its length). */
static void
overlong_line (TksParser  *parser,
               const char *head,
               gsize       head_len,
               guint64     len)
{
  g_autofree char *start = tks_excerpt (head, head_len);
  g_autofree char *bytes = g_strdup_printf ("%" G_GUINT64_FORMAT, len);
  g_autofree char *text = g_strdup_printf (_("a line of %s bytes, longer than any line of a "
                                             "capture, starting “%s”"), bytes, start);

  parser->line_no++;
  if (parser->section == SECTION_LIST || parser->section == SECTION_DELETED)
    tks_parser_unreadable_list_line (parser, text);
  else if (parser->section == SECTION_LOG)
    {
      g_array_append_val (parser->current->log_other_lines, parser->line_no);
      parser->log_garbled++;
      tks_parser_warn (parser, _("line %u: warning: unreadable log line skipped: %s"),
                       parser->line_no, text);
    }
  else
    tks_parser_warn (parser, _("line %u: warning: %s: skipped"), parser->line_no, text);
}

/* The reader of each section's lines: tks-parser-text.c reads the shell's lists and logs,
 * tks-parser-dump.c a dump's header and names, tks-parser-saved.c a saved capture's own lines. */
typedef void (*SectionLineFunc) (TksParser  *parser,
                                 const char *p,
                                 const char *end);

static const SectionLineFunc section_lines[SECTION_OTHER + 1] = {
  [SECTION_POSITION] = tks_parser_saved_line,
  [SECTION_LIST] = tks_parser_list_line,
  [SECTION_DELETED] = tks_parser_list_line,
  [SECTION_LOG] = tks_parser_log_line,
  [SECTION_TRIGGER_REPLY] = tks_parser_trigger_reply_line,
  [SECTION_DUMP_HEADER] = tks_parser_dump_header_line,
  [SECTION_NAMES] = tks_parser_names_line,
};

void
tks_parser_content_line (TksParser  *parser,
                         const char *p,
                         const char *end)
{
  SectionLineFunc func = section_lines[parser->section];

  if (func != NULL)
    func (parser, p, end);
}

static void
end_section (TksParser *parser)
{
  if (parser->section == SECTION_LOG)
    tks_parser_judge_end_line (parser);
  g_clear_pointer (&parser->end_line, g_free);
  if (parser->holes_not_kept > 0)
    {
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, parser->holes_not_kept);

      tks_parser_warn (parser, _("line %u: warning: %s holes of the recording are not shown "
                                 "(beyond the %u a capture keeps)"), parser->line_no, n,
                       TKS_MAX_GAPS);
      parser->holes_not_kept = 0;
    }
  if (parser->recording && parser->in_dump && parser->section == SECTION_LOG)
    tks_parser_recording_renumber (parser);
  if (parser->in_dump && parser->section == SECTION_LOG && !parser->dump_ended)
    tks_parser_dump_damaged (parser, _("the threads_dump reply ends before its last line: the "
                                       "transfer was cut"));
  if (parser->section != SECTION_DUMP_HEADER)
    parser->in_dump = FALSE;
  parser->section = SECTION_NONE;
}

/* The prompt, or a bare "ch>" ending the line (an editor may strip the space). */
const char *
tks_parser_find_prompt (const char *p,
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

/* The first line of a threads_dump reply kept without its command (pasted from a terminal,
 * saved from "Dump version" on), as the first reply of the input: TRUE when it begins one. */
static gboolean
begin_bare_dump (TksParser  *parser,
                 const char *p,
                 const char *end)
{
  static const char command[] = "threads_dump";
  static const char first[] = "Dump version:";

  if (parser->section != SECTION_NONE || parser->have_list || parser->have_log ||
      (gsize) (end - p) < strlen (first) || memcmp (p, first, strlen (first)) != 0)
    return FALSE;
  begin_command (parser, command, command + strlen (command));
  return TRUE;
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
  while ((prompt = tks_parser_find_prompt (p, end)) != NULL)
    {
      if (prompt > p)
        tks_parser_content_line (parser, p, prompt);
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

  (void) begin_bare_dump (parser, tp, tend);
  tks_parser_content_line (parser, p, end);
}

/* Stops reading a log or a list longer than any board keeps. */
void
tks_parser_check_size (TksParser *parser)
{
  TksParsed *cur = parser->current;

  if (cur->records->len > MAX_RECORDS)
    tks_parser_fail (parser, _("Line %u: the log holds more than %u records, more than any board "
                               "keeps"), parser->line_no, MAX_RECORDS);
  else if (cur->log_other_lines->len > MAX_RECORDS)
    /* blank lines and repeated trigger lines are not junk, but a log does not hold more of
     * them than records */
    tks_parser_fail (parser, _("Line %u: the log holds more than %u lines that are not records, "
                               "more than any board prints"), parser->line_no, MAX_RECORDS);
  else if (cur->events != NULL && cur->events->entries->len > MAX_RECORDS)
    tks_parser_fail (parser, _("Line %u: the log holds more than %u entries, more than any board "
                               "keeps"), parser->line_no, MAX_RECORDS);
  else if (cur->live->len + cur->deleted->len > MAX_LIST_ENTRIES)
    tks_parser_fail (parser, _("Line %u: the thread list holds more than %u threads, more than any "
                               "board keeps"), parser->line_no, MAX_LIST_ENTRIES);
}

void
tks_parser_process_line (TksParser  *parser,
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
  tks_parser_check_size (parser);
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
    tks_parser_process_line (parser, parser->partial->str,
                             parser->partial->str + parser->partial->len);
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
      tks_parser_begin_list (parser);
      break;
    case TKS_PARSER_SECTION_LOG:
      tks_parser_begin_log (parser);
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

/* A line kept in parser->partial from the last feed goes on at @p: returns where the next line
 * starts, or NULL when the input ends before the line does. */
static const char *
feed_partial (TksParser  *parser,
              const char *p,
              const char *end)
{
  const char *nl = memchr (p, '\n', end - p);

  if (nl == NULL)
    {
      add_partial (parser, p, end - p);
      return NULL;
    }
  add_partial (parser, p, nl - p);
  end_partial (parser);
  return nl + 1;
}

/* The log's record lines come next, read on the hot path (a dump version 2 is read line by
 * line, and so is what follows an end line). */
static inline gboolean
in_fast_log (TksParser *parser)
{
  return parser->section == SECTION_LOG && !in_dump_v2 (parser) && parser->end_line == NULL;
}

/* The hot path: reads the log's compact lines by batches, else its record lines in the board's
 * layout, from @p on. Returns where reading goes on; *@batched when compact lines were read. */
static const char *
feed_log (TksParser  *parser,
          const char *p,
          const char *end,
          gboolean   *batched)
{
  const char *start = p;

  *batched = FALSE;
  if (parser->decoder != NULL && parser->batch_compact && *p == 'Z')
    {
      p = tks_parser_feed_compact (parser, p, end);
      *batched = p != start;
      if (*batched)
        return p;
    }
  p = tks_parser_feed_records (parser, p, end);
  if (p != start)
    {
      parser->junk = 0;
      tks_parser_check_size (parser);
    }
  return p;
}

/* A record line in another layout (@p to @nl, its LF), read on the hot path: TRUE when it is
 * one. */
static gboolean
feed_other_record (TksParser  *parser,
                   const char *p,
                   const char *nl)
{
  TksRecord record;
  const char *lend = nl;

  if (!in_fast_log (parser) || *p != 'F')
    return FALSE;
  if (lend > p && lend[-1] == '\r')
    lend--;
  if (G_UNLIKELY (!tks_parse_record_line (p, lend, &record)))
    return FALSE;
  parser->line_no++;
  parser->junk = 0;
  g_array_append_val (parser->current->records, record);
  return TRUE;
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

  if (parser->partial->len > 0 && (p = feed_partial (parser, p, end)) == NULL)
    return;

  while (p < end && parser->fatal == NULL && !parser->rest_ignored)
    {
      const char *nl;

      if (in_fast_log (parser))
        {
          gboolean batched;

          p = feed_log (parser, p, end, &batched);
          if (p == end || (batched && parser->fatal != NULL))
            return;
          if (batched)
            continue;
        }

      nl = memchr (p, '\n', end - p);
      if (nl == NULL)
        {
          add_partial (parser, p, end - p);
          return;
        }
      if (!feed_other_record (parser, p, nl))
        tks_parser_process_line (parser, p, nl);
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

/* The board refused a command the capture needs. */
static void
set_refusal_error (TksParser  *parser,
                   GError    **error)
{
  g_set_error (error, TKS_ERROR, TKS_ERROR_UNKNOWN_COMMAND,
               _("Line %u: %s"), parser->refusal_line, parser->refusal);
}

/* The last complete pair of a list and a log, or NULL with @error saying why there is none. */
static TksParsed *
take_pair (TksParser  *parser,
           GError    **error)
{
  if (parser->have_list && parser->have_log)
    return g_steal_pointer (&parser->current);
  if (parser->complete != NULL)
    return g_steal_pointer (&parser->complete);

  if (parser->refusal != NULL)
    set_refusal_error (parser, error);
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

/* The events that go with @result's log: a dump version 2's, or a saved capture's. */
static void
finish_events (TksParser *parser,
               TksParsed *result)
{
  g_autofree char *problem = NULL;

  /* A dump version 2's events go with its log only: a log read otherwise (a transcript's
   * threads_timestamps in the middle of a dump) leaves them out. */
  if (result->events != NULL &&
      tks_parsed_events_n_switches (result->events) != result->records->len)
    g_clear_pointer (&result->events, tks_parsed_events_free);
  /* A dump version 2's holes are placed by slots: the rebuild places them by records. */
  if (result->events != NULL)
    {
      tks_parsed_events_place_gaps (result->events, result->gaps, result->events->info.slots);
      return;
    }
  /* A saved capture's events, when they are those of its log. */
  if (parser->saved_events == NULL)
    return;
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
 * named line by line.) TRUE, with @error set, for such a reply. */
static gboolean
mostly_noise (TksParser  *parser,
              TksParsed  *result,
              GError    **error)
{
  if (parser->log_garbled == 0 || (parser->recording && result->records->len > 0) ||
      parser->log_garbled < (result->events != NULL ? result->events->entries->len
                                                    : result->records->len))
    return FALSE;
  g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE,
               _("The log is unreadable (%u bad lines, %u readable records): %s"),
               parser->log_garbled, result->records->len,
               result->warnings->len > 0 ? (char *) g_ptr_array_index (result->warnings, 0)
                                         : "");
  return TRUE;
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

  result = take_pair (parser, error);
  if (result == NULL)
    return NULL;

  if (result->live->len == 0 && result->deleted->len == 0)
    {
      if (parser->refusal != NULL)
        set_refusal_error (parser, error);
      else
        g_set_error_literal (error, TKS_ERROR, TKS_ERROR_PARSE,
                             _("The threads_list reply lists no thread"));
      tks_parsed_free (result);
      return NULL;
    }

  finish_events (parser, result);
  if (mostly_noise (parser, result, error))
    {
      tks_parsed_free (result);
      return NULL;
    }
  return result;
}

/* For the reader's tests (tks-parser-private.h). */
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
