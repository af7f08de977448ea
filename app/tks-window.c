/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The main window: the status line, the scrollbar that follows the viewport, the capture
 * shown, the settings it keeps, and its construction. The actions, the files, the export, the
 * history, the board, the messages, the empty state and Record are in the tks-window-*.c files
 * next to it; the header bar, the message bar, the progress line, the warnings' count, the
 * legend and the board popover are widgets of their own; the window's fields are in
 * tks-window-private.h. */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tks-frame-stats.h"
#include "tks-legend.h"
#include "tks-overview.h"
#include "tks-stats-window.h"
#include "tks-time-format.h"
#include "tks-timeline-render.h"
#include "tks-timeline-view.h"
#include "tks-widget-text.h"
#include "tks-viewport.h"
#include "tks-window-private.h"

G_DEFINE_FINAL_TYPE (TksWindow, tks_window, GTK_TYPE_APPLICATION_WINDOW)

GSettings *
_tks_window_get_settings (TksWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (app == NULL || !TKS_IS_APPLICATION (app))
    return NULL;
  return tks_application_get_settings (TKS_APPLICATION (app));
}

/* A schema compiled before a key was added lacks it: such a setting is not kept. */
gboolean
_tks_window_settings_has_key (GSettings  *settings,
                              const char *key)
{
  g_autoptr(GSettingsSchema) schema = NULL;

  if (settings == NULL)
    return FALSE;
  g_object_get (settings, "settings-schema", &schema, NULL);
  return schema != NULL && g_settings_schema_has_key (schema, key);
}

/* Progress */

static void
progress_cancel_cb (TksWindow *self)
{
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  _tks_window_board_cancel (self);
}

/* Status */

double
_tks_window_get_tick_hz (TksWindow *self)
{
  double hz = tks_timeline_view_get_tick_hz (self->timeline);

  if (hz <= 0 && self->capture != NULL)
    hz = tks_capture_get_tick_hz (self->capture);
  return hz;
}

/* The visible range as the ruler counts it, its ends to a millionth of a tick without the
 * zeros that say nothing: "View -1.250 ms – 3.500 ms (4.750 ms), ticks 7904 – 9000" from the
 * ruler's 0, or "View ticks 7904 – 9000 (1096 ticks)" on a ruler in ticks. */
static void
update_range_label (TksWindow *self)
{
  TksTimelineGeometry g;
  g_autofree char *tick_a = NULL;
  g_autofree char *tick_b = NULL;
  g_autofree char *span = NULL;
  g_autofree char *text = NULL;

  if (self->capture == NULL)
    {
      tks_inscription_set_text (self->range_label, "");
      return;
    }
  tks_timeline_view_get_geometry (self->timeline, 1, 1, &g);
  tick_a = tks_time_format_position (g.x0);
  tick_b = tks_time_format_position (g.x1);
  span = tks_timeline_view_format_span (self->timeline, g.x1 - g.x0);
  if (g.time_ruler)
    {
      g_autofree char *a = tks_time_format_us ((g.x0 - g.origin) * 1e6 / g.tick_hz);
      g_autofree char *b = tks_time_format_us ((g.x1 - g.origin) * 1e6 / g.tick_hz);

      /* Translators: the visible range from the ruler's 0 (its width), then its ticks */
      text = g_strdup_printf (_("View %s – %s (%s), ticks %s – %s"), a, b, span, tick_a, tick_b);
    }
  else
    /* Translators: the visible range in board ticks (its width) */
    text = g_strdup_printf (_("View ticks %s – %s (%s)"), tick_a, tick_b, span);
  tks_inscription_set_text (self->range_label, text);
}

/* What the capture says about itself that is not a warning: where its log ends, the board's
 * counters (counted since boot, not within this capture), the threads gone before the log. */
