/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The cells of the statistics window's tables: labels for names and figures, the latency
 * histogram drawn as bars, and the columns of the tables of TksStatsLine. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tks-stats-columns.h"
#include "tks-stats-row.h"
#include "tks-time-format.h"

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

/* The text of a line's cell; @csv: a figure without its unit, none empty, the histogram's
 * buckets on one line. */
static char *
line_cell_text (TksStatsLine   *line,
                const CellSpec *spec,
                gboolean        csv)
{
  double v = tks_stats_line_get_value (line, spec->column);

  if (csv && spec->kind != TKS_STATS_CELL_NAME && spec->kind != TKS_STATS_CELL_HISTOGRAM
      && isnan (v))
    return g_strdup ("");
  switch (spec->kind)
    {
    case TKS_STATS_CELL_HISTOGRAM:
      {
        g_autofree char *text = describe_histogram (line);
        g_auto(GStrv) lines = NULL;
        char *nl = strchr (text, '\n');

        if (!csv)
          return g_steal_pointer (&text);
        /* the buckets only, "0 to 10 µs: 3; 10 to 20 µs: 1" */
        if (nl == NULL)
          return g_strdup ("");
        lines = g_strsplit (nl + 1, "\n", -1);
        return g_strjoinv ("; ", lines);
      }
    case TKS_STATS_CELL_NAME:
      return g_strdup (tks_stats_line_get_name (line));
    case TKS_STATS_CELL_COUNT:
      return tks_stats_format_number (v, 0, "");
    case TKS_STATS_CELL_US:
    case TKS_STATS_CELL_MS:
      return tks_stats_format_number (v, 3, "");
    case TKS_STATS_CELL_PERCENT:
      return tks_stats_format_number (v, 2, csv ? "" : " %");
    default:
      g_assert_not_reached ();
    }
}

