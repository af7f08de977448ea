/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tickscope-cli explain (why wake-ups were late), and the periods section of stats. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tks-cli.h"
#include "tks-latency.h"
#include "tks-periods.h"

#define EXPLAIN_DEFAULT_WORST 5

/* The threads named @name (a name may be shared); *@n_found of them. */
static guint *
threads_named (TksCapture *capture,
               const char *name,
               guint      *n_found)
{
  guint n = tks_capture_get_n_threads (capture);
  guint *found = g_new (guint, MAX (n, 1));

  *n_found = 0;
  for (guint t = 0; t < n; t++)
    if (g_strcmp0 (tks_capture_get_thread (capture, t)->name, name) == 0)
      found[(*n_found)++] = t;
  return found;
}

static char *
thread_name (TksCapture *capture,
             guint       thread)
{
  if (thread >= tks_capture_get_n_threads (capture))
    return g_strdup ("?");
  return tks_cli_escape (tks_capture_get_thread (capture, thread)->name);
}

/* The events of @capture when it has wake-ups; else NULL with the reason printed. */
static TksEvents *
wakeup_events (const char *command,
               TksCapture *capture)
{
  TksEvents *events = tks_capture_get_events (capture);

  if (events == NULL)
    {
      fprintf (stderr, _("tickscope-cli %s: the capture has no events: wake-ups need an events "
                         "recording (a board library built with THREADS_TIMESTAMPS_READY; "
                         "“Dump version: 2”, or threads_record events)\n"), command);
      return NULL;
    }
  if (tks_events_count (events, TKS_EVENT_READY) == 0)
    {
      fprintf (stderr, _("tickscope-cli %s: the capture's events hold no wake-up (no “Ready” "
                         "entry): the board library was built without THREADS_TIMESTAMPS_READY, "
                         "or no thread was made ready while it recorded\n"), command);
      return NULL;
    }
  return events;
}

static void
print_breakdown (TksCapture *capture,
                 TksEvents  *events,
                 guint       index)
{
  const TksWakeup *w = &tks_events_get_wakeups (events, NULL)[index];
  g_autoptr(TksLatencyBreakdown) bd = tks_latency_explain (events, w);
  g_autofree char *name = thread_name (capture, w->thread);
  g_autofree char *waker = tks_events_describe_waker (events, w);
  g_autofree char *waker_shown = tks_cli_escape (waker);
  g_autofree char *ready = g_strdup_printf ("%.3f", w->ready.pos);
  g_autofree char *run = g_strdup_printf ("%.3f", w->run.pos);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  /* Translators: thread, tick it was made ready, what made it ready, tick it ran, µs */
  printf (_("%s: made ready at tick %s by %s, running at tick %s, %.1f µs later\n"), name,
          ready, waker_shown, run, tks_events_to_us (events, w->latency));
  if (bd == NULL)
    return;
  text = tks_latency_format (events, bd, "  ");
  /* names of threads and handlers, as the board sent them: shown, not passed to the terminal */
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      {
        g_autofree char *shown = tks_cli_escape (lines[i]);

        printf ("%s\n", shown);
      }
}

/* Prints the help and TRUE when asked for it (--help, -h before any “--”). */
static gboolean
print_help_if_asked (GOptionContext *context,
                     int             argc,
                     char          **argv)
{
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0)
      {
        g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);

        fputs (help, stdout);
        return TRUE;
      }
    else if (strcmp (argv[i], "--") == 0)
      break;
  return FALSE;
}

/* The arguments make sense (@at: --at's time, NAN without it): else a message and FALSE. */
static gboolean
check_explain_args (char * const files[],
                    int          n_worst,
                    const char  *at_text,
                    double      *at)
{
  char *end = NULL;

  if (files == NULL || files[0] == NULL || files[1] != NULL)
    {
      fprintf (stderr, _("tickscope-cli explain: give exactly one FILE (or “-”)\n"));
      return FALSE;
    }
  if (n_worst < 1)
    {
      fprintf (stderr, _("tickscope-cli explain: --worst must be at least 1\n"));
      return FALSE;
    }
  *at = NAN;
  if (at_text == NULL)
    return TRUE;
  *at = g_ascii_strtod (at_text, &end);
  if (end == at_text || *end != '\0' || !isfinite (*at))
    {
      g_autofree char *shown = tks_cli_escape (at_text);

      fprintf (stderr, _("tickscope-cli explain: --at must be a finite number of ticks, not “%s”\n"),
               shown);
      return FALSE;
    }
  return TRUE;
}

