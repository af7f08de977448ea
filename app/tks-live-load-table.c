/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Live load table (tks-live-load-table.h): rows of cells in boxes, whose columns line up
 * through a size group each, and rows kept from one second to the next. */
#include "config.h"

#include <glib/gi18n.h>

#include "tks-live-load-table.h"
#include "tks-timeline-render.h"
#include "tks-widget-text.h"

struct _TksLiveLoadTable
{
  GtkWidget     parent_instance;

  GtkSizeGroup *columns[4]; /* held by the heading's cells */
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

/* The widest text each column's cells make room for, in characters */
static const guint column_chars[] = { 20, 6, 8, 22 };

/* A cell of the table. The heading's are labels; the rows' are inscriptions, whose size does
 * not follow their text: the numbers changed every second redraw their cells only, rather
 * than lay the window out again. */
static GtkWidget *
cell (TksLiveLoadTable  *self,
      guint              column,
      const char        *text,
      GtkAccessibleRole  role)
{
  float xalign = column > 0 ? 1.0f : 0.0f;
  GtkWidget *widget;

  if (role == GTK_ACCESSIBLE_ROLE_CELL)
    {
      widget = g_object_new (GTK_TYPE_INSCRIPTION, "accessible-role", role, "xalign", xalign,
                             "min-chars", column_chars[column], "nat-chars", column_chars[column],
                             "text-overflow", GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END, NULL);
      tks_inscription_set_text (widget, text);
    }
  else
    widget = g_object_new (GTK_TYPE_LABEL, "label", text, "accessible-role", role,
                           "xalign", xalign, NULL);
  gtk_widget_set_hexpand (widget, column == 0);
  if (column > 0)
    gtk_widget_add_css_class (widget, "numeric");
  gtk_size_group_add_widget (self->columns[column], widget);
  return widget;
}

/* A row of the table: its cells in a box, whose columns line up with the heading's. */
static GtkWidget *
table_row (TksLiveLoadTable   *self,
           const char * const *texts,
           GtkAccessibleRole   cell_role)
{
  GtkWidget *row = g_object_new (GTK_TYPE_BOX, "spacing", 24,
                                 "accessible-role", GTK_ACCESSIBLE_ROLE_ROW, NULL);

  G_STATIC_ASSERT (G_N_ELEMENTS (column_chars) == G_N_ELEMENTS (self->columns));
  for (guint c = 0; c < G_N_ELEMENTS (self->columns); c++)
    gtk_box_append (GTK_BOX (row), cell (self, c, texts[c], cell_role));
  return row;
}

/* Shows a row of the table, or blanks it while keeping its place: its cells emptied, not
 * drawn, and hidden from screen readers. Neither changes the table's size. */
static void
show_row (GtkWidget *row,
          gboolean   shown)
{
  if (!shown && gtk_widget_get_child_visible (row))
    for (GtkWidget *c = gtk_widget_get_first_child (row); c != NULL; c = gtk_widget_get_next_sibling (c))
      tks_inscription_set_text (c, "");
  if (gtk_widget_get_child_visible (row) != shown)
    {
      gtk_widget_set_child_visible (row, shown);
      gtk_accessible_update_state (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_STATE_HIDDEN, !shown, -1);
    }
}

/* The table of the last second of @capture, busiest thread first. Each row is named for
 * screen readers by what it says: "thread, CPU %, switches/s, longest run". */
void
tks_live_load_table_update (TksLiveLoadTable *self,
                            TksCapture       *capture)
{
  GtkWidget *table = GTK_WIDGET (self);
  double hz = tks_capture_get_tick_hz (capture);
  double end = tks_capture_get_log_end (capture, NULL);
  double from = MAX (tks_capture_get_start (capture), end - hz);
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (LoadRow));
  GtkWidget *row_widget;
  guint i;

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
  row_widget = gtk_widget_get_next_sibling (gtk_widget_get_first_child (table));
  for (i = 0; i < rows->len; i++)
    {
      const LoadRow *row = &g_array_index (rows, LoadRow, i);
      g_autofree char *share = g_strdup_printf ("%.1f", row->share);
      g_autofree char *switches = g_strdup_printf ("%.0f", row->switches * hz / (end - from));
      g_autofree char *longest = tks_timeline_format_duration (row->longest, hz);
      const char *texts[] = { row->name, share, switches, longest };
      /* Translators: a row of the live load table read by a screen reader: the thread, its
       * share of the last second, its switches per second and its longest run */
      g_autofree char *name = g_strdup_printf (_("%s, %s %% CPU, %s switches/s, longest run %s"),
                                               row->name, share, switches, longest);
      GtkWidget *label;

      if (row_widget == NULL)
        {
          row_widget = table_row (self, texts, GTK_ACCESSIBLE_ROLE_CELL);
          gtk_widget_insert_before (row_widget, table, NULL);
        }
      else
        {
          label = gtk_widget_get_first_child (row_widget);
          for (guint c = 0; c < G_N_ELEMENTS (texts); c++, label = gtk_widget_get_next_sibling (label))
            tks_inscription_set_text (label, texts[c]);
        }
      gtk_accessible_update_property (GTK_ACCESSIBLE (row_widget), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      name, -1);
      show_row (row_widget, TRUE);
      row_widget = gtk_widget_get_next_sibling (row_widget);
    }
  for (; row_widget != NULL; row_widget = gtk_widget_get_next_sibling (row_widget))
    show_row (row_widget, FALSE);
}

void
tks_live_load_table_clear (TksLiveLoadTable *self)
{
  GtkWidget *heading = gtk_widget_get_first_child (GTK_WIDGET (self));

  g_return_if_fail (TKS_IS_LIVE_LOAD_TABLE (self));

  while (gtk_widget_get_next_sibling (heading) != NULL)
    gtk_widget_unparent (gtk_widget_get_next_sibling (heading));
}

GtkWidget *
tks_live_load_table_new (void)
{
  return g_object_new (TKS_TYPE_LIVE_LOAD_TABLE, NULL);
}

static void
tks_live_load_table_dispose (GObject *object)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (tks_live_load_table_parent_class)->dispose (object);
}

static void
tks_live_load_table_class_init (TksLiveLoadTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tks_live_load_table_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_TABLE);
}

static void
tks_live_load_table_init (TksLiveLoadTable *self)
{
  const char *headings[] = {
    _("Thread"),
    /* Translators: a column of the live load table: the share of the last second */
    _("CPU %"),
    _("Switches/s"),
    _("Longest run"),
  };
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  GtkWidget *heading;

  G_STATIC_ASSERT (G_N_ELEMENTS (headings) == G_N_ELEMENTS (self->columns));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 2);
  for (guint c = 0; c < G_N_ELEMENTS (self->columns); c++)
    self->columns[c] = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);
  heading = table_row (self, headings, GTK_ACCESSIBLE_ROLE_COLUMN_HEADER);
  /* Translators: the heading row of the live load table, read by a screen reader */
  gtk_accessible_update_property (GTK_ACCESSIBLE (heading), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Thread, CPU %, switches/s, longest run"), -1);
  for (GtkWidget *h = gtk_widget_get_first_child (heading); h != NULL; h = gtk_widget_get_next_sibling (h))
    gtk_widget_add_css_class (h, "heading");
  gtk_widget_insert_before (heading, GTK_WIDGET (self), NULL);
  /* the heading's cells hold the columns' groups */
  for (guint c = 0; c < G_N_ELEMENTS (self->columns); c++)
    g_object_unref (self->columns[c]);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Live load"), -1);
}
