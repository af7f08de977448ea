/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "tks-cli.h"
#include "tks-error.h"
#include "tks-events.h"
#include "tks-session.h"
#include "tks-transport.h"

#ifdef HAVE_SIMBOARD
#include "tks-simboard.h"
#endif

/* tickscope-cli fetch / trigger / run: one command to a board, for scripts and test rigs. */

typedef struct
{
  GMainLoop    *loop;
  GAsyncResult *result;
  gboolean      show_progress;
  gboolean      progress_shown;
} Wait;

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Wait *wait = user_data;

  wait->result = g_object_ref (result);
  g_main_loop_quit (wait->loop);
}

static GAsyncResult *
wait_for (Wait *wait)
{
  g_clear_object (&wait->result);
  g_main_loop_run (wait->loop);
  return wait->result;
}

static void
on_progress (TksSession *session,
             guint64     bytes,
             guint       records,
             double      fraction,
             double      seconds_left,
             gpointer    user_data)
{
  Wait *wait = user_data;

  if (!wait->show_progress)
    return;
  {
    g_autofree char *count = g_strdup_printf ("%8" G_GUINT64_FORMAT, bytes);

    /* Translators: the progress of a fetch: bytes and records received so far */
    fputc ('\r', stderr);
    fprintf (stderr, _("%s bytes, %6u records"), count, records);
  }
  if (fraction >= 0)
    fprintf (stderr, ", %3.0f %%", fraction * 100);
  if (seconds_left >= 0)
    /* Translators: the progress of a fetch: seconds left */
    fprintf (stderr, _(", %4.1f s left"), seconds_left);
  fprintf (stderr, "   ");
  fflush (stderr);
  wait->progress_shown = TRUE;
}

typedef TksCliBoardOptions Options;

