/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tks-events-panel.h"

struct _TksEventsPanel
{
  GtkWidget          parent_instance;

  TksTimelineView   *timeline;
  TksViewport       *viewport;
  gulong             viewport_changed_id;
  TksEventListModel *model;
  GtkSingleSelection *selection;
  GtkColumnView     *view;
  GtkScrolledWindow *scroller;
  GtkDropDown       *kinds;
  GtkDropDown       *threads;
  GtkStringList     *thread_names;
  GArray            *thread_of_item;  /* guint: the thread of each item of threads after "All" */
  GtkLabel          *count;
  gboolean           syncing;         /* a change made here: not echoed back */
  gboolean           at_bottom;       /* the list shows its last row: it follows new ones */
  gboolean           stale;           /* hidden: the timeline's capture or range changed since */
  TksCapture        *next;            /* the timeline's next capture, a recording's next stretch, */
  double             next_shift;      /* and what the times of the one shown gain in it */
  guint              bench_frames;    /* TICKSCOPE_BENCH_SCROLL: frames still to scroll */
  guint              bench_id;
};

G_DEFINE_FINAL_TYPE (TksEventsPanel, tks_events_panel, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TIMELINE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The kinds' choice, in the order of the drop-down. */
static const TksEventFilter kind_filters[] = {
  TKS_EVENT_FILTER_ALL, TKS_EVENT_FILTER_SWITCHES, TKS_EVENT_FILTER_HANDLERS,
  TKS_EVENT_FILTER_SLEEP, TKS_EVENT_FILTER_WAKEUPS, TKS_EVENT_FILTER_MARKERS,
  TKS_EVENT_FILTER_STATES, TKS_EVENT_FILTER_LOG,
};

/* Cells */

typedef enum
{
  COLUMN_TIME,
  COLUMN_KIND,
  COLUMN_WHO,
  COLUMN_DETAIL,
  COLUMN_DURATION,
} Column;

/* A cell is a GtkInscription: its size does not follow its text, so a row bound anew (a
 * jump rebinds every row the list keeps) is drawn again without measuring its cells again;
 * the list keeps many more rows than it shows. */
static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          gpointer                  user_data)
{
  GtkWidget *cell = gtk_inscription_new (NULL);
  Column column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "column"));

  gtk_inscription_set_xalign (GTK_INSCRIPTION (cell), column == COLUMN_TIME || column == COLUMN_DURATION
                                                      ? 1.0 : 0.0);
  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (cell), GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (cell), column == COLUMN_DETAIL ? 30 : 12);
  if (column == COLUMN_TIME || column == COLUMN_DURATION)
    gtk_widget_add_css_class (cell, "numeric");
  gtk_list_item_set_child (item, cell);
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *item,
         gpointer                  user_data)
{
  TksEventsPanel *self = user_data;
  TksEventRow *row = gtk_list_item_get_item (item);
  GtkInscription *cell = GTK_INSCRIPTION (gtk_list_item_get_child (item));
  Column column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "column"));
  g_autofree char *text = NULL;

  switch (column)
    {
    case COLUMN_TIME:
      text = self->timeline != NULL
        ? tks_timeline_view_format_time (self->timeline, tks_event_row_get_time (row))
        : g_strdup_printf ("%.3f", tks_event_row_get_time (row));
      break;
    case COLUMN_KIND:
      text = g_strdup (tks_event_row_kind_name (tks_event_row_get_kind (row)));
      break;
    case COLUMN_WHO:
      text = g_strdup (tks_event_row_get_who (row));
      break;
    case COLUMN_DETAIL:
      text = g_strdup (tks_event_row_get_detail (row));
      break;
    case COLUMN_DURATION:
    default:
      if (!isnan (tks_event_row_get_duration (row)) && self->timeline != NULL)
        text = tks_timeline_view_format_span (self->timeline, tks_event_row_get_duration (row));
      break;
    }
  /* (an empty cell would be read out by its class's name) */
  gtk_inscription_set_text (cell, text != NULL ? text : "—");
}