static char *
capture_details (TksCapture *capture)
{
  GString *s = g_string_new (NULL);
  TksLogEndReason reason;
  TksBoardCounters counters;
  double log_end = tks_capture_get_log_end (capture, &reason);
  guint n_before = tks_capture_get_n_exited_before_log (capture);

  if (reason == TKS_LOG_END_LONE_EXITS)
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE,
                                            "The log ended at tick %.3f; %u thread exit was recorded after it, at ticks up to %.0f.",
                                            "The log ended at tick %.3f; %u thread exits were recorded after it, at ticks up to %.0f.",
                                            tks_capture_get_n_exits_after_log_end (capture)),
                            log_end, tks_capture_get_n_exits_after_log_end (capture),
                            tks_capture_get_end (capture) - 1);
  if (n_before > 0)
    {
      if (s->len > 0)
        g_string_append_c (s, '\n');
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE,
                                              "%u thread exited before the log began.",
                                              "%u threads exited before the log began.",
                                              n_before), n_before);
    }
  tks_capture_get_board_counters (capture, &counters);
  if (counters.known)
    {
      g_autofree char *written = g_strdup_printf ("%" G_GUINT64_FORMAT, counters.records_written);
      g_autofree char *paused = g_strdup_printf ("%" G_GUINT64_FORMAT, counters.dropped_paused);
      g_autofree char *history = g_strdup_printf ("%" G_GUINT64_FORMAT, counters.dropped_history);

      if (s->len > 0)
        g_string_append_c (s, '\n');
      g_string_append_printf (s, _("The board's counters since boot or run mode (not within this "
                                   "capture): %s records written, %s switches dropped while "
                                   "paused, %s records dropped for the history."),
                              written, paused, history);
    }
  return g_string_free (s, s->len == 0);
}

void
_tks_window_update_status (TksWindow *self)
{
  g_autofree char *text = NULL;
  g_autofree char *title = NULL;
  g_autofree char *details = NULL;
  guint n_lanes = 0, n_before;

  if (self->capture == NULL)
    {
      tks_inscription_set_text (self->status_label, _("No capture"));
      tks_widget_set_tooltip (self->status_label, NULL);
      gtk_window_set_title (GTK_WINDOW (self), _("Tickscope"));
      return;
    }
  tks_capture_get_shown_lanes (self->capture, tks_timeline_view_get_all_lanes (self->timeline),
                               &n_lanes);
  n_before = tks_capture_get_n_exited_before_log (self->capture);
  {
    g_autofree char *base = self->file != NULL ? g_file_get_basename (self->file) : NULL;
    const char *source = tks_capture_get_source (self->capture);

    if (source == NULL || *source == '\0')
      source = base != NULL ? base : _("capture");
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: %u thread, %u records, %.0f Hz tick",
                                         "%s: %u threads, %u records, %.0f Hz tick", n_lanes),
                            source, n_lanes, tks_capture_get_n_records (self->capture), _tks_window_get_tick_hz (self));
  }
  if (n_before > 0)
    {
      g_autofree char *with = text;

      text = g_strdup_printf (tks_timeline_view_get_all_lanes (self->timeline)
                              /* Translators: appended to the status line */
                              ? g_dngettext (GETTEXT_PACKAGE, "%s (%u of them exited before the log began)",
                                             "%s (%u of them exited before the log began)", n_before)
                              : g_dngettext (GETTEXT_PACKAGE, "%s (%u thread that exited before the log began is hidden)",
                                             "%s (%u threads that exited before the log began are hidden)", n_before),
                              with, n_before);
    }
  tks_inscription_set_text (self->status_label, text);
  details = capture_details (self->capture);
  tks_widget_set_tooltip (self->status_label, details);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->status_label),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, details, -1);

  if (self->file != NULL)
    {
      g_autofree char *name = g_file_get_basename (self->file);
      title = g_strdup_printf (_("%s — Tickscope"), name);
    }
  else if (self->recording != NULL && self->session != NULL &&
           tks_session_get_address (self->session) != NULL)
    /* Translators: the window's title while it records a board; %s is the board's port */
    title = g_strdup_printf (_("Recording %s — Tickscope"), tks_session_get_address (self->session));
  else if (self->session != NULL && tks_session_get_address (self->session) != NULL)
    /* Translators: a capture fetched from a board and not saved yet; %s is the board's port */
    title = g_strdup_printf (_("Unsaved capture from %s — Tickscope"),
                             tks_session_get_address (self->session));
  else
    title = g_strdup (_("New capture — Tickscope"));
  /* (the status is told every second while recording: a title set again, even the same, is
   * sent to the X server and the window manager draws the title bar again) */
  if (g_strcmp0 (gtk_window_get_title (GTK_WINDOW (self)), title) != 0)
    gtk_window_set_title (GTK_WINDOW (self), title);
}

