/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The timeline's input: wheel, touchpad and pinch zoom, drag to pan or to zoom into a range,
 * the keys, clicks that select a run or set the measurement marks, the tooltips, and the
 * info line that tells the selection and the measurement. */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tks-timeline-events.h"
#include "tks-timeline-view-private.h"

#define DRAG_THRESHOLD 4.0
#define HISTORY_COALESCE_USEC (700 * 1000)

/* Geometry helpers */

static double
x_to_time (TksTimelineView *self,
           double           x)
{
  TksTimelineGeometry g;

  _tks_timeline_view_current_geometry (self, &g);
  return tks_timeline_time_at (&g, x);
}

static double
anchor_for_x (TksTimelineView *self,
              double           x)
{
  double w = gtk_widget_get_width (GTK_WIDGET (self)) - TKS_TIMELINE_HEADER_WIDTH;

  if (w <= 0)
    return 0.5;
  return CLAMP ((x - TKS_TIMELINE_HEADER_WIDTH) / w, 0.0, 1.0);
}

/* Info line: the selected run and the measurement */

/* A point of the timeline as the ruler and its tooltips write it: the time from the ruler's 0
 * and the entry's tick ("-1.250 ms (tick 7904)"), the tick alone on a ruler in ticks. */
char *
_tks_timeline_view_format_time (TksTimelineView *self,
                                double           t)
{
  TksTimelineGeometry g;

  _tks_timeline_view_current_geometry (self, &g);
  return tks_timeline_format_point (&g, t);
}

/* A place the user chose (a cursor), written the same way with its tick as it is, to a
 * millionth ("3.370 ms (tick 7904.37)"): it need not be an entry's. */
char *
_tks_timeline_view_format_place (TksTimelineView *self,
                                 double           t)
{
  TksTimelineGeometry g;
  g_autofree char *tick = tks_time_format_position (t);
  g_autofree char *time = NULL;

  _tks_timeline_view_current_geometry (self, &g);
  if (!g.time_ruler)
    /* Translators: a point in time as the board's tick; %s: the tick's number */
    return g_strdup_printf (_("tick %s"), tick);
  time = tks_timeline_format_us ((t - g.origin) * 1e6 / g.tick_hz);
  /* Translators: a point in time from the ruler's 0, then the board's tick: "-1.250 ms (tick
   * 7904)" */
  return g_strdup_printf (_("%s (tick %s)"), time, tick);
}

char *
_tks_timeline_view_format_span (TksTimelineView *self,
                                double           ticks)
{
  TksTimelineGeometry g;

  _tks_timeline_view_current_geometry (self, &g);
  if (!g.time_ruler)
    return tks_timeline_format_duration (ticks, 0);
  return tks_timeline_format_us (ticks * 1e6 / g.tick_hz);
}

static char *
describe_run (TksTimelineView *self,
              guint            thread_index,
              guint            run)
{
  const TksThread *thread = tks_capture_get_thread (self->capture, thread_index);
  const TksRun *r;
  g_autofree char *name = NULL;
  g_autofree char *dur = NULL;
  g_autofree char *begin = NULL;
  g_autofree char *end = NULL;
  gboolean at_end;

  if (thread == NULL || run >= thread->n_runs)
    return NULL;
  name = tks_lane_list_shown_name (thread->name);
  r = &thread->runs[run];
  dur = tks_timeline_format_duration (r->end - r->begin, _tks_timeline_view_get_effective_tick_hz (self));
  at_end = (thread->flags & TKS_THREAD_RUNNING_AT_END) && run + 1 == thread->n_runs;
  begin = _tks_timeline_view_format_time (self, r->begin);
  end = _tks_timeline_view_format_time (self, r->end);
  /* Translators: thread, begin, end, duration, activation number, number of activations */
  return g_strdup_printf (_("%s: %s → %s, %s, activation %u of %u%s"),
                          name,
                          begin, end, dur, run + 1, thread->n_runs,
                          !at_end ? ""
                          : tks_capture_get_log_end (self->capture, NULL) < tks_capture_get_end (self->capture)
                          ? _(", running when the log ended")
                          : _(", still running at the end of the capture"));
}

