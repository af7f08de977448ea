/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The timeline widget in a real window (an X server: run by tests/gui/run-gui-tests.sh).
 * A recording gives the timeline a new capture every second: when its threads are the same,
 * the window must not be laid out again (a layout of the whole window, with an X server's
 * round trips for the window's size, is what made a recording's frames slow). When the
 * board's 20-bit tick wrapped between two stretches, what the user placed on the timeline
 * moves by the wrap with them.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <gtk/gtk.h>

#include "tks-capture.h"
#include "tks-time-format.h"
#include "tks-timeline-events.h"
#include "tks-timeline-view.h"
#include "tks-timeline-view-private.h"
#include "test-view-synthetic.h"
#include "tks-test-data.h"
#include "tks-test-frames.h"

/* The timeline's parent counts how often it is measured: each layout of the window measures
 * it again, an allocation or a redraw of the timeline alone does not. */
static guint parent_measures;

/* The window's surface counts its layouts: an allocation of any widget in it lays the
 * surface out, and on X11 each surface layout asks the X server for the work area and the
 * window's place (round trips). A redraw does not. */
static guint surface_layouts;

static void
surface_layout_cb (GdkSurface *surface,
                   int         width,
                   int         height,
                   guint      *layouts)
{
  (*layouts)++;
}

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

/* A capture of @n_threads threads, thread @changed's priority raised by 100 when not 0. */
static TksCapture *
capture_with (guint n_threads,
              guint changed)
{
  g_autoptr(GString) text = tks_test_synthetic_capture (n_threads, 2000, 4);

  if (changed != 0)
    {
      g_autofree char *from = g_strdup_printf ("Prio = %3u", 100 + changed);
      g_autofree char *to = g_strdup_printf ("Prio = %3u", 200 + changed);

      g_assert_cmpuint (g_string_replace (text, from, to, 1), ==, 1);
    }
  return tks_test_capture_of_text (text->str, text->len);
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
  g_autoptr(TksCapture) more = capture_with (40, 0);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  TksViewport *viewport;
  double end;

  gtk_widget_set_layout_manager (parent, gtk_custom_layout_new (NULL, count_measure, allocate_child));
  gtk_box_append (GTK_BOX (parent), timeline);
  gtk_window_set_child (GTK_WINDOW (window), parent);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 500);
  tks_timeline_view_set_capture (TKS_TIMELINE_VIEW (timeline), first);
  gtk_window_present (GTK_WINDOW (window));
  tks_test_wait_frames (window, 3);
  before = header_texts (timeline);
  g_assert_nonnull (strstr (before, "worker5 105"));
  assert_headers_one_line (timeline);

  g_signal_connect (gtk_native_get_surface (GTK_NATIVE (window)), "layout",
                    G_CALLBACK (surface_layout_cb), &surface_layouts);

  /* the same threads, a header's text changed: drawn again, not laid out */
  parent_measures = 0;
  surface_layouts = 0;
  tks_timeline_view_set_capture (TKS_TIMELINE_VIEW (timeline), next);
  tks_test_wait_frames (window, 2);
  after = header_texts (timeline);
  g_assert_nonnull (strstr (after, "worker5 205"));
  g_assert_null (strstr (after, "worker5 105"));
  g_assert_cmpuint (parent_measures, ==, 0);
  g_assert_cmpuint (surface_layouts, ==, 0);

  /* the time range rolls, as while recording: the headers stay where they are */
  viewport = tks_timeline_view_get_viewport (TKS_TIMELINE_VIEW (timeline));
  end = tks_capture_get_end (next);
  tks_viewport_set_bounds (viewport, 0, end);
  tks_test_wait_frames (window, 1);
  surface_layouts = 0;
  for (guint i = 0; i < 5; i++)
    {
      tks_viewport_set_range (viewport, end / 2 + i * end / 20, end * 0.75 + i * end / 20);
      g_assert_cmpfloat (tks_viewport_get_visible_start (viewport), ==, end / 2 + i * end / 20);
      tks_test_wait_frames (window, 1);
    }
  g_assert_cmpuint (surface_layouts, ==, 0);

  /* more threads: the timeline's size changes, the window is laid out */
  tks_timeline_view_set_capture (TKS_TIMELINE_VIEW (timeline), more);
  tks_test_wait_frames (window, 2);
  g_assert_cmpuint (parent_measures, >, 0);

  /* scrolled down a lane: the headers move with their lanes */
  parent_measures = 0;
  surface_layouts = 0;
  tks_viewport_set_v_offset (viewport, TKS_TIMELINE_LANE_HEIGHT);
  g_assert_cmpfloat (tks_viewport_get_v_offset (viewport), ==, TKS_TIMELINE_LANE_HEIGHT);
  tks_test_wait_frames (window, 2);
  g_assert_cmpuint (surface_layouts, >, 0);
  g_assert_cmpuint (parent_measures, ==, 0);

  gtk_window_destroy (GTK_WINDOW (window));
}

