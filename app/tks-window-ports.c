/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The board popover's controls: the port chooser (the serial ports present and the
 * simulated board; choosing one fills the port entry, which also takes a pty path or
 * tcp:HOST:PORT; double-clicking one connects) and the line (baud rate, flow control). */
#include "config.h"

#include <glib/gi18n.h>

#include "tks-transport.h"
#include "tks-window-private.h"

#define PORT_KEY "tks-port"

/* The flow-control dropdown's items, in the order of TksFlowControl, as GSettings names them. */
static const char * const flow_control_names[] = { "none", "xonxoff", "rtscts" };

gboolean
tks_window_set_line (TksWindow  *self,
                     guint       baud,
                     const char *flow)
{
  GtkAdjustment *range;
  int flow_index = -1;

  g_return_val_if_fail (TKS_IS_WINDOW (self), FALSE);

  range = gtk_spin_button_get_adjustment (self->baud_spin);
  if (baud != 0 && (baud < gtk_adjustment_get_lower (range) || baud > gtk_adjustment_get_upper (range)))
    return FALSE;
  for (guint i = 0; flow != NULL && i < G_N_ELEMENTS (flow_control_names); i++)
    if (g_str_equal (flow, flow_control_names[i]))
      flow_index = (int) i;
  if (flow != NULL && flow_index < 0)
    return FALSE;

  if (baud != 0)
    gtk_spin_button_set_value (self->baud_spin, baud);
  if (flow_index >= 0)
    gtk_drop_down_set_selected (self->flow_dropdown, (guint) flow_index);
  return TRUE;
}

static void
connect_clicked_cb (TksWindow *self)
{
  /* a copy: connecting writes the entry, which frees the text it held */
  g_autofree char *address = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->port_entry))));

  gtk_menu_button_popdown (self->board_button);
  if (*address == '\0')
    {
      tks_window_show_error (self, _("Type a port (for example /dev/ttyACM0), tcp:HOST:PORT or demo."));
      return;
    }
  tks_window_connect (self, address);
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
select_port_row (TksWindow *self)
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
refresh_ports (TksWindow *self)
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
board_popover_show_cb (TksWindow *self)
{
  refresh_ports (self);
}

static void
refresh_ports_clicked_cb (TksWindow *self)
{
  refresh_ports (self);
}

static void
port_row_selected_cb (TksWindow     *self,
                      GtkListBoxRow *row,
                      GtkListBox    *list)
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
port_row_activated_cb (TksWindow     *self,
                       GtkListBoxRow *row,
                       GtkListBox    *list)
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
port_entry_changed_cb (TksWindow *self)
{
  if (!self->syncing_port)
    select_port_row (self);
}

static void
flow_control_changed_cb (TksWindow *self)
{
  GSettings *settings = _tks_window_get_settings (self);
  guint flow = gtk_drop_down_get_selected (self->flow_dropdown);

  if (_tks_window_settings_has_key (settings, "flow-control") && flow < G_N_ELEMENTS (flow_control_names))
    {
      g_autofree char *saved = g_settings_get_string (settings, "flow-control");

      if (g_strcmp0 (saved, flow_control_names[flow]) != 0)
        g_settings_set_string (settings, "flow-control", flow_control_names[flow]);
    }
}

void
_tks_window_ports_load_settings (TksWindow *self,
                                 GSettings *settings)
{
  g_autofree char *port = NULL;
  g_autofree char *flow = NULL;

  port = g_settings_get_string (settings, "last-port");
  gtk_editable_set_text (GTK_EDITABLE (self->port_entry), port);
  gtk_spin_button_set_value (self->baud_spin, g_settings_get_uint (settings, "baud"));
  if (_tks_window_settings_has_key (settings, "flow-control"))
    {
      flow = g_settings_get_string (settings, "flow-control");
      for (guint i = 0; i < G_N_ELEMENTS (flow_control_names); i++)
        if (g_str_equal (flow, flow_control_names[i]))
          gtk_drop_down_set_selected (self->flow_dropdown, i);
    }
}

void
_tks_window_ports_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, connect_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, board_popover_show_cb);
  gtk_widget_class_bind_template_callback (widget_class, refresh_ports_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, port_row_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, port_row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, port_entry_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, flow_control_changed_cb);
}
