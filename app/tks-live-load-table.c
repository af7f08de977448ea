/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Live load table (tks-live-load-table.h): a GtkColumnView over a list of rows kept from
 * one second to the next, its columns resizable. */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tks-live-load-table.h"
#include "tks-timeline-render.h"
#include "tks-widget-text.h"

#define N_COLUMNS 4

/* A row of the table: the texts of its cells, and what a screen reader reads for it. A row
 * without a name is blank: the threads of the last second were fewer than the table's rows. */
#define TKS_TYPE_LIVE_LOAD_ROW (tks_live_load_row_get_type ())
G_DECLARE_FINAL_TYPE (TksLiveLoadRow, tks_live_load_row, TKS, LIVE_LOAD_ROW, GObject)

struct _TksLiveLoadRow
{
  GObject   parent_instance;

  GString  *texts[N_COLUMNS];   /* kept from one second to the next: no allocation */
  GString  *name;
  gboolean  blank;
  gboolean  name_changed;       /* by the last set_row() */
};

G_DEFINE_FINAL_TYPE (TksLiveLoadRow, tks_live_load_row, G_TYPE_OBJECT)

static void
tks_live_load_row_finalize (GObject *object)
{
  TksLiveLoadRow *self = TKS_LIVE_LOAD_ROW (object);

  for (guint c = 0; c < N_COLUMNS; c++)
    g_string_free (self->texts[c], TRUE);
  g_string_free (self->name, TRUE);

  G_OBJECT_CLASS (tks_live_load_row_parent_class)->finalize (object);
}

static void
tks_live_load_row_class_init (TksLiveLoadRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tks_live_load_row_finalize;
  /* "changed": the row's texts changed, its cells show them again */
  g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                G_TYPE_NONE, 0);
}

static void
tks_live_load_row_init (TksLiveLoadRow *self)
{
  for (guint c = 0; c < N_COLUMNS; c++)
    self->texts[c] = g_string_sized_new (32);
  self->name = g_string_sized_new (96);
  self->blank = TRUE;
}

/* @s set to @text: TRUE if it changed. */
static gboolean
assign (GString    *s,
        const char *text)
{
  if (strcmp (s->str, text) == 0)
    return FALSE;
  g_string_assign (s, text);
  return TRUE;
}

/* Sets the row's texts (NULL: blank); TRUE if they changed. */
static gboolean
set_row (TksLiveLoadRow     *row,
         const char * const *texts,
         const char         *name)
{
  gboolean changed = row->blank != (name == NULL);

  row->name_changed = assign (row->name, name != NULL ? name : "") || changed;
  row->blank = name == NULL;
  changed |= row->name_changed;
  for (guint c = 0; c < N_COLUMNS; c++)
    changed |= assign (row->texts[c], texts != NULL ? texts[c] : "");
  if (changed)
    g_signal_emit_by_name (row, "changed");
  return changed;
}

struct _TksLiveLoadTable
{
  GtkWidget      parent_instance;

  GtkWidget     *view;   /* GtkColumnView */
  GListStore    *rows;   /* TksLiveLoadRow */
  GArray        *loads;  /* LoadRow: the last second's, kept for the next */
  GString       *name;   /* a row's name, made in it */
};

G_DEFINE_FINAL_TYPE (TksLiveLoadTable, tks_live_load_table, GTK_TYPE_WIDGET)

typedef struct
{
  const char *name;
  double      share;
  guint       switches;
  double      longest;
} LoadRow;

static int
compare_load (gconstpointer a,
              gconstpointer b)
{
  const LoadRow *ra = a, *rb = b;

  return ra->share < rb->share ? 1 : ra->share > rb->share ? -1 : g_strcmp0 (ra->name, rb->name);
}

/* The widest text each column's cells make room for at first, in characters */
static const guint column_chars[N_COLUMNS] = { 20, 6, 8, 22 };

/* A cell shows its row's text of its column; the cells of column 0 name their row too, for
 * screen readers ("thread, CPU %, switches/s, longest run"), or hide a blank one. */
