/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tks-event-list-model.h"
#include "tks-find-bar.h"
#include "tks-find.h"

/* Matches kept at most (all are counted): those beyond are not highlighted nor visited. */
#define MAX_KEPT (1u << 20)

struct _TksFindBar
{
  GtkWidget        parent_instance;

  TksTimelineView *timeline;
  GtkSearchEntry  *entry;
  GtkLabel        *result;
  GtkWidget       *previous;
  GtkWidget       *next;

  GArray          *matches;   /* TksFindMatch, NULL when no expression is read */
  guint            n_total;
  guint            current;   /* the match last gone to, G_MAXUINT: none */
};

G_DEFINE_FINAL_TYPE (TksFindBar, tks_find_bar, GTK_TYPE_WIDGET)

static void
show_result (TksFindBar *self,
             const char *text,
             gboolean    error)
{
  gtk_label_set_text (self->result, text);
  if (error)
    gtk_widget_add_css_class (GTK_WIDGET (self->result), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->result), "error");
  gtk_widget_set_sensitive (self->previous, self->matches != NULL && self->matches->len > 0);
  gtk_widget_set_sensitive (self->next, self->matches != NULL && self->matches->len > 0);
}

static void
show_count (TksFindBar *self)
{
  g_autofree char *text = NULL;

  if (self->matches == NULL)
    {
      show_result (self, "", FALSE);
      return;
    }
  if (self->current != G_MAXUINT)
    /* Translators: the match shown, and the matches in all */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u match", "%u of %u matches",
                                         self->n_total), self->current + 1, self->n_total);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u match", "%u matches",
                                         self->n_total), self->n_total);
  show_result (self, text, FALSE);
}

static void
run_find (TksFindBar *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  TksCapture *capture = self->timeline != NULL ? tks_timeline_view_get_capture (self->timeline)
                                               : NULL;
  g_autoptr(TksFind) find = NULL;
  g_autoptr(GError) error = NULL;

  g_clear_pointer (&self->matches, g_array_unref);
  self->current = G_MAXUINT;
  self->n_total = 0;
  if (self->timeline != NULL)
    tks_timeline_view_set_matches (self->timeline, NULL);
  if (text[0] == '\0' || capture == NULL)
    {
      show_count (self);
      return;
    }
  find = tks_find_parse (text, &error);
  if (find == NULL)
    {
      show_result (self, error->message, TRUE);
      return;
    }
  self->matches = tks_find_run (find, capture, tks_timeline_view_get_tick_hz (self->timeline),
                                MAX_KEPT, &self->n_total);
  tks_timeline_view_set_matches (self->timeline, self->matches);
  show_count (self);
}

gboolean
tks_find_bar_go (TksFindBar *self,
                 gboolean    forward)
{
  TksCapture *capture;
  const TksFindMatch *m;
  guint i, thread = G_MAXUINT, run = 0;
  gboolean has_run = FALSE;

  g_return_val_if_fail (TKS_IS_FIND_BAR (self), FALSE);

  if (self->timeline == NULL || self->matches == NULL || self->matches->len == 0)
    return FALSE;
  capture = tks_timeline_view_get_capture (self->timeline);
  if (self->current != G_MAXUINT)
    i = forward ? (self->current + 1) % self->matches->len
                : (self->current + self->matches->len - 1) % self->matches->len;
  else
    {
      TksViewport *viewport = tks_timeline_view_get_viewport (self->timeline);
      double middle = viewport != NULL
        ? (tks_viewport_get_visible_start (viewport) + tks_viewport_get_visible_end (viewport)) / 2
        : -INFINITY;

      i = tks_find_next (self->matches, middle, forward);
    }
  self->current = i;
  m = &g_array_index (self->matches, TksFindMatch, i);
  if (m->kind == TKS_FIND_RUN)
    {
      thread = m->thread;
      run = m->index;
      has_run = TRUE;
    }
  else if (m->kind == TKS_FIND_WAKEUP && m->thread != G_MAXUINT)
    {
      const TksThread *th = tks_capture_get_thread (capture, m->thread);

      run = tks_runs_first_beginning_at (th->runs, 0, th->n_runs, m->end);
      thread = m->thread;
      has_run = run < th->n_runs;
    }
  else
    has_run = tks_event_list_run_at (capture, G_MAXUINT, m->begin, &thread, &run);
  tks_timeline_view_centre_on (self->timeline, m->begin);
  if (has_run)
    tks_timeline_view_select_run (self->timeline, thread, run);
  show_count (self);
  return TRUE;
}

