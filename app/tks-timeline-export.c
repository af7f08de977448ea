/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The timeline as a PNG, SVG or PDF that stands alone (tks-timeline-export.h): the band of
 * the capture's name, range and legend above the view, drawn through a painter like the view
 * itself; cairo's for PNG and PDF, and for SVG one that writes the document itself, so that
 * text stays text. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>

#include "tks-error.h"
#include "tks-events.h"
#include "tks-timeline-events.h"
#include "tks-timeline-export.h"

#define MARGIN        12.0
#define SWATCH_WIDTH  22.0
#define SWATCH_HEIGHT 12.0

/* ------------------------------------------------------------------------------------------ */
/* The SVG painter: rectangles of one colour as one path, each line of a layout a <text>.     */

typedef struct
{
  TksPainter  painter;    /* first: the render passes see this */
  GString    *svg;
  GString    *path;       /* the rectangles of @pending not written yet */
  GdkRGBA     pending;
  guint       n_clips;
} SvgPainter;

static void
svg_number (GString *out,
            double   value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* to the hundredth of a pixel, without trailing zeros */
  g_ascii_formatd (buf, sizeof buf, "%.2f", round (value * 100) / 100);
  if (strchr (buf, '.') != NULL)
    {
      char *end = buf + strlen (buf) - 1;

      while (*end == '0')
        *end-- = '\0';
      if (*end == '.')
        *end = '\0';
    }
  g_string_append (out, strcmp (buf, "-0") == 0 ? "0" : buf);
}

static void
svg_color (GString       *out,
           const char    *attribute,
           const GdkRGBA *color)
{
  g_string_append_printf (out, " %s=\"#%02x%02x%02x\"", attribute,
                          (guint) round (CLAMP (color->red, 0, 1) * 255),
                          (guint) round (CLAMP (color->green, 0, 1) * 255),
                          (guint) round (CLAMP (color->blue, 0, 1) * 255));
  if (color->alpha < 1)
    {
      g_string_append_printf (out, " %s-opacity=\"", attribute);
      svg_number (out, CLAMP (color->alpha, 0, 1));
      g_string_append_c (out, '"');
    }
}

static void
svg_flush (SvgPainter *self)
{
  if (self->path->len == 0)
    return;
  g_string_append (self->svg, "<path");
  svg_color (self->svg, "fill", &self->pending);
  g_string_append (self->svg, " d=\"");
  g_string_append_len (self->svg, self->path->str, self->path->len);
  g_string_append (self->svg, "\"/>\n");
  g_string_truncate (self->path, 0);
}

static void
svg_fill (TksPainter    *painter,
          const GdkRGBA *color,
          double         x,
          double         y,
          double         width,
          double         height)
{
  SvgPainter *self = (SvgPainter *) painter;

  painter->n_fills++;
  if (!(width > 0) || !(height > 0))
    return;
  if (self->path->len > 0 && !gdk_rgba_equal (&self->pending, color))
    svg_flush (self);
  self->pending = *color;
  g_string_append_c (self->path, 'M');
  svg_number (self->path, x);
  g_string_append_c (self->path, ' ');
  svg_number (self->path, y);
  g_string_append_c (self->path, 'h');
  svg_number (self->path, width);
  g_string_append_c (self->path, 'v');
  svg_number (self->path, height);
  g_string_append_c (self->path, 'h');
  svg_number (self->path, -width);
  g_string_append_c (self->path, 'z');
}

/* What a line of @layout shows: its text, with "…" where it was cut. */
static char *
line_text (PangoLayout     *layout,
           PangoLayoutLine *line)
{
  const char *text = pango_layout_get_text (layout);
  GString *shown = g_string_new (NULL);

  for (GSList *l = line->runs; l != NULL; l = l->next)
    {
      const PangoGlyphItem *run = l->data;

      if (run->item->analysis.flags & PANGO_ANALYSIS_FLAG_IS_ELLIPSIS)
        g_string_append (shown, "…");
      else
        g_string_append_len (shown, text + run->item->offset, run->item->length);
    }
  return g_string_free (shown, FALSE);
}

