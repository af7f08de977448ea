/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The places of a capture's switch records (tks_capture_get_switch_record), worked out when
 * first asked for: the rebuild's rule of ticks, wraps and shares of a tick, exactly. */
#include <math.h>

#include "tks-test-data.h"

/* A 16-bit board's saved capture: heartbeats say three wraps passed before the third record,
 * two records share tick 300 and a repeated line is dropped. */
static const char beats_and_repeat[] =
  "Saved position\n0.0\n1.0\n0.0\n30.0\n"
  "Tickscope capture 1\nTickscope tick-hz 10000\nTickscope tick-bits 16\n"
  "Tickscope beat before record 2, tick 30000\n"
  "Tickscope beat before record 2, tick 60000\n"
  "Tickscope beat before record 2, tick 20000\n"
  "Tickscope beat before record 2, tick 50000\n"
  "Tickscope beat before record 2, tick 10000\n"
  "threads_list\n"
  "Thread number  1 : Prio = 128, Log = Yes, Name = main\n"
  "Thread number  2 : Prio =   1, Log = Yes, Name = idle\n"
  "Deleted threads: \nch> \n"
  "threads_timestamps\n"
  "From  1 to  2 at     100\nFrom  2 to  1 at     200\n"
  "From  1 to  2 at     300\nFrom  2 to  1 at     300\nFrom  2 to  1 at     300\n"
  "From  1 to  2 at     400\nch> \n";

static void
test_places_wraps_shares_dropped (void)
{
  g_autoptr(TksCapture) c = tks_test_capture_of_text (beats_and_repeat, -1);
  static const double want[] = { 100, 200, 3 * 65536 + 300, 3 * 65536 + 300.5, NAN,
                                 3 * 65536 + 400 };
  static const guint want_out[] = { 1, 2, 1, 2, 2, 1 };
  double pos;
  guint out, in;

  g_assert_cmpuint (tks_capture_get_n_switch_records (c), ==, G_N_ELEMENTS (want));
  g_assert_cmpuint (tks_capture_get_n_records (c), ==, 5);
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      g_assert_true (tks_capture_get_switch_record (c, i, &pos, &out, &in));
      if (isnan (want[i]))
        g_assert_true (isnan (pos));
      else
        g_assert_cmpfloat (pos, ==, want[i]);
      g_assert_cmpuint (out, ==, want_out[i]);
      g_assert_cmpuint (in, ==, 3 - want_out[i]);
    }
  g_assert_false (tks_capture_get_switch_record (c, G_N_ELEMENTS (want), &pos, &out, &in));
  /* (the first run of idle begins where the first record is, and the wraps are the runs' too) */
  g_assert_cmpfloat (tks_capture_get_thread (c, 1)->runs[0].begin, ==, 100);
  g_assert_cmpfloat (tks_capture_get_thread (c, 1)->runs[1].begin, ==, 3 * 65536 + 300);
}

static gpointer
read_places (gpointer data)
{
  TksCapture *c = data;
  double sum = 0, pos;
  guint out, in;

  for (guint i = 0; i < tks_capture_get_n_switch_records (c); i++)
    if (tks_capture_get_switch_record (c, i, &pos, &out, &in) && !isnan (pos))
      sum += pos;
  return g_memdup2 (&sum, sizeof sum);
}

/* Two threads that ask first, at once, read the same places; a recording's kept records are
 * in the order of time, as many as the capture says. */
static void
test_places_recording_two_threads (void)
{
  g_autoptr(TksCapture) c = tks_test_load_data ("simboard-record.raw.txt");
  GThread *a = g_thread_new ("places-a", read_places, c);
  GThread *b = g_thread_new ("places-b", read_places, c);
  g_autofree double *sum_a = g_thread_join (a);
  g_autofree double *sum_b = g_thread_join (b);
  double prev = -INFINITY, pos;
  guint out, in, kept = 0;

  g_assert_cmpfloat (*sum_a, ==, *sum_b);
  g_assert_cmpuint (tks_capture_get_n_switch_records (c), >, 100);
  for (guint i = 0; i < tks_capture_get_n_switch_records (c); i++)
    {
      g_assert_true (tks_capture_get_switch_record (c, i, &pos, &out, &in));
      if (isnan (pos))
        continue;
      g_assert_cmpfloat (pos, >=, prev);
      g_assert_cmpfloat (pos, >=, tks_capture_get_start (c));
      g_assert_cmpfloat (pos, <, tks_capture_get_end (c));
      prev = pos;
      kept++;
    }
  g_assert_cmpuint (kept, ==, tks_capture_get_n_records (c));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rebuild/places/wraps-shares-dropped", test_places_wraps_shares_dropped);
  g_test_add_func ("/rebuild/places/recording-two-threads", test_places_recording_two_threads);
  return g_test_run ();
}
