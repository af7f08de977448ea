/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The events of a dump version 2 in tickscope-cli info and stats. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tks-cli.h"
#include "tks-events.h"

/* The names of the entries' kinds, as info counts them (the board's words). */
static const char * const kind_names[TKS_N_EVENT_KINDS] = {
  [TKS_EVENT_SWITCH] = "switch", [TKS_EVENT_IRQ_ENTER] = "irq enter",
  [TKS_EVENT_IRQ_LEAVE] = "irq leave", [TKS_EVENT_SLEEP] = "sleep", [TKS_EVENT_WAKE] = "wake",
  [TKS_EVENT_READY] = "ready", [TKS_EVENT_MARKER] = "marker",
  [TKS_EVENT_STATE_BEGIN] = "state begin", [TKS_EVENT_STATE_END] = "state end",
  [TKS_EVENT_TRIGGER] = "trigger",
};

void
tks_cli_info_events (TksCapture *capture,
                     int         width)
{
  TksEvents *events = tks_capture_get_events (capture);
  const TksEventsInfo *info;
  guint n_wakeups, n_open = 0, n_tracks[TKS_N_TRACK_KINDS];
  const TksWakeup *wakeups;
  TksTime trigger;
  GString *counts = g_string_new (NULL);

  if (events == NULL)
    return;
  info = tks_events_get_info (events);
  tks_cli_print_label (_("Events:"), width);
  if (tks_events_has_counter (events))
    {
      g_autofree char *hz = g_strdup_printf ("%" G_GUINT64_FORMAT, info->counter_hz);

      /* Translators: the dump version, then the counter's frequency in Hz */
      printf (_("dump version %u, counter %s Hz"), info->dump_version, hz);
    }
  else
    printf (_("dump version %u, no counter (times in ticks)"), info->dump_version);
  if (info->options != NULL)
    {
      g_autofree char *options = tks_cli_escape (info->options);

      printf (_(", built with: %s"), options);
    }
  printf ("\n");
  for (guint k = 0; k < TKS_N_EVENT_KINDS; k++)
    g_string_append_printf (counts, "%s%u %s", counts->len > 0 ? ", " : "",
                            tks_events_count (events, k), kind_names[k]);
  tks_cli_print_label ("", width);
  printf ("%s\n", counts->str);
  g_string_free (counts, TRUE);

  for (guint k = 0; k < TKS_N_TRACK_KINDS; k++)
    tks_events_get_tracks (events, k, &n_tracks[k]);
  wakeups = tks_events_get_wakeups (events, &n_wakeups);
  for (guint i = 0; i < n_wakeups; i++)
    n_open += wakeups[i].open;
  tks_cli_print_label (_("Tracks:"), width);
  /* Translators: counts of handlers, markers, state channels, wake-ups, open wake-ups */
  printf (_("%u handlers, %u markers, %u state channels; %u wake-ups (%u never switched in)\n"),
          n_tracks[TKS_TRACK_IRQ], n_tracks[TKS_TRACK_MARKER], n_tracks[TKS_TRACK_STATE],
          n_wakeups, n_open);
  if (info->names_refused > 0)
    {
      tks_cli_print_label ("", width);
      printf (_("%u names the board could not register (table of %u full)\n"),
              info->names_refused, info->max_names);
    }
  if (info->counted != NULL)
    {
      g_autofree char *counted = tks_cli_escape (info->counted);

      tks_cli_print_label ("", width);
      /* Translators: the handlers the board counts without logging them: "NAME, N calls" */
      printf (_("Counted, not logged: %s\n"), counted);
    }
  if (info->condition != NULL)
    {
      g_autofree char *condition = tks_cli_escape (info->condition);

      tks_cli_print_label (_("Condition:"), width);
      if (info->has_trigger_value)
        {
          g_autofree char *value = g_strdup_printf ("%" G_GUINT64_FORMAT, info->trigger_value);

          /* Translators: the board's trigger condition, then the value that set it */
          printf (_("%s (met with %s)\n"), condition, value);
        }
      else
        printf ("%s\n", condition);
    }
  if (tks_events_get_trigger (events, &trigger))
    {
      tks_cli_print_label (_("Trigger entry:"), width);
      if (tks_events_has_counter (events))
        {
          g_autofree char *counter = g_strdup_printf ("%" G_GINT64_FORMAT, trigger.time);

          /* Translators: a position in ticks, then the board's counter value */
          printf (_("tick %.6f (counter %s)\n"), trigger.pos, counter);
        }
      else
        printf (_("tick %.6f\n"), trigger.pos);
    }
}

