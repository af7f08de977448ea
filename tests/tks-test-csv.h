/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* Reading back the CSV export, for the tests of the exports. */

#include <glib.h>

/* Splits RFC 4180 CSV (the CSV export) into rows (GPtrArray) of fields, its header first;
 * asserts that it is well formed. */
static inline GPtrArray *
tks_test_csv_parse (const char *text)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  GPtrArray *row = g_ptr_array_new_with_free_func (g_free);
  GString *field = g_string_new (NULL);
  const char *p = text;

  while (*p != '\0')
    {
      if (*p == '"')
        {
          p++;
          for (;;)
            {
              g_assert_true (*p != '\0');
              if (*p == '"' && p[1] == '"')
                {
                  g_string_append_c (field, '"');
                  p += 2;
                }
              else if (*p == '"')
                {
                  p++;
                  break;
                }
              else
                g_string_append_c (field, *p++);
            }
          g_assert_true (*p == ',' || *p == '\r' || *p == '\n' || *p == '\0');
        }
      else if (*p == ',')
        {
          g_ptr_array_add (row, g_strdup (field->str));
          g_string_truncate (field, 0);
          p++;
        }
      else if (*p == '\r' || *p == '\n')
        {
          if (*p == '\r')
            {
              g_assert_cmpint (p[1], ==, '\n');
              p++;
            }
          p++;
          g_ptr_array_add (row, g_strdup (field->str));
          g_string_truncate (field, 0);
          g_ptr_array_add (rows, row);
          row = g_ptr_array_new_with_free_func (g_free);
        }
      else
        g_string_append_c (field, *p++);
    }

  g_assert_cmpuint (row->len, ==, 0);
  g_assert_cmpuint (field->len, ==, 0);
  g_ptr_array_unref (row);
  g_string_free (field, TRUE);
  return rows;
}
