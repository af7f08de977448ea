/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The captures in tests/data, for tests linked with the core. */

#include <glib.h>

#include "tks-capture.h"

/* The capture in tests/data/@name; the test fails if it does not load. */
static inline TksCapture *
tks_test_load_data (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", name, NULL);
  g_autoptr(GError) error = NULL;
  TksCapture *capture = tks_capture_new_from_file (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (capture);
  return capture;
}
