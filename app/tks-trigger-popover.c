/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Trigger button's menu (tks-trigger-popover.h): a condition built from choices or typed,
 * checked as it changes, armed or removed. */
#include "config.h"

#include <glib/gi18n.h>

#include "tks-condition.h"
#include "tks-error.h"
#include "tks-trigger-popover.h"

struct _TksTriggerPopover
{
  GtkPopover      parent_instance;

  GtkToggleButton *kinds[4];     /* latency, run, irq, marker: one at a time */
  GtkDropDown    *name_drop;
  GtkStringList  *names;
  GtkWidget      *limit_label;
  GtkSpinButton  *limit_spin;
  GtkWidget      *value_label;
  GtkEntry       *value_entry;
  GtkEntry       *condition_entry;
  GtkLabel       *problem_label;
  GtkWidget      *arm_button;
  GtkLabel       *status_label;

  GStrv           threads;
  GStrv           handlers;
  GStrv           markers;
  guint64         counter_hz;
  gboolean        updating;      /* the form writes the condition */
};

G_DEFINE_FINAL_TYPE (TksTriggerPopover, tks_trigger_popover, GTK_TYPE_POPOVER)

enum {
  SIGNAL_ARM,
  SIGNAL_DISARM,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const TksConditionKind kind_of[] = {
  TKS_CONDITION_LATENCY, TKS_CONDITION_RUN, TKS_CONDITION_IRQ, TKS_CONDITION_MARKER,
};

static TksConditionKind
current_kind (TksTriggerPopover *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->kinds); i++)
    if (gtk_toggle_button_get_active (self->kinds[i]))
      return kind_of[i];
  return TKS_CONDITION_LATENCY;
}

/* Checks the condition as written: the problem under it, Arm only when it reads. */
static void
validate (TksTriggerPopover *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->condition_entry));
  g_autoptr(GError) error = NULL;
  TksCondition condition;
  gboolean ok;

  ok = tks_condition_parse (text, &condition, &error)
       && tks_condition_check (&condition, self->counter_hz, &error);
  gtk_label_set_text (self->problem_label, ok ? "" : error->message);
  gtk_widget_set_visible (GTK_WIDGET (self->problem_label), !ok);
  gtk_widget_set_sensitive (self->arm_button, ok && condition.kind != TKS_CONDITION_OFF);
}

/* The form, written as a condition. */
static void
compose (TksTriggerPopover *self)
{
  TksConditionKind kind = current_kind (self);
  guint selected = gtk_drop_down_get_selected (self->name_drop);
  const char *name = NULL;
  g_autofree char *text = NULL;

  if (selected != GTK_INVALID_LIST_POSITION)
    name = gtk_string_list_get_string (self->names, selected);
  /* the first item of threads and handlers is "any" */
  if (kind != TKS_CONDITION_MARKER && selected == 0)
    name = NULL;
  if (kind == TKS_CONDITION_MARKER)
    {
      g_autofree char *value = g_strstrip (g_strdup (gtk_editable_get_text (
                                 GTK_EDITABLE (self->value_entry))));

      if (*value != '\0')
        text = g_strdup_printf ("marker %s = %s", name != NULL ? name : "", value);
      else
        text = g_strdup_printf ("marker %s", name != NULL ? name : "");
    }
  else
    {
      static const char *const words[] = { "off", "latency", "run", "irq", "marker" };
      guint64 limit = (guint64) gtk_spin_button_get_value (self->limit_spin);

      text = g_strdup_printf ("%s %s%s> %" G_GUINT64_FORMAT "us", words[kind],
                              name != NULL ? name : "", name != NULL ? " " : "", limit);
    }
  self->updating = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->condition_entry), text);
  self->updating = FALSE;
  validate (self);
}

/* The names the kind takes: threads, handlers or markers. */
static void
fill_names (TksTriggerPopover *self)
{
  TksConditionKind kind = current_kind (self);
  GStrv names = kind == TKS_CONDITION_IRQ ? self->handlers
                : kind == TKS_CONDITION_MARKER ? self->markers : self->threads;
  g_autoptr(GPtrArray) items = g_ptr_array_new ();
  gboolean marker = kind == TKS_CONDITION_MARKER;

  if (kind == TKS_CONDITION_IRQ)
    g_ptr_array_add (items, (char *) _("any handler"));
  else if (!marker)
    g_ptr_array_add (items, (char *) _("any thread"));
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    g_ptr_array_add (items, names[i]);
  g_ptr_array_add (items, NULL);

  self->updating = TRUE;
  gtk_string_list_splice (self->names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->names)),
                          (const char * const *) items->pdata);
  self->updating = FALSE;
  gtk_widget_set_visible (self->limit_label, !marker);
  gtk_widget_set_visible (GTK_WIDGET (self->limit_spin), !marker);
  gtk_widget_set_visible (self->value_label, marker);
  gtk_widget_set_visible (GTK_WIDGET (self->value_entry), marker);
}

