/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The selection's details under the timeline: a row of captioned values (the run's thread,
 * begin, end, duration, activation, the wait before it, its wake-up latency, what made it
 * ready and why it was late (tks-latency.h); the cursors A and B and the time between them), refreshed whenever the timeline's selection, cursors,
 * ruler or tick rate change. Plain labels, so screen readers read them. */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tks-latency.h"
#include "tks-timeline-events.h"
#include "tks-timeline-view-private.h"

typedef enum
{
  FIELD_THREAD,
  FIELD_BEGIN,
  FIELD_END,
  FIELD_DURATION,
  FIELD_ACTIVATION,
  FIELD_WAIT,
  FIELD_LATENCY,
  FIELD_WAKER,
  FIELD_BREAKDOWN,
  FIELD_CURSOR_A,
  FIELD_CURSOR_B,
  FIELD_DELTA,
  N_FIELDS
} Field;

struct _TksSelectionPanel
{
  GtkWidget        parent_instance;

  TksTimelineView *timeline;
  gulong           changed_id;
  GtkWidget       *revealer;
  GtkWidget       *boxes[N_FIELDS];
  GtkWidget       *values[N_FIELDS];
};

G_DEFINE_FINAL_TYPE (TksSelectionPanel, tks_selection_panel, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TIMELINE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Shows @field with @value (taken), or hides it when @value is NULL. Setting a label's text,
 * even the same, measures it again and clears a selection in it: an unchanged text is left
 * alone (a recording's next stretch refreshes the panel every second, and most of its values
 * stay; one the user selected to copy stays selected). */
static void
set_field (TksSelectionPanel *self,
           Field              field,
           char              *value)
{
  GtkLabel *label = GTK_LABEL (self->values[field]);

  /* the flow box's child, so a hidden field leaves no gap */
  gtk_widget_set_visible (gtk_widget_get_parent (self->boxes[field]), value != NULL);
  if (g_strcmp0 (gtk_label_get_text (label), value != NULL ? value : "") != 0)
    gtk_label_set_text (label, value != NULL ? value : "");
  g_free (value);
}

/* "handler USART1_IRQHandler at 1.250 ms (tick 7904)": what made it ready, and when. */
static char *
describe_waker (TksTimelineView *view,
                TksEvents       *events,
                const TksWakeup *w)
{
  g_autofree char *when = _tks_timeline_view_format_time (view, w->ready.pos);
  TksCapture *capture = view->capture;

  switch (w->waker_kind)
    {
    case TKS_WAKER_THREAD:
      if (w->waker < tks_capture_get_n_threads (capture))
        /* Translators: what made the thread ready (a thread), then when */
        return g_strdup_printf (_("thread %s at %s"),
                                tks_capture_get_thread (capture, w->waker)->name, when);
      break;
    case TKS_WAKER_HANDLER:
      /* Translators: what made the thread ready (an interrupt handler), then when */
      return g_strdup_printf (_("handler %s at %s"),
                              tks_events_get_name (events, TKS_NAME_IRQ, w->waker), when);
    default:
      break;
    }
  /* Translators: the log does not say what made the thread ready, then when it was */
  return g_strdup_printf (_("not known, at %s"), when);
}

/* "high 6.0 µs (higher) · USART1_IRQHandler 1.5 µs · rest 0.6 µs": where the latency went,
 * the largest first; the lower-priority threads and the unknown go to the rest. */
static char *
describe_breakdown (TksEvents       *events,
                    const TksWakeup *w)
{
  g_autoptr(TksLatencyBreakdown) bd = tks_latency_explain (events, w);
  GString *s;

  if (bd == NULL)
    return NULL;
  if (bd->latency == 0)
    return g_strdup (_("— (no wait)"));
  s = g_string_new (NULL);
  for (guint i = 0; i < bd->n_causes; i++)
    {
      const TksCause *c = &bd->causes[i];
      g_autofree char *time = tks_timeline_format_us (tks_events_to_us (events, c->time));

      if (c->kind == TKS_CAUSE_LOWER || c->kind == TKS_CAUSE_OTHER)
        continue;
      if (s->len > 0)
        g_string_append (s, " · ");
      if (c->kind == TKS_CAUSE_HANDLER)
        g_string_append_printf (s, "%s %s", c->name, time);
      else if (c->kind == TKS_CAUSE_HIGHER)
        /* Translators: a thread of a higher priority that ran, then how long */
        g_string_append_printf (s, _("%s %s (higher)"), c->name, time);
      else
        /* Translators: a thread of the same priority that ran, then how long */
        g_string_append_printf (s, _("%s %s (same priority)"), c->name, time);
    }
  if (bd->rest > 0)
    {
      g_autofree char *time = tks_timeline_format_us (tks_events_to_us (events, bd->rest));

      /* Translators: the latency not explained by the handlers and threads that ran */
      g_string_append_printf (s, _("%srest %s"), s->len > 0 ? " · " : "", time);
    }
  return g_string_free (s, FALSE);
}

static void
show_run (TksSelectionPanel *self,
          TksTimelineView   *view)
{
  const TksThread *thread = NULL;
  const TksRun *r = NULL;
  guint run = 0;

  if (view->capture != NULL && view->has_selected && view->selected.run >= 0)
    {
      thread = tks_capture_get_thread (view->capture, view->selected.thread);
      run = (guint) view->selected.run;
      if (thread != NULL && run < thread->n_runs)
        r = &thread->runs[run];
    }
  if (r == NULL)
    {
      for (Field f = FIELD_THREAD; f <= FIELD_BREAKDOWN; f++)
        set_field (self, f, NULL);
      return;
    }

  /* Translators: the selected run's thread and its priority */
  set_field (self, FIELD_THREAD, g_strdup_printf (_("%s (priority %d)"),
                                                  thread->name ? thread->name : "?",
                                                  thread->priority));
  set_field (self, FIELD_BEGIN, _tks_timeline_view_format_time (view, r->begin));
  set_field (self, FIELD_END, _tks_timeline_view_format_time (view, r->end));
  set_field (self, FIELD_DURATION, _tks_timeline_view_format_span (view, r->end - r->begin));
  /* a stretch of a recording under way does not hold all of the thread's runs */
  set_field (self, FIELD_ACTIVATION,
             view->stretch ? NULL
             /* Translators: the run's activation number among the thread's activations */
             : g_strdup_printf (_("%u of %u"), run + 1, thread->n_runs));
  /* the wait since the thread's previous run ended; the first run in the log has none known,
   * the first of a stretch has one that the stretch does not hold */
  set_field (self, FIELD_WAIT, run > 0
                               ? _tks_timeline_view_format_span (view, r->begin - thread->runs[run - 1].end)
                               : view->stretch ? g_strdup (_("— (before the stretch shown)"))
                               : g_strdup (_("— (first run in the log)")));
  if (tks_capture_get_events (view->capture) == NULL)
    {
      set_field (self, FIELD_LATENCY, NULL);
      set_field (self, FIELD_WAKER, NULL);
      set_field (self, FIELD_BREAKDOWN, NULL);
    }
  else
    {
      TksEvents *events = tks_capture_get_events (view->capture);
      const TksWakeup *w = tks_timeline_wakeup_of_run (view->capture, thread->index, r->begin);

      set_field (self, FIELD_LATENCY,
                 w != NULL
                 ? tks_timeline_format_us (tks_events_to_us (events, w->latency))
                 : g_strdup (_("— (no wake-up recorded)")));
      set_field (self, FIELD_WAKER, w != NULL ? describe_waker (view, events, w) : NULL);
      set_field (self, FIELD_BREAKDOWN, w != NULL ? describe_breakdown (events, w) : NULL);
    }
}

static void
refresh (TksSelectionPanel *self)
{
  TksTimelineView *view = self->timeline;
  gboolean has_a, has_b, has_run;

  if (view == NULL)
    {
      gtk_revealer_set_reveal_child (GTK_REVEALER (self->revealer), FALSE);
      return;
    }
  show_run (self, view);
  has_a = view->capture != NULL && !isnan (view->mark_a);
  has_b = has_a && !isnan (view->mark_b);
  set_field (self, FIELD_CURSOR_A, has_a ? _tks_timeline_view_format_place (view, view->mark_a) : NULL);
  set_field (self, FIELD_CURSOR_B, has_b ? _tks_timeline_view_format_place (view, view->mark_b) : NULL);
  set_field (self, FIELD_DELTA, has_b ? _tks_timeline_view_format_span (view, view->mark_b - view->mark_a) : NULL);
  has_run = gtk_widget_get_visible (gtk_widget_get_parent (self->boxes[FIELD_BEGIN]));
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->revealer), has_run || has_a);
}

