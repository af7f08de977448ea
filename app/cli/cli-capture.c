/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gunixoutputstream.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "tks-capture.h"
#include "tks-cli.h"
#include "tks-error.h"
#include "tks-i18n.h"

/* The input is opened here, as the output is (tks_cli_open_output): its errors are said in
 * the same words, in the user's language. */
TksCapture *
tks_cli_load (const char  *path,
              const char  *source,
              GError     **error)
{
  if (g_strcmp0 (path, "-") == 0)
    return tks_capture_new_from_fd (STDIN_FILENO, _("standard input"), source, error);
  return tks_capture_new_from_file_full (path, source, error);
}

/* The capture of @path for @command, its warnings printed; NULL with the reason printed. */
TksCapture *
tks_cli_load_reported (const char *command,
                       const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = NULL;
  const char * const *warnings;
  guint n_warnings = 0;
  g_autofree char *base = g_path_get_basename (path);

  /* named as the exports name it: not translated */
  capture = tks_cli_load (path, strcmp (path, "-") == 0 ? "standard input" : base, &error);
  if (capture == NULL)
    {
      g_autofree char *message = tks_cli_escape (error->message);

      fprintf (stderr, "tickscope-cli %s: %s\n", command, message);
      return NULL;
    }

  warnings = tks_capture_get_warnings (capture, &n_warnings);
  for (guint i = 0; warnings != NULL && i < n_warnings; i++)
    {
      g_autofree char *prefix = g_strdup_printf ("tickscope-cli %s: ", command);

      tks_cli_print_warning (stderr, prefix, warnings[i]);
    }

  return g_steal_pointer (&capture);
}

/* Where the output goes: standard output for "-"; a device or a pipe as it is; a file
 * through a temporary file renamed over it, so that an existing file is never left half
 * written (and a device node is never replaced by a file). */
GOutputStream *
tks_cli_open_output (const char  *path,
                     GError     **error)
{
  g_autoptr(GFile) file = NULL;
  GStatBuf st;

  if (g_strcmp0 (path, "-") == 0)
    return g_unix_output_stream_new (STDOUT_FILENO, FALSE);

  if (g_stat (path, &st) == 0 && !S_ISREG (st.st_mode))
    {
      int fd = g_open (path, O_WRONLY | O_CLOEXEC, 0);

      if (fd < 0)
        {
          int saved = errno;

          g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Cannot open “%s”: %s"), path,
                       g_strerror (saved));
          return NULL;
        }
      return g_unix_output_stream_new (fd, TRUE);
    }

  file = g_file_new_for_commandline_arg (path);
  return G_OUTPUT_STREAM (g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, error));
}

/* Closes @out after a failed write: a file being replaced stays as it was. */
void
tks_cli_abandon_output (GOutputStream *out)
{
  g_autoptr(GCancellable) cancel = g_cancellable_new ();

  g_cancellable_cancel (cancel);
  g_output_stream_close (out, cancel, NULL);
}

gboolean
tks_cli_write_output (const char  *path,
                      const char  *data,
                      gsize        len,
                      GError     **error)
{
  g_autoptr(GOutputStream) out = tks_cli_open_output (path, error);
  gsize written;

  if (out == NULL)
    return FALSE;
  if (!g_output_stream_write_all (out, data, len, &written, NULL, error))
    {
      tks_cli_abandon_output (out);
      return FALSE;
    }
  return g_output_stream_close (out, NULL, error);
}

gboolean
tks_cli_number_option (const char *command,
                       const char *option,
                       const char *text,
                       const char *what,
                       double      min,
                       double      max,
                       gboolean    whole,
                       double     *value)
{
  char *end = NULL;
  double v;

  if (text == NULL)
    return TRUE;
  v = g_ascii_strtod (text, &end);
  /* (NaN fails every comparison: refused with infinities and the rest) */
  if (end == text || *end != '\0' || !(v >= min && v <= max) || (whole && v != floor (v)))
    {
      g_autofree char *shown = tks_cli_escape (text);
      char lo[G_ASCII_DTOSTR_BUF_SIZE], hi[G_ASCII_DTOSTR_BUF_SIZE];

      /* Translators: the subcommand, the option, what it counts ("a number of seconds"),
       * the lowest and highest values, then what was given */
      fprintf (stderr, _("tickscope-cli %s: --%s must be %s from %s to %s, not “%s”\n"),
               command, option, what, g_ascii_formatd (lo, sizeof lo, "%.16g", min),
               g_ascii_formatd (hi, sizeof hi, "%.16g", max), shown);
      return FALSE;
    }
  *value = v;
  return TRUE;
}

