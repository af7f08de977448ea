/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Gives @widget the tooltip @text (NULL: none). Unlike gtk_widget_set_tooltip_text(), which
 * asks the windowing system where the pointer is each time (a round trip to an X server),
 * this only keeps the text until a tooltip is about to show: what a recording's widgets,
 * changed every second, can afford. */
void tks_widget_set_tooltip (GtkWidget  *widget,
                             const char *text);

G_END_DECLS
