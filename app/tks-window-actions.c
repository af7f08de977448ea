/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's actions (win.*): the table, what enables them, and their handlers, which
 * call the part of the window that does the work. */
#include "config.h"

#include <math.h>

#include "tks-stats-window.h"
#include "tks-timeline-view.h"
#include "tks-viewport.h"
#include "tks-window-navigate.h"
#include "tks-window-private.h"

static void
set_action_enabled (TksWindow  *self,
                    const char *name,
                    gboolean    enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);

  if (action != NULL)
    g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

void
_tks_window_update_actions (TksWindow *self)
{
  gboolean have = self->capture != NULL;
  gboolean board = FALSE;

  board = self->session != NULL &&
          tks_session_get_state (self->session) == TKS_SESSION_IDLE;
  set_action_enabled (self, "disconnect", self->session != NULL &&
                      tks_session_get_state (self->session) != TKS_SESSION_DISCONNECTED);
  /* while recording, the capture shown is the recording's last minute: the whole is in its
   * file, which opens when the recording stops */
  set_action_enabled (self, "save", have && self->recording == NULL);
  set_action_enabled (self, "save-as", have && self->recording == NULL);
  set_action_enabled (self, "export", have);
  set_action_enabled (self, "statistics", have);
  set_action_enabled (self, "zoom-fit", have);
  set_action_enabled (self, "zoom-in", have);
  set_action_enabled (self, "zoom-out", have);
  set_action_enabled (self, "back", have && tks_viewport_can_go_back (self->viewport));
  set_action_enabled (self, "forward", have && tks_viewport_can_go_forward (self->viewport));
  set_action_enabled (self, "trigger", board);
  set_action_enabled (self, "run", board);
  set_action_enabled (self, "fetch", board && self->recording == NULL);
  set_action_enabled (self, "record", _tks_window_can_record (self));
  _tks_window_record_explain (self);
}

/* Files */

static void
open_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  _tks_window_open_chooser (user_data, NULL);
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
save_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  _tks_window_save (user_data);
}

static void
save_as_action (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  _tks_window_save_as (user_data);
}

static void
export_action (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  _tks_window_export (user_data);
}

static void
browse_history_action (GSimpleAction *action,
                       GVariant      *param,
                       gpointer       user_data)
{
  _tks_window_browse_history (user_data);
}

/* Statistics */

static void
stats_window_destroyed (TksWindow *self)
{
  self->stats_window = NULL;
}

/* The marks and the selected run of the timeline, for the statistics of their range. */
static void
stats_window_follow_timeline (TksTimelineView *timeline,
                              GParamSpec      *pspec,
                              TksStatsWindow  *stats)
{
  double a, b, begin = NAN, end = NAN;

  tks_timeline_view_get_marks (timeline, &a, &b);
  tks_stats_window_set_marks (stats, a, b);
  tks_timeline_view_get_selected_run (timeline, &begin, &end);
  tks_stats_window_set_selected_run (stats, begin, end);
}

static void
stats_window_follow_tick_hz (TksTimelineView *timeline,
                             GParamSpec      *pspec,
                             TksStatsWindow  *stats)
{
  tks_stats_window_set_tick_hz (stats, tks_timeline_view_get_tick_hz (timeline));
}

