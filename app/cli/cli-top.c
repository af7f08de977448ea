/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tickscope-cli top: a board recorded (threads_record, through the recorder that record uses)
 * and, every interval, each thread's share of the CPU, its switches and longest run, and each
 * handler's share: a table redrawn in place on a terminal, or one JSON object per line. The
 * end of the recording is read back through a bounded tail (tks-recording-tail.h), so memory
 * and time per interval do not grow with the recording. */
#include "config.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "tks-cli.h"
#include "tks-error.h"
#include "tks-json.h"
#include "tks-profile.h"
#include "tks-recorder.h"
#include "tks-recording-tail.h"
#include "tks-transport.h"

#ifdef HAVE_SIMBOARD
#include "tks-simboard.h"
#endif

static volatile sig_atomic_t interrupted;

static void
on_sigint (int signum)
{
  (void) signum;
  interrupted = 1;
}

typedef struct
{
  gboolean    json;
  gboolean    tty;
  double      interval;         /* seconds */
  guint       n_shown;
  GHashTable *max_share;        /* "kind:name" -> double * */
  guint64     shown_dropped;    /* dropped counted when the last interval was shown */
  guint       n_notices;
} Top;

static void
json_number (GString *out,
             double   value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    g_string_append (out, "null");
  else
    g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.3f", value));
}

static char *
row_name (const TksProfileRow *row)
{
  if (row->name != NULL && row->name[0] != '\0')
    return g_strdup (row->name);
  return g_strdup_printf ("thread %u", row->index);
}

/* The highest share @row had in any interval so far, this one included. */
static double
update_max_share (Top                 *top,
                  const TksProfileRow *row,
                  const char          *name)
{
  char *key = g_strdup_printf ("%u:%s", row->kind, name);
  double *max = g_hash_table_lookup (top->max_share, key);

  if (max == NULL)
    {
      max = g_new (double, 1);
      *max = 0;
      g_hash_table_insert (top->max_share, key, max);
    }
  else
    g_free (key);
  if (isfinite (row->share) && row->share > *max)
    *max = row->share;
  return *max;
}

/* Busiest first; handlers after threads. */
static int
compare_share (gconstpointer a,
               gconstpointer b)
{
  const TksProfileRow *x = a, *y = b;
  double sx = isfinite (x->share) ? x->share : -1, sy = isfinite (y->share) ? y->share : -1;

  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  return sx > sy ? -1 : sx < sy ? 1 : 0;
}

/* The rows to show: threads that were alive in the window (one that exited before it is
 * gone from the board), sorted. */
static GArray *
interval_rows (TksCapture *capture,
               double      from,
               double      end)
{
  GArray *rows = tks_profile_compute (capture, from, end);

  for (guint i = rows->len; i-- > 0;)
    {
      const TksProfileRow *r = &g_array_index (rows, TksProfileRow, i);
      const TksThread *t;

      if (r->kind != TKS_SUBJECT_THREAD)
        continue;
      t = tks_capture_get_thread (capture, r->index);
      if ((t->flags & TKS_THREAD_EXITED) != 0 && t->exit_time < from)
        g_array_remove_index (rows, i);
    }
  g_array_sort (rows, compare_share);
  return rows;
}

