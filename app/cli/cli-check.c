/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tickscope-cli check: a capture against timing budgets (tks-budget.h), a table on standard
 * output and, for CI servers, a JUnit XML report. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tks-budget.h"
#include "tks-cli.h"
#include "tks-error.h"
#include "tks-profile.h"

/* @pos (ticks) as the ruler shows it: seconds from its origin, to the microsecond. */
static char *
format_moment (TksCapture *capture,
               double      pos)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (pos))
    return g_strdup ("-");
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.6f",
                                    (pos - tks_capture_ruler_origin (capture)) / tks_capture_get_tick_hz (capture)));
}

static char *
format_value (const TksBudget *b,
              double           value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (value))
    return g_strdup ("-");
  if (b->kind == TKS_BUDGET_MAX_DROPPED)
    return g_strdup_printf ("%.0f", value);
  if (strcmp (b->unit, "%") == 0)
    return g_strdup_printf ("%s%%", g_ascii_formatd (buf, sizeof buf, "%.2f", value));
  return g_strdup_printf ("%s%s", g_ascii_formatd (buf, sizeof buf, "%.3f", value / b->unit_scale),
                          b->unit);
}

static const char *
verdict_word (const TksBudget *b)
{
  switch (b->verdict)
    {
    case TKS_BUDGET_HOLDS:    return "ok";
    case TKS_BUDGET_VIOLATED: return "FAIL";
    default:                  return "no data";
    }
}

/* The command that opens the viewer at @b's moment. */
static char *
viewer_command (const char      *path,
                TksCapture      *capture,
                const TksBudget *b)
{
  g_autofree char *moment = format_moment (capture, b->at);
  g_autofree char *quoted = g_shell_quote (path);

  return g_strdup_printf ("tickscope %s --at=%ss", quoted, moment);
}

static char *
budget_name (const TksBudget *b)
{
  return g_strdup_printf (b->kind == TKS_BUDGET_PERIOD ? "%s = %s" : "%s <= %s",
                          tks_budget_kind_to_string (b->kind), b->limit_text);
}

static char *
budget_message (TksCapture      *capture,
                const char      *path,
                const TksBudget *b)
{
  g_autofree char *measured = format_value (b, b->measured);
  g_autofree char *moment = format_moment (capture, b->at);
  g_autofree char *cmd = isnan (b->at) ? NULL : viewer_command (path, capture, b);
  GString *s = g_string_new (NULL);

  if (b->verdict == TKS_BUDGET_NO_DATA)
    {
      g_string_append_printf (s, "[%s] %s: not measurable: %s", b->subject,
                              tks_budget_kind_to_string (b->kind), b->note);
      return g_string_free (s, FALSE);
    }
  g_string_append_printf (s, "[%s] %s: %s measured, limit %s", b->subject,
                          tks_budget_kind_to_string (b->kind), measured, b->limit_text);
  if (b->note != NULL)
    g_string_append_printf (s, " (%s)", b->note);
  if (cmd != NULL)
    g_string_append_printf (s, "; worst at %s s: %s", moment, cmd);
  return g_string_free (s, FALSE);
}

static void
append_attr (GString    *xml,
             const char *name,
             const char *value)
{
  g_autofree char *escaped = g_markup_escape_text (value, -1);

  g_string_append_printf (xml, " %s=\"%s\"", name, escaped);
}

/* JUnit XML as GitLab, Jenkins and most CI servers read it: one testsuite (the budgets file),
 * one testcase per budget (classname: the thread or handler), <failure> for a budget broken,
 * <error> for one this capture cannot measure. */
