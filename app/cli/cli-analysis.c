/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tks-capture.h"
#include "tks-cli.h"
#include "tks-error.h"
#include "tks-events.h"
#include "tks-export.h"
#include "tks-stats.h"

/* Parses the subcommand's options; on misuse prints the reason and returns FALSE. */
static gboolean
parse_options (const char    *command,
               const char    *parameter,
               const char    *summary,
               GOptionEntry  *entries,
               int           *argc,
               char        ***argv,
               gboolean      *help_shown)
{
  g_autoptr(GOptionContext) context = g_option_context_new (parameter);
  g_autoptr(GError) error = NULL;
  g_autofree char *prgname = g_strdup_printf ("tickscope-cli %s", command);

  *help_shown = FALSE;
  g_set_prgname (prgname);
  g_option_context_set_summary (context, summary);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_help_enabled (context, FALSE);

  for (int i = 1; i < *argc; i++)
    {
      if (strcmp ((*argv)[i], "--") == 0)
        break;
      if (strcmp ((*argv)[i], "--help") == 0 || strcmp ((*argv)[i], "-h") == 0)
        {
          g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);

          fputs (help, stdout);
          *help_shown = TRUE;
          return FALSE;
        }
    }

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      fprintf (stderr, "tickscope-cli %s: %s\n", command, error->message);
      return FALSE;
    }

  return TRUE;
}

static double
effective_tick_hz (TksCapture *capture,
                   double      option)
{
  return option > 0 ? option : tks_capture_get_tick_hz (capture);
}

/* Ticks of --from and --to: whole numbers of a double's precision. */
#define MAX_TICKS 9007199254740992.0
/* --bucket-us: from a nanosecond to 1000 s. */
#define MIN_BUCKET_US 0.001
#define MAX_BUCKET_US 1e9

/* A number option (@text, NULL when not given): a number of ticks, or for --tick-hz a sane
 * rate. FALSE with the reason printed. */
static gboolean
number_option (const char *command,
               const char *option,
               const char *text,
               gboolean    is_tick_hz,
               double     *value)
{
  if (is_tick_hz)
    return tks_cli_number_option (command, option, text, _("a number of hertz"),
                                  TKS_TICK_HZ_MIN, TKS_TICK_HZ_MAX, FALSE, value);
  return tks_cli_number_option (command, option, text, _("a number of ticks"), -MAX_TICKS,
                                MAX_TICKS, FALSE, value);
}

/* ------------------------------------------------------------------------------------------ */
/* stats                                                                                       */

static char *
thread_notes (const TksThread      *thread,
              const TksThreadStats *stats)
{
  GString *notes = g_string_new (NULL);

#define ADD_NOTE(...) G_STMT_START {                     \
    if (notes->len > 0)                                    \
      g_string_append (notes, ", ");                       \
    g_string_append_printf (notes, __VA_ARGS__);           \
  } G_STMT_END

  /* Translators: the notes on a thread in tickscope-cli stats; IN and OUT are the names of
   * the marks in the board's log */
  if ((thread->flags & TKS_THREAD_LOGGED) == 0)
    ADD_NOTE (_("not logged: %u IN, %u OUT marks"), stats->n_in_marks, stats->n_out_marks);
  if ((thread->flags & TKS_THREAD_NOT_LISTED) != 0)
    ADD_NOTE ("%s", _("not in the thread list"));
  if (stats->exits_in_range)
    /* Translators: a note on a thread: it exits within the range */
    ADD_NOTE ("%s", C_("thread note", "exits"));
  else if ((thread->flags & TKS_THREAD_EXITED) != 0)
    ADD_NOTE ("%s", _("exited"));
  if ((thread->flags & TKS_THREAD_RUNNING_AT_END) != 0)
    ADD_NOTE ("%s", _("running at the end"));

#undef ADD_NOTE

  return g_string_free (notes, FALSE);
}