static char *
thread_name (TksCapture *capture,
             guint       thread)
{
  if (thread >= tks_capture_get_n_threads (capture))
    return g_strdup ("?");
  return tks_cli_escape (tks_capture_get_thread (capture, thread)->name);
}

/* A bucket size that puts @max in about 20 buckets: 1, 2 or 5 times a power of ten (µs). */
static double
nice_bucket (double max)
{
  double target = MAX (max / 20, 1e-3);
  double step = pow (10, floor (log10 (target)));

  if (step >= target)
    return step;
  if (2 * step >= target)
    return 2 * step;
  return 5 * step >= target ? 5 * step : 10 * step;
}

static void
print_histogram (TksCapture *capture,
                 TksEvents  *events,
                 const TksLatencyStats *s,
                 double      from,
                 double      to,
                 double      bucket_us)
{
  double bucket = bucket_us > 0 ? bucket_us : nice_bucket (s->max_us);
  guint n_buckets = (guint) MIN (floor (s->max_us / bucket) + 2, 1000);
  g_autofree guint *counts = tks_events_latency_histogram (events, s->thread, from, to, bucket,
                                                           n_buckets);
  g_autofree char *name = thread_name (capture, s->thread);
  g_autoptr(TksCliTable) table = NULL;
  char b1[G_ASCII_DTOSTR_BUF_SIZE];

  /* Translators: a thread's name, then the width of a bucket in µs */
  printf (_("\nWake-up latency histogram of %s (buckets of %s µs):\n"), name,
          g_ascii_formatd (b1, sizeof b1, "%g", bucket));
  table = tks_cli_table_new ("rrr", _("from µs"), _("to µs"), _("count"), NULL);
  for (guint i = 0; i < n_buckets; i++)
    {
      if (counts[i] == 0)
        continue;
      tks_cli_table_add_number (table, "%g", i * bucket);
      if (i + 1 == n_buckets)
        tks_cli_table_add (table, _("over"));
      else
        tks_cli_table_add_number (table, "%g", (i + 1) * bucket);
      tks_cli_table_add_uint (table, counts[i]);
    }
  tks_cli_table_print (table, stdout);
}

/* A row of the CPU share table: @ticks in ms, and in percent of @span. */
static void
share_row (TksCliTable *table,
           const char  *name,
           double       ticks,
           double       tick_hz,
           double       span)
{
  tks_cli_table_add (table, name);
  tks_cli_table_add_number (table, "%.3f", ticks * 1000 / tick_hz);
  tks_cli_table_add_number (table, "%.2f", span > 0 ? 100 * ticks / span : 0);
}

