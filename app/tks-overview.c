/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tks-overview.h"
#include "tks-timeline-image.h"
#include "tks-timeline-render.h"

#define OVERVIEW_HEIGHT 56
#define MARGIN_LEFT     TKS_TIMELINE_HEADER_WIDTH

struct _TksOverview
{
  GtkWidget      parent_instance;

  TksCapture    *capture;
  TksViewport   *viewport;
  GskRenderNode *cache;
  guint          serial;        /* counts the captures set */
  guint          cache_serial;  /* the capture the cache shows */
  int            cache_width;
  int            cache_height;
  int            cache_scale;
  GdkRGBA        cache_fg;
  gboolean       rendering;     /* a worker draws the cache anew */

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
  tks_overview_geometry (self->capture, tks_viewport_get_start (self->viewport),
                         tks_viewport_get_end (self->viewport),
                         gtk_widget_get_width (GTK_WIDGET (self)),
                         gtk_widget_get_height (GTK_WIDGET (self)), g);
}

/* The whole capture drawn once, as an image: the window then copies it at each frame (the
 * view's rectangle moving over it while recording) instead of drawing its thousands of runs
 * again. A capture that replaces another one shown (a recording's, each second) is drawn by a
 * worker thread while the previous image stays; the first one is drawn at once. */
typedef struct
{
  TksCapture         *capture;
  guint               serial;
  TksTimelineGeometry g;         /* the overview's: no lane list, no summaries */
  GdkRGBA             fg;
  int                 width, height, scale;
  cairo_surface_t    *surface;
} Render;

static void
render_free (Render *r)
{
  g_clear_object (&r->capture);
  g_clear_pointer (&r->surface, cairo_surface_destroy);
  g_free (r);
}

/* Any thread: the capture and the geometry are read only. */
static void
render_draw (Render *r)
{
  r->surface = tks_overview_image_draw (r->capture, &r->g, &r->fg, r->width, r->height, r->scale);
}

/* The drawn image as the overview's cache. */
static void
render_take (TksOverview *self,
             Render      *r)
{
  g_clear_pointer (&self->cache, gsk_render_node_unref);
  self->cache = tks_timeline_surface_node (GTK_WIDGET (self), r->surface, r->width, r->height);
  self->cache_serial = r->serial;
  self->cache_width = r->width;
  self->cache_height = r->height;
  self->cache_scale = r->scale;
  self->cache_fg = r->fg;
}

static Render *
render_new (TksOverview               *self,
            const TksTimelineGeometry *g,
            const GdkRGBA             *fg,
            int                        width,
            int                        height)
{
  Render *r = g_new0 (Render, 1);

  r->capture = g_object_ref (self->capture);
  r->serial = self->serial;
  r->g = *g;
  r->fg = *fg;
  r->width = width;
  r->height = height;
  r->scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  return r;
}

static void
render_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  render_draw (task_data);
  g_task_return_boolean (task, TRUE);
}

static void
render_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  TksOverview *self = TKS_OVERVIEW (source);

  self->rendering = FALSE;
  /* (no capture: disposed, or emptied meanwhile) */
  if (g_task_propagate_boolean (G_TASK (result), NULL) && self->capture != NULL)
    render_take (self, g_task_get_task_data (G_TASK (result)));
  /* drawn again: another image is started there if this one is out of date already */
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Makes the cache show the capture at this size and colour: at once when there is no image
 * yet or its size is another, else in a worker (the previous capture's image meanwhile). */
static void
update_cache (TksOverview               *self,
              const TksTimelineGeometry *g,
              const GdkRGBA             *fg,
              int                        width,
              int                        height)
{
  g_autoptr(GTask) task = NULL;
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  gboolean same_size;
  Render *r;

  same_size = self->cache != NULL && width == self->cache_width && height == self->cache_height &&
              scale == self->cache_scale;
  if (same_size && self->cache_serial == self->serial && gdk_rgba_equal (fg, &self->cache_fg))
    return;
  if (width <= 0 || height <= 0)
    return;
  if (same_size)
    {
      if (self->rendering)
        return;
      self->rendering = TRUE;
      task = g_task_new (self, NULL, render_done_cb, NULL);
      g_task_set_source_tag (task, update_cache);
      g_task_set_task_data (task, render_new (self, g, fg, width, height), (GDestroyNotify) render_free);
      tks_task_run_after_frame (task, render_thread);
      return;
    }
  r = render_new (self, g, fg, width, height);
  render_draw (r);
  render_take (self, r);
  render_free (r);
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
  update_cache (self, &g, &fg, width, height);
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
      self->serial++;
      /* the image of the previous capture is kept until the new one is drawn */
      if (capture == NULL)
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
