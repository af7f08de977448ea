/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tks-error.h"
#include "tks-shell-dump.h"

#define REC_IN_POS   0
#define REC_OUT_POS  6
#define REC_TIME_POS 12

static const char *
find_line (const char *data,
           gsize       len,
           const char *line)
{
  gsize llen = strlen (line);
  const char *p = data;
  const char *end = data + len;

  while (p < end)
    {
      const char *hit = memmem (p, (gsize) (end - p), line, llen);

      if (hit == NULL)
        return NULL;
      if (hit == data || hit[-1] == '\n')
        return hit;
      p = hit + 1;
    }
  return NULL;
}

static gboolean
header_value (const char *header,
              gsize       len,
              const char *key,
              guint64    *value)
{
  const char *line = find_line (header, len, key);
  char *endp;

  if (line == NULL)
    return FALSE;
  line += strlen (key);
  while (*line == ' ')
    line++;
  *value = g_ascii_strtoull (line, &endp, 10);
  return endp != line;
}

static gboolean
parse_word (const char **p,
            const char  *stop,
            const char  *word)
{
  gsize len = strlen (word);

  while (*p < stop && **p == ' ')
    (*p)++;
  if ((gsize) (stop - *p) < len || memcmp (*p, word, len) != 0)
    return FALSE;
  *p += len;
  return TRUE;
}

static gboolean
parse_number (const char **p,
              const char  *stop,
              guint       *value)
{
  guint64 v = 0;
  const char *start;

  while (*p < stop && **p == ' ')
    (*p)++;
  start = *p;
  while (*p < stop && g_ascii_isdigit (**p) && v < G_MAXUINT)
    v = v * 10 + (guint) (*(*p)++ - '0');
  *value = (guint) MIN (v, G_MAXUINT);
  return *p > start;
}

gboolean
tks_shell_parse_dump (const char    *reply,
                      gsize          len,
                      TksShellDump  *dump,
                      GError       **error)
{
  const char *threads, *stamps, *end_line, *p;
  guint64 value = 0;
  guint32 hash = 2166136261U;
  guint count = 0;
  unsigned long end_count = 0, end_checksum = 0;
  g_autofree char *end_text = NULL;

  g_return_val_if_fail (reply != NULL, FALSE);
  memset (dump, 0, sizeof *dump);

  threads = find_line (reply, len, "Threads:\r\n");
  stamps = threads ? find_line (threads, len - (gsize) (threads - reply), "Timestamps:\r\n") : NULL;
  end_line = stamps ? find_line (stamps, len - (gsize) (stamps - reply), "End of dump:") : NULL;
  if (threads == NULL || stamps == NULL || end_line == NULL)
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE,
                   "The board's dump is incomplete: %s is missing",
                   threads == NULL ? "“Threads:”" : stamps == NULL ? "“Timestamps:”" : "its end line");
      return FALSE;
    }

  if (!header_value (reply, (gsize) (threads - reply), "Dump version:", &value))
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE, "The board's dump has no version");
      return FALSE;
    }
  dump->version = (guint) value;
  if (header_value (reply, (gsize) (threads - reply), "Tick frequency:", &value))
    dump->tick_hz = (double) value;
  if (header_value (reply, (gsize) (threads - reply), "Log size:", &value))
    dump->log_size = (guint) MIN (value, G_MAXUINT);
  dump->triggered = find_line (reply, (gsize) (threads - reply), "Trigger tick:") != NULL;

  dump->list = threads + strlen ("Threads:\r\n");
  dump->list_len = (gsize) (stamps - dump->list);
  dump->log = stamps + strlen ("Timestamps:\r\n");
  dump->log_len = (gsize) (end_line - dump->log);

  /* Recount the records and recompute the board's checksum over them. */
  p = dump->log;
  while (p < end_line)
    {
      const char *eol = memchr (p, '\n', (gsize) (end_line - p));
      guint out_n, in_n, tick;
      const char *q = p;
      const char *stop = eol ? eol : end_line;

      if (parse_word (&q, stop, "From") && parse_number (&q, stop, &out_n)
          && parse_word (&q, stop, "to") && parse_number (&q, stop, &in_n)
          && parse_word (&q, stop, "at") && parse_number (&q, stop, &tick))
        {
          guint32 record = ((guint32) (tick & 0xFFFFF) << REC_TIME_POS)
                           | ((guint32) (out_n & 0x3F) << REC_OUT_POS)
                           | ((guint32) (in_n & 0x3F) << REC_IN_POS);

          for (guint b = 0; b < 4; b++)
            {
              hash ^= (record >> (8 * b)) & 0xFF;
              hash *= 16777619U;
            }
          count++;
        }
      if (eol == NULL)
        break;
      p = eol + 1;
    }
  dump->n_records = count;

  {
    const char *eol = memchr (end_line, '\n', len - (gsize) (end_line - reply));

    end_text = g_strndup (end_line, eol ? (gsize) (eol - end_line) : len - (gsize) (end_line - reply));
  }
  if (sscanf (end_text, "End of dump: %lu records, checksum %lx", &end_count, &end_checksum) != 2)
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE, "The board's dump ends oddly: “%s”",
                   g_strchomp (end_text));
      return FALSE;
    }
  if (end_count != count || (dump->version == TKS_SHELL_DUMP_VERSION && end_checksum != hash))
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_PARSE,
                   "The board's dump arrived damaged (%u of %lu records readable, checksum %08x "
                   "instead of %08lx): bytes were lost on the link; get new data again",
                   count, end_count, hash, end_checksum);
      return FALSE;
    }
  return TRUE;
}
