/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * The status line's count of the capture's warnings ("Warnings"), hidden when there are none,
 * and the window that lists every warning with its line, to read or copy ("Capture
 * Warnings"), which the button's action (win.show-warnings) presents.
 */

#define TKS_TYPE_WARNINGS_BUTTON (tks_warnings_button_get_type ())

G_DECLARE_FINAL_TYPE (TksWarningsButton, tks_warnings_button, TKS, WARNINGS_BUTTON, GtkButton)

/* The warnings, @n of them, one a line; the window follows if it is open. */
void tks_warnings_button_set_warnings (TksWarningsButton  *self,
                                       const char * const *warnings,
                                       guint               n);
/* Presents the window of every warning, over the button's window. */
void tks_warnings_button_present      (TksWarningsButton  *self);

G_END_DECLS
