/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Condition triggers from the window: the Trigger button's menu (TksTriggerPopover) offered
 * when the board's help lists threads_trigger_when, the condition armed, the board asked once
 * a second whether its log froze, then the fetch and the trigger put in view. The header says
 * Armed, then Triggered; the board's replies are told in words (tks-condition.h). */
#include "config.h"

#include <glib/gi18n.h>

#include "tks-condition.h"
#include "tks-events.h"
#include "tks-header-bar.h"
#include "tks-trigger-popover.h"
#include "tks-window-private.h"

/* How often the board is asked whether its log froze: a two-line answer. */
#define POLL_MS 1000
/* The stretch around the trigger shown after the fetch, in seconds. */
#define TRIGGER_VIEW_S 0.02

static void
stop_polling (TksWindow *self)
{
  g_clear_handle_id (&self->trigger.poll_id, g_source_remove);
}

/* The names of the capture shown, offered in the menu: threads, handlers, markers. */
static void
refresh_choices (TksWindow *self)
{
  TksTriggerPopover *popover = TKS_TRIGGER_POPOVER (self->trigger.popover);
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();
  g_autoptr(GPtrArray) handlers = g_ptr_array_new ();
  g_autoptr(GPtrArray) markers = g_ptr_array_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  TksEvents *events = self->capture != NULL ? tks_capture_get_events (self->capture) : NULL;

  for (guint i = 0; self->capture != NULL && i < tks_capture_get_n_threads (self->capture); i++)
    {
      const TksThread *thread = tks_capture_get_thread (self->capture, i);

      if (thread->name != NULL && *thread->name != '\0' && g_hash_table_add (seen, (char *) thread->name))
        g_ptr_array_add (threads, (char *) thread->name);
    }
  if (events != NULL)
    {
      guint n_irqs, n_markers;
      const TksTrack *irqs = tks_events_get_tracks (events, TKS_TRACK_IRQ, &n_irqs);
      const TksTrack *marks = tks_events_get_tracks (events, TKS_TRACK_MARKER, &n_markers);

      for (guint i = 0; i < n_irqs; i++)
        if (irqs[i].name != NULL && *irqs[i].name != '\0')
          g_ptr_array_add (handlers, (char *) irqs[i].name);
      for (guint i = 0; i < n_markers; i++)
        if (marks[i].name != NULL && *marks[i].name != '\0')
          g_ptr_array_add (markers, (char *) marks[i].name);
      tks_trigger_popover_set_counter_hz (popover, tks_events_get_info (events)->counter_hz);
    }
  g_ptr_array_add (threads, NULL);
  g_ptr_array_add (handlers, NULL);
  g_ptr_array_add (markers, NULL);
  tks_trigger_popover_set_choices (popover, (const char * const *) threads->pdata,
                                   (const char * const *) handlers->pdata,
                                   (const char * const *) markers->pdata);
}

/* What the board said, in words: in the menu, in the message bar (a refusal as a failure),
 * and under the title. */
static void
tell (TksWindow  *self,
      const char *words,
      gboolean    failure)
{
  tks_trigger_popover_set_status (TKS_TRIGGER_POPOVER (self->trigger.popover), words);
  if (failure)
    tks_window_show_error (self, words);
  else
    _tks_window_show_message (self, words);
}

static void poll_done_cb (GObject      *source,
                          GAsyncResult *result,
                          gpointer      user_data);

static gboolean
poll_cb (gpointer user_data)
{
  TksWindow *self = user_data;

  /* one question at a time, and none while the board is read otherwise */
  if (self->trigger.poll_pending || self->session == NULL || self->fetching
      || self->recording != NULL)
    return G_SOURCE_CONTINUE;
  self->trigger.poll_pending = TRUE;
  tks_session_command_async (self->session, TKS_CONDITION_COMMAND, self->session_cancellable,
                             poll_done_cb, g_object_ref (self));
  return G_SOURCE_CONTINUE;
}

static void
start_polling (TksWindow *self)
{
  if (self->trigger.poll_id == 0)
    self->trigger.poll_id = g_timeout_add (POLL_MS, poll_cb, self);
}

