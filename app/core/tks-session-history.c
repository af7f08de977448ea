/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The history of a session: every fetch kept in a folder of the user's, the bytes that could
 * not be rebuilt kept with it, the oldest files pruned. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "tks-error.h"
#include "tks-session.h"
#include "tks-session-private.h"


/* History */

char *
tks_session_get_history_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "tickscope", "captures", NULL);
}

static int
compare_newest_first (gconstpointer a,
                      gconstpointer b)
{
  const char *pa = *(char * const *) a;
  const char *pb = *(char * const *) b;
  g_autofree char *ba = g_path_get_basename (pa);
  g_autofree char *bb = g_path_get_basename (pb);

  return -g_strcmp0 (ba, bb);
}

GPtrArray *
tks_session_list_history (void)
{
  g_autofree char *dir_path = tks_session_get_history_dir ();
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  if (dir == NULL)
    return files;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      if (!g_str_has_suffix (name, ".txt") || name[0] == '.')
        continue;
      /* The received bytes kept next to a capture built from them are not a second fetch. */
      if (g_str_has_suffix (name, ".raw.txt"))
        {
          g_autofree char *stem = g_strndup (name, strlen (name) - strlen (".raw.txt"));
          g_autofree char *capture = g_strconcat (dir_path, G_DIR_SEPARATOR_S, stem, ".txt", NULL);

          if (g_file_test (capture, G_FILE_TEST_EXISTS))
            continue;
        }
      g_ptr_array_add (files, g_build_filename (dir_path, name, NULL));
    }
  g_ptr_array_sort (files, compare_newest_first);
  return files;
}

/* Keeps the history folder under @max_bytes (0: no limit): the oldest files go first, never
 * @keep nor @keep_too (the fetch just saved and the bytes kept with it). */
static void
prune_history (guint64     max_bytes,
               const char *keep,
               const char *keep_too)
{
  g_autofree char *dir_path = tks_session_get_history_dir ();
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) dir = NULL;
  const char *name;
  guint64 total = 0;
  gboolean over = FALSE;

  if (max_bytes == 0 || (dir = g_dir_open (dir_path, 0, NULL)) == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".txt") && name[0] != '.')
      g_ptr_array_add (files, g_build_filename (dir_path, name, NULL));
  g_ptr_array_sort (files, compare_newest_first);

  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);
      GStatBuf st;

      if (g_stat (path, &st) != 0)
        continue;
      if (g_strcmp0 (path, keep) == 0 || g_strcmp0 (path, keep_too) == 0)
        {
          total += (guint64) st.st_size;
          continue;
        }
      if (!over && total + (guint64) st.st_size <= max_bytes)
        {
          total += (guint64) st.st_size;
          continue;
        }
      over = TRUE;
      if (g_unlink (path) != 0)
        g_message ("Could not remove %s from the history: %s", path, g_strerror (errno));
    }
}

static char *
history_path (const char *address,
              const char *suffix,
              GError    **error)
{
  g_autofree char *dir = tks_session_get_history_dir ();
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y-%m-%d_%H-%M-%S");
  g_autofree char *safe = g_strdup (address);
  char *path = NULL;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int errsv = errno;

      /* Translators: a folder, then the system's reason */
      g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Could not create the history folder %s: %s"),
                   dir, g_strerror (errsv));
      return NULL;
    }
  g_strcanon (safe, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.", '_');
  for (guint i = 0; i < 1000 && path == NULL; i++)
    {
      g_autofree char *name = i == 0
        ? g_strdup_printf ("%s.%03d_%s%s", stamp, g_date_time_get_microsecond (now) / 1000, safe, suffix)
        : g_strdup_printf ("%s.%03d_%s-%u%s", stamp, g_date_time_get_microsecond (now) / 1000, safe, i, suffix);
      char *candidate = g_build_filename (dir, name, NULL);

      if (!g_file_test (candidate, G_FILE_TEST_EXISTS))
        path = candidate;
      else
        g_free (candidate);
    }
  if (path == NULL)
    g_set_error (error, TKS_ERROR, TKS_ERROR_IO, _("Could not name a file in %s"), dir);
  return path;
}

