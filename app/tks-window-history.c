/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The fetch history: every fetch is kept in a folder of the user's data; the newest are
 * listed in the main menu, the folder is one click away. */
#include "config.h"

#include <glib/gi18n.h>

#include "tks-session.h"
#include "tks-window-private.h"

#define MAX_HISTORY 15

/* "2024-11-22_02-33-55.123_tcp_host_2000.txt" -> "2024-11-22 02:33:55  tcp_host_2000" */
static char *
history_label (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  gboolean raw = g_str_has_suffix (base, ".raw.txt");
  size_t len = strlen (base) - (raw ? strlen (".raw.txt") : g_str_has_suffix (base, ".txt") ? 4 : 0);
  int year, month, day, hour, minute, second, ms, used = 0;
  g_autofree char *name = g_strndup (base, len);

  if (sscanf (name, "%4d-%2d-%2d_%2d-%2d-%2d.%3d_%n", &year, &month, &day, &hour, &minute,
              &second, &ms, &used) == 7 && used > 0)
    {
      if (raw)
        /* Translators: a fetch kept in the history whose data could not be read: date, time, board */
        return g_strdup_printf (_("%04d-%02d-%02d %02d:%02d:%02d  %s (unread bytes)"),
                                year, month, day, hour, minute, second, name + used);
      return g_strdup_printf ("%04d-%02d-%02d %02d:%02d:%02d  %s",
                              year, month, day, hour, minute, second, name + used);
    }
  return g_steal_pointer (&base);
}

void
_tks_window_rebuild_history (TksWindow *self)
{
  g_autoptr(GPtrArray) files = NULL;
  guint n = 0, i;

  g_menu_remove_all (tks_header_bar_get_history_section (self->header));
  files = tks_session_list_history ();
  for (i = 0; i < files->len && i < MAX_HISTORY; i++)
    {
      const char *path = g_ptr_array_index (files, i);
      g_autofree char *label = history_label (path);
      g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
      g_autofree char *escaped = _tks_window_menu_label (label);
      g_autoptr(GMenuItem) item = NULL;

      if (uri == NULL)
        continue;
      item = g_menu_item_new (escaped, NULL);
      g_menu_item_set_action_and_target (item, "win.open-recent", "s", uri);
      g_menu_append_item (tks_header_bar_get_history_section (self->header), item);
      n++;
    }
  if (n == 0)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("No fetches yet"), "win.nothing");
      g_menu_append_item (tks_header_bar_get_history_section (self->header), item);
    }
}

static void
menu_popup_cb (GtkMenuButton *button,
               gpointer       user_data)
{
  _tks_window_rebuild_history (user_data);
}

void
_tks_window_browse_history (TksWindow *self)
{
  g_autofree char *dir = tks_session_get_history_dir ();
  g_autoptr(GFile) folder = g_file_new_for_path (dir);

  g_mkdir_with_parents (dir, 0700);
  _tks_window_open_chooser (self, folder);
}

void
_tks_window_history_init (TksWindow *self)
{
  _tks_window_rebuild_history (self);
  gtk_menu_button_set_create_popup_func (tks_header_bar_get_menu_button (self->header),
                                         menu_popup_cb, self, NULL);
}
