/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The threads panel: a search entry, a sort choice, the range the shares are of, and a list
 * view of the timeline's thread rows. A list view makes widgets for the rows in view only, so
 * a capture with thousands of threads costs what a screenful does. A change of the shares
 * alone (the timeline scrolled) refills the rows in view; a change of the rows themselves
 * (sorted, searched, expanded) replaces the list's items. The load sort holds the order it took
 * until the user sorts again, so the lanes never move on a pan, a zoom or a recording's second.
 * While the panel is closed, it does not follow the visible range. */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tks-threads-panel.h"
#include "tks-widget-text.h"

/* The shares follow the visible range at most this often while the user scrolls. */
#define RANGE_DELAY_MS 120

typedef struct
{
  TksThreadsPanel  *panel;
  struct _TksRowItem *item;    /* the item bound to the slot, or NULL */
  const TksLaneRow *row;       /* what the slot shows now */
  GtkWidget        *widget;    /* the row's box, which a screen reader names */
  GtkWidget        *expander;
  GtkWidget        *check;
  GtkWidget        *name;
  GtkWidget        *priority;
  GtkWidget        *bar;
  GtkWidget        *share;
  GtkWidget        *pin;
} Slot;

struct _TksThreadsPanel
{
  GtkWidget        parent_instance;

  TksTimelineView *timeline;
  TksViewport     *viewport;   /* the timeline's, whose visible range the shares are of */
  TksLaneList     *list;
  GtkWidget       *search;
  GtkWidget       *sort;
  GtkWidget       *sort_again;  /* the load order taken anew: shown with the load sort */
  GtkWidget       *range_label;
  GtkWidget       *listview;
  GtkWidget       *empty;
  GListStore      *items;      /* TksRowItem: the rows the list view shows */
  GPtrArray       *bound;      /* Slot: the rows in view */
  gboolean         filling;    /* the widgets are being set: their signals are not the user's */
  gboolean         range_dirty; /* the visible range changed while the panel was closed */
  gboolean         rows_dirty;  /* the rows changed while the panel was closed */
  guint            range_source;
};

G_DEFINE_FINAL_TYPE (TksThreadsPanel, tks_threads_panel, GTK_TYPE_WIDGET)

/* An item of the list view: one row of the lane list. */
#define TKS_TYPE_ROW_ITEM (tks_row_item_get_type ())
G_DECLARE_FINAL_TYPE (TksRowItem, tks_row_item, TKS, ROW_ITEM, GObject)

struct _TksRowItem
{
  GObject           parent_instance;
  const TksLaneRow *row;
  TksLaneRowKind    kind;  /* the row's, kept: a new capture's rows replace it */
  char             *key;
};

G_DEFINE_FINAL_TYPE (TksRowItem, tks_row_item, G_TYPE_OBJECT)

static void
tks_row_item_finalize (GObject *object)
{
  g_free (TKS_ROW_ITEM (object)->key);
  G_OBJECT_CLASS (tks_row_item_parent_class)->finalize (object);
}

static void
tks_row_item_class_init (TksRowItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tks_row_item_finalize;
}

static void
tks_row_item_init (TksRowItem *self)
{
}

