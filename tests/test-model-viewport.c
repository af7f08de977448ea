/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "tks-viewport.h"

static guint changed_count;

static void
on_changed (TksViewport *viewport,
            gpointer     data)
{
  changed_count++;
}

static TksViewport *
new_viewport (double start,
              double end)
{
  TksViewport *vp = tks_viewport_new ();

  g_signal_connect (vp, "changed", G_CALLBACK (on_changed), NULL);
  tks_viewport_set_bounds (vp, start, end);
  return vp;
}

static void
test_bounds (void)
{
  g_autoptr(TksViewport) vp = new_viewport (16316, 20027);

  g_assert_cmpfloat (tks_viewport_get_visible_start (vp), ==, 16316);
  g_assert_cmpfloat (tks_viewport_get_visible_end (vp), ==, 20027);
  g_assert_false (tks_viewport_can_go_back (vp));
  g_assert_false (tks_viewport_can_go_forward (vp));

  /* nonsense bounds fall back to a unit range instead of NaN views */
  tks_viewport_set_bounds (vp, NAN, 5);
  g_assert_cmpfloat (tks_viewport_get_visible_start (vp), ==, 0);
  g_assert_cmpfloat (tks_viewport_get_visible_end (vp), ==, 1);
  tks_viewport_set_bounds (vp, 10, 5);
  g_assert_cmpfloat (tks_viewport_get_span (vp), ==, 1);
}

static void
test_zoom_at_anchor (void)
{
  g_autoptr(TksViewport) vp = new_viewport (0, 1000);

  tks_viewport_zoom (vp, 2, 0.5);
  g_assert_cmpfloat_with_epsilon (tks_viewport_get_visible_start (vp), 250, 1e-9);
  g_assert_cmpfloat_with_epsilon (tks_viewport_get_visible_end (vp), 750, 1e-9);

  /* the time under the anchor stays where it is */
  tks_viewport_zoom (vp, 4, 0.25);
  g_assert_cmpfloat_with_epsilon (tks_viewport_x_to_time (vp, 25, 100), 375, 1e-9);
  g_assert_cmpfloat_with_epsilon (tks_viewport_get_span (vp), 125, 1e-9);

  /* zooming out past the whole capture stops at the whole capture */
  tks_viewport_zoom (vp, 0.001, 0.9);
  g_assert_cmpfloat (tks_viewport_get_visible_start (vp), ==, 0);
  g_assert_cmpfloat (tks_viewport_get_visible_end (vp), ==, 1000);

  /* and zooming in stops at the minimum span */
  tks_viewport_zoom (vp, 1e12, 0.5);
  g_assert_cmpfloat_with_epsilon (tks_viewport_get_span (vp), tks_viewport_get_min_span (vp), 1e-9);
  g_assert_cmpfloat_with_epsilon (tks_viewport_get_visible_start (vp), 500 - tks_viewport_get_min_span (vp) / 2, 1e-6);

  /* bad factors are ignored */
  changed_count = 0;
  tks_viewport_zoom (vp, NAN, 0.5);
  tks_viewport_zoom (vp, -2, 0.5);
  tks_viewport_zoom (vp, 0, 0.5);
  g_assert_cmpuint (changed_count, ==, 0);
}

static void
test_pan_clamps (void)
{
  g_autoptr(TksViewport) vp = new_viewport (100, 200);

  tks_viewport_set_range (vp, 120, 140);
  tks_viewport_pan (vp, 0.5);
  g_assert_cmpfloat (tks_viewport_get_visible_start (vp), ==, 130);
  g_assert_cmpfloat (tks_viewport_get_visible_end (vp), ==, 150);

  tks_viewport_pan_ticks (vp, 1000);
  g_assert_cmpfloat (tks_viewport_get_visible_start (vp), ==, 180);
  g_assert_cmpfloat (tks_viewport_get_visible_end (vp), ==, 200);

  tks_viewport_pan (vp, -100);
  g_assert_cmpfloat (tks_viewport_get_visible_start (vp), ==, 100);
  g_assert_cmpfloat (tks_viewport_get_visible_end (vp), ==, 120);

  tks_viewport_go_end (vp);
  g_assert_cmpfloat (tks_viewport_get_visible_end (vp), ==, 200);
  g_assert_cmpfloat (tks_viewport_get_span (vp), ==, 20);
  tks_viewport_go_start (vp);
  g_assert_cmpfloat (tks_viewport_get_visible_start (vp), ==, 100);

  /* a range wider than the capture is the capture */
  tks_viewport_set_range (vp, -1e9, 1e9);
  g_assert_cmpfloat (tks_viewport_get_visible_start (vp), ==, 100);
  g_assert_cmpfloat (tks_viewport_get_visible_end (vp), ==, 200);
}

