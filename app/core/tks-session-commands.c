/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a session's worker says to the board: meeting its shell, one-line commands, and a
 * fetch (a dump, or a list and a log), each reply bounded and read as it arrives. */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "tks-error.h"
#include "tks-parser.h"
#include "tks-session.h"
#include "tks-session-private.h"
#include "tks-shell.h"
#include "tks-transport.h"


/* Bounds the reply being read by a log of @records records (0: unknown, the most any board's
 * log is taken to hold), plus @extra bytes for what comes with it. */
static void
set_log_limit (Job   *job,
               guint  records,
               gsize  extra)
{
  gboolean known = records > 0 && records <= MAX_EXPECTED_LOG;

  records = known ? records : MAX_EXPECTED_LOG;
  /* a known size gets twice its bytes; the largest any board is taken to have, its own */
  job->limit.max_bytes = (known ? 2 : 1) * (gsize) records * RECORD_BYTES + extra
                         + REPLY_MARGIN_BYTES;
  g_free (job->limit_bound);
  job->limit_bound = known
    /* Translators: why a reply cannot be longer, in “The reply to “%s” passed %s (%u bytes
     * read; %s): stopped reading” */
    ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "the log holds at most %u record",
                                    "the log holds at most %u records", records), records)
    /* Translators: why a reply cannot be longer, as above */
    : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                    "no board's log is taken to hold more than %u record",
                                    "no board's log is taken to hold more than %u records",
                                    records), records);
  job->limit.bound = job->limit_bound;
}

static void
set_limit (Job        *job,
           gsize       max_bytes,
           const char *bound)
{
  job->limit.max_bytes = max_bytes;
  g_free (job->limit_bound);
  job->limit_bound = g_strdup (bound);
  job->limit.bound = job->limit_bound;
}

/* Called by the shell in the worker after every chunk. */
static void
fetch_progress (guint64  bytes,
                guint    lines,
                gpointer user_data)
{
  Job *job = user_data;

  guint announced = tks_parser_get_announced_records (job->parser);

  job->bytes = job->bytes_before + bytes;
  job->records = tks_parser_get_n_records (job->parser);
  if (announced > 0 && announced != job->expected_records)
    {
      /* The dump's header says how many records follow: the rest of the way is known. */
      job->expected_records = announced;
      job->expected_bytes = job->bytes + (gsize) (announced - MIN (job->records, announced)) * RECORD_BYTES
                            + DUMP_END_BYTES;
      set_log_limit (job, announced, LIST_MAX_BYTES);
    }
  if (g_get_monotonic_time () - job->last_progress_us >= PROGRESS_INTERVAL_US)
    tks_session_job_progress (job, FALSE);
}

/* Worker */

static gboolean
job_failed (Job    *job,
            GError *error)
{
  /* The link itself is gone: no later command can work. */
  if (g_error_matches (error, TKS_ERROR, TKS_ERROR_DISCONNECTED))
    job->link_lost = TRUE;
  job->error = error;
  return FALSE;
}

static void meet_board (Link         *link,
                        Job          *job,
                        GCancellable *cancellable);

void
tks_session_run_connect (Link         *link,
                         Job          *job,
                         GCancellable *cancellable)
{
  GError *error = NULL;
  TksTransport *transport;

  transport = tks_transport_open (link->address, &link->options, cancellable, &error);
  if (transport == NULL)
    {
      job_failed (job, error);
      return;
    }
  link->shell = tks_shell_new (transport);
  tks_shell_set_timeout (link->shell, link->timeout_ms);
  tks_shell_set_slow_paste (link->shell, link->slow_paste);
  meet_board (link, job, cancellable);
}

