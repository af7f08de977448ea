/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "tks-application.h"

/* Where the translations are: installed, or next to the program when it runs from its build
 * tree (as the README's first command does). */
static const char *
locale_dir (void)
{
#if defined(TKS_BUILD_APP_DIR) && defined(TKS_BUILD_LOCALE_DIR)
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = exe != NULL ? g_path_get_dirname (exe) : NULL;

  if (dir != NULL && g_str_equal (dir, TKS_BUILD_APP_DIR)
      && g_file_test (TKS_BUILD_LOCALE_DIR, G_FILE_TEST_IS_DIR))
    return TKS_BUILD_LOCALE_DIR;
#endif
  return LOCALEDIR;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(TksApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("Tickscope"));
  app = tks_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
