/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the parts of the timeline widget share: its fields and the functions one part calls
 * in another (tks-timeline-view.c and tks-timeline-view-*.c). */
#pragma once

#include <gtk/gtk.h>

#include "tks-find.h"
#include "tks-timeline-image.h"
#include "tks-timeline-render.h"
#include "tks-timeline-view.h"

G_BEGIN_DECLS

/* What places the lane headers (a header's y follows its lane, the vertical scroll and the
 * lanes above; its width the time area's left): the time range shown moves none. */
typedef struct
{
  double top;
  double lane_height;
  double v_offset;
  double left;
  guint  n_event_lanes;
  guint  n_pinned;
  guint  labels_first;
  guint  n_labels;
  guint  n_event_labels;
} TksHeaderPlacement;

/* What identifies a lane drawn: the row it shows and its threads. */
typedef struct
{
  const TksLaneRow *row;
  guint             n_threads;
  guint32           threads_hash;
} LaneKey;

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
  TksLaneList    *lane_list;     /* the thread lanes (the threads panel's model); NULL before
                                    the first capture */
  GArray         *lanes_shown;   /* LaneKey: the lanes last drawn, to tell a real change */

  GPtrArray      *labels;        /* one GtkInscription per lane from labels_first on, in lane order */
  GPtrArray      *event_labels;  /* one GtkInscription per event lane (tks-timeline-events.h) */
  guint           n_event_lanes;
  gboolean        ruler_ticks;   /* the ruler in board ticks rather than real time */
  gboolean        load_graph;    /* the CPU load graph above the lanes */
  gboolean        wake_arrows;   /* an arrow from each visible wake-up's waker to its run */
  gboolean        stretch;       /* the capture is a stretch of a recording, not a whole log */
  double          origin;        /* the time ruler's 0 the user chose (ticks), NAN when none */
  double          context_x;     /* where the context menu was asked for */
  GtkWidget      *context_menu;
  guint           labels_first;
  guint           labels_idle;   /* a rebuild of the labels for the lanes now in view */
  TksHeaderPlacement placed;     /* the headers' placement at the last allocation */

  /* The image of the ruler, lanes, events and trigger as a render node, keyed by what it
   * depends on: the geometry, colour, size and two serials, of the content (the capture and
   * its coverage) and of the other changes (invalidate()). A new content, or a new range or
   * scroll of the same lanes, at the same size is drawn by a worker, the image shown meanwhile
   * (moved and stretched to the range); anything else (other lanes) at once. */
  GskRenderNode  *cache;
  cairo_surface_t *cache_surface; /* its pixels */
  TksTimelineGeometry cache_geometry;
  GdkRGBA         cache_fg;
  int             cache_width, cache_height, cache_scale;
  guint           cache_content;
  guint           cache_change;
  guint           cache_builds;   /* images taken: a worker's is dropped if one came since */
  guint           cache_lanes;
  gconstpointer   cache_capture;  /* the capture the image shows (compared, not held) */
  guint           content_serial;
  guint           change_serial;
  guint           lanes_serial;   /* the lanes drawn changed (an image of others is not shown) */
  gboolean        drawing;        /* a worker draws an image */
  cairo_surface_t *surfaces[3];   /* the images' memory, drawn into again (-cache.c) */

  /* the capture's coverage summaries, built in a worker thread */
  TksCoverageRef *coverage;
  GCancellable   *coverage_cancellable;

  /* pointer and interaction state */
  double          pointer_x;
  double          pointer_y;
  gboolean        pointer_inside;
  /* a tooltip of the content shown was given to GTK: when the content moves, it is asked
   * for again (GTK keeps a tooltip until the pointer moves) */
  gboolean        tooltip_told;
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

  GArray         *matches;        /* TksFindMatch: find's, highlighted (tks-timeline-view-find.c) */
};


/* tks-timeline-view.c */
double _tks_timeline_view_get_effective_tick_hz (TksTimelineView     *self);
void   _tks_timeline_view_current_geometry      (TksTimelineView     *self,
                                                 TksTimelineGeometry *g);
/* Takes @info. */
void   _tks_timeline_view_set_info              (TksTimelineView     *self,
                                                 char                *info);

