/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "tks-export-name.h"

static const struct
{
  const char *extension;
  const char *format;
} extensions[] = {
  /* the first extension of a format is the one a new name gets */
  { ".png", "png" },
  { ".svg", "svg" },
  { ".pdf", "pdf" },
  { ".json", "perfetto" },
  { ".csv", "csv" },
  { ".ftrace", "ftrace" },
  { ".trace", "ftrace" },
  { ".prv", "paraver" },
  { ".vcd", "vcd" },
};

/* The length of @name's extension when it is one of ours, else 0. */
static gsize
known_extension_length (const char *name)
{
  gsize len = strlen (name);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (extensions); i++)
    {
      gsize n = strlen (extensions[i].extension);

      if (len > n && g_ascii_strcasecmp (name + len - n, extensions[i].extension) == 0)
        return n;
    }
  return 0;
}

/**
 * tks_export_name_get_format:
 * @name: a file name or path
 *
 * Returns: the format @name's extension asks for (case does not matter), or %NULL when the
 *   extension is not one of the export formats'.
 */
const char *
tks_export_name_get_format (const char *name)
{
  gsize len;
  guint i;

  g_return_val_if_fail (name != NULL, NULL);

  len = strlen (name);
  for (i = 0; i < G_N_ELEMENTS (extensions); i++)
    {
      gsize n = strlen (extensions[i].extension);

      if (len > n && g_ascii_strcasecmp (name + len - n, extensions[i].extension) == 0)
        return extensions[i].format;
    }
  return NULL;
}

/**
 * tks_export_name_get_extension:
 * @format: an export format
 *
 * Returns: the extension a file in @format gets (".png"), or %NULL for an unknown format.
 */
const char *
tks_export_name_get_extension (const char *format)
{
  guint i;

  g_return_val_if_fail (format != NULL, NULL);

  for (i = 0; i < G_N_ELEMENTS (extensions); i++)
    if (g_str_equal (extensions[i].format, format))
      return extensions[i].extension;
  return NULL;
}

/**
 * tks_export_name_set_format:
 * @name: a file name (without folders), possibly empty
 * @format: an export format
 *
 * The name with the extension of @format: an extension of another export format is replaced,
 * any other name gets the extension appended ("timeline" and "timeline.v2" keep what they
 * have). A name already in @format is returned unchanged, its case kept.
 *
 * Returns: (transfer full): the new name
 */
char *
tks_export_name_set_format (const char *name,
                            const char *format)
{
  const char *extension;
  const char *current;
  gsize keep;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (format != NULL, NULL);

  extension = tks_export_name_get_extension (format);
  current = tks_export_name_get_format (name);
  if (extension == NULL || g_strcmp0 (current, format) == 0)
    return g_strdup (name);
  keep = strlen (name) - known_extension_length (name);
  if (keep == 0)
    return g_strconcat ("export", extension, NULL);
  return g_strdup_printf ("%.*s%s", (int) keep, name, extension);
}
