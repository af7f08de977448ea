/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The timeline widget: its properties, the lane labels, the drawing (a cached render node
 * of the ruler, lanes and trigger, with the hover, selection and marks over it) and the
 * coverage summaries built in a worker thread. Pointer, keys and the info line are in
 * tks-timeline-view-input.c; the fields in tks-timeline-view-private.h. */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tks-coverage.h"
#include "tks-timeline-events.h"
#include "tks-timeline-view-private.h"
#include "tks-widget-text.h"

G_DEFINE_FINAL_TYPE (TksTimelineView, tks_timeline_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_CAPTURE,
  PROP_VIEWPORT,
  PROP_TICK_HZ,
  PROP_INFO,
  PROP_ALL_LANES,
  PROP_RULER_TICKS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* What identifies a lane drawn: the row it shows and its threads. */
typedef struct
{
  const TksLaneRow *row;
  guint             n_threads;
  guint32           threads_hash;
} LaneKey;


enum {
  SELECTION_CHANGED,
  LANES_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

void
_tks_timeline_view_selection_changed (TksTimelineView *self)
{
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

void
_tks_timeline_view_set_info (TksTimelineView *self,
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

double
_tks_timeline_view_get_effective_tick_hz (TksTimelineView *self)
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
  g->tick_hz = _tks_timeline_view_get_effective_tick_hz (self);
  g->all_lanes = self->all_lanes;
  g->n_event_lanes = self->capture != NULL ? self->n_event_lanes + (self->load_graph ? 1 : 0) : 0;
  g->load_graph = self->capture != NULL && self->load_graph;
  g->time_ruler = !self->ruler_ticks && g->tick_hz > 0;
  g->resolution = 1.0;
  g->origin = 0;
  g->origin_kind = TKS_TIME_ORIGIN_START;
  if (self->capture != NULL)
    {
      TksEvents *events = tks_capture_get_events (self->capture);
      double trigger;

      if (events != NULL && tks_events_has_counter (events) && g->tick_hz > 0)
        g->resolution = g->tick_hz / tks_events_get_time_hz (events);
      if (!isnan (self->origin))
        {
          g->origin = self->origin;
          g->origin_kind = TKS_TIME_ORIGIN_USER;
        }
      else if (tks_capture_get_trigger (self->capture, &trigger))
        {
          g->origin = trigger;
          g->origin_kind = TKS_TIME_ORIGIN_TRIGGER;
        }
      else
        g->origin = tks_capture_get_start (self->capture);
    }
  g->coverage = tks_coverage_ref_get (self->coverage);
  if (self->capture != NULL && self->lane_list != NULL)
    g->lanes = tks_lane_list_get_lanes (self->lane_list, &g->n_lanes);
}

void
_tks_timeline_view_current_geometry (TksTimelineView     *self,
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

  if (self->capture != NULL && self->lane_list != NULL)
    tks_lane_list_get_lanes (self->lane_list, &n);
  return n;
}

/* What the image shows changed: it is drawn again at the next frame (the previous one is kept
 * for a worker's drawing of a new capture, see update_cache()). */
static void
invalidate (TksTimelineView *self)
{
  self->change_serial++;
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

  _tks_timeline_view_current_geometry (self, &g);
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

  _tks_timeline_view_current_geometry (self, &g);
  if (!tks_timeline_visible_lanes (&g, n_lanes (self), &a, &b))
    return TRUE;
  return a >= self->labels_first && b <= self->labels_first + self->labels->len;
}

/* A header of the lanes: an inscription rather than a label, whose size the widget sets
 * anyway, so that a text changed while recording (a group's count of threads) redraws it
 * without laying out the window again. */
static GtkWidget *
header_new (TksTimelineView *self)
{
  GtkWidget *header = g_object_new (GTK_TYPE_INSCRIPTION, "accessible-role", GTK_ACCESSIBLE_ROLE_LABEL,
                                    "xalign", 0.0f, NULL);

  gtk_widget_add_css_class (header, "lane-header");
  gtk_widget_set_parent (header, GTK_WIDGET (self));
  return header;
}

#define HEADER_MARKUP_KEY "tks-header-markup"

/* @header says @markup (Pango markup), cut by @overflow when too long; FALSE when it said so
 * already. */
static gboolean
header_set_markup (GtkWidget              *header,
                   const char             *markup,
                   GtkInscriptionOverflow  overflow)
{
  if (g_strcmp0 (g_object_get_data (G_OBJECT (header), HEADER_MARKUP_KEY), markup) == 0 &&
      gtk_inscription_get_text_overflow (GTK_INSCRIPTION (header)) == overflow)
    return FALSE;
  g_object_set_data_full (G_OBJECT (header), HEADER_MARKUP_KEY, g_strdup (markup), g_free);
  gtk_inscription_set_markup (GTK_INSCRIPTION (header), markup);
  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (header), overflow);
  return TRUE;
}

/* A lane header: the lane's name and priority. A header already there takes the new texts;
 * one that says the same is left alone (a recording's capture of each second). */
static GtkWidget *
lane_header (TksTimelineView *self,
             GtkWidget       *label,
             const char      *name,
             int              priority,
             gboolean         group)
{
  g_autofree char *markup = g_markup_printf_escaped ("%s <span alpha=\"55%%\" size=\"small\">%d</span>",
                                                     name, priority);
  g_autofree char *description = NULL;
  /* a group's count, at the end of its name, stays in view */
  GtkInscriptionOverflow overflow = group ? GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_MIDDLE
                                          : GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END;

  if (label == NULL)
    label = header_new (self);
  if (!header_set_markup (label, markup, overflow))
    return label;
  /* Translators: accessible description of a lane header */
  description = g_strdup_printf (_("Thread %s, priority %d"), name, priority);
  tks_widget_set_tooltip (label, description);
  gtk_accessible_update_property (GTK_ACCESSIBLE (label),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);
  return label;
}

static void
rebuild_labels (TksTimelineView *self)
{
  TksTimelineGeometry g;
  guint i, first = 0, end = 0;

  if (self->capture != NULL)
    {
      _tks_timeline_view_current_geometry (self, &g);
      label_range (self, &first, &end);
    }
  /* the headers there already are taken again, in order */
  for (i = end - first; i < self->labels->len; i++)
    gtk_widget_unparent (g_ptr_array_index (self->labels, i));
  if (self->labels->len > end - first)
    g_ptr_array_set_size (self->labels, end - first);
  self->labels_first = first;

  for (i = first; i < end; i++)
    {
      const char *name;
      int priority;
      const TksLaneRow *row = NULL;
      guint n_threads, at = i - first;
      GtkWidget *label = at < self->labels->len ? g_ptr_array_index (self->labels, at) : NULL;

      name = tks_timeline_lane_name (self->capture, &g, i, &priority);
      tks_timeline_lane_threads (self->capture, &g, i, &n_threads, &row);
      label = lane_header (self, label, name != NULL ? name : "?", priority,
                           row != NULL && row->kind == TKS_LANE_ROW_GROUP);
      if (at == self->labels->len)
        g_ptr_array_add (self->labels, label);
    }
}

/* The @at-th header of the event lanes, or of the load graph's (@markup NULL: @title as it
 * is): the one there already is taken again, left alone when it says the same (a recording's
 * capture of each second); a new one is made past the last. */
static void
event_header (TksTimelineView *self,
              guint            at,
              const char      *title,
              const char      *markup,
              const char      *tooltip)
{
  g_autofree char *escaped = markup != NULL ? NULL : g_markup_escape_text (title, -1);
  GtkWidget *label;

  if (at < self->event_labels->len)
    label = g_ptr_array_index (self->event_labels, at);
  else
    {
      label = header_new (self);
      g_ptr_array_add (self->event_labels, label);
    }
  if (!header_set_markup (label, markup != NULL ? markup : escaped,
                          GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END))
    return;
  tks_widget_set_tooltip (label, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (label),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
}

/* The headers of the event lanes: a handler, the CPU's sleep, a channel of states, a marker;
 * the load graph's first when it is shown. The headers there already are taken again. */
static void
rebuild_event_labels (TksTimelineView *self)
{
  g_autofree TksEventLane *lanes = NULL;
  guint n, i, at = 0;

  if (self->capture != NULL && self->load_graph)
    event_header (self, at++, _("CPU load"), NULL, _("The share of time threads other than idle ran"));
  lanes = tks_timeline_event_lanes (self->capture, &n);
  for (i = 0; i < n; i++)
    {
      const TksTrack *track = lanes[i].track;
      g_autofree char *title = NULL;
      g_autofree char *markup = NULL;

      switch (track->kind)
        {
        case TKS_TRACK_IRQ:
          /* Translators: the header of an interrupt handler's lane; its accessible name */
          title = g_strdup_printf (_("IRQ %s"), track->name);
          break;
        case TKS_TRACK_SLEEP:
          title = g_strdup (_("CPU sleep"));
          break;
        case TKS_TRACK_STATE:
          title = g_strdup_printf (_("%s (states)"), track->name);
          break;
        default:
          title = g_strdup_printf (_("%s (marker)"), track->name);
          break;
        }
      markup = g_markup_printf_escaped ("<i>%s</i>", title);
      event_header (self, at++, title, markup, title);
    }
  for (i = at; i < self->event_labels->len; i++)
    gtk_widget_unparent (g_ptr_array_index (self->event_labels, i));
  g_ptr_array_set_size (self->event_labels, at);
}

static void
header_placement (TksTimelineView    *self,
                  TksHeaderPlacement *p)
{
  TksTimelineGeometry g;

  _tks_timeline_view_current_geometry (self, &g);
  memset (p, 0, sizeof *p);
  p->top = g.top;
  p->lane_height = g.lane_height;
  p->v_offset = g.v_offset;
  p->left = g.left;
  p->n_event_lanes = g.n_event_lanes;
  p->labels_first = self->labels_first;
  p->n_labels = self->labels->len;
  p->n_event_labels = self->event_labels->len;
}

/* The headers are placed again when what places them changed. The time range rolling while
 * recording, or a recording's next stretch with the same lanes, moves none: the window is not
 * laid out again for them (on X11 each layout of a window makes round trips to the X server
 * that the next frame waits for). */
static void
queue_place_headers (TksTimelineView *self)
{
  TksHeaderPlacement p;

  header_placement (self, &p);
  if (memcmp (&p, &self->placed, sizeof p) != 0)
    gtk_widget_queue_allocate (GTK_WIDGET (self));
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
  queue_place_headers (self);
  _tks_timeline_view_content_moved (self);
}

static void
update_content_height (TksTimelineView *self)
{
  double h = gtk_widget_get_height (GTK_WIDGET (self));

  tks_viewport_set_content_height (self->viewport,
                                   (n_lanes (self) + self->n_event_lanes + (self->load_graph ? 1 : 0))
                                   * TKS_TIMELINE_LANE_HEIGHT,
                                   MAX (0.0, h - TKS_TIMELINE_RULER_HEIGHT));
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
static void
update_cache (TksTimelineView           *self,
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
      g_task_set_source_tag (task, update_cache);
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

static void
tks_timeline_view_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  TksTimelineView *self = TKS_TIMELINE_VIEW (widget);
  TksTimelineGeometry g;
  GdkRGBA fg;
  guint i;

  _tks_timeline_view_current_geometry (self, &g);
  get_fg (self, &fg);

  if (self->capture != NULL)
    update_cache (self, &g, &fg);
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
      draw_delta (self, snapshot, &g);
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

/* A lane's header, the lane at @y: shown while its lane is, one line high in the middle of
 * the lane (an inscription given more height wraps its text rather than cutting it). */
static void
place_header (GtkWidget                 *header,
              const TksTimelineGeometry *g,
              double                     y,
              int                        height)
{
  gboolean visible = y > g->top - g->lane_height / 2 && y < height;
  int line;

  gtk_widget_set_child_visible (header, visible);
  if (!visible)
    return;
  gtk_widget_measure (header, GTK_ORIENTATION_VERTICAL, -1, &line, NULL, NULL, NULL);
  line = MIN (line, (int) g->lane_height);
  gtk_widget_size_allocate (header,
                            &(GtkAllocation) { 10, (int) (y + (g->lane_height - line) / 2),
                                               (int) g->left - 16, line },
                            -1);
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
  _tks_timeline_view_current_geometry (self, &g);

  /* A new size can bring lanes without a header into view: they get one right after. */
  if (!labels_cover_view (self) && self->labels_idle == 0)
    self->labels_idle = g_idle_add (rebuild_labels_idle, self);

  for (i = 0; i < self->event_labels->len; i++)
    place_header (g_ptr_array_index (self->event_labels, i), &g, tks_timeline_event_lane_y (&g, i),
                  height);
  for (i = 0; i < self->labels->len; i++)
    place_header (g_ptr_array_index (self->labels, i), &g,
                  tks_timeline_lane_y (&g, self->labels_first + i), height);
  header_placement (self, &self->placed);
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
  if (self->event_labels != NULL)
    {
      for (i = 0; i < self->event_labels->len; i++)
        gtk_widget_unparent (g_ptr_array_index (self->event_labels, i));
      g_ptr_array_set_size (self->event_labels, 0);
    }
  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  g_clear_handle_id (&self->labels_idle, g_source_remove);
  g_clear_signal_handler (&self->viewport_changed_id, self->viewport);
  g_clear_object (&self->viewport);
  g_clear_object (&self->capture);
  g_clear_pointer (&self->cache, gsk_render_node_unref);
  if (self->coverage_cancellable != NULL)
    g_cancellable_cancel (self->coverage_cancellable);
  g_clear_object (&self->coverage_cancellable);
  g_clear_pointer (&self->coverage, tks_coverage_ref_unref);
  g_clear_object (&self->lane_list);

  G_OBJECT_CLASS (tks_timeline_view_parent_class)->dispose (object);
}

static void
tks_timeline_view_finalize (GObject *object)
{
  TksTimelineView *self = TKS_TIMELINE_VIEW (object);

  g_clear_pointer (&self->labels, g_ptr_array_unref);
  g_clear_pointer (&self->event_labels, g_ptr_array_unref);
  g_clear_pointer (&self->lanes_shown, g_array_unref);
  g_clear_pointer (&self->info, g_free);
  g_clear_pointer (&self->matches, g_array_unref);

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

    case PROP_RULER_TICKS:
      g_value_set_boolean (value, self->ruler_ticks);
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

    case PROP_RULER_TICKS:
      tks_timeline_view_set_ruler_ticks (self, g_value_get_boolean (value));
      break;
    case PROP_ALL_LANES:
      tks_timeline_view_set_all_lanes (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
set_origin_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  TksTimelineView *self = TKS_TIMELINE_VIEW (widget);
  TksTimelineGeometry g;

  _tks_timeline_view_current_geometry (self, &g);
  tks_timeline_view_set_time_origin (self, tks_timeline_time_at (&g, self->context_x));
}

static void
reset_origin_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  tks_timeline_view_set_time_origin (TKS_TIMELINE_VIEW (widget), NAN);
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
  properties[PROP_RULER_TICKS] =
    g_param_spec_boolean ("ruler-ticks", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_INFO] =
    g_param_spec_string ("info", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The selected run, the cursors, or how their times are told changed. */
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* The thread lanes changed: another capture, a lane hidden, pinned, grouped or sorted. */
  signals[LANES_CHANGED] =
    g_signal_new ("lanes-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_install_action (widget_class, "timeline.set-origin", NULL, set_origin_action);
  gtk_widget_class_install_action (widget_class, "timeline.reset-origin", NULL, reset_origin_action);
  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tks_timeline_view_init (TksTimelineView *self)
{
  self->labels = g_ptr_array_new ();
  self->event_labels = g_ptr_array_new ();
  self->lanes_shown = g_array_new (FALSE, FALSE, sizeof (LaneKey));
  self->origin = NAN;
  self->mark_a = NAN;
  self->mark_b = NAN;

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline"),
                                  -1);

  tks_timeline_view_set_viewport (self, NULL);

  _tks_timeline_view_input_init (self);
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

  if (coverage == NULL || capture != self->capture || self->coverage != NULL)
    return;
  self->coverage = tks_coverage_ref_new (g_steal_pointer (&coverage));
  /* the same drawing, faster: drawn again off the main thread like a new capture */
  self->content_serial++;
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
  g_clear_pointer (&self->coverage, tks_coverage_ref_unref);
  if (self->capture == NULL)
    return;
  self->coverage_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->coverage_cancellable, coverage_done_cb, NULL);
  g_task_set_source_tag (task, start_coverage);
  g_task_set_task_data (task, g_object_ref (self->capture), g_object_unref);
  g_task_run_in_thread (task, coverage_thread);
}

/* Whether the lanes differ from those last drawn (a new sort, a hidden or pinned row), as
 * opposed to a change of the panel's numbers only; remembers the new ones. */
static gboolean
lanes_differ (TksTimelineView *self)
{
  const TksLane *lanes = NULL;
  guint n = 0;
  gboolean differ;

  if (self->lane_list != NULL)
    lanes = tks_lane_list_get_lanes (self->lane_list, &n);
  differ = n != self->lanes_shown->len;
  for (guint l = 0; l < n; l++)
    {
      LaneKey key = { lanes[l].row, lanes[l].n_threads, 2166136261u };
      LaneKey *old;

      for (guint i = 0; i < lanes[l].n_threads; i++)
        key.threads_hash = (key.threads_hash ^ lanes[l].threads[i]) * 16777619u;
      if (l >= self->lanes_shown->len)
        {
          g_array_append_val (self->lanes_shown, key);
          continue;
        }
      old = &g_array_index (self->lanes_shown, LaneKey, l);
      if (memcmp (old, &key, sizeof key) != 0)
        {
          differ = TRUE;
          *old = key;
        }
    }
  g_array_set_size (self->lanes_shown, n);
  return differ;
}

/* The lanes changed: what points at a lane follows its thread. */
static void
apply_lanes (TksTimelineView *self)
{
  TksTimelineGeometry g;

  self->has_hover = FALSE;
  if (self->has_selected)
    {
      int lane;

      _tks_timeline_view_current_geometry (self, &g);
      lane = tks_timeline_lane_of_thread (self->capture, &g, self->selected.thread);
      if (lane < 0)
        {
          /* its lane was hidden */
          self->has_selected = FALSE;
          _tks_timeline_view_selection_changed (self);
        }
      else
        self->selected.lane = (guint) lane;
    }
  rebuild_labels (self);
  update_content_height (self);
  _tks_timeline_view_update_info (self);
  invalidate (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  _tks_timeline_view_content_moved (self);
}

static void
lane_list_changed_cb (TksTimelineView *self,
                      TksLaneList     *list)
{
  if (self->capture == NULL || !lanes_differ (self))
    return;
  apply_lanes (self);
  g_signal_emit (self, signals[LANES_CHANGED], 0);
}

/* Exits are told from the ruler's 0, as the tooltips do. */
static void
sync_lane_list_origin (TksTimelineView           *self,
                       const TksTimelineGeometry *g)
{
  g_signal_handlers_block_by_func (self->lane_list, lane_list_changed_cb, self);
  tks_lane_list_set_time_origin (self->lane_list, g->origin);
  g_signal_handlers_unblock_by_func (self->lane_list, lane_list_changed_cb, self);
  lanes_differ (self);
}

/* The lane list follows the capture, whether the lanes of threads that exited before the log
 * are shown, and the tick rate its labels are written in. */
static void
update_lane_list (TksTimelineView *self)
{
  double hz = _tks_timeline_view_get_effective_tick_hz (self);
  TksTimelineGeometry g;

  if (self->capture == NULL)
    return;
  _tks_timeline_view_current_geometry (self, &g);
  if (self->lane_list == NULL)
    {
      self->lane_list = tks_lane_list_new (self->capture, self->all_lanes, hz);
      g_signal_connect_object (self->lane_list, "changed", G_CALLBACK (lane_list_changed_cb), self,
                               G_CONNECT_SWAPPED);
    }
  else
    {
      g_signal_handlers_block_by_func (self->lane_list, lane_list_changed_cb, self);
      tks_lane_list_set_capture (self->lane_list, self->capture, self->all_lanes);
      if (tks_tick_hz_is_sane (hz))
        tks_lane_list_set_tick_hz (self->lane_list, hz);
      g_signal_handlers_unblock_by_func (self->lane_list, lane_list_changed_cb, self);
    }
  sync_lane_list_origin (self, &g);
}

TksLaneList *
tks_timeline_view_get_lane_list (TksTimelineView *self)
{
  g_return_val_if_fail (TKS_IS_TIMELINE_VIEW (self), NULL);
  return self->lane_list;
}

/* Selects the run of the thread named @name that holds @at again, if the capture has it.
 * (@at, the middle of the run as it was: a stretch places a tick's switches anew, so that
 * their times may differ in the last bits.) */
static void
reselect_run (TksTimelineView *self,
              const char      *name,
              double           at)
{
  TksTimelineGeometry g;

  _tks_timeline_view_current_geometry (self, &g);
  for (guint i = 0; i < tks_capture_get_n_threads (self->capture); i++)
    {
      const TksThread *th = tks_capture_get_thread (self->capture, i);
      guint r;
      int lane;

      if (g_strcmp0 (th->name, name) != 0)
        continue;
      r = tks_runs_first_ending_after (th->runs, th->n_runs, at);
      if (r < th->n_runs && th->runs[r].begin <= at &&
          (lane = tks_timeline_lane_of_thread (self->capture, &g, i)) >= 0)
        {
          self->selected = (TksTimelineHit) { .lane = (guint) lane, .thread = i, .run = (int) r,
                                              .mark = -1 };
          self->has_selected = TRUE;
          return;
        }
    }
}

/* Shows @capture; @next: another stretch of the same recording, its times those of the
 * capture shown plus @shift (tks_timeline_view_set_next_capture()). */
static void
replace_capture (TksTimelineView *self,
                 TksCapture      *capture,
                 gboolean         next,
                 double           shift)
{
  g_autofree char *selected_name = NULL;
  double selected_at = NAN, begin, end;
  guint lanes_before = n_lanes (self);

  /* find's matches point into the capture they were found in */
  g_clear_pointer (&self->matches, g_array_unref);

  if (next && tks_timeline_view_get_selected_run (self, &begin, &end))
    {
      selected_name = g_strdup (tks_capture_get_thread (self->capture, self->selected.thread)->name);
      selected_at = (begin + end) / 2 + shift;
    }
  if (!g_set_object (&self->capture, capture))
    return;

  self->has_hover = FALSE;
  self->has_selected = FALSE;
  self->mark_a = next ? self->mark_a + shift : NAN;
  self->mark_b = next ? self->mark_b + shift : NAN;
  /* (the ruler's 0 too, so that the texts told from it stay the same) */
  self->origin = next ? self->origin + shift : NAN;
  self->n_event_lanes = tks_timeline_n_event_lanes (capture);
  self->content_serial++;
  if (capture == NULL)
    g_clear_pointer (&self->cache, gsk_render_node_unref);
  update_lane_list (self);
  if (!isnan (selected_at))
    reselect_run (self, selected_name, selected_at);
  rebuild_event_labels (self);
  rebuild_labels (self);
  update_content_height (self);
  _tks_timeline_view_update_info (self);
  invalidate (self);
  start_coverage (self);
  /* the widget's size follows its number of lanes only: a recording's next stretch, with the
   * same threads, places the headers again without laying the window out */
  if (n_lanes (self) != lanes_before)
    gtk_widget_queue_resize (GTK_WIDGET (self));
  else
    queue_place_headers (self);
  /* (the hover above told a run of the capture before) */
  _tks_timeline_view_content_moved (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAPTURE]);
  g_signal_emit (self, signals[LANES_CHANGED], 0);
}

void
tks_timeline_view_set_capture (TksTimelineView *self,
                               TksCapture      *capture)
{
  g_return_if_fail (TKS_IS_TIMELINE_VIEW (self));
  g_return_if_fail (capture == NULL || TKS_IS_CAPTURE (capture));

  self->stretch = FALSE;
  replace_capture (self, capture, FALSE, 0);
}

void
tks_timeline_view_set_stretch (TksTimelineView *self,
                               gboolean         stretch)
{
  g_return_if_fail (TKS_IS_TIMELINE_VIEW (self));

  if (self->stretch == !!stretch)
    return;
  self->stretch = !!stretch;
  /* the Selection panel tells the selected run otherwise */
  _tks_timeline_view_selection_changed (self);
}

void
tks_timeline_view_set_next_capture (TksTimelineView *self,
                                    TksCapture      *capture,
                                    double           shift)
{
  g_return_if_fail (TKS_IS_TIMELINE_VIEW (self));
  g_return_if_fail (TKS_IS_CAPTURE (capture));
  g_return_if_fail (isfinite (shift));

  replace_capture (self, capture, self->capture != NULL, shift);
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
  /* the labels of exited threads say when they exited */
  update_lane_list (self);
  rebuild_labels (self);
  _tks_timeline_view_update_info (self);
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TICK_HZ]);
}

gboolean
tks_timeline_view_get_all_lanes (TksTimelineView *self)
{
  g_return_val_if_fail (TKS_IS_TIMELINE_VIEW (self), FALSE);
  return self->all_lanes;
}

gboolean
tks_timeline_view_get_wake_arrows (TksTimelineView *self)
{
  g_return_val_if_fail (TKS_IS_TIMELINE_VIEW (self), FALSE);
  return self->wake_arrows;
}

void
tks_timeline_view_set_wake_arrows (TksTimelineView *self,
                                   gboolean         wake_arrows)
{
  g_return_if_fail (TKS_IS_TIMELINE_VIEW (self));

  wake_arrows = !!wake_arrows;
  if (self->wake_arrows == wake_arrows)
    return;
  self->wake_arrows = wake_arrows;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
tks_timeline_view_get_load_graph (TksTimelineView *self)
{
  g_return_val_if_fail (TKS_IS_TIMELINE_VIEW (self), FALSE);
  return self->load_graph;
}

void
tks_timeline_view_set_load_graph (TksTimelineView *self,
                                  gboolean         load_graph)
{
  g_return_if_fail (TKS_IS_TIMELINE_VIEW (self));

  load_graph = !!load_graph;
  if (self->load_graph == load_graph)
    return;
  self->load_graph = load_graph;
  rebuild_event_labels (self);
  update_content_height (self);
  invalidate (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

gboolean
tks_timeline_view_get_ruler_ticks (TksTimelineView *self)
{
  g_return_val_if_fail (TKS_IS_TIMELINE_VIEW (self), FALSE);
  return self->ruler_ticks;
}

void
tks_timeline_view_set_ruler_ticks (TksTimelineView *self,
                                   gboolean         ruler_ticks)
{
  g_return_if_fail (TKS_IS_TIMELINE_VIEW (self));

  ruler_ticks = !!ruler_ticks;
  if (self->ruler_ticks == ruler_ticks)
    return;
  self->ruler_ticks = ruler_ticks;
  _tks_timeline_view_update_info (self);
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RULER_TICKS]);
}

void
tks_timeline_view_set_time_origin (TksTimelineView *self,
                                   double           t)
{
  g_return_if_fail (TKS_IS_TIMELINE_VIEW (self));

  self->origin = t;
  /* the lanes stay: only the exits' times are told from elsewhere */
  if (self->capture != NULL && self->lane_list != NULL)
    {
      TksTimelineGeometry g;

      _tks_timeline_view_current_geometry (self, &g);
      sync_lane_list_origin (self, &g);
    }
  rebuild_labels (self);
  _tks_timeline_view_update_info (self);
  invalidate (self);
}

double
tks_timeline_view_get_time_origin (TksTimelineView *self)
{
  g_return_val_if_fail (TKS_IS_TIMELINE_VIEW (self), NAN);
  return self->origin;
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
  update_lane_list (self);
  rebuild_labels (self);
  update_content_height (self);
  _tks_timeline_view_update_info (self);
  invalidate (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  _tks_timeline_view_content_moved (self);
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
  _tks_timeline_view_current_geometry (self, &g);
  *first = CLAMP (g.v_offset / g.lane_height, 0, n);
  *last = CLAMP ((g.v_offset + g.bottom - g.top) / g.lane_height, *first, n);
  return TRUE;
}
