/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A row of the statistics leads to its worst instance in the timeline, and offers its ten
 * worst (tks-stats-instances.h). */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tks-stats-instances.h"
#include "tks-stats-row.h"

#define N_WORST 10

GArray *
tks_stats_item_worst (const TksStatsContext *context,
                      gpointer               item,
                      guint                  n,
                      TksWorstKind          *kind,
                      guint                 *key)
{
  GArray *worst;

  if (context->capture == NULL)
    return NULL;
  if (TKS_IS_STATS_ROW (item))
    {
      const TksThreadStats *stats = tks_stats_row_get_stats (item);

      /* a thread of the table: its longest runs */
      if (!(stats->flags & TKS_THREAD_LOGGED))
        return NULL;
      *kind = TKS_WORST_RUN;
      *key = stats->thread;
    }
  else if (!TKS_IS_STATS_LINE (item) || !tks_stats_line_get_worst (item, kind, key))
    return NULL;
  worst = tks_stats_worst (context->capture, *kind, *key, context->from, context->to, n);
  if (worst->len == 0)
    g_clear_pointer (&worst, g_array_unref);
  return worst;
}

/* The run of the window's thread to select: the longest part of its runs in the window. */
static double
longest_piece (TksCapture     *capture,
               const TksWorst *w)
{
  const TksThread *th = tks_capture_get_thread (capture, w->thread);
  double best = 0, at = NAN;

  if (th == NULL || th->runs == NULL)
    return NAN;
  for (guint i = tks_runs_first_ending_after (th->runs, th->n_runs, w->begin);
       i < th->n_runs && th->runs[i].begin < w->end; i++)
    {
      double a = MAX (w->begin, th->runs[i].begin), b = MIN (w->end, th->runs[i].end);

      if (b - a > best)
        {
          best = b - a;
          at = (a + b) / 2;
        }
    }
  return at;
}

void
tks_stats_show_instance (GtkWidget             *widget,
                         const TksStatsContext *context,
                         const TksWorst        *w,
                         TksWorstKind           kind,
                         guint                  key)
{
  GtkWindow *window = GTK_WINDOW (gtk_widget_get_root (widget));
  GtkWindow *parent = gtk_window_get_transient_for (window);
  guint thread = w->thread;
  double at;

  switch (kind)
    {
    case TKS_WORST_WAKEUP:
      /* the run it switched in */
      at = w->end;
      break;
    case TKS_WORST_HANDLER:
      /* the run it interrupted */
      at = w->begin;
      break;
    case TKS_WORST_MARKER:
      /* the run under way at the interval's end */
      at = w->end;
      break;
    case TKS_WORST_SHARE:
      at = longest_piece (context->capture, w);
      if (isnan (at))
        thread = G_MAXUINT;
      break;
    case TKS_WORST_RUN:
    case TKS_WORST_IRQ_SHARE:
    case TKS_WORST_SLEEP_SHARE:
    default:
      at = (w->begin + w->end) / 2;
      break;
    }
  if (isnan (at))
    at = (w->begin + w->end) / 2;
  gtk_widget_activate_action (GTK_WIDGET (parent != NULL ? parent : window), "win.show-instance",
                              "(ddudiu)", w->begin, w->end, thread, at, (int) kind, key);
}

gboolean
tks_stats_show_worst (GtkWidget             *widget,
                      const TksStatsContext *context,
                      gpointer               item)
{
  g_autoptr(GArray) worst = NULL;
  TksWorstKind kind;
  guint key;

  worst = tks_stats_item_worst (context, item, 1, &kind, &key);
  if (worst == NULL)
    return FALSE;
  tks_stats_show_instance (widget, context, &g_array_index (worst, TksWorst, 0), kind, key);
  return TRUE;
}

