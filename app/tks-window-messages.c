/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's messages: one bar at a time, for a failure, for information or for the
 * capture's warnings (the first one, and a Details button) in a TksMessageBar; every warning
 * with its line in the TksWarningsButton's window, to read or copy. */
#include "config.h"

#include <glib/gi18n.h>

#include "tks-window-private.h"

char *
_tks_window_normalise_spacing (char *text)
{
  char *out = text;
  const char *in;
  gboolean blank = FALSE;

  if (text == NULL)
    return NULL;
  for (in = text; *in != '\0'; in++)
    {
      if (g_ascii_isspace (*in))
        {
          blank = out != text;
          continue;
        }
      if (blank)
        *out++ = ' ';
      blank = FALSE;
      *out++ = *in;
    }
  *out = '\0';
  return text;
}

void
tks_window_show_error (TksWindow  *self,
                       const char *message)
{
  g_return_if_fail (TKS_IS_WINDOW (self));

  /* one message at a time: a failure replaces whatever was shown before */
  tks_message_bar_show (self->message_bar, GTK_MESSAGE_ERROR, message, FALSE);
}

void
_tks_window_show_message (TksWindow  *self,
                          const char *message)
{
  tks_message_bar_show (self->message_bar, GTK_MESSAGE_INFO, message, FALSE);
}

void
_tks_window_clear_error (TksWindow *self)
{
  tks_message_bar_hide (self->message_bar, GTK_MESSAGE_ERROR);
}

/* Warnings */

/* Every warning, one a line: what two fetches in a row show missing, then the capture's own
 * (the reader's start with the line they are about). */
static GPtrArray *
all_warnings (TksWindow *self)
{
  GPtrArray *all = g_ptr_array_new ();
  const char * const *warnings = NULL;
  guint n = 0;

  if (self->capture == NULL)
    return all;
  if (self->fetch_warning != NULL)
    g_ptr_array_add (all, self->fetch_warning);
  warnings = tks_capture_get_warnings (self->capture, &n);
  for (guint i = 0; warnings != NULL && i < n; i++)
    g_ptr_array_add (all, (gpointer) warnings[i]);
  return all;
}

void
_tks_window_update_warnings (TksWindow *self)
{
  g_autoptr(GPtrArray) all = all_warnings (self);
  guint n = all->len;
  g_autofree char *summary = NULL;

  tks_warnings_button_set_warnings (self->warnings_button, (const char * const *) all->pdata, n);
  if (n == 0)
    {
      tks_message_bar_hide (self->message_bar, GTK_MESSAGE_WARNING);
      return;
    }
  if (n == 1)
    summary = g_strdup (g_ptr_array_index (all, 0));
  else
    /* Translators: the message bar when a capture comes with warnings; %s is the first */
    summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u warning, the first: %s",
                                            "%u warnings, the first: %s", n),
                               n, (const char *) g_ptr_array_index (all, 0));
  tks_message_bar_show (self->message_bar, GTK_MESSAGE_WARNING, summary, TRUE);
}

static void
show_warnings_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  TksWindow *self = user_data;
  g_autoptr(GPtrArray) all = all_warnings (self);

  tks_warnings_button_set_warnings (self->warnings_button, (const char * const *) all->pdata,
                                    all->len);
  tks_warnings_button_present (self->warnings_button);
}

void
_tks_window_messages_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, TksWindow, message_bar);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, warnings_button);
}

void
_tks_window_messages_init (TksWindow *self)
{
  static const GActionEntry entries[] = {
    { "show-warnings", show_warnings_action, NULL, NULL, NULL, { 0 } },
  };

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
}
