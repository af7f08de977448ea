/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The painters the timeline's drawing goes through: one that appends render nodes to a
 * GtkSnapshot, one that draws on a cairo context (the exports), rectangles of the same colour
 * batched into one fill, and one that fills rectangles straight into an image's pixels (the
 * widget's image). */
#include "config.h"

#include <math.h>

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

/* @s (premultiplied ARGB) over @d: each channel s + d * (255 - s's alpha) / 255, two at once. */
static inline guint32
over (guint32 s,
      guint32 d)
{
  guint32 ia = 255 - (s >> 24);
  guint32 rb = (d & 0xff00ff) * ia + 0x800080;
  guint32 ag = ((d >> 8) & 0xff00ff) * ia + 0x800080;

  rb = ((rb + ((rb >> 8) & 0xff00ff)) >> 8) & 0xff00ff;
  ag = (ag + ((ag >> 8) & 0xff00ff)) & 0xff00ff00;
  return s + (rb | ag);
}

/* @color at @coverage (0 to 1), premultiplied, as cairo rounds it. */
static inline guint32
premultiplied (const GdkRGBA *color,
               double         coverage)
{
  double a = CLAMP (color->alpha, 0.0, 1.0) * coverage;

  return (guint32) (a * 255 + 0.5) << 24 |
         (guint32) (CLAMP (color->red, 0.0, 1.0) * a * 255 + 0.5) << 16 |
         (guint32) (CLAMP (color->green, 0.0, 1.0) * a * 255 + 0.5) << 8 |
         (guint32) (CLAMP (color->blue, 0.0, 1.0) * a * 255 + 0.5);
}

/* What a rectangle puts in a row at a coverage: its first and last pixels (partly covered)
 * and those between them. */
typedef struct
{
  double  coverage;
  guint32 first, last, full;
} RowPixels;

static void
row_pixels (RowPixels     *p,
            const GdkRGBA *color,
            double         x0,
            double         x1,
            double         coverage)
{
  int i0 = (int) floor (x0), i1 = (int) ceil (x1);

  p->coverage = coverage;
  if (i1 - i0 == 1)
    p->first = p->last = premultiplied (color, coverage * (x1 - x0));
  else
    {
      p->first = premultiplied (color, coverage * (i0 + 1 - x0));
      p->last = premultiplied (color, coverage * (x1 - (i1 - 1)));
    }
  p->full = premultiplied (color, coverage);
}

static inline void
blend (guint32 *pixel,
       guint32  s)
{
  if (s >> 24 == 255)
    *pixel = s;
  else if (s != 0)
    *pixel = over (s, *pixel);
}

/* @s over the @n pixels from @pixel, @step pixels apart. What is under a rectangle is mostly
 * the same few pixels again and again (the cleared image, a lane's stripe): each blend is
 * remembered for the pixels that follow, over(s, 0) being s. */
static inline void
blend_span (guint32 *pixel,
            gsize    step,
            int      n,
            guint32  s)
{
  guint32 under = 0, result = s;

  if (s >> 24 == 255)
    {
      for (int k = 0; k < n; k++, pixel += step)
        *pixel = s;
      return;
    }
  if (s == 0)
    return;
  for (int k = 0; k < n; k++, pixel += step)
    {
      guint32 d = *pixel;

      if (d != under)
        {
          under = d;
          result = over (s, d);
        }
      *pixel = result;
    }
}

/* Rows [@j0, @j1) of a rectangle over columns [@i0, @i1), each covered as @p says. */
static void
fill_rows (TksPainter      *self,
           const RowPixels *p,
           int              i0,
           int              i1,
           int              j0,
           int              j1)
{
  gsize stride = (gsize) self->stride / sizeof (guint32);
  guint32 *row = (guint32 *) (gpointer) (self->pixels + (gsize) j0 * self->stride);

  if (j1 <= j0)
    return;
  if (i1 - i0 == 1)
    {
      /* a column (a busy pixel column of the lanes, most of them): down it at once */
      blend_span (row + i0, stride, j1 - j0, p->first);
      return;
    }
  if (i1 - i0 == 2)
    {
      blend_span (row + i0, stride, j1 - j0, p->first);
      blend_span (row + i1 - 1, stride, j1 - j0, p->last);
      return;
    }
  for (int j = j0; j < j1; j++, row += stride)
    {
      blend (&row[i0], p->first);
      blend (&row[i1 - 1], p->last);
      blend_span (row + i0 + 1, 1, i1 - i0 - 2, p->full);
    }
}