static void
line_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              CellSpec                 *spec)
{
  TksStatsLine *line = gtk_list_item_get_item (item);
  GtkWidget *child = gtk_list_item_get_child (item);
  g_autofree char *text = line_cell_text (line, spec, FALSE);

  g_object_set_data (G_OBJECT (child), "tks-list-item", item);
  if (spec->kind == TKS_STATS_CELL_HISTOGRAM)
    {
      g_object_set_data_full (G_OBJECT (child), "line", g_object_ref (line), g_object_unref);
      gtk_widget_set_tooltip_text (child, text);
      gtk_accessible_update_property (GTK_ACCESSIBLE (child),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
      gtk_widget_queue_draw (child);
      return;
    }
  gtk_label_set_text (GTK_LABEL (child), text);
}

char *
tks_stats_row_cell_text (TksStatsRow *row,
                         const char  *prop,
                         double       ms_per_tick,
                         gboolean     csv)
{
  const TksThreadStats *stats = tks_stats_row_get_stats (row);
  gboolean logged = (stats->flags & TKS_THREAD_LOGGED) != 0;
  const char *none = csv ? "" : "—";
  double v = NAN;

  if (g_str_equal (prop, "name"))
    return g_strdup (tks_stats_row_get_name (row));
  if (g_str_equal (prop, "priority"))
    {
      int priority;

      g_object_get (row, "priority", &priority, NULL);
      return (stats->flags & TKS_THREAD_NOT_LISTED) ? g_strdup ("?") : g_strdup_printf ("%d", priority);
    }
  if (g_str_equal (prop, "marks"))
    /* Translators: the marks of a thread that is not logged; IN and OUT are their names in
     * the board's log */
    return logged ? g_strdup (none) : g_strdup_printf (_("%u IN, %u OUT"), stats->n_in_marks,
                                                       stats->n_out_marks);
  if (!logged)
    return g_strdup (none);
  if (g_str_equal (prop, "activations"))
    return g_strdup_printf ("%u", stats->activations);
  if (g_str_equal (prop, "share"))
    v = stats->share;
  else if (g_str_equal (prop, "run-time"))
    v = stats->run_time * ms_per_tick;
  else if (g_str_equal (prop, "min-run"))
    v = stats->min_run * ms_per_tick;
  else if (g_str_equal (prop, "mean-run"))
    v = stats->mean_run * ms_per_tick;
  else if (g_str_equal (prop, "max-run"))
    v = stats->max_run * ms_per_tick;
  else if (g_str_equal (prop, "longest-wait"))
    v = stats->longest_wait * ms_per_tick;
  if (csv && isnan (v))
    return g_strdup ("");
  if (g_str_equal (prop, "share"))
    return tks_stats_format_number (v, 2, csv ? "" : " %");
  return tks_stats_format_number (v, 3, "");
}

/* A field of a CSV file (RFC 4180): quoted when it holds a separator, a quote or a line. */
static void
append_csv_field (GString    *out,
                  const char *field,
                  gboolean    first)
{
  if (!first)
    g_string_append_c (out, ',');
  if (strpbrk (field, ",\"\r\n") == NULL)
    {
      g_string_append (out, field);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = field; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

char *
tks_stats_table_csv (GtkColumnView *view,
                     double         ms_per_tick)
{
  GListModel *columns = gtk_column_view_get_columns (view);
  GListModel *rows = G_LIST_MODEL (gtk_column_view_get_model (view));
  g_autoptr(GPtrArray) shown = g_ptr_array_new_with_free_func (g_object_unref);
  GString *out = g_string_new (NULL);

  for (guint c = 0; c < g_list_model_get_n_items (columns); c++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);

      if (gtk_column_view_column_get_visible (column))
        g_ptr_array_add (shown, g_steal_pointer (&column));
    }
  /* the titles, a share's with its unit: its figures go without it */
  for (guint c = 0; c < shown->len; c++)
    {
      GtkListItemFactory *factory = gtk_column_view_column_get_factory (shown->pdata[c]);
      const CellSpec *spec = g_object_get_data (G_OBJECT (factory), "spec");
      const char *prop = g_object_get_data (G_OBJECT (factory), "property");
      const char *title = gtk_column_view_column_get_title (shown->pdata[c]);
      g_autofree char *field = NULL;

      if ((spec != NULL && spec->kind == TKS_STATS_CELL_PERCENT)
          || (prop != NULL && g_str_equal (prop, "share")))
        /* Translators: a column's title, then its unit */
        field = g_strdup_printf (_("%s (%%)"), title);
      append_csv_field (out, field != NULL ? field : title, c == 0);
    }
  g_string_append (out, "\r\n");
  for (guint r = 0; rows != NULL && r < g_list_model_get_n_items (rows); r++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (rows, r);

      for (guint c = 0; c < shown->len; c++)
        {
          GtkListItemFactory *factory = gtk_column_view_column_get_factory (shown->pdata[c]);
          const CellSpec *spec = g_object_get_data (G_OBJECT (factory), "spec");
          const char *prop = g_object_get_data (G_OBJECT (factory), "property");
          g_autofree char *text = NULL;

          if (spec != NULL && TKS_IS_STATS_LINE (item))
            text = line_cell_text (TKS_STATS_LINE (item), spec, TRUE);
          else if (prop != NULL && TKS_IS_STATS_ROW (item))
            text = tks_stats_row_cell_text (TKS_STATS_ROW (item), prop, ms_per_tick, TRUE);
          append_csv_field (out, text != NULL ? text : "", c == 0);
        }
      g_string_append (out, "\r\n");
    }
  return g_string_free (out, FALSE);
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

/* The tables of the events' pages. */
void
tks_stats_add_event_columns (GtkColumnView *latency_view,
                             GListStore    *latency,
                             GtkColumnView *handlers_view,
                             GListStore    *handlers,
                             GtkColumnView *markers_view,
                             GListStore    *markers,
                             GtkColumnView *cpu_view,
                             GListStore    *cpu)
{
  const char *latency_titles[] = {
    _("Thread"), _("Wake-ups"), _("Still waiting"), _("Min (µs)"), _("Mean (µs)"),
    _("P50 (µs)"), _("P99 (µs)"), _("Max (µs)"), _("Histogram"),
  };
  const TksStatsCell latency_kinds[] = {
    TKS_STATS_CELL_NAME, TKS_STATS_CELL_COUNT, TKS_STATS_CELL_COUNT, TKS_STATS_CELL_US,
    TKS_STATS_CELL_US, TKS_STATS_CELL_US, TKS_STATS_CELL_US, TKS_STATS_CELL_US,
    TKS_STATS_CELL_HISTOGRAM,
  };
  const char *handler_titles[] = { _("Handler"), _("Count"), _("Total (µs)"), _("Longest (µs)") };
  const TksStatsCell handler_kinds[] = {
    TKS_STATS_CELL_NAME, TKS_STATS_CELL_COUNT, TKS_STATS_CELL_US, TKS_STATS_CELL_US,
  };
  const char *marker_titles[] = {
    _("Marker"), _("Count"), _("Shortest interval (µs)"), _("Mean interval (µs)"),
    _("Longest interval (µs)"),
  };
  const TksStatsCell marker_kinds[] = {
    TKS_STATS_CELL_NAME, TKS_STATS_CELL_COUNT, TKS_STATS_CELL_US, TKS_STATS_CELL_US,
    TKS_STATS_CELL_US,
  };
  const char *cpu_titles[] = { _("Thread"), _("Run time without handlers (ms)"), _("Share") };
  const TksStatsCell cpu_kinds[] = { TKS_STATS_CELL_NAME, TKS_STATS_CELL_MS, TKS_STATS_CELL_PERCENT };

  tks_stats_add_line_columns (latency_view, latency, latency_titles, latency_kinds,
                              G_N_ELEMENTS (latency_kinds));
  tks_stats_add_line_columns (handlers_view, handlers, handler_titles, handler_kinds,
                              G_N_ELEMENTS (handler_kinds));
  tks_stats_add_line_columns (markers_view, markers, marker_titles, marker_kinds,
                              G_N_ELEMENTS (marker_kinds));
  tks_stats_add_line_columns (cpu_view, cpu, cpu_titles, cpu_kinds,
                              G_N_ELEMENTS (cpu_kinds));
}

char *
tks_stats_summary_text (TksCapture           *capture,
                        const TksStatsTotals *totals,
                        double                tick_hz)
{
  /* times as the ruler counts them by default (from the trigger, else the capture's start),
   * then the ticks exactly, for tickscope-cli stats --from --to */
  double origin = tks_capture_get_start (capture);
  g_autofree char *a = NULL, *b = NULL, *ta = NULL, *tb = NULL, *length = NULL;

  tks_capture_get_trigger (capture, &origin);
  a = tks_time_format_us ((totals->from - origin) * 1e6 / tick_hz);
  b = tks_time_format_us ((totals->to - origin) * 1e6 / tick_hz);
  ta = tks_time_format_position (totals->from);
  tb = tks_time_format_position (totals->to);
  length = tks_time_format_us (totals->duration * 1e6 / tick_hz);
  /* Translators: the range the statistics cover (time first, then its ticks), its length,
   * then what it holds: the share of the range the log's runs of threads cover */
  return g_strdup_printf (_("From %s to %s (ticks %s to %s), %s: %u activations, "
                            "%.1f %% covered by runs in the log"),
                          a, b, ta, tb, length, totals->activations, totals->covered_share);
}