enum {
  PROP_0,
  PROP_TIMELINE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_accessible_label (GtkWidget  *widget,
                      const char *label)
{
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

/* Shows or leaves out a control that only some rows have, its room kept so columns align. */
static void
set_present (GtkWidget *widget,
             gboolean   present)
{
  gtk_widget_set_child_visible (widget, present);
  gtk_accessible_update_state (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_STATE_HIDDEN, !present, -1);
}

static void
fill_slot (Slot             *slot,
           const TksLaneRow *row)
{
  g_autofree char *show = NULL;
  g_autofree char *pin = NULL;
  g_autofree char *expand = NULL;
  g_autofree char *share = NULL;
  g_autofree char *priority = NULL;
  g_autofree char *summary = NULL;
  gboolean member = row->kind == TKS_LANE_ROW_MEMBER;
  const char *icon;

  slot->row = row;
  gtk_label_set_text (GTK_LABEL (slot->name), row->label);
  /* a name keeps its start, cut at the end; the tooltip has it whole */
  tks_widget_set_tooltip (slot->name, row->label);
  gtk_widget_set_margin_start (slot->name, member ? 18 : 0);
  priority = g_strdup_printf ("%d", row->priority);
  gtk_label_set_text (GTK_LABEL (slot->priority), priority);
  share = g_strdup_printf (_("%.1f %%"), row->share);
  gtk_label_set_text (GTK_LABEL (slot->share), share);
  gtk_level_bar_set_value (GTK_LEVEL_BAR (slot->bar), CLAMP (row->share, 0, 100));

  gtk_check_button_set_active (GTK_CHECK_BUTTON (slot->check), !row->hidden);
  /* Translators: the accessible name of a thread row's check box; %s: the row's label */
  show = g_strdup_printf (_("Show %s"), row->label);
  set_accessible_label (slot->check, show);
  tks_widget_set_tooltip (slot->check, row->hidden ? _("Show this lane on the timeline")
                                                   : _("Hide this lane from the timeline"));

  /* members follow their group: only threads and groups are pinned */
  set_present (slot->pin, !member);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (slot->pin), row->pinned);
  /* a pin stands out only where it holds a lane */
  gtk_widget_set_opacity (slot->pin, row->pinned ? 1.0 : 0.3);
  /* Translators: the accessible name of a thread row's pin button; %s: the row's label */
  pin = g_strdup_printf (_("Pin %s"), row->label);
  set_accessible_label (slot->pin, pin);

  set_present (slot->expander, row->kind == TKS_LANE_ROW_GROUP);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (slot->expander), row->expanded);
  icon = row->expanded ? "pan-down-symbolic" : "pan-end-symbolic";
  /* setting an icon makes its image anew */
  if (g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (slot->expander)), icon) != 0)
    gtk_button_set_icon_name (GTK_BUTTON (slot->expander), icon);
  /* Translators: the accessible name of a group row's expander: the row's label, then the
   * priority (groups of one name may differ by it) */
  expand = g_strdup_printf (_("Expand %s, priority %d"), row->label, row->priority);
  set_accessible_label (slot->expander, expand);

  /* Translators: what a screen reader says of a thread row: label, priority, CPU share */
  summary = g_strdup_printf (_("%s, priority %d, %.1f %% CPU%s"), row->label, row->priority,
                             row->share, row->hidden ? _(", hidden") : "");
  set_accessible_label (slot->widget, summary);
  gtk_widget_set_opacity (slot->name, row->hidden ? 0.55 : 1.0);
}

static void
check_toggled (GtkCheckButton *check,
               Slot           *slot)
{
  if (slot->panel->filling || slot->row == NULL)
    return;
  tks_lane_list_set_hidden (slot->panel->list, slot->row->key, !gtk_check_button_get_active (check));
}

static void
pin_toggled (GtkToggleButton *button,
             Slot            *slot)
{
  if (slot->panel->filling || slot->row == NULL)
    return;
  tks_lane_list_set_pinned (slot->panel->list, slot->row->key, gtk_toggle_button_get_active (button));
}

static void
expander_toggled (GtkToggleButton *button,
                  Slot            *slot)
{
  if (slot->panel->filling || slot->row == NULL)
    return;
  tks_lane_list_set_expanded (slot->panel->list, slot->row->key, gtk_toggle_button_get_active (button));
}

