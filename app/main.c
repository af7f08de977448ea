/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tks-application.h"
#include "tks-i18n.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(TksApplication) app = NULL;

  tks_i18n_init ();

  g_set_application_name (_("Tickscope"));
  app = tks_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
