/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tks-events.h"
#include "tks-stats.h"
#include "tks-periods-page.h"
#include "tks-stats-window.h"
#include "tks-stats-row.h"

/* The events' tables: what each column of a TksStatsLine holds. */
typedef enum
{
  CELL_NAME,
  CELL_COUNT,
  CELL_US,
  CELL_MS,
  CELL_PERCENT,
  CELL_HISTOGRAM,
} CellKind;

typedef struct
{
  CellKind kind;
  guint    column;   /* index of the line's value */
} CellSpec;

#define HISTOGRAM_BUCKETS 16

struct _TksStatsWindow
{
  GtkWindow        parent_instance;

  TksCapture      *capture;
  double           tick_hz;
  double           visible[2];
  double           marks[2];
  double           run[2];
  TksStatsRange    mode;

  GtkToggleButton *range_buttons[TKS_N_STATS_RANGES];
  GtkWidget       *zoom_button;
  GtkLabel        *summary;
  GtkWidget       *switcher;
  GtkStack        *stack;

  GListStore      *threads;
  GtkColumnView   *threads_view;
  GListStore      *latency;
  GListStore      *handlers;
  GListStore      *markers;
  GListStore      *cpu;
  TksPeriodsPage  *periods;
};

G_DEFINE_FINAL_TYPE (TksStatsWindow, tks_stats_window, GTK_TYPE_WINDOW)

static double
effective_tick_hz (TksStatsWindow *self)
{
  double hz = self->tick_hz > 0 ? self->tick_hz : tks_capture_get_tick_hz (self->capture);

  return hz > 0 ? hz : 1000;
}

static gboolean
range_available (TksStatsWindow *self,
                 TksStatsRange   mode)
{
  switch (mode)
    {
    case TKS_STATS_RANGE_VISIBLE:
      return self->visible[1] > self->visible[0];
    case TKS_STATS_RANGE_MARKS:
      return !isnan (self->marks[0]) && !isnan (self->marks[1]) && self->marks[0] != self->marks[1];
    case TKS_STATS_RANGE_RUN:
      return !isnan (self->run[0]) && self->run[1] > self->run[0];
    case TKS_STATS_RANGE_WHOLE:
    case TKS_N_STATS_RANGES:
    default:
      return TRUE;
    }
}

/* The range of @mode; NAN, NAN: the whole capture. */
static void
get_range (TksStatsWindow *self,
           double         *from,
           double         *to)
{
  *from = NAN;
  *to = NAN;
  switch (self->mode)
    {
    case TKS_STATS_RANGE_VISIBLE:
      *from = self->visible[0];
      *to = self->visible[1];
      break;
    case TKS_STATS_RANGE_MARKS:
      *from = MIN (self->marks[0], self->marks[1]);
      *to = MAX (self->marks[0], self->marks[1]);
      break;
    case TKS_STATS_RANGE_RUN:
      *from = self->run[0];
      *to = self->run[1];
      break;
    case TKS_STATS_RANGE_WHOLE:
    case TKS_N_STATS_RANGES:
    default:
      break;
    }
}

static void
clear_stores (TksStatsWindow *self)
{
  g_list_store_remove_all (self->threads);
  g_list_store_remove_all (self->latency);
  g_list_store_remove_all (self->handlers);
  g_list_store_remove_all (self->markers);
  g_list_store_remove_all (self->cpu);
}

static void
store_lines (GListStore *store,
             GPtrArray  *lines)
{
  g_list_store_splice (store, 0, g_list_model_get_n_items (G_LIST_MODEL (store)),
                       lines->pdata, lines->len);
}

static char *
thread_name (TksCapture *capture,
             guint       index)
{
  const TksThread *thread = tks_capture_get_thread (capture, index);

  if (thread == NULL)
    return g_strdup ("?");
  if (thread->name == NULL || thread->name[0] == '\0')
    return g_strdup_printf (_("thread %d"), thread->number);
  return g_strdup (thread->name);
}

/* A bucket width that puts @max in the histogram's buckets: 1, 2 or 5 times a power of ten. */
static double
nice_bucket (double max)
{
  double target = MAX (max / HISTOGRAM_BUCKETS, 1e-3);
  double p = pow (10, floor (log10 (target)));

  if (p >= target)
    return p;
  if (2 * p >= target)
    return 2 * p;
  if (5 * p >= target)
    return 5 * p;
  return 10 * p;
}

