/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <pango/pangocairo.h>

#include "tks-timeline-events.h"
#include "tks-timeline-image.h"

struct _TksCoverageRef
{
  gatomicrefcount  ref;
  TksCoverage     *coverage;
};

TksCoverageRef *
tks_coverage_ref_new (TksCoverage *coverage)
{
  TksCoverageRef *ref = g_new (TksCoverageRef, 1);

  g_atomic_ref_count_init (&ref->ref);
  ref->coverage = coverage;
  return ref;
}

TksCoverageRef *
tks_coverage_ref_ref (TksCoverageRef *ref)
{
  g_atomic_ref_count_inc (&ref->ref);
  return ref;
}

void
tks_coverage_ref_unref (TksCoverageRef *ref)
{
  if (ref != NULL && g_atomic_ref_count_dec (&ref->ref))
    {
      tks_coverage_free (ref->coverage);
      g_free (ref);
    }
}

const TksCoverage *
tks_coverage_ref_get (TksCoverageRef *ref)
{
  return ref != NULL ? ref->coverage : NULL;
}

struct _TksTimelineImage
{
  TksCapture           *capture;
  TksTimelineGeometry   g;          /* its lanes and coverage: those below */
  TksLane              *lanes;
  TksCoverageRef       *coverage;
  GdkRGBA               fg;
  PangoFontDescription *font;
  PangoLanguage        *language;
  double                resolution;
  cairo_font_options_t *font_options;
  int                   width, height, scale;
  cairo_surface_t      *surface;
  gboolean              drawn;
};

TksTimelineImage *
tks_timeline_image_new (TksCapture                *capture,
                        const TksTimelineGeometry *geometry,
                        TksCoverageRef            *coverage,
                        const GdkRGBA             *fg,
                        PangoContext              *like,
                        int                        width,
                        int                        height,
                        int                        scale)
{
  TksTimelineImage *image = g_new0 (TksTimelineImage, 1);
  const cairo_font_options_t *options = pango_cairo_context_get_font_options (like);

  g_return_val_if_fail (tks_coverage_ref_get (coverage) == geometry->coverage, image);

  image->capture = capture != NULL ? g_object_ref (capture) : NULL;
  image->g = *geometry;
  /* the lanes are the threads panel's, which the next capture changes: a copy of their
   * threads (the rows are only the headers', not drawn here) */
  if (geometry->lanes != NULL)
    {
      image->lanes = g_new0 (TksLane, MAX (1, geometry->n_lanes));
      for (guint l = 0; l < geometry->n_lanes; l++)
        {
          image->lanes[l].threads = g_memdup2 (geometry->lanes[l].threads,
                                               geometry->lanes[l].n_threads * sizeof (guint));
          image->lanes[l].n_threads = geometry->lanes[l].n_threads;
        }
      image->g.lanes = image->lanes;
    }
  image->coverage = coverage != NULL ? tks_coverage_ref_ref (coverage) : NULL;
  image->fg = *fg;
  image->font = pango_font_description_copy (pango_context_get_font_description (like));
  image->language = pango_context_get_language (like);
  image->resolution = pango_cairo_context_get_resolution (like);
  image->font_options = options != NULL ? cairo_font_options_copy (options) : NULL;
  image->width = width;
  image->height = height;
  image->scale = scale;
  return image;
}

void
tks_timeline_image_set_surface (TksTimelineImage *image,
                                cairo_surface_t  *surface)
{
  double sx = 0, sy = 0;

  g_return_if_fail (!image->drawn && image->surface == NULL);
  g_return_if_fail (cairo_image_surface_get_format (surface) == CAIRO_FORMAT_ARGB32);
  g_return_if_fail (cairo_image_surface_get_width (surface) == image->width * image->scale);
  g_return_if_fail (cairo_image_surface_get_height (surface) == image->height * image->scale);
  cairo_surface_get_device_scale (surface, &sx, &sy);
  g_return_if_fail (sx == image->scale && sy == image->scale);

  image->surface = cairo_surface_reference (surface);
}

void
tks_timeline_image_free (TksTimelineImage *image)
{
  if (image == NULL)
    return;
  g_clear_object (&image->capture);
  if (image->lanes != NULL)
    for (guint l = 0; l < image->g.n_lanes; l++)
      g_free ((gpointer) image->lanes[l].threads);
  g_free (image->lanes);
  tks_coverage_ref_unref (image->coverage);
  pango_font_description_free (image->font);
  g_clear_pointer (&image->font_options, cairo_font_options_destroy);
  g_clear_pointer (&image->surface, cairo_surface_destroy);
  g_free (image);
}

