/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The timeline widget in a real window (an X server: run by tests/gui/run-gui-tests.sh).
 * A recording gives the timeline a new capture every second: when its threads are the same,
 * the window must not be laid out again (a layout of the whole window, with an X server's
 * round trips for the window's size, is what made a recording's frames slow).
 */
#include "config.h"

#include <string.h>

#include <gtk/gtk.h>

#include "tks-capture.h"
#include "tks-timeline-view.h"
#include "test-view-synthetic.h"

/* The timeline's parent counts how often it is measured: each layout of the window measures
 * it again, an allocation or a redraw of the timeline alone does not. */
static guint parent_measures;

static void
count_measure (GtkWidget      *widget,
               GtkOrientation  orientation,
               int             for_size,
               int            *minimum,
               int            *natural,
               int            *minimum_baseline,
               int            *natural_baseline)
{
  GtkWidget *child = gtk_widget_get_first_child (widget);

  parent_measures++;
  gtk_widget_measure (child, orientation, for_size, minimum, natural, NULL, NULL);
}

static void
allocate_child (GtkWidget *widget,
                int        width,
                int        height,
                int        baseline)
{
  gtk_widget_allocate (gtk_widget_get_first_child (widget), width, height, -1, NULL);
}

static void
frame_done_cb (GdkFrameClock *clock,
               guint         *frames)
{
  (*frames)++;
}

static gboolean
timed_out_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Paints @n frames of @window (a redraw is asked for each). */
static void
wait_frames (GtkWidget *window,
             guint      n)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);
  gboolean timed_out = FALSE;
  guint frames = 0;
  gulong id;
  guint timeout;

  g_assert_nonnull (clock);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (frame_done_cb), &frames);
  timeout = g_timeout_add_seconds (10, timed_out_cb, &timed_out);
  while (frames < n && !timed_out)
    {
      gtk_widget_queue_draw (window);
      g_main_context_iteration (NULL, TRUE);
    }
  g_signal_handler_disconnect (clock, id);
  if (!timed_out)
    g_source_remove (timeout);
  g_assert_false (timed_out);
}

/* A capture of @n_threads threads, thread @changed's priority raised by 100 when not 0. */
static TksCapture *
capture_with (guint n_threads,
              guint changed)
{
  g_autoptr(GString) text = tks_test_synthetic_capture (n_threads, 2000, 4);
  g_autoptr(GError) error = NULL;
  TksCapture *capture;

  if (changed != 0)
    {
      g_autofree char *from = g_strdup_printf ("Prio = %3u", 100 + changed);
      g_autofree char *to = g_strdup_printf ("Prio = %3u", 200 + changed);

      g_assert_cmpuint (g_string_replace (text, from, to, 1), ==, 1);
    }
  capture = tks_capture_new_from_data (text->str, text->len, &error);
  g_assert_no_error (error);
  return capture;
}

/* The texts of @timeline's lane headers, one per line. */
static char *
header_texts (GtkWidget *timeline)
{
  GString *s = g_string_new (NULL);

  for (GtkWidget *c = gtk_widget_get_first_child (timeline); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (gtk_widget_has_css_class (c, "lane-header"))
      g_string_append_printf (s, "%s\n", GTK_IS_INSCRIPTION (c) ? gtk_inscription_get_text (GTK_INSCRIPTION (c))
                                                                : gtk_label_get_text (GTK_LABEL (c)));
  return g_string_free (s, FALSE);
}

/* Each lane header shown is one line high: an inscription given a lane's height would wrap a
 * long name over two lines rather than cut it. */
static void
assert_headers_one_line (GtkWidget *timeline)
{
  guint shown = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (timeline); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (gtk_widget_has_css_class (c, "lane-header") && gtk_widget_get_child_visible (c))
      {
        int line;

        gtk_widget_measure (c, GTK_ORIENTATION_VERTICAL, -1, &line, NULL, NULL, NULL);
        g_assert_cmpint (gtk_widget_get_height (c), ==, line);
        shown++;
      }
  g_assert_cmpuint (shown, >, 0);
}

static void
test_next_capture_without_layout (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *parent = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *timeline = tks_timeline_view_new ();
  g_autoptr(TksCapture) first = capture_with (6, 0);
  g_autoptr(TksCapture) next = capture_with (6, 5);
  g_autoptr(TksCapture) more = capture_with (9, 0);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  gtk_widget_set_layout_manager (parent, gtk_custom_layout_new (NULL, count_measure, allocate_child));
  gtk_box_append (GTK_BOX (parent), timeline);
  gtk_window_set_child (GTK_WINDOW (window), parent);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 500);
  tks_timeline_view_set_capture (TKS_TIMELINE_VIEW (timeline), first);
  gtk_window_present (GTK_WINDOW (window));
  wait_frames (window, 3);
  before = header_texts (timeline);
  g_assert_nonnull (strstr (before, "worker5 105"));
  assert_headers_one_line (timeline);

  /* the same threads, a header's text changed: drawn again, not laid out */
  parent_measures = 0;
  tks_timeline_view_set_capture (TKS_TIMELINE_VIEW (timeline), next);
  wait_frames (window, 2);
  after = header_texts (timeline);
  g_assert_nonnull (strstr (after, "worker5 205"));
  g_assert_null (strstr (after, "worker5 105"));
  g_assert_cmpuint (parent_measures, ==, 0);

  /* more threads: the timeline's size changes, the window is laid out */
  tks_timeline_view_set_capture (TKS_TIMELINE_VIEW (timeline), more);
  wait_frames (window, 2);
  g_assert_cmpuint (parent_measures, >, 0);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  gtk_init ();

  g_test_add_func ("/view/widgets/next-capture-without-layout", test_next_capture_without_layout);
  return g_test_run ();
}
