/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The board popover: the port chooser (the serial ports present and the simulated board;
 * choosing one fills the port entry, which also takes a pty path or tcp:HOST:PORT;
 * double-clicking one connects), the line (baud rate, flow control), the tick rate and what
 * the board is doing. */
#include "config.h"

#include <glib/gi18n.h>

#include "tks-board-popover.h"

#define PORT_KEY "tks-port"

/* The flow-control dropdown's items, in the order of TksFlowControl, as GSettings names them. */
static const char * const flow_control_names[] = { "none", "xonxoff", "rtscts" };

struct _TksBoardPopover
{
  GtkPopover     parent_instance;

  /* template widgets */
  GtkEntry      *port_entry;
  GtkListBox    *ports_list;
  GtkDropDown   *flow_dropdown;
  GtkDropDown   *baud_dropdown;
  GtkStringList *baud_rates;
  GtkLabel      *board_label;
  GtkAdjustment *tick_adjustment;

  gboolean       syncing_port;
};

G_DEFINE_FINAL_TYPE (TksBoardPopover, tks_board_popover, GTK_TYPE_POPOVER)

enum {
  PROP_0,
  PROP_FLOW_CONTROL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  CONNECT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
connect_clicked_cb (TksBoardPopover *self)
{
  /* a copy: connecting writes the entry, which frees the text it held */
  g_autofree char *address = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->port_entry))));

  gtk_popover_popdown (GTK_POPOVER (self));
  g_signal_emit (self, signals[CONNECT], 0, address);
}

static GtkWidget *
port_row_new (const char *port,
              const char *title,
              const char *subtitle)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *label = gtk_label_new (title);
  g_autofree char *accessible_label = NULL;

  gtk_widget_set_margin_start (box, 8);
  gtk_widget_set_margin_end (box, 8);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  if (port != NULL)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  else
    {
      /* a note, not a port: no longer line than the rest of the popover */
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_add_css_class (label, "dim-label");
    }
  gtk_box_append (GTK_BOX (box), label);
  if (subtitle != NULL && *subtitle != '\0')
    {
      label = gtk_label_new (subtitle);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (GTK_BOX (box), label);
    }
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);

  if (port != NULL)
    g_object_set_data_full (G_OBJECT (row), PORT_KEY, g_strdup (port), g_free);
  else
    {
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
      gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (row), FALSE);
      gtk_widget_set_focusable (row, FALSE);
    }
  accessible_label = subtitle != NULL && *subtitle != '\0' ? g_strdup_printf ("%s, %s", title, subtitle)
                                                           : g_strdup (title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, accessible_label, -1);
  return row;
}

/* Selects the listed port the entry names, or none. */
static void
select_port_row (TksBoardPopover *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->port_entry));
  GtkListBoxRow *match = NULL;
  GtkListBoxRow *row;

  for (int i = 0; match == NULL && (row = gtk_list_box_get_row_at_index (self->ports_list, i)) != NULL; i++)
    if (g_strcmp0 (g_object_get_data (G_OBJECT (row), PORT_KEY), text) == 0)
      match = row;

  self->syncing_port = TRUE;
  if (match != NULL)
    gtk_list_box_select_row (self->ports_list, match);
  else
    gtk_list_box_unselect_all (self->ports_list);
  self->syncing_port = FALSE;
}

static char *
port_subtitle (const TksSerialPortInfo *info)
{
  g_autofree char *base = g_path_get_basename (info->name);
  const char *description = info->description;

  /* the kernel's name of a port without a product string says nothing new */
  if (description != NULL
      && (*description == '\0' || g_str_equal (description, info->name) || g_str_equal (description, base)))
    description = NULL;
  if (info->usb_vid >= 0 && info->usb_pid >= 0)
    {
      if (description != NULL)
        /* Translators: a serial port's description, then its USB vendor and product ids */
        return g_strdup_printf (_("%s, USB %04x:%04x"), description, info->usb_vid, info->usb_pid);
      /* Translators: a serial port's USB vendor and product ids */
      return g_strdup_printf (_("USB %04x:%04x"), info->usb_vid, info->usb_pid);
    }
  return g_strdup (description);
}