static void
refresh_events (TksStatsWindow *self,
                TksEvents      *events,
                double          from,
                double          to)
{
  g_autoptr(GArray) latency = tks_events_latency_stats (events, from, to);
  g_autoptr(GArray) handlers = tks_events_handler_stats (events, from, to);
  g_autoptr(GArray) markers = tks_events_marker_stats (events, from, to);
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_object_unref);
  double ms_per_tick = 1000.0 / effective_tick_hz (self);
  double span = to - from;
  double t;
  const guint *lanes;
  guint n_lanes = 0;

  for (guint i = 0; i < latency->len; i++)
    {
      const TksLatencyStats *s = &g_array_index (latency, TksLatencyStats, i);
      double values[] = { s->count, s->n_open, s->min_us, s->mean_us, s->p50_us, s->p99_us,
                          s->max_us };
      g_autofree char *name = thread_name (self->capture, s->thread);
      TksStatsLine *line = tks_stats_line_new (name, values, G_N_ELEMENTS (values));

      if (s->count > 0)
        {
          double bucket = nice_bucket (s->max_us);
          g_autofree guint *counts = tks_events_latency_histogram (events, s->thread, from, to,
                                                                    bucket, HISTOGRAM_BUCKETS);

          tks_stats_line_set_histogram (line, counts, HISTOGRAM_BUCKETS, bucket);
        }
      g_ptr_array_add (lines, line);
    }
  store_lines (self->latency, lines);
  g_ptr_array_set_size (lines, 0);

  for (guint i = 0; i < handlers->len; i++)
    {
      const TksHandlerStats *s = &g_array_index (handlers, TksHandlerStats, i);
      double values[] = { s->count, s->total_us, s->longest_us };

      g_ptr_array_add (lines, tks_stats_line_new (s->track->name, values, G_N_ELEMENTS (values)));
    }
  store_lines (self->handlers, lines);
  g_ptr_array_set_size (lines, 0);

  for (guint i = 0; i < markers->len; i++)
    {
      const TksMarkerStats *s = &g_array_index (markers, TksMarkerStats, i);
      double values[] = { s->count, s->min_interval_us, s->mean_interval_us, s->max_interval_us };

      g_ptr_array_add (lines, tks_stats_line_new (s->track->name, values, G_N_ELEMENTS (values)));
    }
  store_lines (self->markers, lines);
  g_ptr_array_set_size (lines, 0);

  lanes = tks_capture_get_shown_lanes (self->capture, FALSE, &n_lanes);
  for (guint l = 0; l < n_lanes; l++)
    {
      const TksThread *thread = tks_capture_get_thread (self->capture, lanes[l]);
      double values[2];

      if (thread == NULL || !(thread->flags & TKS_THREAD_LOGGED))
        continue;
      t = tks_events_thread_time_without_irqs (events, thread, from, to);
      values[0] = t * ms_per_tick;
      values[1] = span > 0 ? 100 * t / span : 0;
      g_ptr_array_add (lines, tks_stats_line_new (thread->name, values, 2));
    }
  t = tks_events_irq_time (events, from, to);
  g_ptr_array_add (lines, tks_stats_line_new (_("(interrupt handlers)"),
                                              (double[]) { t * ms_per_tick,
                                                           span > 0 ? 100 * t / span : 0 }, 2));
  t = tks_events_sleep_time (events, from, to);
  g_ptr_array_add (lines, tks_stats_line_new (_("(CPU asleep)"),
                                              (double[]) { t * ms_per_tick,
                                                           span > 0 ? 100 * t / span : 0 }, 2));
  store_lines (self->cpu, lines);
}

/* The events' pages and their switcher, only for a capture with events. */
static void
show_event_pages (TksStatsWindow *self,
                  gboolean        show)
{
  const char *pages[] = { "latency", "handlers", "markers", "cpu", "periods" };

  if (!show)
    gtk_stack_set_visible_child_name (self->stack, "threads");
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    gtk_widget_set_visible (gtk_stack_get_child_by_name (self->stack, pages[i]), show);
  gtk_widget_set_visible (self->switcher, show);
}