#define TICK_WRAP 1048576u

/* Records @first to @end (exclusive) of one fixed pseudo-random run of switches between
 * @n_threads threads, four a tick, record 0 at tick @start_tick: the board's ticks, which
 * wrap at 2^20. Two ranges of the same run are two stretches of one recording. */
static TksCapture *
stretch_of (guint n_threads,
            guint first,
            guint end,
            guint start_tick)
{
  g_autoptr(GString) s = g_string_new ("Saved position\n0.0\n1.0\n0.0\n1.0\nthreads_list\n");
  guint32 state = 777;
  guint current = 1;

  for (guint i = 1; i <= n_threads; i++)
    g_string_append_printf (s, "Thread number %2u : Prio = %3u, Log = Yes, Name = %s%u\n",
                            i, i == 2 ? 1 : 100 + i, i == 2 ? "idle" : "worker", i);
  g_string_append (s, "ch> \nthreads_timestamps\n");
  for (guint i = 0; i < end; i++)
    {
      guint next;

      state = state * 1103515245u + 12345u;
      next = 1 + (state >> 16) % n_threads;
      if (next == current)
        next = next % n_threads + 1;
      if (i >= first)
        g_string_append_printf (s, "From %2u to %2u at %7u\n", current, next,
                                (start_tick + i / 4) % TICK_WRAP);
      current = next;
    }
  g_string_append (s, "ch> \n");
  return tks_test_capture_of_text (s->str, s->len);
}

/* Selects the first run of the thread named @name that begins at @t or after and lasts, as a
 * click on it does. */
static void
select_run_after (TksTimelineView *view,
                  const char      *name,
                  double           t)
{
  TksCapture *capture = tks_timeline_view_get_capture (view);
  TksTimelineGeometry g;

  _tks_timeline_view_current_geometry (view, &g);
  for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
    {
      const TksThread *th = tks_capture_get_thread (capture, i);
      guint r;

      if (g_strcmp0 (th->name, name) != 0)
        continue;
      for (r = tks_runs_first_ending_after (th->runs, th->n_runs, t);
           r < th->n_runs && (th->runs[r].begin < t || th->runs[r].end <= th->runs[r].begin); r++)
        ;
      g_assert_cmpuint (r, <, th->n_runs);
      view->selected = (TksTimelineHit) { .lane = (guint) tks_timeline_lane_of_thread (capture, &g, i),
                                          .thread = i, .run = (int) r, .mark = -1 };
      view->has_selected = TRUE;
      return;
    }
  g_assert_not_reached ();
}

/* The next stretch of a recording, after the tick wrapped: the marks A and B, the ruler's 0
 * and the selected run keep their place in the recording, in the new stretch's times. */
