/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The timeline's frame: the cached image (tks-timeline-view-cache.c), the headers, and over
 * them find's matches, the hover, the selection and its wake-up, the wake-up arrows, the
 * marks A and B with the time between them, and the range being dragged. */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tks-timeline-events.h"
#include "tks-timeline-view-private.h"

/* Drawing */

static void
get_fg (TksTimelineView *self,
        GdkRGBA         *fg)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

static void
outline (GtkSnapshot   *snapshot,
         const GdkRGBA *color,
         double         x,
         double         y,
         double         w,
         double         h,
         double         width)
{
  GskRoundedRect rr;
  float widths[4] = { width, width, width, width };
  GdkRGBA colors[4] = { *color, *color, *color, *color };

  gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (x, y, w, h), 0);
  gtk_snapshot_append_border (snapshot, &rr, widths, colors);
}

static void
draw_run_outline (TksTimelineView           *self,
                  GtkSnapshot               *snapshot,
                  const TksTimelineGeometry *g,
                  const TksTimelineHit      *hit,
                  const GdkRGBA             *color,
                  double                     width)
{
  const TksThread *thread = tks_capture_get_thread (self->capture, hit->thread);
  double scale = g->width / (g->x1 - g->x0);
  double b, e, y;

  if (thread == NULL || hit->run < 0 || (guint)hit->run >= thread->n_runs)
    return;
  b = g->left + (thread->runs[hit->run].begin - g->x0) * scale;
  e = g->left + (thread->runs[hit->run].end - g->x0) * scale;
  if (e < g->left || b > g->left + g->width)
    return;
  b = MAX (b, g->left - 2);
  e = MIN (e, g->left + g->width + 2);
  if (e - b < 3)
    {
      b -= 1.5;
      e = b + 3;
    }
  y = tks_timeline_lane_y (g, hit->lane);
  outline (snapshot, color, b - width, y + 5 - width, e - b + 2 * width,
           g->lane_height - 10 + 2 * width, width);
}

static void
draw_marker (TksTimelineView           *self,
             GtkSnapshot               *snapshot,
             const TksTimelineGeometry *g,
             double                     t,
             const char                *name)
{
  static const GdkRGBA marker = { 0.95, 0.55, 0.05, 1 };
  double x = tks_timeline_x_at (g, t);
  g_autoptr(PangoLayout) layout = NULL;

  if (x < g->left || x > g->left + g->width)
    return;
  gtk_snapshot_append_color (snapshot, &marker,
                             &GRAPHENE_RECT_INIT (x - 0.5, g->top, 1.5, g->bottom - g->top));
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), name);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x + 3, g->bottom - 20));
  gtk_snapshot_append_layout (snapshot, layout, &marker);
  gtk_snapshot_restore (snapshot);
}

/* Δt between the cursors, drawn between them near the top of the lanes: a line with an
 * end stop at each cursor in view and its label on it (beside the line when it is short). */