static void
show_cell (GtkWidget      *cell,
           TksLiveLoadRow *row,
           gboolean        bound)
{
  guint column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (cell), "column"));
  /* the list item's widget, then the row's (GTK 4.8 gives the list items no accessible
   * properties of their own) */
  GtkWidget *item = gtk_widget_get_parent (cell);
  GtkWidget *row_widget = item != NULL ? gtk_widget_get_parent (item) : NULL;
  const char *text = row->texts[column]->str;

  /* (only what changed: a second's update of the table makes no text it does not show) */
  if (bound || g_strcmp0 (gtk_inscription_get_text (GTK_INSCRIPTION (cell)), text) != 0)
    {
      tks_inscription_set_text (cell, text);
      if (item != NULL)
        gtk_accessible_update_property (GTK_ACCESSIBLE (item), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
    }
  if (column != 0 || row_widget == NULL || !(bound || row->name_changed))
    return;
  gtk_accessible_update_property (GTK_ACCESSIBLE (row_widget), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  row->name->str, -1);
  gtk_accessible_update_state (GTK_ACCESSIBLE (row_widget), GTK_ACCESSIBLE_STATE_HIDDEN,
                               row->blank, -1);
}

static void
setup_cell_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  data)
{
  guint column = GPOINTER_TO_UINT (data);
  GtkWidget *cell = g_object_new (GTK_TYPE_INSCRIPTION, "accessible-role", GTK_ACCESSIBLE_ROLE_LABEL,
                                  "xalign", column > 0 ? 1.0f : 0.0f,
                                  "min-chars", column == 0 ? 8 : 4, "nat-chars", column_chars[column],
                                  "text-overflow", GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END, NULL);

  if (column > 0)
    gtk_widget_add_css_class (cell, "numeric");
  g_object_set_data (G_OBJECT (cell), "column", data);
  gtk_list_item_set_child (item, cell);
  gtk_list_item_set_activatable (item, FALSE);
}

static void
row_changed_cb (TksLiveLoadRow *row,
                GtkWidget      *cell)
{
  show_cell (cell, row, FALSE);
}

static void
bind_cell_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  data)
{
  TksLiveLoadRow *row = gtk_list_item_get_item (item);
  GtkWidget *cell = gtk_list_item_get_child (item);

  show_cell (cell, row, TRUE);
  g_signal_connect_object (row, "changed", G_CALLBACK (row_changed_cb), cell, 0);
}

static void
unbind_cell_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                gpointer                  data)
{
  g_signal_handlers_disconnect_by_func (gtk_list_item_get_item (item), row_changed_cb,
                                        gtk_list_item_get_child (item));
}

/* The table of the last second of @capture, busiest thread first. Each row is named for
 * screen readers by what it says: "thread, CPU %, switches/s, longest run". */
