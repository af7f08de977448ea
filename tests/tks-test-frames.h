/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Painting a test's window: tks_test_wait_frames (window, 2) asks for a redraw and runs the
 * main loop until two frames were painted, within the generous deadline of tks-test-wait.h
 * (a busy machine under the sanitizers paints slowly, never a failure).
 */

#include <gtk/gtk.h>

#include "tks-test-wait.h"

static inline void
tks_test_frame_done (GdkFrameClock *clock,
                     guint         *frames)
{
  (*frames)++;
}

/* Paints @n frames of @window (a redraw is asked for each). */
static inline void
tks_test_wait_frames (GtkWidget *window,
                      guint      n)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);
  gboolean timed_out = FALSE;
  guint frames = 0;
  gulong id;
  guint timeout;

  g_assert_nonnull (clock);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (tks_test_frame_done), &frames);
  timeout = g_timeout_add_seconds (TKS_WAIT_SECONDS, tks_wait_timed_out, &timed_out);
  while (frames < n && !timed_out)
    {
      gtk_widget_queue_draw (window);
      g_main_context_iteration (NULL, TRUE);
    }
  g_signal_handler_disconnect (clock, id);
  if (!timed_out)
    g_source_remove (timeout);
  g_assert_false (timed_out);
}
