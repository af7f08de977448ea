/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * The window's progress line, under the header: what is under way, a bar and Cancel. It
 * slides in only when the work lasts (200 ms), pulses until a fraction is known, and a
 * stopped bar is given a fraction so that nothing animates while it is hidden.
 * TksProgress::cancel is emitted when Cancel is pressed (the line is then stopped).
 */

#define TKS_TYPE_PROGRESS (tks_progress_get_type ())

G_DECLARE_FINAL_TYPE (TksProgress, tks_progress, TKS, PROGRESS, GtkWidget)

/* Shows @text, after a moment, with a pulsing bar. */
void tks_progress_start        (TksProgress *self,
                                const char  *text);
void tks_progress_set_text     (TksProgress *self,
                                const char  *text);
/* The part done, from 0 to 1: the bar stops pulsing. */
void tks_progress_set_fraction (TksProgress *self,
                                double       fraction);
void tks_progress_stop         (TksProgress *self);

G_END_DECLS