static void
test_next_capture_after_wrap (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *widget = tks_timeline_view_new ();
  TksTimelineView *view = TKS_TIMELINE_VIEW (widget);
  /* the first stretch: ticks from 2^20 - 500, wrapped at its record 2000; the next: from its
   * record 2400 on, whose tick is 100 */
  g_autoptr(TksCapture) before = stretch_of (6, 0, 4000, TICK_WRAP - 500);
  g_autoptr(TksCapture) after = stretch_of (6, 2400, 6400, TICK_WRAP - 500);
  double shift = -(double) TICK_WRAP;
  double a, b, begin, end, new_begin, new_end;
  const TksThread *th;

  g_assert_cmpfloat (tks_capture_get_start (before), ==, TICK_WRAP - 500);
  g_assert_cmpfloat (tks_capture_get_end (before), >, TICK_WRAP);
  g_assert_cmpfloat (tks_capture_get_start (after), ==, 100);

  gtk_window_set_child (GTK_WINDOW (window), widget);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 500);
  tks_timeline_view_set_capture (view, before);
  tks_viewport_set_bounds (tks_timeline_view_get_viewport (view),
                           tks_capture_get_start (before), tks_capture_get_end (before));
  gtk_window_present (GTK_WINDOW (window));
  tks_test_wait_frames (window, 2);

  /* placed after the wrap, where both stretches have the recording */
  view->mark_a = TICK_WRAP + 200.5;
  view->mark_b = TICK_WRAP + 400.25;
  tks_timeline_view_set_time_origin (view, TICK_WRAP + 150);
  select_run_after (view, "worker3", TICK_WRAP + 300);
  g_assert_true (tks_timeline_view_get_selected_run (view, &begin, &end));
  g_assert_cmpfloat (end, <, TICK_WRAP + 1000);

  tks_timeline_view_set_next_capture (view, after, shift);
  tks_test_wait_frames (window, 2);
  g_assert_true (tks_timeline_view_get_marks (view, &a, &b));
  g_assert_cmpfloat (a, ==, 200.5);
  g_assert_cmpfloat (b, ==, 400.25);
  g_assert_cmpfloat (tks_timeline_view_get_time_origin (view), ==, 150);
  g_assert_true (tks_timeline_view_get_selected_run (view, &new_begin, &new_end));
  g_assert_cmpfloat (new_begin, ==, begin + shift);
  g_assert_cmpfloat (new_end, ==, end + shift);
  th = tks_capture_get_thread (after, view->selected.thread);
  g_assert_cmpstr (th->name, ==, "worker3");

  /* back again (a view scrolled back reads an earlier stretch): the same places */
  tks_timeline_view_set_next_capture (view, before, -shift);
  g_assert_true (tks_timeline_view_get_marks (view, &a, &b));
  g_assert_cmpfloat (a, ==, TICK_WRAP + 200.5);
  g_assert_cmpfloat (b, ==, TICK_WRAP + 400.25);
  g_assert_true (tks_timeline_view_get_selected_run (view, &new_begin, &new_end));
  g_assert_cmpfloat (new_begin, ==, begin);
  g_assert_cmpfloat (new_end, ==, end);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Moves the pointer to @x, @y of @widget, as GTK tells its motion controllers. */
static void
move_pointer (GtkWidget *widget,
              double     x,
              double     y)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_MOTION (c))
        g_signal_emit_by_name (c, "motion", x, y);
    }
}

/* @view's hover is the run under @x, @y of what it shows now. Returns that run's begin. */
static double
assert_hover_at (TksTimelineView *view,
                 double           x,
                 double           y)
{
  TksCapture *capture = tks_timeline_view_get_capture (view);
  TksTimelineGeometry g;
  TksTimelineHit hit;

  _tks_timeline_view_current_geometry (view, &g);
  g_assert_true (tks_timeline_hit_test (capture, &g, x, y, &hit));
  g_assert_true (view->has_hover);
  g_assert_cmpuint (view->hover.lane, ==, hit.lane);
  g_assert_cmpint (view->hover.run, ==, hit.run);
  return tks_capture_get_thread (capture, hit.thread)->runs[hit.run].begin;
}

