/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The timeline's image: the ruler, lanes, events and trigger as a render node, kept while
 * what it shows stays, drawn again at once or, for a new capture, by a worker while the
 * previous image stays; and the coverage summaries that make it fast, built by a worker. */
#include "config.h"

#include "tks-coverage.h"
#include "tks-timeline-view-private.h"

static gboolean
same_geometry (const TksTimelineGeometry *a,
               const TksTimelineGeometry *b)
{
  return memcmp (a, b, sizeof *a) == 0;
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

static TksTimelineImage *
image_new (TksTimelineView           *self,
           const TksTimelineGeometry *g,
           const GdkRGBA             *fg)
{
  int width, height, scale;

  image_size (self, &width, &height, &scale);
  return tks_timeline_image_new (self->capture, g, self->coverage, fg,
                                 gtk_widget_get_pango_context (GTK_WIDGET (self)),
                                 width, height, scale);
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
  guint               builds;
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
             const GdkRGBA             *fg)
{
  Drawing *d = g_new0 (Drawing, 1);

  d->image = image_new (self, g, fg);
  d->g = *g;
  d->fg = *fg;
  image_size (self, &d->width, &d->height, &d->scale);
  d->content = self->content_serial;
  d->change = self->change_serial;
  d->builds = self->cache_builds;
  return d;
}

static void
take_drawing (TksTimelineView *self,
              Drawing         *d)
{
  g_clear_pointer (&self->cache, gsk_render_node_unref);
  self->cache = tks_timeline_image_to_node (d->image, GTK_WIDGET (self));
  self->cache_geometry = d->g;
  self->cache_fg = d->fg;
  self->cache_width = d->width;
  self->cache_height = d->height;
  self->cache_scale = d->scale;
  self->cache_content = d->content;
  self->cache_change = d->change;
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
  /* dropped when the widget drew another image meanwhile (a change of the view by the user),
   * or has no capture any more */
  if (g_task_propagate_boolean (G_TASK (result), NULL) && self->capture != NULL &&
      d->builds == self->cache_builds)
    take_drawing (self, d);
  /* another drawing is started there if this one is out of date already */
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Makes the cache show the widget as it is: at once, or for a new capture (or its coverage)
 * at the size of the image shown, in a worker while that image stays. */
void
_tks_timeline_view_update_cache (TksTimelineView           *self,
                                 const TksTimelineGeometry *g,
                                 const GdkRGBA             *fg)
{
  int width, height, scale;
  gboolean same_size;
  Drawing *d;

  image_size (self, &width, &height, &scale);
  same_size = self->cache != NULL && width == self->cache_width && height == self->cache_height &&
              scale == self->cache_scale && gdk_rgba_equal (fg, &self->cache_fg);
  if (same_size && same_geometry (g, &self->cache_geometry) &&
      self->cache_content == self->content_serial && self->cache_change == self->change_serial)
    return;
  if (width <= 0 || height <= 0)
    return;
  if (same_size && self->cache_content != self->content_serial)
    {
      g_autoptr(GTask) task = NULL;

      if (self->drawing)
        return;
      self->drawing = TRUE;
      task = g_task_new (self, NULL, drawing_done_cb, NULL);
      g_task_set_source_tag (task, _tks_timeline_view_update_cache);
      g_task_set_task_data (task, drawing_new (self, g, fg), (GDestroyNotify) drawing_free);
      tks_task_run_after_frame (task, drawing_thread);
      return;
    }
  d = drawing_new (self, g, fg);
  tks_timeline_image_draw (d->image);
  take_drawing (self, d);
  drawing_free (d);
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
