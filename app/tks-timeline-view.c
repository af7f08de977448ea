/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tks-coverage.h"
#include "tks-timeline-view.h"

#define DRAG_THRESHOLD 4.0
#define HISTORY_COALESCE_USEC (700 * 1000)

typedef enum
{
  DRAG_NONE,
  DRAG_PAN,
  DRAG_RANGE,
} DragMode;

struct _TksTimelineView
{
  GtkWidget       parent_instance;

  TksCapture     *capture;
  TksViewport    *viewport;
  gulong          viewport_changed_id;
  double          tick_hz;
  gboolean        all_lanes;     /* also the threads that exited before the log */

  GPtrArray      *labels;        /* one GtkLabel per lane from labels_first on, in lane order */
  guint           labels_first;
  guint           labels_idle;   /* a rebuild of the labels for the lanes now in view */

  /* cached render node of ruler + lanes + trigger, keyed by what it depends on */
  GskRenderNode  *cache;
  TksTimelineGeometry cache_geometry;
  GdkRGBA         cache_fg;

  /* building the capture's coverage summaries in a worker thread */
  GCancellable   *coverage_cancellable;

  /* pointer and interaction state */
  double          pointer_x;
  double          pointer_y;
  gboolean        pointer_inside;
  TksTimelineHit  hover;
  gboolean        has_hover;
  TksTimelineHit  selected;
  gboolean        has_selected;
  double          mark_a;
  double          mark_b;         /* NAN when unset */

  DragMode        drag_mode;
  gboolean        drag_moved;
  double          drag_start_x;
  double          drag_start_y;
  double          drag_x0;
  double          drag_x1;
  double          drag_v_offset;
  double          drag_cur_x;
  GdkModifierType drag_state;

  double          pinch_span;
  double          pinch_anchor;

  char           *info;
};

G_DEFINE_FINAL_TYPE (TksTimelineView, tks_timeline_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_CAPTURE,
  PROP_VIEWPORT,
  PROP_TICK_HZ,
  PROP_INFO,
  PROP_ALL_LANES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_info (TksTimelineView *self,
          char            *info)
{
  if (g_strcmp0 (self->info, info) == 0)
    {
      g_free (info);
      return;
    }
  g_free (self->info);
  self->info = info;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INFO]);
}

static double
effective_tick_hz (TksTimelineView *self)
{
  if (self->tick_hz > 0)
    return self->tick_hz;
  if (self->capture != NULL)
    return tks_capture_get_tick_hz (self->capture);
  return 0;
}

void
tks_timeline_view_get_geometry (TksTimelineView     *self,
                                double               width,
                                double               height,
                                TksTimelineGeometry *g)
{
  g_return_if_fail (TKS_IS_TIMELINE_VIEW (self));

  memset (g, 0, sizeof *g);   /* the cache compares geometries whole, padding too */
  g->x0 = tks_viewport_get_visible_start (self->viewport);
  g->x1 = tks_viewport_get_visible_end (self->viewport);
  g->left = TKS_TIMELINE_HEADER_WIDTH;
  g->width = MAX (1.0, width - TKS_TIMELINE_HEADER_WIDTH);
  g->top = TKS_TIMELINE_RULER_HEIGHT;
  g->bottom = MAX (g->top, height);
  g->lane_height = TKS_TIMELINE_LANE_HEIGHT;
  g->v_offset = tks_viewport_get_v_offset (self->viewport);
  g->tick_hz = effective_tick_hz (self);
  g->all_lanes = self->all_lanes;
}

static void
current_geometry (TksTimelineView     *self,
                  TksTimelineGeometry *g)
{
  tks_timeline_view_get_geometry (self,
                                  gtk_widget_get_width (GTK_WIDGET (self)),
                                  gtk_widget_get_height (GTK_WIDGET (self)),
                                  g);
}

