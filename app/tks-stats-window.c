/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tks-stats-window.h"
#include "tks-stats-row.h"

struct _TksStatsWindow
{
  GtkWindow       parent_instance;

  TksCapture     *capture;
  double          t0;
  double          t1;

  GListStore     *store;
  GtkColumnView  *column_view;
  GtkCheckButton *visible_only;
  GtkLabel       *summary;
};

G_DEFINE_FINAL_TYPE (TksStatsWindow, tks_stats_window, GTK_TYPE_WINDOW)

static void
refresh (TksStatsWindow *self)
{
  const guint *lanes;
  guint n = 0, i;
  double t0, t1;
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  if (self->capture == NULL)
    {
      g_list_store_remove_all (self->store);
      gtk_label_set_text (self->summary, _("No capture"));
      return;
    }

  if (gtk_check_button_get_active (self->visible_only) && self->t1 > self->t0)
    {
      t0 = self->t0;
      t1 = self->t1;
    }
  else
    {
      t0 = tks_capture_get_start (self->capture);
      /* Past the log's end nothing is known. */
      t1 = tks_capture_get_log_end (self->capture, NULL);
    }

  /* Threads that exited before the log began did not run in it: not listed. */
  lanes = tks_capture_get_shown_lanes (self->capture, FALSE, &n);
  for (i = 0; i < n; i++)
    {
      const TksThread *thread = tks_capture_get_thread (self->capture, lanes[i]);
      TksThreadStats stats;

      if (thread == NULL)
        continue;
      tks_thread_stats_compute (thread, t0, t1, &stats);
      g_ptr_array_add (rows, tks_stats_row_new (thread, i, &stats));
    }
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       rows->pdata, rows->len);

  /* Translators: the range the statistics cover */
  text = g_strdup_printf (_("From %.3f to %.3f (%.3f ticks)"), t0, t1, t1 - t0);
  gtk_label_set_text (self->summary, text);
}

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          gpointer                  data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), GPOINTER_TO_INT (data) ? 1.0f : 0.0f);
  if (GPOINTER_TO_INT (data))
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static char *
format_ticks (double v)
{
  if (isnan (v))
    return g_strdup ("—");
  return g_strdup_printf ("%.3f", v);
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *item,
         gpointer                  data)
{
  TksStatsRow *row = gtk_list_item_get_item (item);
  const TksThreadStats *stats = tks_stats_row_get_stats (row);
  const char *prop = g_object_get_data (G_OBJECT (factory), "property");
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  g_autofree char *text = NULL;

  if (g_str_equal (prop, "name"))
    text = g_strdup (tks_stats_row_get_name (row));
  else if (g_str_equal (prop, "priority"))
    {
      int priority;
      g_object_get (row, "priority", &priority, NULL);
      text = g_strdup_printf ("%d", priority);
    }
  else if (g_str_equal (prop, "activations"))
    text = g_strdup_printf ("%u", stats->activations);
  else if (g_str_equal (prop, "run-time"))
    text = format_ticks (stats->run_time);
  else if (g_str_equal (prop, "share"))
    text = isnan (stats->share) ? g_strdup ("—") : g_strdup_printf ("%.2f %%", stats->share);
  else if (g_str_equal (prop, "max-run"))
    text = format_ticks (stats->max_run);
  else if (g_str_equal (prop, "mean-run"))
    text = format_ticks (stats->mean_run);
  else if (g_str_equal (prop, "longest-wait"))
    text = format_ticks (stats->longest_wait);
  gtk_label_set_text (label, text);
}

static void
add_column (TksStatsWindow *self,
            const char     *title,
            const char     *property,
            gboolean        numeric)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column;
  GtkExpression *expression;
  GtkSorter *sorter;

  g_object_set_data (G_OBJECT (factory), "property", (gpointer)property);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), GINT_TO_POINTER (numeric));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), NULL);

  expression = gtk_property_expression_new (TKS_TYPE_STATS_ROW, NULL, property);
  if (numeric)
    sorter = GTK_SORTER (gtk_numeric_sorter_new (expression));
  else
    sorter = GTK_SORTER (gtk_string_sorter_new (expression));

  column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_sorter (column, sorter);
  gtk_column_view_column_set_resizable (column, TRUE);
  if (!numeric)
    gtk_column_view_column_set_expand (column, TRUE);
  gtk_column_view_append_column (self->column_view, column);
  g_object_unref (sorter);
  g_object_unref (column);
}