/* The head of stats: the range, the threads, the busy time and the switches. */
static void
print_stats_head (const TksStatsTotals *totals,
                  double                tick_hz)
{
  /* Numbers as C writes them, whatever the language: scripts read them. */
  char from_buf[G_ASCII_DTOSTR_BUF_SIZE], to_buf[G_ASCII_DTOSTR_BUF_SIZE];
  char ms_buf[G_ASCII_DTOSTR_BUF_SIZE], hz_buf[G_ASCII_DTOSTR_BUF_SIZE];
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  /* Translators: the labels of tickscope-cli stats; they are aligned */
  const char *labels[] = { _("Range:"), _("Threads:"), _("Busy:"), _("Switches:") };
  double ms_per_tick = 1000.0 / tick_hz;
  int width = 11;

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    width = MAX (width, (int) g_utf8_strlen (labels[i], -1) + 1);
  tks_cli_print_label (labels[0], width);
  /* Translators: the range's start and end in ticks, its length in ms, then the tick rate */
  printf (_("%s to %s ticks (%s ms at %s Hz)\n"),
          g_ascii_formatd (from_buf, sizeof from_buf, "%.3f", totals->from),
          g_ascii_formatd (to_buf, sizeof to_buf, "%.3f", totals->to),
          g_ascii_formatd (ms_buf, sizeof ms_buf, "%.3f", totals->duration * ms_per_tick),
          g_ascii_formatd (hz_buf, sizeof hz_buf, "%g", tick_hz));
  tks_cli_print_label (labels[1], width);
  printf (_("%u (%u logged), %u activations, %u exits in range\n"),
          totals->n_threads, totals->n_logged_threads, totals->activations, totals->exits);
  tks_cli_print_label (labels[2], width);
  printf (_("%s ms (%s %% of the range covered by runs of logged threads)\n"),
          g_ascii_formatd (ms_buf, sizeof ms_buf, "%.3f", totals->busy_time * ms_per_tick),
          g_ascii_formatd (buf, sizeof buf, "%.1f", totals->covered_share));
  tks_cli_print_label (labels[3], width);
  printf (_("%u per tick at most, %s per tick on average (whole capture)\n\n"),
          totals->max_switches_per_tick,
          g_ascii_formatd (buf, sizeof buf, "%.2f", totals->mean_switches_per_tick));
}

/* A thread's row of the stats table. */
static void
add_thread_row (TksCliTable          *table,
                const TksThread      *thread,
                const TksThreadStats *s,
                double                ms_per_tick)
{
  gboolean logged = (thread->flags & TKS_THREAD_LOGGED) != 0;
  g_autofree char *name = NULL;
  g_autofree char *prio = NULL;
  g_autofree char *notes = NULL;

  name = thread->name != NULL && thread->name[0] != '\0'
         ? tks_cli_escape (thread->name)
         : g_strdup_printf (_("thread %d"), thread->number);
  prio = (thread->flags & TKS_THREAD_NOT_LISTED) != 0
         ? g_strdup ("?") : g_strdup_printf ("%d", thread->priority);
  notes = thread_notes (thread, s);

  tks_cli_table_add (table, name);
  tks_cli_table_add (table, prio);
  if (logged)
    {
      tks_cli_table_add_number (table, "%.3f", s->run_time * ms_per_tick);
      tks_cli_table_add_number (table, "%.2f", s->share);
      tks_cli_table_add_uint (table, s->activations);
      tks_cli_table_add_number (table, "%.3f", s->min_run * ms_per_tick);
      tks_cli_table_add_number (table, "%.3f", s->mean_run * ms_per_tick);
      tks_cli_table_add_number (table, "%.3f", s->max_run * ms_per_tick);
      tks_cli_table_add_number (table, "%.3f", s->longest_wait * ms_per_tick);
    }
  else
    {
      for (guint c = 0; c < 7; c++)
        tks_cli_table_add (table, "-");
    }
  tks_cli_table_add (table, notes);
}