static Slot *
slot_new (TksThreadsPanel *self)
{
  Slot *slot = g_new0 (Slot, 1);
  GtkWidget *box;

  slot->panel = self;
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (box, 4);
  gtk_widget_set_margin_end (box, 4);

  slot->expander = gtk_toggle_button_new ();
  gtk_widget_add_css_class (slot->expander, "flat");
  gtk_widget_set_valign (slot->expander, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), slot->expander);

  slot->check = gtk_check_button_new ();
  gtk_box_append (GTK_BOX (box), slot->check);

  slot->name = g_object_new (GTK_TYPE_LABEL, "xalign", 0.0f, "hexpand", TRUE,
                             "ellipsize", PANGO_ELLIPSIZE_END, "width-chars", 10, NULL);
  gtk_box_append (GTK_BOX (box), slot->name);

  slot->priority = g_object_new (GTK_TYPE_LABEL, "xalign", 1.0f, "width-chars", 3, NULL);
  gtk_widget_add_css_class (slot->priority, "dim-label");
  gtk_widget_add_css_class (slot->priority, "numeric");
  gtk_box_append (GTK_BOX (box), slot->priority);

  slot->bar = gtk_level_bar_new_for_interval (0, 100);
  /* one colour whatever the level: it is a share, not a warning */
  gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (slot->bar), GTK_LEVEL_BAR_OFFSET_LOW);
  gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (slot->bar), GTK_LEVEL_BAR_OFFSET_HIGH);
  gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (slot->bar), GTK_LEVEL_BAR_OFFSET_FULL);
  gtk_widget_set_size_request (slot->bar, 40, -1);
  gtk_widget_set_valign (slot->bar, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (slot->bar, "thread-load");
  set_accessible_label (slot->bar, _("CPU share"));
  gtk_box_append (GTK_BOX (box), slot->bar);

  slot->share = g_object_new (GTK_TYPE_LABEL, "xalign", 1.0f, "width-chars", 7, NULL);
  gtk_widget_add_css_class (slot->share, "numeric");
  gtk_box_append (GTK_BOX (box), slot->share);

  slot->pin = gtk_toggle_button_new ();
  gtk_button_set_icon_name (GTK_BUTTON (slot->pin), "view-pin-symbolic");
  gtk_widget_add_css_class (slot->pin, "flat");
  gtk_widget_set_valign (slot->pin, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (slot->pin, _("Keep this lane at the top"));
  gtk_box_append (GTK_BOX (box), slot->pin);

  slot->widget = box;

  g_signal_connect (slot->check, "toggled", G_CALLBACK (check_toggled), slot);
  g_signal_connect (slot->pin, "toggled", G_CALLBACK (pin_toggled), slot);
  g_signal_connect (slot->expander, "toggled", G_CALLBACK (expander_toggled), slot);
  return slot;
}

static void
update_range_label (TksThreadsPanel *self,
                    gboolean         marks)
{
  gtk_label_set_text (GTK_LABEL (self->range_label),
                      marks ? _("CPU share between the cursors A and B")
                            : _("CPU share of the visible range"));
}

/* Closed, the panel leaves its rows as they are until it opens (a recording changes them every
 * second); the items and widgets let go of the rows, which the lane list may free. */
static void
forget_rows (TksThreadsPanel *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->items));

  self->rows_dirty = TRUE;
  for (guint i = 0; i < n; i++)
    {
      TksRowItem *item = g_list_model_get_item (G_LIST_MODEL (self->items), i);

      item->row = NULL;
      g_object_unref (item);
    }
  for (guint i = 0; i < self->bound->len; i++)
    ((Slot *) g_ptr_array_index (self->bound, i))->row = NULL;
}

/* The list's rows in the list view: the items replaced when the rows differ, else the rows in
 * view filled again (their shares, hidden and pinned states). */
