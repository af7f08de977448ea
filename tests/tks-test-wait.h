/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* Waiting for one asynchronous call in the main loop, for tests and benchmarks:
 *   tks_session_fetch_async (session, NULL, tks_wait_done, &wait);
 *   capture = tks_session_fetch_finish (session, tks_wait_for (&wait), &error); */

#include <gio/gio.h>

typedef struct
{
  GMainLoop    *loop;
  GAsyncResult *result;
} TksWait;

static inline void
tks_wait_done (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  TksWait *wait = user_data;

  wait->result = g_object_ref (result);
  g_main_loop_quit (wait->loop);
}

static inline GAsyncResult *
tks_wait_for (TksWait *wait)
{
  g_clear_object (&wait->result);
  g_main_loop_run (wait->loop);
  return wait->result;
}