/* The content moves under a pointer that stays (the next stretch of a recording, the range
 * rolling): the run shown as under the pointer is the one under it now, not the one that was. */
static void
test_hover_follows_content (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *widget = tks_timeline_view_new ();
  TksTimelineView *view = TKS_TIMELINE_VIEW (widget);
  g_autoptr(TksCapture) first = stretch_of (2, 0, 4000, 0);
  g_autoptr(TksCapture) next = stretch_of (2, 400, 4400, 0);
  TksViewport *viewport = tks_timeline_view_get_viewport (view);
  TksTimelineGeometry g;
  double x, y, begin, moved;

  gtk_window_set_child (GTK_WINDOW (window), widget);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 500);
  tks_timeline_view_set_capture (view, first);
  tks_viewport_set_bounds (viewport, tks_capture_get_start (first), tks_capture_get_end (first));
  tks_viewport_set_range (viewport, 500, 520);
  gtk_window_present (GTK_WINDOW (window));
  tks_test_wait_frames (window, 2);

  /* over the lane of the first thread that is not the idle one, in a run */
  _tks_timeline_view_current_geometry (view, &g);
  y = g.top + g.lane_height / 2;
  for (x = g.left + 10; x < g.left + g.width; x += 2)
    {
      TksTimelineHit hit;

      if (tks_timeline_hit_test (first, &g, x, y, &hit))
        break;
    }
  g_assert_cmpfloat (x, <, g.left + g.width);
  move_pointer (widget, x, y);
  begin = assert_hover_at (view, x, y);

  /* the range rolls on by 5 ticks: another run is under the pointer */
  tks_viewport_set_range (viewport, 505, 525);
  tks_test_wait_frames (window, 1);
  moved = assert_hover_at (view, x, y);
  g_assert_cmpfloat (moved, !=, begin);

  /* the next stretch, the same range: the runs are the next capture's */
  tks_timeline_view_set_next_capture (view, next, 0);
  tks_test_wait_frames (window, 1);
  g_assert_cmpfloat (assert_hover_at (view, x, y), ==, moved);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 GHashTable *counts)
{
  const char *name = g_param_spec_get_name (pspec);

  g_hash_table_insert (counts, (gpointer) name,
                       GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, name)) + 1));
}

static guint
notified (GHashTable *counts,
          const char *name)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (counts, name));
}

/* What changes how the view looks is a property: a setter sets it and notifies once, and only
 * when the value changes; a property bound to another object's drives the view, as the window's
 * settings may. */
