/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the timeline shows: the capture, or a recording's next stretch of it (the selection
 * found again), and the lane list that follows the capture, its tick rate and its origin. */
#include "config.h"

#include <math.h>

#include "tks-timeline-events.h"
#include "tks-timeline-view-private.h"

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
  /* an image of the lanes before no longer stands in for one of these */
  if (differ)
    self->lanes_serial++;
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
  _tks_timeline_view_rebuild_labels (self);
  _tks_timeline_view_update_content_height (self);
  _tks_timeline_view_update_info (self);
  _tks_timeline_view_invalidate (self);
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
  _tks_timeline_view_lanes_changed (self);
}

/* Exits are told from the ruler's 0, as the tooltips do. */
void
_tks_timeline_view_sync_lane_list_origin (TksTimelineView           *self,
                                          const TksTimelineGeometry *g)
{
  g_signal_handlers_block_by_func (self->lane_list, lane_list_changed_cb, self);
  tks_lane_list_set_time_origin (self->lane_list, g->origin);
  g_signal_handlers_unblock_by_func (self->lane_list, lane_list_changed_cb, self);
  lanes_differ (self);
}

/* The lane list follows the capture, whether the lanes of threads that exited before the log
 * are shown, and the tick rate its labels are written in. */
void
_tks_timeline_view_update_lane_list (TksTimelineView *self)
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
  _tks_timeline_view_sync_lane_list_origin (self, &g);
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
gboolean
_tks_timeline_view_replace_capture (TksTimelineView *self,
                                    TksCapture      *capture,
                                    gboolean         next,
                                    double           shift)
{
  g_autofree char *selected_name = NULL;
  double selected_at = NAN, begin, end;
  guint lanes_before = _tks_timeline_view_n_lanes (self);

  /* find's matches point into the capture they were found in */
  g_clear_pointer (&self->matches, g_array_unref);

  if (next && tks_timeline_view_get_selected_run (self, &begin, &end))
    {
      selected_name = g_strdup (tks_capture_get_thread (self->capture, self->selected.thread)->name);
      selected_at = (begin + end) / 2 + shift;
    }
  if (!g_set_object (&self->capture, capture))
    return FALSE;

  self->has_hover = FALSE;
  self->has_selected = FALSE;
  self->mark_a = next ? self->mark_a + shift : NAN;
  self->mark_b = next ? self->mark_b + shift : NAN;
  /* (the ruler's 0 too, so that the texts told from it stay the same) */
  self->origin = next ? self->origin + shift : NAN;
  self->n_event_lanes = tks_timeline_n_event_lanes (capture);
  self->content_serial++;
  /* Another capture's bars never show under this one's names: its image is drawn at the next
   * frame, with its headers; only a recording's next stretch (its lanes the same) shows the
   * image before until a worker has drawn the new one. (And a worker's image of the capture
   * before is dropped.) */
  if (!next)
    _tks_timeline_view_drop_image (self);
  _tks_timeline_view_update_lane_list (self);
  if (!isnan (selected_at))
    reselect_run (self, selected_name, selected_at);
  _tks_timeline_view_rebuild_event_labels (self);
  _tks_timeline_view_rebuild_labels (self);
  _tks_timeline_view_update_content_height (self);
  _tks_timeline_view_update_info (self);
  _tks_timeline_view_invalidate (self);
  _tks_timeline_view_start_coverage (self);
  /* the widget's size follows its number of lanes only: a recording's next stretch, with the
   * same threads, places the headers again without laying the window out */
  if (_tks_timeline_view_n_lanes (self) != lanes_before)
    gtk_widget_queue_resize (GTK_WIDGET (self));
  else
    _tks_timeline_view_queue_place_headers (self);
  /* (the hover above told a run of the capture before) */
  _tks_timeline_view_content_moved (self);
  return TRUE;
}
