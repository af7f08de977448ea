/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The timeline's image: the ruler, lanes, events and trigger as a render node, kept while
 * what it shows stays. A new range, scroll or capture of the same lanes is drawn by a worker
 * while the image shown stays, moved and stretched to the range asked for, so that no frame
 * waits for a drawing; other lanes (a new capture's, a new order) are drawn at once, so that
 * the bars never show under the names of other lanes. The images are drawn into the same few
 * surfaces again and again. And the coverage summaries that make it fast, built by a worker. */
#include "config.h"

#include "tks-coverage.h"
#include "tks-timeline-view-private.h"

static gboolean
same_geometry (const TksTimelineGeometry *a,
               const TksTimelineGeometry *b)
{
  return memcmp (a, b, sizeof *a) == 0;
}

/* Whether @b shows what @a does but for its time range and vertical scroll. */
static gboolean
only_moved (const TksTimelineGeometry *a,
            const TksTimelineGeometry *b)
{
  TksTimelineGeometry c = *b;

  c.x0 = a->x0;
  c.x1 = a->x1;
  c.v_offset = a->v_offset;
  return same_geometry (a, &c) && a->x1 > a->x0 && b->x1 > b->x0;
}

/* The image's size: the widget's, in its pixels. */
static void
image_size (TksTimelineView *self,
            int             *width,
            int             *height,
            int             *scale)
{
  *width = gtk_widget_get_width (GTK_WIDGET (self));
  *height = gtk_widget_get_height (GTK_WIDGET (self));
  *scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
}

/* A surface of the widget's size that no image shown (or still in the renderer's last frame)
 * holds, drawn into before: its pages are at hand. When there is none: with @create, a new one
 * in a free slot; else (or when all slots are taken) NULL, the image then getting one of its
 * own where it is drawn, which keep_surface() may keep. */
static cairo_surface_t *
spare_surface (TksTimelineView *self,
               int              width,
               int              height,
               int              scale,
               gboolean         create)
{
  cairo_surface_t **free_slot = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (self->surfaces); i++)
    {
      cairo_surface_t *s = self->surfaces[i];

      if (s != NULL && cairo_surface_get_reference_count (s) > 1)
        continue;
      if (s != NULL && cairo_image_surface_get_width (s) == width * scale &&
          cairo_image_surface_get_height (s) == height * scale)
        {
          double sx, sy;

          cairo_surface_get_device_scale (s, &sx, &sy);
          if (sx == scale)
            return s;
        }
      if (free_slot == NULL)
        free_slot = &self->surfaces[i];
    }
  if (free_slot == NULL || !create)
    return NULL;
  /* one of another size, or none yet */
  g_clear_pointer (free_slot, cairo_surface_destroy);
  *free_slot = tks_timeline_image_surface_new (width, height, scale);
  return *free_slot;
}

/* Keeps @surface, which a worker's image got for itself, to draw into again: in an empty slot,
 * or in place of one of another size that nothing holds. */
static void
keep_surface (TksTimelineView *self,
              cairo_surface_t *surface)
{
  cairo_surface_t **slot = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (self->surfaces); i++)
    {
      cairo_surface_t *s = self->surfaces[i];

      if (s == surface)
        return;
      if (s == NULL)
        slot = &self->surfaces[i];
      else if (slot == NULL && cairo_surface_get_reference_count (s) == 1)
        slot = &self->surfaces[i];
    }
  if (slot == NULL)
    return;
  g_clear_pointer (slot, cairo_surface_destroy);
  *slot = cairo_surface_reference (surface);
}

/* A new image of @g. A worker's (@in_worker) gets a new surface where it is drawn rather than
 * here: the system's pages for it are given off the main thread. */
static TksTimelineImage *
image_new (TksTimelineView           *self,
           const TksTimelineGeometry *g,
           const GdkRGBA             *fg,
           gboolean                   in_worker)
{
  int width, height, scale;
  TksTimelineImage *image;
  cairo_surface_t *surface;

  image_size (self, &width, &height, &scale);
  image = tks_timeline_image_new (self->capture, g, self->coverage, fg,
                                  gtk_widget_get_pango_context (GTK_WIDGET (self)),
                                  width, height, scale);
  surface = spare_surface (self, width, height, scale, !in_worker);
  if (surface != NULL)
    tks_timeline_image_set_surface (image, surface);
  return image;
}

/* What a drawing was made for, to tell whether it is still what the widget shows. */
typedef struct
{
  TksTimelineImage   *image;
  TksTimelineGeometry g;
  GdkRGBA             fg;
  int                 width, height, scale;
  guint               content;
  guint               change;
  guint               lanes;
  guint               builds;
  gconstpointer       capture;
} Drawing;

static void
drawing_free (Drawing *d)
{
  tks_timeline_image_free (d->image);
  g_free (d);
}

