/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The text of widgets that change while a recording runs, written so that a change costs a
 * redraw of the widget only: no layout of the window, no round trip to the windowing system. */

/* Gives @widget the tooltip @text (NULL: none). Unlike gtk_widget_set_tooltip_text(), which
 * asks the windowing system where the pointer is each time (a round trip to an X server),
 * this only keeps the text until a tooltip is about to show: what a recording's widgets,
 * changed every second, can afford. */
void tks_widget_set_tooltip (GtkWidget  *widget,
                             const char *text);

/* Makes the GtkInscription @inscription show and tell screen readers @text; nothing when it
 * says so already. An inscription's size does not follow its text (its min-chars and
 * nat-chars decide it), so a new text only redraws it, where a GtkLabel's lays out the whole
 * window again. */
void tks_inscription_set_text (GtkWidget  *inscription,
                               const char *text);

G_END_DECLS