static void
statistics_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  TksWindow *self = user_data;
  TksStatsWindow *stats;

  if (self->stats_window == NULL)
    {
      self->stats_window = tks_stats_window_new (GTK_WINDOW (self));
      g_signal_connect_swapped (self->stats_window, "destroy",
                                G_CALLBACK (stats_window_destroyed), self);
      g_signal_connect_object (self->timeline, "notify::info",
                               G_CALLBACK (stats_window_follow_timeline), self->stats_window, 0);
      g_signal_connect_object (self->timeline, "notify::tick-hz",
                               G_CALLBACK (stats_window_follow_tick_hz), self->stats_window, 0);
    }
  stats = TKS_STATS_WINDOW (self->stats_window);
  tks_stats_window_set_timeline (stats, self->timeline);
  tks_stats_window_set_capture (stats, self->capture);
  stats_window_follow_tick_hz (self->timeline, NULL, stats);
  tks_stats_window_set_range (stats,
                              tks_viewport_get_visible_start (self->viewport),
                              tks_viewport_get_visible_end (self->viewport));
  stats_window_follow_timeline (self->timeline, NULL, stats);
  /* opened with A and B set: the figures of their range */
  if (tks_timeline_view_get_marks (self->timeline, NULL, NULL))
    tks_stats_window_set_mode (stats, TKS_STATS_RANGE_MARKS);
  gtk_window_present (GTK_WINDOW (self->stats_window));
}

static void
zoom_to_marks_action (GSimpleAction *action,
                      GVariant      *param,
                      gpointer       user_data)
{
  TksWindow *self = user_data;
  double a, b;

  if (!tks_timeline_view_get_marks (self->timeline, &a, &b) || a == b)
    return;
  tks_viewport_navigate (self->viewport, MIN (a, b), MAX (a, b));
}

/* Shows a span of the timeline (two positions, ticks), with some room on each side: where
 * the statistics window points (the longest response of a thread). */
static void
show_span_action (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       user_data)
{
  TksWindow *self = user_data;
  double a, b, room;

  g_variant_get (param, "(dd)", &a, &b);
  if (!isfinite (a) || !isfinite (b))
    return;
  room = MAX ((MAX (a, b) - MIN (a, b)) * 0.25, 0.5);
  tks_viewport_navigate (self->viewport, MIN (a, b) - room, MAX (a, b) + room);
}

/* The toggles of the main menu, each the action of the setting of its name: the menus show
 * the setting, and a change of it (from a menu, a key or outside) reaches the view here. */

static gboolean
toggle_is_on (GAction *action)
{
  g_autoptr(GVariant) state = g_action_get_state (action);

  return state != NULL && g_variant_get_boolean (state);
}

/* Threads that exited before the log began: hidden unless asked for. */
static void
show_exited_threads_changed (GAction    *action,
                             GParamSpec *pspec,
                             TksWindow  *self)
{
  tks_timeline_view_set_all_lanes (self->timeline, toggle_is_on (action));
  _tks_window_update_status (self);
  _tks_window_sync_vadjustment (self);
}

/* The ruler in board ticks instead of real time. */
static void
ruler_ticks_changed (GAction    *action,
                     GParamSpec *pspec,
                     TksWindow  *self)
{
  tks_timeline_view_set_ruler_ticks (self->timeline, toggle_is_on (action));
}

/* The CPU load graph above the lanes. */
static void
load_graph_changed (GAction    *action,
                    GParamSpec *pspec,
                    TksWindow  *self)
{
  tks_timeline_view_set_load_graph (self->timeline, toggle_is_on (action));
  _tks_window_sync_vadjustment (self);
}

/* Arrows from the waker to the woken run on the timeline. */
static void
wake_arrows_changed (GAction    *action,
                     GParamSpec *pspec,
                     TksWindow  *self)
{
  tks_timeline_view_set_wake_arrows (self->timeline, toggle_is_on (action));
}

/* The threads panel beside the timeline. */
static void
threads_panel_changed (GAction    *action,
                       GParamSpec *pspec,
                       TksWindow  *self)
{
  gboolean open = toggle_is_on (action);

  /* closed, the panel is hidden once it has slid away: out of the accessibility tree */
  if (open)
    gtk_widget_set_visible (GTK_WIDGET (self->threads_revealer), TRUE);
  gtk_revealer_set_reveal_child (self->threads_revealer, open);
}

typedef void (*ToggleChanged) (GAction    *action,
                               GParamSpec *pspec,
                               TksWindow  *self);

/* The action of the setting @key, or without the setting (no schema, or one compiled before
 * the key was added) a toggle that is not kept; @changed applies its state now and on each
 * change. */
