/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The captures in tests/data, for tests linked with the core. */

#include <string.h>

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

/* The capture @text reads as, from its first @len bytes (-1: up to its NUL); the test fails
 * if it does not load. */
static inline TksCapture *
tks_test_capture_of_text (const char *text,
                          gssize      len)
{
  g_autoptr(GError) error = NULL;
  TksCapture *capture = tks_capture_new_from_data (text, len < 0 ? strlen (text) : (gsize) len, &error);

  g_assert_no_error (error);
  g_assert_nonnull (capture);
  return capture;
}

/* The bytes of the file tests/data/@name, NUL-terminated, their count in @len (may be NULL);
 * the test fails if it cannot be read. */
static inline char *
tks_test_data_contents (const char *name,
                        gsize      *len)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", name, NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, len, &error);
  g_assert_no_error (error);
  return text;
}

/* Whether one of @capture's warnings says @part. */
static inline gboolean
tks_test_has_warning (TksCapture *capture,
                      const char *part)
{
  guint n;
  const char * const *warnings = tks_capture_get_warnings (capture, &n);

  for (guint i = 0; i < n; i++)
    if (strstr (warnings[i], part) != NULL)
      return TRUE;
  return FALSE;
}