static void
test_history (void)
{
  g_autoptr(TksViewport) vp = new_viewport (0, 1000);

  tks_viewport_navigate (vp, 100, 200);
  tks_viewport_navigate (vp, 150, 160);
  g_assert_true (tks_viewport_can_go_back (vp));
  g_assert_false (tks_viewport_can_go_forward (vp));

  g_assert_true (tks_viewport_go_back (vp));
  g_assert_cmpfloat (tks_viewport_get_visible_start (vp), ==, 100);
  g_assert_cmpfloat (tks_viewport_get_visible_end (vp), ==, 200);
  g_assert_true (tks_viewport_can_go_forward (vp));

  g_assert_true (tks_viewport_go_back (vp));
  g_assert_cmpfloat (tks_viewport_get_visible_start (vp), ==, 0);
  g_assert_cmpfloat (tks_viewport_get_visible_end (vp), ==, 1000);
  g_assert_false (tks_viewport_go_back (vp));

  g_assert_true (tks_viewport_go_forward (vp));
  g_assert_true (tks_viewport_go_forward (vp));
  g_assert_cmpfloat (tks_viewport_get_visible_start (vp), ==, 150);
  g_assert_false (tks_viewport_go_forward (vp));

  /* a new view after going back drops the forward views */
  tks_viewport_go_back (vp);
  tks_viewport_zoom_to_fit (vp);
  g_assert_false (tks_viewport_can_go_forward (vp));
  g_assert_cmpfloat (tks_viewport_get_span (vp), ==, 1000);
  tks_viewport_go_back (vp);
  g_assert_cmpfloat (tks_viewport_get_visible_start (vp), ==, 100);

  /* navigating to the view already shown records nothing */
  tks_viewport_clear_history (vp);
  tks_viewport_navigate (vp, 100, 200);
  g_assert_false (tks_viewport_can_go_back (vp));

  /* new bounds (a new capture) forget the history */
  tks_viewport_navigate (vp, 300, 400);
  g_assert_true (tks_viewport_can_go_back (vp));
  tks_viewport_set_bounds (vp, 0, 10);
  g_assert_false (tks_viewport_can_go_back (vp));
}

static void
test_history_coalesce (void)
{
  g_autoptr(TksViewport) vp = new_viewport (0, 1000);
  int i;

  /* one wheel gesture: many zoom steps, one history entry */
  for (i = 0; i < 10; i++)
    {
      tks_viewport_push_history (vp, G_USEC_PER_SEC * 60);
      tks_viewport_zoom (vp, 1.25, 0.5);
    }
  g_assert_true (tks_viewport_go_back (vp));
  g_assert_cmpfloat (tks_viewport_get_span (vp), ==, 1000);
  g_assert_false (tks_viewport_can_go_back (vp));

  /* without coalescing every step is recorded */
  tks_viewport_clear_history (vp);
  for (i = 0; i < 3; i++)
    {
      tks_viewport_push_history (vp, 0);
      tks_viewport_zoom (vp, 2, 0.5);
    }
  g_assert_true (tks_viewport_go_back (vp));
  g_assert_true (tks_viewport_go_back (vp));
  g_assert_true (tks_viewport_go_back (vp));
  g_assert_false (tks_viewport_go_back (vp));
}

