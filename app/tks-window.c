/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "tks-error.h"
#include "tks-export-name.h"
#include "tks-overview.h"
#include "tks-stats-window.h"
#include "tks-timeline-render.h"
#include "tks-timeline-view.h"
#include "tks-viewport.h"
#include "tks-window.h"

#include "tks-session.h"
#include "tks-transport.h"
#include "tks-export.h"

#define PROGRESS_DELAY_MS 200
#define RECENT_APP_NAME   "tickscope"
#define MAX_RECENT        10
#define MAX_HISTORY       15
#define PORT_KEY          "tks-port"

/* The flow-control dropdown's items, in the order of TksFlowControl, as GSettings names them. */
static const char * const flow_control_names[] = { "none", "xonxoff", "rtscts" };

struct _TksWindow
{
  GtkApplicationWindow parent_instance;

  /* template widgets */
  GtkInfoBar       *error_bar;
  GtkLabel         *error_label;
  GtkInfoBar       *message_bar;
  GtkLabel         *message_label;
  GtkInfoBar       *warning_bar;
  GtkLabel         *warning_label;
  GtkRevealer      *progress_revealer;
  GtkLabel         *progress_label;
  GtkProgressBar   *progress_bar;
  TksTimelineView  *timeline;
  GtkScrollbar     *vscrollbar;
  TksOverview      *overview;
  GtkLabel         *status_label;
  GtkLabel         *info_label;
  GtkLabel         *range_label;
  GMenu            *recent_section;
  GMenu            *history_section;
  GtkMenuButton    *menu_button;
  GtkEntry         *port_entry;
  GtkListBox       *ports_list;
  GtkDropDown      *flow_dropdown;
  gboolean          syncing_port;
  GtkSpinButton    *baud_spin;
  GtkSpinButton    *tick_spin;
  GtkLabel         *board_label;
  GtkLabel         *title_label;
  GtkLabel         *subtitle_label;   /* the board and its state, under the title */
  GtkAdjustment    *tick_adjustment;
  GtkMenuButton    *board_button;

  TksViewport      *viewport;
  GtkAdjustment    *vadjustment;
  gboolean          syncing_vadjustment;

  TksCapture       *capture;
  GFile            *file;            /* where the capture was read from or saved to */
  gboolean          file_is_capture; /* the file is in the capture format (Save may write it) */
  char             *fetch_warning;  /* what two fetches in a row show missing in the log */

  GCancellable     *load_cancellable;
  guint             progress_timeout_id;
  guint             pulse_id;

  GtkRecentManager *recent;
  GtkWidget        *stats_window;
  GtkNativeDialog  *chooser;

  TksSession       *session;
  GCancellable     *session_cancellable;
  gboolean          fetching;
  char             *board_state;     /* what the board's log is doing, when known */
};

G_DEFINE_FINAL_TYPE (TksWindow, tks_window, GTK_TYPE_APPLICATION_WINDOW)

static GSettings *
get_settings (TksWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (app == NULL || !TKS_IS_APPLICATION (app))
    return NULL;
  return tks_application_get_settings (TKS_APPLICATION (app));
}

/* A schema compiled before a key was added lacks it: such a setting is not kept. */
static gboolean
settings_has_key (GSettings  *settings,
                  const char *key)
{
  g_autoptr(GSettingsSchema) schema = NULL;

  if (settings == NULL)
    return FALSE;
  g_object_get (settings, "settings-schema", &schema, NULL);
  return schema != NULL && g_settings_schema_has_key (schema, key);
}

static void
set_action_enabled (TksWindow  *self,
                    const char *name,
                    gboolean    enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);

  if (action != NULL)
    g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

/* Messages */

void
tks_window_show_error (TksWindow  *self,
                       const char *message)
{
  g_return_if_fail (TKS_IS_WINDOW (self));

  /* one message at a time: a failure replaces any information shown before */
  gtk_info_bar_set_revealed (self->message_bar, FALSE);
  gtk_label_set_text (self->error_label, message);
  gtk_info_bar_set_revealed (self->error_bar, TRUE);
}

static void
show_message (TksWindow  *self,
              const char *message)
{
  gtk_info_bar_set_revealed (self->error_bar, FALSE);
  gtk_label_set_text (self->message_label, message);
  gtk_info_bar_set_revealed (self->message_bar, TRUE);
}

static void
message_bar_response_cb (GtkInfoBar *bar,
                         int         response,
                         TksWindow  *self)
{
  if (response == GTK_RESPONSE_CLOSE)
    gtk_info_bar_set_revealed (bar, FALSE);
}

/* Progress */

static gboolean
pulse_cb (gpointer data)
{
  TksWindow *self = data;

  gtk_progress_bar_pulse (self->progress_bar);
  return G_SOURCE_CONTINUE;
}

static gboolean
progress_timeout_cb (gpointer data)
{
  TksWindow *self = data;

  self->progress_timeout_id = 0;
  gtk_revealer_set_reveal_child (self->progress_revealer, TRUE);
  if (self->pulse_id == 0)
    self->pulse_id = g_timeout_add (100, pulse_cb, self);
  return G_SOURCE_REMOVE;
}

static void
progress_start (TksWindow  *self,
                const char *text,
                gboolean    pulse)
{
  gtk_label_set_text (self->progress_label, text);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  g_clear_handle_id (&self->progress_timeout_id, g_source_remove);
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  self->progress_timeout_id = g_timeout_add (PROGRESS_DELAY_MS, progress_timeout_cb, self);
  if (!pulse)
    self->pulse_id = 0;
}

static void
progress_stop (TksWindow *self)
{
  g_clear_handle_id (&self->progress_timeout_id, g_source_remove);
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  gtk_revealer_set_reveal_child (self->progress_revealer, FALSE);
}

static void
progress_cancel_cb (TksWindow *self)
{
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  if (self->session_cancellable != NULL)
    {
      /* Ends what runs now; what is asked next gets a fresh one. */
      g_cancellable_cancel (self->session_cancellable);
      g_object_unref (self->session_cancellable);
      self->session_cancellable = g_cancellable_new ();
    }
  progress_stop (self);
}

/* Status */

static double
tick_hz (TksWindow *self)
{
  double hz = tks_timeline_view_get_tick_hz (self->timeline);

  if (hz <= 0 && self->capture != NULL)
    hz = tks_capture_get_tick_hz (self->capture);
  return hz;
}