static void
add_column (TksEventsPanel *self,
            const char     *title,
            Column          column,
            gboolean        expand,
            int             width)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *col;

  g_object_set_data (G_OBJECT (factory), "column", GUINT_TO_POINTER (column));
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), self);
  col = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_resizable (col, TRUE);
  gtk_column_view_column_set_expand (col, expand);
  if (width > 0)
    gtk_column_view_column_set_fixed_width (col, width);
  gtk_column_view_append_column (self->view, col);
  g_object_unref (col);
}

/* The count under the filters */

static void
update_count (TksEventsPanel *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->model));
  guint all = tks_event_list_model_get_n_all (self->model);
  g_autofree char *text = NULL;

  /* Translators: rows of the events list in the visible range, of all the capture's */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u event in view, of %u",
                                       "%u events in view, of %u", shown), shown, all);
  gtk_label_set_text (self->count, text);
}

/* Scrolling to a row: the rows are all one height. */
static void
scroll_to (TksEventsPanel *self,
           guint           position)
{
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (self->scroller);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->model));
  double upper = gtk_adjustment_get_upper (adj), page = gtk_adjustment_get_page_size (adj);
  double row, y;

  if (n == 0 || upper <= 0)
    return;
  row = upper / n;
  y = position * row;
  if (y < gtk_adjustment_get_value (adj) || y + row > gtk_adjustment_get_value (adj) + page)
    gtk_adjustment_set_value (adj, CLAMP (y - page / 2, 0, MAX (0, upper - page)));
}

static void bench_start (TksEventsPanel *self);

/* Hidden, the list follows nothing (a list view makes its rows even when it is not shown):
 * what changed meanwhile is caught up when it is shown again (map). */
static gboolean
hidden (TksEventsPanel *self)
{
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    return FALSE;
  self->stale = TRUE;
  return TRUE;
}

/* From the timeline to the list */

static void
select_position (TksEventsPanel *self,
                 guint           position)
{
  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->selection, position);
  self->syncing = FALSE;
  if (position != GTK_INVALID_LIST_POSITION)
    scroll_to (self, position);
}

static void
timeline_selection_changed_cb (TksEventsPanel *self)
{
  TksCapture *capture;
  guint thread, run;

  if (self->syncing || self->timeline == NULL || hidden (self))
    return;
  capture = tks_timeline_view_get_capture (self->timeline);
  if (capture == NULL || !tks_timeline_view_get_selection (self->timeline, &thread, &run))
    {
      select_position (self, GTK_INVALID_LIST_POSITION);
      return;
    }
  {
    double begin = tks_capture_get_thread (capture, thread)->runs[run].begin;
    guint position = tks_event_list_model_find_run (self->model, thread, begin);

    if (position >= g_list_model_get_n_items (G_LIST_MODEL (self->model)))
      position = GTK_INVALID_LIST_POSITION;
    select_position (self, position);
  }
}

static void
viewport_changed_cb (TksEventsPanel *self)
{
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (self->scroller);
  TksEventRow *selected = gtk_single_selection_get_selected_item (self->selection);
  guint index = selected != NULL ? tks_event_row_get_index (selected) : G_MAXUINT;
  gboolean follow = self->at_bottom;

  if (hidden (self))
    return;
  self->syncing = TRUE;
  tks_event_list_model_set_range (self->model,
                                  tks_viewport_get_visible_start (self->viewport),
                                  tks_viewport_get_visible_end (self->viewport));
  /* the row selected stays selected while it is in range */
  if (index != G_MAXUINT)
    gtk_single_selection_set_selected (self->selection,
                                       tks_event_list_model_position_of (self->model, index));
  self->syncing = FALSE;
  if (follow)
    gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj));
  update_count (self);
}