static void
tks_stats_window_dispose (GObject *object)
{
  TksStatsWindow *self = TKS_STATS_WINDOW (object);

  g_clear_object (&self->capture);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (tks_stats_window_parent_class)->dispose (object);
}

static void
tks_stats_window_class_init (TksStatsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tks_stats_window_dispose;
  /* a secondary window closes with Escape or Ctrl+W */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
}

static void
tks_stats_window_init (TksStatsWindow *self)
{
  GtkWidget *box, *bar, *scroller;
  GtkSortListModel *sorted;
  GtkSelectionModel *selection;
  GtkColumnViewColumn *share;

  gtk_window_set_title (GTK_WINDOW (self), _("Statistics"));
  gtk_window_set_default_size (GTK_WINDOW (self), 720, 420);
  gtk_window_set_hide_on_close (GTK_WINDOW (self), FALSE);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_set_margin_start (bar, 12);
  gtk_widget_set_margin_end (bar, 12);
  gtk_widget_set_margin_top (bar, 6);
  gtk_widget_set_margin_bottom (bar, 6);
  self->visible_only = GTK_CHECK_BUTTON (gtk_check_button_new_with_mnemonic (_("_Visible range only")));
  g_signal_connect_swapped (self->visible_only, "toggled", G_CALLBACK (refresh), self);
  self->summary = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->summary, 1);
  gtk_widget_set_hexpand (GTK_WIDGET (self->summary), TRUE);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->visible_only));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->summary));
  gtk_box_append (GTK_BOX (box), bar);

  self->store = g_list_store_new (TKS_TYPE_STATS_ROW);
  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->column_view, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->column_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Per-thread statistics"), -1);
  add_column (self, _("Thread"), "name", FALSE);
  add_column (self, _("Priority"), "priority", TRUE);
  add_column (self, _("Activations"), "activations", TRUE);
  add_column (self, _("Run time (ticks)"), "run-time", TRUE);
  add_column (self, _("Share"), "share", TRUE);
  add_column (self, _("Longest run"), "max-run", TRUE);
  add_column (self, _("Mean run"), "mean-run", TRUE);
  add_column (self, _("Longest wait"), "longest-wait", TRUE);

  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                    g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  selection = GTK_SELECTION_MODEL (gtk_single_selection_new (G_LIST_MODEL (sorted)));
  gtk_column_view_set_model (self->column_view, selection);
  g_object_unref (selection);

  /* busiest first */
  share = g_list_model_get_item (gtk_column_view_get_columns (self->column_view), 4);
  gtk_column_view_sort_by_column (self->column_view, share, GTK_SORT_DESCENDING);
  g_object_unref (share);

  scroller = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->column_view));
  gtk_box_append (GTK_BOX (box), scroller);
  gtk_window_set_child (GTK_WINDOW (self), box);
}

GtkWidget *
tks_stats_window_new (GtkWindow *parent)
{
  return g_object_new (TKS_TYPE_STATS_WINDOW,
                       "transient-for", parent,
                       NULL);
}

void
tks_stats_window_set_capture (TksStatsWindow *self,
                              TksCapture     *capture)
{
  g_return_if_fail (TKS_IS_STATS_WINDOW (self));

  g_set_object (&self->capture, capture);
  refresh (self);
}

void
tks_stats_window_set_range (TksStatsWindow *self,
                            double          visible_start,
                            double          visible_end)
{
  g_return_if_fail (TKS_IS_STATS_WINDOW (self));

  if (self->t0 == visible_start && self->t1 == visible_end)
    return;
  self->t0 = visible_start;
  self->t1 = visible_end;
  if (gtk_check_button_get_active (self->visible_only))
    refresh (self);
}
