/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * File names of exports: which format a name asks for, by its extension, and the name a
 * format gives, so choosing a format in the Export dialog renames the file to match.
 * Formats: "png", "svg", "pdf" (the view), "perfetto", "csv", "ftrace" (the capture).
 */

const char *tks_export_name_get_format    (const char *name);
const char *tks_export_name_get_extension (const char *format);
char       *tks_export_name_set_format    (const char *name,
                                           const char *format);

G_END_DECLS
