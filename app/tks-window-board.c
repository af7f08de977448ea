/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The board: connecting as the board popover asks, the session's state under the title and
 * in the popover, fetching with progress, setting the trigger and run mode; once the link to
 * the board is gone (found by a request, or by the session while idle), Reconnect
 * (win.reconnect, and a button in the message bar). */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tks-session.h"
#include "tks-transport.h"
#include "tks-window-private.h"

/* The message bar's "Connected" message, which leaves with the connection */
#define CONNECTED_KEY "connected"

/* The board and its state: in the board popover, and under the title while there is a
 * session. */
static void
show_board_text (TksWindow  *self,
                 const char *text)
{
  tks_board_popover_set_status (self->board_popover, text);
  tks_header_bar_set_subtitle (self->header, self->session != NULL ? text : NULL);
}

/* The board can be connected to again: a session without its link, and no recording (which
 * holds the board's shell while it runs). */
static gboolean
can_reconnect (TksWindow *self)
{
  return self->session != NULL && self->recording == NULL &&
         tks_session_get_state (self->session) == TKS_SESSION_DISCONNECTED;
}

void
_tks_window_board_update_reconnect (TksWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "reconnect");

  if (action != NULL)
    g_simple_action_set_enabled (G_SIMPLE_ACTION (action), can_reconnect (self));
}

static void
session_state_changed_cb (TksWindow *self)
{
  const char *description;

  _tks_window_update_actions (self);
  _tks_window_board_update_reconnect (self);
  switch (tks_session_get_state (self->session))
    {
    case TKS_SESSION_DISCONNECTED:
      show_board_text (self, _("Not connected."));
      /* "Connected" no longer holds */
      tks_message_bar_hide_keyed (self->message_bar, CONNECTED_KEY);
      break;

    case TKS_SESSION_CONNECTING:
      show_board_text (self, _("Connecting…"));
      break;

    case TKS_SESSION_IDLE:
    case TKS_SESSION_BUSY:
      description = tks_session_get_description (self->session);
      if (description == NULL)
        description = tks_session_get_address (self->session);
      if (self->board_state != NULL)
        {
          /* TRANSLATORS: the board, then what its log is doing */
          g_autofree char *text = g_strdup_printf (_("%s — %s"), description, self->board_state);

          show_board_text (self, text);
        }
      else
        show_board_text (self, description);
      break;

    default:
      break;
    }
}

void
_tks_window_board_show_state (TksWindow *self)
{
  if (self->session != NULL)
    session_state_changed_cb (self);
}

/* What the board's log is doing, as its last answers told (NULL: not known yet). */
static void
set_board_state (TksWindow  *self,
                 const char *state)
{
  _tks_window_board_set_state (self, state);
}

void
_tks_window_board_set_state (TksWindow  *self,
                             const char *state)
{
  g_free (self->board_state);
  self->board_state = g_strdup (state);
  session_state_changed_cb (self);
}

static void fetch_done_cb (GObject      *source,
                           GAsyncResult *result,
                           gpointer      user_data);
static void fetch_progress_cb (TksSession *session,
                               guint64     bytes,
                               guint       records,
                               double      fraction,
                               double      seconds_left,
                               TksWindow  *self);

/* Gets new data from the board, with progress; one fetch at a time. */
void
_tks_window_board_fetch (TksWindow *self)
{
  if (self->session == NULL || self->fetching)
    return;
  self->fetching = TRUE;
  tks_progress_start (self->progress, _("Reading from the board…"));
  g_signal_connect (self->session, "progress", G_CALLBACK (fetch_progress_cb), self);
  tks_session_fetch_async (self->session, self->session_cancellable, fetch_done_cb,
                           g_object_ref (self));
}

void
_tks_window_board_show_error (TksWindow  *self,
                              const char *message)
{
  if (can_reconnect (self))
    tks_message_bar_show_action (self->message_bar, GTK_MESSAGE_ERROR, message, _("Reconnect"),
                                 "win.reconnect");
  else
    tks_window_show_error (self, message);
}

/* A request to the board failed: says so, unless it was cancelled (the user knows then). */
static void show_failure (TksWindow    *self,
                          const GError *error,
                          const char   *format,
                          ...) G_GNUC_PRINTF (3, 4);

static void
show_failure (TksWindow    *self,
              const GError *error,
              const char   *format,
              ...)
{
  g_autofree char *message = NULL;
  va_list args;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  _tks_window_board_show_error (self, message);
}

/* The session found the board gone between requests: said as a failed request says it, with
 * Reconnect; the capture on screen stays. */
static void
session_lost_cb (TksWindow    *self,
                 const GError *error)
{
  /* Translators: why the link to the board ended */
  g_autofree char *message = g_strdup_printf (_("Disconnected: %s"), error->message);

  _tks_window_board_show_error (self, message);
}

