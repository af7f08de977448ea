/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

#include "tks-application.h"

/* Where the translations are: next to the program when it runs from its build tree (as the
 * README's first command does); else PREFIX/share/locale of the tree the program was
 * installed in, which is LOCALEDIR unless that tree was moved or installed under DESTDIR. */
static char *
locale_dir (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = exe != NULL ? g_path_get_dirname (exe) : NULL;

  if (dir == NULL)
    return g_strdup (LOCALEDIR);
#if defined(TKS_BUILD_APP_DIR) && defined(TKS_BUILD_LOCALE_DIR)
  if (g_str_equal (dir, TKS_BUILD_APP_DIR) && g_file_test (TKS_BUILD_LOCALE_DIR, G_FILE_TEST_IS_DIR))
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

int
main (int   argc,
      char *argv[])
{
  g_autoptr(TksApplication) app = NULL;
  g_autofree char *locales = locale_dir ();

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, locales);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("Tickscope"));
  app = tks_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
