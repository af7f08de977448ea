/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's messages: one bar at a time, for a failure, for information or for the
 * capture's warnings (the first one, and a Details button); every warning with its line in a
 * window of its own, to read or copy, also reached from the status line's warning count. */
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

static void
show (TksWindow      *self,
      GtkMessageType  type,
      const char     *text,
      gboolean        details)
{
  self->message_type = type;
  gtk_info_bar_set_message_type (self->message_bar, type);
  gtk_label_set_text (self->message_label, text);
  gtk_widget_set_visible (self->message_details_button, details);
  gtk_info_bar_set_revealed (self->message_bar, TRUE);
}

static void
hide_if (TksWindow      *self,
         GtkMessageType  type)
{
  if (gtk_info_bar_get_revealed (self->message_bar) && self->message_type == type)
    gtk_info_bar_set_revealed (self->message_bar, FALSE);
}

void
tks_window_show_error (TksWindow  *self,
                       const char *message)
{
  g_return_if_fail (TKS_IS_WINDOW (self));

  /* one message at a time: a failure replaces whatever was shown before */
  show (self, GTK_MESSAGE_ERROR, message, FALSE);
}

void
_tks_window_show_message (TksWindow  *self,
                          const char *message)
{
  show (self, GTK_MESSAGE_INFO, message, FALSE);
}

void
_tks_window_clear_error (TksWindow *self)
{
  hide_if (self, GTK_MESSAGE_ERROR);
}

static void
message_bar_response_cb (GtkInfoBar *bar,
                         int         response,
                         TksWindow  *self)
{
  if (response == GTK_RESPONSE_CLOSE)
    gtk_info_bar_set_revealed (bar, FALSE);
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

static char *
warnings_text (TksWindow *self)
{
  g_autoptr(GPtrArray) all = all_warnings (self);
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < all->len; i++)
    {
      g_string_append (s, g_ptr_array_index (all, i));
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

static void
refresh_warnings_window (TksWindow *self)
{
  g_autofree char *text = NULL;

  if (self->warnings_buffer == NULL)
    return;
  text = warnings_text (self);
  gtk_text_buffer_set_text (self->warnings_buffer, text, -1);
}

void
_tks_window_update_warnings (TksWindow *self)
{
  g_autoptr(GPtrArray) all = all_warnings (self);
  guint n = all->len;
  g_autofree char *count = NULL;
  g_autofree char *summary = NULL;

  refresh_warnings_window (self);
  gtk_widget_set_visible (self->warnings_button, n > 0);
  if (n == 0)
    {
      hide_if (self, GTK_MESSAGE_WARNING);
      return;
    }
  count = g_strdup_printf ("%u", n);
  gtk_label_set_text (self->warnings_count_label, count);
  if (n == 1)
    summary = g_strdup (g_ptr_array_index (all, 0));
  else
    /* Translators: the message bar when a capture comes with warnings; %s is the first */
    summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u warning, the first: %s",
                                            "%u warnings, the first: %s", n),
                               n, (const char *) g_ptr_array_index (all, 0));
  show (self, GTK_MESSAGE_WARNING, summary, TRUE);
}

static void
copy_warnings_cb (TksWindow *self)
{
  g_autofree char *text = warnings_text (self);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
}

static void
show_warnings_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  TksWindow *self = user_data;
  GtkWidget *header, *copy, *scrolled, *view;

  if (self->warnings_window == NULL)
    {
      self->warnings_window = gtk_window_new ();
      g_object_add_weak_pointer (G_OBJECT (self->warnings_window), (gpointer *) &self->warnings_window);
      gtk_window_set_title (GTK_WINDOW (self->warnings_window), _("Capture Warnings"));
      gtk_window_set_transient_for (GTK_WINDOW (self->warnings_window), GTK_WINDOW (self));
      gtk_window_set_destroy_with_parent (GTK_WINDOW (self->warnings_window), TRUE);
      gtk_window_set_hide_on_close (GTK_WINDOW (self->warnings_window), TRUE);
      gtk_window_set_default_size (GTK_WINDOW (self->warnings_window), 760, 420);

      header = gtk_header_bar_new ();
      copy = gtk_button_new_with_label (_("Copy All"));
      gtk_widget_set_tooltip_text (copy, _("Copy every warning to the clipboard"));
      g_signal_connect_object (copy, "clicked", G_CALLBACK (copy_warnings_cb), self, G_CONNECT_SWAPPED);
      gtk_header_bar_pack_start (GTK_HEADER_BAR (header), copy);
      gtk_window_set_titlebar (GTK_WINDOW (self->warnings_window), header);

      view = gtk_text_view_new ();
      gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
      gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
      gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
      gtk_text_view_set_left_margin (GTK_TEXT_VIEW (view), 12);
      gtk_text_view_set_right_margin (GTK_TEXT_VIEW (view), 12);
      gtk_text_view_set_top_margin (GTK_TEXT_VIEW (view), 12);
      gtk_text_view_set_bottom_margin (GTK_TEXT_VIEW (view), 12);
      gtk_accessible_update_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Warnings"), -1);
      self->warnings_buffer = g_object_ref (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)));
      scrolled = gtk_scrolled_window_new ();
      gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);
      gtk_window_set_child (GTK_WINDOW (self->warnings_window), scrolled);
    }
  refresh_warnings_window (self);
  gtk_window_present (GTK_WINDOW (self->warnings_window));
}

void
_tks_window_messages_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, TksWindow, message_bar);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, message_label);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, message_details_button);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, warnings_button);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, warnings_count_label);
  gtk_widget_class_bind_template_callback (widget_class, message_bar_response_cb);
}

void
_tks_window_messages_init (TksWindow *self)
{
  static const GActionEntry entries[] = {
    { "show-warnings", show_warnings_action, NULL, NULL, NULL, { 0 } },
  };

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
}

void
_tks_window_messages_dispose (TksWindow *self)
{
  if (self->warnings_window != NULL)
    gtk_window_destroy (GTK_WINDOW (self->warnings_window));
  g_clear_object (&self->warnings_buffer);
}