/* An image's memory, its pages given by the system at once (MAP_POPULATE) rather than one
 * page fault for each 4 KiB page on its first drawing (a 1920x1080 image: 2,025 of them, each
 * a trap into the system that costs a virtual machine tens of µs), and in huge pages where the
 * system has them. */
typedef struct
{
  void *data;
  gsize size;
} Pixels;

static void
pixels_free (gpointer data)
{
  Pixels *p = data;

  munmap (p->data, p->size);
  g_free (p);
}

cairo_surface_t *
tks_timeline_image_surface_new (int width,
                                int height,
                                int scale)
{
  static const cairo_user_data_key_t pixels_key;
  int stride = cairo_format_stride_for_width (CAIRO_FORMAT_ARGB32, width * scale);
  gsize size = (gsize) stride * height * scale;
  cairo_surface_t *surface = NULL;
  void *data = MAP_FAILED;

#ifdef MAP_POPULATE
  if (size > 0)
    data = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
                 -1, 0);
#endif
  if (data == MAP_FAILED)
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
  else
    {
      Pixels *p = g_new (Pixels, 1);

#ifdef MADV_HUGEPAGE
      madvise (data, size, MADV_HUGEPAGE);
#endif
      p->data = data;
      p->size = size;
      surface = cairo_image_surface_create_for_data (data, CAIRO_FORMAT_ARGB32, width * scale,
                                                     height * scale, stride);
      cairo_surface_set_user_data (surface, &pixels_key, p, pixels_free);
    }
  cairo_surface_set_device_scale (surface, scale, scale);
  return surface;
}

/* Pango's objects are not shared between threads: the images are drawn with a font map of
 * their own, one image at a time. */
static GMutex draw_lock;
static PangoFontMap *draw_font_map;

void
tks_timeline_image_draw (TksTimelineImage *image)
{
  const TksTimelineGeometry *g = &image->g;
  PangoContext *pango;
  GdkRGBA header_bg = image->fg;
  TksPainter painter;
  cairo_t *cr;

  g_return_if_fail (!image->drawn);

  image->drawn = TRUE;
  if (image->surface == NULL)
    image->surface = tks_timeline_image_surface_new (image->width, image->height, image->scale);
  cr = cairo_create (image->surface);
  cairo_set_operator (cr, CAIRO_OPERATOR_CLEAR);
  cairo_paint (cr);
  cairo_set_operator (cr, CAIRO_OPERATOR_OVER);

  g_mutex_lock (&draw_lock);
  if (draw_font_map == NULL)
    draw_font_map = pango_cairo_font_map_new ();
  pango = pango_font_map_create_context (draw_font_map);
  pango_context_set_font_description (pango, image->font);
  pango_context_set_language (pango, image->language);
  pango_cairo_context_set_resolution (pango, image->resolution);
  if (image->font_options != NULL)
    pango_cairo_context_set_font_options (pango, image->font_options);

  tks_painter_init_image (&painter, cr, image->surface, pango);
  painter.fg = image->fg;
  painter.dark = (image->fg.red + image->fg.green + image->fg.blue) / 3 > 0.5;

  header_bg.alpha = 0.05;
  painter.fill (&painter, &header_bg, 0, 0, g->left, g->bottom);
  tks_timeline_render_ruler (image->capture, g, &painter);
  tks_painter_clip (&painter, 0, g->top, g->left + g->width, g->bottom - g->top);
  tks_timeline_render_lanes (image->capture, g, &painter);
  tks_timeline_render_events (image->capture, g, &painter);
  tks_timeline_render_log_end (image->capture, g, &painter);
  tks_timeline_render_gaps (image->capture, g, &painter);
  tks_timeline_render_trigger (image->capture, g, &painter);
  tks_painter_finish (&painter);
  g_clear_object (&pango);
  g_mutex_unlock (&draw_lock);

  cairo_destroy (cr);
  cairo_surface_flush (image->surface);
}

