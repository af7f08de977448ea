/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tks-capture.h"

G_BEGIN_DECLS

/* The statistics window's page of periods and deadlines (tks-periods.h): per thread made
 * ready in the capture, its detected period or "aperiodic", the jitter of its activation
 * interval, its response times and its deadline misses against the detected period, with a
 * button that shows its longest response on the timeline (the window's "win.show-span"
 * action, two positions in ticks). Over the whole capture. */

#define TKS_TYPE_PERIODS_PAGE (tks_periods_page_get_type ())
G_DECLARE_FINAL_TYPE (TksPeriodsPage, tks_periods_page, TKS, PERIODS_PAGE, GtkWidget)

GtkWidget *tks_periods_page_new         (void);
void       tks_periods_page_set_capture (TksPeriodsPage *self,
                                         TksCapture     *capture);

G_END_DECLS
