/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * tks_json_append_string:
 * @out: the string to append to
 * @text: (nullable): the text to quote; %NULL is written as an empty string
 *
 * Appends @text to @out as a JSON string, quotes included: quotes, backslashes, control
 * characters, U+2028 and U+2029 escaped, a byte that is not UTF-8 written as U+FFFD, so that a
 * name from a board can never break a line of JSON.
 */
void tks_json_append_string (GString    *out,
                             const char *text);

G_END_DECLS