void
_tks_timeline_view_update_info (TksTimelineView *self)
{
  GString *s = g_string_new (NULL);

  if (self->capture != NULL && self->has_selected && self->selected.run >= 0)
    {
      g_autofree char *run = describe_run (self, self->selected.thread, self->selected.run);
      if (run != NULL)
        g_string_append (s, run);
    }
  if (!isnan (self->mark_a) && !isnan (self->mark_b))
    {
      g_autofree char *dur = tks_timeline_format_duration (self->mark_b - self->mark_a,
                                                           _tks_timeline_view_get_effective_tick_hz (self));
      if (s->len > 0)
        g_string_append (s, "   ");
      /* Translators: the measured time between the two markers */
      g_string_append_printf (s, _("Δt = %s"), dur);
    }
  else if (!isnan (self->mark_a))
    {
      g_autofree char *at = _tks_timeline_view_format_place (self, self->mark_a);

      if (s->len > 0)
        g_string_append (s, "   ");
      g_string_append_printf (s, _("Marker at %s: Shift+click a second point to measure"), at);
    }
  _tks_timeline_view_set_info (self, g_string_free (s, FALSE));
  _tks_timeline_view_selection_changed (self);
}

void
tks_timeline_view_clear_marks (TksTimelineView *self)
{
  g_return_if_fail (TKS_IS_TIMELINE_VIEW (self));

  self->mark_a = NAN;
  self->mark_b = NAN;
  self->has_selected = FALSE;
  _tks_timeline_view_update_info (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
tks_timeline_view_get_marks (TksTimelineView *self,
                             double          *a,
                             double          *b)
{
  g_return_val_if_fail (TKS_IS_TIMELINE_VIEW (self), FALSE);

  if (a != NULL)
    *a = self->mark_a;
  if (b != NULL)
    *b = self->mark_b;
  return !isnan (self->mark_a) && !isnan (self->mark_b);
}

gboolean
tks_timeline_view_get_selected_run (TksTimelineView *self,
                                    double          *begin,
                                    double          *end)
{
  const TksThread *thread;

  g_return_val_if_fail (TKS_IS_TIMELINE_VIEW (self), FALSE);

  if (self->capture == NULL || !self->has_selected || self->selected.run < 0)
    return FALSE;
  thread = tks_capture_get_thread (self->capture, self->selected.thread);
  if (thread == NULL || (guint) self->selected.run >= thread->n_runs)
    return FALSE;
  if (begin != NULL)
    *begin = thread->runs[self->selected.run].begin;
  if (end != NULL)
    *end = thread->runs[self->selected.run].end;
  return TRUE;
}

/* Input */

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           TksTimelineView          *self)
{
  GdkModifierType state;
  GdkScrollUnit unit;
  double factor;

  if (self->capture == NULL)
    return FALSE;

  state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  unit = gtk_event_controller_scroll_get_unit (controller);

  if (self->pointer_x < TKS_TIMELINE_HEADER_WIDTH || (state & GDK_ALT_MASK))
    {
      /* over the lane headers (or with Alt): scroll the lanes */
      tks_viewport_scroll_v (self->viewport,
                             unit == GDK_SCROLL_UNIT_WHEEL ? dy * TKS_TIMELINE_LANE_HEIGHT * 2 : dy);
      return TRUE;
    }

  if (state & GDK_SHIFT_MASK)
    {
      double d = dy != 0 ? dy : dx;
      tks_viewport_push_history (self->viewport, HISTORY_COALESCE_USEC);
      if (unit == GDK_SCROLL_UNIT_WHEEL)
        tks_viewport_pan (self->viewport, d * 0.1);
      else
        tks_viewport_pan_ticks (self->viewport,
                                d * tks_viewport_get_span (self->viewport) /
                                MAX (1.0, gtk_widget_get_width (GTK_WIDGET (self)) - TKS_TIMELINE_HEADER_WIDTH));
      return TRUE;
    }

  tks_viewport_push_history (self->viewport, HISTORY_COALESCE_USEC);
  if (unit == GDK_SCROLL_UNIT_WHEEL)
    factor = pow (1.25, -dy);
  else
    {
      /* touchpad: horizontal swipes pan, vertical ones zoom smoothly */
      if (dx != 0 && !(state & GDK_CONTROL_MASK))
        tks_viewport_pan_ticks (self->viewport,
                                dx * tks_viewport_get_span (self->viewport) /
                                MAX (1.0, gtk_widget_get_width (GTK_WIDGET (self)) - TKS_TIMELINE_HEADER_WIDTH));
      factor = exp (-dy * 0.01);
    }
  if (factor != 1.0)
    tks_viewport_zoom (self->viewport, factor, anchor_for_x (self, self->pointer_x));
  return TRUE;
}

static void
update_hover (TksTimelineView *self)
{
  TksTimelineGeometry g;
  TksTimelineHit hit;
  gboolean has;

  _tks_timeline_view_current_geometry (self, &g);
  has = self->pointer_inside &&
        tks_timeline_hit_test (self->capture, &g, self->pointer_x, self->pointer_y, &hit);
  if (has != self->has_hover ||
      (has && (hit.lane != self->hover.lane || hit.run != self->hover.run)))
    {
      self->has_hover = has;
      if (has)
        self->hover = hit;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

void
_tks_timeline_view_content_moved (TksTimelineView *self)
{
  if (self->pointer_inside)
    update_hover (self);
  /* (also when the pointer is no longer over the timeline: a new layout, e.g. the recording's
   * panels coming, moves the timeline from under a still pointer without telling it so) */
  if (self->tooltip_told && self->drag_mode == DRAG_NONE)
    {
      self->tooltip_told = FALSE;
      gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
    }
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           TksTimelineView          *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
  self->pointer_inside = TRUE;
  update_hover (self);
}

static void
leave_cb (GtkEventControllerMotion *controller,
          TksTimelineView          *self)
{
  self->pointer_inside = FALSE;
  /* (GTK takes the tooltip away itself) */
  self->tooltip_told = FALSE;
  update_hover (self);
}

/* Cursors snap to the begin or end of a run of the lane under the pointer within this. */
#define SNAP_PIXELS 5.0

/* The time at @x, or the nearest run edge of the lane under (@x, @y) within SNAP_PIXELS. */
static double
snap_to_edge (TksTimelineView           *self,
              const TksTimelineGeometry *g,
              double                     x,
              double                     y)
{
  double t = tks_timeline_time_at (g, x);
  double tol = SNAP_PIXELS * (g->x1 - g->x0) / g->width;
  double best = t, best_d = tol;
  const TksThread *thread;
  TksTimelineHit hit;
  guint i;

  if (!tks_timeline_hit_test (self->capture, g, x, y, &hit) ||
      (thread = tks_capture_get_thread (self->capture, hit.thread)) == NULL ||
      thread->n_runs == 0)
    return t;
  /* runs do not overlap: the edges near t are those of the first run ending after t - tol and
   * of the next one */
  i = tks_runs_first_ending_after (thread->runs, thread->n_runs, t - tol);
  for (guint k = i; k < thread->n_runs && k < i + 2; k++)
    {
      double edges[2] = { thread->runs[k].begin, thread->runs[k].end };

      for (guint e = 0; e < 2; e++)
        if (fabs (edges[e] - t) <= best_d)
          {
            best_d = fabs (edges[e] - t);
            best = edges[e];
          }
    }
  return best;
}

static void
click_at (TksTimelineView *self,
          double           x,
          double           y,
          GdkModifierType  state)
{
  TksTimelineGeometry g;
  TksTimelineHit hit;

  _tks_timeline_view_current_geometry (self, &g);
  if (x < g.left)
    return;

  if (state & GDK_SHIFT_MASK)
    {
      double t = snap_to_edge (self, &g, x, y);

      if (isnan (self->mark_a) || !isnan (self->mark_b))
        {
          self->mark_a = t;
          self->mark_b = NAN;
        }
      else
        self->mark_b = t;
    }
  else if (tks_timeline_hit_test (self->capture, &g, x, y, &hit) && hit.run >= 0)
    {
      self->selected = hit;
      self->has_selected = TRUE;
    }
  else
    self->has_selected = FALSE;

  _tks_timeline_view_update_info (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
drag_begin_cb (GtkGestureDrag  *gesture,
               double           x,
               double           y,
               TksTimelineView *self)
{
  GdkModifierType state;

  if (self->capture == NULL)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->drag_state = state;
  self->drag_start_x = x;
  self->drag_start_y = y;
  self->drag_cur_x = x;
  self->drag_moved = FALSE;
  self->drag_x0 = tks_viewport_get_visible_start (self->viewport);
  self->drag_x1 = tks_viewport_get_visible_end (self->viewport);
  self->drag_v_offset = tks_viewport_get_v_offset (self->viewport);
  self->drag_mode = (state & GDK_CONTROL_MASK) && x >= TKS_TIMELINE_HEADER_WIDTH ? DRAG_RANGE : DRAG_PAN;
}

static void
drag_update_cb (GtkGestureDrag  *gesture,
                double           dx,
                double           dy,
                TksTimelineView *self)
{
  if (self->drag_mode == DRAG_NONE)
    return;
  if (!self->drag_moved && fabs (dx) < DRAG_THRESHOLD && fabs (dy) < DRAG_THRESHOLD)
    return;
  if (!self->drag_moved && self->drag_mode == DRAG_PAN)
    tks_viewport_push_history (self->viewport, 0);
  self->drag_moved = TRUE;
  self->drag_cur_x = self->drag_start_x + dx;

  if (self->drag_mode == DRAG_PAN)
    {
      double w = MAX (1.0, gtk_widget_get_width (GTK_WIDGET (self)) - TKS_TIMELINE_HEADER_WIDTH);
      double shift = -dx * (self->drag_x1 - self->drag_x0) / w;

      tks_viewport_set_range (self->viewport, self->drag_x0 + shift, self->drag_x1 + shift);
      tks_viewport_set_v_offset (self->viewport, self->drag_v_offset - dy);
    }
  else
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
drag_end_cb (GtkGestureDrag  *gesture,
             double           dx,
             double           dy,
             TksTimelineView *self)
{
  DragMode mode = self->drag_mode;

  self->drag_mode = DRAG_NONE;
  if (mode == DRAG_NONE)
    return;

  if (!self->drag_moved)
    {
      click_at (self, self->drag_start_x, self->drag_start_y, self->drag_state);
      return;
    }

  if (mode == DRAG_RANGE)
    {
      double a = x_to_time (self, MIN (self->drag_start_x, self->drag_start_x + dx));
      double b = x_to_time (self, MAX (self->drag_start_x, self->drag_start_x + dx));

      if (fabs (dx) >= DRAG_THRESHOLD)
        tks_viewport_navigate (self->viewport, a, b);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
zoom_begin_cb (GtkGesture       *gesture,
               GdkEventSequence *sequence,
               TksTimelineView  *self)
{
  double cx, cy;

  self->pinch_span = tks_viewport_get_span (self->viewport);
  if (gtk_gesture_get_bounding_box_center (gesture, &cx, &cy))
    self->pinch_anchor = anchor_for_x (self, cx);
  else
    self->pinch_anchor = 0.5;
  tks_viewport_push_history (self->viewport, 0);
}

static void
zoom_scale_changed_cb (GtkGestureZoom  *gesture,
                       double           scale,
                       TksTimelineView *self)
{
  double span = tks_viewport_get_span (self->viewport);

  if (scale <= 0 || self->pinch_span <= 0)
    return;
  tks_viewport_zoom (self->viewport, span / (self->pinch_span / scale), self->pinch_anchor);
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                TksTimelineView       *self)
{
  if (self->capture == NULL)
    return FALSE;
  if (state & (GDK_ALT_MASK | GDK_CONTROL_MASK | GDK_SUPER_MASK))
    return FALSE;

  switch (keyval)
    {
    case GDK_KEY_plus:
    case GDK_KEY_equal:
    case GDK_KEY_KP_Add:
    case GDK_KEY_w:
    case GDK_KEY_W:
      tks_viewport_push_history (self->viewport, HISTORY_COALESCE_USEC);
      tks_viewport_zoom (self->viewport, 1.5, self->pointer_inside ? anchor_for_x (self, self->pointer_x) : 0.5);
      return TRUE;

    case GDK_KEY_minus:
    case GDK_KEY_KP_Subtract:
    case GDK_KEY_s:
    case GDK_KEY_S:
      tks_viewport_push_history (self->viewport, HISTORY_COALESCE_USEC);
      tks_viewport_zoom (self->viewport, 1 / 1.5, self->pointer_inside ? anchor_for_x (self, self->pointer_x) : 0.5);
      return TRUE;

    case GDK_KEY_f:
    case GDK_KEY_F:
      tks_viewport_zoom_to_fit (self->viewport);
      return TRUE;

    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
    case GDK_KEY_a:
    case GDK_KEY_A:
      tks_viewport_push_history (self->viewport, HISTORY_COALESCE_USEC);
      tks_viewport_pan (self->viewport, -0.15);
      return TRUE;

    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
    case GDK_KEY_d:
    case GDK_KEY_D:
      tks_viewport_push_history (self->viewport, HISTORY_COALESCE_USEC);
      tks_viewport_pan (self->viewport, 0.15);
      return TRUE;

    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      tks_viewport_scroll_v (self->viewport, -TKS_TIMELINE_LANE_HEIGHT);
      return TRUE;

    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      tks_viewport_scroll_v (self->viewport, TKS_TIMELINE_LANE_HEIGHT);
      return TRUE;

    case GDK_KEY_Page_Up:
      tks_viewport_scroll_v (self->viewport, -tks_viewport_get_page_height (self->viewport));
      return TRUE;

    case GDK_KEY_Page_Down:
      tks_viewport_scroll_v (self->viewport, tks_viewport_get_page_height (self->viewport));
      return TRUE;

    case GDK_KEY_Home:
      tks_viewport_go_start (self->viewport);
      return TRUE;

    case GDK_KEY_End:
      tks_viewport_go_end (self->viewport);
      return TRUE;

    case GDK_KEY_Escape:
      tks_timeline_view_clear_marks (self);
      return TRUE;

    /* the window's moves from a moment to the next (tks-window-navigate.c) */
    case GDK_KEY_bracketright:
      return gtk_widget_activate_action (GTK_WIDGET (self), "win.next-activation", NULL);

    case GDK_KEY_bracketleft:
      return gtk_widget_activate_action (GTK_WIDGET (self), "win.previous-activation", NULL);

    case GDK_KEY_period:
      return gtk_widget_activate_action (GTK_WIDGET (self), "win.next-of-kind", NULL);

    case GDK_KEY_comma:
      return gtk_widget_activate_action (GTK_WIDGET (self), "win.previous-of-kind", NULL);

    default:
      return FALSE;
    }
}

/* The hole in the log at @t, or NULL. */
static const TksGap *
gap_at (TksCapture *capture,
        double      t)
{
  guint n_gaps;
  const TksGap *gaps = tks_capture_get_gaps (capture, &n_gaps);

  for (guint i = 0; i < n_gaps; i++)
    if (t >= gaps[i].begin && t <= gaps[i].end)
      return &gaps[i];
  return NULL;
}

/* A run's tooltip: @thread's name (@name, escaped here), priority, begin, end and duration,
 * its number among the thread's runs and its wake-up latency when known. */
static char *
run_tooltip (TksTimelineView *self,
             const TksThread *thread,
             const char      *name,
             int              run)
{
  const TksRun *r = &thread->runs[run];
  double tick_hz = _tks_timeline_view_get_effective_tick_hz (self);
  double log_end = tks_capture_get_log_end (self->capture, NULL);
  g_autofree char *dur = tks_timeline_format_duration (r->end - r->begin, tick_hz);
  gboolean at_end = (thread->flags & TKS_THREAD_RUNNING_AT_END) &&
                    (guint)run + 1 == thread->n_runs;
  const TksWakeup *w = tks_timeline_wakeup_of_run (self->capture, thread->index, r->begin);
  g_autofree char *begin = _tks_timeline_view_format_time (self, r->begin);
  g_autofree char *end = _tks_timeline_view_format_time (self, r->end);
  char *text;

  text = g_markup_printf_escaped (_("<b>%s</b> (priority %d)\nBegin: %s\nEnd: %s%s\nDuration: %s"),
                                  name, thread->priority,
                                  begin, end,
                                  !at_end ? ""
                                  : log_end < tks_capture_get_end (self->capture)
                                  ? _(" (running when the log ended)")
                                  : _(" (still running at the end of the capture)"),
                                  dur);
  /* a stretch of a recording under way does not hold all of the thread's runs */
  if (!self->stretch)
    {
      /* Translators: added to a run's tooltip: its number among the thread's runs */
      char *numbered = g_strdup_printf (_("%s\nActivation %d of %u"), text, run + 1,
                                        thread->n_runs);

      g_free (text);
      text = numbered;
    }
  if (w != NULL)
    {
      g_autofree char *latency = tks_timeline_format_us (
        tks_events_to_us (tks_capture_get_events (self->capture), w->latency));
      /* Translators: added to a run's tooltip: the wait from made ready to running */
      g_autofree char *ready = _tks_timeline_view_format_time (self, w->ready.pos);
      char *with = g_strdup_printf (_("%s\nWake-up latency: %s (made ready at %s)"),
                                    text, latency, ready);

      g_free (text);
      text = with;
    }
  return text;
}

/* The tooltip of @thread's lane at @t where it has no run nor mark: a hole in the log, the
 * log's end, no data yet, or the thread's exit; NULL when none of them. */
static char *
lane_tooltip (TksTimelineView *self,
              const TksThread *thread,
              const char      *name,
              double           t)
{
  double log_end = tks_capture_get_log_end (self->capture, NULL);
  gboolean exited_in_log = (thread->flags & TKS_THREAD_EXITED) &&
                           !(thread->flags & TKS_THREAD_EXITED_AFTER_LOG_END);
  const TksGap *gap;

  if ((gap = gap_at (self->capture, t)) != NULL)
    return g_markup_printf_escaped (g_dngettext (GETTEXT_PACKAGE,
                                                 "<b>Not recorded</b>\nThe board dropped %lu switch here while it was sending (a reply, or a recording faster than its link)",
                                                 "<b>Not recorded</b>\nThe board dropped %lu switches here while it was sending (a reply, or a recording faster than its link)",
                                                 (gulong) gap->dropped),
                                    (gulong) gap->dropped);
  if (t >= log_end && log_end < tks_capture_get_end (self->capture) &&
      !(exited_in_log && t >= thread->exit_time))
    {
      g_autofree char *ended = _tks_timeline_view_format_time (self, log_end);
      g_autofree char *exited = _tks_timeline_view_format_time (self, thread->exit_time);

      if (thread->flags & TKS_THREAD_EXITED_AFTER_LOG_END)
        return g_markup_printf_escaped (_("<b>%s</b>\nThe log ended at %s: after it only exits were recorded\n"
                                          "Exited at %s (what it did until then is unknown)"),
                                        name, ended, exited);
      return g_markup_printf_escaped (_("<b>%s</b>\nThe log ended at %s: after it only exits were recorded"),
                                      name, ended);
    }
  if (isnan (thread->first_event) || t < thread->first_event)
    return g_markup_printf_escaped (_("<b>%s</b>\nNo data yet: the log holds no event of this thread before this point"),
                                    name);
  if ((thread->flags & TKS_THREAD_EXITED) && t >= thread->exit_time)
    {
      g_autofree char *exited = _tks_timeline_view_format_time (self, thread->exit_time);

      return g_markup_printf_escaped (_("<b>%s</b>\nExited at %s"),
                                      name, exited);
    }
  return NULL;
}

static gboolean
query_tooltip (GtkWidget       *widget,
               int              x,
               int              y,
               gboolean         keyboard,
               GtkTooltip      *tooltip,
               TksTimelineView *self)
{
  TksTimelineGeometry g;
  TksTimelineHit hit;
  const TksThread *thread;
  g_autofree char *text = NULL;
  g_autofree char *name = NULL;

  if (keyboard || self->drag_mode != DRAG_NONE)
    return FALSE;
  _tks_timeline_view_current_geometry (self, &g);
  if ((text = tks_timeline_event_tooltip (self->capture, &g, x, y)) != NULL)
    {
      gtk_tooltip_set_markup (tooltip, text);
      return TRUE;
    }
  if (!tks_timeline_hit_test (self->capture, &g, x, y, &hit))
    return FALSE;
  thread = tks_capture_get_thread (self->capture, hit.thread);
  if (thread == NULL)
    return FALSE;
  name = tks_lane_list_shown_name (thread->name);

  if (hit.run >= 0)
    text = run_tooltip (self, thread, name, hit.run);
  else if (hit.mark >= 0)
    {
      const TksMark *m = &thread->marks[hit.mark];
      g_autofree char *at = _tks_timeline_view_format_time (self, m->pos);

      text = g_markup_printf_escaped (m->kind == TKS_MARK_IN
                                      ? _("<b>%s</b> (not logged)\nSwitched in at %s")
                                      : _("<b>%s</b> (not logged)\nSwitched out at %s"),
                                      name, at);
    }
  else
    text = lane_tooltip (self, thread, name, x_to_time (self, x));
  if (text == NULL)
    return FALSE;

  gtk_tooltip_set_markup (tooltip, text);
  return TRUE;
}

static gboolean
query_tooltip_cb (GtkWidget       *widget,
                  int              x,
                  int              y,
                  gboolean         keyboard,
                  GtkTooltip      *tooltip,
                  TksTimelineView *self)
{
  self->tooltip_told = query_tooltip (widget, x, y, keyboard, tooltip, self);
  return self->tooltip_told;
}

/* A right click on the time area: the time ruler's origin. */
static void
context_pressed_cb (GtkGestureClick *gesture,
                    int              n_press,
                    double           x,
                    double           y,
                    TksTimelineView *self)
{
  TksTimelineGeometry g;

  _tks_timeline_view_current_geometry (self, &g);
  if (self->capture == NULL || x < g.left)
    return;
  self->context_x = x;
  if (self->context_menu == NULL)
    {
      g_autoptr(GMenu) menu = g_menu_new ();

      g_menu_append (menu, _("Set Time _Origin Here"), "timeline.set-origin");
      g_menu_append (menu, _("_Reset Time Origin"), "timeline.reset-origin");
      self->context_menu = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->context_menu), FALSE);
      gtk_widget_set_halign (self->context_menu, GTK_ALIGN_START);
      gtk_widget_set_parent (self->context_menu, GTK_WIDGET (self));
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.reset-origin", !isnan (self->origin));
  gtk_popover_set_pointing_to (GTK_POPOVER (self->context_menu),
                               &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->context_menu));
}

void
_tks_timeline_view_input_init (TksTimelineView *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect (gesture, "pressed", G_CALLBACK (context_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (controller, "enter", G_CALLBACK (motion_cb), self);
  g_signal_connect (controller, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect (gesture, "begin", G_CALLBACK (zoom_begin_cb), self);
  g_signal_connect (gesture, "scale-changed", G_CALLBACK (zoom_scale_changed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_key_new ();
  g_signal_connect (controller, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}
