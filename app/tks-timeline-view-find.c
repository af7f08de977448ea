/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the events list and find ask of the timeline: times in the ruler's units, a run
 * selected and brought to the middle, and the matches of find highlighted on their lanes. */
#include "config.h"

#include <math.h>

#include "tks-timeline-events.h"
#include "tks-timeline-view-private.h"

char *
tks_timeline_view_format_time (TksTimelineView *self,
                               double           t)
{
  g_return_val_if_fail (TKS_IS_TIMELINE_VIEW (self), NULL);
  return _tks_timeline_view_format_time (self, t);
}

char *
tks_timeline_view_format_span (TksTimelineView *self,
                               double           ticks)
{
  g_return_val_if_fail (TKS_IS_TIMELINE_VIEW (self), NULL);
  return _tks_timeline_view_format_span (self, ticks);
}

void
tks_timeline_view_centre_on (TksTimelineView *self,
                             double           t)
{
  double span;

  g_return_if_fail (TKS_IS_TIMELINE_VIEW (self));

  if (self->viewport == NULL || isnan (t))
    return;
  span = tks_viewport_get_span (self->viewport);
  tks_viewport_navigate (self->viewport, t - span / 2, t + span / 2);
}

gboolean
tks_timeline_view_select_run (TksTimelineView *self,
                              guint            thread,
                              guint            run)
{
  TksTimelineGeometry g;
  const TksThread *th;
  int lane;

  g_return_val_if_fail (TKS_IS_TIMELINE_VIEW (self), FALSE);

  if (self->capture == NULL || (th = tks_capture_get_thread (self->capture, thread)) == NULL ||
      run >= th->n_runs)
    return FALSE;
  _tks_timeline_view_current_geometry (self, &g);
  lane = tks_timeline_lane_of_thread (self->capture, &g, thread);
  if (lane < 0)
    return FALSE;
  if (self->has_selected && self->selected.thread == thread && self->selected.run == (int) run)
    return TRUE;
  self->selected = (TksTimelineHit) { .lane = (guint) lane, .thread = thread, .run = (int) run,
                                      .mark = -1 };
  self->has_selected = TRUE;
  _tks_timeline_view_update_info (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

gboolean
tks_timeline_view_get_selection (TksTimelineView *self,
                                 guint           *thread,
                                 guint           *run)
{
  g_return_val_if_fail (TKS_IS_TIMELINE_VIEW (self), FALSE);

  if (self->capture == NULL || !self->has_selected || self->selected.run < 0)
    return FALSE;
  *thread = self->selected.thread;
  *run = (guint) self->selected.run;
  return TRUE;
}

void
tks_timeline_view_set_matches (TksTimelineView *self,
                               GArray          *matches)
{
  g_return_if_fail (TKS_IS_TIMELINE_VIEW (self));

  if (matches == self->matches)
    return;
  g_clear_pointer (&self->matches, g_array_unref);
  if (matches != NULL)
    self->matches = g_array_ref (matches);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The lane's y of a match: its thread's lane, or its event track's; FALSE when not shown. */
static gboolean
match_lane_y (TksTimelineView           *self,
              const TksTimelineGeometry *g,
              const TksEventLane        *event_lanes,
              guint                      n_event_lanes,
              const TksFindMatch        *m,
              double                    *y)
{
  if (m->thread != G_MAXUINT)
    {
      int lane = tks_timeline_lane_of_thread (self->capture, g, m->thread);

      if (lane < 0)
        return FALSE;
      *y = tks_timeline_lane_y (g, (guint) lane);
      return TRUE;
    }
  for (guint i = 0; i < n_event_lanes; i++)
    if (event_lanes[i].track == m->track)
      {
        *y = tks_timeline_event_lane_y (g, i);
        return TRUE;
      }
  return FALSE;
}

/* The matches in view, a band over each on its lane; those narrower than a pixel merged. */
void
_tks_timeline_view_draw_matches (TksTimelineView           *self,
                                 GtkSnapshot               *snapshot,
                                 const TksTimelineGeometry *g)
{
  static const GdkRGBA band = { 1.0, 0.85, 0.0, 0.45 };
  static const GdkRGBA edge = { 0.85, 0.55, 0.0, 0.9 };
  g_autofree TksEventLane *event_lanes = NULL;
  guint n_event_lanes = 0, first, n;
  double last_x = -1, last_y = -1;

  if (self->matches == NULL || self->matches->len == 0 || self->capture == NULL)
    return;
  event_lanes = tks_timeline_event_lanes (self->capture, &n_event_lanes);
  n = self->matches->len;
  /* matches are sorted by begin; a long one may begin before the view */
  first = tks_first_at (self->matches->data, sizeof (TksFindMatch), 0, n, g->x0);
  while (first > 0 && g_array_index (self->matches, TksFindMatch, first - 1).end >= g->x0)
    first--;
  for (guint i = first; i < n; i++)
    {
      const TksFindMatch *m = &g_array_index (self->matches, TksFindMatch, i);
      double x0 = tks_timeline_x_at (g, m->begin), x1 = tks_timeline_x_at (g, m->end), y;

      if (x0 > g->left + g->width)
        break;
      if (x1 < g->left || !match_lane_y (self, g, event_lanes, n_event_lanes, m, &y))
        continue;
      x0 = MAX (x0, g->left);
      x1 = MIN (x1, g->left + g->width);
      if (x1 - x0 < 3)
        {
          x0 -= 1.5;
          x1 = x0 + 3;
        }
      if (floor (x0) == last_x && y == last_y)
        continue;
      last_x = floor (x0);
      last_y = y;
      gtk_snapshot_append_color (snapshot, &band,
                                 &GRAPHENE_RECT_INIT (x0, y + 2, x1 - x0, g->lane_height - 4));
      gtk_snapshot_append_color (snapshot, &edge,
                                 &GRAPHENE_RECT_INIT (x0, y + 2, x1 - x0, 2));
    }
}