/* Writes @text into the history under a new name ending in @suffix; the path, or NULL. */
static char *
save_in_history (Link       *link,
                 const char *suffix,
                 GString    *text)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = history_path (link->address, suffix, &error);

  if (path == NULL || !g_file_set_contents (path, text->str, (gssize) text->len, &error))
    {
      g_message ("Could not keep the received bytes: %s", error->message);
      return NULL;
    }
  return g_steal_pointer (&path);
}

/* Adds a sentence to the job's error. */
static void append_to_error (Job        *job,
                             const char *format,
                             ...) G_GNUC_PRINTF (2, 3);

static void
append_to_error (Job        *job,
                 const char *format,
                 ...)
{
  g_autofree char *more = NULL;
  char *message;
  va_list args;

  va_start (args, format);
  more = g_strdup_vprintf (format, args);
  va_end (args);
  message = g_strconcat (job->error->message, g_str_has_suffix (job->error->message, ".") ? " " : ". ",
                         more, NULL);
  g_free (job->error->message);
  job->error->message = message;
}

/* Keeps what the board sent when it could not be rebuilt, so nothing is lost; says where in
 * the job's error. */
void
tks_session_save_raw (Link    *link,
                      Job     *job,
                      GString *transcript)
{
  if (!link->save_history)
    return;
  job->saved_path = save_in_history (link, ".raw.txt", transcript);
  if (job->saved_path == NULL)
    return;
  prune_history (link->history_max_bytes, job->saved_path, NULL);
  append_to_error (job, _("The received bytes are kept in %s"), job->saved_path);
}

/* A reply that passed its bound: its first and last bytes are kept, with what came before it
 * in this fetch, and a line saying how much was left out between them. */
void
tks_session_save_failed_reply (Link       *link,
                               Job        *job,
                               const char *command)
{
  gsize len = 0;
  const guint8 *data = tks_shell_get_failed_reply (link->shell, &len);
  g_autoptr(GString) text = NULL;

  if (data == NULL || !link->save_history)
    return;
  text = g_string_new (job->transcript != NULL ? job->transcript->str : "");
  if (len <= 2 * KEPT_END_BYTES)
    g_string_append_len (text, (const char *) data, (gssize) len);
  else
    {
      g_string_append_len (text, (const char *) data, (gssize) KEPT_END_BYTES);
      g_string_append_printf (text, "\r\n[Tickscope: %" G_GSIZE_FORMAT " bytes of the reply to "
                              "“%s” left out here]\r\n", len - 2 * KEPT_END_BYTES, command);
      g_string_append_len (text, (const char *) data + len - KEPT_END_BYTES,
                           (gssize) KEPT_END_BYTES);
    }
  job->saved_path = save_in_history (link, ".raw.txt", text);
  if (job->saved_path == NULL)
    return;
  prune_history (link->history_max_bytes, job->saved_path, NULL);
  if (len <= 2 * KEPT_END_BYTES)
    append_to_error (job, _("Its bytes are kept in %s"), job->saved_path);
  else
    append_to_error (job, _("Its first and last 64 KiB are kept in %s"), job->saved_path);
}

/* Saves the capture in the history, with the bytes it was built from next to it when they
 * arrived damaged (@received), so the damage stays to be seen. */
void
tks_session_keep_in_history (Link       *link,
                             Job        *job,
                             TksCapture *capture,
                             GString    *received)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *path = NULL;

  if (!link->save_history)
    return;
  if (!tks_capture_write (capture, text, NULL, 0)
      || (path = save_in_history (link, ".txt", text)) == NULL)
    {
      g_message ("Could not keep the capture in the history");
      return;
    }
  if (received != NULL)
    {
      g_autofree char *stem = g_strndup (path, strlen (path) - strlen (".txt"));
      g_autofree char *raw = g_strconcat (stem, ".raw.txt", NULL);
      g_autoptr(GError) error = NULL;

      if (g_file_set_contents (raw, received->str, (gssize) received->len, &error))
        job->raw_path = g_steal_pointer (&raw);
      else
        g_message ("Could not keep the received bytes: %s", error->message);
    }
  prune_history (link->history_max_bytes, path, job->raw_path);
  job->saved_path = g_steal_pointer (&path);
}