/* The font of @layout as SVG attributes: family, size in pixels, weight, style. */
static void
svg_font (GString     *out,
          PangoLayout *layout)
{
  PangoContext *context = pango_layout_get_context (layout);
  const PangoFontDescription *font = pango_layout_get_font_description (layout);
  double resolution = pango_cairo_context_get_resolution (context);
  double size;
  const char *family;
  g_autofree char *escaped = NULL;

  if (font == NULL)
    font = pango_context_get_font_description (context);
  if (!(resolution > 0))
    resolution = 96;
  family = pango_font_description_get_family (font);
  escaped = g_markup_escape_text (family != NULL ? family : "sans-serif", -1);
  size = pango_font_description_get_size (font) / (double) PANGO_SCALE;
  if (!pango_font_description_get_size_is_absolute (font))
    size = size * resolution / 72;
  g_string_append_printf (out, " font-family=\"%s, sans-serif\" font-size=\"", escaped);
  svg_number (out, size > 0 ? size : 13);
  g_string_append_c (out, '"');
  if (pango_font_description_get_weight (font) >= PANGO_WEIGHT_SEMIBOLD)
    g_string_append_printf (out, " font-weight=\"%d\"", (int) pango_font_description_get_weight (font));
  if (pango_font_description_get_style (font) != PANGO_STYLE_NORMAL)
    g_string_append (out, " font-style=\"italic\"");
}

static void
svg_text (TksPainter    *painter,
          const GdkRGBA *color,
          double         x,
          double         y,
          PangoLayout   *layout)
{
  SvgPainter *self = (SvgPainter *) painter;
  PangoLayoutIter *iter = pango_layout_get_iter (layout);

  svg_flush (self);
  do
    {
      PangoLayoutLine *line = pango_layout_iter_get_line_readonly (iter);
      g_autofree char *shown = line_text (layout, line);
      g_autofree char *escaped = NULL;
      PangoRectangle logical;

      pango_layout_iter_get_line_extents (iter, NULL, &logical);
      if (shown[0] == '\0')
        continue;
      escaped = g_markup_escape_text (shown, -1);
      g_string_append (self->svg, "<text x=\"");
      svg_number (self->svg, x + logical.x / (double) PANGO_SCALE);
      g_string_append (self->svg, "\" y=\"");
      svg_number (self->svg, y + pango_layout_iter_get_baseline (iter) / (double) PANGO_SCALE);
      g_string_append_c (self->svg, '"');
      svg_font (self->svg, layout);
      svg_color (self->svg, "fill", color);
      /* as wide as Pango made it here, whatever font the reader has */
      g_string_append (self->svg, " textLength=\"");
      svg_number (self->svg, logical.width / (double) PANGO_SCALE);
      g_string_append_printf (self->svg, "\" lengthAdjust=\"spacingAndGlyphs\" "
                              "xml:space=\"preserve\">%s</text>\n", escaped);
    }
  while (pango_layout_iter_next_line (iter));
  pango_layout_iter_free (iter);
}

/* ------------------------------------------------------------------------------------------ */
/* One drawing for every format: a painter, and where its cairo context is (NULL: SVG).       */

typedef struct
{
  TksPainter *painter;
  cairo_t    *cr;
  SvgPainter *svg;
} Target;

/* Draws what follows moved down by @dy and, with @clip, inside (@x, @y, @w, @h) (moved too). */
static void
target_push (Target  *t,
             double   dy,
             gboolean clip,
             double   x,
             double   y,
             double   w,
             double   h)
{
  tks_painter_finish (t->painter);
  if (t->cr != NULL)
    {
      cairo_save (t->cr);
      cairo_translate (t->cr, 0, dy);
      if (clip)
        {
          cairo_rectangle (t->cr, x, y, w, h);
          cairo_clip (t->cr);
        }
      return;
    }
  svg_flush (t->svg);
  if (clip)
    {
      guint id = ++t->svg->n_clips;

      g_string_append_printf (t->svg->svg, "<clipPath id=\"clip%u\"><rect x=\"", id);
      svg_number (t->svg->svg, x);
      g_string_append (t->svg->svg, "\" y=\"");
      svg_number (t->svg->svg, y + dy);
      g_string_append (t->svg->svg, "\" width=\"");
      svg_number (t->svg->svg, w);
      g_string_append (t->svg->svg, "\" height=\"");
      svg_number (t->svg->svg, h);
      g_string_append_printf (t->svg->svg, "\"/></clipPath>\n<g clip-path=\"url(#clip%u)\">\n", id);
    }
  else
    g_string_append (t->svg->svg, "<g>\n");
  g_string_append (t->svg->svg, "<g transform=\"translate(0,");
  svg_number (t->svg->svg, dy);
  g_string_append (t->svg->svg, ")\">\n");
}

