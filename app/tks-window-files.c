/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's files: opening a capture or a shell transcript in a worker thread, the file
 * choosers, the recent captures in the main menu, and saving in the capture format. */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tks-budget.h"
#include "tks-timeline-view.h"
#include "tks-viewport.h"
#include "tks-window-private.h"

#define RECENT_APP_NAME "tickscope"
#define MAX_RECENT 10

static void
add_recent (TksWindow *self,
            GFile     *file)
{
  g_autofree char *uri = g_file_get_uri (file);
  GtkRecentData data = {
    .display_name = NULL,
    .description = NULL,
    .mime_type = (char *)"text/plain",
    .app_name = (char *)RECENT_APP_NAME,
    .app_exec = (char *)"tickscope %u",
    .groups = NULL,
    .is_private = FALSE,
  };

  gtk_recent_manager_add_full (self->recent, uri, &data);
}

/* Loading */

typedef struct
{
  TksWindow *self;
  GFile     *file;
  double     at;    /* seconds from the ruler's origin to centre on; NAN: the saved view */
} LoadData;

/* The timeline centred on @seconds from the time ruler's origin, about 20 ms wide (less when
 * the capture is shorter). */
static void
centre_at (TksWindow *self,
           double     seconds)
{
  double pos = tks_capture_ruler_position (self->capture, seconds);
  double start = tks_capture_get_start (self->capture);
  double end = tks_capture_get_end (self->capture);
  double span = MIN (end - start, 0.02 * tks_capture_get_tick_hz (self->capture));

  span = MAX (span, tks_viewport_get_min_span (self->viewport));
  tks_viewport_set_range (self->viewport, pos - span / 2, pos + span / 2);
}

static void
load_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  LoadData *data = user_data;
  TksWindow *self = data->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = tks_capture_load_file_finish (result, &error);

  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      tks_progress_stop (self->progress);
      g_clear_object (&self->load_cancellable);

      if (capture == NULL)
        {
          g_autofree char *name = g_file_get_parse_name (data->file);
          g_autofree char *message = NULL;
          /* the core's messages do not name the file: it is named here, in every language */
          const char *reason = error != NULL ? error->message : _("unknown error");

          /* Translators: %s is a file name, then the reason */
          message = g_strdup_printf (_("Could not open “%s”: %s"), name, reason);
          tks_window_show_error (self, message);
        }
      else
        {
          TksSavedView view;

          self->file_is_capture = tks_capture_get_saved_view (capture, &view);
          tks_window_set_capture (self, capture, data->file);
          if (!isnan (data->at))
            centre_at (self, data->at);
          add_recent (self, data->file);
        }
    }

  g_object_unref (data->self);
  g_object_unref (data->file);
  g_free (data);
}

void
tks_window_open_file (TksWindow *self,
                      GFile     *file)
{
  tks_window_open_file_at (self, file, NAN);
}

void
tks_window_open_file_at (TksWindow *self,
                         GFile     *file,
                         double     seconds)
{
  LoadData *data;
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;

  g_return_if_fail (TKS_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = g_cancellable_new ();

  name = g_file_get_basename (file);
  text = g_strdup_printf (_("Loading “%s”…"), name);
  tks_progress_start (self->progress, text);

  data = g_new0 (LoadData, 1);
  data->self = g_object_ref (self);
  data->file = g_object_ref (file);
  data->at = seconds;
  tks_capture_load_file_async (file, self->load_cancellable, load_done_cb, data);
}

/* File choosers */

static void
open_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  TksWindow       *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      if (file != NULL)
        tks_window_open_file (self, file);
    }
  gtk_native_dialog_destroy (dialog);
  g_clear_object (&self->chooser);
}

void
_tks_window_add_filter (GtkFileChooser *chooser,
                        const char     *name,
                        const char     *pattern,
                        const char     *id)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  if (pattern != NULL)
    gtk_file_filter_add_pattern (filter, pattern);
  else
    gtk_file_filter_add_pattern (filter, "*");
  g_object_set_data_full (G_OBJECT (filter), "tks-format", g_strdup (id), g_free);
  gtk_file_chooser_add_filter (chooser, filter);
  g_object_unref (filter);
}