static void
update_range_label (TksWindow *self)
{
  g_autofree char *span = NULL;
  g_autofree char *text = NULL;

  if (self->capture == NULL)
    {
      gtk_label_set_text (self->range_label, "");
      return;
    }
  span = tks_timeline_format_duration (tks_viewport_get_span (self->viewport), tick_hz (self));
  /* Translators: the visible range: start – end (width) */
  text = g_strdup_printf (_("View %.3f – %.3f (%s)"),
                          tks_viewport_get_visible_start (self->viewport),
                          tks_viewport_get_visible_end (self->viewport),
                          span);
  gtk_label_set_text (self->range_label, text);
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

static void
update_status (TksWindow *self)
{
  g_autofree char *text = NULL;
  g_autofree char *title = NULL;
  g_autofree char *details = NULL;
  guint n_lanes = 0, n_before;

  if (self->capture == NULL)
    {
      gtk_label_set_text (self->status_label, _("No capture"));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_label), NULL);
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
                            source, n_lanes, tks_capture_get_n_records (self->capture), tick_hz (self));
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
  gtk_label_set_text (self->status_label, text);
  details = capture_details (self->capture);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_label), details);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->status_label),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, details, -1);

  if (self->file != NULL)
    {
      g_autofree char *name = g_file_get_basename (self->file);
      title = g_strdup_printf (_("%s — Tickscope"), name);
    }
  else if (self->session != NULL && tks_session_get_address (self->session) != NULL)
    /* Translators: a capture fetched from a board and not saved yet; %s is the board's port */
    title = g_strdup_printf (_("Unsaved capture from %s — Tickscope"),
                             tks_session_get_address (self->session));
  else
    title = g_strdup (_("New capture — Tickscope"));
  gtk_window_set_title (GTK_WINDOW (self), title);
}

static void
update_warnings (TksWindow *self)
{
  const char * const *warnings;
  guint n = 0, i;
  GString *s;

  if (self->capture == NULL ||
      (warnings = tks_capture_get_warnings (self->capture, &n)) == NULL ||
      (n == 0 && self->fetch_warning == NULL))
    {
      gtk_info_bar_set_revealed (self->warning_bar, FALSE);
      return;
    }
  s = g_string_new (self->fetch_warning);
  for (i = 0; i < n && i < 6; i++)
    {
      if (s->len > 0)
        g_string_append_c (s, '\n');
      g_string_append (s, warnings[i]);
    }
  if (n > 6)
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "\n… and %u more warning",
                                            "\n… and %u more warnings", n - 6), n - 6);
  gtk_label_set_text (self->warning_label, s->str);
  gtk_info_bar_set_revealed (self->warning_bar, TRUE);
  g_string_free (s, TRUE);
}

static void
update_actions (TksWindow *self)
{
  gboolean have = self->capture != NULL;
  gboolean board = FALSE;

  board = self->session != NULL &&
          tks_session_get_state (self->session) == TKS_SESSION_IDLE;
  set_action_enabled (self, "disconnect", self->session != NULL &&
                      tks_session_get_state (self->session) != TKS_SESSION_DISCONNECTED);
  set_action_enabled (self, "save", have);
  set_action_enabled (self, "save-as", have);
  set_action_enabled (self, "export", have);
  set_action_enabled (self, "statistics", have);
  set_action_enabled (self, "zoom-fit", have);
  set_action_enabled (self, "zoom-in", have);
  set_action_enabled (self, "zoom-out", have);
  set_action_enabled (self, "back", have && tks_viewport_can_go_back (self->viewport));
  set_action_enabled (self, "forward", have && tks_viewport_can_go_forward (self->viewport));
  set_action_enabled (self, "trigger", board);
  set_action_enabled (self, "run", board);
  set_action_enabled (self, "fetch", board);
}

/* Viewport <-> scrollbar */

static void
sync_vadjustment (TksWindow *self)
{
  double content = tks_viewport_get_content_height (self->viewport);
  double page = tks_viewport_get_page_height (self->viewport);

  self->syncing_vadjustment = TRUE;
  gtk_adjustment_configure (self->vadjustment,
                            tks_viewport_get_v_offset (self->viewport),
                            0, MAX (content, page), TKS_TIMELINE_LANE_HEIGHT,
                            MAX (1.0, page - TKS_TIMELINE_LANE_HEIGHT), page);
  self->syncing_vadjustment = FALSE;
  gtk_widget_set_visible (GTK_WIDGET (self->vscrollbar), content > page + 0.5);
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
  sync_vadjustment (self);
  update_range_label (self);
  if (self->stats_window != NULL)
    tks_stats_window_set_range (TKS_STATS_WINDOW (self->stats_window),
                                tks_viewport_get_visible_start (self->viewport),
                                tks_viewport_get_visible_end (self->viewport));
}

static void
history_changed_cb (TksWindow *self)
{
  update_actions (self);
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

static void
add_recent (TksWindow *self,
            GFile     *file)
{
  g_autofree char *uri = g_file_get_uri (file);
  GtkRecentData data = {
    .display_name = NULL,
    .description = NULL,
    .mime_type = (char *)"text/plain",
    .app_name = (char *)RECENT_APP_NAME,
    .app_exec = (char *)"tickscope %u",
    .groups = NULL,
    .is_private = FALSE,
  };

  gtk_recent_manager_add_full (self->recent, uri, &data);
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

  /* the capture's own tick rate wins; the setting serves captures that do not tell */
  if (capture != NULL && tks_capture_get_tick_hz (capture) > 0)
    gtk_adjustment_set_value (self->tick_adjustment, tks_capture_get_tick_hz (capture));
  else if (capture != NULL)
    tks_capture_set_tick_hz (capture, gtk_adjustment_get_value (self->tick_adjustment));

  if (capture != NULL)
    tks_viewport_set_bounds (self->viewport,
                             tks_capture_get_start (capture),
                             tks_capture_get_end (capture));
  else
    tks_viewport_set_bounds (self->viewport, 0, 1);
  tks_viewport_set_v_offset (self->viewport, 0);

  tks_timeline_view_set_capture (self->timeline, capture);
  tks_overview_set_capture (self->overview, capture);
  if (capture != NULL)
    restore_saved_view (self);

  if (self->stats_window != NULL)
    tks_stats_window_set_capture (TKS_STATS_WINDOW (self->stats_window), capture);

  gtk_info_bar_set_revealed (self->error_bar, FALSE);
  update_warnings (self);
  update_status (self);
  update_range_label (self);
  update_actions (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
}

TksCapture *
tks_window_get_capture (TksWindow *self)
{
  g_return_val_if_fail (TKS_IS_WINDOW (self), NULL);
  return self->capture;
}

/* Loading */

typedef struct
{
  TksWindow *self;
  GFile     *file;
} LoadData;

static void
load_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  LoadData *data = user_data;
  TksWindow *self = data->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = tks_capture_load_file_finish (result, &error);

  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      progress_stop (self);
      g_clear_object (&self->load_cancellable);

      if (capture == NULL)
        {
          g_autofree char *name = g_file_get_parse_name (data->file);
          g_autofree char *quoted = g_strdup_printf ("“%s”", name);
          g_autofree char *message = NULL;
          const char *reason = error != NULL ? error->message : _("unknown error");

          /* the core's messages usually start with the quoted file name already */
          if (g_str_has_prefix (reason, quoted))
            reason += strlen (quoted);
          while (*reason == ':' || *reason == ' ')
            reason++;
          /* Translators: %s is a file name, then the reason */
          message = g_strdup_printf (_("Could not open “%s”: %s"), name, reason);
          tks_window_show_error (self, message);
        }
      else
        {
          TksSavedView view;

          self->file_is_capture = tks_capture_get_saved_view (capture, &view);
          tks_window_set_capture (self, capture, data->file);
          add_recent (self, data->file);
        }
    }

  g_object_unref (data->self);
  g_object_unref (data->file);
  g_free (data);
}

