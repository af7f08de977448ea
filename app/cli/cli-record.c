/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "tks-capture-private.h"
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

/* Ctrl+C: the first stops the recording as asked (the board sends what it still holds, then
 * its end line); the next cancels every wait at once, the file keeping what arrived. SIGINT is
 * blocked in every thread and taken by one of its own (sigwait), which may cancel. */
typedef struct
{
  sigset_t      set;
  sigset_t      old_set;
  pthread_t     thread;
  GCancellable *cancellable;
  gint          count;
  gint          done;
} Interrupts;

static void *
watch_interrupts (void *data)
{
  Interrupts *ints = data;

  for (;;)
    {
      int sig = 0;

      if (sigwait (&ints->set, &sig) != 0)
        continue;
      if (g_atomic_int_get (&ints->done))
        return NULL;
      if (g_atomic_int_add (&ints->count, 1) >= 1)
        g_cancellable_cancel (ints->cancellable);
    }
}

static gboolean
interrupts_watch (Interrupts *ints)
{
  sigemptyset (&ints->set);
  sigaddset (&ints->set, SIGINT);
  ints->cancellable = g_cancellable_new ();
  if (pthread_sigmask (SIG_BLOCK, &ints->set, &ints->old_set) != 0)
    return FALSE;
  if (pthread_create (&ints->thread, NULL, watch_interrupts, ints) != 0)
    {
      pthread_sigmask (SIG_SETMASK, &ints->old_set, NULL);
      return FALSE;
    }
  return TRUE;
}

static void
interrupts_unwatch (Interrupts *ints)
{
  g_atomic_int_set (&ints->done, 1);
  pthread_kill (ints->thread, SIGINT);
  pthread_join (ints->thread, NULL);
  pthread_sigmask (SIG_SETMASK, &ints->old_set, NULL);
  g_clear_object (&ints->cancellable);
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

typedef struct
{
  const char          *port;
  const char          *output;
  TksTransportOptions  topts;
  gboolean             events;
  gboolean             quiet;
  double               duration;  /* seconds, 0: until Ctrl+C */
} Request;

/* Streams until --duration, Ctrl+C, or the board or the link ends it (FALSE with @error). */
static gboolean
record_loop (const Request *req,
             Interrupts    *ints,
             Record        *rec,
             TksRecorder   *recorder,
             GError       **error)
{
  gboolean tty = !req->quiet && isatty (STDERR_FILENO);
  gint64 begin = g_get_monotonic_time (), last_progress = 0;
  TksRecorderStats st;

  for (;;)
    {
      gint64 now = g_get_monotonic_time ();

      if (g_atomic_int_get (&ints->count) > 0 ||
          (req->duration > 0 && now - begin >= (gint64) (req->duration * G_USEC_PER_SEC)))
        return TRUE;
      if (!tks_recorder_step (recorder, 100, ints->cancellable, error))
        return FALSE;
      tks_recorder_get_stats (recorder, &st);
      if (st.ended)
        {
          /* The board ended it (it stops by itself after a stop byte only). */
          g_set_error_literal (error, TKS_ERROR, TKS_ERROR_DISCONNECTED,
                               _("The board ended the recording"));
          return FALSE;
        }
      if (tty && now - last_progress >= G_USEC_PER_SEC / 2)
        {
          last_progress = now;
          show_progress (rec, recorder);
        }
    }
}

/* Asks the board to end the recording and waits for its end line, unless Ctrl+C comes again. */
static gboolean
record_stop (const Request *req,
             Interrupts    *ints,
             Record        *rec,
             TksRecorder   *recorder,
             GError       **error)
{
  if (g_atomic_int_get (&ints->count) > 0 && !req->quiet)
    {
      if (rec->progress_shown)
        fputs ("\r\033[K", stderr);
      rec->progress_shown = FALSE;
      fprintf (stderr, _("tickscope-cli record: stopping: the board sends what it still holds, "
                         "then ends (Ctrl+C again ends at once)\n"));
    }
  if (tks_recorder_stop (recorder, ints->cancellable, error))
    return TRUE;
  if (g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_clear_error (error);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           _("Ctrl+C again: ended without waiting for the board's end line"));
    }
  return FALSE;
}

/* What the stream held that is no part of the recording, or more than a capture keeps: counted
 * here as the reader of the file warns of it. */
