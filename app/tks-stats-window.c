/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tks-events.h"
#include "tks-stats.h"
#include "tks-periods-page.h"
#include "tks-stats-columns.h"
#include "tks-stats-instances.h"
#include "tks-stats-window.h"
#include "tks-stats-row.h"

struct _TksStatsWindow
{
  GtkWindow        parent_instance;

  TksCapture      *capture;
  TksTimelineView *timeline;
  double           tick_hz;
  double           from;      /* the range the figures cover (ticks) */
  double           to;
  double           visible[2];
  double           marks[2];
  double           run[2];
  TksStatsRange    mode;

  GtkToggleButton *range_buttons[TKS_N_STATS_RANGES];
  GtkWidget       *zoom_button;
  GtkListBox      *worst_list;
  gboolean         disposed;  /* its tables' selections change as they go */
  GtkWidget       *export_button;
  GtkLabel        *summary;
  GtkWidget       *switcher;
  GtkStack        *stack;

  GListStore      *threads;
  GtkColumnView   *threads_view;
  GListStore      *latency;
  GtkColumnView   *latency_view;
  GListStore      *handlers;
  GtkColumnView   *handlers_view;
  GListStore      *markers;
  GtkColumnView   *markers_view;
  GListStore      *cpu;
  GtkColumnView   *cpu_view;
  TksPeriodsPage  *periods;
};

G_DEFINE_FINAL_TYPE (TksStatsWindow, tks_stats_window, GTK_TYPE_WINDOW)

G_DEFINE_ENUM_TYPE (TksStatsRange, tks_stats_range,
                    G_DEFINE_ENUM_VALUE (TKS_STATS_RANGE_WHOLE, "whole"),
                    G_DEFINE_ENUM_VALUE (TKS_STATS_RANGE_VISIBLE, "visible"),
                    G_DEFINE_ENUM_VALUE (TKS_STATS_RANGE_MARKS, "marks"),
                    G_DEFINE_ENUM_VALUE (TKS_STATS_RANGE_RUN, "run"))

enum
{
  PROP_0,
  PROP_CAPTURE,
  PROP_TICK_HZ,
  PROP_MODE,
  PROP_VISIBLE_START,
  PROP_VISIBLE_END,
  PROP_MARK_A,
  PROP_MARK_B,
  PROP_RUN_BEGIN,
  PROP_RUN_END,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

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
  double target = MAX (max / TKS_STATS_HISTOGRAM_BUCKETS, 1e-3);
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