void
tks_window_open_file (TksWindow *self,
                      GFile     *file)
{
  LoadData *data;
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;

  g_return_if_fail (TKS_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = g_cancellable_new ();

  name = g_file_get_basename (file);
  text = g_strdup_printf (_("Loading “%s”…"), name);
  progress_start (self, text, TRUE);

  data = g_new0 (LoadData, 1);
  data->self = g_object_ref (self);
  data->file = g_object_ref (file);
  tks_capture_load_file_async (file, self->load_cancellable, load_done_cb, data);
}

/* File choosers */

static void
open_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  TksWindow       *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      if (file != NULL)
        tks_window_open_file (self, file);
    }
  gtk_native_dialog_destroy (dialog);
  g_clear_object (&self->chooser);
}

static void
add_filter (GtkFileChooser *chooser,
            const char     *name,
            const char     *pattern,
            const char     *id)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  if (pattern != NULL)
    gtk_file_filter_add_pattern (filter, pattern);
  else
    gtk_file_filter_add_pattern (filter, "*");
  g_object_set_data_full (G_OBJECT (filter), "tks-format", g_strdup (id), g_free);
  gtk_file_chooser_add_filter (chooser, filter);
  g_object_unref (filter);
}

static void
open_chooser (TksWindow *self,
              GFile     *start_folder)
{
  GtkFileChooserNative *native;

  native = gtk_file_chooser_native_new (_("Open Capture"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  add_filter (GTK_FILE_CHOOSER (native), _("Captures and shell transcripts (*.txt)"), "*.txt", "txt");
  add_filter (GTK_FILE_CHOOSER (native), _("All files"), NULL, "all");
  {
    /* start where the current capture is, or where the viewer was started */
    g_autoptr(GFile) folder = NULL;
    g_autofree char *cwd = NULL;

    if (start_folder != NULL)
      folder = g_object_ref (start_folder);
    else if (self->file != NULL)
      folder = g_file_get_parent (self->file);
    else
      folder = g_file_new_for_path ((cwd = g_get_current_dir ()));
    if (folder != NULL)
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (native), folder, NULL);
  }
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  g_signal_connect (native, "response", G_CALLBACK (open_response_cb), self);
  g_set_object (&self->chooser, GTK_NATIVE_DIALOG (native));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
  g_object_unref (native);
}

static void
open_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  open_chooser (user_data, NULL);
}

static void
open_recent_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  TksWindow *self = user_data;
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));

  tks_window_open_file (self, file);
}

static void
rebuild_recent (TksWindow *self)
{
  GList *items = gtk_recent_manager_get_items (self->recent);
  GList *l;
  GPtrArray *mine = g_ptr_array_new ();
  guint i;

  g_menu_remove_all (self->recent_section);
  for (l = items; l != NULL; l = l->next)
    if (gtk_recent_info_has_application (l->data, RECENT_APP_NAME))
      g_ptr_array_add (mine, l->data);

  /* newest first */
  for (i = 0; i < mine->len; i++)
    {
      guint j;
      for (j = i + 1; j < mine->len; j++)
        {
          GtkRecentInfo *a = g_ptr_array_index (mine, i);
          GtkRecentInfo *b = g_ptr_array_index (mine, j);
          if (g_date_time_compare (gtk_recent_info_get_modified (a),
                                   gtk_recent_info_get_modified (b)) < 0)
            {
              g_ptr_array_index (mine, i) = b;
              g_ptr_array_index (mine, j) = a;
            }
        }
    }

  for (i = 0; i < mine->len && i < MAX_RECENT; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (mine, i);
      g_autoptr(GMenuItem) item = g_menu_item_new (gtk_recent_info_get_display_name (info), NULL);

      g_menu_item_set_action_and_target (item, "win.open-recent", "s", gtk_recent_info_get_uri (info));
      g_menu_append_item (self->recent_section, item);
    }
  if (mine->len == 0)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("No recent captures"), "win.nothing");
      g_menu_append_item (self->recent_section, item);
    }

  g_ptr_array_unref (mine);
  g_list_free_full (items, (GDestroyNotify)gtk_recent_info_unref);
}

/* History: every fetch is kept in a folder of the user's data; the newest are listed in the
 * main menu, the folder is one click away. */

/* "2024-11-22_02-33-55.123_tcp_host_2000.txt" -> "2024-11-22 02:33:55  tcp_host_2000" */
static char *
history_label (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  gboolean raw = g_str_has_suffix (base, ".raw.txt");
  size_t len = strlen (base) - (raw ? strlen (".raw.txt") : g_str_has_suffix (base, ".txt") ? 4 : 0);
  int year, month, day, hour, minute, second, ms, used = 0;
  g_autofree char *name = g_strndup (base, len);

  if (sscanf (name, "%4d-%2d-%2d_%2d-%2d-%2d.%3d_%n", &year, &month, &day, &hour, &minute,
              &second, &ms, &used) == 7 && used > 0)
    {
      if (raw)
        /* Translators: a fetch kept in the history whose data could not be read: date, time, board */
        return g_strdup_printf (_("%04d-%02d-%02d %02d:%02d:%02d  %s (unread bytes)"),
                                year, month, day, hour, minute, second, name + used);
      return g_strdup_printf ("%04d-%02d-%02d %02d:%02d:%02d  %s",
                              year, month, day, hour, minute, second, name + used);
    }
  return g_steal_pointer (&base);
}

static void
rebuild_history (TksWindow *self)
{
  guint n = 0;

  g_menu_remove_all (self->history_section);
  {
    g_autoptr(GPtrArray) files = tks_session_list_history ();
    guint i;

    for (i = 0; i < files->len && i < MAX_HISTORY; i++)
      {
        const char *path = g_ptr_array_index (files, i);
        g_autofree char *label = history_label (path);
        g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
        g_autoptr(GMenuItem) item = NULL;

        if (uri == NULL)
          continue;
        item = g_menu_item_new (label, NULL);
        g_menu_item_set_action_and_target (item, "win.open-recent", "s", uri);
        g_menu_append_item (self->history_section, item);
        n++;
      }
  }
  if (n == 0)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("No fetches yet"), "win.nothing");
      g_menu_append_item (self->history_section, item);
    }
}

