/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A capture read before it is asked for (tks_capture_preload_file(), the viewer's command
 * line): the next load of the same file takes the read over rather than reading again, a load
 * of another file reads that one, and a preload dropped is read no more. Whether a load read
 * the file again is seen by changing the file between the preload and the load. */
#include "config.h"

#include <glib/gstdio.h>

#include "tks-capture.h"
#include "tks-error.h"
#include "tks-test-data.h"
#include "tks-test-wait.h"

typedef struct
{
  gboolean    done;
  TksCapture *capture;
  GError     *error;
} Load;

static void
loaded_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Load *load = user_data;

  load->capture = tks_capture_load_file_finish (result, &load->error);
  load->done = TRUE;
}

/* tks_capture_load_file_async() of @path, to its end */
static void
load_file (const char *path,
           Load       *load)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  tks_capture_load_file_async (file, NULL, loaded_cb, load);
  g_assert_true (tks_wait_until (tks_wait_true, &load->done));
}

static void
load_clear (Load *load)
{
  g_clear_object (&load->capture);
  g_clear_error (&load->error);
  load->done = FALSE;
}

/* a copy of tests/data/@name in @dir */
static char *
copy_data (const char *dir,
           const char *name)
{
  gsize len;
  g_autofree char *contents = tks_test_data_contents (name, &len);
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, contents, len, NULL));
  return path;
}

static void
preload_path (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  tks_capture_preload_file (file);
}

/* The load takes the preload's capture over: what the file held when it was preloaded. */
static void
test_taken_over (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tickscope-preload-XXXXXX", NULL);
  g_autofree char *path = copy_data (dir, "board-run-mode.raw.txt");
  Load load = { 0 };

  preload_path (path);
  g_assert_true (tks_capture_preload_wait (60000));
  g_assert_true (g_file_set_contents (path, "hello\n", -1, NULL));
  load_file (path, &load);
  g_assert_no_error (load.error);
  g_assert_cmpuint (tks_capture_get_n_records (load.capture), ==, 3000);
  load_clear (&load);

  /* once only: the next load reads the file as it is now */
  load_file (path, &load);
  g_assert_null (load.capture);
  g_assert_error (load.error, TKS_ERROR, TKS_ERROR_NOT_A_CAPTURE);
  load_clear (&load);
  g_assert_true (tks_capture_preload_wait (0));

  g_unlink (path);
  g_rmdir (dir);
}

/* A load asked for at once, while the preload may still be reading, waits for it; a second
 * preload while one is pending does nothing. */
static void
test_load_at_once (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tickscope-preload-XXXXXX", NULL);
  g_autofree char *path = copy_data (dir, "board-run-mode.raw.txt");
  g_autofree char *other = copy_data (dir, "board-trigger-exits.raw.txt");
  g_autoptr(TksCapture) expected = tks_test_load_data ("board-run-mode.raw.txt");
  Load load = { 0 };

  preload_path (path);
  preload_path (other);
  load_file (path, &load);
  g_assert_no_error (load.error);
  g_assert_cmpuint (tks_capture_get_n_records (load.capture), ==,
                    tks_capture_get_n_records (expected));
  load_clear (&load);

  /* the second preload was not started: this file is read when asked for */
  g_assert_true (g_file_set_contents (other, "hello\n", -1, NULL));
  load_file (other, &load);
  g_assert_error (load.error, TKS_ERROR, TKS_ERROR_NOT_A_CAPTURE);
  load_clear (&load);

  g_unlink (path);
  g_unlink (other);
  g_rmdir (dir);
}

/* Another file is read, and leaves the preload pending; a preload forgotten is read no more. */
static void
test_other_file_and_forget (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tickscope-preload-XXXXXX", NULL);
  g_autofree char *path = copy_data (dir, "board-run-mode.raw.txt");
  g_autofree char *other = copy_data (dir, "board-trigger-exits.raw.txt");
  g_autoptr(TksCapture) expected = tks_test_load_data ("board-trigger-exits.raw.txt");
  Load load = { 0 };

  preload_path (path);
  load_file (other, &load);
  g_assert_no_error (load.error);
  g_assert_cmpuint (tks_capture_get_n_records (load.capture), ==,
                    tks_capture_get_n_records (expected));
  load_clear (&load);

  tks_capture_preload_forget ();
  g_assert_true (g_file_set_contents (path, "hello\n", -1, NULL));
  load_file (path, &load);
  g_assert_error (load.error, TKS_ERROR, TKS_ERROR_NOT_A_CAPTURE);
  load_clear (&load);

  g_unlink (path);
  g_unlink (other);
  g_rmdir (dir);
}

/* The preload's failure is the load's, without the file's name (the window names it). */
static void
test_failure (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tickscope-preload-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing-capture.txt", NULL);
  Load load = { 0 };

  preload_path (missing);
  load_file (missing, &load);
  g_assert_null (load.capture);
  g_assert_error (load.error, TKS_ERROR, TKS_ERROR_IO);
  g_assert_null (strstr (load.error->message, "missing-capture"));
  load_clear (&load);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/preload/taken-over", test_taken_over);
  g_test_add_func ("/preload/load-at-once", test_load_at_once);
  g_test_add_func ("/preload/other-file-and-forget", test_other_file_and_forget);
  g_test_add_func ("/preload/failure", test_failure);
  return g_test_run ();
}
