/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tks-widget-text.h"

#define TEXT_KEY "tks-tooltip-text"

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip)
{
  const char *text = g_object_get_data (G_OBJECT (widget), TEXT_KEY);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

void
tks_widget_set_tooltip (GtkWidget  *widget,
                        const char *text)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (g_strcmp0 (g_object_get_data (G_OBJECT (widget), TEXT_KEY), text) == 0)
    return;
  if (!g_signal_handler_find (widget, G_SIGNAL_MATCH_FUNC, 0, 0, NULL, query_tooltip_cb, NULL))
    g_signal_connect (widget, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
  g_object_set_data_full (G_OBJECT (widget), TEXT_KEY, g_strdup (text), g_free);
  gtk_widget_set_has_tooltip (widget, text != NULL);
}

void
tks_inscription_set_text (GtkWidget  *inscription,
                          const char *text)
{
  g_return_if_fail (GTK_IS_INSCRIPTION (inscription));

  if (g_strcmp0 (gtk_inscription_get_text (GTK_INSCRIPTION (inscription)), text) == 0)
    return;
  gtk_inscription_set_text (GTK_INSCRIPTION (inscription), text);
  /* (GTK 4.8's inscriptions do not tell it themselves) */
  gtk_accessible_update_property (GTK_ACCESSIBLE (inscription), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  text != NULL ? text : "", -1);
}