static void
refresh (TksStatsWindow *self)
{
  g_autoptr(GArray) stats = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *text = NULL;
  TksStatsTotals totals;
  TksEvents *events;
  const guint *lanes;
  guint n = 0;
  double from, to, ms_per_tick;

  for (guint i = 0; i < TKS_N_STATS_RANGES; i++)
    gtk_widget_set_sensitive (GTK_WIDGET (self->range_buttons[i]),
                              self->capture != NULL && range_available (self, i));
  gtk_widget_set_sensitive (self->zoom_button,
                            self->capture != NULL && range_available (self, TKS_STATS_RANGE_MARKS));

  if (self->capture == NULL)
    {
      clear_stores (self);
      show_event_pages (self, FALSE);
      gtk_label_set_text (self->summary, _("No capture"));
      return;
    }

  events = tks_capture_get_events (self->capture);
  show_event_pages (self, events != NULL);
  tks_periods_page_set_capture (self->periods, self->capture);

  get_range (self, &from, &to);
  stats = tks_stats_compute (self->capture, from, to, &totals, &error);
  if (stats == NULL)
    {
      clear_stores (self);
      gtk_label_set_text (self->summary, error->message);
      return;
    }

  /* Threads that exited before the log began did not run in it: not listed. */
  lanes = tks_capture_get_shown_lanes (self->capture, FALSE, &n);
  for (guint i = 0; i < n; i++)
    {
      const TksThread *thread = tks_capture_get_thread (self->capture, lanes[i]);

      if (thread == NULL || lanes[i] >= stats->len)
        continue;
      g_ptr_array_add (rows, tks_stats_row_new (thread, i,
                                                &g_array_index (stats, TksThreadStats, lanes[i])));
    }
  store_lines (self->threads, rows);

  if (events != NULL)
    refresh_events (self, events, totals.from, totals.to);

  ms_per_tick = 1000.0 / effective_tick_hz (self);
  /* Translators: the range the statistics cover, in ticks and in ms, then what it holds */
  text = g_strdup_printf (_("%.6f to %.6f ticks (%.3f ms): %u activations, %.1f %% busy"),
                          totals.from, totals.to, totals.duration * ms_per_tick,
                          totals.activations, totals.covered_share);
  gtk_label_set_text (self->summary, text);
}

/* Cells */

static GtkWidget *
cell_label (gboolean numeric)
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

static void
thread_setup_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  data)
{
  gtk_list_item_set_child (item, cell_label (GPOINTER_TO_INT (data)));
}

static char *
format_number (double      v,
               int         decimals,
               const char *suffix)
{
  if (isnan (v))
    return g_strdup ("—");
  return g_strdup_printf ("%.*f%s", decimals, v, suffix);
}

static void
thread_bind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                TksStatsWindow           *self)
{
  TksStatsRow *row = gtk_list_item_get_item (item);
  const TksThreadStats *stats = tks_stats_row_get_stats (row);
  const char *prop = g_object_get_data (G_OBJECT (factory), "property");
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  gboolean logged = (stats->flags & TKS_THREAD_LOGGED) != 0;
  double ms_per_tick = 1000.0 / effective_tick_hz (self);
  g_autofree char *text = NULL;

  if (g_str_equal (prop, "name"))
    text = g_strdup (tks_stats_row_get_name (row));
  else if (g_str_equal (prop, "priority"))
    {
      int priority;
      g_object_get (row, "priority", &priority, NULL);
      text = (stats->flags & TKS_THREAD_NOT_LISTED) ? g_strdup ("?") : g_strdup_printf ("%d", priority);
    }
  else if (g_str_equal (prop, "marks"))
    /* Translators: the marks of a thread that is not logged; IN and OUT are their names in
     * the board's log */
    text = logged ? g_strdup ("—") : g_strdup_printf (_("%u IN, %u OUT"), stats->n_in_marks,
                                                      stats->n_out_marks);
  else if (!logged)
    text = g_strdup ("—");
  else if (g_str_equal (prop, "activations"))
    text = g_strdup_printf ("%u", stats->activations);
  else if (g_str_equal (prop, "share"))
    text = format_number (stats->share, 2, " %");
  else
    {
      double v = NAN;

      if (g_str_equal (prop, "run-time"))
        v = stats->run_time;
      else if (g_str_equal (prop, "min-run"))
        v = stats->min_run;
      else if (g_str_equal (prop, "mean-run"))
        v = stats->mean_run;
      else if (g_str_equal (prop, "max-run"))
        v = stats->max_run;
      else if (g_str_equal (prop, "longest-wait"))
        v = stats->longest_wait;
      text = format_number (v * ms_per_tick, 3, "");
    }
  gtk_label_set_text (label, text);
}