static void
menu_popup_cb (GtkMenuButton *button,
               gpointer       user_data)
{
  rebuild_history (user_data);
}

static void
browse_history_action (GSimpleAction *action,
                       GVariant      *param,
                       gpointer       user_data)
{
  TksWindow *self = user_data;
  g_autofree char *dir = tks_session_get_history_dir ();
  g_autoptr(GFile) folder = g_file_new_for_path (dir);

  g_mkdir_with_parents (dir, 0700);
  open_chooser (self, folder);
}

/* Saving */

static void
fill_saved_view (TksWindow    *self,
                 TksSavedView *view)
{
  double first = 0, last = 1;

  view->x0 = tks_viewport_get_visible_start (self->viewport);
  view->x1 = tks_viewport_get_visible_end (self->viewport);
  if (!tks_timeline_view_get_visible_lanes (self->timeline, &first, &last))
    {
      first = 0;
      last = 1;
    }
  view->y0 = tks_capture_lane_to_legacy_y (self->capture,
                                           tks_timeline_view_get_all_lanes (self->timeline), last);
  view->y1 = tks_capture_lane_to_legacy_y (self->capture,
                                           tks_timeline_view_get_all_lanes (self->timeline), first);
  if (view->y0 > view->y1)
    {
      double t = view->y0;
      view->y0 = view->y1;
      view->y1 = t;
    }
}

typedef struct
{
  TksCapture   *capture;
  char         *path;
  TksSavedView  view;
} SaveData;

static void
save_data_free (SaveData *data)
{
  g_clear_object (&data->capture);
  g_free (data->path);
  g_free (data);
}

static void
save_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  SaveData *data = task_data;
  GError *error = NULL;

  if (tks_capture_save (data->capture, data->path, &data->view, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
save_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  TksWindow *self = TKS_WINDOW (source);
  g_autoptr(GFile) file = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_file_get_parse_name (file);

  progress_stop (self);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_autofree char *message = g_strdup_printf (_("Could not save “%s”: %s"), name, error->message);
      tks_window_show_error (self, message);
      return;
    }
  g_set_object (&self->file, file);
  self->file_is_capture = TRUE;
  add_recent (self, file);
  update_status (self);
  {
    g_autofree char *message = g_strdup_printf (_("Saved “%s”."), name);
    show_message (self, message);
  }
}

static void
save_to (TksWindow *self,
         GFile     *file)
{
  g_autoptr(GTask) task = NULL;
  SaveData *data;
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *text = NULL;

  if (path == NULL)
    {
      tks_window_show_error (self, _("Captures can only be saved to local files."));
      return;
    }
  data = g_new0 (SaveData, 1);
  data->capture = g_object_ref (self->capture);
  data->path = g_steal_pointer (&path);
  fill_saved_view (self, &data->view);

  text = g_strdup_printf (_("Saving “%s”…"), data->path);
  progress_start (self, text, TRUE);
  task = g_task_new (self, NULL, save_done_cb, g_object_ref (file));
  g_task_set_source_tag (task, save_to);
  g_task_set_task_data (task, data, (GDestroyNotify)save_data_free);
  g_task_run_in_thread (task, save_thread);
}

static void
save_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  TksWindow       *self)
{
  if (response == GTK_RESPONSE_ACCEPT && self->capture != NULL)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      if (file != NULL)
        save_to (self, file);
    }
  gtk_native_dialog_destroy (dialog);
  g_clear_object (&self->chooser);
}

static void
save_as_action (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  TksWindow *self = user_data;
  GtkFileChooserNative *native;

  if (self->capture == NULL)
    return;
  native = gtk_file_chooser_native_new (_("Save Capture"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  add_filter (GTK_FILE_CHOOSER (native), _("Captures (*.txt)"), "*.txt", "txt");
  if (self->file != NULL)
    {
      g_autofree char *base = g_file_get_basename (self->file);
      g_autoptr(GFile) parent = g_file_get_parent (self->file);
      g_autofree char *name = NULL;

      if (self->file_is_capture)
        name = g_strdup (base);
      else if (g_str_has_suffix (base, ".raw.txt"))
        name = g_strdup_printf ("%.*s.saved.txt", (int)(strlen (base) - strlen (".raw.txt")), base);
      else
        name = g_strdup_printf ("%s.saved.txt", base);
      if (parent != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (native), parent, NULL);
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), name);
    }
  else
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), _("capture.txt"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  g_signal_connect (native, "response", G_CALLBACK (save_response_cb), self);
  g_set_object (&self->chooser, GTK_NATIVE_DIALOG (native));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
  g_object_unref (native);
}

static void
save_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  TksWindow *self = user_data;

  if (self->capture == NULL)
    return;
  /* A shell transcript is never overwritten by a capture file: ask where to save. */
  if (self->file != NULL && self->file_is_capture)
    save_to (self, self->file);
  else
    save_as_action (action, param, user_data);
}

/* Export */

static gboolean
export_view (TksWindow   *self,
             const char  *path,
             const char  *format,
             GError     **error)
{
  TksTimelineGeometry g;
  double width = MAX (400, gtk_widget_get_width (GTK_WIDGET (self->timeline)));
  double height = MAX (200, gtk_widget_get_height (GTK_WIDGET (self->timeline)));
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;
  gboolean dark = FALSE;

  tks_timeline_view_get_geometry (self->timeline, width, height, &g);
  if (g_str_equal (format, "svg"))
    surface = cairo_svg_surface_create (path, width, height);
  else if (g_str_equal (format, "pdf"))
    surface = cairo_pdf_surface_create (path, width, height);
  else
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int)width, (int)height);

  cr = cairo_create (surface);
  tks_timeline_render_cairo (self->capture, &g, cr, width, height, dark);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  if (g_str_equal (format, "png"))
    status = cairo_surface_write_to_png (surface, path);
  else
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_IO, "%s", cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

static gboolean
export_capture (TksWindow   *self,
                const char  *path,
                const char  *format,
                GError     **error)
{
  TksExportFormat export_format;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileOutputStream) stream = NULL;

  if (!tks_export_format_from_string (format, &export_format))
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE, _("Unknown export format %s"), format);
      return FALSE;
    }
  stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, error);
  if (stream == NULL)
    return FALSE;
  if (!tks_export_to_stream (self->capture, export_format, tick_hz (self),
                             G_OUTPUT_STREAM (stream), NULL, error))
    {
      g_output_stream_close (G_OUTPUT_STREAM (stream), NULL, NULL);
      return FALSE;
    }
  return g_output_stream_close (G_OUTPUT_STREAM (stream), NULL, error);
}

