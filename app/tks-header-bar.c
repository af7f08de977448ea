/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's header bar (tks-header-bar.h): its text buttons turn to icons when the window
 * is too narrow for them and the title; Record turns into a red Stop while recording. */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "tks-header-bar.h"

/* Room the title keeps in the header bar before the text buttons give way to icons. */
#define TITLE_ROOM 260

struct _TksHeaderBar
{
  GtkWidget      parent_instance;

  /* template widgets */
  GtkWidget     *header_bar;
  GtkLabel      *title_label;
  GtkLabel      *subtitle_label;   /* the board and its state, under the title */
  GtkMenuButton *board_button;
  GtkWidget     *start_spacer;     /* between the file and the board buttons */
  AdwSplitButton *trigger_button; /* Trigger now; its menu: on a condition */
  GtkButton     *run_button;
  GtkButton     *fetch_button;
  GtkWidget     *record_button;
  GtkWidget     *events_button;    /* hidden in a narrow window: F8 and the menu remain */
  GtkMenuButton *menu_button;
  GMenu         *recent_section;
  GMenu         *history_section;

  gboolean       compact;          /* the text buttons show icons */
  int            compact_min;      /* the header's minimum width with icons (0: not known) */
  gboolean       recording;        /* Record shows Stop */
  int            wide_min;         /* the header's minimum width with its text buttons */
  guint          compact_idle_id;
};

G_DEFINE_FINAL_TYPE (TksHeaderBar, tks_header_bar, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TITLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const struct {
  gsize       offset;
  const char *label;
  const char *icon;
} text_buttons[] = {
  { G_STRUCT_OFFSET (TksHeaderBar, run_button), N_("Run"), "media-playback-start-symbolic" },
  { G_STRUCT_OFFSET (TksHeaderBar, fetch_button), N_("Get new data"), "view-refresh-symbolic" },
};

/* The split button's two parts keep their names for assistive technologies, also as an
 * icon. */
static void
name_trigger_parts (TksHeaderBar *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->trigger_button));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_MENU_BUTTON (child))
      gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Trigger on a Condition"), -1);
    else if (GTK_IS_BUTTON (child))
      gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Trigger"), -1);
}

static void
show_compact (TksHeaderBar *self,
              gboolean      compact)
{
  /* narrow: the room of the spacer goes to the title (the Trigger button has an arrow), the
   * buttons' padding is narrower (style.css) */
  gtk_widget_set_visible (self->start_spacer, !compact);
  if (compact)
    gtk_widget_add_css_class (self->header_bar, "narrow");
  else
    gtk_widget_remove_css_class (self->header_bar, "narrow");
  /* a shutter: freezing the log now is a snapshot (Record has the red dot) */
  if (compact)
    adw_split_button_set_icon_name (self->trigger_button, "camera-photo-symbolic");
  else
    adw_split_button_set_label (self->trigger_button, _("Trigger"));
  name_trigger_parts (self);
  for (guint i = 0; i < G_N_ELEMENTS (text_buttons); i++)
    {
      GtkButton *button = G_STRUCT_MEMBER (GtkButton *, self, text_buttons[i].offset);

      if (compact)
        gtk_button_set_icon_name (button, text_buttons[i].icon);
      else
        gtk_button_set_label (button, _(text_buttons[i].label));
    }
  gtk_widget_set_visible (self->events_button, !compact);
}

static gboolean
apply_compact_cb (gpointer data)
{
  TksHeaderBar *self = data;

  self->compact_idle_id = 0;
  show_compact (self, self->compact);
  return G_SOURCE_REMOVE;
}

/* The header with icons is the window's narrowest: its minimum width is measured once, with
 * the icons shown for a moment, so that a window can be made that narrow while it shows
 * text (the icons come with the next frame). */
static void
tks_header_bar_root (GtkWidget *widget)
{
  TksHeaderBar *self = TKS_HEADER_BAR (widget);

  GTK_WIDGET_CLASS (tks_header_bar_parent_class)->root (widget);
  if (self->compact_min > 0)
    return;
  show_compact (self, TRUE);
  gtk_widget_measure (self->header_bar, GTK_ORIENTATION_HORIZONTAL, -1, &self->compact_min, NULL,
                      NULL, NULL);
  show_compact (self, self->compact);
}

/* The header's minimum width with its text buttons is measured while they show text; with
 * icons the window goes back to text once it has that width and room for the title again. */
static gboolean
wants_compact (TksHeaderBar *self,
               int           width)
{
  if (!self->compact && self->compact_idle_id == 0)
    gtk_widget_measure (self->header_bar, GTK_ORIENTATION_HORIZONTAL, -1,
                        &self->wide_min, NULL, NULL, NULL);
  return width < self->wide_min + TITLE_ROOM;
}

static void
tks_header_bar_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  TksHeaderBar *self = TKS_HEADER_BAR (widget);

  gtk_widget_measure (self->header_bar, orientation, for_size, minimum, natural,
                      minimum_baseline, natural_baseline);
  if (orientation == GTK_ORIENTATION_HORIZONTAL && self->compact_min > 0)
    *minimum = MIN (*minimum, self->compact_min);
}

/* The header is as wide as the window. (No layout manager: it would be asked instead.) */
static void
tks_header_bar_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  TksHeaderBar *self = TKS_HEADER_BAR (widget);
  gboolean compact;
  int min;

  /* narrower than the text buttons: they are cut at the end for the frame before the icons */
  gtk_widget_measure (self->header_bar, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
  gtk_widget_allocate (self->header_bar, MAX (width, min), height, baseline, NULL);
  compact = wants_compact (self, width);
  if (compact != self->compact)
    {
      /* not while the window is being laid out */
      self->compact = compact;
      if (self->compact_idle_id == 0)
        self->compact_idle_id = g_idle_add (apply_compact_cb, self);
    }
}