static void
append_column (GtkColumnView      *view,
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

static void
add_thread_column (TksStatsWindow *self,
                   const char     *title,
                   const char     *property,
                   gboolean        numeric)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkExpression *expression;
  GtkSorter *sorter;

  g_object_set_data (G_OBJECT (factory), "property", (gpointer) property);
  g_signal_connect (factory, "setup", G_CALLBACK (thread_setup_cb), GINT_TO_POINTER (numeric));
  g_signal_connect (factory, "bind", G_CALLBACK (thread_bind_cb), self);

  expression = gtk_property_expression_new (TKS_TYPE_STATS_ROW, NULL, property);
  if (numeric)
    sorter = GTK_SORTER (gtk_numeric_sorter_new (expression));
  else
    sorter = GTK_SORTER (gtk_string_sorter_new (expression));
  append_column (self->threads_view, title, factory, sorter, !numeric);
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
  if (spec->kind == CELL_HISTOGRAM)
    {
      GtkWidget *area = gtk_drawing_area_new ();

      gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (area), 6 * HISTOGRAM_BUCKETS);
      gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (area), 18);
      gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), draw_histogram, NULL, NULL);
      gtk_list_item_set_child (item, area);
      return;
    }
  gtk_list_item_set_child (item, cell_label (spec->kind != CELL_NAME));
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
    case CELL_HISTOGRAM:
      text = describe_histogram (line);
      g_object_set_data_full (G_OBJECT (child), "line", g_object_ref (line), g_object_unref);
      gtk_widget_set_tooltip_text (child, text);
      gtk_accessible_update_property (GTK_ACCESSIBLE (child),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
      gtk_widget_queue_draw (child);
      return;
    case CELL_NAME:
      text = g_strdup (tks_stats_line_get_name (line));
      break;
    case CELL_COUNT:
      text = format_number (v, 0, "");
      break;
    case CELL_US:
    case CELL_MS:
      text = format_number (v, 3, "");
      break;
    case CELL_PERCENT:
      text = format_number (v, 2, " %");
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

/* A table of TksStatsLine: one column per @titles, @kinds, the first one the name. */
static GtkWidget *
line_table (GListStore     *store,
            const char     *accessible_name,
            const char    **titles,
            const CellKind *kinds,
            guint           n_columns)
{
  GtkColumnView *view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  GtkSortListModel *sorted;
  GtkSelectionModel *selection;
  GtkWidget *scroller;
  guint value = 0;

  gtk_column_view_set_show_column_separators (view, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible_name, -1);
  for (guint i = 0; i < n_columns; i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      CellSpec *spec = g_new0 (CellSpec, 1);
      GtkSorter *sorter = NULL;

      spec->kind = kinds[i];
      spec->column = kinds[i] == CELL_NAME || kinds[i] == CELL_HISTOGRAM ? G_MAXUINT : value++;
      g_object_set_data_full (G_OBJECT (factory), "spec", spec, g_free);
      g_signal_connect (factory, "setup", G_CALLBACK (line_setup_cb), spec);
      g_signal_connect (factory, "bind", G_CALLBACK (line_bind_cb), spec);
      if (kinds[i] != CELL_HISTOGRAM)
        sorter = GTK_SORTER (gtk_custom_sorter_new (compare_lines, GUINT_TO_POINTER (spec->column),
                                                    NULL));
      append_column (view, titles[i], factory, sorter, kinds[i] == CELL_NAME);
    }

  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (store)),
                                    g_object_ref (gtk_column_view_get_sorter (view)));
  selection = GTK_SELECTION_MODEL (gtk_single_selection_new (G_LIST_MODEL (sorted)));
  gtk_column_view_set_model (view, selection);
  g_object_unref (selection);

  scroller = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (view));
  return scroller;
}

/* Ranges */

