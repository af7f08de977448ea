/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <locale.h>
#include <string.h>

#include "tks-i18n.h"

char *
tks_i18n_locale_dir (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = exe != NULL ? g_path_get_dirname (exe) : NULL;

  if (dir == NULL)
    return g_strdup (LOCALEDIR);
#if defined(TKS_BUILD_ROOT) && defined(TKS_BUILD_LOCALE_DIR)
  /* A program of the build tree lives under its root, whose po/ holds the compiled
   * translations once they are built. */
  if ((g_str_equal (dir, TKS_BUILD_ROOT) || g_str_has_prefix (dir, TKS_BUILD_ROOT "/"))
      && g_file_test (TKS_BUILD_LOCALE_DIR, G_FILE_TEST_IS_DIR))
    return g_strdup (TKS_BUILD_LOCALE_DIR);
#endif
  if (!g_path_is_absolute (BINDIR_IN_PREFIX) && !g_path_is_absolute (LOCALEDIR_IN_PREFIX)
      && g_str_has_suffix (dir, "/" BINDIR_IN_PREFIX))
    {
      g_autofree char *prefix = g_strndup (dir, strlen (dir) - strlen ("/" BINDIR_IN_PREFIX));
      g_autofree char *installed = g_build_filename (prefix, LOCALEDIR_IN_PREFIX, NULL);

      if (g_file_test (installed, G_FILE_TEST_IS_DIR))
        return g_steal_pointer (&installed);
    }
  return g_strdup (LOCALEDIR);
}

void
tks_i18n_init (void)
{
  g_autofree char *locales = tks_i18n_locale_dir ();

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, locales);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}

/* Characters that show nothing, or a space that looks like any other, or that reorder text
 * on screen: two names that differ by one look the same. Control characters apart. */
static gboolean
is_invisible (gunichar c)
{
  GUnicodeType type = g_unichar_type (c);

  /* format characters: soft hyphen, zero widths and joiners, marks of direction, the
   * byte order mark, invisible operators, tags... */
  if (type == G_UNICODE_FORMAT || type == G_UNICODE_LINE_SEPARATOR ||
      type == G_UNICODE_PARAGRAPH_SEPARATOR || (type == G_UNICODE_SPACE_SEPARATOR && c != ' '))
    return TRUE;
  /* letters and marks that draw nothing: the combining grapheme joiner, Hangul fillers,
   * Khmer inherent vowels, Mongolian selectors, variation selectors, the Braille blank */
  return c == 0x034f || c == 0x115f || c == 0x1160 || c == 0x17b4 || c == 0x17b5 ||
         (c >= 0x180b && c <= 0x180f) || c == 0x2800 || c == 0x3164 || c == 0xffa0 ||
         (c >= 0xfe00 && c <= 0xfe0f) || (c >= 0xe0100 && c <= 0xe01ef);
}

char *
tks_i18n_escape (const char *text)
{
  GString *out = g_string_new (NULL);
  const char *p = text != NULL ? text : "";
  const char *end = p + strlen (p);

  while (p < end)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02x", (guchar) *p);
          p++;
          continue;
        }
      /* Control characters (C0, DEL, C1: escape sequences start with them), and what shows
       * nothing or reorders text on screen. */
      if (c < 0x20 || (c >= 0x7f && c < 0xa0))
        g_string_append_printf (out, "\\x%02x", c);
      else if (is_invisible (c))
        g_string_append_printf (out, "\\u{%04x}", c);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
      p = g_utf8_next_char (p);
    }
  return g_string_free (out, FALSE);
}