TksTimelineView *
tks_selection_panel_get_timeline (TksSelectionPanel *self)
{
  g_return_val_if_fail (TKS_IS_SELECTION_PANEL (self), NULL);
  return self->timeline;
}

void
tks_selection_panel_set_timeline (TksSelectionPanel *self,
                                  TksTimelineView   *timeline)
{
  g_return_if_fail (TKS_IS_SELECTION_PANEL (self));
  g_return_if_fail (timeline == NULL || TKS_IS_TIMELINE_VIEW (timeline));

  if (self->timeline == timeline)
    return;
  g_clear_signal_handler (&self->changed_id, self->timeline);
  g_set_object (&self->timeline, timeline);
  if (timeline != NULL)
    self->changed_id = g_signal_connect_object (timeline, "selection-changed", G_CALLBACK (refresh),
                                                self, G_CONNECT_SWAPPED);
  refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMELINE]);
}

static void
tks_selection_panel_dispose (GObject *object)
{
  TksSelectionPanel *self = TKS_SELECTION_PANEL (object);

  g_clear_signal_handler (&self->changed_id, self->timeline);
  g_clear_object (&self->timeline);
  g_clear_pointer (&self->revealer, gtk_widget_unparent);
  G_OBJECT_CLASS (tks_selection_panel_parent_class)->dispose (object);
}

