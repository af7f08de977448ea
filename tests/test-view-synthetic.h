/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

/*
 * A synthetic capture in the original viewer's file format: @n_threads logged threads
 * (idle at priority 1, the others at 100 + their number), @n_records context switches
 * chosen by a fixed pseudo-random sequence, about @per_tick switches per tick. Ticks stay
 * below the board's 20-bit wrap as long as n_records / per_tick < 1,000,000.
 */
static inline GString *
tks_test_synthetic_capture (guint n_threads,
                            guint n_records,
                            guint per_tick)
{
  GString *s = g_string_sized_new ((gsize)n_records * 28 + 4096);
  guint32 state = 12345;
  guint current = 1;
  guint i;

  g_string_append (s, "Saved position\n0.0\n1.0\n0.0\n1.0\nthreads_list\n");
  for (i = 1; i <= n_threads; i++)
    g_string_append_printf (s, "Thread number %2u : Prio = %3u, Log = Yes, Name = %s%u\n",
                            i, i == 2 ? 1 : 100 + i, i == 2 ? "idle" : "worker", i);
  g_string_append (s, "ch> \nthreads_timestamps\n");
  for (i = 0; i < n_records; i++)
    {
      guint next;

      state = state * 1103515245u + 12345u;
      next = 1 + (state >> 16) % n_threads;
      if (next == current)
        next = next % n_threads + 1;
      g_string_append_printf (s, "From %2u to %2u at %7u\n", current, next,
                              1000 + i / MAX (1u, per_tick));
      current = next;
    }
  g_string_append (s, "ch> \n");
  return s;
}