static void
range_toggled_cb (GtkToggleButton *button,
                  TksStatsWindow  *self)
{
  if (!gtk_toggle_button_get_active (button))
    return;
  for (guint i = 0; i < TKS_N_STATS_RANGES; i++)
    if (self->range_buttons[i] == button && self->mode != i)
      {
        self->mode = i;
        refresh (self);
      }
}

static void
zoom_clicked_cb (TksStatsWindow *self)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));

  if (parent != NULL)
    gtk_widget_activate_action (GTK_WIDGET (parent), "win.zoom-to-marks", NULL);
}

static void
tks_stats_window_dispose (GObject *object)
{
  TksStatsWindow *self = TKS_STATS_WINDOW (object);

  g_clear_object (&self->capture);
  g_clear_object (&self->threads);
  g_clear_object (&self->latency);
  g_clear_object (&self->handlers);
  g_clear_object (&self->markers);
  g_clear_object (&self->cpu);

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

static GtkWidget *
range_bar (TksStatsWindow *self)
{
  const char *titles[TKS_N_STATS_RANGES] = {
    /* Translators: the ranges the statistics can cover */
    _("Whole capture"), _("Visible range"), _("A–B"), _("Selected run"),
  };
  const char *tooltips[TKS_N_STATS_RANGES] = {
    NULL, NULL,
    _("Between the marks A and B: Shift+click two points in the timeline"),
    _("The run selected in the timeline"),
  };
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *linked = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  gtk_widget_add_css_class (linked, "linked");
  for (guint i = 0; i < TKS_N_STATS_RANGES; i++)
    {
      self->range_buttons[i] = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_label (titles[i]));
      if (i > 0)
        gtk_toggle_button_set_group (self->range_buttons[i], self->range_buttons[0]);
      if (tooltips[i] != NULL)
        gtk_widget_set_tooltip_text (GTK_WIDGET (self->range_buttons[i]), tooltips[i]);
      g_signal_connect (self->range_buttons[i], "toggled", G_CALLBACK (range_toggled_cb), self);
      gtk_box_append (GTK_BOX (linked), GTK_WIDGET (self->range_buttons[i]));
    }
  gtk_toggle_button_set_active (self->range_buttons[0], TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (linked), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Range"), -1);

  self->zoom_button = gtk_button_new_with_label (_("Zoom to A–B"));
  gtk_widget_set_tooltip_text (self->zoom_button,
                               _("Show the range between the marks A and B in the timeline (Ctrl+M)"));
  g_signal_connect_swapped (self->zoom_button, "clicked", G_CALLBACK (zoom_clicked_cb), self);

  self->summary = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->summary, 1);
  gtk_label_set_wrap (self->summary, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->summary), TRUE);

  gtk_widget_set_margin_start (bar, 12);
  gtk_widget_set_margin_end (bar, 12);
  gtk_widget_set_margin_top (bar, 6);
  gtk_widget_set_margin_bottom (bar, 6);
  gtk_box_append (GTK_BOX (bar), linked);
  gtk_box_append (GTK_BOX (bar), self->zoom_button);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->summary));
  return bar;
}

static GtkWidget *
threads_table (TksStatsWindow *self)
{
  GtkSortListModel *sorted;
  GtkSelectionModel *selection;
  GtkColumnViewColumn *share;
  GtkWidget *scroller;

  self->threads = g_list_store_new (TKS_TYPE_STATS_ROW);
  self->threads_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->threads_view, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->threads_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Per-thread statistics"), -1);
  /* times in ms, as the first one says */
  add_thread_column (self, _("Thread"), "name", FALSE);
  add_thread_column (self, _("Priority"), "priority", TRUE);
  add_thread_column (self, _("Activations"), "activations", TRUE);
  add_thread_column (self, _("Run time (ms)"), "run-time", TRUE);
  add_thread_column (self, _("Share"), "share", TRUE);
  add_thread_column (self, _("Shortest run"), "min-run", TRUE);
  add_thread_column (self, _("Mean run"), "mean-run", TRUE);
  add_thread_column (self, _("Longest run"), "max-run", TRUE);
  add_thread_column (self, _("Longest wait"), "longest-wait", TRUE);
  /* Translators: the IN and OUT marks of a thread that is not logged */
  add_thread_column (self, _("Marks"), "marks", TRUE);

  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->threads)),
                                    g_object_ref (gtk_column_view_get_sorter (self->threads_view)));
  selection = GTK_SELECTION_MODEL (gtk_single_selection_new (G_LIST_MODEL (sorted)));
  gtk_column_view_set_model (self->threads_view, selection);
  g_object_unref (selection);

  /* busiest first */
  share = g_list_model_get_item (gtk_column_view_get_columns (self->threads_view), 4);
  gtk_column_view_sort_by_column (self->threads_view, share, GTK_SORT_DESCENDING);
  g_object_unref (share);

  scroller = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->threads_view));
  return scroller;
}

