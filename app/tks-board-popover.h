/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tks-transport.h"

G_BEGIN_DECLS

#define TKS_TYPE_BOARD_POPOVER (tks_board_popover_get_type ())
G_DECLARE_FINAL_TYPE (TksBoardPopover, tks_board_popover, TKS, BOARD_POPOVER, GtkPopover)

/* The board popover: the serial ports present and the simulated board, the port entry (which
 * also takes a pty path or tcp:HOST:PORT), the line (baud rate, flow control), the board's
 * tick rate and what the board is doing. Connect, or a double-click on a listed port, pops it
 * down and emits ::connect with the entry's text, stripped (maybe empty). Its property
 * "flow-control" is the flow control's name: "none", "xonxoff" or "rtscts". */

const char     *tks_board_popover_get_port              (TksBoardPopover *self);
void            tks_board_popover_set_port              (TksBoardPopover *self,
                                                         const char      *port);
guint           tks_board_popover_get_baud              (TksBoardPopover *self);
/* Clamped to the range the popover offers (300 to 4000000). */
void            tks_board_popover_set_baud              (TksBoardPopover *self,
                                                         guint            baud);
TksFlowControl  tks_board_popover_get_flow_control      (TksBoardPopover *self);
const char     *tks_board_popover_get_flow_control_name (TksBoardPopover *self);
/* FALSE, changing nothing, for a name that is none of the three. */
gboolean        tks_board_popover_set_flow_control      (TksBoardPopover *self,
                                                         const char      *name);
/* @baud (0 keeps the one set) and @flow (NULL keeps it) together: FALSE, changing nothing, for
 * a value out of range. */
gboolean        tks_board_popover_set_line              (TksBoardPopover *self,
                                                         guint            baud,
                                                         const char      *flow);
/* The board's ticks per second, as the tick rate field shows them. */
GtkAdjustment  *tks_board_popover_get_tick_adjustment   (TksBoardPopover *self);
/* What the board is doing, shown under the fields. */
void            tks_board_popover_set_status            (TksBoardPopover *self,
                                                         const char      *text);

G_END_DECLS
