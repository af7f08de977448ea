/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tks-capture.h"
#include "tks-coverage.h"
#include "tks-lane-list.h"

G_BEGIN_DECLS

/*
 * The drawing code of the timeline, shared by the widget (render nodes through
 * GtkSnapshot), the exports (PNG/SVG/PDF through cairo) and the benchmark. Every pass
 * costs O(visible pixels): lanes off screen are skipped, the first visible run of a lane
 * is found by binary search, and runs narrower than a pixel are merged into pixel columns.
 */

typedef struct _TksPainter TksPainter;

struct _TksPainter
{
  void          (*fill) (TksPainter    *self,
                         const GdkRGBA *color,
                         double         x,
                         double         y,
                         double         width,
                         double         height);
  void          (*text) (TksPainter    *self,
                         const GdkRGBA *color,
                         double         x,
                         double         y,
                         PangoLayout   *layout);
  PangoContext *pango;
  GdkRGBA       fg;
  gboolean      dark;
  /* statistics of the last pass, for tests and the benchmark */
  guint         n_fills;

  /*< private >*/
  GtkSnapshot  *snapshot;
  cairo_t      *cr;
  GdkRGBA       pending;
  gboolean      has_pending;
  guint8       *pixels;       /* an image's, filled in place (tks_painter_init_image()) */
  int           stride, pixel_width, pixel_height, scale;
  double        clip_x0, clip_y0, clip_x1, clip_y1;
};

typedef struct
{
  double x0;            /* visible time range, ticks */
  double x1;
  double left;          /* x of the time area (right of the lane headers) */
  double width;         /* width of the time area */
  double top;           /* y of the first lane when not scrolled */
  double bottom;        /* lanes are clipped to [top, bottom) */
  double lane_height;
  double v_offset;      /* vertical scroll, pixels */
  double tick_hz;       /* ticks per second; <= 0: unknown */
  gboolean all_lanes;   /* also the lanes of threads that exited before the log begins */
  guint n_event_lanes;  /* lanes of the events above the threads' (tks-timeline-events.h),
                           the CPU load graph's first when @load_graph */
  gboolean load_graph;  /* a lane of the CPU's load, threads stacked, idle left out */
  /* The ruler in real time (s, ms, µs) from @origin rather than in board ticks; its steps
   * never finer than @resolution (ticks: the tick, or the board's counter period). */
  gboolean time_ruler;
  double origin;
  double resolution;
  guint origin_kind;    /* TksTimeOrigin */
  const TksCoverage *coverage; /* the capture's summaries of busy threads, NULL: none yet */
  /* The thread lanes top to bottom (a thread, or a collapsed group's members drawn as one),
   * from the threads panel's list; NULL: one lane per thread of the capture's shown lanes
   * (@all_lanes), as exports and tests without a panel draw. */
  const TksLane *lanes;
  guint n_lanes;
  /* The first @n_pinned thread lanes (the pinned rows, which come first) stay at the top,
   * right under the ruler, as a spreadsheet's frozen rows: the event lanes and the other
   * thread lanes scroll (@v_offset) below them. 0: every lane scrolls. */
  guint n_pinned;
} TksTimelineGeometry;

/* Where the time ruler's 0 is. */
typedef enum
{
  TKS_TIME_ORIGIN_START,    /* the capture's start */
  TKS_TIME_ORIGIN_TRIGGER,  /* the trigger */
  TKS_TIME_ORIGIN_USER,     /* a point the user chose */
} TksTimeOrigin;

/* Where time @t falls across the view, and the time at @x: the two sides of one mapping. */
static inline double
tks_timeline_x_at (const TksTimelineGeometry *g,
                   double                     t)
{
  return g->left + (t - g->x0) * g->width / (g->x1 - g->x0);
}

static inline double
tks_timeline_time_at (const TksTimelineGeometry *g,
                      double                     x)
{
  return g->x0 + (x - g->left) * (g->x1 - g->x0) / g->width;
}

#define TKS_TIMELINE_RULER_HEIGHT  36.0
#define TKS_TIMELINE_HEADER_WIDTH 190.0
#define TKS_TIMELINE_LANE_HEIGHT   30.0

void     tks_painter_init_snapshot        (TksPainter          *painter,
                                           GtkSnapshot         *snapshot,
                                           PangoContext        *pango);
void     tks_painter_init_cairo           (TksPainter          *painter,
                                           cairo_t             *cr,
                                           PangoContext        *pango);
/* A painter that fills rectangles straight into @surface's pixels (ARGB32, its device scale
 * set, drawn on through @cr too: the texts), as cairo would but without a path each: the
 * timeline widget's image, tens of thousands of rectangles. Blends each rectangle on its own,
 * so that rectangles of one colour that overlap are not one shape as in the cairo painter. */
void     tks_painter_init_image           (TksPainter          *painter,
                                           cairo_t             *cr,
                                           cairo_surface_t     *surface,
                                           PangoContext        *pango);
/* The rectangles and texts that follow are clipped to this rectangle (and @painter's cairo
 * context's clip set to it); a width of -1: no clip. */
void     tks_painter_clip                 (TksPainter          *painter,
                                           double               x,
                                           double               y,
                                           double               width,
                                           double               height);
void     tks_painter_finish               (TksPainter          *painter);

/* A painter that draws through @inner only at and below @clip_top: what scrolls under the
 * pinned lanes. It is @inner's until @inner is finished. */
typedef struct
{
  TksPainter  base;
  TksPainter *inner;
  double      clip_top;
} TksClipPainter;

void     tks_clip_painter_init            (TksClipPainter      *clip,
                                           TksPainter          *inner,
                                           double               clip_top);