static void
tks_stats_window_init (TksStatsWindow *self)
{
  const char *latency_titles[] = {
    _("Thread"), _("Wake-ups"), _("Still waiting"), _("Min (µs)"), _("Mean (µs)"),
    _("P50 (µs)"), _("P99 (µs)"), _("Max (µs)"), _("Histogram"),
  };
  const CellKind latency_kinds[] = {
    CELL_NAME, CELL_COUNT, CELL_COUNT, CELL_US, CELL_US, CELL_US, CELL_US, CELL_US, CELL_HISTOGRAM,
  };
  const char *handler_titles[] = { _("Handler"), _("Count"), _("Total (µs)"), _("Longest (µs)") };
  const CellKind handler_kinds[] = { CELL_NAME, CELL_COUNT, CELL_US, CELL_US };
  const char *marker_titles[] = {
    _("Marker"), _("Count"), _("Shortest interval (µs)"), _("Mean interval (µs)"),
    _("Longest interval (µs)"),
  };
  const CellKind marker_kinds[] = { CELL_NAME, CELL_COUNT, CELL_US, CELL_US, CELL_US };
  const char *cpu_titles[] = { _("Thread"), _("Run time without handlers (ms)"), _("Share") };
  const CellKind cpu_kinds[] = { CELL_NAME, CELL_MS, CELL_PERCENT };
  GtkWidget *box;

  self->visible[0] = self->visible[1] = 0;
  self->marks[0] = self->marks[1] = NAN;
  self->run[0] = self->run[1] = NAN;
  self->mode = TKS_STATS_RANGE_WHOLE;

  gtk_window_set_title (GTK_WINDOW (self), _("Statistics"));
  /* as wide as its columns (the tables propagate their natural width), as high as this */
  gtk_window_set_default_size (GTK_WINDOW (self), -1, 480);
  gtk_window_set_hide_on_close (GTK_WINDOW (self), FALSE);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (box), range_bar (self));

  self->stack = GTK_STACK (gtk_stack_new ());
  self->switcher = gtk_stack_switcher_new ();
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (self->switcher), self->stack);
  gtk_widget_set_halign (self->switcher, GTK_ALIGN_CENTER);
  gtk_widget_set_margin_bottom (self->switcher, 6);
  gtk_widget_set_visible (self->switcher, FALSE);
  gtk_box_append (GTK_BOX (box), self->switcher);

  self->latency = g_list_store_new (TKS_TYPE_STATS_LINE);
  self->handlers = g_list_store_new (TKS_TYPE_STATS_LINE);
  self->markers = g_list_store_new (TKS_TYPE_STATS_LINE);
  self->cpu = g_list_store_new (TKS_TYPE_STATS_LINE);
  gtk_stack_add_titled (self->stack, threads_table (self), "threads", _("Threads"));
  gtk_stack_add_titled (self->stack,
                        line_table (self->latency, _("Wake-up latency"), latency_titles,
                                    latency_kinds, G_N_ELEMENTS (latency_kinds)),
                        "latency", _("Wake-up latency"));
  gtk_stack_add_titled (self->stack,
                        line_table (self->handlers, _("Interrupt handlers"), handler_titles,
                                    handler_kinds, G_N_ELEMENTS (handler_kinds)),
                        "handlers", _("Interrupt handlers"));
  gtk_stack_add_titled (self->stack,
                        line_table (self->markers, _("Markers"), marker_titles, marker_kinds,
                                    G_N_ELEMENTS (marker_kinds)),
                        "markers", _("Markers"));
  gtk_stack_add_titled (self->stack,
                        line_table (self->cpu, _("CPU share"), cpu_titles, cpu_kinds,
                                    G_N_ELEMENTS (cpu_kinds)),
                        "cpu", _("CPU share"));
  self->periods = TKS_PERIODS_PAGE (tks_periods_page_new ());
  gtk_stack_add_titled (self->stack, GTK_WIDGET (self->periods), "periods",
                        _("Periods"));
  gtk_stack_set_vhomogeneous (self->stack, FALSE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->stack));
  gtk_window_set_child (GTK_WINDOW (self), box);
  refresh (self);
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

  if (!g_set_object (&self->capture, capture))
    {
      refresh (self);
      return;
    }
  /* the marks and the selection were the other capture's */
  self->marks[0] = self->marks[1] = NAN;
  self->run[0] = self->run[1] = NAN;
  if (self->mode == TKS_STATS_RANGE_MARKS || self->mode == TKS_STATS_RANGE_RUN)
    tks_stats_window_set_mode (self, TKS_STATS_RANGE_WHOLE);
  else
    refresh (self);
}