void
tks_live_load_table_update (TksLiveLoadTable *self,
                            TksCapture       *capture)
{
  double hz = tks_capture_get_tick_hz (capture);
  double end = tks_capture_get_log_end (capture, NULL);
  double from = MAX (tks_capture_get_start (capture), end - hz);
  GArray *rows = self->loads;
  guint i, n;

  g_return_if_fail (TKS_IS_LIVE_LOAD_TABLE (self));

  g_array_set_size (rows, 0);
  if (!(end > from) || !tks_tick_hz_is_sane (hz))
    end = from;

  for (i = 0; i < tks_capture_get_n_threads (capture); i++)
    {
      const TksThread *th = tks_capture_get_thread (capture, i);
      LoadRow row = { th->name != NULL ? th->name : "?", 0, 0, 0 };
      guint r = tks_runs_first_ending_after (th->runs, th->n_runs, from);

      if (!(th->flags & TKS_THREAD_LOGGED))
        continue;
      row.share = 100.0 * tks_thread_busy (th, from, end) / (end - from);
      for (; r < th->n_runs && th->runs[r].begin < end; r++)
        {
          double b = MAX (th->runs[r].begin, from), e = MIN (th->runs[r].end, end);

          if (th->runs[r].begin >= from)
            row.switches++;
          row.longest = MAX (row.longest, e - b);
        }
      if (row.share > 0 || row.switches > 0)
        g_array_append_val (rows, row);
    }
  g_array_sort (rows, compare_load);
  /* The rows stay, their texts change: a screen reader keeps its place, and a second whose
   * threads are fewer than the last one's blanks the surplus rows rather than removes them.
   * The table keeps its height, so a recording's seconds, with threads coming and going, do
   * not lay the window out again; it grows only to the most threads seen at once. */
  n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  for (i = 0; i < MAX (rows->len, n); i++)
    {
      g_autoptr(TksLiveLoadRow) item = i < n ? g_list_model_get_item (G_LIST_MODEL (self->rows), i)
                                             : g_object_new (TKS_TYPE_LIVE_LOAD_ROW, NULL);
      char share[320];
      char switches[320];
      g_autofree char *longest = NULL;
      const LoadRow *row;

      if (i >= rows->len)
        {
          set_row (item, NULL, NULL);
          continue;
        }
      row = &g_array_index (rows, LoadRow, i);
      g_snprintf (share, sizeof share, "%.1f", row->share);
      g_snprintf (switches, sizeof switches, "%.0f", row->switches * hz / (end - from));
      longest = tks_timeline_format_duration (row->longest, hz);
      /* Translators: a row of the live load table read by a screen reader: the thread, its
       * share of the last second, its switches per second and its longest run */
      g_string_printf (self->name, _("%s, %s %% CPU, %s switches/s, longest run %s"),
                       row->name, share, switches, longest);
      {
        const char *texts[N_COLUMNS] = { row->name, share, switches, longest };

        set_row (item, texts, self->name->str);
      }
      if (i >= n)
        g_list_store_append (self->rows, item);
    }
}

void
tks_live_load_table_set_state (TksLiveLoadTable *self,
                               const char       *state,
                               gboolean          stalled)
{
  g_return_if_fail (TKS_IS_LIVE_LOAD_TABLE (self));

  gtk_widget_set_sensitive (self->view, !stalled);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  state != NULL ? state : "", -1);
}

void
tks_live_load_table_clear (TksLiveLoadTable *self)
{
  g_return_if_fail (TKS_IS_LIVE_LOAD_TABLE (self));

  g_list_store_remove_all (self->rows);
  tks_live_load_table_set_state (self, NULL, FALSE);
}

GtkWidget *
tks_live_load_table_new (void)
{
  return g_object_new (TKS_TYPE_LIVE_LOAD_TABLE, NULL);
}

static void
tks_live_load_table_dispose (GObject *object)
{
  TksLiveLoadTable *self = TKS_LIVE_LOAD_TABLE (object);

  g_clear_pointer (&self->view, gtk_widget_unparent);
  g_clear_object (&self->rows);
  g_clear_pointer (&self->loads, g_array_unref);
  if (self->name != NULL)
    g_string_free (g_steal_pointer (&self->name), TRUE);

  G_OBJECT_CLASS (tks_live_load_table_parent_class)->dispose (object);
}

static void
tks_live_load_table_class_init (TksLiveLoadTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tks_live_load_table_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
tks_live_load_table_init (TksLiveLoadTable *self)
{
  const char *headings[N_COLUMNS] = {
    _("Thread"),
    /* Translators: a column of the live load table: the share of the last second */
    _("CPU %"),
    _("Switches/s"),
    _("Longest run"),
  };
  GtkSelectionModel *selection;

  self->rows = g_list_store_new (TKS_TYPE_LIVE_LOAD_ROW);
  self->loads = g_array_new (FALSE, FALSE, sizeof (LoadRow));
  self->name = g_string_sized_new (128);
  selection = GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->rows))));
  self->view = gtk_column_view_new (selection);
  gtk_column_view_set_reorderable (GTK_COLUMN_VIEW (self->view), FALSE);
  for (guint c = 0; c < N_COLUMNS; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) column = NULL;

      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell_cb), GUINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell_cb), GUINT_TO_POINTER (c));
      g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell_cb), GUINT_TO_POINTER (c));
      column = gtk_column_view_column_new (headings[c], factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_expand (column, c == 0);
      gtk_column_view_append_column (GTK_COLUMN_VIEW (self->view), column);
    }
  gtk_widget_set_parent (self->view, GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Live load"), -1);
}