static void
export_response_cb (GtkDialog *dialog,
                    int        response,
                    TksWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT && self->capture != NULL)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      GtkFileFilter *filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (dialog));
      /* the name's extension decides; a name without a known one gets the chosen filter's format */
      const char *format = path != NULL ? tks_export_name_get_format (path) : NULL;
      g_autoptr(GError) error = NULL;
      gboolean ok;

      if (format == NULL && filter != NULL)
        format = g_object_get_data (G_OBJECT (filter), "tks-format");
      if (format == NULL)
        format = "png";
      /* A bare name ("timeline") gets the format's extension, unless that would replace a
       * file the dialog did not ask about. */
      if (path != NULL && tks_export_name_get_format (path) == NULL)
        {
          g_autofree char *base = g_path_get_basename (path);

          if (strchr (base, '.') == NULL)
            {
              g_autofree char *named = tks_export_name_set_format (path, format);

              if (!g_file_test (named, G_FILE_TEST_EXISTS))
                {
                  g_free (path);
                  path = g_steal_pointer (&named);
                }
            }
        }

      if (path == NULL)
        ok = FALSE, g_set_error (&error, TKS_ERROR, TKS_ERROR_IO, _("Only local files can be written"));
      else if (g_str_equal (format, "png") || g_str_equal (format, "svg") || g_str_equal (format, "pdf"))
        ok = export_view (self, path, format, &error);
      else
        ok = export_capture (self, path, format, &error);

      if (ok)
        {
          g_autofree char *message = g_strdup_printf (_("Exported “%s”."), path);
          show_message (self, message);
        }
      else
        {
          g_autofree char *message = g_strdup_printf (_("Could not export “%s”: %s"),
                                                      path ? path : "?", error->message);
          tks_window_show_error (self, message);
        }
    }
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* Choosing a format renames the file to match, as the user would otherwise have to. */
static void
export_filter_changed_cb (GtkFileChooser *chooser)
{
  GtkFileFilter *filter = gtk_file_chooser_get_filter (chooser);
  const char *format = filter != NULL ? g_object_get_data (G_OBJECT (filter), "tks-format") : NULL;
  g_autofree char *name = NULL;
  g_autofree char *renamed = NULL;

  if (format == NULL)
    return;
  name = gtk_file_chooser_get_current_name (chooser);
  renamed = tks_export_name_set_format (name != NULL ? name : "", format);
  if (g_strcmp0 (name, renamed) != 0)
    gtk_file_chooser_set_current_name (chooser, renamed);
}

static void
export_action (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  TksWindow *self = user_data;
  GtkWidget *dialog;
  GtkFileChooser *chooser;

  if (self->capture == NULL)
    return;
  /* A dialog of our own (not a native one): it tells when the format filter changes. */
  dialog = gtk_file_chooser_dialog_new (_("Export"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                        _("_Cancel"), GTK_RESPONSE_CANCEL,
                                        _("_Export"), GTK_RESPONSE_ACCEPT,
                                        NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  chooser = GTK_FILE_CHOOSER (dialog);
  add_filter (chooser, _("View as PNG image (*.png)"), "*.png", "png");
  add_filter (chooser, _("View as SVG image (*.svg)"), "*.svg", "svg");
  add_filter (chooser, _("View as PDF document (*.pdf)"), "*.pdf", "pdf");
  add_filter (chooser, _("Capture as Perfetto trace (*.json)"), "*.json", "perfetto");
  add_filter (chooser, _("Capture as CSV table (*.csv)"), "*.csv", "csv");
  add_filter (chooser, _("Capture as ftrace text (*.ftrace)"), "*.ftrace", "ftrace");
  gtk_file_chooser_set_current_name (chooser, _("timeline.png"));
  if (self->file != NULL)
    {
      g_autoptr(GFile) parent = g_file_get_parent (self->file);

      if (parent != NULL)
        gtk_file_chooser_set_current_folder (chooser, parent, NULL);
    }
  g_signal_connect (dialog, "notify::filter", G_CALLBACK (export_filter_changed_cb), NULL);
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (export_response_cb), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Statistics */

static void
stats_window_destroyed (TksWindow *self)
{
  self->stats_window = NULL;
}

static void
statistics_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  TksWindow *self = user_data;

  if (self->stats_window == NULL)
    {
      self->stats_window = tks_stats_window_new (GTK_WINDOW (self));
      g_signal_connect_swapped (self->stats_window, "destroy",
                                G_CALLBACK (stats_window_destroyed), self);
    }
  tks_stats_window_set_capture (TKS_STATS_WINDOW (self->stats_window), self->capture);
  tks_stats_window_set_range (TKS_STATS_WINDOW (self->stats_window),
                              tks_viewport_get_visible_start (self->viewport),
                              tks_viewport_get_visible_end (self->viewport));
  gtk_window_present (GTK_WINDOW (self->stats_window));
}

/* Threads that exited before the log began: hidden unless asked for. */
static void
show_exited_threads_change (GSimpleAction *action,
                            GVariant      *state,
                            gpointer       user_data)
{
  TksWindow *self = user_data;
  GSettings *settings = get_settings (self);
  gboolean show = g_variant_get_boolean (state);

  g_simple_action_set_state (action, state);
  tks_timeline_view_set_all_lanes (self->timeline, show);
  update_status (self);
  sync_vadjustment (self);
  if (settings_has_key (settings, "show-exited-threads") &&
      g_settings_get_boolean (settings, "show-exited-threads") != show)
    g_settings_set_boolean (settings, "show-exited-threads", show);
}

/* Navigation actions */

static void
zoom_fit_action (GSimpleAction *action,
                 GVariant      *param,
                 gpointer       user_data)
{
  TksWindow *self = user_data;
  tks_viewport_zoom_to_fit (self->viewport);
}

static void
zoom_in_action (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  TksWindow *self = user_data;
  tks_viewport_push_history (self->viewport, 700 * 1000);
  tks_viewport_zoom (self->viewport, 2, 0.5);
}

static void
zoom_out_action (GSimpleAction *action,
                 GVariant      *param,
                 gpointer       user_data)
{
  TksWindow *self = user_data;
  tks_viewport_push_history (self->viewport, 700 * 1000);
  tks_viewport_zoom (self->viewport, 0.5, 0.5);
}

static void
back_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  TksWindow *self = user_data;
  tks_viewport_go_back (self->viewport);
}

static void
forward_action (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  TksWindow *self = user_data;
  tks_viewport_go_forward (self->viewport);
}

/* The board */

/* The board and its state: in the board popover, and under the title while there is a
 * session. */
static void
show_board_text (TksWindow  *self,
                 const char *text)
{
  gtk_label_set_text (self->board_label, text);
  gtk_label_set_text (self->subtitle_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), self->session != NULL);
}