static guint
n_lanes (TksTimelineView *self)
{
  guint n = 0;

  if (self->capture != NULL)
    tks_capture_get_shown_lanes (self->capture, self->all_lanes, &n);
  return n;
}

static void
invalidate (TksTimelineView *self)
{
  g_clear_pointer (&self->cache, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/*
 * Lane headers are widgets, so only the lanes in view and LABEL_MARGIN lanes on each side
 * have one: a capture of a few hundred threads gets them all, and one with a history of a
 * million threads costs what one screen does (GTK's work per child grows with the number of
 * children).
 */
#define LABEL_MARGIN 128

/* The lanes whose headers should exist: [*first, *end). */
static void
label_range (TksTimelineView *self,
             guint           *first,
             guint           *end)
{
  TksTimelineGeometry g;
  guint n = n_lanes (self), a, b;

  current_geometry (self, &g);
  if (!tks_timeline_visible_lanes (&g, n, &a, &b))
    {
      a = 0;
      b = MIN (n, LABEL_MARGIN);
    }
  *first = a > LABEL_MARGIN ? a - LABEL_MARGIN : 0;
  *end = MIN (n, b + LABEL_MARGIN);
}

/* Whether the lanes in view all have their header. */
static gboolean
labels_cover_view (TksTimelineView *self)
{
  TksTimelineGeometry g;
  guint a, b;

  current_geometry (self, &g);
  if (!tks_timeline_visible_lanes (&g, n_lanes (self), &a, &b))
    return TRUE;
  return a >= self->labels_first && b <= self->labels_first + self->labels->len;
}

static void
rebuild_labels (TksTimelineView *self)
{
  const guint *lanes;
  guint n, i, first, end;

  for (i = 0; i < self->labels->len; i++)
    gtk_widget_unparent (g_ptr_array_index (self->labels, i));
  g_ptr_array_set_size (self->labels, 0);
  self->labels_first = 0;

  if (self->capture == NULL)
    return;

  lanes = tks_capture_get_shown_lanes (self->capture, self->all_lanes, &n);
  label_range (self, &first, &end);
  self->labels_first = first;
  for (i = first; i < end; i++)
    {
      const TksThread *thread = tks_capture_get_thread (self->capture, lanes[i]);
      g_autofree char *markup = NULL;
      g_autofree char *description = NULL;
      const char *name;
      GtkWidget *label;

      name = thread->name != NULL ? thread->name : "?";
      markup = g_markup_printf_escaped ("%s <span alpha=\"55%%\" size=\"small\">%d</span>",
                                        name, thread->priority);
      /* Translators: accessible description of a lane header */
      description = g_strdup_printf (_("Thread %s, priority %d"), name, thread->priority);
      label = g_object_new (GTK_TYPE_LABEL,
                            "use-markup", TRUE,
                            "label", markup,
                            "xalign", 0.0f,
                            "ellipsize", PANGO_ELLIPSIZE_END,
                            "tooltip-text", description,
                            NULL);
      gtk_widget_add_css_class (label, "lane-header");
      gtk_accessible_update_property (GTK_ACCESSIBLE (label),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                      -1);
      gtk_widget_set_parent (label, GTK_WIDGET (self));
      g_ptr_array_add (self->labels, label);
    }
}

static gboolean
rebuild_labels_idle (gpointer user_data)
{
  TksTimelineView *self = user_data;

  self->labels_idle = 0;
  if (!labels_cover_view (self))
    {
      rebuild_labels (self);
      gtk_widget_queue_allocate (GTK_WIDGET (self));
    }
  return G_SOURCE_REMOVE;
}

static void
viewport_changed_cb (TksTimelineView *self,
                     TksViewport     *viewport)
{
  invalidate (self);
  if (!labels_cover_view (self))
    rebuild_labels (self);
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

static void
update_content_height (TksTimelineView *self)
{
  double h = gtk_widget_get_height (GTK_WIDGET (self));

  tks_viewport_set_content_height (self->viewport,
                                   n_lanes (self) * TKS_TIMELINE_LANE_HEIGHT,
                                   MAX (0.0, h - TKS_TIMELINE_RULER_HEIGHT));
}

/* Geometry helpers */

static double
x_to_time (TksTimelineView *self,
           double           x)
{
  TksTimelineGeometry g;

  current_geometry (self, &g);
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

static char *
describe_run (TksTimelineView *self,
              guint            thread_index,
              guint            run)
{
  const TksThread *thread = tks_capture_get_thread (self->capture, thread_index);
  const TksRun *r;
  g_autofree char *dur = NULL;
  gboolean at_end;

  if (thread == NULL || run >= thread->n_runs)
    return NULL;
  r = &thread->runs[run];
  dur = tks_timeline_format_duration (r->end - r->begin, effective_tick_hz (self));
  at_end = (thread->flags & TKS_THREAD_RUNNING_AT_END) && run + 1 == thread->n_runs;
  /* Translators: thread, begin, end, duration, activation number, number of activations */
  return g_strdup_printf (_("%s: %.3f → %.3f, %s, activation %u of %u%s"),
                          thread->name ? thread->name : "?",
                          r->begin, r->end, dur, run + 1, thread->n_runs,
                          !at_end ? ""
                          : tks_capture_get_log_end (self->capture, NULL) < tks_capture_get_end (self->capture)
                          ? _(", running when the log ended")
                          : _(", still running at the end of the capture"));
}

static void
update_info (TksTimelineView *self)
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
                                                           effective_tick_hz (self));
      if (s->len > 0)
        g_string_append (s, "   ");
      /* Translators: the measured time between the two markers */
      g_string_append_printf (s, _("Δt = %s"), dur);
    }
  else if (!isnan (self->mark_a))
    {
      if (s->len > 0)
        g_string_append (s, "   ");
      g_string_append_printf (s, _("Marker at %.3f: Shift+click a second point to measure"),
                              self->mark_a);
    }
  set_info (self, g_string_free (s, FALSE));
}

void
tks_timeline_view_clear_marks (TksTimelineView *self)
{
  g_return_if_fail (TKS_IS_TIMELINE_VIEW (self));

  self->mark_a = NAN;
  self->mark_b = NAN;
  self->has_selected = FALSE;
  update_info (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Drawing */

static void
get_fg (TksTimelineView *self,
        GdkRGBA         *fg)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

static gboolean
same_geometry (const TksTimelineGeometry *a,
               const TksTimelineGeometry *b)
{
  return memcmp (a, b, sizeof *a) == 0;
}

static GskRenderNode *
build_static_node (TksTimelineView           *self,
                   const TksTimelineGeometry *g,
                   const GdkRGBA             *fg)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  TksPainter painter;
  GdkRGBA header_bg = *fg;

  tks_painter_init_snapshot (&painter, snapshot, gtk_widget_get_pango_context (GTK_WIDGET (self)));
  painter.fg = *fg;
  painter.dark = (fg->red + fg->green + fg->blue) / 3 > 0.5;

  header_bg.alpha = 0.05;
  painter.fill (&painter, &header_bg, 0, 0, g->left, g->bottom);

  tks_timeline_render_ruler (self->capture, g, &painter);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, g->top, g->left + g->width,
                                                         g->bottom - g->top));
  tks_timeline_render_lanes (self->capture, g, &painter);
  tks_timeline_render_log_end (self->capture, g, &painter);
  tks_timeline_render_gaps (self->capture, g, &painter);
  tks_timeline_render_trigger (self->capture, g, &painter);
  gtk_snapshot_pop (snapshot);
  tks_painter_finish (&painter);

  return gtk_snapshot_free_to_node (snapshot);
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

static void
tks_timeline_view_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  TksTimelineView *self = TKS_TIMELINE_VIEW (widget);
  TksTimelineGeometry g;
  GdkRGBA fg;
  guint i;

  current_geometry (self, &g);
  get_fg (self, &fg);

  if (self->cache == NULL || !same_geometry (&g, &self->cache_geometry) ||
      !gdk_rgba_equal (&fg, &self->cache_fg))
    {
      g_clear_pointer (&self->cache, gsk_render_node_unref);
      self->cache = build_static_node (self, &g, &fg);
      self->cache_geometry = g;
      self->cache_fg = fg;
    }
  if (self->cache != NULL && self->capture != NULL)
    gtk_snapshot_append_node (snapshot, self->cache);

  if (self->capture == NULL)
    {
      g_autoptr(PangoLayout) layout =
        gtk_widget_create_pango_layout (widget, _("No capture: open a file, drop one here, or get new data from a board."));
      GdkRGBA dim = fg;
      int lw, lh;

      dim.alpha = 0.6;
      pango_layout_get_pixel_size (layout, &lw, &lh);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot,
                              &GRAPHENE_POINT_INIT (MAX (0, (gtk_widget_get_width (widget) - lw) / 2),
                                                    MAX (0, (gtk_widget_get_height (widget) - lh) / 2)));
      gtk_snapshot_append_layout (snapshot, layout, &dim);
      gtk_snapshot_restore (snapshot);
      return;
    }

  for (i = 0; i < self->labels->len; i++)
    gtk_widget_snapshot_child (widget, g_ptr_array_index (self->labels, i), snapshot);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, g.top, g.left + g.width,
                                                         g.bottom - g.top));
  if (self->has_hover && self->hover.run >= 0 && self->drag_mode == DRAG_NONE)
    {
      GdkRGBA hover = fg;
      hover.alpha = 0.45;
      draw_run_outline (self, snapshot, &g, &self->hover, &hover, 1);
    }
  if (self->has_selected && self->selected.run >= 0)
    {
      GdkRGBA sel = fg;
      draw_run_outline (self, snapshot, &g, &self->selected, &sel, 2);
    }
  if (!isnan (self->mark_a))
    draw_marker (self, snapshot, &g, self->mark_a, "A");
  if (!isnan (self->mark_b))
    draw_marker (self, snapshot, &g, self->mark_b, "B");
  if (!isnan (self->mark_a) && !isnan (self->mark_b))
    {
      static const GdkRGBA band = { 0.95, 0.55, 0.05, 0.12 };
      double xa = tks_timeline_x_at (&g, MIN (self->mark_a, self->mark_b));
      double xb = tks_timeline_x_at (&g, MAX (self->mark_a, self->mark_b));

      xa = MAX (xa, g.left);
      xb = MIN (xb, g.left + g.width);
      if (xb > xa)
        gtk_snapshot_append_color (snapshot, &band,
                                   &GRAPHENE_RECT_INIT (xa, g.top, xb - xa, g.bottom - g.top));
    }
  if (self->drag_mode == DRAG_RANGE && self->drag_moved)
    {
      GdkRGBA sel = { 0.21, 0.52, 0.89, 0.25 };
      GdkRGBA edge = { 0.21, 0.52, 0.89, 0.9 };
      double a = MAX (g.left, MIN (self->drag_start_x, self->drag_cur_x));
      double b = MIN (g.left + g.width, MAX (self->drag_start_x, self->drag_cur_x));

      gtk_snapshot_append_color (snapshot, &sel,
                                 &GRAPHENE_RECT_INIT (a, g.top, b - a, g.bottom - g.top));
      outline (snapshot, &edge, a, g.top, b - a, g.bottom - g.top, 1);
    }
  gtk_snapshot_pop (snapshot);
}

