/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * The window's one message at a time, above the timeline: a failure, information or the
 * capture's warnings (with a Details… button for win.show-warnings), or a message with a
 * button of its own (Reconnect). A message replaces the one shown; the close button hides it.
 */

#define TKS_TYPE_MESSAGE_BAR (tks_message_bar_get_type ())

G_DECLARE_FINAL_TYPE (TksMessageBar, tks_message_bar, TKS, MESSAGE_BAR, GtkWidget)

/* Shows @text as a message of @type, with the Details… button if @details. */
void tks_message_bar_show        (TksMessageBar  *self,
                                  GtkMessageType  type,
                                  const char     *text,
                                  gboolean        details);
/* Shows @text as a message that tks_message_bar_hide_keyed() with @key hides. */
void tks_message_bar_show_keyed  (TksMessageBar  *self,
                                  GtkMessageType  type,
                                  const char     *text,
                                  const char     *key);
/* Shows @text with a button @label that activates @action_name (a "win." action). */
void tks_message_bar_show_action (TksMessageBar  *self,
                                  GtkMessageType  type,
                                  const char     *text,
                                  const char     *label,
                                  const char     *action_name);
/* Hides the message shown if it is of @type. */
void tks_message_bar_hide        (TksMessageBar  *self,
                                  GtkMessageType  type);
/* Hides the message shown if it was shown with @key. */
void tks_message_bar_hide_keyed  (TksMessageBar  *self,
                                  const char     *key);

G_END_DECLS
