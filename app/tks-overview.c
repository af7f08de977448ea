/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tks-overview.h"
#include "tks-timeline-render.h"

#define OVERVIEW_HEIGHT 56
#define MARGIN_LEFT     TKS_TIMELINE_HEADER_WIDTH

struct _TksOverview
{
  GtkWidget      parent_instance;

  TksCapture    *capture;
  TksViewport   *viewport;
  GskRenderNode *cache;
  int            cache_width;
  int            cache_height;
  GdkRGBA        cache_fg;

  double         drag_offset;   /* ticks between the pointer and the view start */
};

G_DEFINE_FINAL_TYPE (TksOverview, tks_overview, GTK_TYPE_WIDGET)

static void
get_fg (TksOverview *self,
        GdkRGBA     *fg)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

static void
whole_geometry (TksOverview         *self,
                TksTimelineGeometry *g)
{
  guint n = 0;
  int height = gtk_widget_get_height (GTK_WIDGET (self));

  if (self->capture != NULL)
    tks_capture_get_shown_lanes (self->capture, FALSE, &n);
  g->all_lanes = FALSE;
  g->coverage = NULL;
  g->x0 = tks_viewport_get_start (self->viewport);
  g->x1 = tks_viewport_get_end (self->viewport);
  if (!(g->x1 > g->x0))
    g->x1 = g->x0 + 1;
  g->left = MARGIN_LEFT;
  g->width = MAX (1, gtk_widget_get_width (GTK_WIDGET (self)) - MARGIN_LEFT);
  g->top = 2;
  g->bottom = height - 2;
  g->lane_height = n > 0 ? MAX (1.0, (height - 4.0) / n) : 1;
  g->v_offset = 0;
  g->tick_hz = 0;
}

static void
tks_overview_snapshot (GtkWidget   *widget,
                       GtkSnapshot *snapshot)
{
  TksOverview *self = TKS_OVERVIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  TksTimelineGeometry g;
  GdkRGBA fg, shade, edge;
  double a, b, scale;

  if (self->capture == NULL || self->viewport == NULL)
    return;

  get_fg (self, &fg);
  whole_geometry (self, &g);
  if (self->cache == NULL || width != self->cache_width || height != self->cache_height ||
      !gdk_rgba_equal (&fg, &self->cache_fg))
    {
      GtkSnapshot *s = gtk_snapshot_new ();
      TksPainter painter;

      g_clear_pointer (&self->cache, gsk_render_node_unref);
      tks_painter_init_snapshot (&painter, s, NULL);
      painter.fg = fg;
      tks_timeline_render_lanes (self->capture, &g, &painter);
      tks_timeline_render_log_end (self->capture, &g, &painter);
      tks_timeline_render_trigger (self->capture, &g, &painter);
      tks_painter_finish (&painter);
      self->cache = gtk_snapshot_free_to_node (s);
      self->cache_width = width;
      self->cache_height = height;
      self->cache_fg = fg;
    }
  if (self->cache != NULL)
    gtk_snapshot_append_node (snapshot, self->cache);

  scale = g.width / (g.x1 - g.x0);
  a = g.left + (tks_viewport_get_visible_start (self->viewport) - g.x0) * scale;
  b = g.left + (tks_viewport_get_visible_end (self->viewport) - g.x0) * scale;
  if (b - a < 2)
    {
      a -= 1;
      b = a + 2;
    }
  shade = fg;
  shade.alpha = 0.18;
  edge = (GdkRGBA) { 0.21, 0.52, 0.89, 1 };
  gtk_snapshot_append_color (snapshot, &shade, &GRAPHENE_RECT_INIT (g.left, 0, MAX (0, a - g.left), height));
  gtk_snapshot_append_color (snapshot, &shade,
                             &GRAPHENE_RECT_INIT (b, 0, MAX (0, g.left + g.width - b), height));
  {
    GskRoundedRect rr;
    float widths[4] = { 2, 2, 2, 2 };
    GdkRGBA colors[4] = { edge, edge, edge, edge };

    gsk_rounded_rect_init_from_rect (&rr, &GRAPHENE_RECT_INIT (a, 0, b - a, height), 2);
    gtk_snapshot_append_border (snapshot, &rr, widths, colors);
  }
}

static double
x_to_time (TksOverview *self,
           double       x)
{
  TksTimelineGeometry g;

  whole_geometry (self, &g);
  return tks_timeline_time_at (&g, x);
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               TksOverview    *self)
{
  double t, x0, x1;

  if (self->capture == NULL || self->viewport == NULL)
    return;
  t = x_to_time (self, x);
  x0 = tks_viewport_get_visible_start (self->viewport);
  x1 = tks_viewport_get_visible_end (self->viewport);
  tks_viewport_push_history (self->viewport, 0);
  if (t < x0 || t > x1)
    {
      /* jump: centre the view on the click */
      tks_viewport_set_range (self->viewport, t - (x1 - x0) / 2, t + (x1 - x0) / 2);
      x0 = tks_viewport_get_visible_start (self->viewport);
    }
  self->drag_offset = t - x0;
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                TksOverview    *self)
{
  double sx, sy, t, span;

  if (self->capture == NULL || self->viewport == NULL)
    return;
  gtk_gesture_drag_get_start_point (gesture, &sx, &sy);
  t = x_to_time (self, sx + dx);
  span = tks_viewport_get_span (self->viewport);
  tks_viewport_set_range (self->viewport, t - self->drag_offset, t - self->drag_offset + span);
}

static void
tks_overview_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = MARGIN_LEFT + 50;
  else
    *minimum = *natural = OVERVIEW_HEIGHT;
}

static void
tks_overview_dispose (GObject *object)
{
  TksOverview *self = TKS_OVERVIEW (object);

  if (self->viewport != NULL)
    g_signal_handlers_disconnect_by_data (self->viewport, self);
  g_clear_object (&self->viewport);
  g_clear_object (&self->capture);
  g_clear_pointer (&self->cache, gsk_render_node_unref);

  G_OBJECT_CLASS (tks_overview_parent_class)->dispose (object);
}

static void
tks_overview_class_init (TksOverviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tks_overview_dispose;
  widget_class->snapshot = tks_overview_snapshot;
  widget_class->measure = tks_overview_measure;

  gtk_widget_class_set_css_name (widget_class, "overview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
tks_overview_init (TksOverview *self)
{
  GtkGesture *gesture;

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Overview of the whole capture"),
                                  -1);
  gesture = gtk_gesture_drag_new ();
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));
}

GtkWidget *
tks_overview_new (void)
{
  return g_object_new (TKS_TYPE_OVERVIEW, NULL);
}

void
tks_overview_set_capture (TksOverview *self,
                          TksCapture  *capture)
{
  g_return_if_fail (TKS_IS_OVERVIEW (self));

  if (g_set_object (&self->capture, capture))
    {
      g_clear_pointer (&self->cache, gsk_render_node_unref);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
viewport_changed_cb (TksOverview *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
viewport_bounds_changed (TksOverview *self)
{
  /* the cache depends on the bounds; cheap to check by dropping it when the capture is set */
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tks_overview_set_viewport (TksOverview *self,
                           TksViewport *viewport)
{
  g_return_if_fail (TKS_IS_OVERVIEW (self));

  if (self->viewport != NULL)
    g_signal_handlers_disconnect_by_data (self->viewport, self);
  if (g_set_object (&self->viewport, viewport) && viewport != NULL)
    {
      g_signal_connect_swapped (viewport, "changed", G_CALLBACK (viewport_changed_cb), self);
      viewport_bounds_changed (self);
    }
}