static void
tks_timeline_view_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  TksTimelineView *self = TKS_TIMELINE_VIEW (widget);
  TksTimelineGeometry g;
  guint i;

  update_content_height (self);
  current_geometry (self, &g);

  /* A new size can bring lanes without a header into view: they get one right after. */
  if (!labels_cover_view (self) && self->labels_idle == 0)
    self->labels_idle = g_idle_add (rebuild_labels_idle, self);

  for (i = 0; i < self->labels->len; i++)
    {
      GtkWidget *label = g_ptr_array_index (self->labels, i);
      double y = tks_timeline_lane_y (&g, self->labels_first + i);
      gboolean visible = y > g.top - g.lane_height / 2 && y < height;

      gtk_widget_set_child_visible (label, visible);
      if (visible)
        {
          int min_h;

          gtk_widget_measure (label, GTK_ORIENTATION_VERTICAL, -1, &min_h, NULL, NULL, NULL);
          gtk_widget_size_allocate (label,
                                    &(GtkAllocation) { 10, (int)y, (int)g.left - 16,
                                                       (int)g.lane_height },
                                    -1);
        }
    }
}

static void
tks_timeline_view_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  TksTimelineView *self = TKS_TIMELINE_VIEW (widget);
  guint i;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = TKS_TIMELINE_HEADER_WIDTH + 100;
      *natural = TKS_TIMELINE_HEADER_WIDTH + 800;
    }
  else
    {
      *minimum = TKS_TIMELINE_RULER_HEIGHT + TKS_TIMELINE_LANE_HEIGHT * 2;
      *natural = TKS_TIMELINE_RULER_HEIGHT + TKS_TIMELINE_LANE_HEIGHT * MAX (4u, n_lanes (self));
    }
  /* children are measured so GTK does not complain; the lanes decide their size */
  for (i = 0; i < self->labels->len; i++)
    gtk_widget_measure (g_ptr_array_index (self->labels, i), orientation, -1,
                        NULL, NULL, NULL, NULL);
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

  current_geometry (self, &g);
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
  update_hover (self);
}

