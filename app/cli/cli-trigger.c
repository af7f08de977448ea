/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tickscope-cli trigger PORT --when CONDITION [--wait -o FILE]: arms a condition trigger,
 * waits until the board froze its log around it, then fetches. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <glib-unix.h>
#include <glib/gi18n.h>

#include "tks-cli.h"
#include "tks-condition.h"
#include "tks-error.h"
#include "tks-events.h"

/* How often the board is asked whether it froze: its answer is two short lines. */
#define POLL_MS 500

typedef struct
{
  GMainLoop    *loop;
  GAsyncResult *result;
  GCancellable *cancellable;
  gboolean      interrupted;
  gboolean      timer_done;
} Waiter;

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Waiter *w = user_data;

  w->result = g_object_ref (result);
  g_main_loop_quit (w->loop);
}

static gboolean
on_sigint (gpointer user_data)
{
  Waiter *w = user_data;

  w->interrupted = TRUE;
  g_cancellable_cancel (w->cancellable);
  g_main_loop_quit (w->loop);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_timer (gpointer user_data)
{
  Waiter *w = user_data;

  w->timer_done = TRUE;
  g_main_loop_quit (w->loop);
  return G_SOURCE_REMOVE;
}

/* Sends @command; the reply, or NULL with @error set (cancelled by Ctrl+C included). */
static char *
board_command (TksSession  *session,
               Waiter      *w,
               const char  *command,
               GError     **error)
{
  g_clear_object (&w->result);
  tks_session_command_async (session, command, w->cancellable, on_done, w);
  while (w->result == NULL)
    g_main_loop_run (w->loop);
  return tks_session_command_finish (session, w->result, error);
}

/* Sleeps @ms, or less on Ctrl+C. */
static void
pause_ms (Waiter *w,
          guint   ms)
{
  guint id;

  if (w->interrupted)
    return;
  w->timer_done = FALSE;
  id = g_timeout_add (ms, on_timer, w);
  while (!w->timer_done && !w->interrupted)
    g_main_loop_run (w->loop);
  if (!w->timer_done)
    g_source_remove (id);
}

/* Where the trigger lies in the fetched capture, in words. */
static void
print_trigger (FILE       *out,
               TksCapture *capture)
{
  TksEvents *events = tks_capture_get_events (capture);
  const TksEventsInfo *info = events != NULL ? tks_events_get_info (events) : NULL;
  const char *name = tks_capture_get_trigger_name (capture);
  double pos, start, end, hz;
  g_autofree char *by = NULL;
  g_autofree char *tick = NULL;

  if (!tks_capture_get_trigger (capture, &pos))
    {
      fprintf (out, _("The capture holds no trigger\n"));
      return;
    }
  start = tks_capture_get_start (capture);
  end = tks_capture_get_end (capture);
  hz = tks_capture_get_tick_hz (capture);
  by = tks_cli_escape (name != NULL ? name : "?");
  tick = tks_tick_format (pos);
  /* Translators: the trigger's tick, the seconds of the log before it and after it, then
   * who set it */
  fprintf (out, _("Trigger at tick %s: %.3f s into the log, %.3f s before its end; set by "
                  "%s"), tick, hz > 0 ? (pos - start) / hz : 0.0, hz > 0 ? (end - pos) / hz : 0.0,
           by);
  if (info != NULL && info->has_trigger_value)
    {
      g_autofree char *value = g_strdup_printf ("%" G_GUINT64_FORMAT, info->trigger_value);
      TksCondition condition;

      if (name != NULL && tks_condition_from_board (name, &condition)
          && condition.kind != TKS_CONDITION_MARKER)
        /* Translators: what the board measured, in microseconds */
        fprintf (out, _(" (measured %s µs)"), value);
      else
        /* Translators: the marker's value that set the trigger */
        fprintf (out, _(" (value %s)"), value);
    }
  fputc ('\n', out);
}

/* Prints the board's mode while waiting: a line that rewrites itself on a terminal, a line
 * per change otherwise. */
static void
show_wait (TksBoardMode mode,
           TksBoardMode shown,
           double       seconds,
           gboolean     tty)
{
  if (tty)
    {
      fputc ('\r', stderr);
      /* Translators: the board's mode in words, the seconds waited so far */
      fprintf (stderr, _("Waiting for the board to freeze (Ctrl+C stops): %s, %.0f s"),
               tks_board_mode_describe (mode), seconds);
      fputs ("\033[K", stderr);
    }
  else if (mode != shown)
    /* Translators: the board's mode in words, the seconds waited so far */
    fprintf (stderr, _("Waiting for the board to freeze: %s, %.1f s\n"),
             tks_board_mode_describe (mode), seconds);
  fflush (stderr);
}

/* A log already triggered records nothing more: the condition would never set the trigger.
 * Asked, and restarted (run mode, which keeps the condition) if so. FALSE on failure (said). */
static gboolean
restart_if_held (TksSession *session,
                 Waiter     *w,
                 FILE       *words)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = board_command (session, w, TKS_CONDITION_COMMAND, &error);
  g_auto(TksConditionReply) read = { 0 };

  if (reply == NULL)
    {
      if (!w->interrupted)
        fprintf (stderr, "tickscope-cli trigger: %s\n", error->message);
      return FALSE;
    }
  tks_condition_reply_read (reply, &read);
  if (read.mode != TKS_BOARD_MODE_ARMED && read.mode != TKS_BOARD_MODE_FROZEN)
    return TRUE;
  g_clear_object (&w->result);
  tks_session_run_async (session, w->cancellable, on_done, w);
  while (w->result == NULL)
    g_main_loop_run (w->loop);
  if (!tks_session_run_finish (session, w->result, &error))
    {
      if (!w->interrupted)
        fprintf (stderr, "tickscope-cli trigger: %s\n", error->message);
      return FALSE;
    }
  fprintf (words, _("The board's log was held by an earlier trigger: it runs again (run mode), "
                    "and the condition sets the next one\n"));
  fflush (words);
  return TRUE;
}