static void
poll_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(TksWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = tks_session_command_finish (TKS_SESSION (source), result, &error);
  g_auto(TksConditionReply) read = { 0 };
  g_autofree char *words = NULL;

  self->trigger.poll_pending = FALSE;
  if (TKS_SESSION (source) != self->session || self->trigger.poll_id == 0)
    return;
  if (reply == NULL)
    {
      stop_polling (self);
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *message = g_strdup_printf (_("Could not ask the board about its "
                                                        "trigger: %s"), error->message);

          tks_window_show_error (self, message);
        }
      return;
    }
  tks_condition_reply_read (reply, &read);
  if (read.mode == TKS_BOARD_MODE_UNKNOWN)
    {
      /* a board that does not say: Get new data shows what it did */
      stop_polling (self);
      return;
    }
  if (read.mode == TKS_BOARD_MODE_RUN)
    return;

  words = tks_condition_reply_describe (&read);
  _tks_window_board_set_state (self, words);
  tks_trigger_popover_set_status (TKS_TRIGGER_POPOVER (self->trigger.popover), words);
  if (read.mode == TKS_BOARD_MODE_FROZEN)
    {
      /* the log is ready: fetched at once, the trigger then put in view */
      stop_polling (self);
      self->trigger.fetch = TRUE;
      _tks_window_board_fetch (self);
    }
}

static void
restarted_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(TksWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!tks_session_run_finish (TKS_SESSION (source), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *message = g_strdup_printf (_("Could not restart the board's log: %s"),
                                                      error->message);

          tell (self, message, TRUE);
        }
      return;
    }
  _tks_window_show_message (self, _("The board's log was held by an earlier trigger: it runs "
                                    "again, and the condition sets the next one."));
  start_polling (self);
}

/* After arming: the log must be running for the condition to set the trigger. */
static void
armed_query_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(TksWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = tks_session_command_finish (TKS_SESSION (source), result, &error);
  g_auto(TksConditionReply) read = { 0 };

  if (reply == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        tell (self, error->message, TRUE);
      return;
    }
  tks_condition_reply_read (reply, &read);
  if (read.mode == TKS_BOARD_MODE_ARMED || read.mode == TKS_BOARD_MODE_FROZEN)
    tks_session_run_async (self->session, self->session_cancellable, restarted_cb,
                           g_object_ref (self));
  else
    start_polling (self);
}

static void
arm_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(TksWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = tks_session_command_finish (TKS_SESSION (source), result, &error);
  g_auto(TksConditionReply) read = { 0 };
  g_autofree char *words = NULL;

  if (reply == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *message = g_strdup_printf (_("Could not set the condition: %s"),
                                                      error->message);

          tell (self, message, TRUE);
        }
      return;
    }
  tks_condition_reply_read (reply, &read);
  words = tks_condition_reply_describe (&read);
  switch (read.kind)
    {
    case TKS_CONDITION_REPLY_SET:
      tell (self, words, FALSE);
      _tks_window_board_set_state (self, words);
      /* a log already triggered records nothing more: asked, and restarted if so */
      tks_session_command_async (self->session, TKS_CONDITION_COMMAND, self->session_cancellable,
                                 armed_query_cb, g_object_ref (self));
      break;
    case TKS_CONDITION_REPLY_NONE:
      stop_polling (self);
      tell (self, words, FALSE);
      _tks_window_board_set_state (self, _("logging"));
      break;
    case TKS_CONDITION_REPLY_USAGE:
    case TKS_CONDITION_REPLY_UNAVAILABLE:
    case TKS_CONDITION_REPLY_DISABLED:
    case TKS_CONDITION_REPLY_UNKNOWN:
    case TKS_CONDITION_REPLY_OTHER:
    default:
      tell (self, words, TRUE);
      break;
    }
}

static void
send_condition (TksWindow          *self,
                const TksCondition *condition)
{
  g_autofree char *command = tks_condition_to_command (condition);

  if (self->session == NULL)
    return;
  tks_session_command_async (self->session, command, self->session_cancellable, arm_done_cb,
                             g_object_ref (self));
}

