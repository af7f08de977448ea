/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The timeline widget: its properties, signals and geometry. Its other parts, each in a file
 * of its own: what it shows (tks-timeline-view-capture.c), the lane headers (-headers.c), the
 * cached image and the coverage summaries (-cache.c), the frame (-draw.c), pointer, keys and
 * the info line (-input.c), find's matches (-find.c), the Selection panel (-selection.c); the
 * fields in tks-timeline-view-private.h. */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tks-coverage.h"
#include "tks-timeline-view-private.h"

G_DEFINE_FINAL_TYPE (TksTimelineView, tks_timeline_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_CAPTURE,
  PROP_VIEWPORT,
  PROP_TICK_HZ,
  PROP_INFO,
  PROP_ALL_LANES,
  PROP_RULER_TICKS,
  PROP_LOAD_GRAPH,
  PROP_WAKE_ARROWS,
  PROP_TIME_ORIGIN,
  PROP_STRETCH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];


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
_tks_timeline_view_lanes_changed (TksTimelineView *self)
{
  g_signal_emit (self, signals[LANES_CHANGED], 0);
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
    {
      g->lanes = tks_lane_list_get_lanes (self->lane_list, &g->n_lanes);
      /* the pinned rows' lanes come first: they stay put while the others scroll */
      while (g->n_pinned < g->n_lanes)
        {
          const TksLaneRow *row = g->lanes[g->n_pinned].row;

          if (row == NULL || !(row->pinned || (row->group != NULL && row->group->pinned)))
            break;
          g->n_pinned++;
        }
    }
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

guint
_tks_timeline_view_n_lanes (TksTimelineView *self)
{
  guint n = 0;

  if (self->capture != NULL && self->lane_list != NULL)
    tks_lane_list_get_lanes (self->lane_list, &n);
  return n;
}

/* What the image shows changed: it is drawn again at the next frame (the previous one is kept
 * for a worker's drawing of a new capture, see update_cache()). */
void
_tks_timeline_view_invalidate (TksTimelineView *self)
{
  self->change_serial++;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}


static void
viewport_changed_cb (TksTimelineView *self,
                     TksViewport     *viewport)
{
  _tks_timeline_view_invalidate (self);
  if (!_tks_timeline_view_labels_cover_view (self))
    _tks_timeline_view_rebuild_labels (self);
  _tks_timeline_view_queue_place_headers (self);
  _tks_timeline_view_content_moved (self);
}

void
_tks_timeline_view_update_content_height (TksTimelineView *self)
{
  double h = gtk_widget_get_height (GTK_WIDGET (self));

  tks_viewport_set_content_height (self->viewport,
                                   (_tks_timeline_view_n_lanes (self) + self->n_event_lanes + (self->load_graph ? 1 : 0))
                                   * TKS_TIMELINE_LANE_HEIGHT,
                                   MAX (0.0, h - TKS_TIMELINE_RULER_HEIGHT));
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
  _tks_timeline_view_clear_cache (self);
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

    case PROP_LOAD_GRAPH:
      g_value_set_boolean (value, self->load_graph);
      break;

    case PROP_WAKE_ARROWS:
      g_value_set_boolean (value, self->wake_arrows);
      break;

    case PROP_TIME_ORIGIN:
      g_value_set_double (value, self->origin);
      break;

    case PROP_STRETCH:
      g_value_set_boolean (value, self->stretch);
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

    case PROP_LOAD_GRAPH:
      tks_timeline_view_set_load_graph (self, g_value_get_boolean (value));
      break;

    case PROP_WAKE_ARROWS:
      tks_timeline_view_set_wake_arrows (self, g_value_get_boolean (value));
      break;

    case PROP_TIME_ORIGIN:
      tks_timeline_view_set_time_origin (self, g_value_get_double (value));
      break;

    case PROP_STRETCH:
      tks_timeline_view_set_stretch (self, g_value_get_boolean (value));
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

  widget_class->snapshot = _tks_timeline_view_snapshot;
  widget_class->realize = tks_timeline_view_realize;
  widget_class->size_allocate = _tks_timeline_view_size_allocate;
  widget_class->measure = _tks_timeline_view_measure;

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
  /* The CPU's load as a lane above the others. */
  properties[PROP_LOAD_GRAPH] =
    g_param_spec_boolean ("load-graph", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* An arrow from what made each visible thread ready to the run it led to. */
  properties[PROP_WAKE_ARROWS] =
    g_param_spec_boolean ("wake-arrows", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The time ruler's 0 (ticks) the user chose; NAN (the value it starts with, though a
   * double's default cannot say so): the trigger, or the capture's start without one. */
  properties[PROP_TIME_ORIGIN] =
    g_param_spec_double ("time-origin", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The capture is a stretch of a recording under way rather than a whole log. */
  properties[PROP_STRETCH] =
    g_param_spec_boolean ("stretch", NULL, NULL, FALSE,
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

/* Whether two times of the ruler's 0 are the same (NAN, none, is the same as NAN). */
static gboolean
same_origin (double a,
             double b)
{
  return a == b || (isnan (a) && isnan (b));
}

/* Shows @capture (_tks_timeline_view_replace_capture()) and tells what changed. */
static void
show_capture (TksTimelineView *self,
              TksCapture      *capture,
              gboolean         next,
              double           shift)
{
  double origin = self->origin;

  if (!_tks_timeline_view_replace_capture (self, capture, next, shift))
    return;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAPTURE]);
  if (!same_origin (origin, self->origin))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME_ORIGIN]);
  _tks_timeline_view_lanes_changed (self);
}

void
tks_timeline_view_set_capture (TksTimelineView *self,
                               TksCapture      *capture)
{
  gboolean stretch;

  g_return_if_fail (TKS_IS_TIMELINE_VIEW (self));
  g_return_if_fail (capture == NULL || TKS_IS_CAPTURE (capture));

  stretch = self->stretch;
  self->stretch = FALSE;
  show_capture (self, capture, FALSE, 0);
  if (stretch)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STRETCH]);
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
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STRETCH]);
}

