/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void tks_frame_stats_attach_from_env (GtkWidget *widget);

G_END_DECLS
