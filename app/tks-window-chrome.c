/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's frame around the timeline: the empty state (Demo, Open, Connect) before any
 * capture, a header bar whose text buttons turn to icons when the window is too narrow for
 * them and the title, and the legend of the timeline's colours and marks. */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "tks-timeline-render.h"
#include "tks-window-private.h"

/* Room the title keeps in the header bar before the text buttons give way to icons. */
#define TITLE_ROOM 260

/* The empty state */

void
_tks_window_update_empty (TksWindow *self)
{
  gboolean have = self->capture != NULL;

  gtk_stack_set_visible_child_name (self->content_stack, have ? "timeline" : "empty");
  gtk_widget_set_visible (GTK_WIDGET (self->overview), have);
}

static void
demo_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  tks_window_connect (TKS_WINDOW (user_data), "demo");
}

static void
connect_board_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  TksWindow *self = user_data;

  gtk_menu_button_popup (self->board_button);
}

/* The header bar */

static const struct {
  gsize       offset;
  const char *label;
  const char *icon;
} header_buttons[] = {
  { G_STRUCT_OFFSET (TksWindow, trigger_button), N_("Trigger"), "media-record-symbolic" },
  { G_STRUCT_OFFSET (TksWindow, run_button), N_("Run"), "media-playback-start-symbolic" },
  { G_STRUCT_OFFSET (TksWindow, fetch_button), N_("Get new data"), "view-refresh-symbolic" },
};

static gboolean
apply_compact_cb (gpointer data)
{
  TksWindow *self = data;

  self->compact_idle_id = 0;
  for (guint i = 0; i < G_N_ELEMENTS (header_buttons); i++)
    {
      GtkButton *button = G_STRUCT_MEMBER (GtkButton *, self, header_buttons[i].offset);

      if (self->compact)
        gtk_button_set_icon_name (button, header_buttons[i].icon);
      else
        gtk_button_set_label (button, _(header_buttons[i].label));
    }
  return G_SOURCE_REMOVE;
}

/* The header's minimum width with its text buttons is measured while they show text; with
 * icons the window goes back to text once it has that width and room for the title again. */
static gboolean
wants_compact (TksWindow *self,
               int        width)
{
  if (!self->compact && self->compact_idle_id == 0)
    gtk_widget_measure (self->header_bar, GTK_ORIENTATION_HORIZONTAL, -1,
                        &self->wide_header_min, NULL, NULL, NULL);
  return width < self->wide_header_min + TITLE_ROOM;
}

static void
tks_window_size_allocate (GtkWidget *widget,
                          int        width,
                          int        height,
                          int        baseline)
{
  TksWindow *self = TKS_WINDOW (widget);
  GtkWidgetClass *parent = GTK_WIDGET_CLASS (g_type_class_peek (GTK_TYPE_APPLICATION_WINDOW));
  gboolean compact;

  parent->size_allocate (widget, width, height, baseline);
  compact = wants_compact (self, width);
  if (compact != self->compact)
    {
      /* not while the window is being laid out */
      self->compact = compact;
      if (self->compact_idle_id == 0)
        self->compact_idle_id = g_idle_add (apply_compact_cb, self);
    }
}

/* A window that opens narrower than the header with its text buttons opens with icons: the
 * header would otherwise widen it. */
static void
realize_cb (TksWindow *self)
{
  int width, height;

  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  if (width > 0 && !gtk_window_is_maximized (GTK_WINDOW (self)) && wants_compact (self, width))
    {
      self->compact = TRUE;
      apply_compact_cb (self);
    }
}

/* The legend */

typedef enum {
  LEGEND_RUNS,
  LEGEND_RUNNING_AT_END,
  LEGEND_MARKS,
  LEGEND_NO_DATA,
  LEGEND_EXIT,
  LEGEND_TRIGGER,
  LEGEND_UNKNOWN,
  LEGEND_MARKERS,
  LEGEND_SELECTED,
} LegendKind;

static void
fill (cairo_t       *cr,
      const GdkRGBA *color,
      double         x,
      double         y,
      double         w,
      double         h)
{
  gdk_cairo_set_source_rgba (cr, color);
  cairo_rectangle (cr, x, y, w, h);
  cairo_fill (cr);
}