void
tks_timeline_view_set_next_capture (TksTimelineView *self,
                                    TksCapture      *capture,
                                    double           shift)
{
  g_return_if_fail (TKS_IS_TIMELINE_VIEW (self));
  g_return_if_fail (TKS_IS_CAPTURE (capture));
  g_return_if_fail (isfinite (shift));

  show_capture (self, capture, self->capture != NULL, shift);
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
  _tks_timeline_view_update_content_height (self);
  _tks_timeline_view_invalidate (self);
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
  _tks_timeline_view_update_lane_list (self);
  _tks_timeline_view_rebuild_labels (self);
  _tks_timeline_view_update_info (self);
  _tks_timeline_view_invalidate (self);
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
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WAKE_ARROWS]);
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
  _tks_timeline_view_rebuild_event_labels (self);
  _tks_timeline_view_update_content_height (self);
  _tks_timeline_view_invalidate (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOAD_GRAPH]);
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
  _tks_timeline_view_invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RULER_TICKS]);
}

void
tks_timeline_view_set_time_origin (TksTimelineView *self,
                                   double           t)
{
  gboolean changed;

  g_return_if_fail (TKS_IS_TIMELINE_VIEW (self));

  changed = !same_origin (self->origin, t);
  self->origin = t;
  /* the lanes stay: only the exits' times are told from elsewhere */
  if (self->capture != NULL && self->lane_list != NULL)
    {
      TksTimelineGeometry g;

      _tks_timeline_view_current_geometry (self, &g);
      _tks_timeline_view_sync_lane_list_origin (self, &g);
    }
  _tks_timeline_view_rebuild_labels (self);
  _tks_timeline_view_update_info (self);
  _tks_timeline_view_invalidate (self);
  if (changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME_ORIGIN]);
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
  _tks_timeline_view_update_lane_list (self);
  _tks_timeline_view_rebuild_labels (self);
  _tks_timeline_view_update_content_height (self);
  _tks_timeline_view_update_info (self);
  _tks_timeline_view_invalidate (self);
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
  double n = _tks_timeline_view_n_lanes (self);

  g_return_val_if_fail (TKS_IS_TIMELINE_VIEW (self), FALSE);

  if (n == 0)
    return FALSE;
  _tks_timeline_view_current_geometry (self, &g);
  *first = CLAMP (g.v_offset / g.lane_height, 0, n);
  *last = CLAMP ((g.v_offset + g.bottom - g.top) / g.lane_height, *first, n);
  return TRUE;
}