/* Brings the board's shell to a prompt and asks what it offers. */
static void
meet_board (Link         *link,
            Job          *job,
            GCancellable *cancellable)
{
  /* Translators: why a reply cannot be longer, as above */
  TksShellLimit limit = { HELP_MAX_BYTES, _("a help lists a few dozen commands"), FALSE };
  GError *error = NULL;
  g_autofree char *help = NULL;

  if (!tks_shell_sync (link->shell, cancellable, &error))
    {
      job_failed (job, error);
      return;
    }

  help = tks_shell_command_limited (link->shell,
                                    &(TksShellRequest) { "help", 512, &limit, NULL, NULL, NULL },
                                    NULL, cancellable, &error);
  if (help == NULL)
    {
      if (!g_error_matches (error, TKS_ERROR, TKS_ERROR_UNKNOWN_COMMAND))
        {
          job_failed (job, error);
          return;
        }
      g_clear_error (&error);
      link->commands = g_new0 (char *, 1);
    }
  else
    link->commands = tks_shell_parse_help (help);

  link->has_dump = g_strv_contains ((const char * const *) link->commands, "threads_dump");
  link->has_compact = g_strv_contains ((const char * const *) link->commands, "threads_dump_compact");
  g_free (link->description);
  /* Translators: the link (“/dev/ttyACM0 at 115200 baud”, “the simulated board”); shown in
   * the viewer's header, and kept as the source of the captures fetched through it */
  link->description = g_strdup_printf (_("ChibiOS shell on %s"),
                                       tks_transport_get_description (tks_shell_get_transport (link->shell)));
}

static void
feed_parser (const char *data,
             gsize       len,
             gpointer    user_data)
{
  Job *job = user_data;

  tks_parser_feed (job->parser, data, len);
}

static void
transcript_add (GString    *transcript,
                const char *command,
                const char *reply,
                gsize       len)
{
  g_string_append (transcript, command);
  g_string_append (transcript, "\r\n");
  g_string_append_len (transcript, reply, (gssize) len);
  g_string_append (transcript, TKS_SHELL_PROMPT);
}

/* Runs @command for a fetch, bounded by the job's limit; with @section, its reply goes into
 * the job's parser as it arrives (the parser then holds it all; on failure it is to be
 * dropped). The reply joins the job's transcript. */
static char *
checked_command (Link             *link,
                 Job              *job,
                 const char       *command,
                 gsize             expected_bytes,
                 TksParserSection  section,
                 gsize            *len,
                 GCancellable     *cancellable)
{
  GError *error = NULL;
  TksShellRequest request;
  char *reply;

  if (section != TKS_PARSER_SECTION_NONE)
    tks_parser_begin_reply (job->parser, section);
  /* A list or a log has no end of its own: a prompt ends it only once the board answers an
   * empty line after it with a bare prompt (text of the reply that came late is kept, and
   * shows as a prompt inside it). A dump's last line says it is whole. */
  job->limit.confirm_end = section == TKS_PARSER_SECTION_LIST || section == TKS_PARSER_SECTION_LOG;
  request = (TksShellRequest) { command, expected_bytes, &job->limit, fetch_progress,
                                section != TKS_PARSER_SECTION_NONE ? feed_parser : NULL, job };
  reply = tks_shell_command_limited (link->shell, &request, len, cancellable, &error);
  if (reply == NULL)
    {
      gboolean too_long = g_error_matches (error, TKS_ERROR, TKS_ERROR_TOO_LONG);

      job_failed (job, error);
      if (too_long)
        tks_session_save_failed_reply (link, job, command);
      return NULL;
    }
  if (section != TKS_PARSER_SECTION_NONE)
    tks_parser_feed (job->parser, "\n", 1);
  transcript_add (job->transcript, command, reply, *len);
  return reply;
}

/* The capture @parsed gives (taken; NULL gives NULL), named for the link it came through
 * whatever the bytes say. */
static TksCapture *
link_capture (Link      *link,
              TksParsed *parsed)
{
  if (parsed == NULL)
    return NULL;
  g_free (parsed->source);
  parsed->source = g_strdup (link->description != NULL ? link->description : link->address);
  return tks_capture_new_from_parsed (parsed);
}

/* The capture the job's parser read, or NULL with @error set. */
static TksCapture *
finish_parser (Job     *job,
               GError **error)
{
  TksParser *parser = g_steal_pointer (&job->parser);
  TksParsed *parsed = tks_parser_finish (parser, error);

  tks_parser_free (parser);
  return link_capture (job->link, parsed);
}

