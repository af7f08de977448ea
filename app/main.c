/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "tks-application.h"
#include "tks-i18n.h"

/* The renderer: cairo unless GSK_RENDERER says otherwise. The timeline is drawn into an image
 * by a worker thread either way, which the cairo renderer shows as it is. Without a GPU
 * (Mesa's software GL) the GL renderer showed the first frame later and held 130 MB more
 * (docs/performance.md, "Start-up and memory"). With cairo, GDK is told not to probe GL at all
 * (GDK_DEBUG=gl-disable): on X11 it otherwise loads Mesa and LLVM to choose the window's
 * visual, 53 MB for nothing. */
static void
choose_renderer (void)
{
  const char *renderer = g_getenv ("GSK_RENDERER");
  const char *debug = g_getenv ("GDK_DEBUG");
  g_autofree char *flags = NULL;

  if (renderer == NULL || renderer[0] == '\0')
    g_setenv ("GSK_RENDERER", (renderer = "cairo"), TRUE);
  if (g_strcmp0 (renderer, "cairo") != 0)
    return;
  if (debug == NULL || debug[0] == '\0')
    flags = g_strdup ("gl-disable");
  else if (strstr (debug, "gl-disable") == NULL)
    flags = g_strconcat (debug, ",gl-disable", NULL);
  if (flags != NULL)
    g_setenv ("GDK_DEBUG", flags, TRUE);
}

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
  choose_renderer ();
  tks_i18n_init ();

  g_set_application_name (_("Tickscope"));
  app = tks_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