static void
target_pop (Target *t)
{
  tks_painter_finish (t->painter);
  if (t->cr != NULL)
    {
      cairo_restore (t->cr);
      return;
    }
  svg_flush (t->svg);
  g_string_append (t->svg->svg, "</g>\n</g>\n");
}

/* The view at @dy: the passes of the on-screen drawing (tks_timeline_render_cairo_like()). */
static void
draw_view (const TksTimelineExport *request,
           Target                  *t,
           double                   dy)
{
  TksCapture *capture = request->capture;
  const TksTimelineGeometry *g = request->geometry;
  GdkRGBA white = { 1, 1, 1, 1 };

  target_push (t, dy, FALSE, 0, 0, 0, 0);
  t->painter->fill (t->painter, &white, 0, 0, request->width, request->height);
  tks_timeline_render_ruler (capture, g, t->painter);
  target_pop (t);
  target_push (t, dy, TRUE, 0, g->top, request->width, g->bottom - g->top);
  tks_timeline_render_lanes (capture, g, t->painter);
  tks_timeline_render_events (capture, g, t->painter);
  tks_timeline_render_log_end (capture, g, t->painter);
  tks_timeline_render_gaps (capture, g, t->painter);
  tks_timeline_render_headers (capture, g, t->painter);
  tks_timeline_render_event_headers (capture, g, t->painter);
  tks_timeline_render_trigger (capture, g, t->painter);
  target_pop (t);
}

/* ------------------------------------------------------------------------------------------ */
/* The band: the name, the range, the legend.                                                  */

typedef enum
{
  SWATCH_LANE,
  SWATCH_MARK_IN,
  SWATCH_MARK_OUT,
  SWATCH_RUNNING_AT_END,
  SWATCH_EXIT,
  SWATCH_TRIGGER,
} SwatchKind;

typedef struct
{
  SwatchKind  kind;
  GdkRGBA     color;
  char       *label;
} LegendItem;

static void
legend_item_clear (LegendItem *item)
{
  g_free (item->label);
}

/* Adds an item, unless one the same (lanes of threads of one name and colour) is there. */
static void
legend_add (GArray        *items,
            SwatchKind     kind,
            const GdkRGBA *color,
            const char    *label)
{
  LegendItem item = { kind, *color, g_strdup (label) };

  for (guint i = 0; i < items->len; i++)
    {
      const LegendItem *other = &g_array_index (items, LegendItem, i);

      if (other->kind == kind && gdk_rgba_equal (&other->color, color) &&
          g_str_equal (other->label, label))
        {
          g_free (item.label);
          return;
        }
    }
  g_array_append_val (items, item);
}

/* What the view draws, each as the timeline draws it: the lanes in view (a thread's or a
 * group's colour and name), then the kinds of marks it shows. */
