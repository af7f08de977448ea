/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The warnings' count and their window (tks-warnings-button.h). */
#include "config.h"

#include <glib/gi18n.h>

#include "tks-warnings-button.h"

struct _TksWarningsButton
{
  GtkButton      parent_instance;

  /* template widgets */
  GtkLabel      *count_label;

  char          *text;           /* every warning, one a line */
  GtkWidget     *window;         /* "Capture Warnings", once asked for */
  GtkTextBuffer *buffer;         /* its text */
};

G_DEFINE_FINAL_TYPE (TksWarningsButton, tks_warnings_button, GTK_TYPE_BUTTON)

void
tks_warnings_button_set_warnings (TksWarningsButton  *self,
                                  const char * const *warnings,
                                  guint               n)
{
  GString *s = g_string_new (NULL);
  g_autofree char *count = NULL;

  g_return_if_fail (TKS_IS_WARNINGS_BUTTON (self));

  for (guint i = 0; i < n; i++)
    {
      g_string_append (s, warnings[i]);
      g_string_append_c (s, '\n');
    }
  g_free (self->text);
  self->text = g_string_free (s, FALSE);
  if (self->buffer != NULL)
    gtk_text_buffer_set_text (self->buffer, self->text, -1);
  gtk_widget_set_visible (GTK_WIDGET (self), n > 0);
  if (n > 0)
    {
      count = g_strdup_printf ("%u", n);
      gtk_label_set_text (self->count_label, count);
    }
}

static void
copy_cb (TksWarningsButton *self)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)),
                          self->text != NULL ? self->text : "");
}

static GtkWidget *
build_window (TksWarningsButton *self)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *header, *copy, *scrolled, *view;

  gtk_window_set_title (GTK_WINDOW (window), _("Capture Warnings"));
  gtk_window_set_destroy_with_parent (GTK_WINDOW (window), TRUE);
  gtk_window_set_hide_on_close (GTK_WINDOW (window), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (window), 760, 420);

  header = gtk_header_bar_new ();
  copy = gtk_button_new_with_label (_("Copy All"));
  gtk_widget_set_tooltip_text (copy, _("Copy every warning to the clipboard"));
  g_signal_connect_object (copy, "clicked", G_CALLBACK (copy_cb), self, G_CONNECT_SWAPPED);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), copy);
  gtk_window_set_titlebar (GTK_WINDOW (window), header);

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
  self->buffer = g_object_ref (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)));
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);
  gtk_window_set_child (GTK_WINDOW (window), scrolled);
  return window;
}

void
tks_warnings_button_present (TksWarningsButton *self)
{
  GtkRoot *root;

  g_return_if_fail (TKS_IS_WARNINGS_BUTTON (self));

  if (self->window == NULL)
    {
      self->window = build_window (self);
      g_object_add_weak_pointer (G_OBJECT (self->window), (gpointer *) &self->window);
      root = gtk_widget_get_root (GTK_WIDGET (self));
      if (GTK_IS_WINDOW (root))
        gtk_window_set_transient_for (GTK_WINDOW (self->window), GTK_WINDOW (root));
    }
  gtk_text_buffer_set_text (self->buffer, self->text != NULL ? self->text : "", -1);
  gtk_window_present (GTK_WINDOW (self->window));
}

static void
tks_warnings_button_dispose (GObject *object)
{
  TksWarningsButton *self = TKS_WARNINGS_BUTTON (object);

  if (self->window != NULL)
    gtk_window_destroy (GTK_WINDOW (self->window));
  g_clear_object (&self->buffer);
  gtk_widget_dispose_template (GTK_WIDGET (self), TKS_TYPE_WARNINGS_BUTTON);

  G_OBJECT_CLASS (tks_warnings_button_parent_class)->dispose (object);
}

static void
tks_warnings_button_finalize (GObject *object)
{
  TksWarningsButton *self = TKS_WARNINGS_BUTTON (object);

  g_free (self->text);

  G_OBJECT_CLASS (tks_warnings_button_parent_class)->finalize (object);
}

static void
tks_warnings_button_class_init (TksWarningsButtonClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tks_warnings_button_dispose;
  object_class->finalize = tks_warnings_button_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tickscope/Tickscope/ui/tks-warnings-button.ui");
  gtk_widget_class_bind_template_child (widget_class, TksWarningsButton, count_label);
}

static void
tks_warnings_button_init (TksWarningsButton *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
