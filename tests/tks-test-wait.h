/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Waiting in the main loop, for tests and benchmarks: until a condition holds, within a
 * generous deadline (a busy 2-core machine under the sanitizers is slow, never a failure), and
 * for one asynchronous call:
 *   g_assert_true (tks_wait_until (tks_wait_nonnull, &capture));
 *   tks_session_fetch_async (session, NULL, tks_wait_done, &wait);
 *   capture = tks_session_fetch_finish (session, tks_wait_for (&wait), &error);
 */

#include <gio/gio.h>

#define TKS_WAIT_SECONDS 60

/* Whether what @data points to is what a test waits for. */
typedef gboolean (*TksWaitCondition) (gconstpointer data);

static inline gboolean
tks_wait_nonnull (gconstpointer data)
{
  return *(gconstpointer const *) data != NULL;
}

static inline gboolean
tks_wait_nonzero (gconstpointer data)
{
  return *(const guint *) data != 0;
}

static inline gboolean
tks_wait_true (gconstpointer data)
{
  return *(const gboolean *) data;
}

static inline gboolean
tks_wait_timed_out (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the default main context until @holds (@data), or until TKS_WAIT_SECONDS have passed:
 * whether it holds. */
static inline gboolean
tks_wait_until (TksWaitCondition holds,
                gconstpointer    data)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (TKS_WAIT_SECONDS, tks_wait_timed_out, &timed_out);

  while (!holds (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
  return holds (data);
}

/* One asynchronous call: tks_wait_done is its callback, tks_wait_for its result. */
typedef struct
{
  GAsyncResult *result;
  gboolean      done;     /* the call has ended since tks_wait_for last returned */
} TksWait;

static inline void
tks_wait_done (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  TksWait *wait = user_data;

  g_assert_false (wait->done);
  g_set_object (&wait->result, result);
  wait->done = TRUE;
}

/* The result of the call (held by @wait until the next one ends, or tks_wait_clear). */
static inline GAsyncResult *
tks_wait_for (TksWait *wait)
{
  g_assert_true (tks_wait_until (tks_wait_true, &wait->done));
  wait->done = FALSE;
  return wait->result;
}

static inline void
tks_wait_clear (TksWait *wait)
{
  g_clear_object (&wait->result);
}