static void
refresh_ports (TksBoardPopover *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) ports = NULL;
  GtkListBoxRow *row;

  self->syncing_port = TRUE;
  while ((row = gtk_list_box_get_row_at_index (self->ports_list, 0)) != NULL)
    gtk_list_box_remove (self->ports_list, GTK_WIDGET (row));
  self->syncing_port = FALSE;

  ports = tks_serial_list_ports (&error);
  if (ports == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not list the serial ports: %s"), error->message);
      gtk_list_box_append (self->ports_list, port_row_new (NULL, message, NULL));
    }
  else if (ports->len == 0)
    gtk_list_box_append (self->ports_list, port_row_new (NULL, _("No serial ports found"), NULL));
  for (guint i = 0; ports != NULL && i < ports->len; i++)
    {
      const TksSerialPortInfo *info = g_ptr_array_index (ports, i);
      g_autofree char *subtitle = port_subtitle (info);

      gtk_list_box_append (self->ports_list, port_row_new (info->name, info->name, subtitle));
    }
  if (tks_transport_has_demo ())
    gtk_list_box_append (self->ports_list,
                         port_row_new ("demo", "demo", _("Simulated board in this program")));
  select_port_row (self);
}

static void
board_popover_show_cb (TksBoardPopover *self)
{
  refresh_ports (self);
}

static void
refresh_ports_clicked_cb (TksBoardPopover *self)
{
  refresh_ports (self);
}

static void
port_row_selected_cb (TksBoardPopover *self,
                      GtkListBoxRow   *row,
                      GtkListBox      *list)
{
  const char *port;

  if (self->syncing_port || row == NULL)
    return;
  port = g_object_get_data (G_OBJECT (row), PORT_KEY);
  if (port == NULL)
    return;
  self->syncing_port = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->port_entry), port);
  gtk_editable_set_position (GTK_EDITABLE (self->port_entry), -1);
  self->syncing_port = FALSE;
}

static void
port_row_activated_cb (TksBoardPopover *self,
                       GtkListBoxRow   *row,
                       GtkListBox      *list)
{
  const char *port = g_object_get_data (G_OBJECT (row), PORT_KEY);

  if (port == NULL)
    return;
  self->syncing_port = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->port_entry), port);
  self->syncing_port = FALSE;
  connect_clicked_cb (self);
}

static void
port_entry_changed_cb (TksBoardPopover *self)
{
  if (!self->syncing_port)
    select_port_row (self);
}

static void
flow_control_changed_cb (TksBoardPopover *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FLOW_CONTROL]);
}

const char *
tks_board_popover_get_port (TksBoardPopover *self)
{
  g_return_val_if_fail (TKS_IS_BOARD_POPOVER (self), NULL);
  return gtk_editable_get_text (GTK_EDITABLE (self->port_entry));
}

void
tks_board_popover_set_port (TksBoardPopover *self,
                            const char      *port)
{
  g_return_if_fail (TKS_IS_BOARD_POPOVER (self));
  gtk_editable_set_text (GTK_EDITABLE (self->port_entry), port != NULL ? port : "");
}

/* The baud rates offered: the standard ones; another one given (--baud, the settings) joins
 * the list in its place. */
static const guint standard_bauds[] = {
  1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600,
  1000000, 2000000, 3000000, 4000000,
};

#define BAUD_MIN 300
#define BAUD_MAX 4000000
#define BAUD_DEFAULT 115200

static guint
baud_at (TksBoardPopover *self,
         guint            position)
{
  const char *text = gtk_string_list_get_string (self->baud_rates, position);

  return text != NULL ? (guint) g_ascii_strtoull (text, NULL, 10) : 0;
}

guint
tks_board_popover_get_baud (TksBoardPopover *self)
{
  guint baud;

  g_return_val_if_fail (TKS_IS_BOARD_POPOVER (self), 0);
  baud = baud_at (self, gtk_drop_down_get_selected (self->baud_dropdown));
  return baud != 0 ? baud : BAUD_DEFAULT;
}

void
tks_board_popover_set_baud (TksBoardPopover *self,
                            guint            baud)
{
  guint n, i;

  g_return_if_fail (TKS_IS_BOARD_POPOVER (self));
  if (baud < BAUD_MIN || baud > BAUD_MAX)
    baud = BAUD_DEFAULT;
  n = g_list_model_get_n_items (G_LIST_MODEL (self->baud_rates));
  for (i = 0; i < n && baud_at (self, i) < baud; i++)
    ;
  if (i == n || baud_at (self, i) != baud)
    {
      g_autofree char *text = g_strdup_printf ("%u", baud);
      const char * const add[] = { text, NULL };

      gtk_string_list_splice (self->baud_rates, i, 0, add);
    }
  gtk_drop_down_set_selected (self->baud_dropdown, i);
}

TksFlowControl
tks_board_popover_get_flow_control (TksBoardPopover *self)
{
  guint flow;

  g_return_val_if_fail (TKS_IS_BOARD_POPOVER (self), TKS_FLOW_NONE);
  flow = gtk_drop_down_get_selected (self->flow_dropdown);
  return flow <= TKS_FLOW_RTSCTS ? flow : TKS_FLOW_NONE;
}

