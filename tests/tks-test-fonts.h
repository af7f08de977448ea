/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Fonts in tests that draw text, for the leak checker: fontconfig keeps its configuration
 * (loaded by the first text drawn) until the process exits, which the leak checker is told;
 * pango's default font map and its caches are released before the program ends, so
 * everything else is still checked. Include it in the test's one source file and end main()
 * with:
 *   status = g_test_run ();
 *   tks_test_release_fonts ();
 *   return status;
 */

#include <pango/pangocairo.h>

#if defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define TKS_ADDRESS_SANITIZER 1
# endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(TKS_ADDRESS_SANITIZER)
const char *__lsan_default_suppressions (void);
const char *
__lsan_default_suppressions (void)
{
  return "leak:libfontconfig.so\n";
}
#endif

/* Releases the fonts the drawing loaded, so a leak checker sees only the test's own memory. */
static inline void
tks_test_release_fonts (void)
{
  pango_cairo_font_map_set_default (NULL);
}
