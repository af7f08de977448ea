/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "tks-application.h"
#include "tks-i18n.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(TksApplication) app = NULL;

#ifdef __GLIBC__
  /* Captures are read in worker threads (each second's while recording) and let go on the
   * main thread: with an arena of its own for each worker, glibc would keep each arena's freed
   * pages. Two arenas for all bound the memory held (GTask's few workers hardly contend). */
  mallopt (M_ARENA_MAX, 2);
#endif
  tks_i18n_init ();

  g_set_application_name (_("Tickscope"));
  app = tks_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