/* The capture in @file, its warnings said; NULL, said, when it does not load. */
/* The wake-up nearest @at among the threads of that name (every thread's without them),
 * explained: FALSE when there is none. */
static gboolean
explain_at (TksCapture  *capture,
            TksEvents   *events,
            const guint *threads,
            guint        n_threads,
            double       at)
{
  guint best = G_MAXUINT;
  double best_d = INFINITY;

  for (guint k = 0; k < MAX (n_threads, 1); k++)
    {
      guint t = threads != NULL ? threads[k] : G_MAXUINT;
      guint i = tks_latency_nearest (events, t, at);
      const TksWakeup *w;
      double d;

      if (i == G_MAXUINT)
        continue;
      w = &tks_events_get_wakeups (events, NULL)[i];
      d = at < w->ready.pos ? w->ready.pos - at : at > w->run.pos ? at - w->run.pos : 0;
      if (d < best_d)
        {
          best_d = d;
          best = i;
        }
    }
  if (best == G_MAXUINT)
    return FALSE;
  print_breakdown (capture, events, best);
  return TRUE;
}

/* The @n_worst longest wake-ups over the threads of that name (every thread's without them),
 * the longest first, explained: FALSE when there is none. */
static gboolean
explain_worst (TksCapture  *capture,
               TksEvents   *events,
               const guint *threads,
               guint        n_threads,
               guint        n_worst)
{
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (guint));
  const TksWakeup *w;

  for (guint k = 0; k < MAX (n_threads, 1); k++)
    {
      guint n_found = 0;
      g_autofree guint *found = tks_latency_worst (events, threads != NULL ? threads[k] : G_MAXUINT,
                                                   n_worst, &n_found);

      g_array_append_vals (all, found, n_found);
    }
  if (all->len == 0)
    return FALSE;
  w = tks_events_get_wakeups (events, NULL);
  for (guint i = 1; i < all->len; i++)
    for (guint j = i; j > 0 && w[g_array_index (all, guint, j)].latency
                               > w[g_array_index (all, guint, j - 1)].latency; j--)
      {
        guint tmp = g_array_index (all, guint, j);

        g_array_index (all, guint, j) = g_array_index (all, guint, j - 1);
        g_array_index (all, guint, j - 1) = tmp;
      }
  for (guint i = 0; i < MIN (all->len, n_worst); i++)
    {
      if (i > 0)
        printf ("\n");
      print_breakdown (capture, events, g_array_index (all, guint, i));
    }
  return TRUE;
}

/* No wake-up (of the threads of @thread_text, or any) was switched in: how many were made
 * ready. */
static void
explain_none (TksEvents   *events,
              const guint *threads,
              guint        n_threads,
              const char  *thread_text)
{
  guint n_wakeups, n_ready = 0;
  const TksWakeup *w = tks_events_get_wakeups (events, &n_wakeups);
  g_autofree char *shown = NULL;

  for (guint i = 0; i < n_wakeups; i++)
    for (guint k = 0; k < MAX (n_threads, 1); k++)
      n_ready += threads == NULL || w[i].thread == threads[k];
  if (thread_text == NULL)
    {
      printf (_("No wake-up in the capture was switched in (%u made ready)\n"), n_ready);
      return;
    }
  shown = tks_cli_escape (thread_text);
  if (n_ready == 0)
    printf (_("%s: never made ready in the capture (no Ready entry names it)\n"), shown);
  else
    printf (_("%s: made ready %u times in the capture, never switched in after it\n"),
            shown, n_ready);
}

