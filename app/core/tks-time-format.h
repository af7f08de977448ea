/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * Times as every part of the program writes them (tooltips, panels, the events list, find,
 * exports): a real time first, in the unit that suits it, then the board's ticks, at the
 * precision the data has. An entry's tick is whole unless the data has a finer clock (a cycle
 * counter: @resolution, the counter's period in ticks, is below 1); the fractions that records
 * sharing a tick are given to keep them in order are no precision and are not shown. Lengths
 * and places the user chose (cursors) are written as they are, without zeros that say
 * nothing.
 */

/**
 * tks_time_format_us:
 * @us: a time in microseconds (negative: before the origin)
 *
 * Writes a time in the unit that suits it: "12.5 µs" under a millisecond, "3.200 ms" under a
 * second, "1.234000 s" above.
 *
 * Returns: (transfer full): the text; free with g_free()
 */
char *tks_time_format_us           (double us);

/**
 * tks_time_tick_decimals:
 * @resolution: the data's finest step, in ticks (1: the tick; 0 or less reads as 1)
 *
 * The decimals that show a tick of the data (an entry's) at @resolution: 0 for a step of a tick or more,
 * else enough for the step (0.25: 2), at most 6.
 *
 * Returns: the number of decimals
 */
int   tks_time_tick_decimals       (double resolution);

/**
 * tks_time_format_ticks:
 * @ticks: a number of ticks (a length, or a place that need not be a tick's: a cursor)
 *
 * Writes @ticks without the zeros that say nothing: "7904 ticks", "1 tick", "17.34 ticks"
 * (to a millionth, as tks_time_format_position()).
 *
 * Returns: (transfer full): the text; free with g_free()
 */
char *tks_time_format_ticks        (double ticks);

/**
 * tks_time_format_position:
 * @t: a position in ticks that need not be a tick's (a cursor, a range's end)
 *
 * Writes a position to a millionth of a tick without the zeros that say nothing: "7904",
 * "17.34", so that a program given it back finds the same place.
 *
 * Returns: (transfer full): the number, written as C does whatever the language; free with
 *   g_free()
 */
char *tks_time_format_position     (double t);

/**
 * tks_time_format_span:
 * @ticks: a length of time, in ticks
 * @tick_hz: ticks per second; 0 or less when unknown
 *
 * Writes a length of time first, its ticks second: "2.000 ms (2 ticks)"; ticks alone when the
 * tick rate is unknown.
 *
 * Returns: (transfer full): the text; free with g_free()
 */
char *tks_time_format_span         (double ticks,
                                    double tick_hz);

/**
 * tks_time_format_at:
 * @t: a point in time, in ticks
 * @origin: the point the time is counted from (the ruler's 0: the trigger, the capture's
 *   start, or one the user chose), in ticks
 * @tick_hz: ticks per second; 0 or less when unknown
 * @resolution: the data's finest step, in ticks
 *
 * Writes a point in time from @origin first, its tick second: "-1.250 ms (tick 7904)"; the
 * tick alone when the tick rate is unknown ("tick 7904").
 *
 * Returns: (transfer full): the text; free with g_free()
 */
char *tks_time_format_at           (double t,
                                    double origin,
                                    double tick_hz,
                                    double resolution);

G_END_DECLS
