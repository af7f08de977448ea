/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's progress line (tks-progress.h). */
#include "config.h"

#include "tks-progress.h"

#define PROGRESS_DELAY_MS 200
#define PULSE_MS 100

struct _TksProgress
{
  GtkWidget       parent_instance;

  /* template widgets */
  GtkRevealer    *revealer;
  GtkLabel       *label;
  GtkProgressBar *bar;

  guint           timeout_id;  /* until the line shows */
  guint           pulse_id;
};

G_DEFINE_FINAL_TYPE (TksProgress, tks_progress, GTK_TYPE_WIDGET)

enum {
  CANCEL,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gboolean
pulse_cb (gpointer data)
{
  TksProgress *self = data;

  gtk_progress_bar_pulse (self->bar);
  return G_SOURCE_CONTINUE;
}

static gboolean
timeout_cb (gpointer data)
{
  TksProgress *self = data;

  self->timeout_id = 0;
  gtk_revealer_set_reveal_child (self->revealer, TRUE);
  if (self->pulse_id == 0)
    self->pulse_id = g_timeout_add (PULSE_MS, pulse_cb, self);
  return G_SOURCE_REMOVE;
}

void
tks_progress_start (TksProgress *self,
                    const char  *text)
{
  g_return_if_fail (TKS_IS_PROGRESS (self));

  gtk_label_set_text (self->label, text);
  gtk_progress_bar_set_fraction (self->bar, 0);
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  self->timeout_id = g_timeout_add (PROGRESS_DELAY_MS, timeout_cb, self);
}

void
tks_progress_set_text (TksProgress *self,
                       const char  *text)
{
  g_return_if_fail (TKS_IS_PROGRESS (self));

  gtk_label_set_text (self->label, text);
}

void
tks_progress_set_fraction (TksProgress *self,
                           double       fraction)
{
  g_return_if_fail (TKS_IS_PROGRESS (self));

  g_clear_handle_id (&self->pulse_id, g_source_remove);
  gtk_progress_bar_set_fraction (self->bar, CLAMP (fraction, 0, 1));
}

void
tks_progress_stop (TksProgress *self)
{
  g_return_if_fail (TKS_IS_PROGRESS (self));

  g_clear_handle_id (&self->timeout_id, g_source_remove);
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  /* a fraction ends the bar's pulsing: pulsed, it animates at every frame (a tick callback),
   * hidden or not, and the window would draw 60 empty frames a second from then on */
  gtk_progress_bar_set_fraction (self->bar, 0);
  gtk_revealer_set_reveal_child (self->revealer, FALSE);
}

static void
cancel_cb (TksProgress *self)
{
  g_signal_emit (self, signals[CANCEL], 0);
  tks_progress_stop (self);
}

static void
tks_progress_dispose (GObject *object)
{
  TksProgress *self = TKS_PROGRESS (object);

  g_clear_handle_id (&self->timeout_id, g_source_remove);
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), TKS_TYPE_PROGRESS);

  G_OBJECT_CLASS (tks_progress_parent_class)->dispose (object);
}

static void
tks_progress_class_init (TksProgressClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tks_progress_dispose;

  signals[CANCEL] = g_signal_new ("cancel", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tickscope/Tickscope/ui/tks-progress.ui");
  gtk_widget_class_bind_template_child (widget_class, TksProgress, revealer);
  gtk_widget_class_bind_template_child (widget_class, TksProgress, label);
  gtk_widget_class_bind_template_child (widget_class, TksProgress, bar);
  gtk_widget_class_bind_template_callback (widget_class, cancel_cb);
}

static void
tks_progress_init (TksProgress *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