static void
session_state_changed_cb (TksWindow *self)
{
  const char *description;

  update_actions (self);
  switch (tks_session_get_state (self->session))
    {
    case TKS_SESSION_DISCONNECTED:
      show_board_text (self, _("Not connected."));
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

/* What the board's log is doing, as its last answers told (NULL: not known yet). */
static void
set_board_state (TksWindow  *self,
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
static void
start_fetch (TksWindow *self)
{
  if (self->session == NULL || self->fetching)
    return;
  self->fetching = TRUE;
  progress_start (self, _("Reading from the board…"), TRUE);
  g_signal_connect (self->session, "progress", G_CALLBACK (fetch_progress_cb), self);
  tks_session_fetch_async (self->session, self->session_cancellable, fetch_done_cb,
                           g_object_ref (self));
}

static void
connect_done_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(TksWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  progress_stop (self);
  if (!tks_session_connect_finish (TKS_SESSION (source), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *message = g_strdup_printf (_("Could not connect: %s"), error->message);
          tks_window_show_error (self, message);
        }
      update_actions (self);
      return;
    }
  gtk_info_bar_set_revealed (self->error_bar, FALSE);
  {
    const char *description = tks_session_get_description (TKS_SESSION (source));
    g_autofree char *message = g_strdup_printf (_("Connected: %s"),
                                                description ? description : tks_session_get_address (TKS_SESSION (source)));
    show_message (self, message);
  }
  update_actions (self);
  /* As soon as a board answers, show what it has logged. */
  start_fetch (self);
}

gboolean
tks_window_set_line (TksWindow  *self,
                     guint       baud,
                     const char *flow)
{
  GtkAdjustment *range;
  int flow_index = -1;

  g_return_val_if_fail (TKS_IS_WINDOW (self), FALSE);

  range = gtk_spin_button_get_adjustment (self->baud_spin);
  if (baud != 0 && (baud < gtk_adjustment_get_lower (range) || baud > gtk_adjustment_get_upper (range)))
    return FALSE;
  for (guint i = 0; flow != NULL && i < G_N_ELEMENTS (flow_control_names); i++)
    if (g_str_equal (flow, flow_control_names[i]))
      flow_index = (int) i;
  if (flow != NULL && flow_index < 0)
    return FALSE;

  if (baud != 0)
    gtk_spin_button_set_value (self->baud_spin, baud);
  if (flow_index >= 0)
    gtk_drop_down_set_selected (self->flow_dropdown, (guint) flow_index);
  return TRUE;
}

void
tks_window_connect (TksWindow  *self,
                    const char *address)
{
  g_return_if_fail (TKS_IS_WINDOW (self));
  g_return_if_fail (address != NULL);

  {
    g_autofree char *text = g_strdup_printf (_("Connecting to %s…"), address);
    GSettings *settings = get_settings (self);
    guint flow;

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
    tks_session_set_baud (self->session, (guint)gtk_spin_button_get_value (self->baud_spin));
    flow = gtk_drop_down_get_selected (self->flow_dropdown);
    tks_session_set_flow_control (self->session, flow <= TKS_FLOW_RTSCTS ? flow : TKS_FLOW_NONE);
    if (settings_has_key (settings, "history-max-mb"))
      tks_session_set_history_limit (self->session,
                                     (guint64) g_settings_get_uint (settings, "history-max-mb")
                                     * 1000 * 1000);
    g_signal_connect_swapped (self->session, "notify::state",
                              G_CALLBACK (session_state_changed_cb), self);
    gtk_editable_set_text (GTK_EDITABLE (self->port_entry), address);
    if (settings != NULL)
      {
        g_settings_set_string (settings, "last-port", address);
        g_settings_set_uint (settings, "baud", (guint)gtk_spin_button_get_value (self->baud_spin));
      }
    progress_start (self, text, TRUE);
    tks_session_connect_async (self->session, address, self->session_cancellable,
                               connect_done_cb, g_object_ref (self));
  }
}

static void
connect_clicked_cb (TksWindow *self)
{
  /* a copy: connecting writes the entry, which frees the text it held */
  g_autofree char *address = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->port_entry))));

  gtk_menu_button_popdown (self->board_button);
  if (*address == '\0')
    {
      tks_window_show_error (self, _("Type a port (for example /dev/ttyACM0), tcp:HOST:PORT or demo."));
      return;
    }
  tks_window_connect (self, address);
}

/* The port chooser: the serial ports present and the simulated board. Choosing one fills the
 * port entry, which also takes a pty path or tcp:HOST:PORT; double-clicking one connects. */

static GtkWidget *
port_row_new (const char *port,
              const char *title,
              const char *subtitle)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *label = gtk_label_new (title);
  g_autofree char *accessible_label = NULL;

  gtk_widget_set_margin_start (box, 8);
  gtk_widget_set_margin_end (box, 8);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  if (port != NULL)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  else
    {
      /* a note, not a port: no longer line than the rest of the popover */
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_add_css_class (label, "dim-label");
    }
  gtk_box_append (GTK_BOX (box), label);
  if (subtitle != NULL && *subtitle != '\0')
    {
      label = gtk_label_new (subtitle);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (GTK_BOX (box), label);
    }
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);

  if (port != NULL)
    g_object_set_data_full (G_OBJECT (row), PORT_KEY, g_strdup (port), g_free);
  else
    {
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
      gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (row), FALSE);
      gtk_widget_set_focusable (row, FALSE);
    }
  accessible_label = subtitle != NULL && *subtitle != '\0' ? g_strdup_printf ("%s, %s", title, subtitle)
                                                           : g_strdup (title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, accessible_label, -1);
  return row;
}

/* Selects the listed port the entry names, or none. */
static void
select_port_row (TksWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->port_entry));
  GtkListBoxRow *match = NULL;
  GtkListBoxRow *row;

  for (int i = 0; match == NULL && (row = gtk_list_box_get_row_at_index (self->ports_list, i)) != NULL; i++)
    if (g_strcmp0 (g_object_get_data (G_OBJECT (row), PORT_KEY), text) == 0)
      match = row;

  self->syncing_port = TRUE;
  if (match != NULL)
    gtk_list_box_select_row (self->ports_list, match);
  else
    gtk_list_box_unselect_all (self->ports_list);
  self->syncing_port = FALSE;
}