int
tks_cli_explain (int    argc,
                 char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE");
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_auto(GStrv) files = NULL;
  g_autofree char *thread_text = NULL;
  g_autofree char *at_text = NULL;
  g_autofree guint *threads = NULL;
  int n_worst = EXPLAIN_DEFAULT_WORST;
  guint n_threads = 0;
  TksEvents *events;
  GOptionEntry entries[] = {
    { "thread", 0, 0, G_OPTION_ARG_STRING, &thread_text, N_("Only the wake-ups of this thread (its name)"), "T" },
    { "worst", 0, 0, G_OPTION_ARG_INT, &n_worst, N_("How many of the longest wake-ups (default 5)"), "N" },
    { "at", 0, 0, G_OPTION_ARG_STRING, &at_text, N_("The wake-up nearest this time (ticks)"), "TIME" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    { NULL }
  };
  double at = NAN;

  g_set_prgname ("tickscope-cli explain");
  g_option_context_set_summary (context,
                                _("Why wake-ups were late: the latency of each of the longest "
                                  "wake-ups (made ready\nto running) split into the handlers and "
                                  "the threads that ran meanwhile, the largest\nfirst, and the rest. "
                                  "Needs an events recording with wake-ups."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (print_help_if_asked (context, argc, argv))
    return TKS_CLI_OK;
  g_option_context_set_help_enabled (context, FALSE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "tickscope-cli explain: %s\n", error->message);
      return TKS_CLI_MISUSE;
    }
  if (!check_explain_args (files, n_worst, at_text, &at))
    return TKS_CLI_MISUSE;
  if ((capture = tks_cli_load_reported ("explain", files[0])) == NULL)
    return TKS_CLI_BAD;

  if (thread_text != NULL)
    {
      threads = threads_named (capture, thread_text, &n_threads);
      if (n_threads == 0)
        {
          g_autofree char *shown = tks_cli_escape (thread_text);

          fprintf (stderr, _("tickscope-cli explain: no thread is named “%s”\n"), shown);
          return TKS_CLI_MISUSE;
        }
    }
  events = wakeup_events ("explain", capture);
  if (events == NULL)
    return TKS_CLI_BAD;

  if (!isnan (at) ? explain_at (capture, events, threads, n_threads, at)
                  : explain_worst (capture, events, threads, n_threads, (guint) n_worst))
    return TKS_CLI_OK;
  /* No wake-up was switched in. */
  explain_none (events, threads, n_threads, thread_text);
  return TKS_CLI_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* stats --period THREAD=10ms                                                                  */

/* "10ms", "500us", "0.01s", "2000000ns" in seconds; NAN when unreadable. */
static double
parse_duration (const char *text)
{
  static const struct { const char *unit; double s; } units[] = {
    { "ns", 1e-9 }, { "us", 1e-6 }, { "µs", 1e-6 }, { "ms", 1e-3 }, { "s", 1.0 },
  };
  char *end = NULL;
  double v = g_ascii_strtod (text, &end);

  if (end == text || !isfinite (v) || v <= 0)
    return NAN;
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (strcmp (end, units[i].unit) == 0)
      return v * units[i].s;
  return NAN;
}

gboolean
tks_cli_parse_periods (TksCapture          *capture,
                       const char * const  *periods,
                       gint64             **deadlines)
{
  TksEvents *events = tks_capture_get_events (capture);
  guint n = tks_capture_get_n_threads (capture);

  *deadlines = g_new0 (gint64, MAX (n, 1));
  for (guint i = 0; periods != NULL && periods[i] != NULL; i++)
    {
      const char *eq = strrchr (periods[i], '=');
      g_autofree char *name = eq != NULL ? g_strndup (periods[i], (gsize) (eq - periods[i])) : NULL;
      g_autofree char *shown = tks_cli_escape (periods[i]);
      g_autofree guint *found = NULL;
      double s = eq != NULL ? parse_duration (eq + 1) : NAN;
      guint n_found = 0;

      if (name == NULL || *name == '\0' || isnan (s))
        {
          fprintf (stderr, _("tickscope-cli stats: --period takes THREAD=DURATION (10ms, 500us, "
                             "0.02s), not “%s”\n"), shown);
          return FALSE;
        }
      found = threads_named (capture, name, &n_found);
      if (n_found == 0)
        {
          g_autofree char *name_shown = tks_cli_escape (name);

          fprintf (stderr, _("tickscope-cli stats: --period: no thread is named “%s”\n"),
                   name_shown);
          return FALSE;
        }
      for (guint k = 0; k < n_found; k++)
        (*deadlines)[found[k]] = events != NULL
                                 ? MAX ((gint64) llround (s * tks_events_get_time_hz (events)), 1)
                                 : 1;
    }
  return TRUE;
}

void
tks_cli_stats_periods (TksCapture   *capture,
                       const gint64 *deadlines)
{
  TksEvents *events = tks_capture_get_events (capture);
  g_autoptr(GArray) rows = NULL;
  g_autoptr(TksCliTable) table = NULL;

  if (events == NULL || tks_events_count (events, TKS_EVENT_READY) == 0)
    {
      printf ("\n%s\n", _("Periods and deadlines: need wake-ups (an events recording with Ready "
                          "entries); this capture has none."));
      return;
    }
  rows = tks_periods_stats (events, deadlines, tks_capture_get_n_threads (capture), 0);
  printf ("\n%s\n", _("Periods and deadlines over the whole capture (activation: made ready to "
                      "blocked again; µs):"));
  table = tks_cli_table_new ("lrlrrrrrrrrlr", _("Thread"), _("Activations"), _("Period"),
                             _("Int min"), _("Int max"), _("Int P99"), _("Resp min"),
                             _("Resp P99"), _("Resp max"), _("Deadline"), _("Misses"),
                             _("Worst at tick"), _("Done"), NULL);
  for (guint i = 0; i < rows->len; i++)
    {
      const TksPeriodStats *r = &g_array_index (rows, TksPeriodStats, i);
      g_autofree char *name = thread_name (capture, r->thread);
      g_autofree char *period = r->periodic
                                ? g_strdup_printf ("%.3f", tks_events_to_us (events, r->period))
                                : g_strdup (_("aperiodic"));
      gboolean some = r->activations > 1;

      tks_cli_table_add (table, name);
      tks_cli_table_add_uint (table, r->activations);
      tks_cli_table_add (table, period);
      tks_cli_table_add_number (table, "%.3f", some ? tks_events_to_us (events, r->interval_min) : NAN);
      tks_cli_table_add_number (table, "%.3f", some ? tks_events_to_us (events, r->interval_max) : NAN);
      tks_cli_table_add_number (table, "%.3f", some ? tks_events_to_us (events, r->interval_p99) : NAN);
      tks_cli_table_add_number (table, "%.3f", r->completed > 0 ? tks_events_to_us (events, r->response_min) : NAN);
      tks_cli_table_add_number (table, "%.3f", r->completed > 0 ? tks_events_to_us (events, r->response_p99) : NAN);
      tks_cli_table_add_number (table, "%.3f", r->completed > 0 ? tks_events_to_us (events, r->response_max) : NAN);
      {
        g_autofree char *deadline = r->deadline > 0
                                    ? g_strdup_printf ("%.3f%s", tks_events_to_us (events, r->deadline),
                                                       r->deadline_given ? "" : "*")
                                    : g_strdup ("-");

        tks_cli_table_add (table, deadline);
      }
      if (r->deadline > 0)
        tks_cli_table_add_uint (table, r->misses);
      else
        tks_cli_table_add (table, "-");
      {
        g_autofree char *where = r->worst != G_MAXUINT ? g_strdup_printf ("%.3f", r->worst_ready.pos)
                                                       : g_strdup ("-");

        tks_cli_table_add (table, where);
      }
      tks_cli_table_add_uint (table, r->completed);
    }
  tks_cli_table_print (table, stdout);
  printf ("%s\n", _("Period: the median interval between wake-ups when 90 % of them lie within "
                    "10 % of it.\nDeadline: given with --period THREAD=10ms, else the detected "
                    "period (*). Done: activations\nwith a response time (the log shows their "
                    "end). Worst at tick: where the longest response began."));
}
