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
