/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-timeline-render.h"

G_BEGIN_DECLS

/*
 * What the timeline widget draws under its hover, selection and cursors (the lane headers'
 * shade, the ruler, the lanes, the events, the bands and the trigger) drawn once into an image
 * rather than as thousands of render nodes: the window then copies the image at each frame.
 * The drawing is done from any thread (a worker's, for a capture replacing the one shown), the
 * image is turned into a render node on the main thread.
 */

typedef struct _TksTimelineImage TksTimelineImage;
typedef struct _TksCoverageRef TksCoverageRef;

/* Holds what @geometry points at (its lanes copied, @coverage and @capture referenced) and the
 * font of @like (the widget's context), so the drawing can be done in another thread. */
TksTimelineImage *tks_timeline_image_new      (TksCapture                *capture,
                                               const TksTimelineGeometry *geometry,
                                               TksCoverageRef            *coverage,
                                               const GdkRGBA             *fg,
                                               PangoContext              *like,
                                               int                        width,
                                               int                        height,
                                               int                        scale);
void              tks_timeline_image_free     (TksTimelineImage          *image);

/* The image is drawn into @surface (ARGB32, of the image's size at its scale, device scale
 * set; cleared first) rather than into a new one: a surface drawn again and again has its
 * memory at hand, where a new one's pages are each a fault. Before the drawing; references
 * @surface. */
void              tks_timeline_image_set_surface (TksTimelineImage       *image,
                                                  cairo_surface_t        *surface);

/* A new ARGB32 surface for an image of @width x @height at @scale (its device scale set), its
 * memory all given by the system at once (not a page fault a page on its first drawing);
 * clear. Any thread. */
cairo_surface_t  *tks_timeline_image_surface_new (int                    width,
                                                  int                    height,
                                                  int                    scale);

/* Any thread, once. */
void              tks_timeline_image_draw     (TksTimelineImage          *image);

/* The image drawn, at the widget's size, as @widget's window shows it best (main thread). */
GskRenderNode    *tks_timeline_image_to_node  (TksTimelineImage          *image,
                                               GtkWidget                 *widget);

/* A render node of the image @surface (ARGB32, its device scale set) at @width x @height in
 * @widget, for images drawn once and shown at many frames: a texture for a GL or Vulkan
 * renderer, a cairo node for the cairo renderer. */
GskRenderNode    *tks_timeline_surface_node   (GtkWidget                 *widget,
                                               cairo_surface_t           *surface,
                                               int                        width,
                                               int                        height);

/* Runs @task's @func in a worker once the frame under way is painted (main thread): a drawing
 * asked for by a widget's snapshot then leaves that frame the processor to itself. */
void              tks_task_run_after_frame    (GTask                     *task,
                                               GTaskThreadFunc            func);

/* The overview's geometry: @capture's lanes (as in the timeline without hidden lanes or groups)
 * from @x0 to @x1 (ticks) squeezed into @width x @height, right of the lane headers' width;
 * @capture may be NULL. */
void              tks_overview_geometry       (TksCapture                *capture,
                                               double                     x0,
                                               double                     x1,
                                               int                        width,
                                               int                        height,
                                               TksTimelineGeometry       *geometry);

/* The overview's image of @capture at @geometry (see tks_overview_geometry()): its lanes, its
 * log's end and its trigger in @fg, into a new ARGB32 image of @width x @height at @scale.
 * Any thread. */
cairo_surface_t  *tks_overview_image_draw     (TksCapture                *capture,
                                               const TksTimelineGeometry *geometry,
                                               const GdkRGBA             *fg,
                                               int                        width,
                                               int                        height,
                                               int                        scale);

/* The image's pixels (premultiplied ARGB32, tests). */
cairo_surface_t  *tks_timeline_image_get_surface (TksTimelineImage       *image);

/* A capture's coverage summaries shared between the widget and a drawing in a worker, which
 * keeps them while the widget moves on to another capture. Takes @coverage. */
TksCoverageRef   *tks_coverage_ref_new        (TksCoverage               *coverage);
TksCoverageRef   *tks_coverage_ref_ref        (TksCoverageRef            *ref);
void              tks_coverage_ref_unref      (TksCoverageRef            *ref);
const TksCoverage *tks_coverage_ref_get       (TksCoverageRef            *ref);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksTimelineImage, tks_timeline_image_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksCoverageRef, tks_coverage_ref_unref)

G_END_DECLS