/* Tells the selection's watchers (the "selection-changed" signal). */
void   _tks_timeline_view_selection_changed     (TksTimelineView     *self);
/* Tells the lanes' watchers (the "lanes-changed" signal). */
void   _tks_timeline_view_lanes_changed         (TksTimelineView     *self);
/* The number of thread lanes; 0 without a capture. */
guint  _tks_timeline_view_n_lanes               (TksTimelineView     *self);
/* What the image shows changed: it is drawn again at the next frame (the previous one is kept
 * for a worker's drawing of a new capture, see _tks_timeline_view_update_cache()). */
void   _tks_timeline_view_invalidate            (TksTimelineView     *self);
/* The viewport's content: the lanes, event lanes and load graph. */
void   _tks_timeline_view_update_content_height (TksTimelineView     *self);

/* tks-timeline-view-capture.c */
/* Shows @capture; @next: another stretch of the same recording, its times those of the
 * capture shown plus @shift. FALSE when @capture is the one shown already. */
gboolean _tks_timeline_view_replace_capture     (TksTimelineView     *self,
                                                 TksCapture          *capture,
                                                 gboolean             next,
                                                 double               shift);
void   _tks_timeline_view_update_lane_list      (TksTimelineView     *self);
void   _tks_timeline_view_sync_lane_list_origin (TksTimelineView           *self,
                                                 const TksTimelineGeometry *g);

/* tks-timeline-view-headers.c */
void     _tks_timeline_view_rebuild_labels       (TksTimelineView *self);
void     _tks_timeline_view_rebuild_event_labels (TksTimelineView *self);
gboolean _tks_timeline_view_labels_cover_view    (TksTimelineView *self);
void     _tks_timeline_view_queue_place_headers  (TksTimelineView *self);
void     _tks_timeline_view_size_allocate        (GtkWidget       *widget,
                                                  int              width,
                                                  int              height,
                                                  int              baseline);
void     _tks_timeline_view_measure              (GtkWidget       *widget,
                                                  GtkOrientation   orientation,
                                                  int              for_size,
                                                  int             *minimum,
                                                  int             *natural,
                                                  int             *minimum_baseline,
                                                  int             *natural_baseline);

/* tks-timeline-view-cache.c */
void   _tks_timeline_view_update_cache          (TksTimelineView           *self,
                                                 const TksTimelineGeometry *g,
                                                 const GdkRGBA             *fg);
void   _tks_timeline_view_start_coverage        (TksTimelineView           *self);
/* Appends the image, moved and stretched to @g while a worker draws the one of @g. */
void   _tks_timeline_view_append_cache          (TksTimelineView           *self,
                                                 GtkSnapshot               *snapshot,
                                                 const TksTimelineGeometry *g);
/* The image shown is not shown any more: the next frame draws one (and a worker's drawing
 * under way is dropped). */
void   _tks_timeline_view_drop_image            (TksTimelineView           *self);
/* Lets the image and its memory go (dispose). */
void   _tks_timeline_view_clear_cache           (TksTimelineView           *self);

/* tks-timeline-view-draw.c */
void   _tks_timeline_view_snapshot              (GtkWidget           *widget,
                                                 GtkSnapshot         *snapshot);

/* tks-timeline-view-input.c */
void   _tks_timeline_view_update_info           (TksTimelineView     *self);
void   _tks_timeline_view_input_init            (TksTimelineView     *self);
/* The content moved under a pointer that stayed (a next stretch of a recording, a new range):
 * the run the pointer is over becomes the one of the content now under it, and a tooltip
 * shown is asked for again (GTK then changes its text, or takes it away). */
void   _tks_timeline_view_content_moved         (TksTimelineView     *self);

/* tks-timeline-view-find.c */
void   _tks_timeline_view_draw_matches          (TksTimelineView           *self,
                                                 GtkSnapshot               *snapshot,
                                                 const TksTimelineGeometry *g);

/* A point in the ruler's units with its tick: an entry's ("1.250 ms (tick 7904)"), or a place
 * the user chose with its tick as it is ("1.620 ms (tick 7904.37)"). */
char    *_tks_timeline_view_format_time (TksTimelineView *self,
                                        double           t);
char    *_tks_timeline_view_format_place (TksTimelineView *self,
                                         double           t);
/* A length of time (ticks) in the ruler's units: "1.333 ticks", or "533.3 µs". */
char    *_tks_timeline_view_format_span (TksTimelineView *self,
                                        double           ticks);

G_END_DECLS
