/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-window.h"

G_BEGIN_DECLS

/*
 * From a figure to its moment, and from a moment to the next (tks-window-navigate.c): the
 * instances the statistics window points to, the next or previous activation of the
 * selected thread and the next or previous event of the kind last shown, and the timeline's
 * keys wherever the focus is in the window.
 */

/* Adds the actions win.show-instance ((ddudiu): begin, end, the thread whose run to select
 * or G_MAXUINT for the one that held the CPU, where its run is, then the kind of instance
 * (a TksWorstKind, -1: a run) and its key for the keys of the same kind), win.next-activation,
 * win.previous-activation, win.next-of-kind, win.previous-of-kind, and the window's key
 * handler that passes the timeline's keys to it. */
void _tks_window_navigate_init (TksWindow *self);

G_END_DECLS