/* The colours of what the timeline draws besides its runs, for the legend and exports too:
 * a thread's marks IN (switched in) and OUT (switched out), the band after a thread exited,
 * an interrupt handler's run and the CPU's sleep. */
extern const GdkRGBA tks_timeline_mark_in_color;
extern const GdkRGBA tks_timeline_mark_out_color;
extern const GdkRGBA tks_timeline_exit_band_color;
extern const GdkRGBA tks_timeline_irq_color;
extern const GdkRGBA tks_timeline_sleep_color;

/* A thread's colour (from its identity: TksThread.color), and the @index-th of the palette
 * the threads' colours come from. */
void     tks_timeline_thread_color        (const TksThread     *thread,
                                           GdkRGBA             *color);
void     tks_timeline_palette_color       (guint                index,
                                           GdkRGBA             *color);

double   tks_timeline_lane_y              (const TksTimelineGeometry *geometry,
                                           guint                lane);
/* Where the scrolled lanes begin: below the pinned lanes (geometry->top without any). What
 * scrolls is drawn only below it. */
double   tks_timeline_scroll_top          (const TksTimelineGeometry *geometry);
/* The number of thread lanes, and the threads lane @lane draws (one, or a group's members;
 * NULL with *n_threads 0 past the last lane). @row: the panel's row it shows, or NULL. */
guint        tks_timeline_n_lanes         (TksCapture                *capture,
                                           const TksTimelineGeometry *geometry);
const guint *tks_timeline_lane_threads    (TksCapture                *capture,
                                           const TksTimelineGeometry *geometry,
                                           guint                      lane,
                                           guint                     *n_threads,
                                           const TksLaneRow         **row);
/* What lane @lane's header says (a thread's name, a group's "NAME ×N", a member's "#N, exited
 * at…") and its priority; NULL past the last lane. */
const char  *tks_timeline_lane_name       (TksCapture                *capture,
                                           const TksTimelineGeometry *geometry,
                                           guint                      lane,
                                           int                       *priority);
/* The lane drawing thread @thread, or -1 when no lane does (hidden). */
int          tks_timeline_lane_of_thread  (TksCapture                *capture,
                                           const TksTimelineGeometry *geometry,
                                           guint                      thread);

/* The scrolled thread lanes in view, [*first, *last): the pinned ones (always in view,
 * [0, geometry->n_pinned)) are not among them. */
gboolean tks_timeline_visible_lanes       (const TksTimelineGeometry *geometry,
                                           guint                n_lanes,
                                           guint               *first,
                                           guint               *last);

void     tks_timeline_render_lanes        (TksCapture          *capture,
                                           const TksTimelineGeometry *geometry,
                                           TksPainter          *painter);
void     tks_timeline_render_ruler        (TksCapture          *capture,
                                           const TksTimelineGeometry *geometry,
                                           TksPainter          *painter);
void     tks_timeline_render_trigger      (TksCapture          *capture,
                                           const TksTimelineGeometry *geometry,
                                           TksPainter          *painter);
/* The band after the log's end (tks_capture_get_log_end), when it ends before the capture. */
void     tks_timeline_render_log_end      (TksCapture          *capture,
                                           const TksTimelineGeometry *geometry,
                                           TksPainter          *painter);
/* A band over each hole in the log (tks_capture_get_gaps): "not recorded". */
void     tks_timeline_render_gaps         (TksCapture          *capture,
                                           const TksTimelineGeometry *geometry,
                                           TksPainter          *painter);
void     tks_timeline_render_headers      (TksCapture          *capture,
                                           const TksTimelineGeometry *geometry,
                                           TksPainter          *painter);

/* Loads the fonts and shapes the characters the timeline draws, so the first frame does not
 * pay for it: call it once, e.g. when the widget is realized. */
void     tks_timeline_warm_up_fonts       (PangoContext        *pango);

/* Draws a whole view (ruler, headers, lanes, trigger) on @cr, for exports. */
void     tks_timeline_render_cairo        (TksCapture          *capture,
                                           const TksTimelineGeometry *geometry,
                                           cairo_t             *cr,
                                           double               width,
                                           double               height,
                                           gboolean             dark);

/* The same with the font, resolution and font options of @like (a widget's context), so the
 * export looks like the screen; @like NULL: Pango's defaults. */
void     tks_timeline_render_cairo_like   (TksCapture          *capture,
                                           const TksTimelineGeometry *geometry,
                                           cairo_t             *cr,
                                           double               width,
                                           double               height,
                                           gboolean             dark,
                                           PangoContext        *like);
/* The width of the lane headers that shows the lanes' names in view whole with @pango's
 * font, from TKS_TIMELINE_HEADER_WIDTH up to TKS_TIMELINE_HEADER_MAX_WIDTH. */
#define TKS_TIMELINE_HEADER_MAX_WIDTH 640.0
double   tks_timeline_header_width        (TksCapture          *capture,
                                           const TksTimelineGeometry *geometry,
                                           PangoContext        *pango);

char    *tks_timeline_format_ticks        (double               ticks,
                                           double               step);
char    *tks_timeline_format_duration     (double               ticks,
                                           double               tick_hz);
double   tks_timeline_nice_step           (double               min_step);

/* What is under a point of the time area. */
typedef struct
{
  guint  lane;
  guint  thread;
  int    run;         /* index in the thread's runs, -1 if none */
  int    mark;        /* index in the thread's marks, -1 if none */
} TksTimelineHit;

gboolean tks_timeline_hit_test            (TksCapture          *capture,
                                           const TksTimelineGeometry *geometry,
                                           double               x,
                                           double               y,
                                           TksTimelineHit      *hit);

G_END_DECLS