void
tks_stats_window_set_tick_hz (TksStatsWindow *self,
                              double          tick_hz)
{
  g_return_if_fail (TKS_IS_STATS_WINDOW (self));

  if (self->tick_hz == tick_hz)
    return;
  self->tick_hz = tick_hz;
  refresh (self);
}

/* After a range changed: the figures of the mode, or the whole capture when it is gone. */
static void
range_changed (TksStatsWindow *self,
               TksStatsRange   range)
{
  if (self->mode == range && !range_available (self, range))
    tks_stats_window_set_mode (self, TKS_STATS_RANGE_WHOLE);
  else if (self->mode == range)
    refresh (self);
  else
    gtk_widget_set_sensitive (GTK_WIDGET (self->range_buttons[range]),
                              self->capture != NULL && range_available (self, range));
  gtk_widget_set_sensitive (self->zoom_button,
                            self->capture != NULL && range_available (self, TKS_STATS_RANGE_MARKS));
}

void
tks_stats_window_set_range (TksStatsWindow *self,
                            double          visible_start,
                            double          visible_end)
{
  g_return_if_fail (TKS_IS_STATS_WINDOW (self));

  if (self->visible[0] == visible_start && self->visible[1] == visible_end)
    return;
  self->visible[0] = visible_start;
  self->visible[1] = visible_end;
  range_changed (self, TKS_STATS_RANGE_VISIBLE);
}

void
tks_stats_window_set_marks (TksStatsWindow *self,
                            double          a,
                            double          b)
{
  g_return_if_fail (TKS_IS_STATS_WINDOW (self));

  if ((self->marks[0] == a || (isnan (a) && isnan (self->marks[0]))) &&
      (self->marks[1] == b || (isnan (b) && isnan (self->marks[1]))))
    return;
  self->marks[0] = a;
  self->marks[1] = b;
  range_changed (self, TKS_STATS_RANGE_MARKS);
}

void
tks_stats_window_set_selected_run (TksStatsWindow *self,
                                   double          begin,
                                   double          end)
{
  g_return_if_fail (TKS_IS_STATS_WINDOW (self));

  if ((self->run[0] == begin || (isnan (begin) && isnan (self->run[0]))) &&
      (self->run[1] == end || (isnan (end) && isnan (self->run[1]))))
    return;
  self->run[0] = begin;
  self->run[1] = end;
  range_changed (self, TKS_STATS_RANGE_RUN);
}

void
tks_stats_window_set_mode (TksStatsWindow *self,
                           TksStatsRange   mode)
{
  g_return_if_fail (TKS_IS_STATS_WINDOW (self));
  g_return_if_fail (mode < TKS_N_STATS_RANGES);

  if (!range_available (self, mode))
    mode = TKS_STATS_RANGE_WHOLE;
  self->mode = mode;
  /* the toggle's handler does not refresh again: the mode is already set */
  gtk_toggle_button_set_active (self->range_buttons[mode], TRUE);
  refresh (self);
}

TksStatsRange
tks_stats_window_get_mode (TksStatsWindow *self)
{
  g_return_val_if_fail (TKS_IS_STATS_WINDOW (self), TKS_STATS_RANGE_WHOLE);
  return self->mode;
}