const char *
tks_board_popover_get_flow_control_name (TksBoardPopover *self)
{
  guint flow;

  g_return_val_if_fail (TKS_IS_BOARD_POPOVER (self), NULL);
  flow = gtk_drop_down_get_selected (self->flow_dropdown);
  return flow < G_N_ELEMENTS (flow_control_names) ? flow_control_names[flow] : NULL;
}

gboolean
tks_board_popover_set_flow_control (TksBoardPopover *self,
                                    const char      *name)
{
  g_return_val_if_fail (TKS_IS_BOARD_POPOVER (self), FALSE);

  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (flow_control_names); i++)
    if (g_str_equal (name, flow_control_names[i]))
      {
        gtk_drop_down_set_selected (self->flow_dropdown, i);
        return TRUE;
      }
  return FALSE;
}

gboolean
tks_board_popover_set_line (TksBoardPopover *self,
                            guint            baud,
                            const char      *flow)
{
  int flow_index = -1;

  g_return_val_if_fail (TKS_IS_BOARD_POPOVER (self), FALSE);

  if (baud != 0 && (baud < BAUD_MIN || baud > BAUD_MAX))
    return FALSE;
  for (guint i = 0; flow != NULL && i < G_N_ELEMENTS (flow_control_names); i++)
    if (g_str_equal (flow, flow_control_names[i]))
      flow_index = (int) i;
  if (flow != NULL && flow_index < 0)
    return FALSE;

  if (baud != 0)
    tks_board_popover_set_baud (self, baud);
  if (flow_index >= 0)
    gtk_drop_down_set_selected (self->flow_dropdown, (guint) flow_index);
  return TRUE;
}

GtkAdjustment *
tks_board_popover_get_tick_adjustment (TksBoardPopover *self)
{
  g_return_val_if_fail (TKS_IS_BOARD_POPOVER (self), NULL);
  return self->tick_adjustment;
}

void
tks_board_popover_set_status (TksBoardPopover *self,
                              const char      *text)
{
  g_return_if_fail (TKS_IS_BOARD_POPOVER (self));
  gtk_label_set_text (self->board_label, text);
}

static void
tks_board_popover_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TksBoardPopover *self = TKS_BOARD_POPOVER (object);

  switch (prop_id)
    {
    case PROP_FLOW_CONTROL:
      g_value_set_string (value, tks_board_popover_get_flow_control_name (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_board_popover_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  TksBoardPopover *self = TKS_BOARD_POPOVER (object);

  switch (prop_id)
    {
    case PROP_FLOW_CONTROL:
      tks_board_popover_set_flow_control (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_board_popover_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), TKS_TYPE_BOARD_POPOVER);

  G_OBJECT_CLASS (tks_board_popover_parent_class)->dispose (object);
}

static void
tks_board_popover_class_init (TksBoardPopoverClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tks_board_popover_dispose;
  object_class->get_property = tks_board_popover_get_property;
  object_class->set_property = tks_board_popover_set_property;

  properties[PROP_FLOW_CONTROL] =
    g_param_spec_string ("flow-control", NULL, NULL, "none",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* ::connect (address): Connect, or a double-click on a listed port */
  signals[CONNECT] = g_signal_new ("connect", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/tickscope/Tickscope/ui/tks-board-popover.ui");
  gtk_widget_class_bind_template_child (widget_class, TksBoardPopover, port_entry);
  gtk_widget_class_bind_template_child (widget_class, TksBoardPopover, ports_list);
  gtk_widget_class_bind_template_child (widget_class, TksBoardPopover, flow_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TksBoardPopover, baud_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TksBoardPopover, baud_rates);
  gtk_widget_class_bind_template_child (widget_class, TksBoardPopover, board_label);
  gtk_widget_class_bind_template_child (widget_class, TksBoardPopover, tick_adjustment);
  gtk_widget_class_bind_template_callback (widget_class, connect_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, board_popover_show_cb);
  gtk_widget_class_bind_template_callback (widget_class, refresh_ports_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, port_row_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, port_row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, port_entry_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, flow_control_changed_cb);
}

static void
tks_board_popover_init (TksBoardPopover *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_label_set_text (self->board_label, _("Not connected."));
  for (guint i = 0; i < G_N_ELEMENTS (standard_bauds); i++)
    {
      g_autofree char *text = g_strdup_printf ("%u", standard_bauds[i]);

      gtk_string_list_append (self->baud_rates, text);
    }
  tks_board_popover_set_baud (self, BAUD_DEFAULT);
}
