/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-events: how fast is a dump version 2 (events with a 168 MHz counter) read, next to a
 * dump version 1 of the same switches?
 *
 * Makes, in memory, a dump of N entries: one switch and two handler entries (enter, leave)
 * in every three, each with its counter value, and the version 1 dump of its switches alone;
 * reads each with tks_capture_new_from_dump() (parse, rebuild and, for version 2, the events
 * model) and prints the time per entry and per byte, best of R runs.
 *
 * Usage: bench-events [N] [R]   (default 1000000 entries, 3 runs)
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench-common.h"
#include "tks-capture.h"
#include "tks-events.h"

static guint32
fnv (guint32 h,
     guint32 w)
{
  for (guint b = 0; b < 4; b++)
    h = (h ^ ((w >> (8 * b)) & 0xFF)) * 16777619U;
  return h;
}

/* A dump of @n entries (@events: version 2 with handlers and the counter; else version 1 of
 * its switches alone); @n_entries: entries it holds. */
static GString *
make_dump (guint     n,
           gboolean  events,
           guint    *n_entries)
{
  GString *log = g_string_new (NULL);
  GString *out = g_string_new (NULL);
  guint32 h = 2166136261U;
  guint cur = 1, count = 0;
  guint64 us = 0;

  for (guint i = 0; i < n; i++)
    {
      guint32 tick, counter;
      guint kind = i % 3;

      us += 37;
      tick = (guint32) (us / 1000) & 0xFFFFF;
      counter = (guint32) (us * 168);
      if (kind != 0 && !events)
        continue;
      count++;
      if (kind != 0)
        {
          /* handler 1 enters (its small id in the record word), then leaves */
          g_string_append_printf (log, kind == 1 ? "Irq enter  1 at %7u @ %u\r\n"
                                                 : "Irq leave at %7u @ %u\r\n", tick, counter);
          h = fnv (fnv (h, tick << 12 | 63 << 6 | (kind == 1 ? 33 : 2)), counter);
          continue;
        }
      {
        guint next = cur % 4 + 1;

        g_string_append_printf (log, events ? "From %2u to %2u at %7u @ %u\r\n"
                                            : "From %2u to %2u at %7u\r\n", cur, next, tick, counter);
        h = fnv (h, tick << 12 | cur << 6 | next);
        if (events)
          h = fnv (h, counter);
        cur = next;
      }
    }
  g_string_append_printf (out, "Dump version: %d\r\nTick frequency: 1000\r\nTick bits: 20\r\n",
                          events ? 2 : 1);
  if (events)
    g_string_append (out, "Counter frequency: 168000000\r\nCounter bits: 32\r\n"
                          "Events: cycles irq\r\nMax names: 8\r\nNames refused: 0\r\n");
  g_string_append_printf (out, "Log size: %u\r\nRecords: %u\r\nRecords written: %u\r\nThreads:\r\n",
                          count, count, count);
  for (guint t = 0; t < 4; t++)
    g_string_append_printf (out, "Thread number %2u : Prio = %3u, Log = Yes, Name = t%u\r\n",
                            t + 1, 100 + t, t);
  g_string_append (out, "Deleted threads: \r\n");
  if (events)
    g_string_append (out, "Names:\r\nName  1 : Kind = irq, Name = SysTick_Handler\r\n");
  g_string_append (out, "Timestamps:\r\n");
  g_string_append_len (out, log->str, log->len);
  g_string_append_printf (out, "End of dump: %u records, checksum %08X\r\n", count, h);
  g_string_free (log, TRUE);
  *n_entries = count;
  return out;
}

int
main (int    argc,
      char **argv)
{
  guint n = argc > 1 ? (guint) strtoul (argv[1], NULL, 10) : 1000000;
  guint runs = argc > 2 ? (guint) strtoul (argv[2], NULL, 10) : 3;

  for (int v = 1; v <= 2; v++)
    {
      guint entries;
      g_autoptr(GString) dump = make_dump (n, v == 2, &entries);
      guint64 best = G_MAXUINT64;

      for (guint r = 0; r < MAX (runs, 1); r++)
        {
          g_autoptr(GError) error = NULL;
          guint64 t0 = now_ns ();
          g_autoptr(TksCapture) capture = tks_capture_new_from_dump (dump->str, dump->len, &error);
          guint64 t = now_ns () - t0;

          if (capture == NULL || tks_capture_get_damage (capture) != NULL ||
              (v == 2) != (tks_capture_get_events (capture) != NULL))
            {
              fprintf (stderr, "bench-events: the dump does not read back whole\n");
              return 1;
            }
          best = MIN (best, t);
        }
      printf ("dump version %d: %u entries, %.1f MB: %.1f ms, %.0f ns per entry, %.1f MB/s\n",
              v, entries, dump->len / 1e6, best / 1e6, (double) best / entries,
              dump->len / (best / 1e9) / 1e6);
    }
  return 0;
}
