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
#include <glib/gstdio.h>

#include "tks-capture.h"
#include "tks-cli.h"
#include "tks-error.h"

TksCapture *
tks_cli_load (const char  *path,
              GError     **error)
{
  if (g_strcmp0 (path, "-") == 0)
    return tks_capture_new_from_fd (STDIN_FILENO, "standard input", error);
  return tks_capture_new_from_file (path, error);
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

          g_set_error (error, TKS_ERROR, TKS_ERROR_IO, "Cannot open “%s”: %s", path,
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

char *
tks_cli_escape (const char *text)
{
  GString *out = g_string_new (NULL);
  const char *p = text != NULL ? text : "";
  const char *end = p + strlen (p);

  while (p < end)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02x", (guchar) *p);
          p++;
          continue;
        }
      /* Control characters (C0, DEL, C1: escape sequences start with them), and the marks
       * that reorder text on screen. */
      if (c < 0x20 || (c >= 0x7f && c < 0xa0))
        g_string_append_printf (out, "\\x%02x", c);
      else if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) ||
               c == 0x200e || c == 0x200f || c == 0x061c || c == 0x2028 || c == 0x2029)
        g_string_append_printf (out, "\\u{%04x}", c);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
      p = g_utf8_next_char (p);
    }
  return g_string_free (out, FALSE);
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
      fprintf (stderr, "tickscope-cli %s: cannot write standard output%s%s\n", command,
               saved != 0 ? ": " : "", saved != 0 ? g_strerror (saved) : "");
      return status == TKS_CLI_OK ? TKS_CLI_BAD : status;
    }
  return status;
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

  capture = tks_cli_load (argv[1], &error);
  if (capture == NULL)
    {
      g_autofree char *message = tks_cli_escape (error->message);

      fprintf (stderr, "tickscope-cli: %s\n", message);
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
    {
      g_autofree char *source = tks_cli_escape (tks_capture_get_source (capture));

      printf ("Source:            %s\n", source);
    }
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
    {
      g_autofree char *by = tks_cli_escape (tks_capture_get_trigger_name (capture));

      printf ("Trigger:           tick %.0f%s%s\n", trigger,
              tks_capture_get_trigger_name (capture) != NULL ? ", set by " : "", by);
    }
  else
    printf ("Trigger:           none\n");
  log_end = tks_capture_get_log_end (capture, &log_end_reason);
  if (log_end_reason == TKS_LOG_END_LONE_EXITS)
    printf ("Log ended:         tick %.3f, before the capture's end: only %u thread exits were "
            "recorded after it (up to tick %.0f); which thread ran after it is unknown\n",
            log_end, tks_capture_get_n_exits_after_log_end (capture), end - 1);
  {
    guint n_gaps;
    const TksGap *gaps = tks_capture_get_gaps (capture, &n_gaps);

    for (guint g = 0; g < n_gaps; g++)
      printf ("%s ticks %.3f to %.3f (%.3f s): %" G_GUINT64_FORMAT " switches the board did not "
              "record while it printed a reply\n", g == 0 ? "Not recorded:     " : "                  ",
              gaps[g].begin, gaps[g].end, (gaps[g].end - gaps[g].begin) / hz, gaps[g].dropped);
  }
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
      g_autofree char *name = tks_cli_escape (th->name);

      printf ("  %4d  %-24s %5u %4s %8u  %s\n", th->priority, name, th->index + 1,
              (th->flags & TKS_THREAD_LOGGED) ? "yes" : "no",
              (th->flags & TKS_THREAD_LOGGED) ? th->n_runs : th->n_marks, thread_state (th));
    }

  warnings = tks_capture_get_warnings (capture, &n_warnings);
  printf ("\nWarnings:          %u\n", n_warnings);
  for (guint i = 0; i < n_warnings; i++)
    {
      g_autofree char *warning = tks_cli_escape (warnings[i]);

      /* Every warning line carries the word, also the one-line summaries. */
      printf ("%s%s\n", strstr (warning, "warning") != NULL ? "" : "warning: ", warning);
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

  capture = tks_cli_load (input, &error);
  if (capture == NULL)
    {
      g_autofree char *message = tks_cli_escape (error->message);

      fprintf (stderr, "tickscope-cli: %s\n", message);
      return TKS_CLI_BAD;
    }

  warnings = tks_capture_get_warnings (capture, &n_warnings);
  for (guint i = 0; i < n_warnings; i++)
    {
      g_autofree char *warning = tks_cli_escape (warnings[i]);

      fprintf (stderr, "tickscope-cli convert: %s%s\n",
               strstr (warning, "warning") != NULL ? "" : "warning: ", warning);
    }

  out = g_string_new (NULL);
  tks_capture_write (capture, out, NULL);
  if (!tks_cli_write_output (output, out->str, out->len, &error))
    {
      fprintf (stderr, "tickscope-cli: %s\n", error->message);
      return TKS_CLI_BAD;
    }
  return TKS_CLI_OK;
}