static GArray *
legend_items (const TksTimelineExport *request)
{
  const GdkRGBA *red = &tks_timeline_mark_out_color;
  TksCapture *capture = request->capture;
  const TksTimelineGeometry *g = request->geometry;
  GArray *items = g_array_new (FALSE, TRUE, sizeof (LegendItem));
  TksEvents *events = capture != NULL ? tks_capture_get_events (capture) : NULL;
  gboolean marks = FALSE, at_end = FALSE, exits = FALSE;
  guint first, last, n;
  double trigger;

  g_array_set_clear_func (items, (GDestroyNotify) legend_item_clear);
  if (capture == NULL)
    return items;
  if (tks_timeline_visible_lanes (g, tks_timeline_n_lanes (capture, g), &first, &last))
    for (guint l = first; l < last; l++)
      {
        guint n_threads;
        const guint *threads = tks_timeline_lane_threads (capture, g, l, &n_threads, NULL);
        const TksThread *thread = n_threads > 0 ? tks_capture_get_thread (capture, threads[0]) : NULL;
        const char *name;
        int priority;
        GdkRGBA color;

        if (thread == NULL || (name = tks_timeline_lane_name (capture, g, l, &priority)) == NULL)
          continue;
        tks_timeline_thread_color (thread, &color);
        legend_add (items, SWATCH_LANE, &color, name);
        for (guint i = 0; i < n_threads; i++)
          {
            const TksThread *member = tks_capture_get_thread (capture, threads[i]);

            marks |= member->n_marks > 0;
            at_end |= (member->flags & TKS_THREAD_RUNNING_AT_END) != 0;
            exits |= (member->flags & TKS_THREAD_EXITED) != 0;
          }
      }
  if (events != NULL && (tks_events_get_tracks (events, TKS_TRACK_IRQ, &n), n > 0))
    legend_add (items, SWATCH_LANE, &tks_timeline_irq_color, _("interrupt handler"));
  if (events != NULL && (tks_events_get_tracks (events, TKS_TRACK_SLEEP, &n), n > 0))
    legend_add (items, SWATCH_LANE, &tks_timeline_sleep_color, _("CPU sleep"));
  if (marks)
    {
      /* Translators: the legend of an exported image: the marks of a thread the board does
       * not log */
      legend_add (items, SWATCH_MARK_IN, &tks_timeline_mark_in_color, _("switched in"));
      legend_add (items, SWATCH_MARK_OUT, red, _("switched out"));
    }
  if (at_end)
    legend_add (items, SWATCH_RUNNING_AT_END, &tks_timeline_irq_color, _("running when the capture ends"));
  if (exits)
    legend_add (items, SWATCH_EXIT, red, _("exited"));
  if (tks_capture_get_trigger (capture, &trigger) && trigger >= g->x0 && trigger <= g->x1)
    legend_add (items, SWATCH_TRIGGER, red, _("trigger"));
  return items;
}

static void
draw_swatch (TksPainter       *painter,
             const LegendItem *item,
             double            x,
             double            y)
{
  GdkRGBA light = item->color;
  const double w = SWATCH_WIDTH, h = SWATCH_HEIGHT;

  switch (item->kind)
    {
    case SWATCH_MARK_IN:
      for (double m = 2; m < w; m += 6)
        painter->fill (painter, &item->color, x + m, y, 2, h / 2);
      break;
    case SWATCH_MARK_OUT:
      for (double m = 2; m < w; m += 6)
        painter->fill (painter, &item->color, x + m, y + h / 2, 2, h / 2);
      break;
    case SWATCH_RUNNING_AT_END:
      light.alpha = 0.45;
      painter->fill (painter, &light, x, y, w, h);
      for (double m = 0; m < w; m += 8)
        painter->fill (painter, &item->color, x + m, y, MIN (4.0, w - m), 3);
      break;
    case SWATCH_EXIT:
      painter->fill (painter, &tks_timeline_exit_band_color, x + w / 2, y, w / 2, h);
      painter->fill (painter, &item->color, x + w / 2, y, 2, h);
      break;
    case SWATCH_TRIGGER:
      painter->fill (painter, &item->color, x + w / 2 - 1, y - 2, 2, h + 4);
      break;
    case SWATCH_LANE:
    default:
      painter->fill (painter, &item->color, x, y, w, h);
      break;
    }
}

/* Lays the band out at @request's width, drawing it when @painter is not NULL; returns its
 * height. */
