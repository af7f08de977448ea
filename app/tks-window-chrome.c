/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's frame around the timeline: the empty state (Demo, Open, Connect) before any
 * capture, the TksHeaderBar opening with icons when the window opens narrow, and the threads
 * panel folding over the timeline in a narrow window. */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "tks-window-private.h"

/* The empty state */

void
_tks_window_update_empty (TksWindow *self)
{
  gboolean have = self->capture != NULL;

  gtk_stack_set_visible_child_name (self->content_stack, have ? "timeline" : "empty");
  gtk_widget_set_visible (GTK_WIDGET (self->overview), have);
}

static void
demo_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  tks_window_connect (TKS_WINDOW (user_data), "demo");
}

static void
connect_board_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  TksWindow *self = user_data;

  gtk_menu_button_popup (tks_header_bar_get_board_button (self->header));
}

/* A narrow window */

/* A window that opens narrower than the header with its text buttons opens with icons: the
 * header would otherwise widen it. */
static void
realize_cb (TksWindow *self)
{
  int width, height;

  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  if (width > 0 && !gtk_window_is_maximized (GTK_WINDOW (self)))
    tks_header_bar_fit_width (self->header, width);
}

/* Below this width the threads panel folds: it no longer fits beside the timeline (its
 * 340 px and a timeline of 560 px) and opens over the timeline's left side when asked (the
 * Threads button, F9). The window's width decides, not the panel's, which takes no room
 * while it is closed. Above it the flap folds by itself when the two do not fit (the
 * automatic policy), never by a fixed rule that would count the open panel in the window's
 * minimum width: a window manager then could not make the window narrow while it is open. */
#define FOLD_WIDTH 900

/* The AdwFlap around the threads panel's revealer */
static AdwFlap *
threads_flap (TksWindow *self)
{
  return ADW_FLAP (gtk_widget_get_ancestor (GTK_WIDGET (self->threads_revealer), ADW_TYPE_FLAP));
}

static void
window_width_cb (TksWindow *self)
{
  int width, height;

  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  if (width > 0)
    adw_flap_set_fold_policy (threads_flap (self),
                              width < FOLD_WIDTH ? ADW_FLAP_FOLD_POLICY_ALWAYS
                                                 : ADW_FLAP_FOLD_POLICY_AUTO);
}

/* Folding closes the open panel, so that a window made narrow keeps its timeline in view; a
 * panel still sliding open, that no longer fits, stays open over the timeline. */
static void
flap_folded_cb (TksWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "threads-panel");
  g_autoptr(GVariant) state = action != NULL ? g_action_get_state (action) : NULL;

  if (adw_flap_get_folded (threads_flap (self)) && state != NULL &&
      g_variant_get_boolean (state) && gtk_revealer_get_child_revealed (self->threads_revealer))
    g_action_change_state (action, g_variant_new_boolean (FALSE));
}

/* Construction */

void
_tks_window_chrome_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, TksWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, empty_demo_button);
}

void
_tks_window_chrome_init (TksWindow *self)
{
  static const GActionEntry entries[] = {
    { "demo", demo_action, NULL, NULL, NULL, { 0 } },
    { "connect-board", connect_board_action, NULL, NULL, NULL, { 0 } },
  };

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
#ifndef HAVE_SIMBOARD
  /* no built-in simulated board in this build */
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "demo")), FALSE);
  gtk_widget_set_visible (self->empty_demo_button, FALSE);
#endif
  g_signal_connect (self, "realize", G_CALLBACK (realize_cb), NULL);
  g_signal_connect_object (threads_flap (self), "notify::folded", G_CALLBACK (flap_folded_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect (self, "notify::default-width", G_CALLBACK (window_width_cb), NULL);
  window_width_cb (self);
  _tks_window_update_empty (self);
}