static void
connect_done_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(TksWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  tks_progress_stop (self->progress);
  if (!tks_session_connect_finish (TKS_SESSION (source), result, &error))
    {
      self->skip_fetch_on_connect = FALSE;
      self->record_on_connect = FALSE;
      show_failure (self, error, _("Could not connect: %s"), error->message);
      _tks_window_update_actions (self);
      return;
    }
  _tks_window_trigger_connected (self);
  if (self->skip_fetch_on_connect)
    {
      /* connected again after a recording: the recording's message stays */
      self->skip_fetch_on_connect = FALSE;
      _tks_window_update_actions (self);
      return;
    }
  _tks_window_clear_error (self);
  {
    const char *description = tks_session_get_description (TKS_SESSION (source));
    g_autofree char *message = g_strdup_printf (_("Connected: %s"),
                                                description ? description : tks_session_get_address (TKS_SESSION (source)));

    _tks_window_normalise_spacing (message);
    tks_message_bar_show_keyed (self->message_bar, GTK_MESSAGE_INFO, message, CONNECTED_KEY);
  }
  _tks_window_update_actions (self);
  /* As soon as a board answers, show what it has logged (or record it, when asked: a board
   * that cannot record says so and is left as it is) */
  if (!self->record_on_connect)
    _tks_window_board_fetch (self);
  else
    _tks_window_record_on_connect (self);
}

void
tks_window_connect (TksWindow  *self,
                    const char *address)
{
  g_autofree char *text = NULL;
  GSettings *settings;

  g_return_if_fail (TKS_IS_WINDOW (self));
  g_return_if_fail (address != NULL);

  text = g_strdup_printf (_("Connecting to %s…"), address);
  settings = _tks_window_get_settings (self);

  if (self->session_cancellable != NULL)
    g_cancellable_cancel (self->session_cancellable);
  g_clear_object (&self->session_cancellable);
  self->session_cancellable = g_cancellable_new ();

  if (self->session != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->session, self);
      tks_session_disconnect (self->session);
      g_clear_object (&self->session);
    }
  self->session = tks_session_new ();
  self->fetching = FALSE;
  g_clear_pointer (&self->board_state, g_free);
  tks_session_set_baud (self->session, tks_board_popover_get_baud (self->board_popover));
  tks_session_set_flow_control (self->session,
                                tks_board_popover_get_flow_control (self->board_popover));
  if (_tks_window_settings_has_key (settings, "history-max-mb"))
    tks_session_set_history_limit (self->session,
                                   (guint64) g_settings_get_uint (settings, "history-max-mb")
                                   * 1000 * 1000);
  g_signal_connect_swapped (self->session, "notify::state",
                            G_CALLBACK (session_state_changed_cb), self);
  g_signal_connect_swapped (self->session, "link-lost", G_CALLBACK (session_lost_cb), self);
  tks_board_popover_set_port (self->board_popover, address);
  if (settings != NULL)
    {
      g_settings_set_string (settings, "last-port", address);
      g_settings_set_uint (settings, "baud", tks_board_popover_get_baud (self->board_popover));
    }
  tks_progress_start (self->progress, text);
  tks_session_connect_async (self->session, address, self->session_cancellable,
                             connect_done_cb, g_object_ref (self));
}

static void
trigger_done_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(TksWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = tks_session_trigger_finish (TKS_SESSION (source), result, &error);

  if (reply == NULL)
    {
      show_failure (self, error, _("Trigger failed: %s"), error->message);
      return;
    }
  _tks_window_normalise_spacing (reply);
  {
    /* "Trigger set by NAME at TICK": the log runs on a while, then freezes; said in words */
    const char *at = g_strrstr (reply, " at ");
    g_autofree char *by = at != NULL && g_str_has_prefix (reply, "Trigger set by ")
                          ? g_strndup (reply + strlen ("Trigger set by "),
                                       at - reply - strlen ("Trigger set by "))
                          : NULL;
    g_autofree char *words = NULL;

    if (by != NULL && g_ascii_isdigit (at[4]))
      /* Translators: who set the trigger, then the tick */
      words = g_strdup_printf (_("Trigger set by %s at tick %s: the board records the rest of "
                                 "its log, then holds it"), by, at + 4);
    _tks_window_show_message (self, words != NULL ? words : reply);
    set_board_state (self, words != NULL ? words : reply);
  }
}

static void
run_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(TksWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!tks_session_run_finish (TKS_SESSION (source), result, &error))
    {
      show_failure (self, error, _("Run failed: %s"), error->message);
      return;
    }
  _tks_window_show_message (self, _("The board logs continuously (run mode)."));
  set_board_state (self, _("logging"));
}

static void
fetch_progress_cb (TksSession *session,
                   guint64     bytes,
                   guint       records,
                   double      fraction,
                   double      seconds_left,
                   TksWindow  *self)
{
  g_autofree char *text = NULL;

  g_autofree char *size = g_format_size (bytes);

  if (seconds_left >= 0)
    text = g_strdup_printf (_("Reading from the board: %u records (%s), about %.0f s left"),
                            records, size, seconds_left);
  else
    text = g_strdup_printf (_("Reading from the board: %u records (%s)"), records, size);
  tks_progress_set_text (self->progress, text);
  if (fraction >= 0)
    tks_progress_set_fraction (self->progress, fraction);
}