/* From the list to the timeline */

static void
selected_cb (TksEventsPanel *self)
{
  TksEventRow *row = gtk_single_selection_get_selected_item (self->selection);
  TksCapture *capture;
  guint thread, run, index;

  if (self->syncing || row == NULL || self->timeline == NULL)
    return;
  capture = tks_timeline_view_get_capture (self->timeline);
  if (capture == NULL)
    return;
  index = tks_event_row_get_index (row);
  g_object_ref (row);
  self->syncing = TRUE;
  tks_timeline_view_centre_on (self->timeline, tks_event_row_get_time (row));
  if (tks_event_list_run_at (capture, tks_event_row_get_thread (row),
                             tks_event_row_get_time (row), &thread, &run))
    tks_timeline_view_select_run (self->timeline, thread, run);
  self->syncing = FALSE;
  /* the range moved: the row is at another place of the list */
  viewport_changed_cb (self);
  {
    guint position = tks_event_list_model_position_of (self->model, index);

    if (position != G_MAXUINT)
      select_position (self, position);
  }
  g_object_unref (row);
}

/* Filters */

static void
filters_changed_cb (TksEventsPanel *self)
{
  guint k = gtk_drop_down_get_selected (self->kinds);
  guint t = gtk_drop_down_get_selected (self->threads);
  guint thread = G_MAXUINT;

  if (t != GTK_INVALID_LIST_POSITION && t > 0 && t - 1 < self->thread_of_item->len)
    thread = g_array_index (self->thread_of_item, guint, t - 1);
  tks_event_list_model_set_filter (self->model,
                                   k < G_N_ELEMENTS (kind_filters) ? kind_filters[k]
                                                                   : TKS_EVENT_FILTER_ALL,
                                   thread);
  update_count (self);
}

static void
fill_threads (TksEventsPanel *self,
              TksCapture     *capture)
{
  guint old = g_list_model_get_n_items (G_LIST_MODEL (self->thread_names));
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  guint keep = G_MAXUINT, selected = gtk_drop_down_get_selected (self->threads);
  const char *kept_name = NULL;

  if (selected != GTK_INVALID_LIST_POSITION && selected > 0)
    kept_name = gtk_string_list_get_string (self->thread_names, selected);
  g_ptr_array_add (names, g_strdup (_("All threads")));
  g_array_set_size (self->thread_of_item, 0);
  if (capture != NULL)
    for (guint i = 0; i < tks_capture_get_n_threads (capture); i++)
      {
        const TksThread *th = tks_capture_get_thread (capture, i);

        g_ptr_array_add (names, g_strdup_printf ("%s (%d)", th->name != NULL ? th->name : "?",
                                                 th->number));
        if (kept_name != NULL && keep == G_MAXUINT &&
            g_strcmp0 (kept_name, g_ptr_array_index (names, names->len - 1)) == 0)
          keep = names->len - 1;
        g_array_append_val (self->thread_of_item, i);
      }
  g_ptr_array_add (names, NULL);
  /* (a recording's next second has the same threads, mostly: the menu stays as it is) */
  if (old == names->len - 1 && keep == (selected != GTK_INVALID_LIST_POSITION && selected > 0
                                        ? selected : G_MAXUINT))
    {
      guint i = 0;

      while (i < old && g_strcmp0 (gtk_string_list_get_string (self->thread_names, i),
                                   g_ptr_array_index (names, i)) == 0)
        i++;
      if (i == old)
        return;
    }
  g_signal_handlers_block_by_func (self->threads, filters_changed_cb, self);
  gtk_string_list_splice (self->thread_names, 0, old, (const char * const *) names->pdata);
  gtk_drop_down_set_selected (self->threads, keep != G_MAXUINT ? keep : 0);
  g_signal_handlers_unblock_by_func (self->threads, filters_changed_cb, self);
}

