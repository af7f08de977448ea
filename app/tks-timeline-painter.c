/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The painters the timeline's drawing goes through: one that appends render nodes to a
 * GtkSnapshot (the widget), one that draws on a cairo context (the exports), rectangles of
 * the same colour batched into one fill. */
#include "config.h"

#include <pango/pangocairo.h>

#include "tks-timeline-render.h"

static void
snapshot_fill (TksPainter    *self,
               const GdkRGBA *color,
               double         x,
               double         y,
               double         width,
               double         height)
{
  TksPainter *state = self;

  self->n_fills++;
  gtk_snapshot_append_color (state->snapshot, color,
                             &GRAPHENE_RECT_INIT (x, y, width, height));
}

static void
snapshot_text (TksPainter    *self,
               const GdkRGBA *color,
               double         x,
               double         y,
               PangoLayout   *layout)
{
  TksPainter *state = self;

  gtk_snapshot_save (state->snapshot);
  gtk_snapshot_translate (state->snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (state->snapshot, layout, color);
  gtk_snapshot_restore (state->snapshot);
}

static void
cairo_flush_pending (TksPainter *state)
{
  if (!state->has_pending)
    return;
  gdk_cairo_set_source_rgba (state->cr, &state->pending);
  cairo_fill (state->cr);
  state->has_pending = FALSE;
}

static void
cairo_fill_rect (TksPainter    *self,
                 const GdkRGBA *color,
                 double         x,
                 double         y,
                 double         width,
                 double         height)
{
  TksPainter *state = self;

  self->n_fills++;
  if (state->has_pending && !gdk_rgba_equal (&state->pending, color))
    cairo_flush_pending (state);
  state->pending = *color;
  state->has_pending = TRUE;
  cairo_rectangle (state->cr, x, y, width, height);
}

static void
cairo_text (TksPainter    *self,
            const GdkRGBA *color,
            double         x,
            double         y,
            PangoLayout   *layout)
{
  TksPainter *state = self;

  cairo_flush_pending (state);
  cairo_save (state->cr);
  gdk_cairo_set_source_rgba (state->cr, color);
  cairo_move_to (state->cr, x, y);
  pango_cairo_show_layout (state->cr, layout);
  cairo_restore (state->cr);
}

static void
painter_reset (TksPainter   *painter,
               PangoContext *pango)
{
  memset (painter, 0, sizeof *painter);
  painter->pango = pango;
  painter->fg = (GdkRGBA) { 0.1, 0.1, 0.1, 1 };
}

void
tks_painter_init_snapshot (TksPainter   *painter,
                           GtkSnapshot  *snapshot,
                           PangoContext *pango)
{
  painter_reset (painter, pango);
  painter->fill = snapshot_fill;
  painter->text = snapshot_text;
  painter->snapshot = snapshot;
}

void
tks_painter_init_cairo (TksPainter   *painter,
                        cairo_t      *cr,
                        PangoContext *pango)
{
  painter_reset (painter, pango);
  painter->fill = cairo_fill_rect;
  painter->text = cairo_text;
  painter->cr = cr;
}

void
tks_painter_finish (TksPainter *painter)
{
  if (painter->cr != NULL)
    cairo_flush_pending (painter);
}