void
tks_cli_stats_events (TksCapture *capture,
                      double      from,
                      double      to,
                      gboolean    histogram,
                      double      bucket_us)
{
  TksEvents *events = tks_capture_get_events (capture);
  g_autoptr(GArray) latency = NULL;
  g_autoptr(GArray) handlers = NULL;
  g_autoptr(GArray) markers = NULL;
  g_autoptr(TksCliTable) table = NULL;
  double tick_hz = tks_capture_get_tick_hz (capture);
  double span;
  const guint *lanes;
  guint n_lanes;

  if (events == NULL)
    return;
  if (isnan (from))
    from = tks_capture_get_start (capture);
  if (isnan (to))
    to = tks_capture_get_end (capture);
  span = to - from;

  latency = tks_events_latency_stats (events, from, to);
  printf ("\n%s\n", _("Wake-up latency (made ready to switched in, µs):"));
  table = tks_cli_table_new ("lrrrrrrr", _("Thread"), _("Count"), C_("latency column", "Open"),
                             _("Min"), _("Mean"), _("P50"), _("P99"), _("Max"), NULL);
  for (guint i = 0; i < latency->len; i++)
    {
      const TksLatencyStats *s = &g_array_index (latency, TksLatencyStats, i);
      g_autofree char *name = thread_name (capture, s->thread);

      tks_cli_table_add (table, name);
      tks_cli_table_add_uint (table, s->count);
      tks_cli_table_add_uint (table, s->n_open);
      tks_cli_table_add_number (table, "%.3f", s->min_us);
      tks_cli_table_add_number (table, "%.3f", s->mean_us);
      tks_cli_table_add_number (table, "%.3f", s->p50_us);
      tks_cli_table_add_number (table, "%.3f", s->p99_us);
      tks_cli_table_add_number (table, "%.3f", s->max_us);
    }
  tks_cli_table_print (table, stdout);
  g_clear_pointer (&table, tks_cli_table_free);
  if (histogram)
    for (guint i = 0; i < latency->len; i++)
      if (g_array_index (latency, TksLatencyStats, i).count > 0)
        print_histogram (capture, events, &g_array_index (latency, TksLatencyStats, i), from, to,
                         bucket_us);

  handlers = tks_events_handler_stats (events, from, to);
  printf ("\n%s\n", _("Interrupt handlers (µs):"));
  table = tks_cli_table_new ("lrrr", _("Handler"), _("Count"), _("Total"), _("Longest"), NULL);
  for (guint i = 0; i < handlers->len; i++)
    {
      const TksHandlerStats *s = &g_array_index (handlers, TksHandlerStats, i);
      g_autofree char *name = tks_cli_escape (s->track->name);

      tks_cli_table_add (table, name);
      tks_cli_table_add_uint (table, s->count);
      tks_cli_table_add_number (table, "%.3f", s->total_us);
      tks_cli_table_add_number (table, "%.3f", s->longest_us);
    }
  tks_cli_table_print (table, stdout);
  g_clear_pointer (&table, tks_cli_table_free);

  markers = tks_events_marker_stats (events, from, to);
  printf ("\n%s\n", _("Markers (interval between occurrences, µs):"));
  table = tks_cli_table_new ("lrrrr", _("Marker"), _("Count"), _("Min"), _("Mean"), _("Max"),
                             NULL);
  for (guint i = 0; i < markers->len; i++)
    {
      const TksMarkerStats *s = &g_array_index (markers, TksMarkerStats, i);
      g_autofree char *name = tks_cli_escape (s->track->name);

      tks_cli_table_add (table, name);
      tks_cli_table_add_uint (table, s->count);
      tks_cli_table_add_number (table, "%.3f", s->min_interval_us);
      tks_cli_table_add_number (table, "%.3f", s->mean_interval_us);
      tks_cli_table_add_number (table, "%.3f", s->max_interval_us);
    }
  tks_cli_table_print (table, stdout);
  g_clear_pointer (&table, tks_cli_table_free);

  printf ("\n%s\n", _("CPU share without interrupt handlers, in percent of the range:"));
  table = tks_cli_table_new ("lrr", _("Thread"), _("Run ms"), _("Share %"), NULL);
  lanes = tks_capture_get_shown_lanes (capture, FALSE, &n_lanes);
  for (guint l = 0; l < n_lanes; l++)
    {
      const TksThread *th = tks_capture_get_thread (capture, lanes[l]);
      g_autofree char *name = NULL;

      if (!(th->flags & TKS_THREAD_LOGGED))
        continue;
      name = tks_cli_escape (th->name);
      share_row (table, name, tks_events_thread_time_without_irqs (events, th, from, to),
                 tick_hz, span);
    }
  share_row (table, _("(interrupt handlers)"), tks_events_irq_time (events, from, to), tick_hz,
             span);
  share_row (table, _("(CPU asleep)"), tks_events_sleep_time (events, from, to), tick_hz, span);
  tks_cli_table_print (table, stdout);
}