static void
test_look_properties (void)
{
  GtkWidget *widget = g_object_ref_sink (tks_timeline_view_new ());
  TksTimelineView *view = TKS_TIMELINE_VIEW (widget);
  g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(TksCapture) before = stretch_of (3, 0, 2000, 1000);
  g_autoptr(TksCapture) after = stretch_of (3, 400, 2400, 1000);
  g_autoptr(GObject) source = NULL;
  const char *booleans[] = { "load-graph", "wake-arrows", "ruler-ticks", "all-lanes",
                             "stretch" };
  gboolean value;
  double origin;

  g_signal_connect (view, "notify", G_CALLBACK (count_notify_cb), counts);

  for (guint i = 0; i < G_N_ELEMENTS (booleans); i++)
    {
      g_object_set (view, booleans[i], TRUE, NULL);
      g_object_set (view, booleans[i], TRUE, NULL);
      g_object_get (view, booleans[i], &value, NULL);
      g_assert_true (value);
      g_assert_cmpuint (notified (counts, booleans[i]), ==, 1);
    }
  g_assert_true (tks_timeline_view_get_load_graph (view));
  g_assert_true (tks_timeline_view_get_wake_arrows (view));
  tks_timeline_view_set_load_graph (view, FALSE);
  tks_timeline_view_set_wake_arrows (view, FALSE);
  g_assert_cmpuint (notified (counts, "load-graph"), ==, 2);
  g_assert_cmpuint (notified (counts, "wake-arrows"), ==, 2);

  /* the ruler's 0: none (NAN) is the same as none */
  g_assert_true (isnan (tks_timeline_view_get_time_origin (view)));
  tks_timeline_view_set_time_origin (view, NAN);
  g_assert_cmpuint (notified (counts, "time-origin"), ==, 0);
  g_object_set (view, "time-origin", 1250.0, NULL);
  tks_timeline_view_set_time_origin (view, 1250.0);
  g_object_get (view, "time-origin", &origin, NULL);
  g_assert_cmpfloat (origin, ==, 1250.0);
  g_assert_cmpuint (notified (counts, "time-origin"), ==, 1);

  /* a new capture: the stretch and the ruler's 0 it had are gone, and both say so */
  tks_timeline_view_set_capture (view, before);
  g_assert_cmpuint (notified (counts, "capture"), ==, 1);
  g_assert_false (view->stretch);
  g_assert_cmpuint (notified (counts, "stretch"), ==, 2);
  g_assert_true (isnan (tks_timeline_view_get_time_origin (view)));
  g_assert_cmpuint (notified (counts, "time-origin"), ==, 2);

  /* the next stretch moves a ruler's 0 by its shift */
  tks_timeline_view_set_time_origin (view, 1300);
  tks_timeline_view_set_next_capture (view, after, -100);
  g_assert_cmpfloat (tks_timeline_view_get_time_origin (view), ==, 1200);
  g_assert_cmpuint (notified (counts, "time-origin"), ==, 4);
  g_assert_cmpuint (notified (counts, "capture"), ==, 2);

  /* bound to another object's property, as to a setting */
  source = g_object_new (GTK_TYPE_TOGGLE_BUTTON, NULL);
  g_object_ref_sink (source);
  g_object_bind_property (source, "active", view, "load-graph", G_BINDING_SYNC_CREATE);
  g_assert_false (tks_timeline_view_get_load_graph (view));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (source), TRUE);
  g_assert_true (tks_timeline_view_get_load_graph (view));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (source), FALSE);
  g_assert_false (tks_timeline_view_get_load_graph (view));

  g_signal_handlers_disconnect_by_func (view, count_notify_cb, counts);
  g_object_unref (widget);
}