gboolean
tks_cli_baud_option (const char *command,
                     const char *text,
                     double     *value)
{
  return tks_cli_number_option (command, "baud", text, _("a number of bits per second"),
                                TKS_CLI_MIN_BAUD, TKS_CLI_MAX_BAUD, TRUE, value);
}

gboolean
tks_cli_wants_help (int    argc,
                    char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--") == 0)
        break;
      if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0)
        return TRUE;
    }
  return FALSE;
}

char *
tks_cli_escape (const char *text)
{
  return tks_i18n_escape (text);
}

int
tks_cli_finish (const char *command,
                int         status)
{
  int saved = 0;

  if (fflush (stdout) != 0)
    saved = errno;
  if (saved != 0 || ferror (stdout))
    {
      if (saved != 0)
        /* Translators: the subcommand, then the system's reason */
        fprintf (stderr, _("tickscope-cli %s: cannot write standard output: %s\n"), command,
                 g_strerror (saved));
      else
        fprintf (stderr, _("tickscope-cli %s: cannot write standard output\n"), command);
      return status == TKS_CLI_OK ? TKS_CLI_BAD : status;
    }
  return status;
}

void
tks_cli_print_warning (FILE       *out,
                       const char *prefix,
                       const char *warning)
{
  g_autofree char *shown = tks_cli_escape (warning);
  /* Translators: the word the capture's warnings carry (“line 8: warning: …”) */
  gboolean has_word = strstr (shown, "warning") != NULL || strstr (shown, _("warning")) != NULL;

  /* Every warning line carries the word, also the one-line summaries. */
  fprintf (out, "%s%s%s\n", prefix,
           /* Translators: what starts a warning that does not say it is one */
           has_word ? "" : _("warning: "), shown);
}

static const char *
thread_state (const TksThread *th)
{
  /* Translators: the states of a thread in the lanes of tickscope-cli info */
  if (th->flags & TKS_THREAD_NOT_LISTED)
    return _("not in list");
  if (th->flags & TKS_THREAD_EXITED_AFTER_LOG_END)
    return _("exited after the log ended");
  if (th->flags & TKS_THREAD_EXITED)
    return _("exited");
  if (th->flags & TKS_THREAD_DELETED)
    return _("deleted");
  if (th->flags & TKS_THREAD_RUNNING_AT_END)
    return _("running at end");
  return "";
}

/* The labels of tickscope-cli info, in one column as wide as the longest. */
enum
{
  FIELD_SOURCE,
  FIELD_THREADS,
  FIELD_RECORDS,
  FIELD_SPAN,
  FIELD_SWITCHES,
  FIELD_TRIGGER,
  FIELD_LOG_END,
  FIELD_NOT_RECORDED,
  FIELD_COUNTERS,
  FIELD_WARNINGS,
  N_FIELDS,
};

typedef struct
{
  const char *labels[N_FIELDS];
  int         width;
} Fields;

static void
fields_init (Fields *fields)
{
  fields->labels[FIELD_SOURCE] = _("Source:");
  fields->labels[FIELD_THREADS] = _("Threads:");
  fields->labels[FIELD_RECORDS] = _("Records:");
  fields->labels[FIELD_SPAN] = _("Span:");
  fields->labels[FIELD_SWITCHES] = _("Switches per tick:");
  fields->labels[FIELD_TRIGGER] = _("Trigger:");
  fields->labels[FIELD_LOG_END] = _("Log ended:");
  fields->labels[FIELD_NOT_RECORDED] = _("Not recorded:");
  fields->labels[FIELD_COUNTERS] = _("Board counters:");
  fields->labels[FIELD_WARNINGS] = _("Warnings:");
  fields->width = 19;
  for (guint i = 0; i < N_FIELDS; i++)
    fields->width = MAX (fields->width, (int) g_utf8_strlen (fields->labels[i], -1) + 1);
}

