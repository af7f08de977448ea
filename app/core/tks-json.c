/* SPDX-License-Identifier: GPL-3.0-or-later */
/* JSON strings written by hand (tks-json.h). */
#include "config.h"

#include "tks-json.h"

void
tks_json_append_string (GString    *out,
                        const char *text)
{
  const char *p = text != NULL ? text : "";

  g_string_append_c (out, '"');
  while (*p != '\0')
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          /* a byte that is not UTF-8: shown as U+FFFD */
          g_string_append (out, "\\ufffd");
          p++;
          continue;
        }
      switch (c)
        {
        case '"':  g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (c < 0x20 || c == 0x7f || c == 0x2028 || c == 0x2029)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_len (out, p, g_utf8_next_char (p) - p);
        }
      p = g_utf8_next_char (p);
    }
  g_string_append_c (out, '"');
}

