/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Runs a libFuzzer target over files and folders of inputs without libFuzzer, so the seed
 * corpus (and any input that once crashed) is replayed by every build, with any compiler.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>

#include <glib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static gboolean
replay_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &contents, &len, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return FALSE;
    }

  LLVMFuzzerTestOneInput ((const uint8_t *) contents, len);
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  guint n = 0;

  for (int i = 1; i < argc; i++)
    {
      if (g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        {
          g_autoptr(GDir) dir = g_dir_open (argv[i], 0, NULL);
          const char *name;

          while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
            {
              g_autofree char *path = g_build_filename (argv[i], name, NULL);

              if (!replay_file (path))
                return 1;
              n++;
            }
        }
      else
        {
          if (!replay_file (argv[i]))
            return 1;
          n++;
        }
    }

  printf ("%u inputs replayed\n", n);
  return n > 0 ? 0 : 1;
}