void
tks_session_run_simple (Link         *link,
                        Job          *job,
                        GCancellable *cancellable)
{
  GError *error = NULL;
  const char *command = job->kind == JOB_TRIGGER ? "threads_timestamps_trigger"
                        : job->kind == JOB_RUN ? "threads_timestamps_run"
                        : job->command;
  /* Translators: why a reply cannot be longer, as above */
  TksShellLimit limit = { LINE_MAX_BYTES, _("the board answers it with one line"), FALSE };
  TksShellRequest request;
  char *reply;

  if (job->kind == JOB_COMMAND && g_str_has_prefix (command, "threads_"))
    /* the log library's commands: as much as the largest log and its list */
    limit = (TksShellLimit) { (gsize) MAX_EXPECTED_LOG * RECORD_BYTES + LIST_MAX_BYTES + REPLY_MARGIN_BYTES,
                              _("no board's log is taken to hold more than 262144 records"),
                              FALSE };
  else if (job->kind == JOB_COMMAND)
    limit = (TksShellLimit) { COMMAND_MAX_BYTES, _("no other shell command prints more"), FALSE };
  request = (TksShellRequest) { command, job->kind == JOB_COMMAND ? 4096 : 0, &limit,
                                NULL, NULL, NULL };
  reply = tks_shell_command_limited (link->shell, &request, NULL, cancellable, &error);
  if (reply == NULL)
    {
      job_failed (job, error);
      return;
    }
  if (job->kind == JOB_COMMAND)
    {
      job->result = reply;
      job->result_free = g_free;
      return;
    }

  g_strstrip (reply);
  if (job->kind == JOB_TRIGGER)
    {
      if (!g_str_has_prefix (reply, "Trigger set"))
        {
          job->error = g_error_new (TKS_ERROR, TKS_ERROR_PARSE,
                                    _("The board did not set the trigger; it answered “%s”"),
                                    reply);
          g_free (reply);
          return;
        }
      job->result = reply;
      job->result_free = g_free;
      return;
    }
  if (strstr (reply, "Run mode") == NULL)
    job->error = g_error_new (TKS_ERROR, TKS_ERROR_PARSE,
                              _("The board did not restart logging; it answered “%s”"), reply);
  g_free (reply);
}

typedef enum
{
  DAMAGE_NONE,
  DAMAGE_BYTES,   /* bytes no reply holds: the lines holding them are unreadable */
  DAMAGE_PROMPT,  /* a prompt inside the reply: where it really ended is not known */
} Damage;

/* How a reply was damaged on the way: a prompt at the start of a line inside it (the board
 * went on after what looked like the reply's end), or a byte no reply holds (NUL and other
 * control characters). @how names the first such place. */
static Damage
reply_damage (const char  *command,
              const char  *reply,
              gsize        len,
              char       **how)
{
  Damage found = DAMAGE_NONE;
  guint line = 1;

  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) reply[i];

      if ((i == 0 || reply[i - 1] == '\n') && len - i >= strlen (TKS_SHELL_PROMPT)
          && memcmp (reply + i, TKS_SHELL_PROMPT, strlen (TKS_SHELL_PROMPT)) == 0)
        {
          g_free (*how);
          /* Translators: how a reply is damaged: the shell command, then a line number */
          *how = g_strdup_printf (_("the reply to “%s” holds a prompt “ch> ” at the start of "
                                    "its line %u, and goes on after it"), command, line);
          return DAMAGE_PROMPT;
        }
      if (c == '\n')
        line++;
      else if (found == DAMAGE_NONE && ((c < 0x20 && c != '\r' && c != '\t') || c == 0x7f))
        {
          found = DAMAGE_BYTES;
          /* Translators: how a reply is damaged: the shell command, a byte, a line number */
          *how = g_strdup_printf (_("the reply to “%s” holds the byte 0x%02x on its line %u"),
                                  command, c, line);
        }
    }
  return found;
}

/* A fetch by one consistent snapshot: header, list and log taken together, with a checksum; in
 * the compact encoding when the board has it (about 20 times fewer bytes). NULL when the job
 * failed. */