void
tks_find_bar_focus (TksFindBar *self)
{
  g_return_if_fail (TKS_IS_FIND_BAR (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
  gtk_editable_select_region (GTK_EDITABLE (self->entry), 0, -1);
}

void
tks_find_bar_clear (TksFindBar *self)
{
  g_return_if_fail (TKS_IS_FIND_BAR (self));
  gtk_editable_set_text (GTK_EDITABLE (self->entry), "");
  run_find (self);
}

void
tks_find_bar_set_timeline (TksFindBar      *self,
                           TksTimelineView *timeline)
{
  g_return_if_fail (TKS_IS_FIND_BAR (self));

  if (self->timeline == timeline)
    return;
  if (self->timeline != NULL)
    g_signal_handlers_disconnect_by_data (self->timeline, self);
  g_set_object (&self->timeline, timeline);
  if (timeline != NULL)
    {
      /* a new capture (a fetch, a recording's next second): found again */
      g_signal_connect_swapped (timeline, "notify::capture", G_CALLBACK (run_find), self);
      g_signal_connect_swapped (timeline, "notify::tick-hz", G_CALLBACK (run_find), self);
    }
  run_find (self);
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                TksFindBar            *self)
{
  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter) && (state & GDK_SHIFT_MASK))
    {
      tks_find_bar_go (self, FALSE);
      return TRUE;
    }
  return FALSE;
}

static void
activate_cb (TksFindBar *self)
{
  tks_find_bar_go (self, TRUE);
}

static void
previous_cb (TksFindBar *self)
{
  tks_find_bar_go (self, FALSE);
}

static void
stop_cb (TksFindBar *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.find-close", NULL);
}

static void
tks_find_bar_dispose (GObject *object)
{
  TksFindBar *self = TKS_FIND_BAR (object);
  GtkWidget *child;

  tks_find_bar_set_timeline (self, NULL);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (tks_find_bar_parent_class)->dispose (object);
}

static void
tks_find_bar_finalize (GObject *object)
{
  TksFindBar *self = TKS_FIND_BAR (object);

  g_clear_pointer (&self->matches, g_array_unref);
  G_OBJECT_CLASS (tks_find_bar_parent_class)->finalize (object);
}

static void
tks_find_bar_class_init (TksFindBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tks_find_bar_dispose;
  object_class->finalize = tks_find_bar_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "findbar");
}

static GtkWidget *
icon_button (const char *icon,
             const char *name,
             const char *tooltip)
{
  GtkWidget *b = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_tooltip_text (b, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (b), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  gtk_widget_add_css_class (b, "flat");
  return b;
}

static void
tks_find_bar_init (TksFindBar *self)
{
  GtkEventController *keys = gtk_event_controller_key_new ();
  GtkWidget *close;

  self->current = G_MAXUINT;
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))), 6);
  gtk_widget_set_margin_start (GTK_WIDGET (self), 6);
  gtk_widget_set_margin_end (GTK_WIDGET (self), 6);
  gtk_widget_set_margin_top (GTK_WIDGET (self), 4);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self), 4);

  self->entry = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->entry, "placeholder-text",
                _("Find: latency > 100us, run > 2ms, irq USART2, marker sample = 42, a name"),
                NULL);
  gtk_widget_set_size_request (GTK_WIDGET (self->entry), 420, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Find"), -1);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->entry),
                               _("Find runs, wake-ups, handlers, sleeps, markers and states: "
                                 "[run|latency|irq|sleep|marker|state] [name] [> >= < <= = != "
                                 "value]. Enter or F3: next match; Shift+Enter or Shift+F3: "
                                 "previous"));
  gtk_widget_set_parent (GTK_WIDGET (self->entry), GTK_WIDGET (self));
  g_signal_connect_swapped (self->entry, "search-changed", G_CALLBACK (run_find), self);
  g_signal_connect_swapped (self->entry, "activate", G_CALLBACK (activate_cb), self);
  g_signal_connect_swapped (self->entry, "stop-search", G_CALLBACK (stop_cb), self);
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->entry), keys);

  self->previous = icon_button ("go-up-symbolic", _("Previous match"),
                                _("Previous match (Shift+Enter, Shift+F3)"));
  g_signal_connect_swapped (self->previous, "clicked", G_CALLBACK (previous_cb), self);
  gtk_widget_set_parent (self->previous, GTK_WIDGET (self));
  self->next = icon_button ("go-down-symbolic", _("Next match"), _("Next match (Enter, F3)"));
  g_signal_connect_swapped (self->next, "clicked", G_CALLBACK (activate_cb), self);
  gtk_widget_set_parent (self->next, GTK_WIDGET (self));

  self->result = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->result, 0);
  gtk_label_set_ellipsize (self->result, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->result), TRUE);
  gtk_widget_set_parent (GTK_WIDGET (self->result), GTK_WIDGET (self));

  close = icon_button ("window-close-symbolic", _("Close find"), _("Close find (Escape)"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (close), "win.find-close");
  gtk_widget_set_parent (close, GTK_WIDGET (self));
  show_count (self);
}