/* One line of @field: its label, padded, then the value. */
static void
print_field (const Fields *fields,
             guint         field,
             const char   *format,
             ...) G_GNUC_PRINTF (3, 4);

static void
print_field (const Fields *fields,
             guint         field,
             const char   *format,
             ...)
{
  const char *label = field < N_FIELDS ? fields->labels[field] : "";
  g_autofree char *value = NULL;
  va_list args;

  va_start (args, format);
  value = g_strdup_vprintf (format, args);
  va_end (args);
  tks_cli_print_label (label, fields->width);
  printf ("%s\n", value);
}

void
tks_cli_print_label (const char *text,
                     int         width)
{
  printf ("%s%*s", text, MAX (1, width - (int) g_utf8_strlen (text, -1)), "");
}

/* @text padded with spaces to @width characters (a width below zero: on the left). */
static char *
pad (const char *text,
     int         width)
{
  int missing = ABS (width) - (int) g_utf8_strlen (text, -1);

  if (missing <= 0)
    return g_strdup (text);
  return width < 0 ? g_strdup_printf ("%s%*s", text, missing, "")
                   : g_strdup_printf ("%*s%s", missing, "", text);
}

/* info's arguments: FALSE when there is nothing to read, with the exit status (its help asked
 * for, or a misuse) in @status. */
static gboolean
info_args (int    argc,
           char **argv,
           int   *status)
{
  if (tks_cli_wants_help (argc, argv))
    {
      printf ("%s", _("Usage: tickscope-cli info FILE\n\n"
                      "The threads, records, span, trigger, events and warnings of a capture or\n"
                      "of raw bytes received from a board's shell, then its lanes, highest\n"
                      "priority first. FILE may be “-” (standard input).\n"));
      *status = TKS_CLI_OK;
      return FALSE;
    }
  if (argc != 2 || argv[1][0] == '\0')
    {
      fprintf (stderr, _("Usage: tickscope-cli info FILE\n"));
      *status = TKS_CLI_MISUSE;
      return FALSE;
    }
  return TRUE;
}