static void
add_setting_toggle (TksWindow     *self,
                    GSettings     *settings,
                    const char    *key,
                    ToggleChanged  changed)
{
  g_autoptr(GAction) action = NULL;

  if (_tks_window_settings_has_key (settings, key))
    action = g_settings_create_action (settings, key);
  else
    action = G_ACTION (g_simple_action_new_stateful (key, NULL, g_variant_new_boolean (FALSE)));
  g_action_map_add_action (G_ACTION_MAP (self), action);
  if (changed == NULL)
    return;
  g_signal_connect_object (action, "notify::state", G_CALLBACK (changed), self, 0);
  changed (action, NULL, self);
}

void
_tks_window_actions_add_settings (TksWindow *self,
                                  GSettings *settings)
{
  add_setting_toggle (self, settings, "show-exited-threads", show_exited_threads_changed);
  add_setting_toggle (self, settings, "ruler-ticks", ruler_ticks_changed);
  add_setting_toggle (self, settings, "load-graph", load_graph_changed);
  add_setting_toggle (self, settings, "wake-arrows", wake_arrows_changed);
  add_setting_toggle (self, settings, "threads-panel", threads_panel_changed);
  /* read when a recording starts */
  add_setting_toggle (self, settings, "record-events", NULL);
}

static void
threads_panel_revealed (GtkRevealer *revealer)
{
  if (!gtk_revealer_get_reveal_child (revealer) && !gtk_revealer_get_child_revealed (revealer))
    gtk_widget_set_visible (GTK_WIDGET (revealer), FALSE);
}

/* Ctrl+W: as the title bar's close button (a recording under way ends first). */
static void
close_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  gtk_window_close (GTK_WINDOW (user_data));
}

/* Record, and the same button stops. */
static void
record_change (GSimpleAction *action,
               GVariant      *state,
               gpointer       user_data)
{
  _tks_window_record (user_data, g_variant_get_boolean (state));
}

/* The revealers the events list and the find bar slide in and out of. */
static GtkRevealer *
events_revealer (TksWindow *self)
{
  return GTK_REVEALER (gtk_widget_get_ancestor (GTK_WIDGET (self->events_panel),
                                                GTK_TYPE_REVEALER));
}

static GtkRevealer *
find_revealer (TksWindow *self)
{
  return GTK_REVEALER (gtk_widget_get_ancestor (GTK_WIDGET (self->find_bar), GTK_TYPE_REVEALER));
}

/* F8: the events list under the timeline. */
static void
events_change (GSimpleAction *action,
               GVariant      *state,
               gpointer       user_data)
{
  TksWindow *self = user_data;
  gboolean open = g_variant_get_boolean (state);

  if (open)
    gtk_widget_set_visible (GTK_WIDGET (events_revealer (self)), TRUE);
  gtk_revealer_set_reveal_child (events_revealer (self), open);
  g_simple_action_set_state (action, state);
}

/* A revealer closed is hidden once its child has slid away: out of the accessibility tree. */
static void
revealer_revealed (GtkRevealer *revealer)
{
  if (!gtk_revealer_get_reveal_child (revealer) && !gtk_revealer_get_child_revealed (revealer))
    gtk_widget_set_visible (GTK_WIDGET (revealer), FALSE);
}

/* Ctrl+F: find above the timeline. */
static void
find_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  TksWindow *self = user_data;

  gtk_widget_set_visible (GTK_WIDGET (find_revealer (self)), TRUE);
  gtk_revealer_set_reveal_child (find_revealer (self), TRUE);
  tks_find_bar_focus (self->find_bar);
}

/* Escape in find: closed, its highlights gone. */
static void
find_close_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  TksWindow *self = user_data;

  tks_find_bar_clear (self->find_bar);
  gtk_revealer_set_reveal_child (find_revealer (self), FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
}