char *
tks_stats_describe_instance (const TksStatsContext *context,
                             const TksWorst        *w,
                             TksWorstKind           kind)
{
  g_autofree char *measure = NULL;
  g_autofree char *when = NULL;
  double hz = context->tick_hz > 0 ? context->tick_hz : 1000;

  switch (kind)
    {
    case TKS_WORST_RUN:
      measure = context->timeline != NULL
                ? tks_timeline_view_format_span (context->timeline, w->measure)
                : g_strdup_printf ("%.3f ms", w->measure * 1000 / hz);
      break;
    case TKS_WORST_WAKEUP:
    case TKS_WORST_HANDLER:
    case TKS_WORST_MARKER:
      measure = g_strdup_printf ("%.3f µs", w->measure);
      break;
    case TKS_WORST_SHARE:
    case TKS_WORST_IRQ_SHARE:
    case TKS_WORST_SLEEP_SHARE:
    default:
      measure = g_strdup_printf ("%.2f %%", w->measure);
      break;
    }
  when = context->timeline != NULL ? tks_timeline_view_format_time (context->timeline, w->begin)
         /* Translators: a position in the board's ticks */
         : g_strdup_printf (_("tick %.6f"), w->begin);
  if (kind >= TKS_WORST_SHARE)
    {
      g_autofree char *until = context->timeline != NULL
                               ? tks_timeline_view_format_time (context->timeline, w->end)
                               : g_strdup_printf (_("tick %.6f"), w->end);

      /* Translators: a share of the CPU, then the window of time it was measured over */
      return g_strdup_printf (_("%s from %s to %s"), measure, when, until);
    }
  /* Translators: how long (or how late) an instance was, then when it began */
  return g_strdup_printf (_("%s at %s"), measure, when);
}

typedef struct
{
  TksStatsContext context;
  TksWorstKind    kind;
  guint           key;
  GArray         *worst;
} Instances;

static void
instances_free (gpointer data)
{
  Instances *in = data;

  g_clear_object (&in->context.capture);
  g_clear_object (&in->context.timeline);
  g_clear_pointer (&in->worst, g_array_unref);
  g_free (in);
}

static void
row_activated_cb (GtkListBox    *list,
                  GtkListBoxRow *row,
                  gpointer       data)
{
  Instances *in = g_object_get_data (G_OBJECT (list), "tks-instances");
  int i = gtk_list_box_row_get_index (row);

  if (in == NULL || in->worst == NULL || i < 0 || (guint) i >= in->worst->len)
    return;
  tks_stats_show_instance (GTK_WIDGET (list), &in->context,
                           &g_array_index (in->worst, TksWorst, i), in->kind, in->key);
}

/* The focus on the list's first entry: Down and Enter reach the others. */
static void
focus_first (GtkListBox *list)
{
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (list, 0);

  if (row != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (row));
}

gboolean
tks_stats_fill_instances (GtkListBox            *list,
                          const TksStatsContext *context,
                          gpointer               item)
{
  Instances *in = g_new0 (Instances, 1);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
  in->context = *context;
  in->context.capture = context->capture != NULL ? g_object_ref (context->capture) : NULL;
  in->context.timeline = context->timeline != NULL ? g_object_ref (context->timeline) : NULL;
  if (item != NULL)
    in->worst = tks_stats_item_worst (context, item, N_WORST, &in->kind, &in->key);
  if (in->worst == NULL)
    {
      GtkWidget *label = gtk_label_new (_("No instance in this range"));

      gtk_widget_add_css_class (label, "dim-label");
      gtk_list_box_append (list, label);
      gtk_list_box_row_set_activatable (gtk_list_box_get_row_at_index (list, 0), FALSE);
    }
  for (guint i = 0; in->worst != NULL && i < in->worst->len; i++)
    {
      g_autofree char *text = tks_stats_describe_instance (context,
                                                           &g_array_index (in->worst, TksWorst, i),
                                                           in->kind);
      g_autofree char *numbered = g_strdup_printf ("%u. %s", i + 1, text);
      GtkWidget *label = gtk_label_new (numbered);
      GtkListBoxRow *row;

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "numeric");
      gtk_list_box_append (list, label);
      row = gtk_list_box_get_row_at_index (list, (int) i);
      gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, numbered,
                                      -1);
    }
  if (g_object_get_data (G_OBJECT (list), "tks-instances") == NULL)
    g_signal_connect (list, "row-activated", G_CALLBACK (row_activated_cb), NULL);
  g_object_set_data_full (G_OBJECT (list), "tks-instances", in, instances_free);
  return in->worst != NULL;
}

/* The Menu key or Shift+F10 on a table: its selected row's ten worst. */
static gboolean
view_key_pressed_cb (GtkEventControllerKey *controller,
                     guint                  keyval,
                     guint                  keycode,
                     GdkModifierType        state,
                     GtkListBox            *list)
{
  if (keyval != GDK_KEY_Menu && !(keyval == GDK_KEY_F10 && (state & GDK_SHIFT_MASK)))
    return FALSE;
  focus_first (list);
  return TRUE;
}