static int
parse_args (const char  *name,
            const char  *summary,
            gboolean     want_output,
            int         *argc,
            char      ***argv,
            Options     *opts,
            const char **port)
{
  GOptionEntry fetch_entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opts->output,
      N_("Write the capture to FILE (“-”: standard output)"), "FILE" },
    { "no-history", 0, 0, G_OPTION_ARG_NONE, &opts->no_history,
      N_("Do not keep a copy in the capture history"), NULL },
    { NULL }
  };
  GOptionEntry entries[] = {
    { "baud", 'b', 0, G_OPTION_ARG_STRING, &opts->baud_text, N_("Serial speed (default 115200)"),
      "BAUD" },
    { "timeout", 't', 0, G_OPTION_ARG_STRING, &opts->timeout_text,
      N_("Seconds the board may stay silent (default 2)"), "SECONDS" },
    { "flow", 0, 0, G_OPTION_ARG_STRING, &opts->flow,
      N_("Flow control: none, xonxoff or rtscts (default none)"), "FLOW" },
    { "slow-paste", 0, 0, G_OPTION_ARG_NONE, &opts->slow_paste,
      N_("Send commands one character per millisecond"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &opts->quiet, N_("No progress on standard error"), NULL },
    { NULL }
  };
  /* trigger: a condition, and the wait for the board to freeze (cli-trigger.c) */
  GOptionEntry trigger_entries[] = {
    { "when", 'w', 0, G_OPTION_ARG_STRING, &opts->when,
      N_("Set the trigger on a condition: “latency comm > 1000us”, “irq USART2_IRQHandler > "
         "50us”, “run worker > 2ms”, “marker sample = 42”, “off”"), "CONDITION" },
    { "wait", 0, 0, G_OPTION_ARG_NONE, &opts->wait,
      N_("Wait until the board's log froze, then fetch it into -o FILE (--timeout: the longest "
         "wait in seconds, default none)"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opts->output,
      N_("With --wait: write the capture to FILE (“-”: standard output)"), "FILE" },
    { "no-history", 0, 0, G_OPTION_ARG_NONE, &opts->no_history,
      N_("Do not keep a copy in the capture history"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *prgname = g_strdup_printf ("tickscope-cli %s", name);

  context = g_option_context_new ("PORT");
  g_option_context_set_summary (context, summary);
  g_option_context_set_description (context,
    _("PORT is a serial port (/dev/ttyACM0, COM3), a pty (/dev/pts/N), tcp:HOST:PORT or demo."));
  if (want_output)
    g_option_context_add_main_entries (context, fetch_entries, GETTEXT_PACKAGE);
  if (g_str_equal (name, "trigger"))
    g_option_context_add_main_entries (context, trigger_entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_set_prgname (prgname);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      fprintf (stderr, "tickscope-cli %s: %s\n", name, error->message);
      return TKS_CLI_MISUSE;
    }
  if (*argc != 2)
    {
      /* Translators: the subcommand, twice */
      fprintf (stderr, _("tickscope-cli %s: give one PORT (see tickscope-cli %s --help)\n"), name,
               name);
      return TKS_CLI_MISUSE;
    }
  if (want_output && opts->output == NULL)
    {
      fprintf (stderr, _("tickscope-cli %s: say where the capture goes: -o FILE.txt (or -o - for "
                         "standard output)\n"), name);
      return TKS_CLI_MISUSE;
    }
  if (!tks_cli_baud_option (name, opts->baud_text, &opts->baud) ||
      !tks_cli_number_option (name, "timeout", opts->timeout_text, _("a number of seconds"),
                              TKS_CLI_MIN_TIMEOUT, TKS_CLI_MAX_TIMEOUT, FALSE, &opts->timeout))
    return TKS_CLI_MISUSE;
  if (opts->flow && !g_str_equal (opts->flow, "none") && !g_str_equal (opts->flow, "xonxoff")
      && !g_str_equal (opts->flow, "rtscts"))
    {
      fprintf (stderr, _("tickscope-cli %s: --flow is none, xonxoff or rtscts\n"), name);
      return TKS_CLI_MISUSE;
    }
  *port = (*argv)[1];
  return TKS_CLI_OK;
}

static TksSession *
connect_board (const char *name,
               const char *port,
               Options    *opts,
               Wait       *wait)
{
  g_autoptr(TksSession) session = tks_session_new ();
  g_autoptr(GError) error = NULL;

#ifdef HAVE_SIMBOARD
  tks_transport_set_demo_funcs (tks_simboard_start_demo, tks_simboard_stop_demo);
#endif

  if (opts->baud > 0)
    tks_session_set_baud (session, (guint) opts->baud);
  if (opts->timeout > 0)
    tks_session_set_timeout (session, (guint) MAX (opts->timeout * 1000, 1.0));
  tks_session_set_slow_paste (session, opts->slow_paste);
  if (opts->flow && g_str_equal (opts->flow, "xonxoff"))
    tks_session_set_flow_control (session, TKS_FLOW_XONXOFF);
  else if (opts->flow && g_str_equal (opts->flow, "rtscts"))
    tks_session_set_flow_control (session, TKS_FLOW_RTSCTS);
  tks_session_set_save_history (session, !opts->no_history);
  g_signal_connect (session, "progress", G_CALLBACK (on_progress), wait);

  tks_session_connect_async (session, port, NULL, on_done, wait);
  if (!tks_session_connect_finish (session, wait_for (wait), &error))
    {
      fprintf (stderr, "tickscope-cli %s: %s\n", name, error->message);
      return NULL;
    }
  return g_steal_pointer (&session);
}

void
tks_cli_board_options_clear (TksCliBoardOptions *opts)
{
  g_clear_pointer (&opts->output, g_free);
  g_clear_pointer (&opts->flow, g_free);
  g_clear_pointer (&opts->baud_text, g_free);
  g_clear_pointer (&opts->timeout_text, g_free);
  g_clear_pointer (&opts->when, g_free);
}

static void
options_clear (Options *opts)
{
  tks_cli_board_options_clear (opts);
}

static void
wait_clear (Wait *wait)
{
  g_clear_object (&wait->result);
  g_clear_pointer (&wait->loop, g_main_loop_unref);
}

static int fetch_into (const char *name, TksSession *session, Options *opts, Wait *wait,
                       TksCapture **fetched);

int
tks_cli_fetch (int    argc,
               char **argv)
{
  Options opts = { 0 };
  Wait wait = { 0 };
  const char *port = NULL;
  g_autoptr(TksSession) session = NULL;
  int ret;

  ret = parse_args ("fetch", _("Gets the thread list and the log from a board and writes a capture."),
                    TRUE, &argc, &argv, &opts, &port);
  if (ret != TKS_CLI_OK)
    goto out;

  wait.loop = g_main_loop_new (NULL, FALSE);
  wait.show_progress = !opts.quiet && isatty (STDERR_FILENO);
  session = connect_board ("fetch", port, &opts, &wait);
  if (session == NULL)
    {
      ret = TKS_CLI_BAD;
      goto out;
    }
  ret = fetch_into ("fetch", session, &opts, &wait, NULL);

out:
  if (session != NULL)
    tks_session_disconnect (session);
  options_clear (&opts);
  wait_clear (&wait);
  return ret;
}

/* The board's replies arrived damaged: where the bytes as received are kept (@raw, or NULL). */
static void
warn_damaged (const char *name,
              const char *raw)
{
  g_autofree char *kept = raw != NULL ? tks_cli_escape (raw) : NULL;

  if (kept != NULL && !g_str_equal (name, "fetch"))
    /* Translators: the file of the history that keeps the bytes */
    fprintf (stderr, _("tickscope-cli trigger: warning: the board's replies arrived "
                       "damaged; the bytes as received are kept in %s (the lines named "
                       "above are its lines)\n"), kept);
  else if (kept != NULL)
    /* Translators: the file of the history that keeps the bytes */
    fprintf (stderr, _("tickscope-cli fetch: warning: the board's replies arrived damaged; "
                       "the bytes as received are kept in %s (the lines named above are its "
                       "lines)\n"), kept);
  else if (!g_str_equal (name, "fetch"))
    fprintf (stderr, _("tickscope-cli trigger: warning: the board's replies arrived "
                       "damaged\n"));
  else
    fprintf (stderr, _("tickscope-cli fetch: warning: the board's replies arrived damaged\n"));
}

/* The summary of a fetch: what it brought, from where, at what cost. */
static void
print_fetch_summary (TksSession *session,
                     TksCapture *capture)
{
  g_autofree char *board = tks_cli_escape (tks_session_get_description (session));
  const char *saved = tks_session_get_last_saved_path (session);
  guint n_threads = tks_capture_get_n_threads (capture);
  guint n_records = tks_capture_get_n_records (capture);
  TksEvents *events = tks_capture_get_events (capture);
  /* Translators: the summary of a fetch, as in “12 threads, 3000 records from ChibiOS
   * shell on /dev/ttyACM0 at 115200 baud” */
  g_autofree char *threads = g_strdup_printf (ngettext ("%u thread", "%u threads", n_threads),
                                              n_threads);
  g_autofree char *records = g_strdup_printf (ngettext ("%u record", "%u records", n_records),
                                              n_records);
  guint64 bytes;
  double seconds;
  g_autofree char *size = NULL;

  if (saved != NULL)
    /* Translators: threads, records, the board, then the file of the history */
    fprintf (stderr, _("%s, %s from %s; kept in %s\n"), threads, records, board, saved);
  else
    /* Translators: threads, records, then the board */
    fprintf (stderr, _("%s, %s from %s\n"), threads, records, board);
  tks_session_get_last_fetch_size (session, &bytes, &seconds);
  size = g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);
  if (events == NULL)
    /* Translators: what a fetch cost: records, bytes received, seconds, bytes a record */
    fprintf (stderr, _("%u records, %s bytes in %.2f s (%.2f bytes/record)\n"), n_records,
             size, seconds, n_records > 0 ? (double) bytes / n_records : 0.0);
  else
    {
      /* The log holds events besides the switches: what each of them cost differs. */
      guint n_entries;

      tks_events_get_entries (events, &n_entries);
      /* Translators: what a fetch of a log with events cost: switches, entries of the
       * log (switches and events), bytes received, seconds, bytes a switch, bytes an
       * entry */
      fprintf (stderr, _("%u switches in %u log entries, %s bytes in %.2f s (%.2f bytes per "
                         "switch, %.2f bytes per log entry)\n"), n_records, n_entries, size,
               seconds, n_records > 0 ? (double) bytes / n_records : 0.0,
               n_entries > 0 ? (double) bytes / n_entries : 0.0);
    }
}

/* The fetch of `fetch` on a connected @session: the capture written to opts->output (and
 * given in @fetched when not NULL), its warnings and (unless quiet) its summary on stderr. */
static int
fetch_into (const char  *name,
            TksSession  *session,
            Options     *opts,
            Wait        *wait,
            TksCapture **fetched)
{
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(TksCapture) written = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *prefix = g_strdup_printf ("tickscope-cli %s: ", name);
  const char * const *warnings;
  const char *raw;
  gboolean damaged;
  guint n_warnings = 0;

  tks_session_fetch_async (session, NULL, on_done, wait);
  capture = tks_session_fetch_finish (session, wait_for (wait), &error);
  if (wait->progress_shown)
    fprintf (stderr, "\n");
  if (capture == NULL)
    {
      g_autofree char *message = tks_cli_escape (error->message);

      fprintf (stderr, "%s%s\n", prefix, message);
      return TKS_CLI_BAD;
    }

  if (!tks_capture_write (capture, text, NULL, 0)
      || !tks_cli_write_output (opts->output, text->str, text->len, &error))
    {
      fprintf (stderr, "%s%s\n", prefix,
               error ? error->message : _("the capture could not be written"));
      return TKS_CLI_BAD;
    }

  /* The warnings name lines of the file just written, as `tickscope-cli info` on it does,
   * not lines of the board's replies, which the user never sees; unless the replies arrived
   * damaged: the warnings then come from what was received (the file written no longer holds
   * the damaged lines), and name lines of the received bytes, kept in the history. */
  written = tks_capture_new_from_data (text->str, text->len, NULL);
  raw = tks_session_get_last_raw_path (session);
  /* (The file written keeps the reader's warnings about what arrived, as damage lines; the
   * session keeps the received bytes whenever lines were unreadable.) */
  damaged = raw != NULL || written == NULL;
  warnings = tks_capture_get_warnings (damaged ? capture : written, &n_warnings);
  for (guint i = 0; warnings != NULL && i < n_warnings; i++)
    tks_cli_print_warning (stderr, prefix, warnings[i]);
  if (damaged)
    warn_damaged (name, raw);
  if (!opts->quiet)
    print_fetch_summary (session, capture);
  if (fetched != NULL)
    *fetched = g_steal_pointer (&capture);
  return TKS_CLI_OK;
}

int
tks_cli_board_fetch (const char          *name,
                     TksSession          *session,
                     TksCliBoardOptions  *opts,
                     TksCapture         **fetched)
{
  Wait wait = { 0 };
  int ret;

  wait.loop = g_main_loop_new (NULL, FALSE);
  wait.show_progress = !opts->quiet && isatty (STDERR_FILENO);
  g_signal_connect (session, "progress", G_CALLBACK (on_progress), &wait);
  ret = fetch_into (name, session, opts, &wait, fetched);
  g_signal_handlers_disconnect_by_data (session, &wait);
  wait_clear (&wait);
  return ret;
}

TksSession *
tks_cli_board_connect (const char         *name,
                       const char         *port,
                       TksCliBoardOptions *opts)
{
  Wait wait = { 0 };
  TksSession *session;

  wait.loop = g_main_loop_new (NULL, FALSE);
  session = connect_board (name, port, opts, &wait);
  if (session != NULL)
    g_signal_handlers_disconnect_by_data (session, &wait);
  wait_clear (&wait);
  return session;
}

typedef enum
{
  BOARD_TRIGGER,
  BOARD_RUN,
} BoardAction;

/* trigger and run: connect, send one command, print the board's answer. */
static int
board_action (BoardAction   action,
              const char   *name,
              const char   *summary,
              int           argc,
              char        **argv)
{
  Options opts = { 0 };
  Wait wait = { 0 };
  const char *port = NULL;
  g_autoptr(TksSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = NULL;
  int ret;

  ret = parse_args (name, summary, FALSE, &argc, &argv, &opts, &port);
  if (ret != TKS_CLI_OK)
    goto out;
  if (action == BOARD_TRIGGER && (opts.when != NULL || opts.wait || opts.output != NULL))
    {
      /* a condition, a wait for the freeze (cli-trigger.c) */
      ret = tks_cli_trigger_when (port, &opts);
      goto out;
    }

  wait.loop = g_main_loop_new (NULL, FALSE);
  session = connect_board (name, port, &opts, &wait);
  if (session == NULL)
    {
      ret = TKS_CLI_BAD;
      goto out;
    }

  switch (action)
    {
    case BOARD_TRIGGER:
      tks_session_trigger_async (session, NULL, on_done, &wait);
      reply = tks_session_trigger_finish (session, wait_for (&wait), &error);
      break;
    case BOARD_RUN:
      tks_session_run_async (session, NULL, on_done, &wait);
      if (tks_session_run_finish (session, wait_for (&wait), &error))
        reply = g_strdup ("Run mode"); /* the board's own words, read by scripts */
      break;
    default:
      g_assert_not_reached ();
    }

  if (reply == NULL)
    {
      g_autofree char *message = tks_cli_escape (error->message);

      fprintf (stderr, "tickscope-cli %s: %s\n", name, message);
      ret = TKS_CLI_BAD;
      goto out;
    }
  {
    /* The board's own words: shown, never obeyed by the terminal. */
    g_autofree char *shown = tks_cli_escape (reply);

    printf ("%s\n", shown);
  }
  ret = TKS_CLI_OK;

out:
  if (session != NULL)
    tks_session_disconnect (session);
  options_clear (&opts);
  wait_clear (&wait);
  return ret;
}

int
tks_cli_trigger (int    argc,
                 char **argv)
{
  return board_action (BOARD_TRIGGER, "trigger",
                       _("Sets the board's trigger: the log freezes once about half of it holds "
                         "records after the trigger.\n\n"
                         "With --when, the board sets it itself on the first event that meets "
                         "the condition:\n"
                         "  latency [THREAD] > TIME    a wake-up later than TIME\n"
                         "  run [THREAD] > TIME        a run longer than TIME\n"
                         "  irq [HANDLER] > TIME       a handler longer than TIME\n"
                         "  marker NAME [= VALUE]      a marker (with that value)\n"
                         "  off                        no condition\n"
                         "TIME is a whole number of microseconds: 1000us, 1.5ms, 2s. With --wait, "
                         "the command waits until the log froze (asking the board twice a "
                         "second), fetches it into -o FILE and says where the trigger lies; "
                         "--timeout then bounds the wait."), argc, argv);
}

int
tks_cli_run (int    argc,
             char **argv)
{
  return board_action (BOARD_RUN, "run", _("Removes the trigger, empties the log and restarts "
                                           "logging."), argc, argv);
}
