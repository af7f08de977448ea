/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-history: does loading grow linearly with the deleted-thread history?
 *
 * Writes capture files whose threads_list has 2 live threads and N deleted ones (10^4, 10^5,
 * 10^6 by default), each deleted thread having been created as number 3 and exited as number
 * 3, and whose log holds the exits of the last N/10 of them (each switched in, then exiting):
 * the creation order puts every deleted thread back at its number, and the replay takes an
 * exited thread out of a working list of up to N/10 + 2 threads. Each file is loaded with
 * tks_capture_new_from_file() (best of R loads) and the time per 10,000 entries is printed:
 * it stays flat when the load is linear.
 *
 * Usage: bench-history [--sizes N,N,...] [--repeat R]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <glib/gstdio.h>

#include "bench-common.h"
#include "tks-capture.h"

static gboolean
write_history (const char  *path,
               guint        n_deleted,
               guint       *n_records,
               GError     **error)
{
  guint n_exits = n_deleted / 10;
  g_autoptr(GString) file = g_string_sized_new ((gsize) n_deleted * 64 + (gsize) n_exits * 80);
  guint32 tick = 0;

  g_string_append (file, "threads_list\n"
                         "Thread number  1 : Prio = 128, Log = Yes, Name = main\n"
                         "Thread number  2 : Prio =   1, Log = Yes, Name = idle\n"
                         "Deleted threads: \n");
  for (guint i = 0; i < n_deleted; i++)
    g_string_append_printf (file, "Thread number  3 : Prio =  10, Log = Yes, Name = worker%u\n", i);
  g_string_append (file, "ch> \nthreads_timestamps\n");
  for (guint i = 0; i < n_exits; i++)
    {
      /* main hands over to the oldest worker still alive (number 3), which exits. */
      g_string_append_printf (file, "From  1 to  3 at %7u\n", tick % (1u << 20));
      tick++;
      g_string_append_printf (file, "From  3 to  3 at %7u\n", tick % (1u << 20));
      g_string_append_printf (file, "From  0 to  1 at %7u\n", tick % (1u << 20));
      tick++;
    }
  g_string_append (file, "ch> \n");
  *n_records = n_exits * 3;
  return g_file_set_contents (path, file->str, file->len, error);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *sizes_arg = NULL;
  g_autofree char *dir = NULL;
  g_auto(GStrv) sizes = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  int repeat = 3;
  int status = 0;
  double first_per_10k = 0;
  GOptionEntry entries[] = {
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes_arg, "Deleted-list lengths to measure", "N,N,..." },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat, "Loads per size (the best is shown)", "R" },
    { NULL }
  };

  context = g_option_context_new ("- load time against the length of the deleted-thread list");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "bench-history: %s\n", error->message);
      return 2;
    }
  repeat = CLAMP (repeat, 1, 20);
  if ((dir = g_dir_make_tmp ("tickscope-history-XXXXXX", &error)) == NULL)
    {
      fprintf (stderr, "bench-history: %s\n", error->message);
      return 1;
    }
  g_type_ensure (TKS_TYPE_CAPTURE);

  sizes = g_strsplit (sizes_arg != NULL ? sizes_arg : "10000,100000,1000000", ",", -1);
  printf ("Load + rebuild of a capture with N deleted threads, N/10 of them exiting in the log\n");
  printf ("%9s %9s %9s %10s %14s %8s\n", "deleted", "records", "file MB", "best ms",
          "ms per 10^4", "ratio");

  for (guint s = 0; sizes[s] != NULL; s++)
    {
      guint64 n = g_ascii_strtoull (sizes[s], NULL, 10);
      g_autofree char *path = g_build_filename (dir, "history.txt", NULL);
      guint64 best = G_MAXUINT64;
      guint n_records = 0;
      double per_10k;
      GStatBuf st;

      if (n == 0 || n > 20000000)
        {
          fprintf (stderr, "bench-history: bad size “%s”\n", sizes[s]);
          status = 2;
          continue;
        }
      if (!write_history (path, (guint) n, &n_records, &error))
        {
          fprintf (stderr, "bench-history: %s\n", error->message);
          return 1;
        }
      if (g_stat (path, &st) != 0)
        st.st_size = 0;

      for (int r = 0; r < repeat; r++)
        {
          g_autoptr(TksCapture) capture = NULL;
          guint64 t0 = now_ns ();

          capture = tks_capture_new_from_file (path, &error);
          if (capture == NULL)
            {
              fprintf (stderr, "bench-history: %s\n", error->message);
              g_unlink (path);
              return 1;
            }
          best = MIN (best, now_ns () - t0);
          if (tks_capture_get_n_threads (capture) != n + 2)
            {
              fprintf (stderr, "bench-history: %u threads loaded, %" G_GUINT64_FORMAT " written\n",
                       tks_capture_get_n_threads (capture), n + 2);
              status = 1;
            }
        }
      g_unlink (path);

      per_10k = best / 1e6 / ((double) n / 1e4);
      if (first_per_10k == 0)
        first_per_10k = per_10k;
      printf ("%9" G_GUINT64_FORMAT " %9u %9.1f %10.1f %14.2f %8.2f\n", n, n_records,
              st.st_size / 1e6, best / 1e6, per_10k, per_10k / first_per_10k);
      fflush (stdout);
    }

  printf ("\nratio: time per 10^4 entries against the first size (about 1 when the load is linear)\n");
  g_rmdir (dir);
  return status;
}
