/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The compact decoder's lists, against the board's way of keeping them (mcu-lib's
 * tu_z_symbol() and tu_mtf_move(), written out here place by place): a symbol of the heads or
 * steps lists counted and moved up past the symbols counted no more often, up to counts that
 * saturate at 255; a thread of the move-to-front list moved to the head or to place 1, from
 * every rank. Long random runs from a key frame's lists; the lists, counts and symbols must
 * stay the same at every step.
 */
#include <string.h>

#include <glib.h>

#include "tks-compact-private.h"

/* The symbol at @pos, counted, moving up one place at a time while the one above it is
 * counted no more often. */
static guint
take_by_places (guint8 *list,
                guint8 *counts,
                guint   pos)
{
  guint symbol = list[pos];

  if (counts[symbol] < 255)
    counts[symbol]++;
  while (pos > 0 && counts[list[pos - 1]] <= counts[symbol])
    {
      list[pos] = list[pos - 1];
      pos--;
    }
  list[pos] = (guint8) symbol;
  return symbol;
}

static guint
move_by_places (guint8 *mtf,
                guint   r,
                guint   to)
{
  guint number;

  r = MIN (r, 63);
  number = mtf[r];
  for (; r > to; r--)
    mtf[r] = mtf[r - 1];
  if (r == to)
    mtf[to] = (guint8) number;
  return number;
}

/* Places drawn mostly near the head, as a board's symbols are, sometimes anywhere. */
static guint
draw_place (GRand *rand,
            guint  size)
{
  if (g_rand_int_range (rand, 0, 4) != 0)
    return MIN ((guint) g_rand_int_range (rand, 0, 4), size - 1);
  return g_rand_int_range (rand, 0, size);
}

static void
test_symbols (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (31);

  for (guint run = 0; run < 200; run++)
    {
      State z;
      guint8 heads[HEADS], head_counts[HEADS], steps[STEPS], step_counts[STEPS];
      /* long enough runs for some counts to reach 255 */
      guint n = run % 10 == 0 ? 20000 : 600;

      memset (&z, 0, sizeof z);
      z.cur = (guint8) g_rand_int_range (rand, 0, 64);
      tks_compact_state_reset (&z);
      memcpy (heads, z.heads, HEADS);
      memcpy (head_counts, z.head_counts, HEADS);
      memcpy (steps, z.steps, STEPS);
      memcpy (step_counts, z.step_counts, STEPS);
      for (guint i = 0; i < n; i++)
        {
          guint h = draw_place (rand, HEADS), s = draw_place (rand, STEPS);

          g_assert_cmpuint (tks_compact_take_symbol (z.heads, z.head_counts, z.head_first, h), ==,
                            take_by_places (heads, head_counts, h));
          g_assert_cmpuint (tks_compact_take_symbol (z.steps, z.step_counts, z.step_first, s), ==,
                            take_by_places (steps, step_counts, s));
          g_assert_cmpmem (z.heads, HEADS, heads, HEADS);
          g_assert_cmpmem (z.head_counts, HEADS, head_counts, HEADS);
          g_assert_cmpmem (z.steps, STEPS, steps, STEPS);
          g_assert_cmpmem (z.step_counts, STEPS, step_counts, STEPS);
        }
    }
}

static void
test_move_to_front (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (19);

  for (guint cur = 0; cur < 64; cur++)
    {
      State z;
      guint8 mtf[64];

      memset (&z, 0, sizeof z);
      z.cur = (guint8) cur;
      tks_compact_state_reset (&z);
      /* a key frame's list: the running thread first, then the others, thread 0 last */
      g_assert_cmpuint (z.mtf[0], ==, cur);
      g_assert_cmpuint (z.mtf[63], ==, cur == 0 ? 63 : 0);
      memcpy (mtf, z.mtf, 64);
      for (guint i = 0; i < 3000; i++)
        {
          guint r = g_rand_int_range (rand, 0, 4) != 0 ? g_rand_int_range (rand, 0, 17)
                                                       : g_rand_int_range (rand, 0, 70);
          guint to = g_rand_int_range (rand, 0, 5) == 0 ? 1 : 0;

          g_assert_cmpuint (tks_compact_mtf_move (&z, r, to), ==, move_by_places (mtf, r, to));
          g_assert_cmpmem (z.mtf, 64, mtf, 64);
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compact/lists/symbols", test_symbols);
  g_test_add_func ("/compact/lists/move-to-front", test_move_to_front);
  return g_test_run ();
}
