/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Lines "Z~" of the compact encoding (mcu-lib/WIRE-FORMAT.md) made around any bytes, with the
 * checksum that matches them: what a forged line, or a board that codes otherwise, sends. For
 * the tests of the decoder and its fuzz target, which need lines that pass the checksum.
 */

#include <glib.h>

#include "tks-compact.h"

/* The 91 characters of the encoding, in the order of their values. */
static const char tks_test_z91[] =
  "!#$%&()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~";

/* Appends to @out "Z~", the @n bytes at @bytes in 13-bit characters (the last padded with
 * zero bits), then the line's checksum. */
static inline void
tks_test_append_z_line (GString      *out,
                        const guint8 *bytes,
                        gsize         n)
{
  gsize start = out->len;
  guint32 acc = 0, n_acc = 0, h = TKS_HASH_START;

  g_string_append (out, "Z~");
  for (gsize i = 0; i < n || n_acc != 0; i++)
    {
      if (i >= n)
        {
          acc <<= 13 - n_acc;
          n_acc = 13;
        }
      else
        {
          acc = (acc << 8) | bytes[i];
          n_acc += 8;
        }
      if (n_acc >= 13)
        {
          guint32 v = (acc >> (n_acc - 13)) & 0x1FFF;

          n_acc -= 13;
          acc &= (1u << n_acc) - 1;
          g_string_append_c (out, tks_test_z91[v % 91]);
          g_string_append_c (out, tks_test_z91[v / 91]);
        }
    }
  for (gsize i = start; i < out->len; i++)
    h = tks_hash_byte (h, (guint8) out->str[i]);
  h = (h >> 24) ^ (h & 0xFFFFFF);
  g_string_append_c (out, tks_test_z91[(h >> 13) % 91]);
  g_string_append_c (out, tks_test_z91[(h >> 13) / 91]);
  g_string_append_c (out, tks_test_z91[(h & 0x1FFF) % 91]);
  g_string_append_c (out, tks_test_z91[(h & 0x1FFF) / 91]);
}