int
tks_cli_stats (int    argc,
               char **argv)
{
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GArray) stats = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCliTable) table = NULL;
  g_auto(GStrv) files = NULL;
  TksStatsTotals totals;
  double from = NAN;
  double to = NAN;
  double tick_hz = 0;
  g_autofree char *from_text = NULL;
  g_autofree char *to_text = NULL;
  g_autofree char *tick_hz_text = NULL;
  g_autofree char *bucket_text = NULL;
  gboolean histogram = FALSE;
  g_auto(GStrv) periods = NULL;
  g_autofree gint64 *deadlines = NULL;
  double bucket_us = 0;
  gboolean help_shown;
  const guint *lanes;
  guint n_lanes = 0;
  GOptionEntry entries[] = {
    { "from", 0, 0, G_OPTION_ARG_STRING, &from_text, N_("Start of the range (ticks; default: start of the capture)"), "T" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to_text, N_("End of the range (ticks; default: end of the capture)"), "T" },
    { "tick-hz", 0, 0, G_OPTION_ARG_STRING, &tick_hz_text, N_("Ticks per second (default: the capture's, else 1000)"), "HZ" },
    { "histogram", 0, 0, G_OPTION_ARG_NONE, &histogram, N_("With events: a wake-up latency histogram per thread"), NULL },
    { "bucket-us", 0, 0, G_OPTION_ARG_STRING, &bucket_text, N_("The histogram's bucket width (µs; default: about 20 buckets)"), "US" },
    { "period", 0, 0, G_OPTION_ARG_STRING_ARRAY, &periods, N_("With wake-ups: count deadline misses of THREAD against DURATION (10ms, 500us; repeatable)"), "THREAD=DURATION" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    { NULL }
  };

  if (!parse_options ("stats", "FILE",
                      _("Per-thread run time, share of time, activations, run lengths and longest\n"
                        "wait over the capture or a range of it. FILE may be “-” (standard input)."),
                      entries, &argc, &argv, &help_shown))
    return help_shown ? TKS_CLI_OK : TKS_CLI_MISUSE;

  if (files == NULL || files[0] == NULL || files[1] != NULL)
    {
      fprintf (stderr, _("tickscope-cli stats: give exactly one FILE (or “-”)\n"));
      return TKS_CLI_MISUSE;
    }
  if (!number_option ("stats", "from", from_text, FALSE, &from) ||
      !number_option ("stats", "to", to_text, FALSE, &to) ||
      !number_option ("stats", "tick-hz", tick_hz_text, TRUE, &tick_hz) ||
      !tks_cli_number_option ("stats", "bucket-us", bucket_text, _("a number of microseconds"),
                              MIN_BUCKET_US, MAX_BUCKET_US, FALSE, &bucket_us))
    return TKS_CLI_MISUSE;

  capture = tks_cli_load_reported ("stats", files[0]);
  if (capture == NULL)
    return TKS_CLI_BAD;
  if (!tks_cli_parse_periods (capture, (const char * const *) periods, &deadlines))
    return TKS_CLI_MISUSE;

  stats = tks_stats_compute (capture, from, to, &totals, &error);
  if (stats == NULL)
    {
      fprintf (stderr, "tickscope-cli stats: %s\n", error->message);
      return g_error_matches (error, TKS_ERROR, TKS_ERROR_USAGE) ? TKS_CLI_MISUSE : TKS_CLI_BAD;
    }

  tick_hz = effective_tick_hz (capture, tick_hz);
  print_stats_head (&totals, tick_hz);

  /* Translators: the heads of the columns of tickscope-cli stats */
  table = tks_cli_table_new ("lrrrrrrrrl", _("Thread"), _("Prio"), _("Run ms"), _("Share %"),
                             _("Activations"), _("Min ms"), _("Mean ms"), _("Max ms"),
                             _("Max wait ms"), _("Notes"), NULL);

  /* Rows in lane order (priority, highest first), like the timeline; threads that exited
   * before the log began did not run in it and have none. */
  lanes = tks_capture_get_shown_lanes (capture, FALSE, &n_lanes);
  for (guint l = 0; l < n_lanes; l++)
    {
      guint index = lanes[l] < stats->len ? lanes[l] : l;

      add_thread_row (table, tks_capture_get_thread (capture, index),
                      &g_array_index (stats, TksThreadStats, index), 1000.0 / tick_hz);
    }

  tks_cli_table_print (table, stdout);
  tks_cli_stats_events (capture, totals.from, totals.to, histogram, bucket_us);
  if (tks_capture_get_events (capture) != NULL || periods != NULL)
    tks_cli_stats_periods (capture, deadlines);

  return TKS_CLI_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* export                                                                                      */

/* Several files, each complete before any replaces what was there. */
static int
export_files (TksCapture      *capture,
              TksExportFormat  format,
              double           tick_hz,
              const char      *output)
{
  g_autoptr(GError) error = NULL;

  if (!tks_export_to_file (capture, format, tick_hz, TKS_EXPORT_UNIT_TICKS, output, NULL, &error))
    {
      g_autofree char *message = tks_cli_escape (error->message);

      fprintf (stderr, "tickscope-cli export: %s\n", message);
      return g_error_matches (error, TKS_ERROR, TKS_ERROR_USAGE) ? TKS_CLI_MISUSE : TKS_CLI_BAD;
    }
  return TKS_CLI_OK;
}

/* The arguments make sense (@format, @tick_hz, @unit: as read): else a message and FALSE. */
static gboolean
check_export_args (char * const     files[],
                   const char      *format_name,
                   const char      *tick_hz_text,
                   const char      *unit_name,
                   const char      *output,
                   TksExportFormat *format,
                   double          *tick_hz,
                   TksExportUnit   *unit)
{
  if (files == NULL || files[0] == NULL || files[1] != NULL)
    {
      fprintf (stderr, _("tickscope-cli export: give exactly one FILE (or “-”)\n"));
      return FALSE;
    }
  if (format_name == NULL)
    {
      fprintf (stderr, _("tickscope-cli export: --format is required: perfetto, csv, ftrace, "
                         "paraver or vcd\n"));
      return FALSE;
    }
  if (!tks_export_format_from_string (format_name, format))
    {
      g_autofree char *shown = tks_cli_escape (format_name);

      fprintf (stderr, _("tickscope-cli export: unknown format “%s”: use perfetto, csv, ftrace, "
                         "paraver or vcd\n"), shown);
      return FALSE;
    }
  if (!number_option ("export", "tick-hz", tick_hz_text, TRUE, tick_hz))
    return FALSE;
  if (unit_name != NULL && !tks_export_unit_from_string (unit_name, unit))
    {
      g_autofree char *shown = tks_cli_escape (unit_name);

      fprintf (stderr, _("tickscope-cli export: unknown unit “%s”: use s, ms, us or ns\n"), shown);
      return FALSE;
    }

  if (*format == TKS_EXPORT_PARAVER && (output == NULL || strcmp (output, "-") == 0))
    {
      fprintf (stderr, _("tickscope-cli export: a Paraver trace is three files: give -o NAME "
                         "(writes NAME.prv, NAME.pcf and NAME.row)\n"));
      return FALSE;
    }
  return TRUE;
}

int
tks_cli_export (int    argc,
                char **argv)
{
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GOutputStream) out = NULL;
  g_auto(GStrv) files = NULL;
  g_autofree char *format_name = NULL;
  g_autofree char *output = NULL;
  g_autofree char *tick_hz_text = NULL;
  g_autofree char *unit_name = NULL;
  TksExportFormat format;
  TksExportUnit unit = TKS_EXPORT_UNIT_TICKS;
  double tick_hz = 0;
  gboolean help_shown;
  GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name, N_("perfetto, csv, ftrace, paraver or vcd (see above)"), "FORMAT" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Where to write (default: standard output, also “-”; paraver: NAME or NAME.prv)"), "OUT" },
    { "tick-hz", 0, 0, G_OPTION_ARG_STRING, &tick_hz_text, N_("Ticks per second for real time units (default: the capture's, else 1000)"), "HZ" },
    { "unit", 0, 0, G_OPTION_ARG_STRING, &unit_name, N_("CSV times in s, ms, us or ns (default: ticks)"), "UNIT" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    { NULL }
  };

  if (!parse_options ("export", "FILE --format perfetto|csv|ftrace|paraver|vcd [-o OUT]",
                      _("Exports a capture for other tools. FILE may be “-” (standard input).\n"
                        "\n"
                        "Formats:\n"
                        "  perfetto  Chrome/Perfetto trace-event JSON (ui.perfetto.dev)\n"
                        "  csv       everything the timeline draws, a row each (--unit for its times)\n"
                        "  ftrace    Linux sched_switch text (Trace Compass, KernelShark)\n"
                        "  paraver   Paraver trace: OUT.prv, OUT.pcf and OUT.row (-o required)\n"
                        "  vcd       value change dump for GTKWave and PulseView"),
                      entries, &argc, &argv, &help_shown))
    return help_shown ? TKS_CLI_OK : TKS_CLI_MISUSE;

  if (!check_export_args (files, format_name, tick_hz_text, unit_name, output, &format,
                          &tick_hz, &unit))
    return TKS_CLI_MISUSE;

  capture = tks_cli_load_reported ("export", files[0]);
  if (capture == NULL)
    return TKS_CLI_BAD;

  if (format == TKS_EXPORT_PARAVER)
    return export_files (capture, format, tick_hz, output);

  /* Written as it is made, in chunks: memory does not grow with the export. */
  out = tks_cli_open_output (output != NULL ? output : "-", &error);
  if (out == NULL ||
      !tks_export_to_stream_in_unit (capture, format, tick_hz, unit, out, NULL, &error) ||
      !g_output_stream_close (out, NULL, &error))
    {
      if (out != NULL)
        tks_cli_abandon_output (out);
      fprintf (stderr, "tickscope-cli export: %s\n", error->message);
      return g_error_matches (error, TKS_ERROR, TKS_ERROR_USAGE) ? TKS_CLI_MISUSE : TKS_CLI_BAD;
    }

  return TKS_CLI_OK;
}
