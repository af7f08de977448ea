/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Captures made from files, file descriptors, in-memory text and the board's replies. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "tks-capture-private.h"
#include "tks-error.h"
#include "tks-parser.h"

#define READ_CHUNK (1 << 20)

/* ------------------------------------------------------------------------------------------ */
/* Loading                                                                                      */

TksParsed *
tks_parse_text (const char  *data,
                gsize        len,
                GError     **error)
{
  g_autoptr(TksParser) parser = tks_parser_new ();

  tks_parser_feed (parser, data, len);
  return tks_parser_finish (parser, error);
}

TksCapture *
tks_capture_new_from_data (const char  *data,
                           gsize        len,
                           GError     **error)
{
  TksParsed *parsed;

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  parsed = tks_parse_text (data, len, error);
  if (parsed == NULL)
    return NULL;
  return tks_capture_new_from_parsed (parsed);
}

typedef enum
{
  FAILED_OPEN,
  FAILED_READ,
  FAILED_PARSE,
} Failure;

/* The message of a failed load: @reason after the name of the input (@display), or alone when
 * @display is NULL, for a caller that shows the name with it. */
static void
set_load_error (GError     **error,
                Failure      failure,
                const char  *display,
                GError      *reason)
{
  if (display == NULL)
    g_propagate_error (error, g_error_copy (reason));
  else if (failure == FAILED_OPEN)
    /* Translators: a file name, then the reason */
    g_set_error (error, reason->domain, reason->code, _("Cannot open “%s”: %s"), display,
                 reason->message);
  else if (failure == FAILED_READ)
    /* Translators: a file name, then the reason */
    g_set_error (error, reason->domain, reason->code, _("Cannot read “%s”: %s"), display,
                 reason->message);
  else
    /* Translators: a file name, then what is wrong with it */
    g_set_error (error, reason->domain, reason->code, _("“%s”: %s"), display, reason->message);
}

static void
set_errno_error (GError     **error,
                 Failure      failure,
                 const char  *display,
                 int          errsv)
{
  g_autoptr(GError) reason = g_error_new_literal (TKS_ERROR, TKS_ERROR_IO, g_strerror (errsv));

  set_load_error (error, failure, display, reason);
}

static TksCapture *
read_fd (int          fd,
         const char  *display,
         const char  *source,
         GError     **error)
{
  g_autoptr(TksParser) parser = tks_parser_new ();
  g_autofree char *buffer = NULL;
  g_autoptr(GError) local_error = NULL;
  TksParsed *parsed;
  GStatBuf st;

  /* Read by chunks: the file itself never needs to sit in memory, and reading stops as soon
   * as the input cannot be a capture (an endless device, random bytes). */
  if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode))
    tks_parser_reserve (parser, st.st_size);
  buffer = g_malloc (READ_CHUNK);
  while (!tks_parser_failed (parser))
    {
      gssize n = read (fd, buffer, READ_CHUNK);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          set_errno_error (error, FAILED_READ, display, errno);
          return NULL;
        }
      if (n == 0)
        break;
      tks_parser_feed (parser, buffer, n);
    }

  parsed = tks_parser_finish (parser, &local_error);
  if (parsed == NULL)
    {
      set_load_error (error, FAILED_PARSE, display, local_error);
      return NULL;
    }
  if (parsed->source == NULL)
    parsed->source = g_strdup (source);
  return tks_capture_new_from_parsed (parsed);
}

static TksCapture *
read_file (const char  *path,
           const char  *display,
           const char  *source,
           GError     **error)
{
  TksCapture *capture;
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);

  if (fd < 0)
    {
      set_errno_error (error, FAILED_OPEN, display, errno);
      return NULL;
    }
  capture = read_fd (fd, display, source, error);
  close (fd);
  return capture;
}

TksCapture *
tks_capture_new_from_fd (int          fd,
                         const char  *display,
                         const char  *source,
                         GError     **error)
{
  g_return_val_if_fail (fd >= 0, NULL);
  g_return_val_if_fail (display != NULL, NULL);

  return read_fd (fd, display, source, error);
}

TksCapture *
tks_capture_new_from_file (const char  *path,
                           GError     **error)
{
  return tks_capture_new_from_file_full (path, NULL, error);
}

TksCapture *
tks_capture_new_from_file_full (const char  *path,
                                const char  *source,
                                GError     **error)
{
  g_autofree char *display = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  display = g_filename_display_name (path);
  return read_file (path, display, source, error);
}

TksCapture *
tks_capture_new_from_replies (const char  *threads_list_reply,
                              gsize        list_len,
                              const char  *threads_timestamps_reply,
                              gsize        timestamps_len,
                              GError     **error)
{
  g_autoptr(TksParser) parser = tks_parser_new ();
  TksParsed *parsed;

  g_return_val_if_fail (threads_list_reply != NULL, NULL);
  g_return_val_if_fail (threads_timestamps_reply != NULL, NULL);

  tks_parser_begin_reply (parser, TKS_PARSER_SECTION_LIST);
  tks_parser_feed (parser, threads_list_reply, list_len);
  tks_parser_feed (parser, "\n", 1);
  tks_parser_begin_reply (parser, TKS_PARSER_SECTION_LOG);
  tks_parser_feed (parser, threads_timestamps_reply, timestamps_len);
  tks_parser_feed (parser, "\n", 1);
  parsed = tks_parser_finish (parser, error);
  if (parsed == NULL)
    return NULL;
  return tks_capture_new_from_parsed (parsed);
}

