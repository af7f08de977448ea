/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The legend of the timeline's colours and marks (tks-legend.h). */
#include "config.h"

#include <glib/gi18n.h>

#include "tks-legend.h"
#include "tks-timeline-render.h"

struct _TksLegend
{
  GtkPopover parent_instance;
};

G_DEFINE_FINAL_TYPE (TksLegend, tks_legend, GTK_TYPE_POPOVER)

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
  const GdkRGBA *red = &tks_timeline_mark_out_color;
  static const GdkRGBA orange = { 0.95, 0.55, 0.05, 0.35 };
  LegendKind kind = GPOINTER_TO_INT (data);
  GdkRGBA fg, color, c;
  double y = 3, h = height - 6;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  tks_timeline_palette_color (1, &color);

  switch (kind)
    {
    case LEGEND_RUNS:
      for (guint i = 0; i < 3; i++)
        {
          tks_timeline_palette_color (i, &c);
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
          fill (cr, &tks_timeline_mark_in_color, x, y, 2, h / 2);
          fill (cr, red, x + 5, y + h / 2, 2, h / 2);
        }
      break;
    case LEGEND_NO_DATA:
      c = fg;
      c.alpha = 0.16;
      fill (cr, &c, 2, y, width - 4, h);
      break;
    case LEGEND_EXIT:
      fill (cr, &color, 2, y, width / 3.0, h);
      fill (cr, &tks_timeline_exit_band_color, width / 2.0, y, width / 2.0 - 2, h);
      fill (cr, red, width / 2.0, 1, 2, height - 2);
      break;
    case LEGEND_TRIGGER:
      fill (cr, red, width / 2.0 - 1, 0, 2, height);
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

static void
tks_legend_class_init (TksLegendClass *klass)
{
}

static void
tks_legend_init (TksLegend *self)
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
  gtk_popover_set_child (GTK_POPOVER (self), grid);
}