static void
draw_delta (TksTimelineView           *self,
            GtkSnapshot               *snapshot,
            const TksTimelineGeometry *g)
{
  static const GdkRGBA marker = { 0.95, 0.55, 0.05, 1 };
  static const GdkRGBA white = { 1, 1, 1, 1 };
  double xa = tks_timeline_x_at (g, MIN (self->mark_a, self->mark_b));
  double xb = tks_timeline_x_at (g, MAX (self->mark_a, self->mark_b));
  double l = MAX (xa, g->left), r = MIN (xb, g->left + g->width);
  double y = g->top + 12, lx;
  g_autofree char *span = NULL;
  g_autofree char *text = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  GskRoundedRect pill;
  int lw, lh;

  if (r < l)
    return;
  gtk_snapshot_append_color (snapshot, &marker, &GRAPHENE_RECT_INIT (l, y - 0.75, MAX (1.0, r - l), 1.5));
  if (xa >= g->left)
    gtk_snapshot_append_color (snapshot, &marker, &GRAPHENE_RECT_INIT (xa - 0.5, y - 6, 2, 12));
  if (xb <= g->left + g->width)
    gtk_snapshot_append_color (snapshot, &marker, &GRAPHENE_RECT_INIT (xb - 1.5, y - 6, 2, 12));

  span = _tks_timeline_view_format_span (self, self->mark_b - self->mark_a);
  /* Translators: the time between the two cursors, drawn between them */
  text = g_strdup_printf (_("Δt = %s"), span);
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  pango_layout_get_pixel_size (layout, &lw, &lh);
  /* centred on the line when it fits between the cursors, else right of B (or left of A) */
  if (r - l >= lw + 16)
    lx = (l + r - lw) / 2;
  else if (xb + 6 + lw + 8 <= g->left + g->width)
    lx = xb + 10;
  else
    lx = MAX (g->left, xa - lw - 14);
  gsk_rounded_rect_init_from_rect (&pill, &GRAPHENE_RECT_INIT (lx - 5, y - lh / 2.0 - 1, lw + 10, lh + 2),
                                   (lh + 2) / 2.0);
  gtk_snapshot_push_rounded_clip (snapshot, &pill);
  gtk_snapshot_append_color (snapshot, &marker, &pill.bounds);
  gtk_snapshot_pop (snapshot);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (lx, y - lh / 2.0));
  gtk_snapshot_append_layout (snapshot, layout, &white);
  gtk_snapshot_restore (snapshot);
}

/* The wake-up that led to the selected run: from made ready to running, on its lane. */
static void
draw_wakeup (TksTimelineView           *self,
             GtkSnapshot               *snapshot,
             const TksTimelineGeometry *g,
             const TksTimelineHit      *hit,
             const GdkRGBA             *fg)
{
  static const GdkRGBA wake = { 0.90, 0.38, 0.0, 1 };
  const TksThread *thread = tks_capture_get_thread (self->capture, hit->thread);
  const TksWakeup *w;
  g_autofree char *latency = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  double xr, xs, y;
  int lw, lh;

  if (thread == NULL || hit->run < 0 || (guint) hit->run >= thread->n_runs)
    return;
  w = tks_timeline_wakeup_of_run (self->capture, thread->index, thread->runs[hit->run].begin);
  if (w == NULL)
    return;
  xr = tks_timeline_x_at (g, w->ready.pos);
  xs = tks_timeline_x_at (g, w->run.pos);
  y = tks_timeline_lane_y (g, hit->lane) + g->lane_height - 6;
  if (xs < g->left || xr > g->left + g->width)
    return;
  /* made ready: a tick up; the wait: a line to the switch-in */
  gtk_snapshot_append_color (snapshot, &wake,
                             &GRAPHENE_RECT_INIT (xr - 1, y - 10, 2, 12));
  gtk_snapshot_append_color (snapshot, &wake,
                             &GRAPHENE_RECT_INIT (xr, y, MAX (1.0, xs - xr), 2));
  latency = tks_timeline_format_us (tks_events_to_us (tks_capture_get_events (self->capture),
                                                      w->latency));
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), latency);
  pango_layout_get_pixel_size (layout, &lw, &lh);
  gtk_snapshot_save (snapshot);
  /* the number left of the wait, or right of the switch-in when there is no room */
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT (xr - lw - 4 >= g->left ? xr - lw - 4 : xs + 6,
                                                y - lh - 2));
  gtk_snapshot_append_layout (snapshot, layout, &wake);
  gtk_snapshot_restore (snapshot);
  (void) fg;
}

/* Pixels a wake-up needs for its arrow: with more wake-ups in view than the width holds at
 * this spacing, none is drawn (zoom in to see them). */
#define WAKE_ARROW_MIN_SPACING 6.0