/* F3, Shift+F3: the next and previous match of find. */
static void
find_next_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  tks_find_bar_go (TKS_WINDOW (user_data)->find_bar, TRUE);
}

static void
find_previous_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  tks_find_bar_go (TKS_WINDOW (user_data)->find_bar, FALSE);
}

/* Ctrl+Shift+F: the panel's search, the panel opened if need be. */
static void
find_thread_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  TksWindow *self = user_data;

  g_action_group_change_action_state (G_ACTION_GROUP (self), "threads-panel",
                                      g_variant_new_boolean (TRUE));
  tks_threads_panel_focus_search (self->threads_panel);
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

static void
trigger_action (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  _tks_window_board_trigger (user_data);
}

static void
run_action (GSimpleAction *action,
            GVariant      *param,
            gpointer       user_data)
{
  _tks_window_board_run (user_data);
}

static void
fetch_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  _tks_window_board_fetch (user_data);
}

static void
disconnect_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  _tks_window_board_disconnect (user_data);
}

void
_tks_window_actions_init (TksWindow *self)
{
  static const GActionEntry entries[] = {
    { "open", open_action, NULL, NULL, NULL, { 0 } },
    { "open-recent", open_recent_action, "s", NULL, NULL, { 0 } },
    { "save", save_action, NULL, NULL, NULL, { 0 } },
    { "save-as", save_as_action, NULL, NULL, NULL, { 0 } },
    { "export", export_action, NULL, NULL, NULL, { 0 } },
    { "statistics", statistics_action, NULL, NULL, NULL, { 0 } },
    { "zoom-fit", zoom_fit_action, NULL, NULL, NULL, { 0 } },
    { "zoom-to-marks", zoom_to_marks_action, NULL, NULL, NULL, { 0 } },
    { "show-span", show_span_action, "(dd)", NULL, NULL, { 0 } },
    { "zoom-in", zoom_in_action, NULL, NULL, NULL, { 0 } },
    { "zoom-out", zoom_out_action, NULL, NULL, NULL, { 0 } },
    { "back", back_action, NULL, NULL, NULL, { 0 } },
    { "forward", forward_action, NULL, NULL, NULL, { 0 } },
    { "trigger", trigger_action, NULL, NULL, NULL, { 0 } },
    { "run", run_action, NULL, NULL, NULL, { 0 } },
    { "fetch", fetch_action, NULL, NULL, NULL, { 0 } },
    { "disconnect", disconnect_action, NULL, NULL, NULL, { 0 } },
    { "browse-history", browse_history_action, NULL, NULL, NULL, { 0 } },
    { "find-thread", find_thread_action, NULL, NULL, NULL, { 0 } },
    { "events", NULL, NULL, "false", events_change, { 0 } },
    { "find", find_action, NULL, NULL, NULL, { 0 } },
    { "find-close", find_close_action, NULL, NULL, NULL, { 0 } },
    { "find-next", find_next_action, NULL, NULL, NULL, { 0 } },
    { "find-previous", find_previous_action, NULL, NULL, NULL, { 0 } },
    { "record", NULL, NULL, "false", record_change, { 0 } },
    { "close", close_action, NULL, NULL, NULL, { 0 } },
  };

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  _tks_window_navigate_init (self);
  g_signal_connect (self->threads_revealer, "notify::child-revealed",
                    G_CALLBACK (threads_panel_revealed), NULL);
  g_signal_connect (events_revealer (self), "notify::child-revealed",
                    G_CALLBACK (revealer_revealed), NULL);
  g_signal_connect (find_revealer (self), "notify::child-revealed",
                    G_CALLBACK (revealer_revealed), NULL);
  tks_find_bar_set_timeline (self->find_bar, self->timeline);
  /* bench/events-list-scroll.sh: the list shown from the start */
  if (g_getenv ("TICKSCOPE_BENCH_SCROLL") != NULL)
    g_action_group_change_action_state (G_ACTION_GROUP (self), "events",
                                        g_variant_new_boolean (TRUE));
}
