/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's message bar (tks-message-bar.h). */
#include "config.h"

#include "tks-message-bar.h"

struct _TksMessageBar
{
  GtkWidget       parent_instance;

  /* template widgets */
  GtkInfoBar     *bar;
  GtkLabel       *label;
  GtkWidget      *details_button;
  GtkButton      *action_button; /* what the message offers to do, when it does */

  GtkMessageType  type;          /* of the message shown, when the bar is revealed */
  char           *key;           /* the message's, if it was given one */
};

G_DEFINE_FINAL_TYPE (TksMessageBar, tks_message_bar, GTK_TYPE_WIDGET)

void
tks_message_bar_show (TksMessageBar  *self,
                      GtkMessageType  type,
                      const char     *text,
                      gboolean        details)
{
  g_return_if_fail (TKS_IS_MESSAGE_BAR (self));

  self->type = type;
  gtk_info_bar_set_message_type (self->bar, type);
  gtk_label_set_text (self->label, text);
  gtk_widget_set_visible (self->details_button, details);
  gtk_widget_set_visible (GTK_WIDGET (self->action_button), FALSE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->action_button), NULL);
  g_clear_pointer (&self->key, g_free);
  gtk_info_bar_set_revealed (self->bar, TRUE);
}

void
tks_message_bar_show_keyed (TksMessageBar  *self,
                            GtkMessageType  type,
                            const char     *text,
                            const char     *key)
{
  g_return_if_fail (TKS_IS_MESSAGE_BAR (self));

  tks_message_bar_show (self, type, text, FALSE);
  self->key = g_strdup (key);
}

void
tks_message_bar_show_action (TksMessageBar  *self,
                             GtkMessageType  type,
                             const char     *text,
                             const char     *label,
                             const char     *action_name)
{
  g_return_if_fail (TKS_IS_MESSAGE_BAR (self));
  g_return_if_fail (label != NULL && action_name != NULL);

  tks_message_bar_show (self, type, text, FALSE);
  gtk_button_set_label (self->action_button, label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->action_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->action_button), action_name);
  gtk_widget_set_visible (GTK_WIDGET (self->action_button), TRUE);
}

void
tks_message_bar_hide_keyed (TksMessageBar *self,
                            const char    *key)
{
  g_return_if_fail (TKS_IS_MESSAGE_BAR (self));

  if (key != NULL && g_strcmp0 (key, self->key) == 0 && gtk_info_bar_get_revealed (self->bar))
    gtk_info_bar_set_revealed (self->bar, FALSE);
}

void
tks_message_bar_hide (TksMessageBar  *self,
                      GtkMessageType  type)
{
  g_return_if_fail (TKS_IS_MESSAGE_BAR (self));

  if (gtk_info_bar_get_revealed (self->bar) && self->type == type)
    gtk_info_bar_set_revealed (self->bar, FALSE);
}

static void
response_cb (GtkInfoBar *bar,
             int         response)
{
  if (response == GTK_RESPONSE_CLOSE)
    gtk_info_bar_set_revealed (bar, FALSE);
}

static void
tks_message_bar_dispose (GObject *object)
{
  g_clear_pointer (&TKS_MESSAGE_BAR (object)->key, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (object), TKS_TYPE_MESSAGE_BAR);

  G_OBJECT_CLASS (tks_message_bar_parent_class)->dispose (object);
}

static void
tks_message_bar_class_init (TksMessageBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tks_message_bar_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tickscope/Tickscope/ui/tks-message-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, TksMessageBar, bar);
  gtk_widget_class_bind_template_child (widget_class, TksMessageBar, label);
  gtk_widget_class_bind_template_child (widget_class, TksMessageBar, details_button);
  gtk_widget_class_bind_template_child (widget_class, TksMessageBar, action_button);
  gtk_widget_class_bind_template_callback (widget_class, response_cb);
}

static void
tks_message_bar_init (TksMessageBar *self)
{
  self->type = GTK_MESSAGE_INFO;
  gtk_widget_init_template (GTK_WIDGET (self));
}