static void
fill (TksThreadsPanel *self)
{
  const TksLaneRow *const *rows = NULL;
  guint n = 0, old = g_list_model_get_n_items (G_LIST_MODEL (self->items));
  gboolean same;
  const char *search;

  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      forget_rows (self);
      return;
    }
  self->rows_dirty = FALSE;
  if (self->list != NULL && tks_timeline_view_get_capture (self->timeline) != NULL)
    rows = tks_lane_list_get_rows (self->list, &n);

  /* rows made anew for the same lanes (a recording's capture of each second) keep their
   * items and widgets: the items take the new rows */
  same = n == old;
  for (guint i = 0; same && i < n; i++)
    {
      TksRowItem *item = g_list_model_get_item (G_LIST_MODEL (self->items), i);

      /* the rows the items had may be gone: their keys were kept */
      same = item->kind == rows[i]->kind && g_strcmp0 (item->key, rows[i]->key) == 0;
      g_object_unref (item);
    }
  self->filling = TRUE;
  if (same)
    {
      for (guint i = 0; i < n; i++)
        {
          TksRowItem *item = g_list_model_get_item (G_LIST_MODEL (self->items), i);

          item->row = rows[i];
          g_object_unref (item);
        }
      for (guint i = 0; i < self->bound->len; i++)
        {
          Slot *slot = g_ptr_array_index (self->bound, i);

          if (slot->item->row != NULL)
            fill_slot (slot, slot->item->row);
        }
    }
  else
    {
      g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint i = 0; i < n; i++)
        {
          TksRowItem *item = g_object_new (TKS_TYPE_ROW_ITEM, NULL);

          item->row = rows[i];
          item->kind = rows[i]->kind;
          item->key = g_strdup (rows[i]->key);
          g_ptr_array_add (items, item);
        }
      g_list_store_splice (self->items, 0, old, items->pdata, items->len);
    }
  self->filling = FALSE;

  search = gtk_editable_get_text (GTK_EDITABLE (self->search));
  gtk_widget_set_visible (self->empty, n == 0);
  gtk_label_set_text (GTK_LABEL (self->empty),
                      search != NULL && *search != '\0' ? _("No thread matches the search")
                                                        : _("No threads"));
}

static void
setup_row (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           TksThreadsPanel          *self)
{
  Slot *slot = slot_new (self);

  gtk_list_item_set_activatable (item, FALSE);
  gtk_list_item_set_selectable (item, FALSE);
  gtk_list_item_set_child (item, slot->widget);
  g_object_set_data_full (G_OBJECT (item), "tks-slot", slot, g_free);
}

static void
bind_row (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          TksThreadsPanel          *self)
{
  Slot *slot = g_object_get_data (G_OBJECT (item), "tks-slot");
  TksRowItem *row = gtk_list_item_get_item (item);

  self->filling = TRUE;
  slot->item = row;
  slot->row = NULL;
  /* an item whose row was let go waits for the panel's next fill */
  if (row->row != NULL)
    fill_slot (slot, row->row);
  self->filling = FALSE;
  g_ptr_array_add (self->bound, slot);
}

static void
unbind_row (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            TksThreadsPanel          *self)
{
  Slot *slot = g_object_get_data (G_OBJECT (item), "tks-slot");

  g_ptr_array_remove_fast (self->bound, slot);
  slot->row = NULL;
  slot->item = NULL;
}

/* The range the shares are of: the cursors A and B when both are set, else the visible one. */
static gboolean
apply_range (gpointer user_data)
{
  TksThreadsPanel *self = user_data;
  double a, b;
  gboolean marks;

  self->range_source = 0;
  self->range_dirty = FALSE;
  if (self->list == NULL || tks_timeline_view_get_capture (self->timeline) == NULL)
    return G_SOURCE_REMOVE;
  marks = tks_timeline_view_get_marks (self->timeline, &a, &b) && a != b;
  if (!marks)
    {
      a = tks_viewport_get_visible_start (self->viewport);
      b = tks_viewport_get_visible_end (self->viewport);
    }
  update_range_label (self, marks);
  tks_lane_list_set_range (self->list, a, b);
  return G_SOURCE_REMOVE;
}

static void
range_changed (TksThreadsPanel *self)
{
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->range_dirty = TRUE;
      return;
    }
  if (self->range_source == 0)
    self->range_source = g_timeout_add (RANGE_DELAY_MS, apply_range, self);
}

/* Opened: the shares of the range now visible. */
static void
panel_mapped (TksThreadsPanel *self)
{
  if (self->range_dirty && self->list != NULL)
    apply_range (self);
  if (self->rows_dirty)
    fill (self);
}