static double
band (const TksTimelineExport *request,
      PangoContext            *pango,
      TksPainter              *painter)
{
  static const GdkRGBA white = { 1, 1, 1, 1 };
  GdkRGBA fg = { 0.1, 0.1, 0.1, 1 }, muted = fg, rule = fg;
  g_autoptr(PangoLayout) title = pango_layout_new (pango);
  g_autoptr(PangoLayout) range = pango_layout_new (pango);
  g_autoptr(PangoLayout) label = pango_layout_new (pango);
  g_autoptr(PangoFontDescription) bold = NULL;
  g_autoptr(GArray) items = legend_items (request);
  g_autofree char *range_text = tks_timeline_export_range (request->geometry);
  double width = request->width, x, y, line_h, height;
  int tw, th, rw, rh;

  muted.alpha = 0.7;
  rule.alpha = 0.25;
  bold = pango_font_description_copy (pango_context_get_font_description (pango));
  pango_font_description_set_weight (bold, PANGO_WEIGHT_BOLD);
  if (pango_font_description_get_size (bold) > 0)
    pango_font_description_set_size (bold, pango_font_description_get_size (bold) * 5 / 4);
  pango_layout_set_font_description (title, bold);
  pango_layout_set_text (title, request->title != NULL ? request->title : _("capture"), -1);
  pango_layout_set_width (title, (int) ((width - 2 * MARGIN) * PANGO_SCALE));
  pango_layout_set_ellipsize (title, PANGO_ELLIPSIZE_END);
  pango_layout_get_pixel_size (title, &tw, &th);
  pango_layout_set_text (range, range_text, -1);
  pango_layout_get_pixel_size (range, &rw, &rh);

  if (painter != NULL)
    painter->fill (painter, &white, 0, 0, width, 1e4);   /* clipped by the caller */
  y = MARGIN;
  if (painter != NULL)
    painter->text (painter, &fg, MARGIN, y, title);
  if (MARGIN + tw + 16 + rw <= width - MARGIN)
    {
      /* the range on the name's line, on its baseline */
      double base = (pango_layout_get_baseline (title) - pango_layout_get_baseline (range))
                    / (double) PANGO_SCALE;

      if (painter != NULL)
        painter->text (painter, &muted, MARGIN + tw + 16, y + base, range);
      y += th;
    }
  else
    {
      y += th + 2;
      if (painter != NULL)
        painter->text (painter, &muted, MARGIN, y, range);
      y += rh;
    }
  y += 8;

  /* the legend, its items in rows as wide as the image */
  x = MARGIN;
  pango_layout_set_text (label, "Ag", -1);
  pango_layout_get_pixel_size (label, NULL, &th);
  line_h = MAX ((double) th, SWATCH_HEIGHT) + 4;
  for (guint i = 0; i < items->len; i++)
    {
      const LegendItem *item = &g_array_index (items, LegendItem, i);
      int lw, lh;
      double item_w;

      pango_layout_set_text (label, item->label, -1);
      pango_layout_set_width (label, (int) ((width - 2 * MARGIN - SWATCH_WIDTH - 6) * PANGO_SCALE));
      pango_layout_set_ellipsize (label, PANGO_ELLIPSIZE_END);
      pango_layout_get_pixel_size (label, &lw, &lh);
      item_w = SWATCH_WIDTH + 6 + lw;
      if (x > MARGIN && x + item_w > width - MARGIN)
        {
          x = MARGIN;
          y += line_h;
        }
      if (painter != NULL)
        {
          draw_swatch (painter, item, x, y + (line_h - SWATCH_HEIGHT) / 2);
          painter->text (painter, &fg, x + SWATCH_WIDTH + 6, y + (line_h - lh) / 2, label);
        }
      x += item_w + 18;
    }
  if (items->len > 0)
    y += line_h;
  height = ceil (y + MARGIN / 2);
  if (painter != NULL)
    painter->fill (painter, &rule, 0, height - 1, width, 1);
  return height;
}

/* ------------------------------------------------------------------------------------------ */

char *
tks_timeline_export_range (const TksTimelineGeometry *g)
{
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  const char *origin;

  g_return_val_if_fail (g != NULL, NULL);

  if (!g->time_ruler || !(g->tick_hz > 0))
    /* Translators: the range of an exported view, in board ticks */
    return g_strdup_printf (_("ticks %.0f to %.0f"), g->x0, g->x1);
  from = tks_timeline_format_us ((g->x0 - g->origin) * 1e6 / g->tick_hz);
  to = tks_timeline_format_us ((g->x1 - g->origin) * 1e6 / g->tick_hz);
  switch (g->origin_kind)
    {
    case TKS_TIME_ORIGIN_TRIGGER:
      origin = _("from the trigger");
      break;
    case TKS_TIME_ORIGIN_USER:
      origin = _("from the chosen origin");
      break;
    case TKS_TIME_ORIGIN_START:
    default:
      origin = _("from the capture’s start");
      break;
    }
  /* Translators: the range of an exported view: its begin, its end, where the times count
   * from ("from the trigger") */
  return g_strdup_printf (_("%s to %s, %s"), from, to, origin);
}

/* A context to lay the text out with: @like's font, language, resolution and options. */
static PangoContext *
export_context (PangoContext *like)
{
  PangoContext *pango = pango_font_map_create_context (pango_cairo_font_map_get_default ());

  if (like != NULL)
    {
      pango_context_set_font_description (pango, pango_context_get_font_description (like));
      pango_context_set_language (pango, pango_context_get_language (like));
      pango_cairo_context_set_resolution (pango, pango_cairo_context_get_resolution (like));
      pango_cairo_context_set_font_options (pango, pango_cairo_context_get_font_options (like));
    }
  return pango;
}

