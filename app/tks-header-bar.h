/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * The window's header bar: Threads, Open, Save, Board, Trigger, Run, Get new data and Record
 * at the start; the main menu, Zoom to fit, Back and Forward at the end; the title with the
 * board and its state under it. When the window is too narrow for the text buttons and the
 * title, the text buttons show icons (their accessible names stay), and the header's minimum
 * width is the one it has with icons. While recording, Record is a red Stop button.
 */

#define TKS_TYPE_HEADER_BAR (tks_header_bar_get_type ())

G_DECLARE_FINAL_TYPE (TksHeaderBar, tks_header_bar, TKS, HEADER_BAR, GtkWidget)

/* The line under the title; NULL hides it. */
void           tks_header_bar_set_subtitle         (TksHeaderBar *self,
                                                    const char   *subtitle);
/* A window about to open @width pixels wide: icons at once if the text buttons and the title
 * would not fit (the header would otherwise widen the window). */
void           tks_header_bar_fit_width            (TksHeaderBar *self,
                                                    int           width);
GtkMenuButton *tks_header_bar_get_board_button     (TksHeaderBar *self);
GtkMenuButton *tks_header_bar_get_menu_button      (TksHeaderBar *self);
/* The Trigger button's menu (NULL: none, the arrow is then insensitive). */
void           tks_header_bar_set_trigger_popover  (TksHeaderBar *self,
                                                    GtkPopover   *popover);
GtkWidget     *tks_header_bar_get_record_button    (TksHeaderBar *self);
/* While recording, Record is a red Stop button named "Stop Recording". */
void           tks_header_bar_set_recording        (TksHeaderBar *self,
                                                    gboolean      recording);
/* The main menu's sections that the window fills: Open Recent and History. */
GMenu         *tks_header_bar_get_recent_section   (TksHeaderBar *self);
GMenu         *tks_header_bar_get_history_section  (TksHeaderBar *self);

G_END_DECLS