void
tks_header_bar_fit_width (TksHeaderBar *self,
                          int           width)
{
  g_return_if_fail (TKS_IS_HEADER_BAR (self));

  if (wants_compact (self, width))
    {
      self->compact = TRUE;
      apply_compact_cb (self);
    }
}

void
tks_header_bar_set_subtitle (TksHeaderBar *self,
                             const char   *subtitle)
{
  g_return_if_fail (TKS_IS_HEADER_BAR (self));

  if (subtitle != NULL)
    gtk_label_set_text (self->subtitle_label, subtitle);
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), subtitle != NULL);
}

GtkMenuButton *
tks_header_bar_get_board_button (TksHeaderBar *self)
{
  g_return_val_if_fail (TKS_IS_HEADER_BAR (self), NULL);

  return self->board_button;
}

void
tks_header_bar_set_trigger_popover (TksHeaderBar *self,
                                    GtkPopover   *popover)
{
  g_return_if_fail (TKS_IS_HEADER_BAR (self));

  if (adw_split_button_get_popover (self->trigger_button) != popover)
    adw_split_button_set_popover (self->trigger_button, popover);
  /* without a menu the arrow offers nothing */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->trigger_button));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_MENU_BUTTON (child))
      gtk_widget_set_sensitive (child, popover != NULL);
}

GtkMenuButton *
tks_header_bar_get_menu_button (TksHeaderBar *self)
{
  g_return_val_if_fail (TKS_IS_HEADER_BAR (self), NULL);

  return self->menu_button;
}

void
tks_header_bar_set_recording (TksHeaderBar *self,
                              gboolean      recording)
{
  g_return_if_fail (TKS_IS_HEADER_BAR (self));

  recording = !!recording;
  if (self->recording == recording)
    return;
  self->recording = recording;
  gtk_button_set_icon_name (GTK_BUTTON (self->record_button),
                            recording ? "media-playback-stop-symbolic" : "media-record-symbolic");
  if (recording)
    gtk_widget_add_css_class (self->record_button, "destructive-action");
  else
    gtk_widget_remove_css_class (self->record_button, "destructive-action");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->record_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  recording ? _("Stop Recording") : _("Record"), -1);
}

GtkWidget *
tks_header_bar_get_record_button (TksHeaderBar *self)
{
  g_return_val_if_fail (TKS_IS_HEADER_BAR (self), NULL);

  return self->record_button;
}

GMenu *
tks_header_bar_get_recent_section (TksHeaderBar *self)
{
  g_return_val_if_fail (TKS_IS_HEADER_BAR (self), NULL);

  return self->recent_section;
}

GMenu *
tks_header_bar_get_history_section (TksHeaderBar *self)
{
  g_return_val_if_fail (TKS_IS_HEADER_BAR (self), NULL);

  return self->history_section;
}

static void
tks_header_bar_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  TksHeaderBar *self = TKS_HEADER_BAR (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, gtk_label_get_label (self->title_label));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_header_bar_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  TksHeaderBar *self = TKS_HEADER_BAR (object);
  const char *title;

  switch (prop_id)
    {
    case PROP_TITLE:
      title = g_value_get_string (value);
      if (g_strcmp0 (title, gtk_label_get_label (self->title_label)) == 0)
        break;
      gtk_label_set_label (self->title_label, title != NULL ? title : "");
      g_object_notify_by_pspec (object, pspec);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_header_bar_dispose (GObject *object)
{
  TksHeaderBar *self = TKS_HEADER_BAR (object);

  g_clear_handle_id (&self->compact_idle_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), TKS_TYPE_HEADER_BAR);

  G_OBJECT_CLASS (tks_header_bar_parent_class)->dispose (object);
}

static void
tks_header_bar_class_init (TksHeaderBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tks_header_bar_dispose;
  object_class->get_property = tks_header_bar_get_property;
  object_class->set_property = tks_header_bar_set_property;
  widget_class->measure = tks_header_bar_measure;
  widget_class->size_allocate = tks_header_bar_size_allocate;
  widget_class->root = tks_header_bar_root;

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (ADW_TYPE_SPLIT_BUTTON);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tickscope/Tickscope/ui/tks-header-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, TksHeaderBar, header_bar);
  gtk_widget_class_bind_template_child (widget_class, TksHeaderBar, title_label);
  gtk_widget_class_bind_template_child (widget_class, TksHeaderBar, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, TksHeaderBar, events_button);
  gtk_widget_class_bind_template_child (widget_class, TksHeaderBar, board_button);
  gtk_widget_class_bind_template_child (widget_class, TksHeaderBar, start_spacer);
  gtk_widget_class_bind_template_child (widget_class, TksHeaderBar, trigger_button);
  gtk_widget_class_bind_template_child (widget_class, TksHeaderBar, run_button);
  gtk_widget_class_bind_template_child (widget_class, TksHeaderBar, fetch_button);
  gtk_widget_class_bind_template_child (widget_class, TksHeaderBar, record_button);
  gtk_widget_class_bind_template_child (widget_class, TksHeaderBar, menu_button);
  gtk_widget_class_bind_template_child (widget_class, TksHeaderBar, recent_section);
  gtk_widget_class_bind_template_child (widget_class, TksHeaderBar, history_section);
}

static void
tks_header_bar_init (TksHeaderBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  name_trigger_parts (self);
  tks_header_bar_set_trigger_popover (self, NULL);
}