static void
click_at (TksTimelineView *self,
          double           x,
          double           y,
          GdkModifierType  state)
{
  TksTimelineGeometry g;
  TksTimelineHit hit;

  current_geometry (self, &g);
  if (x < g.left)
    return;

  if (state & GDK_SHIFT_MASK)
    {
      double t = x_to_time (self, x);

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

  update_info (self);
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

static gboolean
query_tooltip_cb (GtkWidget       *widget,
                  int              x,
                  int              y,
                  gboolean         keyboard,
                  GtkTooltip      *tooltip,
                  TksTimelineView *self)
{
  TksTimelineGeometry g;
  TksTimelineHit hit;
  const TksThread *thread;
  const TksGap *gap;
  double t, log_end;
  gboolean exited_in_log;
  double tick_hz = effective_tick_hz (self);
  g_autofree char *text = NULL;

  if (keyboard || self->drag_mode != DRAG_NONE)
    return FALSE;
  current_geometry (self, &g);
  if (!tks_timeline_hit_test (self->capture, &g, x, y, &hit))
    return FALSE;
  thread = tks_capture_get_thread (self->capture, hit.thread);
  if (thread == NULL)
    return FALSE;
  t = x_to_time (self, x);
  log_end = tks_capture_get_log_end (self->capture, NULL);
  exited_in_log = (thread->flags & TKS_THREAD_EXITED) &&
                  !(thread->flags & TKS_THREAD_EXITED_AFTER_LOG_END);

  if (hit.run >= 0)
    {
      const TksRun *r = &thread->runs[hit.run];
      g_autofree char *dur = tks_timeline_format_duration (r->end - r->begin, tick_hz);
      gboolean at_end = (thread->flags & TKS_THREAD_RUNNING_AT_END) &&
                        (guint)hit.run + 1 == thread->n_runs;

      text = g_markup_printf_escaped (_("<b>%s</b> (priority %d)\nBegin: %.3f\nEnd: %.3f%s\nDuration: %s\nActivation %d of %u"),
                                      thread->name ? thread->name : "?", thread->priority,
                                      r->begin, r->end,
                                      !at_end ? ""
                                      : log_end < tks_capture_get_end (self->capture)
                                      ? _(" (running when the log ended)")
                                      : _(" (still running at the end of the capture)"),
                                      dur, hit.run + 1, thread->n_runs);
    }
  else if (hit.mark >= 0)
    {
      const TksMark *m = &thread->marks[hit.mark];

      text = g_markup_printf_escaped (m->kind == TKS_MARK_IN
                                      ? _("<b>%s</b> (not logged)\nSwitched in at %.3f")
                                      : _("<b>%s</b> (not logged)\nSwitched out at %.3f"),
                                      thread->name ? thread->name : "?", m->pos);
    }
  else if ((gap = gap_at (self->capture, t)) != NULL)
    text = g_markup_printf_escaped (g_dngettext (GETTEXT_PACKAGE,
                                                 "<b>Not recorded</b>\nThe board did not record %lu switch here while it printed a reply",
                                                 "<b>Not recorded</b>\nThe board did not record %lu switches here while it printed a reply",
                                                 (gulong) gap->dropped),
                                    (gulong) gap->dropped);
  else if (t >= log_end && log_end < tks_capture_get_end (self->capture) &&
           !(exited_in_log && t >= thread->exit_time))
    {
      if (thread->flags & TKS_THREAD_EXITED_AFTER_LOG_END)
        text = g_markup_printf_escaped (_("<b>%s</b>\nThe log ended at %.3f: after it only exits were recorded\n"
                                          "Exited at %.3f (what it did until then is unknown)"),
                                        thread->name ? thread->name : "?", log_end, thread->exit_time);
      else
        text = g_markup_printf_escaped (_("<b>%s</b>\nThe log ended at %.3f: after it only exits were recorded"),
                                        thread->name ? thread->name : "?", log_end);
    }
  else if (isnan (thread->first_event) || t < thread->first_event)
    text = g_markup_printf_escaped (_("<b>%s</b>\nNo data yet: the log holds no event of this thread before this point"),
                                    thread->name ? thread->name : "?");
  else if ((thread->flags & TKS_THREAD_EXITED) && t >= thread->exit_time)
    text = g_markup_printf_escaped (_("<b>%s</b>\nExited at %.3f"),
                                    thread->name ? thread->name : "?", thread->exit_time);
  else
    return FALSE;

  gtk_tooltip_set_markup (tooltip, text);
  return TRUE;
}

/* GObject */

static void
tks_timeline_view_realize (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (tks_timeline_view_parent_class)->realize (widget);
  /* fonts are loaded now rather than in the first frame that shows a capture */
  tks_timeline_warm_up_fonts (gtk_widget_get_pango_context (widget));
}

static void
tks_timeline_view_dispose (GObject *object)
{
  TksTimelineView *self = TKS_TIMELINE_VIEW (object);
  guint i;

  if (self->labels != NULL)
    {
      for (i = 0; i < self->labels->len; i++)
        gtk_widget_unparent (g_ptr_array_index (self->labels, i));
      g_ptr_array_set_size (self->labels, 0);
    }
  g_clear_handle_id (&self->labels_idle, g_source_remove);
  g_clear_signal_handler (&self->viewport_changed_id, self->viewport);
  g_clear_object (&self->viewport);
  g_clear_object (&self->capture);
  g_clear_pointer (&self->cache, gsk_render_node_unref);
  if (self->coverage_cancellable != NULL)
    g_cancellable_cancel (self->coverage_cancellable);
  g_clear_object (&self->coverage_cancellable);

  G_OBJECT_CLASS (tks_timeline_view_parent_class)->dispose (object);
}

static void
tks_timeline_view_finalize (GObject *object)
{
  TksTimelineView *self = TKS_TIMELINE_VIEW (object);

  g_clear_pointer (&self->labels, g_ptr_array_unref);
  g_clear_pointer (&self->info, g_free);

  G_OBJECT_CLASS (tks_timeline_view_parent_class)->finalize (object);
}

static void
tks_timeline_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TksTimelineView *self = TKS_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_CAPTURE:
      g_value_set_object (value, self->capture);
      break;

    case PROP_VIEWPORT:
      g_value_set_object (value, self->viewport);
      break;

    case PROP_TICK_HZ:
      g_value_set_double (value, self->tick_hz);
      break;

    case PROP_INFO:
      g_value_set_string (value, self->info);
      break;

    case PROP_ALL_LANES:
      g_value_set_boolean (value, self->all_lanes);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_timeline_view_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  TksTimelineView *self = TKS_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_CAPTURE:
      tks_timeline_view_set_capture (self, g_value_get_object (value));
      break;

    case PROP_VIEWPORT:
      tks_timeline_view_set_viewport (self, g_value_get_object (value));
      break;

    case PROP_TICK_HZ:
      tks_timeline_view_set_tick_hz (self, g_value_get_double (value));
      break;

    case PROP_ALL_LANES:
      tks_timeline_view_set_all_lanes (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_timeline_view_class_init (TksTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tks_timeline_view_dispose;
  object_class->finalize = tks_timeline_view_finalize;
  object_class->get_property = tks_timeline_view_get_property;
  object_class->set_property = tks_timeline_view_set_property;

  widget_class->snapshot = tks_timeline_view_snapshot;
  widget_class->realize = tks_timeline_view_realize;
  widget_class->size_allocate = tks_timeline_view_size_allocate;
  widget_class->measure = tks_timeline_view_measure;

  properties[PROP_CAPTURE] =
    g_param_spec_object ("capture", NULL, NULL, TKS_TYPE_CAPTURE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VIEWPORT] =
    g_param_spec_object ("viewport", NULL, NULL, TKS_TYPE_VIEWPORT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TICK_HZ] =
    g_param_spec_double ("tick-hz", NULL, NULL, 0, G_MAXDOUBLE, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ALL_LANES] =
    g_param_spec_boolean ("all-lanes", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_INFO] =
    g_param_spec_string ("info", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tks_timeline_view_init (TksTimelineView *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  self->labels = g_ptr_array_new ();
  self->mark_a = NAN;
  self->mark_b = NAN;

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline"),
                                  -1);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);

  tks_timeline_view_set_viewport (self, NULL);

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

GtkWidget *
tks_timeline_view_new (void)
{
  return g_object_new (TKS_TYPE_TIMELINE_VIEW, NULL);
}

TksCapture *
tks_timeline_view_get_capture (TksTimelineView *self)
{
  g_return_val_if_fail (TKS_IS_TIMELINE_VIEW (self), NULL);
  return self->capture;
}

static void
coverage_thread (GTask        *task,
                 gpointer      source,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  g_task_return_pointer (task, tks_coverage_new (task_data), (GDestroyNotify) tks_coverage_free);
}

static void
coverage_done_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  TksTimelineView *self = TKS_TIMELINE_VIEW (source);
  TksCapture *capture = g_task_get_task_data (G_TASK (result));
  g_autoptr(TksCoverage) coverage = g_task_propagate_pointer (G_TASK (result), NULL);

  if (coverage == NULL || tks_coverage_get (capture) != NULL)
    return;
  tks_coverage_attach (capture, g_steal_pointer (&coverage));
  if (capture == self->capture)
    invalidate (self);
}

/* Busy threads get coverage summaries, built off the draw path; until they arrive, frames
 * are drawn from the runs themselves. */
static void
start_coverage (TksTimelineView *self)
{
  g_autoptr(GTask) task = NULL;

  if (self->coverage_cancellable != NULL)
    g_cancellable_cancel (self->coverage_cancellable);
  g_clear_object (&self->coverage_cancellable);
  if (self->capture == NULL || tks_coverage_get (self->capture) != NULL)
    return;
  self->coverage_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->coverage_cancellable, coverage_done_cb, NULL);
  g_task_set_source_tag (task, start_coverage);
  g_task_set_task_data (task, g_object_ref (self->capture), g_object_unref);
  g_task_run_in_thread (task, coverage_thread);
}

void
tks_timeline_view_set_capture (TksTimelineView *self,
                               TksCapture      *capture)
{
  g_return_if_fail (TKS_IS_TIMELINE_VIEW (self));
  g_return_if_fail (capture == NULL || TKS_IS_CAPTURE (capture));

  if (!g_set_object (&self->capture, capture))
    return;

  self->has_hover = FALSE;
  self->has_selected = FALSE;
  self->mark_a = NAN;
  self->mark_b = NAN;
  rebuild_labels (self);
  update_content_height (self);
  update_info (self);
  invalidate (self);
  start_coverage (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAPTURE]);
}

TksViewport *
tks_timeline_view_get_viewport (TksTimelineView *self)
{
  g_return_val_if_fail (TKS_IS_TIMELINE_VIEW (self), NULL);
  return self->viewport;
}

void
tks_timeline_view_set_viewport (TksTimelineView *self,
                                TksViewport     *viewport)
{
  g_autoptr(TksViewport) owned = NULL;

  g_return_if_fail (TKS_IS_TIMELINE_VIEW (self));

  if (viewport == NULL)
    viewport = owned = tks_viewport_new ();
  if (viewport == self->viewport)
    return;

  g_clear_signal_handler (&self->viewport_changed_id, self->viewport);
  g_set_object (&self->viewport, viewport);
  self->viewport_changed_id = g_signal_connect_object (viewport, "changed",
                                                       G_CALLBACK (viewport_changed_cb), self,
                                                       G_CONNECT_SWAPPED);
  update_content_height (self);
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEWPORT]);
}