void
tks_overview_geometry (TksCapture          *capture,
                       double               x0,
                       double               x1,
                       int                  width,
                       int                  height,
                       TksTimelineGeometry *g)
{
  guint n = 0;

  memset (g, 0, sizeof *g);   /* the overview has no event lanes, and a ruler in ticks */
  if (capture != NULL)
    tks_capture_get_shown_lanes (capture, FALSE, &n);
  g->x0 = x0;
  g->x1 = x1 > x0 ? x1 : x0 + 1;
  g->left = TKS_TIMELINE_HEADER_WIDTH;
  g->width = MAX (1, width - TKS_TIMELINE_HEADER_WIDTH);
  g->top = 2;
  g->bottom = height - 2;
  g->lane_height = n > 0 ? MAX (1.0, (height - 4.0) / n) : 1;
}

cairo_surface_t *
tks_overview_image_draw (TksCapture                *capture,
                         const TksTimelineGeometry *g,
                         const GdkRGBA             *fg,
                         int                        width,
                         int                        height,
                         int                        scale)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale,
                                                         height * scale);
  cairo_t *cr;
  TksPainter painter;

  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  tks_painter_init_cairo (&painter, cr, NULL);
  painter.fg = *fg;
  tks_timeline_render_lanes (capture, g, &painter);
  tks_timeline_render_log_end (capture, g, &painter);
  tks_timeline_render_trigger (capture, g, &painter);
  tks_painter_finish (&painter);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

typedef struct
{
  GTask          *task;
  GTaskThreadFunc func;
} Deferred;

static gboolean
deferred_run (gpointer data)
{
  Deferred *d = data;

  g_task_run_in_thread (d->task, d->func);
  g_object_unref (d->task);
  g_free (d);
  return G_SOURCE_REMOVE;
}

void
tks_task_run_after_frame (GTask          *task,
                          GTaskThreadFunc func)
{
  Deferred *d = g_new (Deferred, 1);

  d->task = g_object_ref (task);
  d->func = func;
  /* the frame clock paints at GDK_PRIORITY_REDRAW, in one dispatch: a source of a lower
   * priority added during the frame runs after it */
  g_idle_add_full (GDK_PRIORITY_REDRAW + 10, deferred_run, d, NULL);
}

static const cairo_user_data_key_t image_key;

GskRenderNode *
tks_timeline_surface_node (GtkWidget       *widget,
                           cairo_surface_t *surface,
                           int              width,
                           int              height)
{
  GtkNative *native = gtk_widget_get_native (widget);
  GskRenderer *renderer = native != NULL ? gtk_native_get_renderer (native) : NULL;
  GskRenderNode *node;
  cairo_t *cr;

  if (renderer != NULL && !GSK_IS_CAIRO_RENDERER (renderer))
    {
      /* GL or Vulkan: a texture, uploaded once */
      int stride = cairo_image_surface_get_stride (surface);
      int w = cairo_image_surface_get_width (surface), h = cairo_image_surface_get_height (surface);
      g_autoptr(GBytes) pixels = NULL;
      g_autoptr(GdkTexture) texture = NULL;

      /* cairo's ARGB32 is GDK's default memory format (premultiplied, native order) */
      pixels = g_bytes_new_with_free_func (cairo_image_surface_get_data (surface), (gsize) stride * h,
                                           (GDestroyNotify) cairo_surface_destroy,
                                           cairo_surface_reference (surface));
      texture = gdk_memory_texture_new (w, h, GDK_MEMORY_DEFAULT, pixels, stride);
      return gsk_texture_node_new (texture, &GRAPHENE_RECT_INIT (0, 0, width, height));
    }

  /* The cairo renderer converts a texture's every pixel at each frame: a cairo node rather,
   * whose image it paints only where the frame changed. */
  node = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (0, 0, width, height));
  cr = gsk_cairo_node_get_draw_context (node);
  cairo_set_source_surface (cr, surface, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  /* the image lives as long as the node's recording of it (else cairo would copy it) */
  cairo_surface_set_user_data (gsk_cairo_node_get_surface (node), &image_key,
                               cairo_surface_reference (surface),
                               (cairo_destroy_func_t) cairo_surface_destroy);
  return node;
}

GskRenderNode *
tks_timeline_image_to_node (TksTimelineImage *image,
                            GtkWidget        *widget)
{
  g_return_val_if_fail (image->drawn, NULL);

  return tks_timeline_surface_node (widget, image->surface, image->width, image->height);
}

cairo_surface_t *
tks_timeline_image_get_surface (TksTimelineImage *image)
{
  return image->surface;
}