static void
test_vertical (void)
{
  g_autoptr(TksViewport) vp = new_viewport (0, 1000);

  tks_viewport_set_content_height (vp, 29 * 30, 300);
  tks_viewport_set_v_offset (vp, 100);
  g_assert_cmpfloat (tks_viewport_get_v_offset (vp), ==, 100);
  tks_viewport_scroll_v (vp, 10000);
  g_assert_cmpfloat (tks_viewport_get_v_offset (vp), ==, 29 * 30 - 300);
  tks_viewport_scroll_v (vp, -1e9);
  g_assert_cmpfloat (tks_viewport_get_v_offset (vp), ==, 0);
  tks_viewport_set_v_offset (vp, NAN);
  g_assert_cmpfloat (tks_viewport_get_v_offset (vp), ==, 0);

  /* when everything fits there is nothing to scroll */
  tks_viewport_set_v_offset (vp, 200);
  tks_viewport_set_content_height (vp, 100, 300);
  g_assert_cmpfloat (tks_viewport_get_v_offset (vp), ==, 0);
}

static void
test_conversions (void)
{
  g_autoptr(TksViewport) vp = new_viewport (16000, 18000);

  tks_viewport_set_range (vp, 17000, 17500);
  g_assert_cmpfloat_with_epsilon (tks_viewport_time_to_x (vp, 17250, 1000), 500, 1e-9);
  g_assert_cmpfloat_with_epsilon (tks_viewport_x_to_time (vp, 500, 1000), 17250, 1e-9);
  g_assert_cmpfloat_with_epsilon (tks_viewport_x_to_time (vp, tks_viewport_time_to_x (vp, 17123.25, 777), 777),
                                  17123.25, 1e-9);
  g_assert_cmpfloat (tks_viewport_x_to_time (vp, 10, 0), ==, 17000);
}

/* Zoom to fit shows the data the window names, not the time after the log's end; zooming out
 * still reaches the bounds, and a view of the whole capture moves to the data. */
static void
test_fit (void)
{
  g_autoptr(TksViewport) vp = tks_viewport_new ();

  tks_viewport_set_bounds (vp, 100, 1300);
  tks_viewport_set_fit (vp, 100, 180);
  g_assert_cmpfloat (tks_viewport_get_visible_start (vp), ==, 100);
  g_assert_cmpfloat (tks_viewport_get_visible_end (vp), ==, 180);
  tks_viewport_zoom (vp, 0.001, 0.5);
  g_assert_cmpfloat (tks_viewport_get_visible_end (vp), ==, 1300);
  tks_viewport_zoom_to_fit (vp);
  g_assert_cmpfloat (tks_viewport_get_visible_start (vp), ==, 100);
  g_assert_cmpfloat (tks_viewport_get_visible_end (vp), ==, 180);
  g_assert_true (tks_viewport_can_go_back (vp));

  /* a view of part of the capture stays; a fit outside the bounds is kept inside them */
  tks_viewport_navigate (vp, 500, 600);
  tks_viewport_set_fit (vp, 0, 5000);
  g_assert_cmpfloat (tks_viewport_get_visible_start (vp), ==, 500);
  tks_viewport_zoom_to_fit (vp);
  g_assert_cmpfloat (tks_viewport_get_visible_start (vp), ==, 100);
  g_assert_cmpfloat (tks_viewport_get_visible_end (vp), ==, 1300);

  /* new bounds: the fit is the whole again until said */
  tks_viewport_set_bounds (vp, 0, 50);
  tks_viewport_zoom_to_fit (vp);
  g_assert_cmpfloat (tks_viewport_get_visible_end (vp), ==, 50);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/view/viewport/bounds", test_bounds);
  g_test_add_func ("/view/viewport/zoom-at-anchor", test_zoom_at_anchor);
  g_test_add_func ("/view/viewport/pan-clamps", test_pan_clamps);
  g_test_add_func ("/view/viewport/history", test_history);
  g_test_add_func ("/view/viewport/history-coalesce", test_history_coalesce);
  g_test_add_func ("/view/viewport/vertical", test_vertical);
  g_test_add_func ("/view/viewport/conversions", test_conversions);
  g_test_add_func ("/view/viewport/fit", test_fit);

  return g_test_run ();
}