      tks_stats_line_set_worst (line, TKS_WORST_WAKEUP, s->thread);
      if (s->count > 0)
        {
          double bucket = nice_bucket (s->max_us);
          g_autofree guint *counts = tks_events_latency_histogram (events, s->thread, from, to,
                                                                    bucket, TKS_STATS_HISTOGRAM_BUCKETS);

          tks_stats_line_set_histogram (line, counts, TKS_STATS_HISTOGRAM_BUCKETS, bucket);
        }
      g_ptr_array_add (lines, line);
    }
  store_lines (self->latency, lines);
  g_ptr_array_set_size (lines, 0);

  for (guint i = 0; i < handlers->len; i++)
    {
      const TksHandlerStats *s = &g_array_index (handlers, TksHandlerStats, i);
      double values[] = { s->count, s->total_us, s->longest_us };

      /* one a handler's track, in their order */
      g_ptr_array_add (lines, tks_stats_line_new (s->track->name, values, G_N_ELEMENTS (values)));
      tks_stats_line_set_worst (lines->pdata[i], TKS_WORST_HANDLER, i);
    }
  store_lines (self->handlers, lines);
  g_ptr_array_set_size (lines, 0);

  for (guint i = 0; i < markers->len; i++)
    {
      const TksMarkerStats *s = &g_array_index (markers, TksMarkerStats, i);
      double values[] = { s->count, s->min_interval_us, s->mean_interval_us, s->max_interval_us };

      g_ptr_array_add (lines, tks_stats_line_new (s->track->name, values, G_N_ELEMENTS (values)));
      tks_stats_line_set_worst (lines->pdata[i], TKS_WORST_MARKER, i);
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
      tks_stats_line_set_worst (lines->pdata[lines->len - 1], TKS_WORST_SHARE, thread->index);
    }
  t = tks_events_irq_time (events, from, to);
  g_ptr_array_add (lines, tks_stats_line_new (_("(interrupt handlers)"),
                                              (double[]) { t * ms_per_tick,
                                                           span > 0 ? 100 * t / span : 0 }, 2));
  tks_stats_line_set_worst (lines->pdata[lines->len - 1], TKS_WORST_IRQ_SHARE, 0);
  t = tks_events_sleep_time (events, from, to);
  g_ptr_array_add (lines, tks_stats_line_new (_("(CPU asleep)"),
                                              (double[]) { t * ms_per_tick,
                                                           span > 0 ? 100 * t / span : 0 }, 2));
  tks_stats_line_set_worst (lines->pdata[lines->len - 1], TKS_WORST_SLEEP_SHARE, 0);
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
  double from, to;

  for (guint i = 0; i < TKS_N_STATS_RANGES; i++)
    gtk_widget_set_sensitive (GTK_WIDGET (self->range_buttons[i]),
                              self->capture != NULL && range_available (self, i));
  gtk_widget_set_sensitive (self->zoom_button,
                            self->capture != NULL && range_available (self, TKS_STATS_RANGE_MARKS));
  gtk_widget_set_sensitive (self->export_button, self->capture != NULL);

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
  self->from = totals.from;
  self->to = totals.to;

  if (events != NULL)
    refresh_events (self, events, totals.from, totals.to);

  text = tks_stats_summary_text (self->capture, &totals, effective_tick_hz (self));
  gtk_label_set_text (self->summary, text);
}

/* Cells */

static void
thread_setup_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  data)
{
  gtk_list_item_set_child (item, tks_stats_cell_label_new (GPOINTER_TO_INT (data)));
}

static void
thread_bind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                TksStatsWindow           *self)
{
  const char *prop = g_object_get_data (G_OBJECT (factory), "property");
  GtkWidget *label = gtk_list_item_get_child (item);
  g_autofree char *text = tks_stats_row_cell_text (gtk_list_item_get_item (item), prop,
                                                   1000.0 / effective_tick_hz (self), FALSE);

  g_object_set_data (G_OBJECT (label), "tks-list-item", item);
  gtk_label_set_text (GTK_LABEL (label), text);
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
  tks_stats_append_column (self->threads_view, title, factory, sorter, !numeric);
}

/* Instances: a row leads to its worst instance in the timeline, and offers its ten worst. */

static void
get_context (TksStatsWindow  *self,
             TksStatsContext *context)
{
  *context = (TksStatsContext) { self->capture, self->timeline, self->from, self->to,
                                 effective_tick_hz (self) };
}

/* Double-click or Enter on a row. */
static void
view_activate_cb (GtkColumnView  *view,
                  guint           position,
                  TksStatsWindow *self)
{
  g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (gtk_column_view_get_model (view)),
                                                   position);
  TksStatsContext context;

  get_context (self, &context);
  if (item == NULL || !tks_stats_show_worst (GTK_WIDGET (self), &context, item))
    gtk_widget_error_bell (GTK_WIDGET (view));
}

/* The table of the page shown; NULL on the periods' page. */
static GtkColumnView *
shown_view (TksStatsWindow *self)
{
  const char *name = gtk_stack_get_visible_child_name (self->stack);
  GtkColumnView *views[] = { self->threads_view, self->latency_view, self->handlers_view,
                             self->markers_view, self->cpu_view };
  const char *names[] = { "threads", "latency", "handlers", "markers", "cpu" };

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    if (g_strcmp0 (name, names[i]) == 0)
      return views[i];
  return NULL;
}

/* The ten worst of the selected row of the table shown. */
static void
fill_worst (TksStatsWindow *self)
{
  GtkColumnView *view;
  TksStatsContext context;

  if (self->disposed)
    return;
  view = shown_view (self);
  get_context (self, &context);
  tks_stats_fill_instances (self->worst_list, &context,
                            view == NULL ? NULL
                            : gtk_single_selection_get_selected_item (
                                GTK_SINGLE_SELECTION (gtk_column_view_get_model (view))));
}