static void
image_fill_rect (TksPainter    *self,
                 const GdkRGBA *color,
                 double         x,
                 double         y,
                 double         width,
                 double         height)
{
  double x0 = MAX (x, self->clip_x0) * self->scale, x1 = MIN (x + width, self->clip_x1) * self->scale;
  double y0 = MAX (y, self->clip_y0) * self->scale, y1 = MIN (y + height, self->clip_y1) * self->scale;
  RowPixels p;
  int i0, i1, j0, j1, inner0, inner1;

  self->n_fills++;
  x0 = MAX (x0, 0.0);
  y0 = MAX (y0, 0.0);
  x1 = MIN (x1, (double) self->pixel_width);
  y1 = MIN (y1, (double) self->pixel_height);
  if (!(x1 > x0) || !(y1 > y0) || color->alpha <= 0)
    return;
  i0 = (int) floor (x0);
  i1 = (int) ceil (x1);
  j0 = (int) floor (y0);
  j1 = (int) ceil (y1);
  /* the rows it covers whole, and a partly covered one above and below them */
  inner0 = MIN ((int) ceil (y0), j1);
  inner1 = MAX ((int) floor (y1), inner0);
  for (int j = j0; j < inner0; j++)
    {
      row_pixels (&p, color, x0, x1, MIN (y1, j + 1.0) - MAX (y0, (double) j));
      fill_rows (self, &p, i0, i1, j, j + 1);
    }
  if (inner1 > inner0)
    {
      row_pixels (&p, color, x0, x1, 1.0);
      fill_rows (self, &p, i0, i1, inner0, inner1);
    }
  for (int j = inner1; j < j1; j++)
    {
      row_pixels (&p, color, x0, x1, MIN (y1, j + 1.0) - MAX (y0, (double) j));
      fill_rows (self, &p, i0, i1, j, j + 1);
    }
}

static void
image_text (TksPainter    *self,
            const GdkRGBA *color,
            double         x,
            double         y,
            PangoLayout   *layout)
{
  cairo_surface_t *surface = cairo_get_target (self->cr);

  /* cairo's drawing and the pixels filled in place, in their order */
  cairo_surface_mark_dirty (surface);
  cairo_save (self->cr);
  gdk_cairo_set_source_rgba (self->cr, color);
  cairo_move_to (self->cr, x, y);
  pango_cairo_show_layout (self->cr, layout);
  cairo_restore (self->cr);
  cairo_surface_flush (surface);
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
  painter->clip_x0 = painter->clip_y0 = -G_MAXDOUBLE;
  painter->clip_x1 = painter->clip_y1 = G_MAXDOUBLE;
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
tks_painter_init_image (TksPainter      *painter,
                        cairo_t         *cr,
                        cairo_surface_t *surface,
                        PangoContext    *pango)
{
  double sx = 1, sy = 1;

  g_return_if_fail (cairo_image_surface_get_format (surface) == CAIRO_FORMAT_ARGB32);

  painter_reset (painter, pango);
  painter->fill = image_fill_rect;
  painter->text = image_text;
  painter->cr = cr;
  cairo_surface_flush (surface);
  painter->pixels = cairo_image_surface_get_data (surface);
  painter->stride = cairo_image_surface_get_stride (surface);
  painter->pixel_width = cairo_image_surface_get_width (surface);
  painter->pixel_height = cairo_image_surface_get_height (surface);
  cairo_surface_get_device_scale (surface, &sx, &sy);
  painter->scale = MAX (1, (int) sx);
}

void
tks_painter_clip (TksPainter *painter,
                  double      x,
                  double      y,
                  double      width,
                  double      height)
{
  if (painter->cr != NULL)
    {
      cairo_flush_pending (painter);
      cairo_reset_clip (painter->cr);
      if (width >= 0)
        {
          cairo_rectangle (painter->cr, x, y, width, height);
          cairo_clip (painter->cr);
        }
    }
  if (width < 0)
    {
      painter->clip_x0 = painter->clip_y0 = -G_MAXDOUBLE;
      painter->clip_x1 = painter->clip_y1 = G_MAXDOUBLE;
      return;
    }
  painter->clip_x0 = x;
  painter->clip_y0 = y;
  painter->clip_x1 = x + width;
  painter->clip_y1 = y + height;
}

void
tks_painter_finish (TksPainter *painter)
{
  if (painter->pixels != NULL)
    cairo_surface_mark_dirty (cairo_get_target (painter->cr));
  else if (painter->cr != NULL)
    cairo_flush_pending (painter);
}