static void
capture_changed_cb (TksEventsPanel *self)
{
  TksCapture *capture = self->timeline != NULL ? tks_timeline_view_get_capture (self->timeline)
                                               : NULL;
  gboolean follow = self->at_bottom;

  if (hidden (self))
    {
      g_clear_object (&self->next);
      /* (the capture shown before is not kept for the list meanwhile) */
      if (tks_event_list_model_get_capture (self->model) != NULL)
        tks_event_list_model_set_capture (self->model, NULL);
      return;
    }
  if (capture == tks_event_list_model_get_capture (self->model))
    return;
  self->syncing = TRUE;
  fill_threads (self, capture);
  if (capture != NULL && capture == self->next)
    {
      guint t = gtk_drop_down_get_selected (self->threads);
      guint thread = t != GTK_INVALID_LIST_POSITION && t > 0 && t - 1 < self->thread_of_item->len
        ? g_array_index (self->thread_of_item, guint, t - 1) : G_MAXUINT;

      g_autoptr(TksEventRow) selected = gtk_single_selection_get_selected_item (self->selection);
      guint position;

      /* (unselected meanwhile: a selection looks for its row among all the rows that came) */
      if (selected != NULL)
        g_object_ref (selected);
      gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
      /* the rows shown that the next stretch has stay, with what the list made of them */
      tks_event_list_model_set_next_capture (self->model, capture, self->next_shift, thread);
      position = selected != NULL ? tks_event_list_model_position_of (self->model,
                                                                      tks_event_row_get_index (selected))
                                  : G_MAXUINT;
      if (position != G_MAXUINT)
        {
          g_autoptr(TksEventRow) there = g_list_model_get_item (G_LIST_MODEL (self->model), position);

          if (there == selected)
            gtk_single_selection_set_selected (self->selection, position);
        }
    }
  else
    tks_event_list_model_set_capture (self->model, capture);
  g_clear_object (&self->next);
  filters_changed_cb (self);
  self->syncing = FALSE;
  if (self->viewport != NULL)
    viewport_changed_cb (self);
  if (follow)
    {
      GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (self->scroller);

      gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj));
    }
  update_count (self);
  if (capture != NULL)
    bench_start (self);
}

static void
adjustment_cb (TksEventsPanel *self,
               GtkAdjustment  *adj)
{
  double value = gtk_adjustment_get_value (adj), page = gtk_adjustment_get_page_size (adj);
  double upper = gtk_adjustment_get_upper (adj);

  if (self->at_bottom && value < upper - page - 1 && !self->syncing)
    self->at_bottom = FALSE;
  if (value >= upper - page - 1 && upper > page)
    self->at_bottom = TRUE;
}

/* A recording's new rows: the list at its bottom stays there. */
static void
adjustment_changed_cb (TksEventsPanel *self,
                       GtkAdjustment  *adj)
{
  if (self->at_bottom)
    gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj));
}

static void
set_viewport (TksEventsPanel *self,
              TksViewport    *viewport)
{
  if (self->viewport == viewport)
    return;
  if (self->viewport != NULL)
    g_clear_signal_handler (&self->viewport_changed_id, self->viewport);
  g_set_object (&self->viewport, viewport);
  if (viewport != NULL)
    {
      self->viewport_changed_id =
        g_signal_connect_swapped (viewport, "changed", G_CALLBACK (viewport_changed_cb), self);
      viewport_changed_cb (self);
    }
}

static void
viewport_notify_cb (TksEventsPanel *self)
{
  set_viewport (self, self->timeline != NULL ? tks_timeline_view_get_viewport (self->timeline)
                                             : NULL);
}

/* TICKSCOPE_BENCH_SCROLL=N (bench/events-list-scroll.sh): once a capture is shown, the list
 * scrolls itself for N frames, one step a frame, as a user does: wheel steps (three rows)
 * down, then a page, and every 50 frames a jump to a place anywhere in the list (a drag of
 * the scrollbar); the frame times are those of TICKSCOPE_FRAME_STATS. The window closes after
 * the last frame. */