double
tks_timeline_view_get_tick_hz (TksTimelineView *self)
{
  g_return_val_if_fail (TKS_IS_TIMELINE_VIEW (self), 0);
  return self->tick_hz;
}

void
tks_timeline_view_set_tick_hz (TksTimelineView *self,
                               double           tick_hz)
{
  g_return_if_fail (TKS_IS_TIMELINE_VIEW (self));

  if (self->tick_hz == tick_hz)
    return;
  self->tick_hz = tick_hz;
  update_info (self);
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TICK_HZ]);
}

gboolean
tks_timeline_view_get_all_lanes (TksTimelineView *self)
{
  g_return_val_if_fail (TKS_IS_TIMELINE_VIEW (self), FALSE);
  return self->all_lanes;
}

/* Whether the lanes of threads that exited before the log begins are shown. */
void
tks_timeline_view_set_all_lanes (TksTimelineView *self,
                                 gboolean         all_lanes)
{
  g_return_if_fail (TKS_IS_TIMELINE_VIEW (self));

  all_lanes = !!all_lanes;
  if (self->all_lanes == all_lanes)
    return;
  self->all_lanes = all_lanes;
  self->has_hover = FALSE;
  self->has_selected = FALSE;
  rebuild_labels (self);
  update_content_height (self);
  invalidate (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ALL_LANES]);
}

const char *
tks_timeline_view_get_info (TksTimelineView *self)
{
  g_return_val_if_fail (TKS_IS_TIMELINE_VIEW (self), NULL);
  return self->info;
}

gboolean
tks_timeline_view_get_visible_lanes (TksTimelineView *self,
                                     double          *first,
                                     double          *last)
{
  TksTimelineGeometry g;
  double n = n_lanes (self);

  g_return_val_if_fail (TKS_IS_TIMELINE_VIEW (self), FALSE);

  if (n == 0)
    return FALSE;
  current_geometry (self, &g);
  *first = CLAMP (g.v_offset / g.lane_height, 0, n);
  *last = CLAMP ((g.v_offset + g.bottom - g.top) / g.lane_height, *first, n);
  return TRUE;
}