static char *
junit_report (TksCapture *capture,
              const char *path,
              const char *budgets_path,
              TksBudgets *budgets,
              double      seconds)
{
  GString *xml = g_string_new ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  guint n = tks_budgets_get_n (budgets), failures = 0, errors = 0;
  g_autofree char *suite = g_path_get_basename (budgets_path);
  g_autofree char *capture_name = g_path_get_basename (path);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *timestamp = g_date_time_format (now, "%Y-%m-%dT%H:%M:%S");
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char count[32];

  for (guint i = 0; i < n; i++)
    {
      const TksBudget *b = tks_budgets_get (budgets, i);

      failures += b->verdict == TKS_BUDGET_VIOLATED;
      errors += b->verdict == TKS_BUDGET_NO_DATA;
    }
  g_ascii_formatd (buf, sizeof buf, "%.3f", seconds);

#define COUNT(v) (g_snprintf (count, sizeof count, "%u", (v)), count)
  g_string_append (xml, "<testsuites");
  append_attr (xml, "name", "tickscope-cli check");
  append_attr (xml, "tests", COUNT (n));
  append_attr (xml, "failures", COUNT (failures));
  append_attr (xml, "errors", COUNT (errors));
  append_attr (xml, "time", buf);
  g_string_append (xml, ">\n  <testsuite");
  {
    g_autofree char *name = g_strdup_printf ("%s on %s", suite, capture_name);

    append_attr (xml, "name", name);
  }
  append_attr (xml, "tests", COUNT (n));
  append_attr (xml, "failures", COUNT (failures));
  append_attr (xml, "errors", COUNT (errors));
  append_attr (xml, "skipped", "0");
  append_attr (xml, "time", buf);
  append_attr (xml, "timestamp", timestamp);
  g_string_append (xml, ">\n");

  for (guint i = 0; i < n; i++)
    {
      const TksBudget *b = tks_budgets_get (budgets, i);
      g_autofree char *classname = g_strdup_printf ("%s.%s", b->subject_kind == G_MAXUINT ? "capture"
                                                    : b->subject_kind == TKS_SUBJECT_THREAD
                                                    ? "thread" : "handler", b->subject);
      g_autofree char *name = budget_name (b);
      g_autofree char *message = budget_message (capture, path, b);
      g_autofree char *escaped = g_markup_escape_text (message, -1);

      g_string_append (xml, "    <testcase");
      append_attr (xml, "classname", classname);
      append_attr (xml, "name", name);
      append_attr (xml, "time", "0");
      if (b->verdict == TKS_BUDGET_HOLDS)
        {
          g_string_append (xml, ">\n      <system-out>");
          g_string_append (xml, escaped);
          g_string_append (xml, "</system-out>\n    </testcase>\n");
          continue;
        }
      g_string_append_printf (xml, ">\n      <%s", b->verdict == TKS_BUDGET_VIOLATED ? "failure" : "error");
      append_attr (xml, "message", message);
      append_attr (xml, "type", b->verdict == TKS_BUDGET_VIOLATED ? "budget-exceeded" : "no-data");
      g_string_append_printf (xml, ">%s</%s>\n    </testcase>\n", escaped,
                              b->verdict == TKS_BUDGET_VIOLATED ? "failure" : "error");
    }
#undef COUNT
  g_string_append (xml, "  </testsuite>\n</testsuites>\n");
  return g_string_free (xml, FALSE);
}

/* A budgets file is a few lines: more than this is not one (and /dev/zero never ends). */
#define MAX_BUDGETS_BYTES (1024 * 1024)

static char *
read_budgets (const char  *path,
              gsize       *len,
              GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GFileInputStream) in = g_file_read (file, NULL, error);
  g_autofree char *data = NULL;
  gsize got = 0;

  if (in == NULL)
    return NULL;
  data = g_malloc (MAX_BUDGETS_BYTES + 2);
  if (!g_input_stream_read_all (G_INPUT_STREAM (in), data, MAX_BUDGETS_BYTES + 1, &got, NULL,
                                error))
    return NULL;
  if (got > MAX_BUDGETS_BYTES)
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_TOO_LONG,
                   _("%s: longer than %d bytes: not a budgets file"), path, MAX_BUDGETS_BYTES);
      return NULL;
    }
  data[got] = '\0';
  *len = got;
  return g_steal_pointer (&data);
}

/* The capture in @file, its warnings said; NULL, said, when it does not load. */
/* The table of the budgets and their verdicts, then a line for each that does not hold. */
static void
print_verdicts (TksBudgets *budgets,
                TksCapture *capture,
                const char *file,
                guint       failed)
{
  g_autoptr(TksCliTable) table = NULL;
  guint n = tks_budgets_get_n (budgets);

  /* Translators: the heads of the columns of tickscope-cli check */
  table = tks_cli_table_new ("llrrlr", _("Subject"), _("Budget"), _("Limit"), _("Measured"),
                             _("Verdict"), _("At s"), NULL);
  for (guint i = 0; i < n; i++)
    {
      const TksBudget *b = tks_budgets_get (budgets, i);
      g_autofree char *subject = tks_cli_escape (b->subject);
      g_autofree char *measured = format_value (b, b->measured);
      g_autofree char *moment = b->verdict == TKS_BUDGET_VIOLATED ? format_moment (capture, b->at)
                                                                  : g_strdup ("");

      tks_cli_table_add (table, subject);
      tks_cli_table_add (table, tks_budget_kind_to_string (b->kind));
      tks_cli_table_add (table, b->limit_text);
      tks_cli_table_add (table, measured);
      tks_cli_table_add (table, verdict_word (b));
      tks_cli_table_add (table, moment);
    }
  tks_cli_table_print (table, stdout);

  if (failed > 0)
    printf ("\n");
  for (guint i = 0; i < n; i++)
    {
      const TksBudget *b = tks_budgets_get (budgets, i);
      g_autofree char *raw = NULL;
      g_autofree char *message = NULL;

      if (b->verdict == TKS_BUDGET_HOLDS)
        continue;
      raw = budget_message (capture, file, b);
      message = tks_cli_escape (raw);
      printf ("%s %s\n", b->verdict == TKS_BUDGET_VIOLATED ? "FAIL" : "NO DATA", message);
    }
}

