/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <locale.h>

#include "tks-time-format.h"

#define assert_text(expr, expected) \
  G_STMT_START { g_autofree char *text_ = (expr); g_assert_cmpstr (text_, ==, (expected)); } G_STMT_END

/* A length in the unit that suits it. */
static void
test_us (void)
{
  assert_text (tks_time_format_us (12.5), "12.5 µs");
  assert_text (tks_time_format_us (-12.5), "-12.5 µs");
  assert_text (tks_time_format_us (3200), "3.200 ms");
  assert_text (tks_time_format_us (1234000), "1.234000 s");
}

/* An entry's tick is whole unless the data has a finer clock; no "7904.000000 ticks". */
static void
test_ticks (void)
{
  g_assert_cmpint (tks_time_tick_decimals (1), ==, 0);
  g_assert_cmpint (tks_time_tick_decimals (0), ==, 0);
  g_assert_cmpint (tks_time_tick_decimals (0.25), ==, 1);
  g_assert_cmpint (tks_time_tick_decimals (0.01), ==, 2);
  g_assert_cmpint (tks_time_tick_decimals (1e-9), ==, 6);

  assert_text (tks_time_format_ticks (7904), "7904 ticks");
  assert_text (tks_time_format_ticks (1), "1 tick");
  assert_text (tks_time_format_ticks (0), "0 ticks");
  assert_text (tks_time_format_ticks (17.34), "17.34 ticks");
}

/* A position given back finds the same place, without zeros that say nothing. */
static void
test_position (void)
{
  assert_text (tks_time_format_position (7904), "7904");
  assert_text (tks_time_format_position (17.34), "17.34");
  assert_text (tks_time_format_position (-0.0000001), "0");
  assert_text (tks_time_format_position (1.000001), "1.000001");
  assert_text (tks_time_format_position (-3.5), "-3.5");
}

/* Time first, ticks second. */
static void
test_span_and_point (void)
{
  assert_text (tks_time_format_span (2, 1000), "2.000 ms (2 ticks)");
  assert_text (tks_time_format_span (1, 10000), "100.0 µs (1 tick)");
  assert_text (tks_time_format_span (2.5, 0), "2.5 ticks");
  assert_text (tks_time_format_at (7904, 7904 + 1.25, 1000, 1), "-1.250 ms (tick 7904)");
  assert_text (tks_time_format_at (7904, 0, 1000, 1), "7.904000 s (tick 7904)");
  assert_text (tks_time_format_at (7904.5, 7904, 1000, 0.5), "500.0 µs (tick 7904.5)");
  assert_text (tks_time_format_at (-0.2, 0, 0, 1), "tick 0");
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/time-format/us", test_us);
  g_test_add_func ("/time-format/ticks", test_ticks);
  g_test_add_func ("/time-format/position", test_position);
  g_test_add_func ("/time-format/span-and-point", test_span_and_point);
  return g_test_run ();
}