static void
show_interval (Top                    *top,
               TksCapture             *capture,
               const TksRecorderStats *st)
{
  double tick_hz = tks_capture_get_tick_hz (capture);
  double end = tks_capture_get_log_end (capture, NULL);
  double from = MAX (tks_capture_get_start (capture), end - top->interval * tick_hz);
  g_autoptr(GArray) rows = interval_rows (capture, from, end);
  guint64 dropped_now = st->dropped - MIN (st->dropped, top->shown_dropped);
  g_autofree char *dropped = g_strdup_printf ("%" G_GUINT64_FORMAT, st->dropped);
  g_autofree char *dropped_in = g_strdup_printf ("%" G_GUINT64_FORMAT, dropped_now);
  g_autofree char *entries = g_strdup_printf ("%" G_GUINT64_FORMAT, st->entries);
  double window = (end - from) / tick_hz;

  top->shown_dropped = st->dropped;
  top->n_shown++;

  if (top->json)
    {
      GString *line = g_string_new ("{\"interval\":");
      gboolean first = TRUE;

      g_string_append_printf (line, "%u,\"seconds\":", top->n_shown);
      json_number (line, st->seconds);
      g_string_append (line, ",\"window_s\":");
      json_number (line, window);
      g_string_append_printf (line, ",\"entries\":%s,\"dropped\":%s,\"dropped_interval\":%s,"
                              "\"damaged_lines\":%u,\"threads\":[", entries, dropped, dropped_in,
                              st->damaged);
      for (guint i = 0; i < rows->len; i++)
        {
          const TksProfileRow *r = &g_array_index (rows, TksProfileRow, i);
          g_autofree char *name = row_name (r);
          double max;

          if (r->kind != TKS_SUBJECT_THREAD || !r->measured)
            continue;
          max = update_max_share (top, r, name);
          g_string_append (line, first ? "{\"name\":" : ",{\"name\":");
          first = FALSE;
          tks_json_append_string (line, name);
          g_string_append (line, ",\"cpu_percent\":");
          json_number (line, r->share);
          g_string_append (line, ",\"max_share_percent\":");
          json_number (line, max);
          g_string_append_printf (line, ",\"switches\":%u,\"longest_run_us\":", r->activations);
          json_number (line, r->max_run_us);
          g_string_append_c (line, '}');
        }
      g_string_append (line, "],\"handlers\":[");
      first = TRUE;
      for (guint i = 0; i < rows->len; i++)
        {
          const TksProfileRow *r = &g_array_index (rows, TksProfileRow, i);
          g_autofree char *name = row_name (r);

          if (r->kind != TKS_SUBJECT_HANDLER)
            continue;
          g_string_append (line, first ? "{\"name\":" : ",{\"name\":");
          first = FALSE;
          tks_json_append_string (line, name);
          g_string_append (line, ",\"share_percent\":");
          json_number (line, r->share);
          g_string_append_printf (line, ",\"calls\":%u,\"longest_us\":", r->activations);
          json_number (line, r->max_run_us);
          g_string_append_c (line, '}');
        }
      g_string_append (line, "]}\n");
      fputs (line->str, stdout);
      fflush (stdout);
      g_string_free (line, TRUE);
      return;
    }

  {
    g_autoptr(TksCliTable) threads = NULL;
    g_autoptr(TksCliTable) handlers = NULL;
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    guint n_handlers = 0;

    if (top->tty)
      fputs ("\033[H\033[2J", stdout);
    /* Translators: the head of tickscope-cli top: seconds, the window, events, dropped */
    printf (_("tickscope-cli top: %.1f s recorded, last %s s; %s events, dropped %s (%s in this "
              "interval)%s\n\n"),
            st->seconds, g_ascii_formatd (buf, sizeof buf, "%.2f", window), entries, dropped,
            dropped_in, st->damaged > 0 ? _(", lines damaged on the link") : "");
    /* Translators: the heads of the columns of tickscope-cli top */
    threads = tks_cli_table_new ("lrrrr", _("Thread"), _("CPU %"), _("Max %"), _("Switches"),
                                 _("Longest run us"), NULL);
    handlers = tks_cli_table_new ("lrrr", _("Handler"), _("Share %"), _("Calls"),
                                  _("Longest us"), NULL);
    for (guint i = 0; i < rows->len; i++)
      {
        const TksProfileRow *r = &g_array_index (rows, TksProfileRow, i);
        g_autofree char *name = row_name (r);
        g_autofree char *shown = tks_cli_escape (name);

        if (r->kind == TKS_SUBJECT_THREAD && r->measured)
          {
            double max = update_max_share (top, r, name);

            tks_cli_table_add (threads, shown);
            tks_cli_table_add_number (threads, "%.1f", r->share);
            tks_cli_table_add_number (threads, "%.1f", max);
            tks_cli_table_add_uint (threads, r->activations);
            tks_cli_table_add_number (threads, "%.0f", r->max_run_us);
          }
        else if (r->kind == TKS_SUBJECT_HANDLER)
          {
            n_handlers++;
            tks_cli_table_add (handlers, shown);
            tks_cli_table_add_number (handlers, "%.2f", r->share);
            tks_cli_table_add_uint (handlers, r->activations);
            tks_cli_table_add_number (handlers, "%.1f", r->max_run_us);
          }
      }
    tks_cli_table_print (threads, stdout);
    if (n_handlers > 0)
      {
        printf ("\n");
        tks_cli_table_print (handlers, stdout);
      }
    if (!top->tty)
      printf ("\n");
    fflush (stdout);
  }
}

