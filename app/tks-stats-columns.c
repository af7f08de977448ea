/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The cells of the statistics window's tables: labels for names and figures, the latency
 * histogram drawn as bars, and the columns of the tables of TksStatsLine. */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tks-stats-columns.h"
#include "tks-stats-row.h"

/* What a column of a table of TksStatsLine shows. */
typedef struct
{
  TksStatsCell kind;
  guint        column;   /* index of the line's value */
} CellSpec;

GtkWidget *
tks_stats_cell_label_new (gboolean numeric)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1.0f : 0.0f);
  gtk_label_set_width_chars (GTK_LABEL (label), numeric ? 7 : 21);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  else
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  return label;
}

char *
tks_stats_format_number (double      v,
                         int         decimals,
                         const char *suffix)
{
  if (isnan (v))
    return g_strdup ("—");
  return g_strdup_printf ("%.*f%s", decimals, v, suffix);
}

void
tks_stats_append_column (GtkColumnView      *view,
                         const char         *title,
                         GtkListItemFactory *factory,
                         GtkSorter          *sorter,
                         gboolean            expand)
{
  GtkColumnViewColumn *column = gtk_column_view_column_new (title, factory);

  gtk_column_view_column_set_sorter (column, sorter);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_expand (column, expand);
  gtk_column_view_append_column (view, column);
  g_clear_object (&sorter);
  g_object_unref (column);
}

/* A histogram as a row of bars, the highest bucket full height, on a log scale. */
static void
draw_histogram (GtkDrawingArea *area,
                cairo_t        *cr,
                int             width,
                int             height,
                gpointer        data)
{
  TksStatsLine *line = g_object_get_data (G_OBJECT (area), "line");
  const guint *counts;
  guint n = 0, max = 0;
  GdkRGBA fg;
  double w;

  if (line == NULL || (counts = tks_stats_line_get_histogram (line, &n, NULL)) == NULL || n == 0)
    return;
  for (guint i = 0; i < n; i++)
    max = MAX (max, counts[i]);
  if (max == 0)
    return;

  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  gdk_cairo_set_source_rgba (cr, &fg);
  w = (double) width / n;
  for (guint i = 0; i < n; i++)
    if (counts[i] > 0)
      {
        /* on a log scale, so that a tail of a few long latencies shows next to thousands of
         * short ones; at least a pixel: a bucket that holds something shows */
        double h = MAX (1.0, (height - 2) * log1p (counts[i]) / log1p (max));

        cairo_rectangle (cr, i * w + 0.5, height - 1 - h, MAX (1.0, w - 1), h);
      }
  cairo_fill (cr);
}

static void
line_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               CellSpec                 *spec)
{
  if (spec->kind == TKS_STATS_CELL_HISTOGRAM)
    {
      GtkWidget *area = gtk_drawing_area_new ();

      gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (area), 6 * TKS_STATS_HISTOGRAM_BUCKETS);
      gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (area), 18);
      gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), draw_histogram, NULL, NULL);
      gtk_list_item_set_child (item, area);
      return;
    }
  gtk_list_item_set_child (item, tks_stats_cell_label_new (spec->kind != TKS_STATS_CELL_NAME));
}

/* The histogram's buckets in words, for its tooltip and accessible description. */
static char *
describe_histogram (TksStatsLine *line)
{
  double bucket = 0;
  guint n = 0;
  const guint *counts = tks_stats_line_get_histogram (line, &n, &bucket);
  GString *s;

  if (counts == NULL)
    return g_strdup (_("No wake-up"));
  /* Translators: the head of a latency histogram's description, then one bucket a line */
  s = g_string_new (NULL);
  g_string_printf (s, _("Wake-up latency in buckets of %g µs:"), bucket);
  for (guint i = 0; i < n; i++)
    if (counts[i] > 0)
      {
        g_string_append_c (s, '\n');
        if (i + 1 == n)
          g_string_append_printf (s, _("from %g µs: %u"), i * bucket, counts[i]);
        else
          g_string_append_printf (s, _("%g to %g µs: %u"), i * bucket, (i + 1) * bucket, counts[i]);
      }
  return g_string_free (s, FALSE);
}

static void
line_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              CellSpec                 *spec)
{
  TksStatsLine *line = gtk_list_item_get_item (item);
  GtkWidget *child = gtk_list_item_get_child (item);
  double v = tks_stats_line_get_value (line, spec->column);
  g_autofree char *text = NULL;

  switch (spec->kind)
    {
    case TKS_STATS_CELL_HISTOGRAM:
      text = describe_histogram (line);
      g_object_set_data_full (G_OBJECT (child), "line", g_object_ref (line), g_object_unref);
      gtk_widget_set_tooltip_text (child, text);
      gtk_accessible_update_property (GTK_ACCESSIBLE (child),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
      gtk_widget_queue_draw (child);
      return;
    case TKS_STATS_CELL_NAME:
      text = g_strdup (tks_stats_line_get_name (line));
      break;
    case TKS_STATS_CELL_COUNT:
      text = tks_stats_format_number (v, 0, "");
      break;
    case TKS_STATS_CELL_US:
    case TKS_STATS_CELL_MS:
      text = tks_stats_format_number (v, 3, "");
      break;
    case TKS_STATS_CELL_PERCENT:
      text = tks_stats_format_number (v, 2, " %");
      break;
    default:
      g_assert_not_reached ();
    }
  gtk_label_set_text (GTK_LABEL (child), text);
}

static int
compare_lines (gconstpointer a,
               gconstpointer b,
               gpointer      column)
{
  return tks_stats_line_compare ((TksStatsLine *) a, (TksStatsLine *) b, GPOINTER_TO_UINT (column));
}

/* The rows of @view: @store, sorted as its columns say, one of them selected. */
void
tks_stats_set_rows (GtkColumnView *view,
                    GListStore    *store)
{
  GtkSortListModel *sorted;
  GtkSelectionModel *selection;

  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (store)),
                                    g_object_ref (gtk_column_view_get_sorter (view)));
  selection = GTK_SELECTION_MODEL (gtk_single_selection_new (G_LIST_MODEL (sorted)));
  gtk_column_view_set_model (view, selection);
  g_object_unref (selection);
}

void
tks_stats_add_line_columns (GtkColumnView      *view,
                            GListStore         *store,
                            const char        **titles,
                            const TksStatsCell *kinds,
                            guint               n_columns)
{
  guint value = 0;

  for (guint i = 0; i < n_columns; i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      CellSpec *spec = g_new0 (CellSpec, 1);
      GtkSorter *sorter = NULL;

      spec->kind = kinds[i];
      spec->column = kinds[i] == TKS_STATS_CELL_NAME || kinds[i] == TKS_STATS_CELL_HISTOGRAM
                     ? G_MAXUINT : value++;
      g_object_set_data_full (G_OBJECT (factory), "spec", spec, g_free);
      g_signal_connect (factory, "setup", G_CALLBACK (line_setup_cb), spec);
      g_signal_connect (factory, "bind", G_CALLBACK (line_bind_cb), spec);
      if (kinds[i] != TKS_STATS_CELL_HISTOGRAM)
        sorter = GTK_SORTER (gtk_custom_sorter_new (compare_lines, GUINT_TO_POINTER (spec->column),
                                                    NULL));
      tks_stats_append_column (view, titles[i], factory, sorter, kinds[i] == TKS_STATS_CELL_NAME);
    }
  tks_stats_set_rows (view, store);
}