TksCapture *
tks_capture_new_from_dump (const char  *threads_dump_reply,
                           gsize        len,
                           GError     **error)
{
  g_autoptr(TksParser) parser = tks_parser_new ();
  TksParsed *parsed;

  g_return_val_if_fail (threads_dump_reply != NULL, NULL);

  tks_parser_begin_reply (parser, TKS_PARSER_SECTION_DUMP);
  tks_parser_feed (parser, threads_dump_reply, len);
  tks_parser_feed (parser, "\n", 1);
  parsed = tks_parser_finish (parser, error);
  if (parsed == NULL)
    return NULL;
  return tks_capture_new_from_parsed (parsed);
}

/* A load started before anyone asked for it (tks_capture_preload_file()): the next
 * tks_capture_load_file_async() of the same file takes it over. One at a time. */
typedef struct
{
  gatomicrefcount  ref;     /* the reading thread, and the one pending or its taker */
  char            *path;
  GMutex           lock;
  GCond            cond;
  gboolean         done;
  TksCapture      *capture;
  GError          *error;
} Preload;

G_LOCK_DEFINE_STATIC (preload);
static Preload *preload_pending;

static void
preload_unref (Preload *preload)
{
  if (!g_atomic_ref_count_dec (&preload->ref))
    return;
  g_clear_object (&preload->capture);
  g_clear_error (&preload->error);
  g_mutex_clear (&preload->lock);
  g_cond_clear (&preload->cond);
  g_free (preload->path);
  g_free (preload);
}

static gpointer
preload_thread (gpointer data)
{
  Preload *preload = data;
  GError *error = NULL;
  TksCapture *capture = read_file (preload->path, NULL, NULL, &error);

  g_mutex_lock (&preload->lock);
  preload->capture = capture;
  preload->error = error;
  preload->done = TRUE;
  g_cond_broadcast (&preload->cond);
  g_mutex_unlock (&preload->lock);
  preload_unref (preload);
  return NULL;
}

void
tks_capture_preload_file (GFile *file)
{
  g_autofree char *path = NULL;
  Preload *preload;

  g_return_if_fail (G_IS_FILE (file));

  path = g_file_get_path (file);
  if (path == NULL)
    return;
  G_LOCK (preload);
  if (preload_pending != NULL)
    {
      G_UNLOCK (preload);
      return;
    }
  preload = g_new0 (Preload, 1);
  g_atomic_ref_count_init (&preload->ref);
  g_atomic_ref_count_inc (&preload->ref);
  preload->path = g_steal_pointer (&path);
  g_mutex_init (&preload->lock);
  g_cond_init (&preload->cond);
  preload_pending = preload;
  G_UNLOCK (preload);
  g_thread_unref (g_thread_new ("tks-preload", preload_thread, preload));
}

void
tks_capture_preload_forget (void)
{
  Preload *preload;

  G_LOCK (preload);
  preload = g_steal_pointer (&preload_pending);
  G_UNLOCK (preload);
  if (preload != NULL)
    preload_unref (preload);
}

gboolean
tks_capture_preload_wait (guint timeout_ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  Preload *preload;
  gboolean done;

  G_LOCK (preload);
  preload = preload_pending;
  if (preload != NULL)
    g_atomic_ref_count_inc (&preload->ref);
  G_UNLOCK (preload);
  if (preload == NULL)
    return TRUE;
  g_mutex_lock (&preload->lock);
  while (!preload->done && g_cond_wait_until (&preload->cond, &preload->lock, end))
    ;
  done = preload->done;
  g_mutex_unlock (&preload->lock);
  preload_unref (preload);
  return done;
}

/* The pending preload of @path, taken over (NULL: none) */
static Preload *
preload_take (const char *path)
{
  Preload *preload = NULL;

  G_LOCK (preload);
  if (path != NULL && preload_pending != NULL && strcmp (preload_pending->path, path) == 0)
    preload = g_steal_pointer (&preload_pending);
  G_UNLOCK (preload);
  return preload;
}

typedef struct
{
  GFile   *file;
  Preload *preload;   /* NULL: read the file */
} LoadData;

static void
load_data_free (gpointer data)
{
  LoadData *load = data;

  g_object_unref (load->file);
  if (load->preload != NULL)
    preload_unref (load->preload);
  g_free (load);
}

static void
load_file_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  LoadData *load = task_data;
  g_autofree char *path = g_file_get_path (load->file);
  GError *error = NULL;
  TksCapture *capture;

  if (path == NULL)
    {
      g_task_return_new_error (task, TKS_ERROR, TKS_ERROR_IO,
                               _("Only local files can be opened"));
      return;
    }
  if (load->preload != NULL)
    {
      Preload *preload = load->preload;

      g_mutex_lock (&preload->lock);
      while (!preload->done)
        g_cond_wait (&preload->cond, &preload->lock);
      capture = g_steal_pointer (&preload->capture);
      error = g_steal_pointer (&preload->error);
      g_mutex_unlock (&preload->lock);
    }
  else
    capture = read_file (path, NULL, NULL, &error);
  if (capture == NULL)
    g_task_return_error (task, error);
  else if (g_task_return_error_if_cancelled (task))
    g_object_unref (capture);
  else
    g_task_return_pointer (task, capture, g_object_unref);
}

void
tks_capture_load_file_async (GFile               *file,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *path = NULL;
  LoadData *load;

  g_return_if_fail (G_IS_FILE (file));

  path = g_file_get_path (file);
  load = g_new0 (LoadData, 1);
  load->file = g_object_ref (file);
  load->preload = preload_take (path);
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tks_capture_load_file_async);
  g_task_set_task_data (task, load, load_data_free);
  g_task_run_in_thread (task, load_file_thread);
}

TksCapture *
tks_capture_load_file_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == tks_capture_load_file_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
