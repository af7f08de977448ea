/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target: lines "Z~" (the range coder of mcu-lib/WIRE-FORMAT.md) whose checksum
 * matches whatever bytes they carry, as a forged line or a board that codes otherwise would
 * send them. A mutated line of a capture almost never passes its 24-bit checksum, so the
 * other targets seldom reach the decoder behind it; this one always does.
 *
 * Input: a byte of flags (bit 0: the entries carry the counter, counter coder 3; bits 1 to 4:
 * the tick's bits, 8 to 20), then lines, each a byte of length and that many bytes (the
 * line's number, its count, the range coder's bytes), cut into 13-bit characters and given
 * their checksum. Each line goes through the decoder alone; then all of them, as the log of a
 * compact dump, through the capture reader and everything the capture target checks.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tks-compact.h"
#include "tks-test-zline.h"
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
/* fuzz-capture.c's target, built under this name (fuzz/meson.build) */
int tks_fuzz_capture_one (const uint8_t *data, size_t size);

#define MAX_LINES 16

#define HEADER_SWITCHES \
  "\r\nch> threads_dump_compact\r\n" \
  "Dump version: 3\r\n" \
  "Library version: 1.1.0\r\n" \
  "Kernel version: 5.1.0\r\n" \
  "Tick frequency: 1000\r\n" \
  "Tick bits: %u\r\n" \
  "Log size: 65536\r\n" \
  "Max threads: 62\r\n" \
  "Max deleted: 64\r\n" \
  "Default log: Yes\r\n" \
  "Mode: run\r\n" \
  "Records: %u\r\n" \
  "Records written: %u\r\n" \
  "Dropped while paused: 0\r\n" \
  "Dropped for history: 0\r\n" \
  "Unnumbered threads: 0 live, 0 total\r\n"

#define HEADER_EVENTS \
  "\r\nch> threads_dump_compact\r\n" \
  "Dump version: 3\r\n" \
  "Library version: 1.1.0\r\n" \
  "Kernel version: 5.1.0\r\n" \
  "Tick frequency: 1000\r\n" \
  "Tick bits: %u\r\n" \
  "Counter frequency: 168000000\r\n" \
  "Counter bits: 32\r\n" \
  "Counter coder: 3\r\n" \
  "Log size: 65536\r\n" \
  "Slot words: 2\r\n" \
  "Events: cycles irq sleep ready user conditions\r\n" \
  "Max threads: 62\r\n" \
  "Max deleted: 64\r\n" \
  "Default log: Yes\r\n" \
  "Mode: run\r\n" \
  "Condition: none\r\n" \
  "Max names: 32\r\n" \
  "Names refused: 0\r\n" \
  "Records: %u\r\n" \
  "Slots: %u\r\n" \
  "Records written: %u\r\n" \
  "Dropped while paused: 0\r\n" \
  "Dropped for history: 0\r\n" \
  "Unnumbered threads: 0 live, 0 total\r\n"

static const char threads[] =
  "Threads:\r\n"
  "Thread number  1 : Prio = 128, Log = Yes, Name = main\r\n"
  "Thread number  2 : Prio =   1, Log = Yes, Name = idle\r\n"
  "Thread number  3 : Prio = 129, Log = Yes, Name = console\r\n"
  "Thread number  4 : Prio = 133, Log = Yes, Name = control\r\n"
  "Thread number  5 : Prio = 148, Log = Yes, Name = sensor\r\n"
  "Deleted threads: \r\n";

static const char names[] =
  "Names:\r\n"
  "Name  1 : Kind = marker, Name = sample\r\n"
  "Name  2 : Kind = channel, Name = filter\r\n"
  "Name  3 : Kind = state, Name = busy\r\n"
  "Name  4 : Kind = irq, Name = tick_handler\r\n";

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GString) dump = g_string_new (NULL);
  g_autoptr(GString) lines = g_string_new (NULL);
  g_autoptr(TksCompactDecoder) decoder = NULL;
  gboolean counter;
  guint tick_bits, n_lines = 0, decoded = 0;
  guint32 mask;

  if (size < 1)
    return 0;
  counter = data[0] & 1;
  tick_bits = 8 + ((data[0] >> 1) & 15) % 13;
  mask = (1u << tick_bits) - 1;
  decoder = tks_compact_decoder_new (1000, counter ? 168000000 : 0);
  if (counter)
    tks_compact_decoder_set_coder (decoder, 3);
  tks_compact_decoder_set_tick_bits (decoder, tick_bits);

  for (size_t off = 1; off < size && n_lines < MAX_LINES; n_lines++)
    {
      gsize n = MIN ((gsize) data[off], size - off - 1);
      gsize start = lines->len;
      GArray *entries = tks_compact_decoder_entries (decoder);
      guint before = entries->len, room;
      gboolean ok;

      tks_test_append_z_line (lines, data + off + 1, n);
      off += 1 + n;
      room = tks_compact_line_room (lines->str + start, lines->len - start);
      ok = tks_compact_decoder_line (decoder, lines->str + start, lines->len - start, NULL);
      entries = tks_compact_decoder_entries (decoder);
      /* A line decodes whole or not at all, to the count its key frame announces. */
      if (ok && entries->len - before != room)
        abort ();
      if (!ok && entries->len != before)
        abort ();
      if (entries->len - before > TKS_COMPACT_MAX_ENTRIES)
        abort ();
      for (guint i = before; i < entries->len; i++)
        if ((g_array_index (entries, TksEntry, i).record >> 12) > mask)
          abort ();
      decoded += entries->len - before;
      g_string_append (lines, "\r\n");
    }

  /* The same lines as a compact dump's log. */
  if (counter)
    g_string_append_printf (dump, HEADER_EVENTS, tick_bits, decoded, decoded, decoded);
  else
    g_string_append_printf (dump, HEADER_SWITCHES, tick_bits, decoded, decoded);
  g_string_append (dump, threads);
  if (counter)
    g_string_append (dump, names);
  g_string_append (dump, "Compact:\r\n");
  g_string_append_len (dump, lines->str, lines->len);
  g_string_append_printf (dump, "End of dump: %u records, checksum 00000000\r\nch> ", decoded);
  tks_fuzz_capture_one ((const uint8_t *) dump->str, dump->len);
  return 0;
}