/* Viewport <-> scrollbar */

void
_tks_window_sync_vadjustment (TksWindow *self)
{
  double content = tks_viewport_get_content_height (self->viewport);
  double page = tks_viewport_get_page_height (self->viewport);

  self->syncing_vadjustment = TRUE;
  gtk_adjustment_configure (self->vadjustment,
                            tks_viewport_get_v_offset (self->viewport),
                            0, MAX (content, page), TKS_TIMELINE_LANE_HEIGHT,
                            MAX (1.0, page - TKS_TIMELINE_LANE_HEIGHT), page);
  self->syncing_vadjustment = FALSE;
  /* Always there, so the lanes do not change width when a panel below takes some height and
   * the lanes no longer fit (the clicks and cursors a user aimed would move); usable when
   * they do not fit. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->vscrollbar), content > page + 0.5);
}

static void
vadjustment_changed_cb (GtkAdjustment *adjustment,
                        TksWindow     *self)
{
  if (self->syncing_vadjustment)
    return;
  tks_viewport_set_v_offset (self->viewport, gtk_adjustment_get_value (adjustment));
}

static void
viewport_changed_cb (TksWindow *self)
{
  _tks_window_sync_vadjustment (self);
  update_range_label (self);
  if (self->stats_window != NULL)
    tks_stats_window_set_range (TKS_STATS_WINDOW (self->stats_window),
                                tks_viewport_get_visible_start (self->viewport),
                                tks_viewport_get_visible_end (self->viewport));
}

static void
history_changed_cb (TksWindow *self)
{
  _tks_window_update_actions (self);
}

static void
info_changed_cb (TksWindow *self)
{
  const char *info = tks_timeline_view_get_info (self->timeline);

  gtk_label_set_text (self->info_label, info != NULL ? info : "");
}

/* The capture */

static void
restore_saved_view (TksWindow *self)
{
  TksSavedView view;
  double start = tks_capture_get_start (self->capture);
  double end = tks_capture_get_end (self->capture);

  if (!tks_capture_get_saved_view (self->capture, &view))
    return;

  /* A view that does not overlap the capture (the original viewer writes 0 1 0 1 before
   * anything was shown) is ignored, its lanes too: the whole capture is shown from the top. */
  if (!(isfinite (view.x0) && isfinite (view.x1) && view.x1 > view.x0 &&
        view.x1 > start && view.x0 < end))
    return;
  tks_viewport_set_range (self->viewport, view.x0, view.x1);

  if (isfinite (view.y0) && isfinite (view.y1) && view.y1 != view.y0)
    {
      gboolean all = tks_timeline_view_get_all_lanes (self->timeline);
      double a = tks_capture_legacy_y_to_lane (self->capture, all, view.y0);
      double b = tks_capture_legacy_y_to_lane (self->capture, all, view.y1);
      double top = MIN (a, b);

      if (isfinite (top) && top > 0)
        tks_viewport_set_v_offset (self->viewport, top * TKS_TIMELINE_LANE_HEIGHT);
    }
}

void
tks_window_set_capture (TksWindow  *self,
                        TksCapture *capture,
                        GFile      *file)
{
  g_return_if_fail (TKS_IS_WINDOW (self));
  g_return_if_fail (capture == NULL || TKS_IS_CAPTURE (capture));

  g_set_object (&self->capture, capture);
  g_set_object (&self->file, file);
  g_clear_pointer (&self->fetch_warning, g_free);

  /* the capture's tick rate is shown; the user may change it here, for this window only */
  if (capture != NULL)
    gtk_adjustment_set_value (tks_board_popover_get_tick_adjustment (self->board_popover),
                              tks_capture_get_tick_hz (capture));

  if (capture != NULL)
    {
      double trigger, fit_end = tks_capture_get_log_end (capture, NULL);

      tks_viewport_set_bounds (self->viewport,
                               tks_capture_get_start (capture),
                               tks_capture_get_end (capture));
      /* Fit shows the log, and the trigger, not the time after the log's end */
      if (tks_capture_get_trigger (capture, &trigger))
        fit_end = MAX (fit_end, trigger);
      tks_viewport_set_fit (self->viewport, tks_capture_get_start (capture), fit_end);
    }
  else
    tks_viewport_set_bounds (self->viewport, 0, 1);
  tks_viewport_set_v_offset (self->viewport, 0);

  tks_timeline_view_set_capture (self->timeline, capture);
  tks_overview_set_capture (self->overview, capture);
  if (capture != NULL)
    restore_saved_view (self);

  if (self->stats_window != NULL)
    tks_stats_window_set_capture (TKS_STATS_WINDOW (self->stats_window), capture);

  _tks_window_clear_error (self);
  _tks_window_update_warnings (self);
  _tks_window_update_empty (self);
  _tks_window_update_status (self);
  update_range_label (self);
  _tks_window_update_actions (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
}

TksCapture *
tks_window_get_capture (TksWindow *self)
{
  g_return_val_if_fail (TKS_IS_WINDOW (self), NULL);
  return self->capture;
}

/* Settings */

static void
tick_rate_changed_cb (GtkAdjustment *adjustment,
                      TksWindow     *self)
{
  double hz = gtk_adjustment_get_value (adjustment);
  GSettings *settings = _tks_window_get_settings (self);

  tks_timeline_view_set_tick_hz (self->timeline, hz);
  if (settings != NULL && g_settings_get_double (settings, "tick-rate") != hz)
    g_settings_set_double (settings, "tick-rate", hz);
  _tks_window_update_status (self);
  update_range_label (self);
}

/* The menu's toggles are the actions of their settings. The window's size is kept when it
 * closes, the tick rate when it changes (each capture shown sets it, a live one each second),
 * the board's port, speed and flow control when a connection succeeds. */
static void
bind_settings (TksWindow *self)
{
  GSettings *settings = _tks_window_get_settings (self);
  GtkAdjustment *tick_rate = tks_board_popover_get_tick_adjustment (self->board_popover);
  g_autofree char *port = NULL;

  int width, height;

  _tks_window_actions_add_settings (self, settings);
  if (settings == NULL)
    return;
  width = g_settings_get_int (settings, "window-width");
  height = g_settings_get_int (settings, "window-height");
  if (width > 0 && height > 0)
    gtk_window_set_default_size (GTK_WINDOW (self), width, height);
  if (g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  gtk_adjustment_set_value (tick_rate, g_settings_get_double (settings, "tick-rate"));
  port = g_settings_get_string (settings, "last-port");
  tks_board_popover_set_port (self->board_popover, port);
  tks_board_popover_set_baud (self->board_popover, g_settings_get_uint (settings, "baud"));
  if (_tks_window_settings_has_key (settings, "flow-control"))
    {
      g_autofree char *flow = g_settings_get_string (settings, "flow-control");

      tks_board_popover_set_flow_control (self->board_popover, flow);
    }
}

static gboolean
close_request_cb (TksWindow *self)
{
  GSettings *settings = _tks_window_get_settings (self);

  if (settings != NULL)
    {
      int width, height;

      gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
      g_settings_set_boolean (settings, "window-maximized", gtk_window_is_maximized (GTK_WINDOW (self)));
      if (!gtk_window_is_maximized (GTK_WINDOW (self)) && width > 0 && height > 0)
        {
          g_settings_set_int (settings, "window-width", width);
          g_settings_set_int (settings, "window-height", height);
        }
    }
  /* a recording under way ends first, its file complete; the window closes then */
  return _tks_window_record_close_request (self);
}

/* GObject */

static void
tks_window_dispose (GObject *object)
{
  TksWindow *self = TKS_WINDOW (object);

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  _tks_window_trigger_dispose (self);
  _tks_window_record_dispose (self);
  _tks_window_board_dispose (self);
  if (self->recent != NULL)
    g_signal_handlers_disconnect_by_data (self->recent, self);
  if (self->stats_window != NULL)
    gtk_window_destroy (GTK_WINDOW (self->stats_window));
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (self->chooser);
  g_clear_object (&self->chooser);
  g_clear_object (&self->capture);
  g_clear_pointer (&self->fetch_warning, g_free);
  g_clear_object (&self->file);
  g_clear_object (&self->vadjustment);

  gtk_widget_dispose_template (GTK_WIDGET (self), TKS_TYPE_WINDOW);

  g_clear_object (&self->viewport);

  G_OBJECT_CLASS (tks_window_parent_class)->dispose (object);
}

static void
tks_window_class_init (TksWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tks_window_dispose;

  g_type_ensure (TKS_TYPE_TIMELINE_VIEW);
  g_type_ensure (TKS_TYPE_SELECTION_PANEL);
  g_type_ensure (TKS_TYPE_THREADS_PANEL);
  g_type_ensure (TKS_TYPE_EVENTS_PANEL);
  g_type_ensure (TKS_TYPE_FIND_BAR);
  g_type_ensure (TKS_TYPE_OVERVIEW);
  g_type_ensure (TKS_TYPE_BOARD_POPOVER);
  g_type_ensure (TKS_TYPE_RECORD_PANEL);
  g_type_ensure (TKS_TYPE_PROGRESS);
  g_type_ensure (TKS_TYPE_HEADER_BAR);
  g_type_ensure (TKS_TYPE_LEGEND);
  g_type_ensure (TKS_TYPE_MESSAGE_BAR);
  g_type_ensure (TKS_TYPE_WARNINGS_BUTTON);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tickscope/Tickscope/ui/tks-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TksWindow, progress);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, threads_revealer);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, threads_panel);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, events_panel);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, find_bar);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, record_revealer);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, record_panel);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, vscrollbar);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, overview);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, info_label);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, range_label);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, header);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, board_popover);
  gtk_widget_class_bind_template_callback (widget_class, progress_cancel_cb);
  _tks_window_board_class_init (widget_class);
  _tks_window_messages_class_init (widget_class);
  _tks_window_chrome_class_init (widget_class);
}

