/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The events list under the timeline in a real window (an X server: run by
 * tests/gui/run-gui-tests.sh). A list view makes and binds its rows at each change of its
 * model, shown or not: hidden, the list must follow no capture (a recording gives the timeline
 * a new one every second), and shown again it must list the timeline's capture and range.
 */
#include "config.h"

#include <gtk/gtk.h>

#include "tks-events-panel.h"
#include "test-view-synthetic.h"
#include "tks-test-data.h"
#include "tks-test-frames.h"

static TksCapture *
capture_of (guint n_records)
{
  g_autoptr(GString) text = tks_test_synthetic_capture (6, n_records, 4);

  return tks_test_capture_of_text (text->str, text->len);
}

static void
count_changes_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  guint      *changes)
{
  (*changes)++;
}

static void
test_hidden_follows_nothing (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *timeline = tks_timeline_view_new ();
  GtkWidget *panel = g_object_new (TKS_TYPE_EVENTS_PANEL, "timeline", timeline, NULL);
  TksEventListModel *model = tks_events_panel_get_model (TKS_EVENTS_PANEL (panel));
  g_autoptr(TksCapture) first = capture_of (2000);
  g_autoptr(TksCapture) next = capture_of (3000);
  g_autoptr(TksCapture) last = capture_of (4000);
  TksViewport *viewport = tks_timeline_view_get_viewport (TKS_TIMELINE_VIEW (timeline));
  guint changes = 0;
  double start, span;

  gtk_widget_set_vexpand (timeline, TRUE);
  gtk_widget_set_size_request (panel, -1, 200);
  gtk_box_append (GTK_BOX (box), timeline);
  gtk_box_append (GTK_BOX (box), panel);
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 600);
  gtk_widget_set_visible (panel, FALSE);
  g_signal_connect (model, "items-changed", G_CALLBACK (count_changes_cb), &changes);
  gtk_window_present (GTK_WINDOW (window));

  /* hidden: the captures and ranges the timeline shows change nothing in the list */
  tks_timeline_view_set_capture (TKS_TIMELINE_VIEW (timeline), first);
  tks_test_wait_frames (window, 2);
  tks_timeline_view_set_next_capture (TKS_TIMELINE_VIEW (timeline), next, 0);
  start = tks_capture_get_start (next);
  span = tks_capture_get_end (next) - start;
  /* (as the window does) */
  tks_viewport_set_bounds (viewport, start, start + span);
  tks_viewport_set_range (viewport, start + span * 0.5, start + span * 0.7);
  tks_test_wait_frames (window, 2);
  g_assert_null (tks_event_list_model_get_capture (model));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 0);
  g_assert_cmpuint (changes, ==, 0);

  /* shown: the timeline's capture and range */
  gtk_widget_set_visible (panel, TRUE);
  tks_test_wait_frames (window, 2);
  g_assert_true (tks_event_list_model_get_capture (model) == next);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), <,
                    tks_event_list_model_get_n_all (model));
  {
    g_autoptr(TksEventRow) row = g_list_model_get_item (G_LIST_MODEL (model), 0);

    g_assert_cmpfloat (tks_event_row_get_time (row), >=, start + span * 0.5);
  }

  /* hidden again: the capture shown then is let go, the next ones are not followed */
  gtk_widget_set_visible (panel, FALSE);
  tks_test_wait_frames (window, 1);
  tks_timeline_view_set_next_capture (TKS_TIMELINE_VIEW (timeline), last, 0);
  tks_test_wait_frames (window, 1);
  g_assert_null (tks_event_list_model_get_capture (model));
  changes = 0;
  tks_viewport_set_range (viewport, start + span * 0.6, start + span * 0.8);
  tks_test_wait_frames (window, 1);
  g_assert_cmpuint (changes, ==, 0);
  gtk_widget_set_visible (panel, TRUE);
  tks_test_wait_frames (window, 2);
  g_assert_true (tks_event_list_model_get_capture (model) == last);
  {
    g_autoptr(TksEventRow) row = g_list_model_get_item (G_LIST_MODEL (model), 0);

    g_assert_cmpfloat (tks_event_row_get_time (row), >=, start + span * 0.6);
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Shown, a recording's next stretch: the rows the list shows are its rows still (the same
 * objects, so the list keeps its cells). */
static void
test_next_stretch_keeps_rows (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *timeline = tks_timeline_view_new ();
  GtkWidget *panel = g_object_new (TKS_TYPE_EVENTS_PANEL, "timeline", timeline, NULL);
  TksEventListModel *model = tks_events_panel_get_model (TKS_EVENTS_PANEL (panel));
  g_autoptr(TksCapture) first = capture_of (2000);
  g_autoptr(TksCapture) next = capture_of (3000);
  TksViewport *viewport = tks_timeline_view_get_viewport (TKS_TIMELINE_VIEW (timeline));
  double start = tks_capture_get_start (first), end = tks_capture_get_end (first);
  const guint n_shown = 8;
  guint same = 0;

  gtk_widget_set_vexpand (timeline, TRUE);
  gtk_widget_set_size_request (panel, -1, 300);
  gtk_box_append (GTK_BOX (box), timeline);
  gtk_box_append (GTK_BOX (box), panel);
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 700);
  gtk_window_present (GTK_WINDOW (window));
  tks_timeline_view_set_capture (TKS_TIMELINE_VIEW (timeline), first);
  tks_viewport_set_bounds (viewport, start, end);
  tks_viewport_set_range (viewport, start + (end - start) * 0.4, start + (end - start) * 0.5);
  tks_test_wait_frames (window, 3);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), >, n_shown);
  /* (marked: a row made anew, even at the same address, is not marked) */
  for (guint i = 0; i < n_shown; i++)
    {
      g_autoptr(TksEventRow) row = g_list_model_get_item (G_LIST_MODEL (model), i);

      g_object_set_data (G_OBJECT (row), "test-shown", GUINT_TO_POINTER (i + 1));
    }

  tks_events_panel_expect_next_capture (TKS_EVENTS_PANEL (panel), next, 0);
  tks_timeline_view_set_next_capture (TKS_TIMELINE_VIEW (timeline), next, 0);
  tks_test_wait_frames (window, 2);
  g_assert_true (tks_event_list_model_get_capture (model) == next);
  for (guint i = 0; i < n_shown; i++)
    {
      g_autoptr(TksEventRow) row = g_list_model_get_item (G_LIST_MODEL (model), i);

      same += GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "test-shown")) == i + 1;
    }
  g_assert_cmpuint (same, ==, n_shown);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  gtk_init ();

  g_test_add_func ("/events-panel/hidden-follows-nothing", test_hidden_follows_nothing);
  g_test_add_func ("/events-panel/next-stretch-keeps-rows", test_next_stretch_keeps_rows);
  return g_test_run ();
}
