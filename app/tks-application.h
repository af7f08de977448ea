/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define TKS_TYPE_APPLICATION (tks_application_get_type ())
G_DECLARE_FINAL_TYPE (TksApplication, tks_application, TKS, APPLICATION, AdwApplication)

TksApplication *tks_application_new          (void);
/* The application's settings, or NULL when the schema is not installed. */
GSettings      *tks_application_get_settings (TksApplication *self);

G_END_DECLS