static void
kind_toggled_cb (GtkToggleButton   *button,
                 TksTriggerPopover *self)
{
  if (!gtk_toggle_button_get_active (button))
    return;
  fill_names (self);
  gtk_drop_down_set_selected (self->name_drop, 0);
  compose (self);
}

static void
form_changed_cb (TksTriggerPopover *self)
{
  if (!self->updating)
    compose (self);
}

static void
condition_changed_cb (TksTriggerPopover *self)
{
  if (!self->updating)
    validate (self);
}

static void
arm_clicked_cb (TksTriggerPopover *self)
{
  if (!gtk_widget_get_sensitive (self->arm_button))
    return;
  g_signal_emit (self, signals[SIGNAL_ARM], 0,
                 gtk_editable_get_text (GTK_EDITABLE (self->condition_entry)));
  gtk_popover_popdown (GTK_POPOVER (self));
}

static void
disarm_clicked_cb (TksTriggerPopover *self)
{
  g_signal_emit (self, signals[SIGNAL_DISARM], 0);
  gtk_popover_popdown (GTK_POPOVER (self));
}

static void
set_accessible_label (gpointer    widget,
                      const char *label)
{
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

static GtkWidget *
caption (GtkGrid    *grid,
         const char *text,
         int         row,
         GtkWidget  *field)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_grid_attach (grid, label, 0, row, 1, 1);
  gtk_widget_set_hexpand (field, TRUE);
  gtk_grid_attach (grid, field, 1, row, 1, 1);
  set_accessible_label (field, text);
  return label;
}

static void
tks_trigger_popover_finalize (GObject *object)
{
  TksTriggerPopover *self = TKS_TRIGGER_POPOVER (object);

  g_strfreev (self->threads);
  g_strfreev (self->handlers);
  g_strfreev (self->markers);
  G_OBJECT_CLASS (tks_trigger_popover_parent_class)->finalize (object);
}