static void
arm_cb (TksTriggerPopover *popover,
        const char        *text,
        TksWindow         *self)
{
  g_autoptr(GError) error = NULL;
  TksCondition condition;

  /* the menu checked it; checked again here, as nothing reaches the board unchecked */
  if (!tks_condition_parse (text, &condition, &error))
    {
      tell (self, error->message, TRUE);
      return;
    }
  send_condition (self, &condition);
}

static void
disarm_cb (TksTriggerPopover *popover,
           TksWindow         *self)
{
  TksCondition off = { .kind = TKS_CONDITION_OFF };

  stop_polling (self);
  send_condition (self, &off);
}

void
_tks_window_trigger_init (TksWindow *self)
{
  self->trigger.popover = g_object_ref_sink (tks_trigger_popover_new ());
  g_signal_connect (self->trigger.popover, "arm", G_CALLBACK (arm_cb), self);
  g_signal_connect (self->trigger.popover, "disarm", G_CALLBACK (disarm_cb), self);
  g_signal_connect_swapped (self->trigger.popover, "show", G_CALLBACK (refresh_choices), self);
}

void
_tks_window_trigger_dispose (TksWindow *self)
{
  stop_polling (self);
  if (self->trigger.popover != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->trigger.popover, self);
      tks_header_bar_set_trigger_popover (self->header, NULL);
    }
  g_clear_object (&self->trigger.popover);
}

void
_tks_window_trigger_connected (TksWindow *self)
{
  const char * const *commands = self->session != NULL
                                 ? tks_session_get_board_commands (self->session) : NULL;
  gboolean offered = commands != NULL && tks_condition_board_offers (commands, NULL);

  stop_polling (self);
  self->trigger.fetch = FALSE;
  tks_trigger_popover_set_status (TKS_TRIGGER_POPOVER (self->trigger.popover), NULL);
  tks_header_bar_set_trigger_popover (self->header,
                                      offered ? GTK_POPOVER (self->trigger.popover) : NULL);
}

void
_tks_window_trigger_fetched (TksWindow  *self,
                             TksCapture *capture)
{
  TksEvents *events = tks_capture_get_events (capture);
  const TksEventsInfo *info = events != NULL ? tks_events_get_info (events) : NULL;
  TksCondition condition = { .kind = TKS_CONDITION_OFF };
  double pos, hz, span;
  g_autofree char *tick = NULL;
  g_autofree char *what = NULL;
  g_autofree char *state = NULL;

  if (!self->trigger.fetch)
    return;
  self->trigger.fetch = FALSE;
  if (!tks_capture_get_trigger (capture, &pos))
    return;

  /* the trigger in the middle of the view, a few milliseconds around it */
  hz = tks_capture_get_tick_hz (capture);
  span = MIN (tks_viewport_get_span (self->viewport), MAX (hz * TRIGGER_VIEW_S, 1.0));
  span = MAX (span, tks_viewport_get_min_span (self->viewport));
  tks_viewport_navigate (self->viewport, pos - span / 2, pos + span / 2);

  tick = tks_tick_format (pos);
  if (tks_condition_from_board (tks_capture_get_trigger_name (capture), &condition)
      && condition.kind != TKS_CONDITION_OFF)
    what = tks_condition_describe (&condition);
  else
    what = g_strdup (tks_capture_get_trigger_name (capture) != NULL
                     ? tks_capture_get_trigger_name (capture) : _("the trigger"));
  if (info != NULL && info->has_trigger_value && condition.kind != TKS_CONDITION_MARKER)
    /* Translators: the condition in words, the tick, what the board measured in µs */
    state = g_strdup_printf (_("Triggered: %s, at tick %s (measured %" G_GUINT64_FORMAT " µs)"),
                             what, tick, info->trigger_value);
  else
    /* Translators: the condition (or who set the trigger) in words, the tick */
    state = g_strdup_printf (_("Triggered: %s, at tick %s"), what, tick);
  _tks_window_board_set_state (self, state);
  tks_trigger_popover_set_status (TKS_TRIGGER_POPOVER (self->trigger.popover), state);
}