static void
tks_window_init (TksWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_object_bind_property (self, "title", self->header, "title", G_BINDING_SYNC_CREATE);
  gtk_menu_button_set_popover (tks_header_bar_get_board_button (self->header),
                               GTK_WIDGET (self->board_popover));

  _tks_window_actions_init (self);
  _tks_window_record_init (self);
  _tks_window_trigger_init (self);

  self->viewport = tks_viewport_new ();
  tks_timeline_view_set_viewport (self->timeline, self->viewport);
  tks_overview_set_viewport (self->overview, self->viewport);
  g_signal_connect_object (self->viewport, "changed", G_CALLBACK (viewport_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->viewport, "notify::can-go-back", G_CALLBACK (history_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->viewport, "notify::can-go-forward", G_CALLBACK (history_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline, "notify::info", G_CALLBACK (info_changed_cb), self, G_CONNECT_SWAPPED);
  /* the range is told in the ruler's units */
  g_signal_connect_object (self->timeline, "notify::ruler-ticks", G_CALLBACK (update_range_label), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline, "notify::time-origin", G_CALLBACK (update_range_label), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline, "notify::tick-hz", G_CALLBACK (update_range_label), self, G_CONNECT_SWAPPED);

  self->vadjustment = g_object_ref_sink (gtk_adjustment_new (0, 0, 1, 1, 1, 1));
  gtk_scrollbar_set_adjustment (self->vscrollbar, self->vadjustment);
  g_signal_connect (self->vadjustment, "value-changed", G_CALLBACK (vadjustment_changed_cb), self);

  g_signal_connect_object (tks_board_popover_get_tick_adjustment (self->board_popover),
                           "value-changed", G_CALLBACK (tick_rate_changed_cb), self, 0);
  g_signal_connect (self, "close-request", G_CALLBACK (close_request_cb), NULL);

  self->recent = gtk_recent_manager_get_default ();
  g_signal_connect_object (self->recent, "changed", G_CALLBACK (_tks_window_rebuild_recent), self, G_CONNECT_SWAPPED);
  _tks_window_rebuild_recent (self);
  _tks_window_history_init (self);
  _tks_window_dnd_init (self);
  _tks_window_messages_init (self);
  _tks_window_chrome_init (self);
  _tks_window_board_init (self);

  _tks_window_update_status (self);
  _tks_window_update_actions (self);
  _tks_window_sync_vadjustment (self);
  tks_frame_stats_attach_from_env (GTK_WIDGET (self));
}

TksWindow *
tks_window_new (TksApplication *application)
{
  TksWindow *self = g_object_new (TKS_TYPE_WINDOW, "application", application, NULL);

  bind_settings (self);
  tick_rate_changed_cb (tks_board_popover_get_tick_adjustment (self->board_popover), self);
  return self;
}
