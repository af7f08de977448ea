/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tks-capture.h"
#include "tks-viewport.h"

G_BEGIN_DECLS

/* A strip showing the whole capture with the visible range highlighted; clicking or
 * dragging in it moves the view. */

#define TKS_TYPE_OVERVIEW (tks_overview_get_type ())
G_DECLARE_FINAL_TYPE (TksOverview, tks_overview, TKS, OVERVIEW, GtkWidget)

GtkWidget *tks_overview_new          (void);
void       tks_overview_set_capture  (TksOverview *self,
                                      TksCapture  *capture);
void       tks_overview_set_viewport (TksOverview *self,
                                      TksViewport *viewport);

G_END_DECLS
