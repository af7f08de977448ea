/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tks-cli.h"
#include "tks-error.h"
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
  fprintf (stderr, "\r%8" G_GUINT64_FORMAT " bytes, %6u records", bytes, records);
  if (fraction >= 0)
    fprintf (stderr, ", %3.0f %%", fraction * 100);
  if (seconds_left >= 0)
    fprintf (stderr, ", %4.1f s left", seconds_left);
  fprintf (stderr, "   ");
  fflush (stderr);
  wait->progress_shown = TRUE;
}

typedef struct
{
  char     *output;
  int       baud;
  double    timeout;
  char     *flow;
  gboolean  slow_paste;
  gboolean  no_history;
  gboolean  quiet;
} Options;

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
      "Write the capture to FILE (\"-\": standard output)", "FILE" },
    { "no-history", 0, 0, G_OPTION_ARG_NONE, &opts->no_history,
      "Do not keep a copy in the capture history", NULL },
    { NULL }
  };
  GOptionEntry entries[] = {
    { "baud", 'b', 0, G_OPTION_ARG_INT, &opts->baud, "Serial speed (default 115200)", "BAUD" },
    { "timeout", 't', 0, G_OPTION_ARG_DOUBLE, &opts->timeout,
      "Seconds the board may stay silent (default 2)", "SECONDS" },
    { "flow", 0, 0, G_OPTION_ARG_STRING, &opts->flow,
      "Flow control: none, xonxoff or rtscts (default none)", "FLOW" },
    { "slow-paste", 0, 0, G_OPTION_ARG_NONE, &opts->slow_paste,
      "Send commands one character per millisecond", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &opts->quiet, "No progress on standard error", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *prgname = g_strdup_printf ("tickscope-cli %s", name);

  context = g_option_context_new ("PORT");
  g_option_context_set_summary (context, summary);
  g_option_context_set_description (context,
    "PORT is a serial port (/dev/ttyACM0, COM3), a pty (/dev/pts/N), tcp:HOST:PORT or demo.");
  if (want_output)
    g_option_context_add_main_entries (context, fetch_entries, NULL);
  g_option_context_add_main_entries (context, entries, NULL);
  g_set_prgname (prgname);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      fprintf (stderr, "tickscope-cli %s: %s\n", name, error->message);
      return TKS_CLI_MISUSE;
    }
  if (*argc != 2)
    {
      fprintf (stderr, "tickscope-cli %s: give one PORT (see tickscope-cli %s --help)\n", name, name);
      return TKS_CLI_MISUSE;
    }
  if (want_output && opts->output == NULL)
    {
      fprintf (stderr, "tickscope-cli %s: say where the capture goes: -o FILE.txt (or -o - for "
               "standard output)\n", name);
      return TKS_CLI_MISUSE;
    }
  if (opts->baud < 0 || opts->timeout < 0 || opts->timeout > 3600)
    {
      fprintf (stderr, "tickscope-cli %s: --baud and --timeout must be positive\n", name);
      return TKS_CLI_MISUSE;
    }
  if (opts->flow && !g_str_equal (opts->flow, "none") && !g_str_equal (opts->flow, "xonxoff")
      && !g_str_equal (opts->flow, "rtscts"))
    {
      fprintf (stderr, "tickscope-cli %s: --flow is none, xonxoff or rtscts\n", name);
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
    tks_session_set_timeout (session, (guint) MAX (opts->timeout * 1000, 1));
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

static void
options_clear (Options *opts)
{
  g_free (opts->output);
  g_free (opts->flow);
}

static void
wait_clear (Wait *wait)
{
  g_clear_object (&wait->result);
  g_clear_pointer (&wait->loop, g_main_loop_unref);
}

int
tks_cli_fetch (int    argc,
               char **argv)
{
  Options opts = { 0 };
  Wait wait = { 0 };
  const char *port = NULL;
  g_autoptr(TksSession) session = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(TksCapture) written = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  const char * const *warnings;
  const char *raw;
  gboolean damaged;
  guint n_warnings = 0;
  int ret;

  ret = parse_args ("fetch", "Gets the thread list and the log from a board and writes a capture.",
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

  tks_session_fetch_async (session, NULL, on_done, &wait);
  capture = tks_session_fetch_finish (session, wait_for (&wait), &error);
  if (wait.progress_shown)
    fprintf (stderr, "\n");
  if (capture == NULL)
    {
      g_autofree char *message = tks_cli_escape (error->message);

      fprintf (stderr, "tickscope-cli fetch: %s\n", message);
      ret = TKS_CLI_BAD;
      goto out;
    }

  if (!tks_capture_write (capture, text, NULL)
      || !tks_cli_write_output (opts.output, text->str, text->len, &error))
    {
      fprintf (stderr, "tickscope-cli fetch: %s\n",
               error ? error->message : "the capture could not be written");
      ret = TKS_CLI_BAD;
      goto out;
    }

  /* The warnings name lines of the file just written, as `tickscope-cli info` on it does,
   * not lines of the board's replies, which the user never sees; unless the replies arrived
   * damaged: the warnings then come from what was received (the file written no longer holds
   * the damaged lines), and name lines of the received bytes, kept in the history. */
  written = tks_capture_new_from_data (text->str, text->len, NULL);
  raw = tks_session_get_last_raw_path (session);
  damaged = raw != NULL || written == NULL;
  if (!damaged)
    {
      guint n_written = 0, n_received = 0;

      tks_capture_get_warnings (written, &n_written);
      tks_capture_get_warnings (capture, &n_received);
      damaged = n_received > n_written;
    }
  warnings = tks_capture_get_warnings (damaged ? capture : written, &n_warnings);
  for (guint i = 0; warnings != NULL && i < n_warnings; i++)
    {
      g_autofree char *warning = tks_cli_escape (warnings[i]);

      fprintf (stderr, "tickscope-cli fetch: %s%s\n",
               strstr (warning, "warning") != NULL ? "" : "warning: ", warning);
    }
  if (damaged)
    {
      g_autofree char *kept = raw != NULL ? tks_cli_escape (raw) : NULL;

      fprintf (stderr, "tickscope-cli fetch: warning: the board's replies arrived damaged%s%s%s\n",
               kept != NULL ? "; the bytes as received are kept in " : "",
               kept != NULL ? kept : "", kept != NULL ? " (the lines named above are its lines)" : "");
    }
  if (!opts.quiet)
    {
      g_autofree char *board = tks_cli_escape (tks_session_get_description (session));

      fprintf (stderr, "%u threads, %u records from %s%s%s\n",
               tks_capture_get_n_threads (capture), tks_capture_get_n_records (capture), board,
               tks_session_get_last_saved_path (session) ? "; kept in " : "",
               tks_session_get_last_saved_path (session) ? tks_session_get_last_saved_path (session) : "");
    }
  ret = TKS_CLI_OK;

out:
  if (session != NULL)
    tks_session_disconnect (session);
  options_clear (&opts);
  wait_clear (&wait);
  return ret;
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
        reply = g_strdup ("Run mode");
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
                       "Sets the board's trigger: the log freezes once about half of it holds "
                       "records after the trigger.", argc, argv);
}

int
tks_cli_run (int    argc,
             char **argv)
{
  return board_action (BOARD_RUN, "run", "Removes the trigger, empties the log and restarts "
                       "logging.", argc, argv);
}