/* y of the middle of the lane of what made @w ready; FALSE when no lane shows it. */
static gboolean
waker_y (TksTimelineView           *self,
         const TksTimelineGeometry *g,
         const TksWakeup           *w,
         double                    *y)
{
  if (w->waker_kind == TKS_WAKER_THREAD)
    {
      int lane = tks_timeline_lane_of_thread (self->capture, g, w->waker);

      if (lane < 0)
        return FALSE;
      *y = tks_timeline_lane_y (g, (guint) lane) + g->lane_height / 2;
      return TRUE;
    }
  if (w->waker_kind == TKS_WAKER_HANDLER)
    {
      guint n = 0;
      g_autofree TksEventLane *lanes = tks_timeline_event_lanes (self->capture, &n);

      for (guint i = 0; i < n; i++)
        if (lanes[i].track->kind == TKS_TRACK_IRQ && lanes[i].track->name_id == w->waker)
          {
            *y = tks_timeline_event_lane_y (g, i + (g->load_graph ? 1 : 0)) + g->lane_height / 2;
            return TRUE;
          }
    }
  return FALSE;
}

/* An arrow from what made each visible thread ready to the run it led to, as flows are drawn
 * between tracks: a line from (made ready, the waker's lane) to (switched in, its lane), a
 * head at the run. Only the wake-ups in view, and none when they are too dense to tell. */
static void
draw_wake_arrows (TksTimelineView           *self,
                  GtkSnapshot               *snapshot,
                  const TksTimelineGeometry *g)
{
  static const GdkRGBA arrow = { 0.90, 0.38, 0.0, 1 };  /* the wake-up's orange */
  TksEvents *events = tks_capture_get_events (self->capture);
  const TksWakeup *w;
  guint n, lo = 0, hi, first, count = 0;
  if (events == NULL)
    return;
  w = tks_events_get_wakeups (events, &n);
  /* the first whose ready is at or after the view's start (by ready, then those that began
   * before the view and end in it are left out: their waker is off screen) */
  hi = n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (w[mid].ready.pos < g->x0)
        lo = mid + 1;
      else
        hi = mid;
    }
  first = lo;
  for (guint i = first; i < n && w[i].ready.pos <= g->x1; i++)
    if (!w[i].open && w[i].waker_kind != TKS_WAKER_NONE)
      count++;
  if (count == 0 || count * WAKE_ARROW_MIN_SPACING > g->width)
    return;

  for (guint i = first; i < n && w[i].ready.pos <= g->x1; i++)
    {
      double x0, x1, y0, y1, len, dx, dy;
      int lane;

      if (w[i].open || w[i].waker_kind == TKS_WAKER_NONE || !waker_y (self, g, &w[i], &y0))
        continue;
      lane = tks_timeline_lane_of_thread (self->capture, g, w[i].thread);
      if (lane < 0)
        continue;
      y1 = tks_timeline_lane_y (g, (guint) lane) + g->lane_height / 2;
      x0 = tks_timeline_x_at (g, w[i].ready.pos);
      x1 = tks_timeline_x_at (g, w[i].run.pos);
      if (fabs (y1 - y0) < 1 && x1 - x0 < 1)
        continue;
      /* a straight line as thin rotated rectangles, and a head of two strokes */
      dx = x1 - x0;
      dy = y1 - y0;
      len = sqrt (dx * dx + dy * dy);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x0, y0));
      gtk_snapshot_rotate (snapshot, (float) (atan2 (dy, dx) * 180 / G_PI));
      gtk_snapshot_append_color (snapshot, &arrow, &GRAPHENE_RECT_INIT (0, -0.75, len, 1.5));
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (len, 0));
      gtk_snapshot_rotate (snapshot, 150);
      gtk_snapshot_append_color (snapshot, &arrow, &GRAPHENE_RECT_INIT (0, -0.75, 7, 1.5));
      gtk_snapshot_rotate (snapshot, 60);
      gtk_snapshot_append_color (snapshot, &arrow, &GRAPHENE_RECT_INIT (0, -0.75, 7, 1.5));
      gtk_snapshot_restore (snapshot);
    }
}

/* What a widget without a capture says, in its middle. */
static void
draw_empty (GtkWidget     *widget,
            GtkSnapshot   *snapshot,
            const GdkRGBA *fg)
{
  g_autoptr(PangoLayout) layout =
    gtk_widget_create_pango_layout (widget, _("No capture: open a file, drop one here, or get new data from a board."));
  GdkRGBA dim = *fg;
  int lw, lh;

  dim.alpha = 0.6;
  pango_layout_get_pixel_size (layout, &lw, &lh);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT (MAX (0, (gtk_widget_get_width (widget) - lw) / 2),
                                                MAX (0, (gtk_widget_get_height (widget) - lh) / 2)));
  gtk_snapshot_append_layout (snapshot, layout, &dim);
  gtk_snapshot_restore (snapshot);
}