static void
tks_selection_panel_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  TksSelectionPanel *self = TKS_SELECTION_PANEL (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      g_value_set_object (value, self->timeline);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_selection_panel_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  TksSelectionPanel *self = TKS_SELECTION_PANEL (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      tks_selection_panel_set_timeline (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_selection_panel_class_init (TksSelectionPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tks_selection_panel_dispose;
  object_class->get_property = tks_selection_panel_get_property;
  object_class->set_property = tks_selection_panel_set_property;

  properties[PROP_TIMELINE] =
    g_param_spec_object ("timeline", NULL, NULL, TKS_TYPE_TIMELINE_VIEW,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "selectionpanel");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tks_selection_panel_init (TksSelectionPanel *self)
{
  const char *captions[N_FIELDS] = {
    [FIELD_THREAD] = _("Thread"),
    [FIELD_BEGIN] = _("Begin"),
    [FIELD_END] = _("End"),
    [FIELD_DURATION] = _("Duration"),
    [FIELD_ACTIVATION] = _("Activation"),
    /* Translators: the time since the thread's previous run ended */
    [FIELD_WAIT] = _("Wait before"),
    [FIELD_LATENCY] = _("Wake-up latency"),
    [FIELD_WAKER] = _("Made ready by"),
    /* Translators: what ran while the thread waited to run, the largest first */
    [FIELD_BREAKDOWN] = _("Why late"),
    [FIELD_CURSOR_A] = _("Cursor A"),
    [FIELD_CURSOR_B] = _("Cursor B"),
    /* Translators: the time between the cursors A and B */
    [FIELD_DELTA] = _("Δt (B − A)"),
  };
  GtkWidget *row;

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Selection"), -1);
  self->revealer = gtk_revealer_new ();
  gtk_revealer_set_transition_type (GTK_REVEALER (self->revealer), GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP);
  gtk_widget_set_parent (self->revealer, GTK_WIDGET (self));

  /* one line in a wide window, wrapped in a narrow one */
  row = gtk_flow_box_new ();
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (row), GTK_SELECTION_NONE);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (row), 18);
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (row), 4);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (row), N_FIELDS);
  gtk_widget_set_focusable (row, FALSE);
  gtk_widget_set_margin_start (row, 12);
  gtk_widget_set_margin_end (row, 12);
  gtk_widget_set_margin_top (row, 4);
  gtk_widget_set_margin_bottom (row, 4);
  gtk_revealer_set_child (GTK_REVEALER (self->revealer), row);
  for (Field f = 0; f < N_FIELDS; f++)
    {
      GtkWidget *caption = gtk_label_new (captions[f]);
      GtkWidget *value = gtk_label_new (NULL);

      self->boxes[f] = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
      gtk_label_set_xalign (GTK_LABEL (caption), 0);
      gtk_widget_add_css_class (caption, "caption");
      gtk_widget_add_css_class (caption, "dim-label");
      gtk_label_set_xalign (GTK_LABEL (value), 0);
      gtk_label_set_selectable (GTK_LABEL (value), TRUE);
      gtk_widget_set_focusable (value, FALSE);
      gtk_widget_add_css_class (value, "numeric");
      if (f == FIELD_THREAD)
        {
          /* a long name gives way rather than widening the window */
          gtk_label_set_ellipsize (GTK_LABEL (value), PANGO_ELLIPSIZE_END);
          gtk_label_set_width_chars (GTK_LABEL (value), 12);
          gtk_label_set_max_width_chars (GTK_LABEL (value), 40);
        }
      if (f == FIELD_BREAKDOWN || f == FIELD_WAKER)
        {
          gtk_label_set_wrap (GTK_LABEL (value), TRUE);
          gtk_label_set_max_width_chars (GTK_LABEL (value), 60);
        }
      gtk_box_append (GTK_BOX (self->boxes[f]), caption);
      gtk_box_append (GTK_BOX (self->boxes[f]), value);
      gtk_flow_box_append (GTK_FLOW_BOX (row), self->boxes[f]);
      gtk_widget_set_focusable (gtk_widget_get_parent (self->boxes[f]), FALSE);
      gtk_widget_set_visible (gtk_widget_get_parent (self->boxes[f]), FALSE);
      self->values[f] = value;
    }
}