void
_tks_window_open_chooser (TksWindow *self,
                          GFile     *start_folder)
{
  GtkFileChooserNative *native;

  native = gtk_file_chooser_native_new (_("Open Capture"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  _tks_window_add_filter (GTK_FILE_CHOOSER (native), _("Captures and shell transcripts (*.txt)"), "*.txt", "txt");
  _tks_window_add_filter (GTK_FILE_CHOOSER (native), _("All files"), NULL, "all");
  {
    /* start where the current capture is, or where the viewer was started */
    g_autoptr(GFile) folder = NULL;
    g_autofree char *cwd = NULL;

    if (start_folder != NULL)
      folder = g_object_ref (start_folder);
    else if (self->file != NULL)
      folder = g_file_get_parent (self->file);
    else
      folder = g_file_new_for_path ((cwd = g_get_current_dir ()));
    if (folder != NULL)
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (native), folder, NULL);
  }
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  g_signal_connect (native, "response", G_CALLBACK (open_response_cb), self);
  g_set_object (&self->chooser, GTK_NATIVE_DIALOG (native));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
  g_object_unref (native);
}

char *
_tks_window_menu_label (const char *text)
{
  g_auto(GStrv) parts = g_strsplit (text, "_", -1);

  return g_strjoinv ("__", parts);
}

void
_tks_window_rebuild_recent (TksWindow *self)
{
  GList *items = gtk_recent_manager_get_items (self->recent);
  GList *l;
  GPtrArray *mine = g_ptr_array_new ();
  guint i;

  g_menu_remove_all (tks_header_bar_get_recent_section (self->header));
  for (l = items; l != NULL; l = l->next)
    if (gtk_recent_info_has_application (l->data, RECENT_APP_NAME))
      g_ptr_array_add (mine, l->data);

  /* newest first */
  for (i = 0; i < mine->len; i++)
    {
      guint j;
      for (j = i + 1; j < mine->len; j++)
        {
          GtkRecentInfo *a = g_ptr_array_index (mine, i);
          GtkRecentInfo *b = g_ptr_array_index (mine, j);
          if (g_date_time_compare (gtk_recent_info_get_modified (a),
                                   gtk_recent_info_get_modified (b)) < 0)
            {
              g_ptr_array_index (mine, i) = b;
              g_ptr_array_index (mine, j) = a;
            }
        }
    }

  for (i = 0; i < mine->len && i < MAX_RECENT; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (mine, i);
      g_autofree char *label = _tks_window_menu_label (gtk_recent_info_get_display_name (info));
      g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target (item, "win.open-recent", "s", gtk_recent_info_get_uri (info));
      g_menu_append_item (tks_header_bar_get_recent_section (self->header), item);
    }
  if (mine->len == 0)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("No recent captures"), "win.nothing");
      g_menu_append_item (tks_header_bar_get_recent_section (self->header), item);
    }

  g_ptr_array_unref (mine);
  g_list_free_full (items, (GDestroyNotify)gtk_recent_info_unref);
}

/* Saving */

static void
fill_saved_view (TksWindow    *self,
                 TksSavedView *view)
{
  double first = 0, last = 1;

  view->x0 = tks_viewport_get_visible_start (self->viewport);
  view->x1 = tks_viewport_get_visible_end (self->viewport);
  if (!tks_timeline_view_get_visible_lanes (self->timeline, &first, &last))
    {
      first = 0;
      last = 1;
    }
  view->y0 = tks_capture_lane_to_legacy_y (self->capture,
                                           tks_timeline_view_get_all_lanes (self->timeline), last);
  view->y1 = tks_capture_lane_to_legacy_y (self->capture,
                                           tks_timeline_view_get_all_lanes (self->timeline), first);
  if (view->y0 > view->y1)
    {
      double t = view->y0;
      view->y0 = view->y1;
      view->y1 = t;
    }
}