/* The end of the recording as a capture, NULL while there is none yet. */
static TksCapture *
read_tail (TksRecordingTail *tail,
           GError          **error)
{
  if (!tks_recording_tail_update (tail, error))
    return NULL;
  return tks_recording_tail_read (tail, error);
}

static void
on_notice (const char *message,
           gpointer    user_data)
{
  Top *top = user_data;
  g_autofree char *shown = tks_cli_escape (message);

  if (++top->n_notices <= 20)
    fprintf (stderr, _("tickscope-cli top: warning: %s\n"), shown);
}

/* The arguments make sense (@interval: --interval's seconds): else a message and FALSE. */
static gboolean
check_top_args (int         argc,
                const char *interval_text,
                int         count,
                double      duration,
                int         baud,
                double     *interval)
{
  char *end = NULL;

  if (argc != 2)
    {
      fprintf (stderr, _("tickscope-cli %s: give one PORT (see tickscope-cli %s --help)\n"),
               "top", "top");
      return FALSE;
    }
  *interval = 1;
  if (interval_text != NULL)
    *interval = g_ascii_strtod (interval_text, &end);
  if ((interval_text != NULL && (end == interval_text || *end != '\0')) ||
      !(*interval >= 0.1 && *interval <= 3600) || count < 0 || duration < 0 || baud < 0)
    {
      fprintf (stderr, _("tickscope-cli top: --interval takes 0.1 to 3600 seconds; --count, "
                         "--duration and --baud are positive\n"));
      return FALSE;
    }
  return TRUE;
}

/* Where the recording goes: @output, or a temporary file (@temporary). FALSE, said, when no
 * temporary file can be made. */
static gboolean
recording_path (const char  *output,
                char       **path,
                gboolean    *temporary)
{
  g_autoptr(GError) error = NULL;
  int fd;

  if (output != NULL)
    {
      *path = g_strdup (output);
      return TRUE;
    }
  fd = g_file_open_tmp ("tickscope-top-XXXXXX.txt", path, &error);
  if (fd < 0)
    {
      fprintf (stderr, "tickscope-cli top: %s\n", error->message);
      return FALSE;
    }
  close (fd);
  *temporary = TRUE;
  return TRUE;
}

/* The link to the board at @port (@transport) and a recorder into @path: NULL, said, when
 * either cannot be had. */
static TksRecorder *
open_recorder (const char    *port,
               int            baud,
               const char    *path,
               gboolean       events,
               Top           *top,
               TksTransport **transport)
{
  g_autoptr(GError) error = NULL;
  TksTransportOptions topts = { 0 };
  TksRecorder *recorder;

#ifdef HAVE_SIMBOARD
  tks_transport_set_demo_funcs (tks_simboard_start_demo, tks_simboard_stop_demo);
#endif
  topts.baud = (guint) baud;
  *transport = tks_transport_open (port, &topts, NULL, &error);
  if (*transport == NULL)
    {
      fprintf (stderr, "tickscope-cli top: %s\n", error->message);
      return NULL;
    }
  recorder = tks_recorder_new (path, &error);
  if (recorder == NULL)
    {
      fprintf (stderr, "tickscope-cli top: %s\n", error->message);
      return NULL;
    }
  tks_recorder_set_notice_func (recorder, on_notice, top);
  tks_recorder_set_events (recorder, events);
  return recorder;
}