/* The window gives the timeline its own viewport after construction: follow it. */
static void
viewport_changed (TksThreadsPanel *self)
{
  TksViewport *viewport = tks_timeline_view_get_viewport (self->timeline);

  if (viewport == self->viewport)
    return;
  if (self->viewport != NULL)
    g_signal_handlers_disconnect_by_data (self->viewport, self);
  g_set_object (&self->viewport, viewport);
  g_signal_connect_swapped (viewport, "changed", G_CALLBACK (range_changed), self);
  range_changed (self);
}

static void
list_changed (TksThreadsPanel *self)
{
  fill (self);
}

/* The timeline's lane list is made with its first capture: follow it from then on. */
static void
lanes_changed (TksThreadsPanel *self)
{
  TksLaneList *list = self->timeline != NULL ? tks_timeline_view_get_lane_list (self->timeline) : NULL;

  if (list != self->list)
    {
      if (self->list != NULL)
        g_signal_handlers_disconnect_by_func (self->list, list_changed, self);
      g_set_object (&self->list, list);
      if (list != NULL)
        {
          g_signal_connect_object (list, "changed", G_CALLBACK (list_changed), self, G_CONNECT_SWAPPED);
          tks_lane_list_set_search (list, gtk_editable_get_text (GTK_EDITABLE (self->search)));
          tks_lane_list_set_sort (list, gtk_drop_down_get_selected (GTK_DROP_DOWN (self->sort)));
        }
    }
  if (self->list != NULL && tks_timeline_view_get_capture (self->timeline) != NULL)
    {
      if (gtk_widget_get_mapped (GTK_WIDGET (self)))
        apply_range (self);
      else
        self->range_dirty = TRUE;
    }
  fill (self);
}

static void
search_changed (TksThreadsPanel *self)
{
  if (self->list != NULL)
    tks_lane_list_set_search (self->list, gtk_editable_get_text (GTK_EDITABLE (self->search)));
}

static void
stop_search (TksThreadsPanel *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search), "");
}

static void
sort_changed (TksThreadsPanel *self)
{
  guint sort = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->sort));

  gtk_widget_set_visible (self->sort_again, sort == TKS_LANE_SORT_LOAD);
  if (self->list != NULL)
    tks_lane_list_set_sort (self->list, sort);
}

/* The load order is taken when the sort is chosen and held (the lanes do not move as the view
 * pans or records): this takes it again from the shares shown. */
static void
sort_again_clicked (TksThreadsPanel *self)
{
  if (self->range_source != 0)
    {
      g_clear_handle_id (&self->range_source, g_source_remove);
      apply_range (self);
    }
  if (self->list != NULL)
    tks_lane_list_sort_again (self->list);
}

TksTimelineView *
tks_threads_panel_get_timeline (TksThreadsPanel *self)
{
  g_return_val_if_fail (TKS_IS_THREADS_PANEL (self), NULL);
  return self->timeline;
}

static void
disconnect_timeline (TksThreadsPanel *self)
{
  if (self->timeline != NULL)
    g_signal_handlers_disconnect_by_data (self->timeline, self);
  if (self->viewport != NULL)
    g_signal_handlers_disconnect_by_data (self->viewport, self);
  g_clear_object (&self->viewport);
  if (self->list != NULL)
    g_signal_handlers_disconnect_by_func (self->list, list_changed, self);
  g_clear_object (&self->list);
  g_clear_object (&self->timeline);
}

void
tks_threads_panel_set_timeline (TksThreadsPanel *self,
                                TksTimelineView *timeline)
{
  g_return_if_fail (TKS_IS_THREADS_PANEL (self));
  g_return_if_fail (timeline == NULL || TKS_IS_TIMELINE_VIEW (timeline));

  if (self->timeline == timeline)
    return;
  disconnect_timeline (self);
  if (timeline != NULL)
    {
      self->timeline = g_object_ref (timeline);
      g_signal_connect_swapped (timeline, "lanes-changed", G_CALLBACK (lanes_changed), self);
      g_signal_connect_swapped (timeline, "selection-changed", G_CALLBACK (range_changed), self);
      g_signal_connect_swapped (timeline, "notify::viewport", G_CALLBACK (viewport_changed), self);
      viewport_changed (self);
    }
  lanes_changed (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMELINE]);
}