static void
connect_instances (TksStatsWindow *self)
{
  GtkColumnView *views[] = { self->threads_view, self->latency_view, self->handlers_view,
                             self->markers_view, self->cpu_view };

  g_signal_connect_swapped (self->stack, "notify::visible-child", G_CALLBACK (fill_worst), self);
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      g_signal_connect (views[i], "activate", G_CALLBACK (view_activate_cb), self);
      g_signal_connect_swapped (gtk_column_view_get_model (views[i]), "notify::selected-item",
                                G_CALLBACK (fill_worst), self);
      tks_stats_attach_instances (views[i], self->worst_list);
    }
}

/* CSV: the table shown, as shown. */

gboolean
tks_stats_window_export_csv (TksStatsWindow  *self,
                             const char      *path,
                             GError         **error)
{
  GtkColumnView *view;
  g_autofree char *csv = NULL;

  g_return_val_if_fail (TKS_IS_STATS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  view = shown_view (self);
  if (view == NULL)
    view = self->threads_view;
  csv = tks_stats_table_csv (view, 1000.0 / effective_tick_hz (self));
  /* a temporary file renamed over the target, as a capture is saved */
  return g_file_set_contents_full (path, csv, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0666, error);
}

static void
export_clicked_cb (TksStatsWindow *self)
{
  GtkColumnView *view = shown_view (self);

  tks_stats_export_table (GTK_WINDOW (self), self->summary,
                          view != NULL ? gtk_stack_get_visible_child_name (self->stack) : "threads",
                          G_CALLBACK (tks_stats_window_export_csv));
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
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
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

/* The per-thread table: its columns, the busiest thread first. */
static void
add_thread_columns (TksStatsWindow *self)
{
  GtkColumnViewColumn *share;

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
  tks_stats_set_rows (self->threads_view, self->threads);

  share = g_list_model_get_item (gtk_column_view_get_columns (self->threads_view), 4);
  gtk_column_view_sort_by_column (self->threads_view, share, GTK_SORT_DESCENDING);
  g_object_unref (share);
}

/* GObject */

static void
tks_stats_window_dispose (GObject *object)
{
  TksStatsWindow *self = TKS_STATS_WINDOW (object);

  self->disposed = TRUE;
  g_clear_object (&self->capture);
  g_clear_object (&self->timeline);
  g_clear_object (&self->threads);
  g_clear_object (&self->latency);
  g_clear_object (&self->handlers);
  g_clear_object (&self->markers);
  g_clear_object (&self->cpu);

  G_OBJECT_CLASS (tks_stats_window_parent_class)->dispose (object);
}

static void
tks_stats_window_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TksStatsWindow *self = TKS_STATS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_CAPTURE:
      g_value_set_object (value, self->capture);
      break;
    case PROP_TICK_HZ:
      g_value_set_double (value, self->tick_hz);
      break;
    case PROP_MODE:
      g_value_set_enum (value, self->mode);
      break;
    case PROP_VISIBLE_START:
    case PROP_VISIBLE_END:
      g_value_set_double (value, self->visible[prop_id - PROP_VISIBLE_START]);
      break;
    case PROP_MARK_A:
    case PROP_MARK_B:
      g_value_set_double (value, self->marks[prop_id - PROP_MARK_A]);
      break;
    case PROP_RUN_BEGIN:
    case PROP_RUN_END:
      g_value_set_double (value, self->run[prop_id - PROP_RUN_BEGIN]);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_stats_window_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  TksStatsWindow *self = TKS_STATS_WINDOW (object);
  double v = G_VALUE_HOLDS_DOUBLE (value) ? g_value_get_double (value) : 0;

  switch (prop_id)
    {
    case PROP_CAPTURE:
      tks_stats_window_set_capture (self, g_value_get_object (value));
      break;
    case PROP_TICK_HZ:
      tks_stats_window_set_tick_hz (self, v);
      break;
    case PROP_MODE:
      tks_stats_window_set_mode (self, g_value_get_enum (value));
      break;
    case PROP_VISIBLE_START:
      tks_stats_window_set_range (self, v, self->visible[1]);
      break;
    case PROP_VISIBLE_END:
      tks_stats_window_set_range (self, self->visible[0], v);
      break;
    case PROP_MARK_A:
      tks_stats_window_set_marks (self, v, self->marks[1]);
      break;
    case PROP_MARK_B:
      tks_stats_window_set_marks (self, self->marks[0], v);
      break;
    case PROP_RUN_BEGIN:
      tks_stats_window_set_selected_run (self, v, self->run[1]);
      break;
    case PROP_RUN_END:
      tks_stats_window_set_selected_run (self, self->run[0], v);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* A position of a range in ticks; NAN: unset (the marks and the run start so). */
static GParamSpec *
position_param (const char *name)
{
  return g_param_spec_double (name, NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
}

static void
tks_stats_window_class_init (TksStatsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tks_stats_window_dispose;
  object_class->get_property = tks_stats_window_get_property;
  object_class->set_property = tks_stats_window_set_property;

  properties[PROP_CAPTURE] =
    g_param_spec_object ("capture", NULL, NULL, TKS_TYPE_CAPTURE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* 0: the capture's */
  properties[PROP_TICK_HZ] =
    g_param_spec_double ("tick-hz", NULL, NULL, 0, G_MAXDOUBLE, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODE] =
    g_param_spec_enum ("mode", NULL, NULL, TKS_TYPE_STATS_RANGE, TKS_STATS_RANGE_WHOLE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VISIBLE_START] = position_param ("visible-start");
  properties[PROP_VISIBLE_END] = position_param ("visible-end");
  properties[PROP_MARK_A] = position_param ("mark-a");
  properties[PROP_MARK_B] = position_param ("mark-b");
  properties[PROP_RUN_BEGIN] = position_param ("run-begin");
  properties[PROP_RUN_END] = position_param ("run-end");
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* a secondary window closes with Escape or Ctrl+W */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);

  g_type_ensure (TKS_TYPE_PERIODS_PAGE);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tickscope/Tickscope/ui/tks-stats-window.ui");
  gtk_widget_class_bind_template_child_full (widget_class, "whole_button", FALSE,
                                             G_STRUCT_OFFSET (TksStatsWindow, range_buttons[TKS_STATS_RANGE_WHOLE]));
  gtk_widget_class_bind_template_child_full (widget_class, "visible_button", FALSE,
                                             G_STRUCT_OFFSET (TksStatsWindow, range_buttons[TKS_STATS_RANGE_VISIBLE]));
  gtk_widget_class_bind_template_child_full (widget_class, "marks_button", FALSE,
                                             G_STRUCT_OFFSET (TksStatsWindow, range_buttons[TKS_STATS_RANGE_MARKS]));
  gtk_widget_class_bind_template_child_full (widget_class, "run_button", FALSE,
                                             G_STRUCT_OFFSET (TksStatsWindow, range_buttons[TKS_STATS_RANGE_RUN]));
  gtk_widget_class_bind_template_child (widget_class, TksStatsWindow, zoom_button);
  gtk_widget_class_bind_template_child (widget_class, TksStatsWindow, worst_list);
  gtk_widget_class_bind_template_child (widget_class, TksStatsWindow, export_button);
  gtk_widget_class_bind_template_child (widget_class, TksStatsWindow, summary);
  gtk_widget_class_bind_template_child (widget_class, TksStatsWindow, switcher);
  gtk_widget_class_bind_template_child (widget_class, TksStatsWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, TksStatsWindow, threads_view);
  gtk_widget_class_bind_template_child (widget_class, TksStatsWindow, latency_view);
  gtk_widget_class_bind_template_child (widget_class, TksStatsWindow, handlers_view);
  gtk_widget_class_bind_template_child (widget_class, TksStatsWindow, markers_view);
  gtk_widget_class_bind_template_child (widget_class, TksStatsWindow, cpu_view);
  gtk_widget_class_bind_template_child (widget_class, TksStatsWindow, periods);
  gtk_widget_class_bind_template_callback (widget_class, range_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, zoom_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, export_clicked_cb);
}

static void
tks_stats_window_init (TksStatsWindow *self)
{
  self->visible[0] = self->visible[1] = 0;
  self->marks[0] = self->marks[1] = NAN;
  self->run[0] = self->run[1] = NAN;
  self->mode = TKS_STATS_RANGE_WHOLE;
  self->threads = g_list_store_new (TKS_TYPE_STATS_ROW);
  self->latency = g_list_store_new (TKS_TYPE_STATS_LINE);
  self->handlers = g_list_store_new (TKS_TYPE_STATS_LINE);
  self->markers = g_list_store_new (TKS_TYPE_STATS_LINE);
  self->cpu = g_list_store_new (TKS_TYPE_STATS_LINE);

  gtk_widget_init_template (GTK_WIDGET (self));
  add_thread_columns (self);
  tks_stats_add_event_columns (self->latency_view, self->latency, self->handlers_view,
                               self->handlers, self->markers_view, self->markers,
                               self->cpu_view, self->cpu);
  connect_instances (self);
  tks_stats_forward_moves (GTK_WINDOW (self));
  refresh (self);
}

GtkWidget *
tks_stats_window_new (GtkWindow *parent)
{
  return g_object_new (TKS_TYPE_STATS_WINDOW,
                       "transient-for", parent,
                       NULL);
}

static gboolean
same_position (double a,
               double b)
{
  return a == b || (isnan (a) && isnan (b));
}

/* Sets the two ends of a range, each notified if it changed; FALSE: neither changed. */
static gboolean
set_positions (TksStatsWindow *self,
               double         *range,
               double          first,
               double          second,
               guint           first_prop)
{
  gboolean changed = FALSE;

  g_object_freeze_notify (G_OBJECT (self));
  if (!same_position (range[0], first))
    {
      range[0] = first;
      g_object_notify_by_pspec (G_OBJECT (self), properties[first_prop]);
      changed = TRUE;
    }
  if (!same_position (range[1], second))
    {
      range[1] = second;
      g_object_notify_by_pspec (G_OBJECT (self), properties[first_prop + 1]);
      changed = TRUE;
    }
  g_object_thaw_notify (G_OBJECT (self));
  return changed;
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
  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAPTURE]);
  /* the marks and the selection were the other capture's */
  set_positions (self, self->marks, NAN, NAN, PROP_MARK_A);
  set_positions (self, self->run, NAN, NAN, PROP_RUN_BEGIN);
  if (self->mode == TKS_STATS_RANGE_MARKS || self->mode == TKS_STATS_RANGE_RUN)
    tks_stats_window_set_mode (self, TKS_STATS_RANGE_WHOLE);
  else
    refresh (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/* Times of the instances in the ruler's units. */
void
tks_stats_window_set_timeline (TksStatsWindow  *self,
                               TksTimelineView *timeline)
{
  g_return_if_fail (TKS_IS_STATS_WINDOW (self));
  g_set_object (&self->timeline, timeline);
}

void
tks_stats_window_set_tick_hz (TksStatsWindow *self,
                              double          tick_hz)
{
  g_return_if_fail (TKS_IS_STATS_WINDOW (self));

  if (self->tick_hz == tick_hz)
    return;
  self->tick_hz = tick_hz;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TICK_HZ]);
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

  if (set_positions (self, self->visible, visible_start, visible_end, PROP_VISIBLE_START))
    range_changed (self, TKS_STATS_RANGE_VISIBLE);
}

void
tks_stats_window_set_marks (TksStatsWindow *self,
                            double          a,
                            double          b)
{
  g_return_if_fail (TKS_IS_STATS_WINDOW (self));

  if (set_positions (self, self->marks, a, b, PROP_MARK_A))
    range_changed (self, TKS_STATS_RANGE_MARKS);
}

void
tks_stats_window_set_selected_run (TksStatsWindow *self,
                                   double          begin,
                                   double          end)
{
  g_return_if_fail (TKS_IS_STATS_WINDOW (self));

  if (set_positions (self, self->run, begin, end, PROP_RUN_BEGIN))
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
  if (self->mode != mode)
    {
      self->mode = mode;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
    }
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