/* An interval is over: the end of the recording, read back, shown. */
static void
show_tail (Top                    *top,
           TksRecordingTail       *tail,
           const TksRecorderStats *st)
{
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) tail_error = NULL;
  double rate = st->seconds > 0 ? st->bytes / st->seconds : 0;

  /* the tail holds about three intervals, within 256 KiB and 64 MiB */
  tks_recording_tail_set_max_bytes (tail, (gsize) CLAMP (rate * top->interval * 3,
                                                         256 * 1024, 64 * 1024 * 1024));
  capture = read_tail (tail, &tail_error);
  if (capture != NULL)
    show_interval (top, capture, st);
  else if (tail_error != NULL)
    {
      g_autofree char *shown = tks_cli_escape (tail_error->message);

      fprintf (stderr, "tickscope-cli top: %s\n", shown);
    }
}

/* Records and shows an interval at a time until asked to stop (Ctrl+C, @count intervals,
 * @duration seconds): TRUE then, FALSE with @error when the board or the link ended it. */
static gboolean
record_intervals (Top              *top,
                  TksRecorder      *recorder,
                  TksRecordingTail *tail,
                  int               count,
                  double            duration,
                  GError          **error)
{
  gint64 begin = g_get_monotonic_time ();
  gint64 next = begin + (gint64) (top->interval * G_USEC_PER_SEC);
  TksRecorderStats st;

  for (;;)
    {
      gint64 now = g_get_monotonic_time ();

      if (interrupted || (duration > 0 && now - begin >= (gint64) (duration * G_USEC_PER_SEC)) ||
          (count > 0 && top->n_shown >= (guint) count))
        return TRUE;
      if (!tks_recorder_step (recorder, 100, NULL, error))
        return FALSE;
      tks_recorder_get_stats (recorder, &st);
      if (st.ended)
        {
          g_set_error_literal (error, TKS_ERROR, TKS_ERROR_DISCONNECTED,
                               _("The board ended the recording"));
          return FALSE;
        }
      if (g_get_monotonic_time () >= next)
        {
          next += (gint64) (top->interval * G_USEC_PER_SEC);
          show_tail (top, tail, &st);
        }
    }
}

/* Closes the file of a recording stopped as asked (@stopped) or ended by the board or the
 * link (@error): the exit status. */
static int
end_recording (TksRecorder *recorder,
               gboolean     stopped,
               GError      *error)
{
  g_autoptr(GError) close_error = NULL;
  TksRecorderStats st;
  int status = TKS_CLI_OK;

  if (!stopped)
    {
      fprintf (stderr, "tickscope-cli top: %s\n", error->message);
      status = TKS_CLI_BAD;
    }
  g_clear_error (&error);
  if (!tks_recorder_close (recorder, &close_error))
    {
      fprintf (stderr, "tickscope-cli top: %s\n", close_error->message);
      status = TKS_CLI_BAD;
    }
  tks_recorder_get_stats (recorder, &st);
  if (st.damaged > 0)
    fprintf (stderr, _("tickscope-cli top: warning: %u lines arrived damaged or not at all\n"),
             st.damaged);
  return status;
}

