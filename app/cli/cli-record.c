/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "tks-cli.h"
#include "tks-error.h"
#include "tks-recorder.h"
#include "tks-transport.h"

#ifdef HAVE_SIMBOARD
#include "tks-simboard.h"
#endif

/* tickscope-cli record: the board streams its log (threads_record) into a file until a
 * duration passes or Ctrl+C, the file written as it arrives. */

/* --duration: a millisecond to a year. */
#define MIN_DURATION 0.001
#define MAX_DURATION (365.0 * 24 * 3600)

/* Problems of the stream printed one by one; the rest are counted in the summary. */
#define MAX_NOTICES 20

static volatile sig_atomic_t interrupted;

static void
on_sigint (int signum)
{
  (void) signum;
  interrupted = 1;
}

typedef struct
{
  guint    n_notices;
  gboolean progress_shown;
} Record;

static void
on_notice (const char *message,
           gpointer    user_data)
{
  Record *rec = user_data;

  rec->n_notices++;
  if (rec->n_notices > MAX_NOTICES)
    return;
  if (rec->progress_shown)
    fputs ("\r\033[K", stderr);
  {
    g_autofree char *shown = tks_cli_escape (message);

    fprintf (stderr, _("tickscope-cli record: warning: %s\n"), shown);
  }
  if (rec->n_notices == MAX_NOTICES)
    fprintf (stderr, _("tickscope-cli record: (further warnings are only counted)\n"));
}

static void
show_progress (Record      *rec,
               TksRecorder *recorder)
{
  TksRecorderStats st;
  g_autofree char *entries = NULL, *dropped = NULL, *bytes = NULL;

  tks_recorder_get_stats (recorder, &st);
  entries = g_strdup_printf ("%" G_GUINT64_FORMAT, st.entries);
  dropped = g_strdup_printf ("%" G_GUINT64_FORMAT, st.dropped);
  bytes = g_strdup_printf ("%" G_GUINT64_FORMAT, st.bytes);
  fprintf (stderr, "\r\033[K");
  /* Translators: the progress of a recording: seconds, events, dropped, bytes */
  fprintf (stderr, _("recording: %.0f s, %s events, %s dropped, %s bytes"),
           st.seconds, entries, dropped, bytes);
  fflush (stderr);
  rec->progress_shown = TRUE;
}