double
tks_timeline_export_band_height (const TksTimelineExport *request)
{
  PangoContext *pango = export_context (request->like);
  double height = band (request, pango, NULL);

  g_object_unref (pango);
  return height;
}

/* The band and the view on @t, the band @band_h high. */
static void
draw_all (const TksTimelineExport *request,
          Target                  *t,
          double                   band_h)
{
  target_push (t, 0, TRUE, 0, 0, request->width, band_h);
  band (request, t->painter->pango, t->painter);
  target_pop (t);
  draw_view (request, t, band_h);
  tks_painter_finish (t->painter);
}

static gboolean
write_svg (const TksTimelineExport *request,
           PangoContext            *pango,
           double                   band_h,
           const char              *path,
           GError                 **error)
{
  SvgPainter svg = { { 0 } };
  Target t = { &svg.painter, NULL, &svg };
  double height = band_h + request->height;
  g_autofree char *title = g_markup_escape_text (request->title != NULL ? request->title : "", -1);
  g_autoptr(GString) out = g_string_new (NULL);

  svg.painter.fill = svg_fill;
  svg.painter.text = svg_text;
  svg.painter.pango = pango;
  svg.painter.fg = (GdkRGBA) { 0.1, 0.1, 0.1, 1 };
  svg.svg = out;
  svg.path = g_string_new (NULL);
  g_string_append (out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                   "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"");
  svg_number (out, request->width);
  g_string_append (out, "\" height=\"");
  svg_number (out, height);
  g_string_append (out, "\" viewBox=\"0 0 ");
  svg_number (out, request->width);
  g_string_append_c (out, ' ');
  svg_number (out, height);
  g_string_append_printf (out, "\">\n<title>%s</title>\n", title);
  draw_all (request, &t, band_h);
  svg_flush (&svg);
  g_string_append (out, "</svg>\n");
  g_string_free (svg.path, TRUE);
  return g_file_set_contents (path, out->str, (gssize) out->len, error);
}

static gboolean
write_cairo (const TksTimelineExport *request,
             const char              *format,
             PangoContext            *pango,
             double                   band_h,
             const char              *path,
             GError                 **error)
{
  double height = band_h + request->height;
  cairo_surface_t *surface;
  cairo_status_t status;
  TksPainter painter;
  Target t = { &painter, NULL, NULL };

  if (g_str_equal (format, "pdf"))
    {
      g_autofree char *range = tks_timeline_export_range (request->geometry);
      g_autofree char *title = g_strdup_printf ("%s — %s", request->title != NULL ? request->title
                                                                                : "", range);

      surface = cairo_pdf_surface_create (path, request->width, height);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, title);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Tickscope");
    }
  else
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (request->width),
                                          (int) ceil (height));
  t.cr = cairo_create (surface);
  pango_cairo_update_context (t.cr, pango);
  tks_painter_init_cairo (&painter, t.cr, pango);
  draw_all (request, &t, band_h);
  cairo_destroy (t.cr);
  cairo_surface_flush (surface);
  if (g_str_equal (format, "png"))
    status = cairo_surface_write_to_png (surface, path);
  else
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_IO, "%s", cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

gboolean
tks_timeline_export_write (const TksTimelineExport *request,
                           const char              *format,
                           const char              *path,
                           GError                 **error)
{
  PangoContext *pango;
  double band_h;
  gboolean ok;

  g_return_val_if_fail (request != NULL && request->geometry != NULL, FALSE);
  g_return_val_if_fail (format != NULL && path != NULL, FALSE);

  if (!g_str_equal (format, "png") && !g_str_equal (format, "svg") && !g_str_equal (format, "pdf"))
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE, _("Unknown image format %s"), format);
      return FALSE;
    }
  pango = export_context (request->like);
  band_h = band (request, pango, NULL);
  if (g_str_equal (format, "svg"))
    ok = write_svg (request, pango, band_h, path, error);
  else
    ok = write_cairo (request, format, pango, band_h, path, error);
  g_object_unref (pango);
  return ok;
}