int
tks_cli_top (int    argc,
             char **argv)
{
  g_autofree char *output = NULL;
  g_autofree char *interval_text = NULL;
  double duration = 0;
  int count = 0, baud = 0;
  gboolean json = FALSE, events = FALSE;
  GOptionEntry entries[] = {
    { "interval", 'i', 0, G_OPTION_ARG_STRING, &interval_text,
      N_("Seconds between two tables (default 1)"), "S" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("One JSON object per interval, on one line, for dashboards"), NULL },
    { "events", 'e', 0, G_OPTION_ARG_NONE, &events,
      N_("Record every event with the counter: handlers' shares, exact runs (a fast link)"), NULL },
    { "count", 'n', 0, G_OPTION_ARG_INT, &count, N_("Stop after N intervals"), "N" },
    { "duration", 'd', 0, G_OPTION_ARG_DOUBLE, &duration, N_("Stop after SECONDS"), "SECONDS" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Keep the recording in FILE (default: a temporary file, removed at the end)"), "FILE" },
    { "baud", 'b', 0, G_OPTION_ARG_INT, &baud, N_("Serial speed (default 115200)"), "BAUD" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("PORT");
  g_autoptr(GError) error = NULL;
  g_autoptr(TksTransport) transport = NULL;
  g_autoptr(TksRecorder) recorder = NULL;
  g_autoptr(GHashTable) max_share = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  TksRecordingTail *tail = NULL;
  Top top = { 0 };
  struct sigaction sa, old_sa;
  g_autofree char *path = NULL;
  gboolean temporary = FALSE, stopped;
  int status = TKS_CLI_OK;

  g_option_context_set_summary (context,
    _("Records a board (threads_record) and shows, every interval, each thread's share of\n"
      "the CPU, its highest share so far, its switches and longest run, and each handler's\n"
      "share (with --events). The table is redrawn in place on a terminal and printed once\n"
      "per interval otherwise; --json prints one JSON object per interval on a line. Entries\n"
      "the board dropped are counted in every table. Ctrl+C stops the board's recording and\n"
      "ends with status 0."));
  g_option_context_set_description (context,
    _("PORT is a serial port (/dev/ttyACM0, COM3), a pty, tcp:HOST:PORT or demo.\n"
      "Exit status: 0 when ended as asked (Ctrl+C, --count, --duration), 1 when the board or\n"
      "the link ended it, 2 misuse."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_set_prgname ("tickscope-cli top");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "tickscope-cli top: %s\n", error->message);
      return TKS_CLI_MISUSE;
    }
  if (!check_top_args (argc, interval_text, count, duration, baud, &top.interval))
    return TKS_CLI_MISUSE;
  top.json = json;
  top.tty = !json && isatty (STDOUT_FILENO);
  top.max_share = max_share;

  if (!recording_path (output, &path, &temporary))
    return TKS_CLI_BAD;
  recorder = open_recorder (argv[1], baud, path, events, &top, &transport);
  if (recorder == NULL)
    {
      status = TKS_CLI_BAD;
      goto out;
    }

  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, &old_sa);
  sigaction (SIGTERM, &sa, NULL);
  interrupted = 0;

  if (!tks_recorder_start (recorder, g_steal_pointer (&transport), NULL, &error))
    {
      fprintf (stderr, "tickscope-cli top: %s\n", error->message);
      sigaction (SIGINT, &old_sa, NULL);
      signal (SIGTERM, SIG_DFL);
      (void) tks_recorder_close (recorder, NULL);
      status = TKS_CLI_BAD;
      goto out;
    }
  /* room for a few intervals at the link's rate, grown as the rate shows */
  tail = tks_recording_tail_new (path, 256 * 1024);
  stopped = record_intervals (&top, recorder, tail, count, duration, &error);
  if (stopped && !tks_recorder_stop (recorder, NULL, &error))
    stopped = FALSE;
  sigaction (SIGINT, &old_sa, NULL);
  signal (SIGTERM, SIG_DFL);
  status = end_recording (recorder, stopped, g_steal_pointer (&error));

out:
  g_clear_pointer (&tail, tks_recording_tail_free);
  if (temporary)
    g_unlink (path);
  return status;
}