int
tks_cli_record (int    argc,
                char **argv)
{
  g_autofree char *output = NULL;
  g_autofree char *flow = NULL;
  g_autofree char *duration_text = NULL, *baud_text = NULL;
  double duration = 0, baud = 0;
  gboolean quiet = FALSE, events = FALSE;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write the recording to FILE, as it arrives"), "FILE" },
    { "duration", 'd', 0, G_OPTION_ARG_STRING, &duration_text,
      N_("Stop after SECONDS (default: at Ctrl+C)"), "SECONDS" },
    { "events", 'e', 0, G_OPTION_ARG_NONE, &events,
      N_("Every event of the board's log with its counter value, not only the switches at tick "
         "resolution (several times more bytes: a fast link)"), NULL },
    { "baud", 'b', 0, G_OPTION_ARG_STRING, &baud_text, N_("Serial speed (default 115200)"),
      "BAUD" },
    { "flow", 0, 0, G_OPTION_ARG_STRING, &flow,
      N_("Flow control: none, xonxoff or rtscts (default none)"), "FLOW" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("No progress on standard error"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("PORT");
  g_autoptr(GError) error = NULL;
  g_autoptr(TksTransport) transport = NULL;
  g_autoptr(TksRecorder) recorder = NULL;
  TksTransportOptions topts = { 0 };
  TksRecorderStats st;
  g_autofree char *n_events = NULL, *dropped = NULL, *bytes = NULL;
  Record rec = { 0 };
  struct sigaction sa, old_sa;
  gboolean tty, stopped = TRUE;
  gint64 begin, last_progress = 0;
  int status = TKS_CLI_OK;

  g_option_context_set_summary (context,
    _("Records a board's threads continuously (threads_record) into FILE, which is written as "
      "the stream arrives and opens like any capture (tickscope-cli info FILE), also when the "
      "recording was cut. Ends after --duration, at Ctrl+C, or when the board stops or the link "
      "fails (with a message; the file then holds everything up to that point). Ends with: N "
      "events in S s, D dropped, B bytes (X bytes/event). Dropped: records the board could "
      "not send because the link was too slow; they are marked in the file where they were."));
  g_option_context_set_description (context,
    _("PORT is a serial port (/dev/ttyACM0, COM3), a pty (/dev/pts/N), tcp:HOST:PORT or demo.\n"
      "The board needs the library built with THREADS_TIMESTAMPS_RECORD = true. While it\n"
      "records, the host sends a keep-alive byte every second; the board stops streaming\n"
      "three seconds after the last one, and at once on the stop byte sent at the end.\n"
      "Exit status: 0 when the recording ended as asked, 1 when the board or the link ended\n"
      "it (the file is complete up to there), 2 misuse."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_set_prgname ("tickscope-cli record");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "tickscope-cli record: %s\n", error->message);
      return TKS_CLI_MISUSE;
    }
  if (argc != 2)
    {
      fprintf (stderr, _("tickscope-cli %s: give one PORT (see tickscope-cli %s --help)\n"),
               "record", "record");
      return TKS_CLI_MISUSE;
    }
  if (output == NULL || strcmp (output, "-") == 0)
    {
      fprintf (stderr, _("tickscope-cli record: say where the recording goes: -o FILE.txt\n"));
      return TKS_CLI_MISUSE;
    }
  if (!tks_cli_number_option ("record", "duration", duration_text, _("a number of seconds"),
                              MIN_DURATION, MAX_DURATION, FALSE, &duration) ||
      !tks_cli_baud_option ("record", baud_text, &baud))
    return TKS_CLI_MISUSE;
  if (flow != NULL && !g_str_equal (flow, "none") && !g_str_equal (flow, "xonxoff") &&
      !g_str_equal (flow, "rtscts"))
    {
      fprintf (stderr, _("tickscope-cli record: --flow is none, xonxoff or rtscts\n"));
      return TKS_CLI_MISUSE;
    }

#ifdef HAVE_SIMBOARD
  tks_transport_set_demo_funcs (tks_simboard_start_demo, tks_simboard_stop_demo);
#endif
  topts.baud = (guint) baud;
  topts.flow_control = flow == NULL || g_str_equal (flow, "none") ? TKS_FLOW_NONE
                       : g_str_equal (flow, "xonxoff") ? TKS_FLOW_XONXOFF : TKS_FLOW_RTSCTS;
  transport = tks_transport_open (argv[1], &topts, NULL, &error);
  if (transport == NULL)
    {
      fprintf (stderr, "tickscope-cli record: %s\n", error->message);
      return TKS_CLI_BAD;
    }
  recorder = tks_recorder_new (output, &error);
  if (recorder == NULL)
    {
      fprintf (stderr, "tickscope-cli record: %s\n", error->message);
      return TKS_CLI_BAD;
    }
  tks_recorder_set_notice_func (recorder, on_notice, &rec);
  tks_recorder_set_events (recorder, events);

  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, &old_sa);
  interrupted = 0;

  if (!tks_recorder_start (recorder, g_steal_pointer (&transport), NULL, &error))
    {
      fprintf (stderr, "tickscope-cli record: %s\n", error->message);
      sigaction (SIGINT, &old_sa, NULL);
      (void) tks_recorder_close (recorder, NULL);
      return TKS_CLI_BAD;
    }

  tty = !quiet && isatty (STDERR_FILENO);
  begin = g_get_monotonic_time ();
  for (;;)
    {
      gint64 now = g_get_monotonic_time ();

      if (interrupted || (duration > 0 && now - begin >= (gint64) (duration * G_USEC_PER_SEC)))
        break;
      if (!tks_recorder_step (recorder, 100, NULL, &error))
        {
          stopped = FALSE;
          break;
        }
      tks_recorder_get_stats (recorder, &st);
      if (st.ended)
        {
          /* The board ended it (it stops by itself after a stop byte only). */
          stopped = FALSE;
          g_set_error_literal (&error, TKS_ERROR, TKS_ERROR_DISCONNECTED,
                               _("The board ended the recording"));
          break;
        }
      if (tty && now - last_progress >= G_USEC_PER_SEC / 2)
        {
          last_progress = now;
          show_progress (&rec, recorder);
        }
    }
  if (stopped && !tks_recorder_stop (recorder, NULL, &error))
    stopped = FALSE;
  sigaction (SIGINT, &old_sa, NULL);
  if (rec.progress_shown)
    fputs ("\r\033[K", stderr);
  if (!stopped)
    {
      fprintf (stderr, _("tickscope-cli record: %s; %s holds the recording up to there\n"),
               error->message, output);
      status = TKS_CLI_BAD;
    }
  g_clear_error (&error);
  if (!tks_recorder_close (recorder, &error))
    {
      fprintf (stderr, "tickscope-cli record: %s\n", error->message);
      status = TKS_CLI_BAD;
    }

  tks_recorder_get_stats (recorder, &st);
  if (st.damaged > 0)
    fprintf (stderr, g_dngettext (GETTEXT_PACKAGE,
                                  "tickscope-cli record: warning: %u line arrived damaged or "
                                  "not at all (its records are lost)\n",
                                  "tickscope-cli record: warning: %u lines arrived damaged or "
                                  "not at all (their records are lost)\n", st.damaged),
             st.damaged);
  n_events = g_strdup_printf ("%" G_GUINT64_FORMAT, st.entries);
  dropped = g_strdup_printf ("%" G_GUINT64_FORMAT, st.dropped);
  bytes = g_strdup_printf ("%" G_GUINT64_FORMAT, st.bytes);
  /* Translators: the summary of a recording: events, seconds, dropped, bytes, bytes/event */
  printf (_("%s events in %.1f s, %s dropped, %s bytes (%.2f bytes/event)\n"),
          n_events, st.seconds, dropped, bytes,
          st.entries > 0 ? (double) st.bytes / (double) st.entries : 0.0);
  if (st.counted > 0)
    {
      g_autofree char *counted = g_strdup_printf ("%" G_GUINT64_FORMAT, st.counted);

      /* Translators: calls of interrupt handlers the board counted without logging them */
      printf (_("%s handler calls counted, not logged (the board's link)\n"), counted);
    }
  return status;
}
