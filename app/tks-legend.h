/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * A popover that tells what the timeline's colours and marks mean, each with a swatch drawn
 * as the timeline draws it (the status line's Legend button).
 */

#define TKS_TYPE_LEGEND (tks_legend_get_type ())

G_DECLARE_FINAL_TYPE (TksLegend, tks_legend, TKS, LEGEND, GtkPopover)

G_END_DECLS