void
tks_threads_panel_focus_search (TksThreadsPanel *self)
{
  g_return_if_fail (TKS_IS_THREADS_PANEL (self));

  gtk_widget_grab_focus (self->search);
  gtk_editable_select_region (GTK_EDITABLE (self->search), 0, -1);
}

static void
tks_threads_panel_dispose (GObject *object)
{
  TksThreadsPanel *self = TKS_THREADS_PANEL (object);
  GtkWidget *child;

  g_clear_handle_id (&self->range_source, g_source_remove);
  disconnect_timeline (self);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  gtk_widget_dispose_template (GTK_WIDGET (self), TKS_TYPE_THREADS_PANEL);
  g_clear_object (&self->items);
  G_OBJECT_CLASS (tks_threads_panel_parent_class)->dispose (object);
}

static void
tks_threads_panel_finalize (GObject *object)
{
  TksThreadsPanel *self = TKS_THREADS_PANEL (object);

  g_clear_pointer (&self->bound, g_ptr_array_unref);
  G_OBJECT_CLASS (tks_threads_panel_parent_class)->finalize (object);
}

static void
tks_threads_panel_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TksThreadsPanel *self = TKS_THREADS_PANEL (object);

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
tks_threads_panel_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  TksThreadsPanel *self = TKS_THREADS_PANEL (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      tks_threads_panel_set_timeline (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_threads_panel_class_init (TksThreadsPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tks_threads_panel_dispose;
  object_class->finalize = tks_threads_panel_finalize;
  object_class->get_property = tks_threads_panel_get_property;
  object_class->set_property = tks_threads_panel_set_property;

  properties[PROP_TIMELINE] =
    g_param_spec_object ("timeline", NULL, NULL, TKS_TYPE_TIMELINE_VIEW,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "threadspanel");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tickscope/Tickscope/ui/tks-threads-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, TksThreadsPanel, search);
  gtk_widget_class_bind_template_child (widget_class, TksThreadsPanel, sort);
  gtk_widget_class_bind_template_child (widget_class, TksThreadsPanel, sort_again);
  gtk_widget_class_bind_template_child (widget_class, TksThreadsPanel, range_label);
  gtk_widget_class_bind_template_child (widget_class, TksThreadsPanel, empty);
  gtk_widget_class_bind_template_child (widget_class, TksThreadsPanel, listview);
  gtk_widget_class_bind_template_callback (widget_class, setup_row);
  gtk_widget_class_bind_template_callback (widget_class, bind_row);
  gtk_widget_class_bind_template_callback (widget_class, unbind_row);
  gtk_widget_class_bind_template_callback (widget_class, search_changed);
  gtk_widget_class_bind_template_callback (widget_class, stop_search);
  gtk_widget_class_bind_template_callback (widget_class, sort_changed);
  gtk_widget_class_bind_template_callback (widget_class, sort_again_clicked);
}

static void
tks_threads_panel_init (TksThreadsPanel *self)
{
  self->bound = g_ptr_array_new ();
  self->items = g_list_store_new (TKS_TYPE_ROW_ITEM);

  gtk_widget_init_template (GTK_WIDGET (self));
  /* the button inside, which screen readers reach, has no label of its own */
  if (gtk_widget_get_first_child (self->sort) != NULL)
    set_accessible_label (gtk_widget_get_first_child (self->sort), _("Sort threads by"));
  update_range_label (self, FALSE);
  gtk_list_view_set_model (GTK_LIST_VIEW (self->listview),
                           GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->items)))));
  g_signal_connect (self, "map", G_CALLBACK (panel_mapped), NULL);
  fill (self);
}
