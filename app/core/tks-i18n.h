/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * tks_i18n_locale_dir:
 *
 * The folder holding the program's translations: the build tree's po/ when the program runs
 * from its build tree; else PREFIX/share/locale of the tree it is installed in, which is
 * LOCALEDIR unless that tree was moved or installed under DESTDIR.
 *
 * Returns: (transfer full) (type filename): the folder's path; free with g_free()
 */
char *tks_i18n_locale_dir (void);

/**
 * tks_i18n_init:
 *
 * Sets the locale from the environment and binds the program's messages and the core's to
 * their translations. Programs call it first thing in main().
 */
void  tks_i18n_init       (void);

/**
 * tks_i18n_escape:
 * @text: (nullable): any text, such as a board's thread name; %NULL reads as ""
 *
 * @text as it can be shown whatever it holds: control characters (C0, DEL, C1, where escape
 * sequences start) and bytes that are not UTF-8 become \xNN; the marks that reorder text on
 * screen, and what shows nothing or looks like a plain space (zero widths, joiners, the soft
 * hyphen, the byte order mark, invisible operators, other spaces, fillers, variation
 * selectors) become \u{NNNN}, so that two names that differ never look the same.
 *
 * Returns: (transfer full): valid UTF-8 text; free with g_free()
 */
char *tks_i18n_escape     (const char *text);

G_END_DECLS