/* The lane headers cut a name at its end (a group's too), the whole name in the tooltip. */
static void
test_header_names (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *widget = tks_timeline_view_new ();
  TksTimelineView *view = TKS_TIMELINE_VIEW (widget);
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.raw.txt");
  guint headers = 0, groups = 0;

  gtk_window_set_child (GTK_WINDOW (window), widget);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 900);
  tks_timeline_view_set_capture (view, capture);
  gtk_window_present (GTK_WINDOW (window));
  tks_test_wait_frames (window, 2);

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (gtk_widget_has_css_class (c, "lane-header") && GTK_IS_INSCRIPTION (c))
      {
        const char *text = gtk_inscription_get_text (GTK_INSCRIPTION (c));
        const char *tooltip = g_object_get_data (G_OBJECT (c), "tks-tooltip-text");
        g_autofree char *name = g_strndup (text, strrchr (text, ' ') - text);

        g_assert_cmpint (gtk_inscription_get_text_overflow (GTK_INSCRIPTION (c)), ==,
                         GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
        g_assert_nonnull (tooltip);
        g_assert_nonnull (strstr (tooltip, name));
        groups += strstr (text, "×") != NULL;
        headers++;
      }
  g_assert_cmpuint (headers, >, 5);
  g_assert_cmpuint (groups, >, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* An interrupt's tooltip counts from the ruler's 0, as the ruler and the threads' tooltips
 * do, not from the capture's start: time first, then the tick. */
static void
test_event_tooltip_origin (void)
{
  GtkWidget *widget = g_object_ref_sink (tks_timeline_view_new ());
  TksTimelineView *view = TKS_TIMELINE_VIEW (widget);
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-events-v2.raw.txt");
  g_autofree TksEventLane *lanes = NULL;
  g_autofree char *tooltip = NULL;
  g_autofree char *at = NULL;
  const TksSlice *slice = NULL;
  TksTimelineGeometry g;
  guint n, lane = 0;
  double origin;

  tks_timeline_view_set_capture (view, capture);
  lanes = tks_timeline_event_lanes (capture, &n);
  for (lane = 0; lane < n && slice == NULL; lane++)
    if (lanes[lane].track->kind == TKS_TRACK_IRQ && lanes[lane].track->n_slices > 0)
      slice = &lanes[lane].track->slices[0];
  g_assert_nonnull (slice);
  lane--;

  /* the ruler's 0 at a point of the user's, well after the capture's start */
  origin = tks_capture_get_start (capture) + 7;
  tks_timeline_view_set_time_origin (view, origin);
  tks_timeline_view_get_geometry (view, 1000, 800, &g);
  g_assert_cmpfloat (g.origin, ==, origin);
  g.x0 = slice->begin.pos - 1;
  g.x1 = slice->end.pos + 1;
  tooltip = tks_timeline_event_tooltip (capture, &g,
                                        tks_timeline_x_at (&g, (slice->begin.pos + slice->end.pos) / 2),
                                        tks_timeline_event_lane_y (&g, lane + (g.load_graph ? 1 : 0))
                                        + g.lane_height / 2);
  g_assert_nonnull (tooltip);
  at = tks_time_format_at (slice->begin.pos, origin, g.tick_hz, g.resolution);
  g_assert_nonnull (strstr (at, "(tick "));
  if (strstr (tooltip, at) == NULL)
    g_error ("the tooltip “%s” does not say “%s”", tooltip, at);
  g_object_unref (widget);
}

/* A run's times (its tooltip, the info line, the Selection panel, the events list) count from
 * the ruler's 0 with the run's tick after them, as the ruler and the events' tooltips do; a
 * cursor keeps its tick as it is. On a ruler in ticks they are the tick alone. */
static void
test_run_times_with_tick (void)
{
  GtkWidget *widget = g_object_ref_sink (tks_timeline_view_new ());
  TksTimelineView *view = TKS_TIMELINE_VIEW (widget);
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-events-v2.raw.txt");
  const TksThread *thread = NULL;
  TksTimelineGeometry g;
  double origin;
  guint i;

  tks_timeline_view_set_capture (view, capture);
  for (i = 0; i < tks_capture_get_n_threads (capture) && thread == NULL; i++)
    if (tks_capture_get_thread (capture, i)->n_runs > 1)
      thread = tks_capture_get_thread (capture, i);
  g_assert_nonnull (thread);
  origin = tks_capture_get_start (capture) + 7;
  tks_timeline_view_set_time_origin (view, origin);
  g_assert_true (tks_timeline_view_select_run (view, thread->index, 1));
  tks_timeline_view_get_geometry (view, 1000, 800, &g);
  g_assert_true (g.time_ruler);

  for (int ticks = 0; ticks < 2; ticks++)
    {
      const TksRun *r = &thread->runs[1];
      g_autofree char *begin = tks_time_format_at (r->begin, origin, ticks ? 0 : g.tick_hz,
                                                   g.resolution);
      g_autofree char *end = tks_time_format_at (r->end, origin, ticks ? 0 : g.tick_hz,
                                                 g.resolution);
      g_autofree char *shown = tks_timeline_view_format_time (view, r->begin);
      g_autofree char *place = NULL;
      g_autofree char *tick = tks_time_format_position (origin + 0.25);
      g_autofree char *want = NULL;
      const char *info;

      g_assert_cmpstr (shown, ==, begin);
      _tks_timeline_view_update_info (view);
      info = tks_timeline_view_get_info (view);
      if (strstr (info, begin) == NULL || strstr (info, end) == NULL)
        g_error ("the run's line “%s” does not say “%s” and “%s”", info, begin, end);
      g_assert_nonnull (strstr (begin, ticks ? "tick " : " (tick "));

      /* a cursor at a place the user chose: its tick as it is */
      view->has_selected = FALSE;
      view->mark_a = origin + 0.25;
      place = _tks_timeline_view_format_place (view, view->mark_a);
      if (ticks)
        want = g_strdup_printf ("tick %s", tick);
      else
        {
          g_autofree char *time = tks_time_format_us (0.25 * 1e6 / g.tick_hz);

          want = g_strdup_printf ("%s (tick %s)", time, tick);
        }
      g_assert_true (g_str_has_suffix (tick, ".25"));
      g_assert_cmpstr (place, ==, want);
      _tks_timeline_view_update_info (view);
      if (strstr (tks_timeline_view_get_info (view), want) == NULL)
        g_error ("the cursor's line “%s” does not say “%s”", tks_timeline_view_get_info (view), want);
      view->mark_a = NAN;
      g_assert_true (tks_timeline_view_select_run (view, thread->index, 1));
      tks_timeline_view_set_ruler_ticks (view, TRUE);
    }
  g_object_unref (widget);
}

/* A pinned lane stays at the top, under the ruler, when the lanes scroll (a spreadsheet's
 * frozen row): its header and its bars there, what scrolls passing under it. */
static void
test_pinned_lane_holds (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *widget = tks_timeline_view_new ();
  TksTimelineView *view = TKS_TIMELINE_VIEW (widget);
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.raw.txt");
  TksViewport *viewport = tks_timeline_view_get_viewport (view);
  const TksLane *lanes;
  const TksLaneRow *pinned;
  TksTimelineGeometry g;
  TksTimelineHit hit;
  guint n_lanes, seen = 0;

  gtk_window_set_child (GTK_WINDOW (window), widget);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 260);
  tks_timeline_view_set_capture (view, capture);
  gtk_window_present (GTK_WINDOW (window));
  tks_test_wait_frames (window, 2);

  /* the last lane pinned: it comes first */
  lanes = tks_lane_list_get_lanes (tks_timeline_view_get_lane_list (view), &n_lanes);
  g_assert_cmpuint (n_lanes, >, 8);
  pinned = lanes[n_lanes - 1].row;
  g_assert_true (tks_lane_list_set_pinned (tks_timeline_view_get_lane_list (view), pinned->key, TRUE));
  /* the lanes scrolled down by more than a screen */
  tks_viewport_scroll_v (viewport, 6 * TKS_TIMELINE_LANE_HEIGHT);
  tks_test_wait_frames (window, 2);
  g_assert_cmpfloat (tks_viewport_get_v_offset (viewport), >, 5 * TKS_TIMELINE_LANE_HEIGHT);

  _tks_timeline_view_current_geometry (view, &g);
  g_assert_cmpuint (g.n_pinned, ==, 1);
  g_assert_true (g.lanes[0].row == pinned);
  g_assert_cmpfloat (tks_timeline_lane_y (&g, 0), ==, g.top);
  g_assert_cmpfloat (tks_timeline_scroll_top (&g), ==, g.top + g.lane_height);
  /* what is under the pinned lane's place is the pinned lane; under it, the scrolled ones */
  g_assert_true (tks_timeline_hit_test (capture, &g, g.left + g.width / 2, g.top + g.lane_height / 2, &hit));
  g_assert_cmpuint (hit.lane, ==, 0);
  g_assert_true (tks_timeline_hit_test (capture, &g, g.left + g.width / 2,
                                        g.top + g.lane_height * 1.5, &hit));
  g_assert_cmpuint (hit.lane, >, 1);

  /* its header is shown there, beside its lane */
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (gtk_widget_has_css_class (c, "lane-header") && GTK_IS_INSCRIPTION (c) &&
        g_str_has_prefix (gtk_inscription_get_text (GTK_INSCRIPTION (c)), pinned->label))
      {
        graphene_rect_t bounds;

        g_assert_true (gtk_widget_get_child_visible (c));
        g_assert_true (gtk_widget_compute_bounds (c, widget, &bounds));
        g_assert_cmpfloat (bounds.origin.y, >=, g.top);
        g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, g.top + g.lane_height);
        seen++;
      }
  g_assert_cmpuint (seen, ==, 1);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* What the timeline showed at the last frame: the capture its image was drawn from, and the
 * texts of its lane headers. */
typedef struct
{
  TksTimelineView *view;
  gconstpointer    image_of;
  char            *headers;
  guint            frames;
} Shown;

static void
record_shown_cb (GdkFrameClock *clock,
                 Shown         *shown)
{
  shown->image_of = shown->view->cache != NULL ? shown->view->cache_capture : NULL;
  g_free (shown->headers);
  shown->headers = header_texts (GTK_WIDGET (shown->view));
  shown->frames++;
}

/* After a new capture (a fetch, an open), the first frame draws its bars with its names: the
 * image of the capture before is not shown under the new lane headers. */
static void
test_new_capture_first_frame (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *timeline = tks_timeline_view_new ();
  g_autoptr(TksCapture) first = capture_with (6, 0);
  g_autoptr(TksCapture) fetched = capture_with (6, 5);
  g_autoptr(TksCapture) bigger = capture_with (12, 0);
  Shown shown = { TKS_TIMELINE_VIEW (timeline), NULL, NULL, 0 };
  TksCapture *captures[] = { fetched, bigger, first };
  GdkFrameClock *clock;
  gulong id;

  gtk_window_set_child (GTK_WINDOW (window), timeline);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 500);
  tks_timeline_view_set_capture (TKS_TIMELINE_VIEW (timeline), first);
  gtk_window_present (GTK_WINDOW (window));
  tks_test_wait_frames (window, 3);
  clock = gtk_widget_get_frame_clock (window);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (record_shown_cb), &shown);

  for (guint i = 0; i < G_N_ELEMENTS (captures); i++)
    {
      g_autofree char *name = g_strdup_printf ("worker%u %u", i == 0 ? 5 : 11, i == 0 ? 205 : 111);

      tks_timeline_view_set_capture (TKS_TIMELINE_VIEW (timeline), captures[i]);
      shown.frames = 0;
      tks_test_wait_frames (window, 1);
      g_assert_cmpuint (shown.frames, ==, 1);
      if (i < 2)
        g_assert_nonnull (strstr (shown.headers, name));
      else
        g_assert_null (strstr (shown.headers, "worker11"));
      g_assert_true (shown.image_of == captures[i]);
    }

  g_signal_handler_disconnect (clock, id);
  g_free (shown.headers);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  gtk_init ();

  g_test_add_func ("/view/widgets/next-capture-without-layout", test_next_capture_without_layout);
  g_test_add_func ("/view/widgets/next-capture-after-wrap", test_next_capture_after_wrap);
  g_test_add_func ("/view/widgets/hover-follows-content", test_hover_follows_content);
  g_test_add_func ("/view/widgets/look-properties", test_look_properties);
  g_test_add_func ("/view/widgets/header-names", test_header_names);
  g_test_add_func ("/view/widgets/event-tooltip-origin", test_event_tooltip_origin);
  g_test_add_func ("/view/widgets/run-times-with-tick", test_run_times_with_tick);
  g_test_add_func ("/view/widgets/pinned-lane-holds", test_pinned_lane_holds);
  g_test_add_func ("/view/widgets/new-capture-first-frame", test_new_capture_first_frame);
  return g_test_run ();
}
