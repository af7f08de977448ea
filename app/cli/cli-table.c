/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tickscope-cli's tables: columns as wide as their widest cell, counted in characters (names
 * and translated headings are UTF-8), two spaces apart. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "tks-cli.h"

struct _TksCliTable
{
  GPtrArray *cells;     /* rows * n_columns strings */
  guint      n_columns;
  char      *align;     /* 'l' or 'r' per column */
};

void
tks_cli_table_add (TksCliTable *table,
                   const char  *text)
{
  g_ptr_array_add (table->cells, g_strdup (text != NULL ? text : ""));
}

TksCliTable *
tks_cli_table_new (const char *align,
                   ...)
{
  TksCliTable *table;
  const char *heading;
  va_list args;

  g_return_val_if_fail (align != NULL && align[0] != '\0', NULL);

  table = g_new0 (TksCliTable, 1);
  table->cells = g_ptr_array_new_with_free_func (g_free);
  table->n_columns = (guint) strlen (align);
  table->align = g_strdup (align);
  va_start (args, align);
  while ((heading = va_arg (args, const char *)) != NULL)
    tks_cli_table_add (table, heading);
  va_end (args);
  g_return_val_if_fail (table->cells->len == table->n_columns, table);
  return table;
}

void
tks_cli_table_free (TksCliTable *table)
{
  if (table == NULL)
    return;
  g_ptr_array_unref (table->cells);
  g_free (table->align);
  g_free (table);
}

void
tks_cli_table_add_number (TksCliTable *table,
                          const char  *format,
                          double       value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (value))
    tks_cli_table_add (table, "-");
  else
    tks_cli_table_add (table, g_ascii_formatd (buf, sizeof buf, format, value));
}

void
tks_cli_table_add_uint (TksCliTable *table,
                        guint        value)
{
  char buf[16];

  g_snprintf (buf, sizeof buf, "%u", value);
  tks_cli_table_add (table, buf);
}

void
tks_cli_table_print (TksCliTable *table,
                     FILE        *out)
{
  g_autofree guint *widths = g_new0 (guint, table->n_columns);
  guint n_rows = table->cells->len / table->n_columns;
  GString *line = g_string_new (NULL);

  g_return_if_fail (table->cells->len % table->n_columns == 0);

  for (guint i = 0; i < table->cells->len; i++)
    widths[i % table->n_columns] = MAX (widths[i % table->n_columns],
                                        (guint) g_utf8_strlen (table->cells->pdata[i], -1));

  for (guint r = 0; r < n_rows; r++)
    {
      g_string_truncate (line, 0);
      for (guint c = 0; c < table->n_columns; c++)
        {
          const char *text = table->cells->pdata[r * table->n_columns + c];
          guint pad = widths[c] - (guint) g_utf8_strlen (text, -1);

          if (c > 0)
            g_string_append (line, "  ");
          if (table->align[c] == 'r')
            {
              for (guint p = 0; p < pad; p++)
                g_string_append_c (line, ' ');
              g_string_append (line, text);
            }
          else
            {
              g_string_append (line, text);
              for (guint p = 0; p < pad; p++)
                g_string_append_c (line, ' ');
            }
        }

      while (line->len > 0 && line->str[line->len - 1] == ' ')
        g_string_truncate (line, line->len - 1);
      fprintf (out, "%s\n", line->str);
    }
  g_string_free (line, TRUE);
}