static Drawing *
drawing_new (TksTimelineView           *self,
             const TksTimelineGeometry *g,
             const GdkRGBA             *fg,
             gboolean                   in_worker)
{
  Drawing *d = g_new0 (Drawing, 1);

  d->image = image_new (self, g, fg, in_worker);
  d->g = *g;
  d->fg = *fg;
  image_size (self, &d->width, &d->height, &d->scale);
  d->content = self->content_serial;
  d->change = self->change_serial;
  d->lanes = self->lanes_serial;
  d->builds = self->cache_builds;
  d->capture = self->capture;
  return d;
}

static void
take_drawing (TksTimelineView *self,
              Drawing         *d)
{
  g_clear_pointer (&self->cache, gsk_render_node_unref);
  g_clear_pointer (&self->cache_surface, cairo_surface_destroy);
  self->cache = tks_timeline_image_to_node (d->image, GTK_WIDGET (self));
  self->cache_surface = cairo_surface_reference (tks_timeline_image_get_surface (d->image));
  self->cache_geometry = d->g;
  self->cache_fg = d->fg;
  self->cache_width = d->width;
  self->cache_height = d->height;
  self->cache_scale = d->scale;
  self->cache_content = d->content;
  self->cache_change = d->change;
  self->cache_lanes = d->lanes;
  self->cache_capture = d->capture;
  self->cache_builds++;
}

static void
drawing_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Drawing *d = task_data;

  tks_timeline_image_draw (d->image);
  g_task_return_boolean (task, TRUE);
}

static void
drawing_done_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  TksTimelineView *self = TKS_TIMELINE_VIEW (source);
  Drawing *d = g_task_get_task_data (G_TASK (result));

  self->drawing = FALSE;
  /* dropped when the widget drew another image meanwhile (at another size, or of other
   * lanes), when its lanes are no longer those shown, or without a capture any more */
  if (g_task_propagate_boolean (G_TASK (result), NULL) && self->capture != NULL &&
      d->builds == self->cache_builds && d->lanes == self->lanes_serial)
    {
      take_drawing (self, d);
      keep_surface (self, self->cache_surface);
    }
  /* another drawing is started there if this one is out of date already */
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Whether the image shown may stand for the one of @g while a worker draws that: an image of
 * the same lanes, at the size and colour of the widget, of the content shown in another range
 * or scroll, or of the content before (a recording's next stretch, shown as it was). */
static gboolean
can_stand_in (TksTimelineView           *self,
              const TksTimelineGeometry *g,
              const GdkRGBA             *fg)
{
  int width, height, scale;

  image_size (self, &width, &height, &scale);
  if (self->cache == NULL || width != self->cache_width || height != self->cache_height ||
      scale != self->cache_scale || !gdk_rgba_equal (fg, &self->cache_fg) ||
      self->cache_lanes != self->lanes_serial)
    return FALSE;
  return self->cache_content != self->content_serial || only_moved (&self->cache_geometry, g);
}

/* Makes the cache show the widget as it is: at once, or in a worker while the image shown
 * stands in for it (can_stand_in()). */
void
_tks_timeline_view_update_cache (TksTimelineView           *self,
                                 const TksTimelineGeometry *g,
                                 const GdkRGBA             *fg)
{
  int width, height, scale;
  Drawing *d;

  image_size (self, &width, &height, &scale);
  if (self->cache != NULL && width == self->cache_width && height == self->cache_height &&
      scale == self->cache_scale && gdk_rgba_equal (fg, &self->cache_fg) &&
      same_geometry (g, &self->cache_geometry) && self->cache_content == self->content_serial &&
      self->cache_change == self->change_serial && self->cache_lanes == self->lanes_serial)
    return;
  if (width <= 0 || height <= 0)
    return;
  if (can_stand_in (self, g, fg))
    {
      g_autoptr(GTask) task = NULL;

      if (self->drawing)
        return;
      self->drawing = TRUE;
      task = g_task_new (self, NULL, drawing_done_cb, NULL);
      g_task_set_source_tag (task, _tks_timeline_view_update_cache);
      g_task_set_task_data (task, drawing_new (self, g, fg, TRUE), (GDestroyNotify) drawing_free);
      tks_task_run_after_frame (task, drawing_thread);
      return;
    }
  d = drawing_new (self, g, fg, FALSE);
  tks_timeline_image_draw (d->image);
  take_drawing (self, d);
  drawing_free (d);
}

static gboolean
cairo_renderer (GtkWidget *widget)
{
  GtkNative *native = gtk_widget_get_native (widget);
  GskRenderer *renderer = native != NULL ? gtk_native_get_renderer (native) : NULL;

  return renderer == NULL || GSK_IS_CAIRO_RENDERER (renderer);
}

/* The image moved and stretched for the cairo renderer: a drawing of its own with the nearest
 * pixel's colour, which the renderer paints in a few ms where its default filter (a box filter
 * to shrink) takes tens. Only for a frame or two, until the worker's image comes. */
static void
append_moved_cairo (TksTimelineView           *self,
                    GtkSnapshot               *snapshot,
                    const TksTimelineGeometry *g,
                    double                     k,
                    double                     dx,
                    double                     dy)
{
  static const cairo_user_data_key_t image_key;
  GskRenderNode *node = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (0, 0, self->cache_width,
                                                                 self->cache_height));
  cairo_t *cr = gsk_cairo_node_get_draw_context (node);

  /* the headers' shade as it is, the ruler along the time only, the lanes along both */
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, g->left, self->cache_height);
  cairo_clip (cr);
  cairo_set_source_surface (cr, self->cache_surface, 0, 0);
  cairo_paint (cr);
  cairo_restore (cr);
  for (guint part = 0; part < 2; part++)
    {
      double top = part == 0 ? 0 : g->top;
      double bottom = part == 0 ? g->top : g->bottom;

      if (bottom <= top)
        continue;
      cairo_save (cr);
      cairo_rectangle (cr, g->left, top, g->width, bottom - top);
      cairo_clip (cr);
      cairo_translate (cr, g->left + dx, part == 0 ? 0 : dy);
      cairo_scale (cr, k, 1);
      cairo_translate (cr, -g->left, 0);
      cairo_set_source_surface (cr, self->cache_surface, 0, 0);
      cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_FAST);
      cairo_paint (cr);
      cairo_restore (cr);
    }
  cairo_destroy (cr);
  /* the image lives as long as the drawing of it (else cairo would copy it) */
  cairo_surface_set_user_data (gsk_cairo_node_get_surface (node), &image_key,
                               cairo_surface_reference (self->cache_surface),
                               (cairo_destroy_func_t) cairo_surface_destroy);
  gtk_snapshot_append_node (snapshot, node);
  gsk_render_node_unref (node);
}