static TksCapture *
fetch_dump (Link         *link,
            Job          *job,
            guint         expected,
            GCancellable *cancellable)
{
  const char *command = link->has_compact ? "threads_dump_compact" : "threads_dump";
  g_autofree char *dump = NULL;
  g_autofree char *how = NULL;
  TksCapture *capture;
  GError *error = NULL;
  gsize dump_len = 0;

  if (link->has_compact)
    job->expected_bytes = 64 * LIST_LINE_BYTES + (gsize) expected * COMPACT_RECORD_BYTES;
  set_log_limit (job, link->log_size, LIST_MAX_BYTES);
  dump = checked_command (link, job, command, job->expected_bytes + 1024,
                          TKS_PARSER_SECTION_DUMP, &dump_len, cancellable);
  if (dump == NULL)
    return NULL;

  capture = finish_parser (job, &error);
  if (capture != NULL && (tks_capture_get_damage (capture) != NULL ||
                          reply_damage (command, dump, dump_len, &how) != DAMAGE_NONE))
    {
      /* A live fetch can simply be repeated: a damaged one is an error, not a capture. */
      /* Translators: how the dump is damaged follows */
      error = g_error_new (TKS_ERROR, TKS_ERROR_PARSE, _("The board's dump arrived damaged: %s"),
                           tks_capture_get_damage (capture) != NULL
                           ? tks_capture_get_damage (capture) : how);
      g_clear_object (&capture);
    }
  if (capture == NULL)
    {
      job->error = error;
      tks_session_save_raw (link, job, job->transcript);
      return NULL;
    }

  if (tks_capture_get_log_size (capture) > 0)
    link->log_size = MIN (tks_capture_get_log_size (capture), MAX_EXPECTED_LOG);
  return capture;
}

/* How the list and the log arrived (the worse of the two, or the lines the parser could not
 * read), @how saying where. */
static Damage
list_and_log_damage (Job         *job,
                     const char  *list,
                     gsize        list_len,
                     const char  *log,
                     gsize        log_len,
                     char       **how)
{
  g_autofree char *log_how = NULL;
  Damage damage = reply_damage ("threads_list", list, list_len, how);
  Damage log_damage = reply_damage ("threads_timestamps", log, log_len, &log_how);

  if (log_damage > damage)
    {
      damage = log_damage;
      g_free (*how);
      *how = g_steal_pointer (&log_how);
    }
  if (tks_parser_get_n_unreadable (job->parser) > 0 && damage == DAMAGE_NONE)
    {
      guint n = tks_parser_get_n_unreadable (job->parser);

      damage = DAMAGE_BYTES;
      /* Translators: how a reply is damaged */
      *how = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "%u line of the replies is unreadable",
                                           "%u lines of the replies are unreadable", n), n);
    }
  return damage;
}

/* A fetch by the list, then the log (the board runs on in between: docs/rebuild.md). NULL
 * when the job failed; @damage says how the replies arrived. */
static TksCapture *
fetch_list_and_log (Link         *link,
                    Job          *job,
                    guint         expected,
                    Damage       *damage,
                    GCancellable *cancellable)
{
  g_autofree char *list = NULL;
  g_autofree char *log = NULL;
  g_autofree char *how = NULL;
  gsize list_len = 0, log_len = 0;
  TksCapture *capture;
  GError *error = NULL;

  /* Translators: why a reply cannot be longer, as above */
  set_limit (job, LIST_MAX_BYTES, _("a thread list is taken to hold at most 1024 threads"));
  list = checked_command (link, job, "threads_list", 64 * LIST_LINE_BYTES,
                          TKS_PARSER_SECTION_LIST, &list_len, cancellable);
  if (list == NULL)
    return NULL;
  job->bytes_before = job->bytes;
  set_log_limit (job, link->log_size, 0);
  log = checked_command (link, job, "threads_timestamps", (gsize) expected * RECORD_BYTES + 64,
                         TKS_PARSER_SECTION_LOG, &log_len, cancellable);
  if (log == NULL)
    return NULL;

  *damage = list_and_log_damage (job, list, list_len, log, log_len, &how);
  if (*damage == DAMAGE_PROMPT)
    {
      /* Cut in two by what looks like its end: what belongs to it cannot be told. */
      job->error = g_error_new (TKS_ERROR, TKS_ERROR_PARSE,
                                /* Translators: how the reply is damaged follows */
                                _("The board's reply arrived damaged: %s. Fetch again."),
                                how);
      tks_session_save_raw (link, job, job->transcript);
      return NULL;
    }
  if (*damage != DAMAGE_NONE)
    {
      /* The capture, and its warnings, from the bytes as received: the lines the warnings
       * name are lines of those bytes, kept next to the capture. */
      g_clear_pointer (&job->parser, tks_parser_free);
      capture = link_capture (link, tks_parse_text (job->transcript->str,
                                                    job->transcript->len, &error));
    }
  else
    capture = finish_parser (job, &error);
  if (capture == NULL)
    {
      job->error = error;
      tks_session_save_raw (link, job, job->transcript);
      return NULL;
    }
  if (*damage != DAMAGE_NONE)
    g_debug ("Fetched with damage: %s", how);
  return capture;
}