/* The marks A and B, and between them a band and the time from one to the other. */
static void
draw_marks (TksTimelineView           *self,
            GtkSnapshot               *snapshot,
            const TksTimelineGeometry *g)
{
  if (!isnan (self->mark_a))
    draw_marker (self, snapshot, g, self->mark_a, "A");
  if (!isnan (self->mark_b))
    draw_marker (self, snapshot, g, self->mark_b, "B");
  if (!isnan (self->mark_a) && !isnan (self->mark_b))
    {
      static const GdkRGBA band = { 0.95, 0.55, 0.05, 0.12 };
      double xa = tks_timeline_x_at (g, MIN (self->mark_a, self->mark_b));
      double xb = tks_timeline_x_at (g, MAX (self->mark_a, self->mark_b));

      xa = MAX (xa, g->left);
      xb = MIN (xb, g->left + g->width);
      if (xb > xa)
        gtk_snapshot_append_color (snapshot, &band,
                                   &GRAPHENE_RECT_INIT (xa, g->top, xb - xa, g->bottom - g->top));
      draw_delta (self, snapshot, g);
    }
}

/* The range being dragged out to zoom into. */
static void
draw_drag_range (TksTimelineView           *self,
                 GtkSnapshot               *snapshot,
                 const TksTimelineGeometry *g)
{
  GdkRGBA sel = { 0.21, 0.52, 0.89, 0.25 };
  GdkRGBA edge = { 0.21, 0.52, 0.89, 0.9 };
  double a = MAX (g->left, MIN (self->drag_start_x, self->drag_cur_x));
  double b = MIN (g->left + g->width, MAX (self->drag_start_x, self->drag_cur_x));

  gtk_snapshot_append_color (snapshot, &sel,
                             &GRAPHENE_RECT_INIT (a, g->top, b - a, g->bottom - g->top));
  outline (snapshot, &edge, a, g->top, b - a, g->bottom - g->top, 1);
}

void
_tks_timeline_view_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  TksTimelineView *self = TKS_TIMELINE_VIEW (widget);
  TksTimelineGeometry g;
  GdkRGBA fg;
  guint i;

  _tks_timeline_view_current_geometry (self, &g);
  get_fg (self, &fg);

  if (self->capture == NULL)
    {
      draw_empty (widget, snapshot, &fg);
      return;
    }
  _tks_timeline_view_update_cache (self, &g, &fg);
  _tks_timeline_view_append_cache (self, snapshot, &g);

  for (i = 0; i < self->labels->len; i++)
    gtk_widget_snapshot_child (widget, g_ptr_array_index (self->labels, i), snapshot);
  for (i = 0; i < self->event_labels->len; i++)
    gtk_widget_snapshot_child (widget, g_ptr_array_index (self->event_labels, i), snapshot);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, g.top, g.left + g.width,
                                                         g.bottom - g.top));
  _tks_timeline_view_draw_matches (self, snapshot, &g);
  if (self->has_hover && self->hover.run >= 0 && self->drag_mode == DRAG_NONE)
    {
      GdkRGBA hover = fg;
      hover.alpha = 0.45;
      draw_run_outline (self, snapshot, &g, &self->hover, &hover, 1);
    }
  if (self->wake_arrows)
    draw_wake_arrows (self, snapshot, &g);
  if (self->has_selected && self->selected.run >= 0)
    {
      GdkRGBA sel = fg;
      draw_run_outline (self, snapshot, &g, &self->selected, &sel, 2);
      draw_wakeup (self, snapshot, &g, &self->selected, &fg);
    }
  draw_marks (self, snapshot, &g);
  if (self->drag_mode == DRAG_RANGE && self->drag_moved)
    draw_drag_range (self, snapshot, &g);
  gtk_snapshot_pop (snapshot);
}