/* Each swatch is drawn as the timeline draws what it stands for (tks-timeline-render.c). */
static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        data)
{
  static const GdkRGBA red = { 0.88, 0.11, 0.14, 1 };
  static const GdkRGBA green = { 0.15, 0.64, 0.30, 1 };
  static const GdkRGBA exitband = { 0.88, 0.11, 0.14, 0.22 };
  static const GdkRGBA orange = { 0.95, 0.55, 0.05, 0.35 };
  LegendKind kind = GPOINTER_TO_INT (data);
  GdkRGBA fg, color, c;
  double y = 3, h = height - 6;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  tks_timeline_lane_color (0, &color);

  switch (kind)
    {
    case LEGEND_RUNS:
      for (guint i = 0; i < 3; i++)
        {
          tks_timeline_lane_color (i, &c);
          fill (cr, &c, 2 + i * width / 3.0, y, width / 3.0 - 6, h);
        }
      break;
    case LEGEND_RUNNING_AT_END:
      c = color;
      c.alpha = 0.45;
      fill (cr, &c, 2, y, width - 4, h);
      for (double x = 2; x < width - 2; x += 8)
        fill (cr, &color, x, y, MIN (4.0, width - 2 - x), 3);
      break;
    case LEGEND_MARKS:
      for (double x = 4; x < width - 4; x += 10)
        {
          fill (cr, &green, x, y, 2, h / 2);
          fill (cr, &red, x + 5, y + h / 2, 2, h / 2);
        }
      break;
    case LEGEND_NO_DATA:
      c = fg;
      c.alpha = 0.16;
      fill (cr, &c, 2, y, width - 4, h);
      break;
    case LEGEND_EXIT:
      fill (cr, &color, 2, y, width / 3.0, h);
      fill (cr, &exitband, width / 2.0, y, width / 2.0 - 2, h);
      fill (cr, &red, width / 2.0, 1, 2, height - 2);
      break;
    case LEGEND_TRIGGER:
      fill (cr, &red, width / 2.0 - 1, 0, 2, height);
      break;
    case LEGEND_UNKNOWN:
      c = fg;
      c.alpha = 0.2;
      fill (cr, &c, 6, 0, width - 12, height);
      c.alpha = 0.7;
      fill (cr, &c, 5, 0, 2, height);
      fill (cr, &c, width - 7, 0, 2, height);
      break;
    case LEGEND_MARKERS:
      fill (cr, &orange, 6, 0, width - 12, height);
      c = fg;
      fill (cr, &c, 5, 0, 1, height);
      fill (cr, &c, width - 6, 0, 1, height);
      break;
    case LEGEND_SELECTED:
      fill (cr, &color, 6, y, width - 12, h);
      gdk_cairo_set_source_rgba (cr, &fg);
      cairo_set_line_width (cr, 2);
      cairo_rectangle (cr, 5, y - 1, width - 10, h + 2);
      cairo_stroke (cr);
      break;
    default:
      break;
    }
}

static GtkWidget *
build_legend (void)
{
  static const struct { LegendKind kind; const char *text; } rows[] = {
    { LEGEND_RUNS, N_("A thread runs: each thread has its colour") },
    { LEGEND_RUNNING_AT_END, N_("Still running when the capture ends (dashed top)") },
    { LEGEND_MARKS, N_("A thread the board does not log: switched in (green, top) and out (red, bottom)") },
    { LEGEND_NO_DATA, N_("Grey in a lane: nothing is known of the thread yet") },
    { LEGEND_EXIT, N_("Red edge: the thread exited; red band: gone after it") },
    { LEGEND_TRIGGER, N_("Red line across the lanes: the trigger") },
    { LEGEND_UNKNOWN, N_("Grey band across the lanes: after the log ended (“log ended”), or while the board printed a reply (“not recorded”)") },
    { LEGEND_MARKERS, N_("Orange band: between the markers A and B (Shift+click twice)") },
    { LEGEND_SELECTED, N_("Outlined run: the selected one (click)") },
  };
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *title = gtk_label_new (_("Legend"));

  gtk_grid_set_row_spacing (GTK_GRID (grid), 8);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_widget_set_margin_start (grid, 6);
  gtk_widget_set_margin_end (grid, 6);
  gtk_widget_set_margin_top (grid, 6);
  gtk_widget_set_margin_bottom (grid, 6);
  gtk_widget_add_css_class (title, "heading");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_grid_attach (GTK_GRID (grid), title, 0, 0, 2, 1);
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      GtkWidget *swatch = gtk_drawing_area_new ();
      GtkWidget *label = gtk_label_new (_(rows[i].text));

      gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (swatch), 48);
      gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (swatch), 18);
      gtk_widget_set_valign (swatch, GTK_ALIGN_CENTER);
      gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), draw_swatch,
                                      GINT_TO_POINTER (rows[i].kind), NULL);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 48);
      gtk_grid_attach (GTK_GRID (grid), swatch, 0, i + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), label, 1, i + 1, 1, 1);
    }
  gtk_popover_set_child (GTK_POPOVER (popover), grid);
  return popover;
}

/* Construction */

void
_tks_window_chrome_class_init (GtkWidgetClass *widget_class)
{
  widget_class->size_allocate = tks_window_size_allocate;
  gtk_widget_class_bind_template_child (widget_class, TksWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, empty_demo_button);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, legend_button);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, trigger_button);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, run_button);
  gtk_widget_class_bind_template_child (widget_class, TksWindow, fetch_button);
}

void
_tks_window_chrome_init (TksWindow *self)
{
  static const GActionEntry entries[] = {
    { "demo", demo_action, NULL, NULL, NULL, { 0 } },
    { "connect-board", connect_board_action, NULL, NULL, NULL, { 0 } },
  };

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
#ifndef HAVE_SIMBOARD
  /* no built-in simulated board in this build */
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "demo")), FALSE);
  gtk_widget_set_visible (self->empty_demo_button, FALSE);
#endif
  gtk_menu_button_set_popover (self->legend_button, build_legend ());
  g_signal_connect (self, "realize", G_CALLBACK (realize_cb), NULL);
  _tks_window_update_empty (self);
}

void
_tks_window_chrome_dispose (TksWindow *self)
{
  g_clear_handle_id (&self->compact_idle_id, g_source_remove);
}