/* A right click on a row: that row selected, and its ten worst. */
static void
view_pressed_cb (GtkGestureClick *gesture,
                 int              n_press,
                 double           x,
                 double           y,
                 GtkListBox      *list)
{
  GtkWidget *view = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  GtkWidget *w = gtk_widget_pick (view, x, y, GTK_PICK_DEFAULT);
  GtkListItem *item = NULL;

  for (; w != NULL && w != view && item == NULL; w = gtk_widget_get_parent (w))
    item = g_object_get_data (G_OBJECT (w), "tks-list-item");
  if (item == NULL)
    return;
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (
                                       gtk_column_view_get_model (GTK_COLUMN_VIEW (view))),
                                     gtk_list_item_get_position (item));
  focus_first (list);
}

void
tks_stats_attach_instances (GtkColumnView *view,
                            GtkListBox    *list)
{
  GtkEventController *controller = gtk_event_controller_key_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  g_signal_connect (controller, "key-pressed", G_CALLBACK (view_key_pressed_cb), list);
  gtk_widget_add_controller (GTK_WIDGET (view), controller);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (view_pressed_cb), list);
  gtk_widget_add_controller (GTK_WIDGET (view), GTK_EVENT_CONTROLLER (click));
}

/* The timeline's moves from a moment to the next, as the main window binds them. */
static const struct
{
  guint       keyval;
  const char *action;
} moves[] = {
  { GDK_KEY_bracketright, "win.next-activation" },
  { GDK_KEY_bracketleft, "win.previous-activation" },
  { GDK_KEY_period, "win.next-of-kind" },
  { GDK_KEY_comma, "win.previous-of-kind" },
};

static gboolean
window_key_pressed_cb (GtkEventControllerKey *controller,
                       guint                  keyval,
                       guint                  keycode,
                       GdkModifierType        state,
                       GtkWindow             *window)
{
  GtkWindow *parent = gtk_window_get_transient_for (window);
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  if (parent == NULL || (state & (GDK_ALT_MASK | GDK_CONTROL_MASK | GDK_SUPER_MASK)))
    return FALSE;
  /* where keys type text, they stay there */
  for (; focus != NULL; focus = gtk_widget_get_parent (focus))
    if (GTK_IS_EDITABLE (focus) || GTK_IS_TEXT_VIEW (focus))
      return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (moves); i++)
    if (moves[i].keyval == keyval)
      return gtk_widget_activate_action (GTK_WIDGET (parent), moves[i].action, NULL);
  return FALSE;
}

void
tks_stats_forward_moves (GtkWindow *window)
{
  GtkEventController *controller = gtk_event_controller_key_new ();

  /* after the widget with the focus had the key: a table keeps its own */
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_BUBBLE);
  g_signal_connect (controller, "key-pressed", G_CALLBACK (window_key_pressed_cb), window);
  gtk_widget_add_controller (GTK_WIDGET (window), controller);
}

/* CSV: the file chosen, then written by the window. */

typedef gboolean (*ExportFunc) (GtkWindow   *window,
                                const char  *path,
                                GError     **error);

static void
export_response_cb (GtkNativeDialog *dialog,
                    int              response,
                    GtkLabel        *summary)
{
  ExportFunc export = (ExportFunc) g_object_get_data (G_OBJECT (dialog), "tks-export");
  GtkWindow *window = gtk_native_dialog_get_transient_for (dialog);
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      path = file != NULL ? g_file_get_path (file) : NULL;
      if (path != NULL && !export (window, path, &error))
        gtk_label_set_text (summary, error->message);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

void
tks_stats_export_table (GtkWindow  *window,
                        GtkLabel   *summary,
                        const char *page,
                        GCallback   export)
{
  GtkFileChooserNative *native;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *name = g_strdup_printf ("statistics-%s.csv", page);

  native = gtk_file_chooser_native_new (_("Export Table as CSV"), window,
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("CSV tables (*.csv)"));
  gtk_file_filter_add_pattern (filter, "*.csv");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), filter);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  g_object_set_data (G_OBJECT (native), "tks-export", export);
  g_signal_connect (native, "response", G_CALLBACK (export_response_cb), summary);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}
