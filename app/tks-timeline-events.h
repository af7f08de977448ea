/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-events.h"
#include "tks-time-format.h"
#include "tks-timeline-render.h"

G_BEGIN_DECLS

/*
 * The lanes of a capture's events, above the threads' (tks-events.h): one per interrupt
 * handler (nested runs drawn inside each other), the CPU's sleep, one per state channel
 * (nested states stacked) and one per marker (flags with their value). A capture without
 * events has none. Like the threads' lanes, each pass costs what is visible.
 */

typedef struct
{
  const TksTrack *track;
} TksEventLane;

/* The event lanes, top to bottom; NULL with *n_lanes 0 when the capture has no events. The
 * array is the caller's (g_free). */
TksEventLane *tks_timeline_event_lanes        (TksCapture                *capture,
                                               guint                     *n_lanes);
guint         tks_timeline_n_event_lanes      (TksCapture                *capture);

/* y of event lane @lane. */
double        tks_timeline_event_lane_y       (const TksTimelineGeometry *geometry,
                                               guint                      lane);

void          tks_timeline_render_events      (TksCapture                *capture,
                                               const TksTimelineGeometry *geometry,
                                               TksPainter                *painter);
void          tks_timeline_render_event_headers (TksCapture              *capture,
                                               const TksTimelineGeometry *geometry,
                                               TksPainter                *painter);

/* What is under (@x, @y) in the event lanes, as Pango markup for a tooltip; NULL if nothing. */
char         *tks_timeline_event_tooltip      (TksCapture                *capture,
                                               const TksTimelineGeometry *geometry,
                                               double                     x,
                                               double                     y);

/* The wake-up that ended in the run of thread @thread beginning at @begin (ticks), or NULL. */
const TksWakeup *tks_timeline_wakeup_of_run   (TksCapture                *capture,
                                               guint                      thread,
                                               double                     begin);

/* "12.5 µs", "3.200 ms", "1.234000 s": a time in microseconds, as the core writes every time
 * (tks_time_format_us()). */
static inline char *
tks_timeline_format_us (double us)
{
  return tks_time_format_us (us);
}

/* A point of the view (ticks) as its ruler counts it, time first and tick second: "-1.250 ms
 * (tick 7904)" from the ruler's 0 (@geometry's origin), or "tick 7904" with a ruler in ticks. */
char         *tks_timeline_format_point       (const TksTimelineGeometry *geometry,
                                               double                     t);

G_END_DECLS
