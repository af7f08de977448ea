/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Periods and deadlines, a page of the statistics window (tks-periods-page.h). */
#include "config.h"

#include <glib/gi18n.h>

#include "tks-periods.h"
#include "tks-periods-page.h"

struct _TksPeriodsPage
{
  GtkWidget   parent_instance;

  GtkWidget  *note;
  GtkWidget  *scroller;
  TksCapture *capture;
};

G_DEFINE_FINAL_TYPE (TksPeriodsPage, tks_periods_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_CAPTURE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GtkWidget *
cell (const char *text,
      gboolean    numeric)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1 : 0);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_focusable (label, FALSE);
  return label;
}

static char *
us_text (TksEvents *events,
         gint64     t)
{
  return g_strdup_printf ("%.1f", tks_events_to_us (events, t));
}

static void
show_clicked_cb (GtkButton *button,
                 gpointer   user_data)
{
  double *span = g_object_get_data (G_OBJECT (button), "span");
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (button));
  GtkWindow *parent = GTK_IS_WINDOW (root) ? gtk_window_get_transient_for (GTK_WINDOW (root)) : NULL;

  (void) user_data;
  if (parent != NULL && span != NULL)
    gtk_widget_activate_action (GTK_WIDGET (parent), "win.show-span", "(dd)", span[0], span[1]);
}

static void
refresh (TksPeriodsPage *self)
{
  TksEvents *events = self->capture != NULL ? tks_capture_get_events (self->capture) : NULL;
  const char *titles[] = {
    _("Thread"), _("Activations"), _("Period (µs)"), _("Interval min"), _("Interval max"),
    _("Interval P99"), _("Response min"), _("Response P99"), _("Response max"),
    /* Translators: activations whose response time exceeds the detected period */
    _("Deadline misses"), "",
  };
  g_autoptr(GArray) rows = NULL;
  GtkWidget *grid;

  if (events == NULL || tks_events_count (events, TKS_EVENT_READY) == 0)
    {
      gtk_label_set_text (GTK_LABEL (self->note),
                          _("Periods need wake-ups: record with the board's events (Ready entries)."));
      gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), NULL);
      return;
    }
  gtk_label_set_text (GTK_LABEL (self->note),
                      _("Over the whole capture. An activation runs from made ready to blocked "
                        "again; a period is the median interval when 90 % of the intervals lie "
                        "within 10 % of it. Deadline misses count responses longer than the "
                        "period (tickscope-cli stats --period sets another)."));
  grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (grid), 18);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  gtk_widget_set_margin_start (grid, 12);
  gtk_widget_set_margin_end (grid, 12);
  for (guint c = 0; c < G_N_ELEMENTS (titles); c++)
    {
      GtkWidget *h = cell (titles[c], c > 0);

      gtk_widget_add_css_class (h, "heading");
      gtk_grid_attach (GTK_GRID (grid), h, (int) c, 0, 1, 1);
    }
  rows = tks_periods_stats (events, NULL, 0, 0);
  for (guint i = 0; i < rows->len; i++)
    {
      const TksPeriodStats *r = &g_array_index (rows, TksPeriodStats, i);
      const TksThread *th = tks_capture_get_thread (self->capture, r->thread);
      gboolean some = r->activations > 1;
      char *texts[10] = {
        g_strdup (th->name != NULL ? th->name : "?"),
        g_strdup_printf ("%u", r->activations),
        r->periodic ? us_text (events, r->period) : g_strdup (_("aperiodic")),
        some ? us_text (events, r->interval_min) : g_strdup ("—"),
        some ? us_text (events, r->interval_max) : g_strdup ("—"),
        some ? us_text (events, r->interval_p99) : g_strdup ("—"),
        r->completed > 0 ? us_text (events, r->response_min) : g_strdup ("—"),
        r->completed > 0 ? us_text (events, r->response_p99) : g_strdup ("—"),
        r->completed > 0 ? us_text (events, r->response_max) : g_strdup ("—"),
        r->deadline > 0 ? g_strdup_printf ("%u", r->misses) : g_strdup ("—"),
      };

      for (guint c = 0; c < G_N_ELEMENTS (texts); c++)
        {
          gtk_grid_attach (GTK_GRID (grid), cell (texts[c], c > 0), (int) c, (int) i + 1, 1, 1);
          g_free (texts[c]);
        }
      if (r->worst != G_MAXUINT)
        {
          GtkWidget *button = gtk_button_new_with_label (_("Show longest"));
          double *span = g_new (double, 2);
          g_autofree char *label = g_strdup_printf (_("Show the longest response of %s on the timeline"),
                                                    th->name != NULL ? th->name : "?");

          span[0] = r->worst_ready.pos;
          span[1] = r->worst_end.pos;
          g_object_set_data_full (G_OBJECT (button), "span", span, g_free);
          gtk_widget_set_tooltip_text (button, label);
          gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                          GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
          gtk_widget_add_css_class (button, "flat");
          g_signal_connect (button, "clicked", G_CALLBACK (show_clicked_cb), NULL);
          gtk_grid_attach (GTK_GRID (grid), button, 10, (int) i + 1, 1, 1);
        }
    }
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), grid);
}

void
tks_periods_page_set_capture (TksPeriodsPage *self,
                              TksCapture     *capture)
{
  g_return_if_fail (TKS_IS_PERIODS_PAGE (self));

  if (g_set_object (&self->capture, capture))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAPTURE]);
  else if (capture != NULL)
    return;
  refresh (self);
}

GtkWidget *
tks_periods_page_new (void)
{
  return g_object_new (TKS_TYPE_PERIODS_PAGE, NULL);
}

static void
tks_periods_page_dispose (GObject *object)
{
  TksPeriodsPage *self = TKS_PERIODS_PAGE (object);
  GtkWidget *child;

  g_clear_object (&self->capture);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  gtk_widget_dispose_template (GTK_WIDGET (self), TKS_TYPE_PERIODS_PAGE);
  G_OBJECT_CLASS (tks_periods_page_parent_class)->dispose (object);
}

static void
tks_periods_page_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_CAPTURE:
      g_value_set_object (value, TKS_PERIODS_PAGE (object)->capture);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_periods_page_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_CAPTURE:
      tks_periods_page_set_capture (TKS_PERIODS_PAGE (object), g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_periods_page_class_init (TksPeriodsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tks_periods_page_dispose;
  object_class->get_property = tks_periods_page_get_property;
  object_class->set_property = tks_periods_page_set_property;
  properties[PROP_CAPTURE] =
    g_param_spec_object ("capture", NULL, NULL, TKS_TYPE_CAPTURE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tickscope/Tickscope/ui/tks-periods-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TksPeriodsPage, note);
  gtk_widget_class_bind_template_child (widget_class, TksPeriodsPage, scroller);
}

static void
tks_periods_page_init (TksPeriodsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  refresh (self);
}