/* The options make sense together (@condition: --when's, read): else a message and FALSE.
 * Everything is checked before anything is sent. */
static gboolean
check_trigger_args (const TksCliBoardOptions *opts,
                    TksCondition             *condition)
{
  g_autoptr(GError) error = NULL;

  if (opts->output != NULL && !opts->wait)
    {
      fprintf (stderr, _("tickscope-cli trigger: -o goes with --wait (the capture is fetched "
                         "once the board froze)\n"));
      return FALSE;
    }
  if (opts->wait && opts->output == NULL)
    {
      fprintf (stderr, _("tickscope-cli trigger: say where the capture goes: --wait -o FILE.txt "
                         "(or -o - for standard output)\n"));
      return FALSE;
    }
  if (opts->when != NULL && !tks_condition_parse (opts->when, condition, &error))
    {
      g_autofree char *message = tks_cli_escape (error->message);

      fprintf (stderr, "tickscope-cli trigger: %s\n", message);
      return FALSE;
    }
  return TRUE;
}

/* Gives the board @condition and says what it answered (on @words): FALSE on failure (said). */
static gboolean
set_condition (TksSession         *session,
               Waiter             *w,
               const TksCondition *condition,
               FILE               *words)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *command = tks_condition_to_command (condition);
  g_autofree char *reply = board_command (session, w, command, &error);
  g_autofree char *said = NULL;
  g_autofree char *shown = NULL;
  g_auto(TksConditionReply) read = { 0 };

  if (reply == NULL)
    {
      g_autofree char *message = tks_cli_escape (error->message);

      if (!w->interrupted)
        fprintf (stderr, "tickscope-cli trigger: %s\n", message);
      return FALSE;
    }
  tks_condition_reply_read (reply, &read);
  said = tks_condition_reply_describe (&read);
  shown = tks_cli_escape (said);
  if (read.kind != TKS_CONDITION_REPLY_SET && read.kind != TKS_CONDITION_REPLY_NONE)
    {
      fprintf (stderr, "tickscope-cli trigger: %s\n", shown);
      return FALSE;
    }
  fprintf (words, "%s\n", shown);
  fflush (words);
  return read.kind != TKS_CONDITION_REPLY_SET || restart_if_held (session, w, words);
}

typedef enum
{
  WAIT_GO_ON,
  WAIT_FROZEN,
  WAIT_FAILED,   /* said */
} WaitStep;

/* One look at the board's mode, @waited seconds into the wait for its freeze (@shown: the
 * mode said last). */