void
tks_session_run_fetch (Link         *link,
                       Job          *job,
                       GCancellable *cancellable)
{
  guint expected = link->log_size ? link->log_size : MAX (link->expected_records, DEFAULT_LOG_SIZE);
  g_autoptr(TksCapture) capture = NULL;
  Damage damage = DAMAGE_NONE;

  job->start_us = job->last_progress_us = g_get_monotonic_time ();
  job->expected_records = expected;
  job->expected_bytes = 64 * LIST_LINE_BYTES + (gsize) expected * RECORD_BYTES;
  job->parser = tks_parser_new ();
  job->transcript = g_string_new (NULL);
  tks_parser_reserve (job->parser, job->expected_bytes);

  if (link->has_dump && link->prefer_snapshot)
    capture = fetch_dump (link, job, expected, cancellable);
  else
    capture = fetch_list_and_log (link, job, expected, &damage, cancellable);
  if (capture == NULL)
    return;

  link->expected_records = MIN (MAX (link->expected_records, tks_capture_get_n_records (capture)),
                                MAX_EXPECTED_LOG);

  tks_session_keep_in_history (link, job, capture, damage != DAMAGE_NONE ? job->transcript : NULL);

  job->records = tks_capture_get_n_records (capture);
  tks_session_job_progress (job, TRUE);
  job->result = g_steal_pointer (&capture);
  job->result_free = g_object_unref;
}

gpointer
tks_session_run_on_shell (TksShell        *shell,
                          TksSessionStep   step,
                          gboolean         use_dump,
                          GError         **error)
{
  Link link = { 0 };
  Job job = { 0 };
  gpointer result = NULL;

  link.shell = shell;
  link.address = (char *) "shell";
  link.has_dump = use_dump;
  link.prefer_snapshot = TRUE;
  link.description = g_strdup ("a shell");
  job.link = &link;
  switch (step)
    {
    case TKS_SESSION_STEP_CONNECT:
      job.kind = JOB_CONNECT;
      meet_board (&link, &job, NULL);
      if (job.error == NULL)
        result = g_steal_pointer (&link.commands);
      break;
    case TKS_SESSION_STEP_FETCH:
      job.kind = JOB_FETCH;
      tks_session_run_fetch (&link, &job, NULL);
      break;
    case TKS_SESSION_STEP_TRIGGER:
    case TKS_SESSION_STEP_RUN:
      job.kind = step == TKS_SESSION_STEP_TRIGGER ? JOB_TRIGGER : JOB_RUN;
      tks_session_run_simple (&link, &job, NULL);
      if (job.error == NULL && step == TKS_SESSION_STEP_RUN)
        result = g_strdup ("Run mode");
      break;
    default:
      g_assert_not_reached ();
    }
  if (job.result != NULL)
    result = g_steal_pointer (&job.result);
  if (job.error != NULL)
    g_propagate_error (error, g_steal_pointer (&job.error));
  g_strfreev (link.commands);
  g_free (link.description);
  g_free (job.saved_path);
  g_free (job.raw_path);
  g_free (job.limit_bound);
  if (job.transcript != NULL)
    g_string_free (job.transcript, TRUE);
  g_clear_pointer (&job.parser, tks_parser_free);
  return result;
}