void
_tks_timeline_view_append_cache (TksTimelineView           *self,
                                 GtkSnapshot               *snapshot,
                                 const TksTimelineGeometry *g)
{
  const TksTimelineGeometry *c = &self->cache_geometry;
  double k, dx, dy;

  if (self->cache == NULL)
    return;
  if (self->cache_content != self->content_serial || !only_moved (c, g) ||
      (c->x0 == g->x0 && c->x1 == g->x1 && c->v_offset == g->v_offset))
    {
      gtk_snapshot_append_node (snapshot, self->cache);
      return;
    }

  /* a time t at left + (t - x0) * scale in the image is at left + (t - g->x0) * g's scale */
  k = (c->x1 - c->x0) / (g->x1 - g->x0);
  dx = (c->x0 - g->x0) * g->width / (g->x1 - g->x0);
  dy = c->v_offset - g->v_offset;
  if (cairo_renderer (GTK_WIDGET (self)))
    {
      append_moved_cairo (self, snapshot, g, k, dx, dy);
      return;
    }
  /* the headers' shade as it is */
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, g->left, self->cache_height));
  gtk_snapshot_append_node (snapshot, self->cache);
  gtk_snapshot_pop (snapshot);
  /* the ruler along the time only, the lanes along both */
  for (guint part = 0; part < 2; part++)
    {
      double top = part == 0 ? 0 : g->top;
      double bottom = part == 0 ? g->top : g->bottom;

      if (bottom <= top)
        continue;
      gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (g->left, top, g->width, bottom - top));
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (g->left + dx, part == 0 ? 0 : dy));
      gtk_snapshot_scale (snapshot, k, 1);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (-g->left, 0));
      gtk_snapshot_append_node (snapshot, self->cache);
      gtk_snapshot_restore (snapshot);
      gtk_snapshot_pop (snapshot);
    }
}

void
_tks_timeline_view_drop_image (TksTimelineView *self)
{
  g_clear_pointer (&self->cache, gsk_render_node_unref);
  g_clear_pointer (&self->cache_surface, cairo_surface_destroy);
  self->cache_builds++;
}

void
_tks_timeline_view_clear_cache (TksTimelineView *self)
{
  _tks_timeline_view_drop_image (self);
  for (guint i = 0; i < G_N_ELEMENTS (self->surfaces); i++)
    g_clear_pointer (&self->surfaces[i], cairo_surface_destroy);
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

  if (coverage == NULL || capture != self->capture || self->coverage != NULL)
    return;
  self->coverage = tks_coverage_ref_new (g_steal_pointer (&coverage));
  /* the same drawing, faster: drawn again off the main thread like a new capture */
  self->content_serial++;
  _tks_timeline_view_invalidate (self);
}

/* Busy threads get coverage summaries, built off the draw path; until they arrive, frames
 * are drawn from the runs themselves. */
void
_tks_timeline_view_start_coverage (TksTimelineView *self)
{
  g_autoptr(GTask) task = NULL;

  if (self->coverage_cancellable != NULL)
    g_cancellable_cancel (self->coverage_cancellable);
  g_clear_object (&self->coverage_cancellable);
  g_clear_pointer (&self->coverage, tks_coverage_ref_unref);
  if (self->capture == NULL)
    return;
  self->coverage_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->coverage_cancellable, coverage_done_cb, NULL);
  g_task_set_source_tag (task, _tks_timeline_view_start_coverage);
  g_task_set_task_data (task, g_object_ref (self->capture), g_object_unref);
  g_task_run_in_thread (task, coverage_thread);
}