static void
tks_trigger_popover_class_init (TksTriggerPopoverClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tks_trigger_popover_finalize;

  signals[SIGNAL_ARM] = g_signal_new ("arm", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                      NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[SIGNAL_DISARM] = g_signal_new ("disarm", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tks_trigger_popover_init (TksTriggerPopover *self)
{
  static const char *const kind_labels[] = {
    N_("A wake-up later than a limit"),
    N_("A thread running longer than a limit"),
    N_("A handler running longer than a limit"),
    N_("A marker with a value"),
  };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *kinds = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *heading = gtk_label_new (_("Set the trigger on the first…"));
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *disarm = gtk_button_new_with_label (_("Remove Condition"));
  GtkAdjustment *adjustment = gtk_adjustment_new (1000, 0, TKS_CONDITION_NUMBER_MAX, 10, 100, 0);

  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_widget_set_size_request (box, 340, -1);
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "heading");
  gtk_box_append (GTK_BOX (box), heading);

  /* toggle buttons, one pressed at a time: each can be pressed from the keyboard and by
   * assistive technologies */
  gtk_widget_add_css_class (kinds, "linked");
  for (guint i = 0; i < G_N_ELEMENTS (self->kinds); i++)
    {
      self->kinds[i] = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_label (_(kind_labels[i])));
      if (i > 0)
        gtk_toggle_button_set_group (self->kinds[i], self->kinds[0]);
      gtk_box_append (GTK_BOX (kinds), GTK_WIDGET (self->kinds[i]));
    }
  gtk_toggle_button_set_active (self->kinds[0], TRUE);
  gtk_box_append (GTK_BOX (box), kinds);

  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  self->names = gtk_string_list_new (NULL);
  self->name_drop = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (self->names), NULL));
  gtk_drop_down_set_enable_search (self->name_drop, TRUE);
  caption (GTK_GRID (grid), _("Name"), 0, GTK_WIDGET (self->name_drop));
  self->limit_spin = GTK_SPIN_BUTTON (gtk_spin_button_new (adjustment, 10, 0));
  self->limit_label = caption (GTK_GRID (grid), _("Limit in µs"), 1, GTK_WIDGET (self->limit_spin));
  self->value_entry = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (self->value_entry, _("any value"));
  self->value_label = caption (GTK_GRID (grid), _("Value"), 2, GTK_WIDGET (self->value_entry));
  self->condition_entry = GTK_ENTRY (gtk_entry_new ());
  caption (GTK_GRID (grid), _("Condition"), 3, GTK_WIDGET (self->condition_entry));
  gtk_box_append (GTK_BOX (box), grid);

  self->problem_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->problem_label, TRUE);
  gtk_label_set_xalign (self->problem_label, 0);
  gtk_label_set_max_width_chars (self->problem_label, 40);
  gtk_widget_add_css_class (GTK_WIDGET (self->problem_label), "error");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->problem_label));

  self->arm_button = gtk_button_new_with_label (_("Arm"));
  gtk_widget_add_css_class (self->arm_button, "suggested-action");
  gtk_widget_set_hexpand (disarm, TRUE);
  gtk_widget_set_halign (disarm, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (buttons), disarm);
  gtk_box_append (GTK_BOX (buttons), self->arm_button);
  gtk_box_append (GTK_BOX (box), buttons);

  self->status_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->status_label, TRUE);
  gtk_label_set_xalign (self->status_label, 0);
  gtk_label_set_max_width_chars (self->status_label, 40);
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "dim-label");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), FALSE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->status_label));

  gtk_popover_set_child (GTK_POPOVER (self), box);

  for (guint i = 0; i < G_N_ELEMENTS (self->kinds); i++)
    g_signal_connect (self->kinds[i], "toggled", G_CALLBACK (kind_toggled_cb), self);
  g_signal_connect_swapped (self->name_drop, "notify::selected", G_CALLBACK (form_changed_cb), self);
  g_signal_connect_swapped (self->limit_spin, "value-changed", G_CALLBACK (form_changed_cb), self);
  g_signal_connect_swapped (self->value_entry, "changed", G_CALLBACK (form_changed_cb), self);
  g_signal_connect_swapped (self->condition_entry, "changed", G_CALLBACK (condition_changed_cb),
                            self);
  g_signal_connect_swapped (self->condition_entry, "activate", G_CALLBACK (arm_clicked_cb), self);
  g_signal_connect_swapped (self->arm_button, "clicked", G_CALLBACK (arm_clicked_cb), self);
  g_signal_connect_swapped (disarm, "clicked", G_CALLBACK (disarm_clicked_cb), self);

  fill_names (self);
  compose (self);
}

GtkWidget *
tks_trigger_popover_new (void)
{
  return g_object_new (TKS_TYPE_TRIGGER_POPOVER, NULL);
}

void
tks_trigger_popover_set_choices (TksTriggerPopover  *self,
                                 const char * const *threads,
                                 const char * const *handlers,
                                 const char * const *markers)
{
  g_autofree char *selected = NULL;
  guint position;

  g_return_if_fail (TKS_IS_TRIGGER_POPOVER (self));

  /* the name chosen stays chosen when the next capture has it too */
  position = gtk_drop_down_get_selected (self->name_drop);
  if (position != GTK_INVALID_LIST_POSITION && position > 0)
    selected = g_strdup (gtk_string_list_get_string (self->names, position));
  g_strfreev (self->threads);
  g_strfreev (self->handlers);
  g_strfreev (self->markers);
  self->threads = g_strdupv ((char **) threads);
  self->handlers = g_strdupv ((char **) handlers);
  self->markers = g_strdupv ((char **) markers);
  fill_names (self);
  position = 0;
  for (guint i = 0; selected != NULL && i < g_list_model_get_n_items (G_LIST_MODEL (self->names)); i++)
    if (g_strcmp0 (gtk_string_list_get_string (self->names, i), selected) == 0)
      position = i;
  self->updating = TRUE;
  gtk_drop_down_set_selected (self->name_drop, position);
  self->updating = FALSE;
}

void
tks_trigger_popover_set_counter_hz (TksTriggerPopover *self,
                                    guint64            counter_hz)
{
  g_return_if_fail (TKS_IS_TRIGGER_POPOVER (self));

  self->counter_hz = counter_hz;
  validate (self);
}

void
tks_trigger_popover_set_status (TksTriggerPopover *self,
                                const char        *status)
{
  g_return_if_fail (TKS_IS_TRIGGER_POPOVER (self));

  gtk_label_set_text (self->status_label, status != NULL ? status : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), status != NULL);
}

const char *
tks_trigger_popover_get_condition (TksTriggerPopover *self)
{
  g_return_val_if_fail (TKS_IS_TRIGGER_POPOVER (self), NULL);

  return gtk_editable_get_text (GTK_EDITABLE (self->condition_entry));
}