typedef struct
{
  TksCapture   *capture;
  char         *path;
  TksSavedView  view;
  double        tick_hz;       /* the window's, which the user may have changed */
} SaveData;

static void
save_data_free (SaveData *data)
{
  g_clear_object (&data->capture);
  g_free (data->path);
  g_free (data);
}

static void
save_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  SaveData *data = task_data;
  GError *error = NULL;

  if (tks_capture_save (data->capture, data->path, &data->view, data->tick_hz, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
save_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  TksWindow *self = TKS_WINDOW (source);
  g_autoptr(GFile) file = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_file_get_parse_name (file);

  tks_progress_stop (self->progress);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_autofree char *message = g_strdup_printf (_("Could not save “%s”: %s"), name, error->message);
      tks_window_show_error (self, message);
      return;
    }
  g_set_object (&self->file, file);
  self->file_is_capture = TRUE;
  add_recent (self, file);
  _tks_window_update_status (self);
  {
    g_autofree char *message = g_strdup_printf (_("Saved “%s”."), name);
    _tks_window_show_message (self, message);
  }
}

static void
save_to (TksWindow *self,
         GFile     *file)
{
  g_autoptr(GTask) task = NULL;
  SaveData *data;
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *text = NULL;

  if (path == NULL)
    {
      tks_window_show_error (self, _("Captures can only be saved to local files."));
      return;
    }
  data = g_new0 (SaveData, 1);
  data->capture = g_object_ref (self->capture);
  data->path = g_steal_pointer (&path);
  fill_saved_view (self, &data->view);
  data->tick_hz = _tks_window_get_tick_hz (self);

  text = g_strdup_printf (_("Saving “%s”…"), data->path);
  tks_progress_start (self->progress, text);
  task = g_task_new (self, NULL, save_done_cb, g_object_ref (file));
  g_task_set_source_tag (task, save_to);
  g_task_set_task_data (task, data, (GDestroyNotify)save_data_free);
  g_task_run_in_thread (task, save_thread);
}

static void
save_response_cb (GtkNativeDialog *dialog,
                  int              response,
                  TksWindow       *self)
{
  if (response == GTK_RESPONSE_ACCEPT && self->capture != NULL)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      if (file != NULL)
        save_to (self, file);
    }
  gtk_native_dialog_destroy (dialog);
  g_clear_object (&self->chooser);
}

void
_tks_window_save_as (TksWindow *self)
{
  GtkFileChooserNative *native;

  if (self->capture == NULL)
    return;
  native = gtk_file_chooser_native_new (_("Save Capture"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  _tks_window_add_filter (GTK_FILE_CHOOSER (native), _("Captures (*.txt)"), "*.txt", "txt");
  if (self->file != NULL)
    {
      g_autofree char *base = g_file_get_basename (self->file);
      g_autoptr(GFile) parent = g_file_get_parent (self->file);
      g_autofree char *name = NULL;

      if (self->file_is_capture)
        name = g_strdup (base);
      else if (g_str_has_suffix (base, ".raw.txt"))
        name = g_strdup_printf ("%.*s.saved.txt", (int)(strlen (base) - strlen (".raw.txt")), base);
      else
        name = g_strdup_printf ("%s.saved.txt", base);
      if (parent != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (native), parent, NULL);
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), name);
    }
  else
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), _("capture.txt"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  g_signal_connect (native, "response", G_CALLBACK (save_response_cb), self);
  g_set_object (&self->chooser, GTK_NATIVE_DIALOG (native));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
  g_object_unref (native);
}

void
_tks_window_save (TksWindow *self)
{

  if (self->capture == NULL)
    return;
  /* A shell transcript is never overwritten by a capture file: ask where to save. */
  if (self->file != NULL && self->file_is_capture)
    save_to (self, self->file);
  else
    _tks_window_save_as (self);
}
