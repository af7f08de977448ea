/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What is under a point of the timeline: the lane, its thread, the run and the mark within
 * a few pixels, for the hover, the selection and the tooltips. */
#include "config.h"

#include <math.h>

#include "tks-timeline-render.h"

/* The run and the mark of @thread within @tol of @t; whether there is either. */
static gboolean
hit_thread (const TksThread *thread,
            double           t,
            double           tol,
            TksTimelineHit  *hit)
{
  hit->thread = thread->index;
  hit->run = -1;
  hit->mark = -1;
  if (thread->n_runs > 0)
    {
      guint i = tks_runs_first_ending_after (thread->runs, thread->n_runs, t - tol);

      if (i < thread->n_runs && thread->runs[i].begin <= t + tol)
        {
          /* prefer the run that really contains t */
          if (thread->runs[i].end <= t && i + 1 < thread->n_runs &&
              thread->runs[i + 1].begin <= t + tol)
            i++;
          hit->run = (int)i;
        }
    }
  if (thread->n_marks > 0)
    {
      guint i = tks_marks_first_at (thread->marks, 0, thread->n_marks, t - tol);

      if (i < thread->n_marks && thread->marks[i].pos <= t + tol)
        hit->mark = (int)i;
    }
  return hit->run >= 0 || hit->mark >= 0;
}

/* The thread of a lane (@threads, at least one: a group's members, or a thread alone) that a
 * place without a run tells of at @t: the one alive there (seen by then, not exited), else the
 * last to exit before it, else the first (nothing of the lane is seen before @t). */
static const TksThread *
group_member_at (TksCapture  *capture,
                 const guint *threads,
                 guint        n_threads,
                 double       t)
{
  const TksThread *first = tks_capture_get_thread (capture, threads[0]);
  const TksThread *exited = NULL;

  for (guint i = 0; i < n_threads; i++)
    {
      const TksThread *m = tks_capture_get_thread (capture, threads[i]);
      gboolean gone;

      if (m == NULL)
        continue;
      gone = (m->flags & TKS_THREAD_EXITED) && t >= m->exit_time;
      if (!gone && !isnan (m->first_event) && m->first_event <= t)
        return m;
      if (gone && (exited == NULL || m->exit_time > exited->exit_time))
        exited = m;
    }
  return exited != NULL ? exited : first;
}

gboolean
tks_timeline_hit_test (TksCapture                *capture,
                       const TksTimelineGeometry *g,
                       double                     x,
                       double                     y,
                       TksTimelineHit            *hit)
{
  const guint *threads;
  const TksThread *thread;
  guint n_threads;
  double lane, t, tol, scale;

  if (capture == NULL || g->width <= 0 || !(g->x1 > g->x0))
    return FALSE;
  if (y < g->top || y >= g->bottom || x < g->left || x > g->left + g->width)
    return FALSE;
  if (y < tks_timeline_scroll_top (g))
    lane = floor ((y - g->top) / g->lane_height);   /* a pinned lane, which does not scroll */
  else
    {
      lane = floor ((y - g->top + g->v_offset) / g->lane_height) - g->n_event_lanes;
      if (lane < g->n_pinned)
        return FALSE;   /* an event lane, or a pinned lane's place in the scrolled lanes */
    }
  if (lane < 0 || lane >= tks_timeline_n_lanes (capture, g))
    return FALSE;
  threads = tks_timeline_lane_threads (capture, g, (guint) lane, &n_threads, NULL);
  thread = n_threads > 0 ? tks_capture_get_thread (capture, threads[0]) : NULL;
  if (thread == NULL)
    return FALSE;

  scale = g->width / (g->x1 - g->x0);
  t = g->x0 + (x - g->left) / scale;
  tol = 3.0 / scale;
  hit->lane = (guint)lane;
  /* a group's lane: the member that ran or was marked there */
  for (guint i = 0; i < n_threads; i++)
    {
      const TksThread *member = tks_capture_get_thread (capture, threads[i]);

      if (member != NULL && hit_thread (member, t, tol, hit))
        return TRUE;
    }
  hit_thread (group_member_at (capture, threads, n_threads, t), t, tol, hit);
  return TRUE;
}
