/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * The reader's fast path for record lines in the board's own layout ("From %2d to %2d at %7d")
 * must read exactly what the general reader reads: every line it takes, the general one takes
 * too, with the same values and the same line end. Both are reached through the reader's
 * private header; each line sits in a buffer of its exact size, so that a read past its end
 * shows under the sanitizers.
 */
#include <string.h>

#include "tks-parser-private.h"

typedef struct
{
  guint64 lines;
  guint64 fast;
} Counts;

static void
check_line (Counts     *counts,
            const char *text,
            gsize       len)
{
  g_autofree char *line = g_memdup2 (text, len);
  const char *nl = memchr (line, '\n', len);
  const char *next;
  const char *lend;
  TksRecord fast, general;

  counts->lines++;
  next = tks_parse_record_fixed (line, line + len, &fast);
  if (next == NULL)
    return;
  counts->fast++;

  /* It ends at the first line end, after an optional CR. */
  g_assert_nonnull (nl);
  g_assert_true (next == nl + 1);
  lend = nl;
  if (lend > line && lend[-1] == '\r')
    lend--;

  if (!tks_parse_record_line (line, lend, &general))
    g_error ("the general reader refuses a line the fast path read: “%s”",
             g_strescape (g_strndup (line, len), NULL));
  g_assert_cmpuint (fast.out, ==, general.out);
  g_assert_cmpuint (fast.in, ==, general.in);
  g_assert_cmpuint (fast.tick, ==, general.tick);
  g_assert_cmpuint (fast.flags, ==, general.flags);
}

/* Every byte value at every place of typical lines, each cut at every length. */
static void
test_every_byte (void)
{
  static const char * const seeds[] = {
    "From  1 to 11 at       1\r\n",
    "From 12 to  3 at 1048575\n",
    "From 63 to 63 at 4294967295\r\n",
    "From  0 to  0 at 12345678\n",
    "From  5 to  6 at 4294967296\n",
    "From  5 to  6 at 0000000001\n",
    "From  5 to  6 at 00000000001\n",
  };
  Counts counts = { 0 };
  char line[64];

  for (guint s = 0; s < G_N_ELEMENTS (seeds); s++)
    {
      gsize len = strlen (seeds[s]);

      for (gsize at = 0; at < len; at++)
        for (int c = 0; c < 256; c++)
          {
            memcpy (line, seeds[s], len);
            line[at] = (char) c;
            for (gsize cut = 1; cut <= len; cut++)
              check_line (&counts, line, cut);
          }
    }
  g_test_message ("%" G_GUINT64_FORMAT " lines, %" G_GUINT64_FORMAT " read by the fast path",
                  counts.lines, counts.fast);
  g_assert_cmpuint (counts.fast, >, 500);
}

/* Random lines of about the layout's shape, some damaged, some cut. */
static void
test_random_lines (void)
{
  static const char damage[] = " 0123456789\r\nFromtat-+\t\377";
  static const char * const layouts[] = {
    "From %2d to %2d at %7u\r\n",
    "From %2d to %2d at %7u\n",
    "From %02d to %2d at %010u\n",
    "From %d to %d at %u\n",
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261122);
  Counts counts = { 0 };
  char line[80];

  for (guint i = 0; i < 200000; i++)
    {
      const char *layout = layouts[g_rand_int_range (rand, 0, G_N_ELEMENTS (layouts))];
      guint tick = g_rand_int_range (rand, 0, 3) == 0 ? g_rand_int (rand)
                                                      : (guint) g_rand_int_range (rand, 0, 2000000);
      gsize len;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
      len = (gsize) g_snprintf (line, sizeof line, layout, g_rand_int_range (rand, 0, 120),
                                g_rand_int_range (rand, 0, 120), tick);
#pragma GCC diagnostic pop
      for (int m = g_rand_int_range (rand, 0, 3); m > 0; m--)
        line[g_rand_int_range (rand, 0, (gint32) len)] =
          damage[g_rand_int_range (rand, 0, sizeof damage - 1)];
      check_line (&counts, line, len);
      if (i % 7 == 0)
        check_line (&counts, line, (gsize) g_rand_int_range (rand, 1, (gint32) len + 1));
    }
  g_test_message ("%" G_GUINT64_FORMAT " lines, %" G_GUINT64_FORMAT " read by the fast path",
                  counts.lines, counts.fast);
  g_assert_cmpuint (counts.fast, >, 10000);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/parser/fast-path/every-byte", test_every_byte);
  g_test_add_func ("/parser/fast-path/random-lines", test_random_lines);
  return g_test_run ();
}
