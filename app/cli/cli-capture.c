/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tks-capture.h"
#include "tks-cli.h"
#include "tks-error.h"

GBytes *
tks_cli_read_input (const char  *path,
                    GError     **error)
{
  GByteArray *bytes;
  guint8 buffer[65536];

  if (g_strcmp0 (path, "-") != 0)
    {
      char *contents = NULL;
      gsize len = 0;

      if (!g_file_get_contents (path, &contents, &len, error))
        return NULL;
      return g_bytes_new_take (contents, len);
    }

  bytes = g_byte_array_new ();
  for (;;)
    {
      size_t n = fread (buffer, 1, sizeof buffer, stdin);

      if (n > 0)
        g_byte_array_append (bytes, buffer, n);
      if (n < sizeof buffer)
        {
          if (ferror (stdin))
            {
              g_set_error_literal (error, TKS_ERROR, TKS_ERROR_IO, "Cannot read standard input");
              g_byte_array_unref (bytes);
              return NULL;
            }
          break;
        }
    }
  return g_byte_array_free_to_bytes (bytes);
}

gboolean
tks_cli_write_output (const char  *path,
                      const char  *data,
                      gsize        len,
                      GError     **error)
{
  if (g_strcmp0 (path, "-") == 0)
    {
      if (fwrite (data, 1, len, stdout) != len || fflush (stdout) != 0)
        {
          g_set_error_literal (error, TKS_ERROR, TKS_ERROR_IO, "Cannot write standard output");
          return FALSE;
        }
      return TRUE;
    }
  return g_file_set_contents_full (path, data, len, G_FILE_SET_CONTENTS_CONSISTENT, 0666, error);
}

static TksCapture *
load_capture (const char  *path,
              GError     **error)
{
  g_autoptr(GBytes) bytes = NULL;
  gsize len;
  const char *data;

  if (g_strcmp0 (path, "-") != 0)
    return tks_capture_new_from_file (path, error);

  bytes = tks_cli_read_input (path, error);
  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, &len);
  return tks_capture_new_from_data (data != NULL ? data : "", len, error);
}

static const char *
thread_state (const TksThread *th)
{
  if (th->flags & TKS_THREAD_NOT_LISTED)
    return "not in list";
  if (th->flags & TKS_THREAD_EXITED_AFTER_LOG_END)
    return "exited after the log ended";
  if (th->flags & TKS_THREAD_EXITED)
    return "exited";
  if (th->flags & TKS_THREAD_DELETED)
    return "deleted";
  if (th->flags & TKS_THREAD_RUNNING_AT_END)
    return "running at end";
  return "";
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

  if (argc != 2 || argv[1][0] == '\0')
    {
      fprintf (stderr, "Usage: tickscope-cli info FILE\n");
      return TKS_CLI_MISUSE;
    }

  capture = load_capture (argv[1], &error);
  if (capture == NULL)
    {
      fprintf (stderr, "tickscope-cli: %s\n", error->message);
      return TKS_CLI_BAD;
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
    printf ("Source:            %s\n", tks_capture_get_source (capture));
  printf ("Threads:           %u (%u logged, %u exited during the capture)\n",
          n_lanes, n_logged, n_exited);
  if (n_before > 0)
    printf ("                   %u threads exited before the log began (not listed)\n", n_before);
  printf ("Records:           %u\n", tks_capture_get_n_records (capture));
  printf ("Span:              ticks %.0f to %.0f (%.0f ticks, %.3f s at %g Hz)\n",
          start, end, end - start, (end - start) / hz, hz);
  printf ("Switches per tick: max %u, mean %.2f\n",
          tks_capture_get_max_switches_per_tick (capture),
          tks_capture_get_mean_switches_per_tick (capture));
  if (tks_capture_get_trigger (capture, &trigger))
    printf ("Trigger:           tick %.0f%s%s\n", trigger,
            tks_capture_get_trigger_name (capture) != NULL ? ", set by " : "",
            tks_capture_get_trigger_name (capture) != NULL ? tks_capture_get_trigger_name (capture) : "");
  else
    printf ("Trigger:           none\n");
  log_end = tks_capture_get_log_end (capture, &log_end_reason);
  if (log_end_reason == TKS_LOG_END_LONE_EXITS)
    printf ("Log ended:         tick %.3f, before the capture's end: only %u thread exits were "
            "recorded after it (up to tick %.0f); which thread ran after it is unknown\n",
            log_end, tks_capture_get_n_exits_after_log_end (capture), end - 1);
  tks_capture_get_board_counters (capture, &counters);
  if (counters.known)
    printf ("Board counters:    %" G_GUINT64_FORMAT " records written, %" G_GUINT64_FORMAT
            " switches dropped while paused, %" G_GUINT64_FORMAT " records dropped for the "
            "history (counted since boot or run mode, not within this capture)\n",
            counters.records_written, counters.dropped_paused, counters.dropped_history);

  printf ("\nLanes, highest priority first:\n");
  printf ("  %4s  %-24s %5s %4s %8s  %s\n", "prio", "name", "order", "log", "runs", "state");
  for (guint i = 0; i < n_lanes; i++)
    {
      const TksThread *th = tks_capture_get_thread (capture, lanes[i]);

      printf ("  %4d  %-24s %5u %4s %8u  %s\n", th->priority, th->name, th->index + 1,
              (th->flags & TKS_THREAD_LOGGED) ? "yes" : "no",
              (th->flags & TKS_THREAD_LOGGED) ? th->n_runs : th->n_marks, thread_state (th));
    }

  warnings = tks_capture_get_warnings (capture, &n_warnings);
  printf ("\nWarnings:          %u\n", n_warnings);
  for (guint i = 0; i < n_warnings; i++)
    {
      /* Every warning line carries the word, also the one-line summaries. */
      if (strstr (warnings[i], "warning") != NULL)
        printf ("%s\n", warnings[i]);
      else
        printf ("warning: %s\n", warnings[i]);
    }
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

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "-o") == 0 && i + 1 < argc)
        output = argv[++i];
      else if (input == NULL && (argv[i][0] != '-' || strcmp (argv[i], "-") == 0))
        input = argv[i];
      else
        {
          fprintf (stderr, "Usage: tickscope-cli convert TRANSCRIPT -o FILE.txt\n");
          return TKS_CLI_MISUSE;
        }
    }
  if (input == NULL || output == NULL)
    {
      fprintf (stderr, "Usage: tickscope-cli convert TRANSCRIPT -o FILE.txt\n");
      return TKS_CLI_MISUSE;
    }

  capture = load_capture (input, &error);
  if (capture == NULL)
    {
      fprintf (stderr, "tickscope-cli: %s\n", error->message);
      return TKS_CLI_BAD;
    }

  warnings = tks_capture_get_warnings (capture, &n_warnings);
  for (guint i = 0; i < n_warnings; i++)
    fprintf (stderr, "%s\n", warnings[i]);

  out = g_string_new (NULL);
  tks_capture_write (capture, out, NULL);
  if (!tks_cli_write_output (output, out->str, out->len, &error))
    {
      fprintf (stderr, "tickscope-cli: %s\n", error->message);
      return TKS_CLI_BAD;
    }
  return TKS_CLI_OK;
}