static WaitStep
wait_step (TksSession               *session,
           Waiter                   *w,
           const TksCliBoardOptions *opts,
           double                    wait_s,
           double                    waited,
           gboolean                  tty,
           TksBoardMode             *shown)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = board_command (session, w, TKS_CONDITION_COMMAND, &error);
  g_auto(TksConditionReply) read = { 0 };

  if (reply == NULL)
    {
      if (!w->interrupted)
        {
          g_autofree char *message = tks_cli_escape (error->message);

          if (tty)
            fputc ('\n', stderr);
          fprintf (stderr, "tickscope-cli trigger: %s\n", message);
        }
      return WAIT_FAILED;
    }
  tks_condition_reply_read (reply, &read);
  if (read.mode == TKS_BOARD_MODE_UNKNOWN)
    {
      g_autofree char *said = tks_condition_reply_describe (&read);
      g_autofree char *escaped = tks_cli_escape (said);

      if (read.kind == TKS_CONDITION_REPLY_SET || read.kind == TKS_CONDITION_REPLY_NONE)
        fprintf (stderr, _("tickscope-cli trigger: the board does not say whether its "
                           "log froze (its library prints no “Mode:” after "
                           "“Condition:”): fetch with tickscope-cli fetch instead\n"));
      else
        fprintf (stderr, "tickscope-cli trigger: %s\n", escaped);
      return WAIT_FAILED;
    }
  if (!opts->quiet)
    show_wait (read.mode, *shown, waited, tty);
  *shown = read.mode;
  if (read.mode == TKS_BOARD_MODE_FROZEN)
    return WAIT_FROZEN;
  if (wait_s > 0 && waited >= wait_s)
    {
      if (tty)
        fputc ('\n', stderr);
      fprintf (stderr, _("tickscope-cli trigger: the board did not freeze within %.0f s; "
                         "the condition stays armed (--when off removes it)\n"), wait_s);
      return WAIT_FAILED;
    }
  return WAIT_GO_ON;
}

/* Waits for the board's log to freeze, at most @wait_s seconds (0: for ever): FALSE when it
 * did not (said, unless interrupted). */
static gboolean
wait_for_freeze (TksSession               *session,
                 Waiter                   *w,
                 const TksCliBoardOptions *opts,
                 double                    wait_s)
{
  gint64 begin = g_get_monotonic_time ();
  TksBoardMode shown = TKS_BOARD_MODE_UNKNOWN;
  gboolean tty = !opts->quiet && isatty (STDERR_FILENO);

  for (;;)
    {
      double waited = (g_get_monotonic_time () - begin) / (double) G_USEC_PER_SEC;
      WaitStep step = wait_step (session, w, opts, wait_s, waited, tty, &shown);

      if (step == WAIT_FAILED)
        return FALSE;
      if (step == WAIT_FROZEN)
        break;
      pause_ms (w, POLL_MS);
      if (w->interrupted)
        {
          if (tty)
            fputc ('\n', stderr);
          return FALSE;
        }
    }
  if (tty)
    fputc ('\n', stderr);
  return TRUE;
}

int
tks_cli_trigger_when (const char         *port,
                      TksCliBoardOptions *opts)
{
  g_autoptr(TksSession) session = NULL;
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  Waiter w = { 0 };
  TksCondition condition;
  double wait_s = 0;
  FILE *words;
  guint sigint_id = 0;
  int ret = TKS_CLI_BAD;

  if (!check_trigger_args (opts, &condition))
    return TKS_CLI_MISUSE;
  if (opts->wait)
    {
      /* With --wait, --timeout bounds the wait; the board may stay silent as long as usual. */
      wait_s = opts->timeout;
      opts->timeout = 0;
    }
  /* The words go where the capture does not. */
  words = opts->output != NULL && g_str_equal (opts->output, "-") ? stderr : stdout;

  session = tks_cli_board_connect ("trigger", port, opts);
  if (session == NULL)
    return TKS_CLI_BAD;
  w.loop = g_main_loop_new (NULL, FALSE);
  w.cancellable = g_cancellable_new ();
  sigint_id = g_unix_signal_add (SIGINT, on_sigint, &w);

  if (tks_session_get_board_commands (session) != NULL
      && !tks_condition_board_offers (tks_session_get_board_commands (session), &error))
    {
      fprintf (stderr, "tickscope-cli trigger: %s\n", error->message);
      goto out;
    }
  if (opts->when != NULL && !set_condition (session, &w, &condition, words))
    goto out;
  if (opts->wait)
    {
      if (!wait_for_freeze (session, &w, opts, wait_s))
        goto out;
      /* Ctrl+C during the fetch (bounded by the board's silence) ends the program. */
      g_source_remove (sigint_id);
      sigint_id = 0;
      ret = tks_cli_board_fetch ("trigger", session, opts, &capture);
      if (ret != TKS_CLI_OK)
        goto out;
      print_trigger (words, capture);
    }
  ret = TKS_CLI_OK;

out:
  if (w.interrupted)
    {
      fprintf (stderr, _("\ntickscope-cli trigger: stopped by Ctrl+C; the board keeps its "
                         "condition (--when off removes it)\n"));
      ret = TKS_CLI_BAD;
    }
  if (sigint_id != 0)
    g_source_remove (sigint_id);
  tks_session_disconnect (session);
  g_clear_object (&w.result);
  g_clear_object (&w.cancellable);
  g_clear_pointer (&w.loop, g_main_loop_unref);
  return ret;
}