int
tks_cli_info (int    argc,
              char **argv)
{
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  const char * const *warnings;
  const guint *lanes;
  guint n_lanes, n_warnings, n_logged = 0, n_exited = 0, n_before;
  double trigger, start, end, hz, log_end;
  TksLogEndReason log_end_reason;
  TksBoardCounters counters;
  Fields fields;
  /* Translators: the heads of the lanes' columns in tickscope-cli info: priority, thread
   * name, creation order, whether the thread is logged, runs, state */
  const char *heads[] = { C_("lanes", "prio"), C_("lanes", "name"), C_("lanes", "order"),
                          C_("lanes", "log"), C_("lanes", "runs"), C_("lanes", "state") };
  /* the columns' widths, at least the heads' (below zero: text on the left) */
  int widths[] = { 4, -24, 5, 4, 8 };
  int status;

  if (!info_args (argc, argv, &status))
    return status;

  capture = tks_cli_load (argv[1], NULL, &error);
  if (capture == NULL)
    {
      g_autofree char *message = tks_cli_escape (error->message);

      fprintf (stderr, "tickscope-cli: %s\n", message);
      return TKS_CLI_BAD;
    }
  fields_init (&fields);
  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      int least = (int) g_utf8_strlen (heads[i], -1);

      widths[i] = widths[i] < 0 ? MIN (widths[i], -least) : MAX (widths[i], least);
    }

  /* Threads that exited before the log began did not run in it: counted, not listed. */
  lanes = tks_capture_get_shown_lanes (capture, FALSE, &n_lanes);
  n_before = tks_capture_get_n_exited_before_log (capture);
  for (guint i = 0; i < n_lanes; i++)
    {
      const TksThread *th = tks_capture_get_thread (capture, lanes[i]);

      n_logged += (th->flags & TKS_THREAD_LOGGED) != 0;
      n_exited += (th->flags & TKS_THREAD_EXITED) != 0;
    }

  start = tks_capture_get_start (capture);
  end = tks_capture_get_end (capture);
  hz = tks_capture_get_tick_hz (capture);

  if (tks_capture_get_source (capture) != NULL)
    {
      g_autofree char *source = tks_cli_escape (tks_capture_get_source (capture));

      print_field (&fields, FIELD_SOURCE, "%s", source);
    }
  print_field (&fields, FIELD_THREADS,
               /* Translators: threads listed, then how many are logged and how many exited */
               _("%u (%u logged, %u exited during the capture)"),
               n_lanes, n_logged, n_exited);
  if (n_before > 0)
    print_field (&fields, N_FIELDS,
                 ngettext ("%u thread exited before the log began (not listed)",
                              "%u threads exited before the log began (not listed)", n_before),
                 n_before);
  print_field (&fields, FIELD_RECORDS, "%u", tks_capture_get_n_records (capture));
  print_field (&fields, FIELD_SPAN,
               /* Translators: first and last tick, ticks, seconds, then the tick rate */
               _("ticks %.0f to %.0f (%.0f ticks, %.3f s at %g Hz)"),
               start, end, end - start, (end - start) / hz, hz);
  print_field (&fields, FIELD_SWITCHES, _("max %u, mean %.2f"),
               tks_capture_get_max_switches_per_tick (capture),
               tks_capture_get_mean_switches_per_tick (capture));
  if (tks_capture_get_trigger (capture, &trigger))
    {
      /* set by an event, the trigger lies inside its tick: its fraction is shown */
      g_autofree char *tick = tks_tick_format (trigger);

      if (tks_capture_get_trigger_name (capture) != NULL)
        {
          g_autofree char *by = tks_cli_escape (tks_capture_get_trigger_name (capture));

          /* Translators: the tick, then the thread that set the trigger */
          print_field (&fields, FIELD_TRIGGER, _("tick %s, set by %s"), tick, by);
        }
      else
        print_field (&fields, FIELD_TRIGGER, _("tick %s"), tick);
    }
  else
    /* Translators: no trigger */
    print_field (&fields, FIELD_TRIGGER, "%s", C_("trigger", "none"));
  log_end = tks_capture_get_log_end (capture, &log_end_reason);
  if (log_end_reason == TKS_LOG_END_LONE_EXITS)
    print_field (&fields, FIELD_LOG_END,
                 /* Translators: the tick where the log ended, the thread exits recorded after
                  * it, then the capture's last tick */
                 ngettext ("tick %.3f, before the capture's end: only %u thread exit was "
                              "recorded after it (up to tick %.0f); which thread ran after it "
                              "is unknown",
                              "tick %.3f, before the capture's end: only %u thread exits were "
                              "recorded after it (up to tick %.0f); which thread ran after it "
                              "is unknown", tks_capture_get_n_exits_after_log_end (capture)),
                 log_end, tks_capture_get_n_exits_after_log_end (capture), end - 1);
  {
    guint n_gaps;
    const TksGap *gaps = tks_capture_get_gaps (capture, &n_gaps);

    for (guint g = 0; g < n_gaps; g++)
      {
        g_autofree char *dropped = g_strdup_printf ("%" G_GUINT64_FORMAT, gaps[g].dropped);

        print_field (&fields, g == 0 ? FIELD_NOT_RECORDED : N_FIELDS,
                     /* Translators: two ticks, a time in seconds, then a count of switches */
                     _("ticks %.3f to %.3f (%.3f s): %s switches the board dropped while it was "
                       "sending (a reply, or a recording faster than its link)"),
                     gaps[g].begin, gaps[g].end, (gaps[g].end - gaps[g].begin) / hz, dropped);
      }
  }
  tks_capture_get_board_counters (capture, &counters);
  if (counters.known)
    {
      g_autofree char *written = g_strdup_printf ("%" G_GUINT64_FORMAT, counters.records_written);
      g_autofree char *paused = g_strdup_printf ("%" G_GUINT64_FORMAT, counters.dropped_paused);
      g_autofree char *history = g_strdup_printf ("%" G_GUINT64_FORMAT, counters.dropped_history);

      print_field (&fields, FIELD_COUNTERS,
                   /* Translators: three counts kept by the board */
                   _("%s records written, %s switches dropped while paused, %s records "
                     "dropped for the history (counted since boot or run mode, not within this "
                     "capture)"), written, paused, history);
    }
  tks_cli_info_events (capture, fields.width);

  printf ("\n%s\n", _("Lanes, highest priority first:"));
  {
    g_autofree char *h0 = pad (heads[0], widths[0]);
    g_autofree char *h1 = pad (heads[1], widths[1]);
    g_autofree char *h2 = pad (heads[2], widths[2]);
    g_autofree char *h3 = pad (heads[3], widths[3]);
    g_autofree char *h4 = pad (heads[4], widths[4]);

    printf ("  %s  %s %s %s %s  %s\n", h0, h1, h2, h3, h4, heads[5]);
  }
  for (guint i = 0; i < n_lanes; i++)
    {
      const TksThread *th = tks_capture_get_thread (capture, lanes[i]);
      g_autofree char *name = tks_cli_escape (th->name);
      gboolean logged = (th->flags & TKS_THREAD_LOGGED) != 0;
      g_autofree char *prio = g_strdup_printf ("%*d", widths[0], th->priority);
      g_autofree char *shown_name = pad (name, widths[1]);
      g_autofree char *order = g_strdup_printf ("%*u", widths[2], th->index + 1);
      /* Translators: whether a thread is logged, in the lanes of tickscope-cli info */
      g_autofree char *log = pad (logged ? _("yes") : _("no"), widths[3]);
      g_autofree char *runs = g_strdup_printf ("%*u", widths[4], logged ? th->n_runs : th->n_marks);

      printf ("  %s  %s %s %s %s  %s\n", prio, shown_name, order, log, runs, thread_state (th));
    }

  warnings = tks_capture_get_warnings (capture, &n_warnings);
  printf ("\n");
  print_field (&fields, FIELD_WARNINGS, "%u", n_warnings);
  for (guint i = 0; i < n_warnings; i++)
    tks_cli_print_warning (stdout, "", warnings[i]);
  return TKS_CLI_OK;
}