int
tks_cli_check (int    argc,
               char **argv)
{
  g_autofree char *budgets_path = NULL;
  g_autofree char *junit_path = NULL;
  g_autofree char *data = NULL;
  g_autofree char *display = NULL;
  g_auto(GStrv) files = NULL;
  gsize len;
  GOptionEntry entries[] = {
    { "budgets", 'b', 0, G_OPTION_ARG_FILENAME, &budgets_path,
      N_("The budgets: a key file, a [group] per thread or handler and [capture]"), "FILE.ini" },
    { "junit", 'j', 0, G_OPTION_ARG_FILENAME, &junit_path,
      N_("Also write the verdicts as JUnit XML, for a CI server"), "OUT.xml" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE --budgets BUDGETS.ini");
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(TksBudgets) budgets = NULL;
  gint64 begin = g_get_monotonic_time ();
  guint failed, n;

  g_option_context_set_summary (context,
    _("Checks a capture against timing budgets: each thread's longest wake-up latency\n"
      "(max-latency), share of any second (max-share), longest run (max-run), activation\n"
      "period and jitter (period, max-jitter); each handler's longest call (max-duration)\n"
      "and share; entries the board dropped ([capture] max-dropped). Times take us, ms or s,\n"
      "shares %. Each broken budget names its worst moment and the command that opens the\n"
      "viewer there."));
  g_option_context_set_description (context,
    _("Example budgets file:\n"
      "  [sensor]\n  max-latency = 200us\n  max-run = 2ms\n  period = 10ms\n  max-jitter = 500us\n"
      "  [USART2_IRQHandler]\n  max-duration = 50us\n  [capture]\n  max-dropped = 0\n\n"
      "Exit status: 0 every budget holds, 1 a budget is broken or cannot be measured in this\n"
      "capture, 2 the budgets file is wrong (its line is named), the capture cannot be read,\n"
      "or misuse."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_set_prgname ("tickscope-cli check");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "tickscope-cli check: %s\n", error->message);
      return TKS_CLI_MISUSE;
    }
  if (files == NULL || files[0] == NULL || files[1] != NULL)
    {
      fprintf (stderr, _("tickscope-cli check: give exactly one FILE (or “-”)\n"));
      return TKS_CLI_MISUSE;
    }
  if (budgets_path == NULL)
    {
      fprintf (stderr, _("tickscope-cli check: say which budgets to check: --budgets FILE.ini\n"));
      return TKS_CLI_MISUSE;
    }
  if ((data = read_budgets (budgets_path, &len, &error)) == NULL)
    {
      g_autofree char *message = tks_cli_escape (error->message);

      fprintf (stderr, "tickscope-cli check: %s\n", message);
      return TKS_CLI_MISUSE;
    }

  if ((capture = tks_cli_load_reported ("check", files[0])) == NULL)
    return TKS_CLI_MISUSE;

  display = g_filename_display_name (budgets_path);
  budgets = tks_budgets_new_from_data (data, len, display, capture, &error);
  if (budgets == NULL)
    {
      g_autofree char *message = tks_cli_escape (error->message);

      fprintf (stderr, "tickscope-cli check: %s\n", message);
      return TKS_CLI_MISUSE;
    }

  failed = tks_budgets_check (budgets, capture);
  n = tks_budgets_get_n (budgets);

  print_verdicts (budgets, capture, files[0], failed);
  /* Translators: the last line of tickscope-cli check */
  printf (_("\n%u of %u budgets hold\n"), n - failed, n);

  if (junit_path != NULL)
    {
      g_autofree char *xml = junit_report (capture, files[0], budgets_path, budgets,
                                           (double) (g_get_monotonic_time () - begin) / G_USEC_PER_SEC);

      if (!tks_cli_write_output (junit_path, xml, strlen (xml), &error))
        {
          fprintf (stderr, "tickscope-cli check: %s\n", error->message);
          return TKS_CLI_MISUSE;
        }
    }

  return failed > 0 ? TKS_CLI_BAD : TKS_CLI_OK;
}