static gboolean
bench_tick_cb (GtkWidget     *widget,
               GdkFrameClock *clock,
               gpointer       user_data)
{
  TksEventsPanel *self = TKS_EVENTS_PANEL (widget);
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (self->scroller);
  double upper = gtk_adjustment_get_upper (adj), page = gtk_adjustment_get_page_size (adj);
  double value = gtk_adjustment_get_value (adj);
  guint frame = self->bench_frames;

  if (self->bench_frames == 0 || upper <= page)
    {
      if (self->bench_frames == 0)
        {
          GtkRoot *root = gtk_widget_get_root (widget);

          self->bench_id = 0;
          g_print ("bench: %u events listed, scrolled\n",
                   g_list_model_get_n_items (G_LIST_MODEL (self->model)));
          if (GTK_IS_WINDOW (root))
            gtk_window_destroy (GTK_WINDOW (root));
          return G_SOURCE_REMOVE;
        }
      return G_SOURCE_CONTINUE;
    }
  self->bench_frames--;
  if (frame % 50 == 0)
    value = g_random_double_range (0, upper - page);
  else if (frame % 10 == 0)
    value += page;
  else
    value += 3 * upper / MAX (1, g_list_model_get_n_items (G_LIST_MODEL (self->model)));
  if (value > upper - page)
    value = 0;
  gtk_adjustment_set_value (adj, value);
  return G_SOURCE_CONTINUE;
}

static void
bench_start (TksEventsPanel *self)
{
  const char *frames = g_getenv ("TICKSCOPE_BENCH_SCROLL");

  if (frames == NULL || self->bench_id != 0 || self->bench_frames != 0 ||
      g_list_model_get_n_items (G_LIST_MODEL (self->model)) == 0)
    return;
  self->bench_frames = MAX (1, (guint) g_ascii_strtoull (frames, NULL, 10));
  self->bench_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), bench_tick_cb, NULL, NULL);
}

TksTimelineView *
tks_events_panel_get_timeline (TksEventsPanel *self)
{
  g_return_val_if_fail (TKS_IS_EVENTS_PANEL (self), NULL);
  return self->timeline;
}

void
tks_events_panel_set_timeline (TksEventsPanel  *self,
                               TksTimelineView *timeline)
{
  g_return_if_fail (TKS_IS_EVENTS_PANEL (self));
  g_return_if_fail (timeline == NULL || TKS_IS_TIMELINE_VIEW (timeline));

  if (self->timeline == timeline)
    return;
  if (self->timeline != NULL)
    g_signal_handlers_disconnect_by_data (self->timeline, self);
  g_set_object (&self->timeline, timeline);
  if (timeline != NULL)
    {
      g_signal_connect_swapped (timeline, "notify::capture", G_CALLBACK (capture_changed_cb), self);
      g_signal_connect_swapped (timeline, "notify::viewport", G_CALLBACK (viewport_notify_cb), self);
      g_signal_connect_swapped (timeline, "selection-changed",
                                G_CALLBACK (timeline_selection_changed_cb), self);
      /* the ruler's units changed: the times are shown again */
      g_signal_connect_swapped (timeline, "notify::ruler-ticks",
                                G_CALLBACK (gtk_widget_queue_draw), self->view);
    }
  viewport_notify_cb (self);
  capture_changed_cb (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMELINE]);
}

void
tks_events_panel_expect_next_capture (TksEventsPanel *self,
                                      TksCapture     *capture,
                                      double          shift)
{
  g_return_if_fail (TKS_IS_EVENTS_PANEL (self));
  g_return_if_fail (TKS_IS_CAPTURE (capture));

  g_set_object (&self->next, capture);
  self->next_shift = shift;
}