static char *
port_subtitle (const TksSerialPortInfo *info)
{
  g_autofree char *base = g_path_get_basename (info->name);
  const char *description = info->description;

  /* the kernel's name of a port without a product string says nothing new */
  if (description != NULL
      && (*description == '\0' || g_str_equal (description, info->name) || g_str_equal (description, base)))
    description = NULL;
  if (info->usb_vid >= 0 && info->usb_pid >= 0)
    {
      if (description != NULL)
        /* Translators: a serial port's description, then its USB vendor and product ids */
        return g_strdup_printf (_("%s, USB %04x:%04x"), description, info->usb_vid, info->usb_pid);
      /* Translators: a serial port's USB vendor and product ids */
      return g_strdup_printf (_("USB %04x:%04x"), info->usb_vid, info->usb_pid);
    }
  return g_strdup (description);
}

static void
refresh_ports (TksWindow *self)
{
  GtkListBoxRow *row;

  self->syncing_port = TRUE;
  while ((row = gtk_list_box_get_row_at_index (self->ports_list, 0)) != NULL)
    gtk_list_box_remove (self->ports_list, GTK_WIDGET (row));
  self->syncing_port = FALSE;

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) ports = tks_serial_list_ports (&error);

    if (ports == NULL)
      {
        g_autofree char *message = g_strdup_printf (_("Could not list the serial ports: %s"), error->message);
        gtk_list_box_append (self->ports_list, port_row_new (NULL, message, NULL));
      }
    else if (ports->len == 0)
      gtk_list_box_append (self->ports_list, port_row_new (NULL, _("No serial ports found"), NULL));
    for (guint i = 0; ports != NULL && i < ports->len; i++)
      {
        const TksSerialPortInfo *info = g_ptr_array_index (ports, i);
        g_autofree char *subtitle = port_subtitle (info);

        gtk_list_box_append (self->ports_list, port_row_new (info->name, info->name, subtitle));
      }
    if (tks_transport_has_demo ())
      gtk_list_box_append (self->ports_list,
                           port_row_new ("demo", "demo", _("Simulated board in this program")));
  }
  select_port_row (self);
}

static void
board_popover_show_cb (TksWindow *self)
{
  refresh_ports (self);
}

static void
refresh_ports_clicked_cb (TksWindow *self)
{
  refresh_ports (self);
}

static void
port_row_selected_cb (TksWindow     *self,
                      GtkListBoxRow *row,
                      GtkListBox    *list)
{
  const char *port;

  if (self->syncing_port || row == NULL)
    return;
  port = g_object_get_data (G_OBJECT (row), PORT_KEY);
  if (port == NULL)
    return;
  self->syncing_port = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->port_entry), port);
  gtk_editable_set_position (GTK_EDITABLE (self->port_entry), -1);
  self->syncing_port = FALSE;
}

static void
port_row_activated_cb (TksWindow     *self,
                       GtkListBoxRow *row,
                       GtkListBox    *list)
{
  const char *port = g_object_get_data (G_OBJECT (row), PORT_KEY);

  if (port == NULL)
    return;
  self->syncing_port = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->port_entry), port);
  self->syncing_port = FALSE;
  connect_clicked_cb (self);
}

static void
port_entry_changed_cb (TksWindow *self)
{
  if (!self->syncing_port)
    select_port_row (self);
}

static void
flow_control_changed_cb (TksWindow *self)
{
  GSettings *settings = get_settings (self);
  guint flow = gtk_drop_down_get_selected (self->flow_dropdown);

  if (settings_has_key (settings, "flow-control") && flow < G_N_ELEMENTS (flow_control_names))
    {
      g_autofree char *saved = g_settings_get_string (settings, "flow-control");

      if (g_strcmp0 (saved, flow_control_names[flow]) != 0)
        g_settings_set_string (settings, "flow-control", flow_control_names[flow]);
    }
}

static void
disconnect_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  TksWindow *self = user_data;

  if (self->session_cancellable != NULL)
    g_cancellable_cancel (self->session_cancellable);
  if (self->session != NULL)
    tks_session_disconnect (self->session);
  update_actions (self);
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
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *message = g_strdup_printf (_("Trigger failed: %s"), error->message);
          tks_window_show_error (self, message);
        }
      return;
    }
  g_strstrip (reply);
  show_message (self, reply);
  /* "Trigger set by NAME at TICK": the log runs on a while, then freezes */
  set_board_state (self, reply);
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
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *message = g_strdup_printf (_("Run failed: %s"), error->message);
          tks_window_show_error (self, message);
        }
      return;
    }
  show_message (self, _("The board logs continuously (run mode)."));
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
  gtk_label_set_text (self->progress_label, text);
  if (fraction >= 0)
    {
      g_clear_handle_id (&self->pulse_id, g_source_remove);
      gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (fraction, 0, 1));
    }
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
  progress_stop (self);
  if (capture == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_message (self, _("Cancelled. The board first finishes the reply it was sending, "
                              "then answers the next request."));
      else
        {
          g_autofree char *message = g_strdup_printf (_("Could not get new data: %s"), error->message);
          tks_window_show_error (self, message);
        }
      return;
    }
  if (tks_capture_get_source (capture) == NULL)
    tks_capture_set_source (capture, tks_session_get_address (TKS_SESSION (source)));
  if (TKS_SESSION (source) == self->session)
    {
      double trigger;
      g_autofree char *state = NULL;

      if (!tks_capture_get_trigger (capture, &trigger))
        state = g_strdup (_("logging"));
      else if (tks_capture_get_trigger_name (capture) != NULL)
        state = g_strdup_printf (_("triggered by %s at tick %.0f"),
                                 tks_capture_get_trigger_name (capture), trigger);
      else
        state = g_strdup_printf (_("triggered at tick %.0f"), trigger);
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
    if (known)
      {
        g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, dropped);

        self->fetch_warning = g_strdup_printf (_("warning: the board did not record %s switches "
                                                 "while it printed the previous fetch, inside "
                                                 "this log: runs around that moment may be "
                                                 "missing or too long"), count);
        update_warnings (self);
      }
  }
  rebuild_history (self);
}

static void
trigger_action (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  TksWindow *self = user_data;

  if (self->session != NULL)
    tks_session_trigger_async (self->session, self->session_cancellable, trigger_done_cb,
                               g_object_ref (self));
}

static void
run_action (GSimpleAction *action,
            GVariant      *param,
            gpointer       user_data)
{
  TksWindow *self = user_data;

  if (self->session != NULL)
    tks_session_run_async (self->session, self->session_cancellable, run_done_cb,
                           g_object_ref (self));
}

static void
fetch_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  start_fetch (user_data);
}

/* Drag and drop */

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         TksWindow     *self)
{
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = g_value_get_boxed (value);
  if (files == NULL)
    return FALSE;
  tks_window_open_file (self, files->data);
  return TRUE;
}

