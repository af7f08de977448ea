/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "tks-viewport.h"

#define MIN_SPAN_TICKS 0.01
#define MAX_HISTORY    100

typedef struct
{
  double x0;
  double x1;
} Range;

struct _TksViewport
{
  GObject parent_instance;

  double  start;
  double  end;
  double  fit_start; /* what Zoom to fit shows: the data, inside the bounds */
  double  fit_end;
  double  x0;
  double  x1;

  double  content_height;
  double  page_height;
  double  v_offset;

  GArray *back;
  GArray *forward;
  gint64  last_push;
};

G_DEFINE_FINAL_TYPE (TksViewport, tks_viewport, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CAN_GO_BACK,
  PROP_CAN_GO_FORWARD,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
tks_viewport_finalize (GObject *object)
{
  TksViewport *self = (TksViewport *)object;

  g_clear_pointer (&self->back, g_array_unref);
  g_clear_pointer (&self->forward, g_array_unref);

  G_OBJECT_CLASS (tks_viewport_parent_class)->finalize (object);
}

static void
tks_viewport_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  TksViewport *self = TKS_VIEWPORT (object);

  switch (prop_id)
    {
    case PROP_CAN_GO_BACK:
      g_value_set_boolean (value, tks_viewport_can_go_back (self));
      break;

    case PROP_CAN_GO_FORWARD:
      g_value_set_boolean (value, tks_viewport_can_go_forward (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_viewport_class_init (TksViewportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tks_viewport_finalize;
  object_class->get_property = tks_viewport_get_property;

  properties[PROP_CAN_GO_BACK] =
    g_param_spec_boolean ("can-go-back", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_GO_FORWARD] =
    g_param_spec_boolean ("can-go-forward", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TksViewport::changed:
   *
   * The visible range, the bounds or the vertical offset changed.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tks_viewport_init (TksViewport *self)
{
  self->start = 0;
  self->end = 1;
  self->x0 = 0;
  self->x1 = 1;
  self->back = g_array_new (FALSE, FALSE, sizeof (Range));
  self->forward = g_array_new (FALSE, FALSE, sizeof (Range));
}

TksViewport *
tks_viewport_new (void)
{
  return g_object_new (TKS_TYPE_VIEWPORT, NULL);
}

static double
full_span (TksViewport *self)
{
  return MAX (self->end - self->start, MIN_SPAN_TICKS);
}

static void
clamp_range (TksViewport *self,
             double      *x0,
             double      *x1)
{
  double span = *x1 - *x0;
  double full = full_span (self);

  if (!isfinite (*x0) || !isfinite (*x1) || !isfinite (span))
    {
      *x0 = self->start;
      *x1 = self->start + full;
      return;
    }

  if (span < MIN_SPAN_TICKS)
    {
      double mid = (*x0 + *x1) / 2;
      span = MIN_SPAN_TICKS;
      *x0 = mid - span / 2;
    }
  if (span > full)
    span = full;

  if (*x0 < self->start)
    *x0 = self->start;
  if (*x0 + span > self->start + full)
    *x0 = self->start + full - span;
  *x1 = *x0 + span;
}

static void
notify_history (TksViewport *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_BACK]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_FORWARD]);
}

static void
apply_range (TksViewport *self,
             double       x0,
             double       x1)
{
  clamp_range (self, &x0, &x1);
  if (x0 == self->x0 && x1 == self->x1)
    return;
  self->x0 = x0;
  self->x1 = x1;
  g_signal_emit (self, signals[CHANGED], 0);
}

void
tks_viewport_set_bounds (TksViewport *self,
                         double       start,
                         double       end)
{
  g_return_if_fail (TKS_IS_VIEWPORT (self));

  if (!isfinite (start) || !isfinite (end) || end < start)
    {
      start = 0;
      end = 1;
    }

  self->start = self->fit_start = start;
  self->end = self->fit_end = end;
  self->x0 = start;
  self->x1 = start + full_span (self);
  tks_viewport_clear_history (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

double
tks_viewport_get_start (TksViewport *self)
{
  g_return_val_if_fail (TKS_IS_VIEWPORT (self), 0);
  return self->start;
}

double
tks_viewport_get_end (TksViewport *self)
{
  g_return_val_if_fail (TKS_IS_VIEWPORT (self), 0);
  return self->end;
}

double
tks_viewport_get_visible_start (TksViewport *self)
{
  g_return_val_if_fail (TKS_IS_VIEWPORT (self), 0);
  return self->x0;
}

double
tks_viewport_get_visible_end (TksViewport *self)
{
  g_return_val_if_fail (TKS_IS_VIEWPORT (self), 0);
  return self->x1;
}

double
tks_viewport_get_span (TksViewport *self)
{
  g_return_val_if_fail (TKS_IS_VIEWPORT (self), 0);
  return self->x1 - self->x0;
}

double
tks_viewport_get_min_span (TksViewport *self)
{
  return MIN_SPAN_TICKS;
}

void
tks_viewport_set_range (TksViewport *self,
                        double       visible_start,
                        double       visible_end)
{
  g_return_if_fail (TKS_IS_VIEWPORT (self));
  apply_range (self, visible_start, visible_end);
}

static void
push_range (GArray *array,
            double  x0,
            double  x1)
{
  Range r = { x0, x1 };

  if (array->len > 0)
    {
      Range *last = &g_array_index (array, Range, array->len - 1);
      if (last->x0 == x0 && last->x1 == x1)
        return;
    }
  if (array->len >= MAX_HISTORY)
    g_array_remove_index (array, 0);
  g_array_append_val (array, r);
}

void
tks_viewport_push_history (TksViewport *self,
                           gint64       coalesce_usec)
{
  gint64 now;

  g_return_if_fail (TKS_IS_VIEWPORT (self));

  now = g_get_monotonic_time ();
  if (coalesce_usec > 0 && self->last_push != 0 && now - self->last_push < coalesce_usec)
    {
      self->last_push = now;
      return;
    }
  self->last_push = now;
  push_range (self->back, self->x0, self->x1);
  g_array_set_size (self->forward, 0);
  notify_history (self);
}

void
tks_viewport_navigate (TksViewport *self,
                       double       visible_start,
                       double       visible_end)
{
  double x0 = visible_start;
  double x1 = visible_end;

  g_return_if_fail (TKS_IS_VIEWPORT (self));

  clamp_range (self, &x0, &x1);
  if (x0 == self->x0 && x1 == self->x1)
    return;
  self->last_push = 0;
  tks_viewport_push_history (self, 0);
  apply_range (self, x0, x1);
}

void
tks_viewport_set_fit (TksViewport *self,
                      double       start,
                      double       end)
{
  gboolean whole;

  g_return_if_fail (TKS_IS_VIEWPORT (self));

  if (!isfinite (start) || !isfinite (end))
    start = self->start, end = self->end;
  start = CLAMP (start, self->start, self->end);
  end = CLAMP (end, start, self->end);
  whole = self->x0 == self->start && self->x1 == self->start + full_span (self);
  self->fit_start = start;
  self->fit_end = end;
  /* a view that showed the whole capture shows the data */
  if (whole)
    apply_range (self, start, MAX (end, start + MIN_SPAN_TICKS));
}

void
tks_viewport_zoom_to_fit (TksViewport *self)
{
  g_return_if_fail (TKS_IS_VIEWPORT (self));
  tks_viewport_navigate (self, self->fit_start, MAX (self->fit_end, self->fit_start + MIN_SPAN_TICKS));
}

void
tks_viewport_zoom (TksViewport *self,
                   double       factor,
                   double       anchor)
{
  double span, t, new_span;

  g_return_if_fail (TKS_IS_VIEWPORT (self));

  if (!(factor > 0) || !isfinite (factor))
    return;
  anchor = CLAMP (anchor, 0.0, 1.0);
  span = self->x1 - self->x0;
  t = self->x0 + anchor * span;
  new_span = CLAMP (span / factor, MIN_SPAN_TICKS, full_span (self));
  apply_range (self, t - anchor * new_span, t - anchor * new_span + new_span);
}

void
tks_viewport_pan (TksViewport *self,
                  double       fraction)
{
  g_return_if_fail (TKS_IS_VIEWPORT (self));
  tks_viewport_pan_ticks (self, fraction * (self->x1 - self->x0));
}

void
tks_viewport_pan_ticks (TksViewport *self,
                        double       ticks)
{
  g_return_if_fail (TKS_IS_VIEWPORT (self));
  if (!isfinite (ticks))
    return;
  apply_range (self, self->x0 + ticks, self->x1 + ticks);
}

void
tks_viewport_go_start (TksViewport *self)
{
  double span;

  g_return_if_fail (TKS_IS_VIEWPORT (self));
  span = self->x1 - self->x0;
  tks_viewport_navigate (self, self->start, self->start + span);
}

void
tks_viewport_go_end (TksViewport *self)
{
  double span;

  g_return_if_fail (TKS_IS_VIEWPORT (self));
  span = self->x1 - self->x0;
  tks_viewport_navigate (self, self->start + full_span (self) - span, self->start + full_span (self));
}

gboolean
tks_viewport_can_go_back (TksViewport *self)
{
  g_return_val_if_fail (TKS_IS_VIEWPORT (self), FALSE);
  return self->back->len > 0;
}

gboolean
tks_viewport_can_go_forward (TksViewport *self)
{
  g_return_val_if_fail (TKS_IS_VIEWPORT (self), FALSE);
  return self->forward->len > 0;
}

static gboolean
step_history (TksViewport *self,
              GArray      *from,
              GArray      *to)
{
  Range r;

  if (from->len == 0)
    return FALSE;
  r = g_array_index (from, Range, from->len - 1);
  g_array_set_size (from, from->len - 1);
  push_range (to, self->x0, self->x1);
  self->last_push = 0;
  apply_range (self, r.x0, r.x1);
  notify_history (self);
  return TRUE;
}

gboolean
tks_viewport_go_back (TksViewport *self)
{
  g_return_val_if_fail (TKS_IS_VIEWPORT (self), FALSE);
  return step_history (self, self->back, self->forward);
}

gboolean
tks_viewport_go_forward (TksViewport *self)
{
  g_return_val_if_fail (TKS_IS_VIEWPORT (self), FALSE);
  return step_history (self, self->forward, self->back);
}

void
tks_viewport_clear_history (TksViewport *self)
{
  g_return_if_fail (TKS_IS_VIEWPORT (self));
  g_array_set_size (self->back, 0);
  g_array_set_size (self->forward, 0);
  self->last_push = 0;
  notify_history (self);
}

static double
max_v_offset (TksViewport *self)
{
  return MAX (0.0, self->content_height - self->page_height);
}

void
tks_viewport_set_content_height (TksViewport *self,
                                 double       content_height,
                                 double       page_height)
{
  double v;

  g_return_if_fail (TKS_IS_VIEWPORT (self));

  if (content_height == self->content_height && page_height == self->page_height)
    return;
  self->content_height = MAX (0.0, content_height);
  self->page_height = MAX (0.0, page_height);
  v = CLAMP (self->v_offset, 0.0, max_v_offset (self));
  self->v_offset = v;
  g_signal_emit (self, signals[CHANGED], 0);
}

double
tks_viewport_get_content_height (TksViewport *self)
{
  g_return_val_if_fail (TKS_IS_VIEWPORT (self), 0);
  return self->content_height;
}

double
tks_viewport_get_page_height (TksViewport *self)
{
  g_return_val_if_fail (TKS_IS_VIEWPORT (self), 0);
  return self->page_height;
}

double
tks_viewport_get_v_offset (TksViewport *self)
{
  g_return_val_if_fail (TKS_IS_VIEWPORT (self), 0);
  return self->v_offset;
}

void
tks_viewport_set_v_offset (TksViewport *self,
                           double       v_offset)
{
  g_return_if_fail (TKS_IS_VIEWPORT (self));

  if (!isfinite (v_offset))
    return;
  v_offset = CLAMP (v_offset, 0.0, max_v_offset (self));
  if (v_offset == self->v_offset)
    return;
  self->v_offset = v_offset;
  g_signal_emit (self, signals[CHANGED], 0);
}

void
tks_viewport_scroll_v (TksViewport *self,
                       double       dy)
{
  g_return_if_fail (TKS_IS_VIEWPORT (self));
  tks_viewport_set_v_offset (self, self->v_offset + dy);
}

double
tks_viewport_time_to_x (TksViewport *self,
                        double       t,
                        double       width)
{
  g_return_val_if_fail (TKS_IS_VIEWPORT (self), 0);
  return (t - self->x0) * width / (self->x1 - self->x0);
}

double
tks_viewport_x_to_time (TksViewport *self,
                        double       x,
                        double       width)
{
  g_return_val_if_fail (TKS_IS_VIEWPORT (self), 0);
  if (width <= 0)
    return self->x0;
  return self->x0 + x * (self->x1 - self->x0) / width;
}