int
tks_cli_convert (int    argc,
                 char **argv)
{
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) out = NULL;
  const char *input = NULL, *output = NULL;
  const char * const *warnings;
  guint n_warnings;

  if (tks_cli_wants_help (argc, argv))
    {
      printf ("%s", _("Usage: tickscope-cli convert TRANSCRIPT -o FILE.txt\n\n"
                      "Reads the raw bytes received from a board's shell (a terminal's log) and\n"
                      "writes them as a capture file. TRANSCRIPT and FILE.txt may be “-”.\n"));
      return TKS_CLI_OK;
    }
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "-o") == 0 && i + 1 < argc)
        output = argv[++i];
      else if (input == NULL && (argv[i][0] != '-' || strcmp (argv[i], "-") == 0))
        input = argv[i];
      else
        {
          fprintf (stderr, _("Usage: tickscope-cli convert TRANSCRIPT -o FILE.txt\n"));
          return TKS_CLI_MISUSE;
        }
    }
  if (input == NULL || output == NULL)
    {
      fprintf (stderr, _("Usage: tickscope-cli convert TRANSCRIPT -o FILE.txt\n"));
      return TKS_CLI_MISUSE;
    }

  capture = tks_cli_load (input, NULL, &error);
  if (capture == NULL)
    {
      g_autofree char *message = tks_cli_escape (error->message);

      fprintf (stderr, "tickscope-cli: %s\n", message);
      return TKS_CLI_BAD;
    }

  warnings = tks_capture_get_warnings (capture, &n_warnings);
  for (guint i = 0; i < n_warnings; i++)
    tks_cli_print_warning (stderr, "tickscope-cli convert: ", warnings[i]);

  out = g_string_new (NULL);
  tks_capture_write (capture, out, NULL, 0);
  if (!tks_cli_write_output (output, out->str, out->len, &error))
    {
      fprintf (stderr, "tickscope-cli: %s\n", error->message);
      return TKS_CLI_BAD;
    }
  return TKS_CLI_OK;
}