TksEventListModel *
tks_events_panel_get_model (TksEventsPanel *self)
{
  g_return_val_if_fail (TKS_IS_EVENTS_PANEL (self), NULL);
  return self->model;
}

static void
tks_events_panel_map (GtkWidget *widget)
{
  TksEventsPanel *self = TKS_EVENTS_PANEL (widget);

  GTK_WIDGET_CLASS (tks_events_panel_parent_class)->map (widget);
  if (!self->stale)
    return;
  self->stale = FALSE;
  capture_changed_cb (self);
  if (self->viewport != NULL)
    viewport_changed_cb (self);
  timeline_selection_changed_cb (self);
}

static void
tks_events_panel_dispose (GObject *object)
{
  TksEventsPanel *self = TKS_EVENTS_PANEL (object);
  GtkWidget *child;

  tks_events_panel_set_timeline (self, NULL);
  set_viewport (self, NULL);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  gtk_widget_dispose_template (GTK_WIDGET (self), TKS_TYPE_EVENTS_PANEL);
  G_OBJECT_CLASS (tks_events_panel_parent_class)->dispose (object);
}

static void
tks_events_panel_finalize (GObject *object)
{
  TksEventsPanel *self = TKS_EVENTS_PANEL (object);

  g_clear_object (&self->selection);
  g_clear_object (&self->model);
  g_clear_object (&self->next);
  g_clear_pointer (&self->thread_of_item, g_array_unref);
  G_OBJECT_CLASS (tks_events_panel_parent_class)->finalize (object);
}

static void
tks_events_panel_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TksEventsPanel *self = TKS_EVENTS_PANEL (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      g_value_set_object (value, self->timeline);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_events_panel_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  TksEventsPanel *self = TKS_EVENTS_PANEL (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      tks_events_panel_set_timeline (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_events_panel_class_init (TksEventsPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tks_events_panel_dispose;
  object_class->finalize = tks_events_panel_finalize;
  object_class->get_property = tks_events_panel_get_property;
  object_class->set_property = tks_events_panel_set_property;
  widget_class->map = tks_events_panel_map;

  properties[PROP_TIMELINE] =
    g_param_spec_object ("timeline", NULL, NULL, TKS_TYPE_TIMELINE_VIEW,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "eventspanel");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tickscope/Tickscope/ui/tks-events-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, TksEventsPanel, kinds);
  gtk_widget_class_bind_template_child (widget_class, TksEventsPanel, threads);
  gtk_widget_class_bind_template_child (widget_class, TksEventsPanel, thread_names);
  gtk_widget_class_bind_template_child (widget_class, TksEventsPanel, count);
  gtk_widget_class_bind_template_child (widget_class, TksEventsPanel, scroller);
  gtk_widget_class_bind_template_child (widget_class, TksEventsPanel, view);
  gtk_widget_class_bind_template_callback (widget_class, filters_changed_cb);
}

static void
tks_events_panel_init (TksEventsPanel *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  self->model = tks_event_list_model_new ();
  self->thread_of_item = g_array_new (FALSE, FALSE, sizeof (guint));
  self->at_bottom = FALSE;
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->model)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (selected_cb), self);

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (self->selection));
  add_column (self, _("Time"), COLUMN_TIME, FALSE, 130);
  add_column (self, _("Kind"), COLUMN_KIND, FALSE, 100);
  add_column (self, _("Thread or handler"), COLUMN_WHO, FALSE, 170);
  add_column (self, _("Detail"), COLUMN_DETAIL, TRUE, -1);
  add_column (self, _("Duration"), COLUMN_DURATION, FALSE, 130);
  g_signal_connect_swapped (gtk_scrolled_window_get_vadjustment (self->scroller), "value-changed",
                            G_CALLBACK (adjustment_cb), self);
  g_signal_connect_swapped (gtk_scrolled_window_get_vadjustment (self->scroller), "changed",
                            G_CALLBACK (adjustment_changed_cb), self);
  update_count (self);
}