/* Settings */

static void
tick_rate_changed_cb (TksWindow *self)
{
  double hz = gtk_adjustment_get_value (self->tick_adjustment);
  GSettings *settings = get_settings (self);

  tks_timeline_view_set_tick_hz (self->timeline, hz);
  if (self->capture != NULL && tks_capture_get_tick_hz (self->capture) != hz)
    tks_capture_set_tick_hz (self->capture, hz);
  if (settings != NULL && g_settings_get_double (settings, "tick-rate") != hz)
    g_settings_set_double (settings, "tick-rate", hz);
  update_status (self);
  update_range_label (self);
}

static void
load_settings (TksWindow *self)
{
  GSettings *settings = get_settings (self);
  g_autofree char *port = NULL;
  g_autofree char *flow = NULL;
  int width, height;

  if (settings == NULL)
    return;
  width = g_settings_get_int (settings, "window-width");
  height = g_settings_get_int (settings, "window-height");
  if (width > 0 && height > 0)
    gtk_window_set_default_size (GTK_WINDOW (self), width, height);
  if (g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  port = g_settings_get_string (settings, "last-port");
  gtk_editable_set_text (GTK_EDITABLE (self->port_entry), port);
  gtk_spin_button_set_value (self->baud_spin, g_settings_get_uint (settings, "baud"));
  if (settings_has_key (settings, "flow-control"))
    {
      flow = g_settings_get_string (settings, "flow-control");
      for (guint i = 0; i < G_N_ELEMENTS (flow_control_names); i++)
        if (g_str_equal (flow, flow_control_names[i]))
          gtk_drop_down_set_selected (self->flow_dropdown, i);
    }
  gtk_adjustment_set_value (self->tick_adjustment, g_settings_get_double (settings, "tick-rate"));
  if (settings_has_key (settings, "show-exited-threads"))
    g_action_group_change_action_state (G_ACTION_GROUP (self), "show-exited-threads",
                                        g_variant_new_boolean (g_settings_get_boolean (settings, "show-exited-threads")));
}

static gboolean
close_request_cb (TksWindow *self)
{
  GSettings *settings = get_settings (self);

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
  return FALSE;
}

/* GObject */

static void
tks_window_dispose (GObject *object)
{
  TksWindow *self = TKS_WINDOW (object);

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  g_clear_handle_id (&self->progress_timeout_id, g_source_remove);
  g_clear_handle_id (&self->pulse_id, g_source_remove);
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
  g_type_ensure (TKS_TYPE_OVERVIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tickscope/Tickscope/ui/tks-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TksWindow, error_bar);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, message_bar);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, message_label);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, warning_bar);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, warning_label);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, progress_revealer);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, progress_label);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, vscrollbar);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, overview);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, info_label);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, range_label);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, recent_section);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, history_section);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, port_entry);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, ports_list);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, flow_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, baud_spin);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, tick_spin);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, board_label);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, tick_adjustment);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, board_button);
  gtk_widget_class_bind_template_callback (widget_class, message_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, progress_cancel_cb);
  gtk_widget_class_bind_template_callback (widget_class, connect_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, board_popover_show_cb);
  gtk_widget_class_bind_template_callback (widget_class, refresh_ports_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, port_row_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, port_row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, port_entry_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, flow_control_changed_cb);
}

static void
tks_window_init (TksWindow *self)
{
  static const GActionEntry entries[] = {
    { "open", open_action, NULL, NULL, NULL, { 0 } },
    { "open-recent", open_recent_action, "s", NULL, NULL, { 0 } },
    { "save", save_action, NULL, NULL, NULL, { 0 } },
    { "save-as", save_as_action, NULL, NULL, NULL, { 0 } },
    { "export", export_action, NULL, NULL, NULL, { 0 } },
    { "statistics", statistics_action, NULL, NULL, NULL, { 0 } },
    { "zoom-fit", zoom_fit_action, NULL, NULL, NULL, { 0 } },
    { "zoom-in", zoom_in_action, NULL, NULL, NULL, { 0 } },
    { "zoom-out", zoom_out_action, NULL, NULL, NULL, { 0 } },
    { "back", back_action, NULL, NULL, NULL, { 0 } },
    { "forward", forward_action, NULL, NULL, NULL, { 0 } },
    { "trigger", trigger_action, NULL, NULL, NULL, { 0 } },
    { "run", run_action, NULL, NULL, NULL, { 0 } },
    { "fetch", fetch_action, NULL, NULL, NULL, { 0 } },
    { "disconnect", disconnect_action, NULL, NULL, NULL, { 0 } },
    { "browse-history", browse_history_action, NULL, NULL, NULL, { 0 } },
    { "show-exited-threads", NULL, NULL, "false", show_exited_threads_change, { 0 } },
  };
  GtkDropTarget *drop;

  gtk_widget_init_template (GTK_WIDGET (self));
  g_object_bind_property (self, "title", self->title_label, "label", G_BINDING_SYNC_CREATE);

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);

  self->viewport = tks_viewport_new ();
  tks_timeline_view_set_viewport (self->timeline, self->viewport);
  tks_overview_set_viewport (self->overview, self->viewport);
  g_signal_connect_object (self->viewport, "changed", G_CALLBACK (viewport_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->viewport, "notify::can-go-back", G_CALLBACK (history_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->viewport, "notify::can-go-forward", G_CALLBACK (history_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline, "notify::info", G_CALLBACK (info_changed_cb), self, G_CONNECT_SWAPPED);

  self->vadjustment = g_object_ref_sink (gtk_adjustment_new (0, 0, 1, 1, 1, 1));
  gtk_scrollbar_set_adjustment (self->vscrollbar, self->vadjustment);
  g_signal_connect (self->vadjustment, "value-changed", G_CALLBACK (vadjustment_changed_cb), self);

  g_signal_connect_object (self->tick_adjustment, "value-changed", G_CALLBACK (tick_rate_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect (self, "close-request", G_CALLBACK (close_request_cb), NULL);

  self->recent = gtk_recent_manager_get_default ();
  g_signal_connect_object (self->recent, "changed", G_CALLBACK (rebuild_recent), self, G_CONNECT_SWAPPED);
  rebuild_recent (self);
  rebuild_history (self);
  gtk_menu_button_set_create_popup_func (self->menu_button, menu_popup_cb, self, NULL);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  gtk_label_set_text (self->board_label, _("Not connected."));
  update_status (self);
  update_actions (self);
  sync_vadjustment (self);
}

TksWindow *
tks_window_new (TksApplication *application)
{
  TksWindow *self = g_object_new (TKS_TYPE_WINDOW, "application", application, NULL);

  load_settings (self);
  tick_rate_changed_cb (self);
  return self;
}