static void
print_stream_problems (const TksRecorderStats *st)
{
  if (st->ignored > 0)
    fprintf (stderr, g_dngettext (GETTEXT_PACKAGE,
                                  "tickscope-cli record: warning: %u end line in the middle of "
                                  "the stream was ignored (noise on the link?)\n",
                                  "tickscope-cli record: warning: %u end lines in the middle of "
                                  "the stream were ignored (noise on the link?)\n", st->ignored),
             st->ignored);
  if (st->misnumbered > 0)
    fprintf (stderr, g_dngettext (GETTEXT_PACKAGE,
                                  "tickscope-cli record: warning: %u thread came with a number "
                                  "that is not the next (lines were lost?)\n",
                                  "tickscope-cli record: warning: %u threads came with a number "
                                  "that is not the next (lines were lost?)\n", st->misnumbered),
             st->misnumbered);
  if (st->holes_not_kept > 0)
    {
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, st->holes_not_kept);

      /* Translators: a count of holes, then the most a capture keeps */
      fprintf (stderr, _("tickscope-cli record: warning: %s holes beyond the %u a capture keeps "
                         "are not shown: runs across them are drawn too long\n"), n,
               (guint) TKS_MAX_GAPS);
    }
}

static void
print_summary (TksRecorder *recorder)
{
  TksRecorderStats st;
  g_autofree char *n_events = NULL, *dropped = NULL, *bytes = NULL;

  tks_recorder_get_stats (recorder, &st);
  if (st.damaged > 0)
    fprintf (stderr, g_dngettext (GETTEXT_PACKAGE,
                                  "tickscope-cli record: warning: %u line arrived damaged or "
                                  "not at all (its records are lost)\n",
                                  "tickscope-cli record: warning: %u lines arrived damaged or "
                                  "not at all (their records are lost)\n", st.damaged),
             st.damaged);
  print_stream_problems (&st);
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
}

static int
record (const Request *req,
        Interrupts    *ints)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TksTransport) transport = NULL;
  g_autoptr(TksRecorder) recorder = NULL;
  Record rec = { 0 };
  gboolean stopped;
  int status = TKS_CLI_OK;

  transport = tks_transport_open (req->port, &req->topts, ints->cancellable, &error);
  if (transport == NULL)
    {
      fprintf (stderr, "tickscope-cli record: %s\n", error->message);
      return TKS_CLI_BAD;
    }
  recorder = tks_recorder_new (req->output, &error);
  if (recorder == NULL)
    {
      fprintf (stderr, "tickscope-cli record: %s\n", error->message);
      return TKS_CLI_BAD;
    }
  tks_recorder_set_notice_func (recorder, on_notice, &rec);
  tks_recorder_set_events (recorder, req->events);
  if (!tks_recorder_start (recorder, g_steal_pointer (&transport), ints->cancellable, &error))
    {
      fprintf (stderr, "tickscope-cli record: %s\n", error->message);
      (void) tks_recorder_close (recorder, NULL);
      return TKS_CLI_BAD;
    }

  stopped = record_loop (req, ints, &rec, recorder, &error) &&
            record_stop (req, ints, &rec, recorder, &error);
  if (rec.progress_shown)
    fputs ("\r\033[K", stderr);
  if (!stopped)
    {
      fprintf (stderr, _("tickscope-cli record: %s; %s holds the recording up to there\n"),
               error->message, req->output);
      status = TKS_CLI_BAD;
    }
  g_clear_error (&error);
  if (!tks_recorder_close (recorder, &error))
    {
      fprintf (stderr, "tickscope-cli record: %s\n", error->message);
      status = TKS_CLI_BAD;
    }
  print_summary (recorder);
  return status;
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
  Request req = { 0 };
  Interrupts ints = { 0 };
  int status;

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
      "Ctrl+C stops the recording as asked; a second Ctrl+C ends it at once, without waiting\n"
      "for the board's end line (the file keeps what arrived).\n"
      "Exit status: 0 when the recording ended as asked, 1 when the board or the link ended\n"
      "it or a second Ctrl+C cut it (the file is complete up to there), 2 misuse."));
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

  req.port = argv[1];
  req.output = output;
  req.events = events;
  req.quiet = quiet;
  req.duration = duration;
  req.topts.baud = (guint) baud;
  req.topts.flow_control = flow == NULL || g_str_equal (flow, "none") ? TKS_FLOW_NONE
                           : g_str_equal (flow, "xonxoff") ? TKS_FLOW_XONXOFF : TKS_FLOW_RTSCTS;
#ifdef HAVE_SIMBOARD
  tks_transport_set_demo_funcs (tks_simboard_start_demo, tks_simboard_stop_demo);
#endif
  /* (before any thread starts: they inherit the blocked SIGINT) */
  if (!interrupts_watch (&ints))
    {
      fprintf (stderr, _("tickscope-cli record: cannot watch for Ctrl+C\n"));
      return TKS_CLI_BAD;
    }
  status = record (&req, &ints);
  interrupts_unwatch (&ints);
  return status;
}