static void
fetch_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(TksWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = tks_session_fetch_finish (TKS_SESSION (source), result, &error);

  g_signal_handlers_disconnect_by_func (source, fetch_progress_cb, self);
  if (TKS_SESSION (source) == self->session)
    self->fetching = FALSE;
  tks_progress_stop (self->progress);
  if (capture == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _tks_window_show_message (self, _("Cancelled. The board first finishes the reply it was sending, "
                                          "then answers the next request."));
      else
        {
          g_autofree char *message = g_strdup_printf (_("Could not get new data: %s"), error->message);

          _tks_window_board_show_error (self, message);
        }
      return;
    }
  if (TKS_SESSION (source) == self->session)
    {
      double trigger;
      g_autofree char *state = NULL;
      g_autofree char *tick = NULL;

      if (!tks_capture_get_trigger (capture, &trigger))
        state = g_strdup (_("logging"));
      else if ((tick = tks_tick_format (trigger)) != NULL
               && tks_capture_get_trigger_name (capture) != NULL)
        state = g_strdup_printf (_("triggered by %s at tick %s"),
                                 tks_capture_get_trigger_name (capture), tick);
      else
        state = g_strdup_printf (_("triggered at tick %s"), tick);
      set_board_state (self, state);
    }
  self->file_is_capture = FALSE;
  {
    /* The board's drop counter since the previous fetch, when those drops fall in this log. */
    guint64 dropped = 0;
    gboolean known = self->capture != NULL && self->file == NULL &&
                     tks_capture_get_dropped_since (capture, self->capture, &dropped) &&
                     dropped > 0;

    tks_window_set_capture (self, capture, NULL);
    _tks_window_trigger_fetched (self, capture);
    if (known)
      {
        g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, dropped);

        self->fetch_warning = g_strdup_printf (_("warning: the board did not record %s switches "
                                                 "while it printed the previous fetch, inside "
                                                 "this log: runs around that moment may be "
                                                 "missing or too long"), count);
        _tks_window_update_warnings (self);
      }
  }
  _tks_window_rebuild_history (self);
}

void
_tks_window_board_disconnect (TksWindow *self)
{

  if (self->session_cancellable != NULL)
    g_cancellable_cancel (self->session_cancellable);
  if (self->session != NULL)
    tks_session_disconnect (self->session);
  _tks_window_update_actions (self);
}

void
_tks_window_board_trigger (TksWindow *self)
{

  if (self->session != NULL)
    tks_session_trigger_async (self->session, self->session_cancellable, trigger_done_cb,
                               g_object_ref (self));
}

void
_tks_window_board_run (TksWindow *self)
{

  if (self->session != NULL)
    tks_session_run_async (self->session, self->session_cancellable, run_done_cb,
                           g_object_ref (self));
}

/* Ends what runs now; what is asked next gets a fresh cancellable. */
void
_tks_window_board_cancel (TksWindow *self)
{
  if (self->session_cancellable != NULL)
    {
      g_cancellable_cancel (self->session_cancellable);
      g_object_unref (self->session_cancellable);
      self->session_cancellable = g_cancellable_new ();
    }
}

void
_tks_window_board_dispose (TksWindow *self)
{
  if (self->session_cancellable != NULL)
    g_cancellable_cancel (self->session_cancellable);
  g_clear_object (&self->session_cancellable);
  if (self->session != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->session, self);
      tks_session_disconnect (self->session);
      g_clear_object (&self->session);
    }
  g_clear_pointer (&self->board_state, g_free);
}

gboolean
tks_window_set_line (TksWindow  *self,
                     guint       baud,
                     const char *flow)
{
  g_return_val_if_fail (TKS_IS_WINDOW (self), FALSE);

  return tks_board_popover_set_line (self->board_popover, baud, flow);
}

static void
board_connect_cb (TksWindow  *self,
                  const char *address)
{
  if (*address == '\0')
    {
      tks_window_show_error (self, _("Type a port (for example /dev/ttyACM0), tcp:HOST:PORT or demo."));
      return;
    }
  tks_window_connect (self, address);
}

static void
flow_control_changed_cb (TksWindow *self)
{
  GSettings *settings = _tks_window_get_settings (self);
  const char *flow = tks_board_popover_get_flow_control_name (self->board_popover);

  if (_tks_window_settings_has_key (settings, "flow-control") && flow != NULL)
    {
      g_autofree char *saved = g_settings_get_string (settings, "flow-control");

      if (g_strcmp0 (saved, flow) != 0)
        g_settings_set_string (settings, "flow-control", flow);
    }
}

static void
reconnect_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  TksWindow *self = user_data;
  g_autofree char *address = NULL;

  if (!can_reconnect (self))
    return;
  address = g_strdup (tks_session_get_address (self->session));
  if (address != NULL)
    tks_window_connect (self, address);
}

void
_tks_window_board_init (TksWindow *self)
{
  static const GActionEntry entries[] = {
    { "reconnect", reconnect_action, NULL, NULL, NULL, { 0 } },
  };

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  _tks_window_board_update_reconnect (self);
}

void
_tks_window_board_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, board_connect_cb);
  gtk_widget_class_bind_template_callback (widget_class, flow_control_changed_cb);
}
