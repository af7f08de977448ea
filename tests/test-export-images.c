/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The view exported as PNG, SVG and PDF stands alone: above the timeline, a band with the
 * capture's name, its time range as the ruler tells it, and a legend of every lane in view
 * and of the marks the picture draws. An SVG keeps its text as text (<text> elements, no
 * glyph outlines); a PNG or PDF page is the timeline's size plus a band that is not blank.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <pango/pangocairo.h>

#include "tks-capture.h"
#include "tks-error.h"
#include "tks-timeline-events.h"
#include "tks-timeline-export.h"
#include "tks-test-data.h"
#include "tks-test-fonts.h"

#define WIDTH  1200.0
#define HEIGHT 1000.0

static void
geometry (TksCapture          *capture,
          TksTimelineGeometry *g)
{
  memset (g, 0, sizeof *g);
  g->x0 = tks_capture_get_start (capture) + 500;
  g->x1 = g->x0 + 250;
  g->left = TKS_TIMELINE_HEADER_WIDTH;
  g->width = WIDTH - TKS_TIMELINE_HEADER_WIDTH;
  g->top = TKS_TIMELINE_RULER_HEIGHT;
  g->bottom = HEIGHT;
  g->lane_height = TKS_TIMELINE_LANE_HEIGHT;
  g->tick_hz = 1000;
  g->resolution = 1;
  g->time_ruler = TRUE;
  g->origin = tks_capture_get_start (capture);
  g->origin_kind = TKS_TIME_ORIGIN_START;
  g->n_event_lanes = tks_timeline_n_event_lanes (capture);
}

static char *
temp_path (const char *name)
{
  g_autofree char *dir = g_dir_make_tmp ("tickscope-images-XXXXXX", NULL);

  g_assert_nonnull (dir);
  return g_build_filename (dir, name, NULL);
}

static void
remove_temp (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_unlink (path);
  g_rmdir (dir);
}

/* ------------------------------------------------------------------------------------------ */
/* An SVG read back: its <text> elements (text and baseline), whether it has glyph outlines.   */

typedef struct
{
  char   *text;
  double  y;
} SvgText;

typedef struct
{
  GArray   *texts;
  GString  *current;
  GArray   *shifts;     /* of the <g> elements open: translate(0,N) */
  double    y;
  gboolean  in_text;
  gboolean  glyphs;
  guint     n_paths;
  double    height;
} SvgRead;

static void
svg_text_clear (SvgText *t)
{
  g_free (t->text);
}

static void
svg_start (GMarkupParseContext *context,
           const char          *element,
           const char         **names,
           const char         **values,
           gpointer             data,
           GError             **error)
{
  SvgRead *r = data;

  if (g_str_equal (element, "text"))
    {
      r->in_text = TRUE;
      g_string_truncate (r->current, 0);
      r->y = NAN;
      for (guint i = 0; names[i] != NULL; i++)
        if (g_str_equal (names[i], "y"))
          r->y = g_ascii_strtod (values[i], NULL);
      for (guint i = 0; i < r->shifts->len; i++)
        r->y += g_array_index (r->shifts, double, i);
    }
  else if (g_str_equal (element, "g"))
    {
      double dy = 0;

      for (guint i = 0; names[i] != NULL; i++)
        if (g_str_equal (names[i], "transform"))
          g_assert_cmpint (sscanf (values[i], "translate(0,%lf)", &dy), ==, 1);
      g_array_append_val (r->shifts, dy);
    }
  else if (g_str_equal (element, "symbol") || g_str_equal (element, "glyph") ||
           g_str_equal (element, "use"))
    r->glyphs = TRUE;
  else if (g_str_equal (element, "path"))
    r->n_paths++;
  else if (g_str_equal (element, "svg"))
    for (guint i = 0; names[i] != NULL; i++)
      if (g_str_equal (names[i], "height"))
        r->height = g_ascii_strtod (values[i], NULL);
}

static void
svg_end (GMarkupParseContext *context,
         const char          *element,
         gpointer             data,
         GError             **error)
{
  SvgRead *r = data;

  if (g_str_equal (element, "text"))
    {
      SvgText t = { g_strdup (r->current->str), r->y };

      g_array_append_val (r->texts, t);
      r->in_text = FALSE;
    }
  else if (g_str_equal (element, "g"))
    g_array_set_size (r->shifts, r->shifts->len - 1);
}

static void
svg_chars (GMarkupParseContext *context,
           const char          *text,
           gsize                len,
           gpointer             data,
           GError             **error)
{
  SvgRead *r = data;

  if (r->in_text)
    g_string_append_len (r->current, text, (gssize) len);
}

static void
svg_read (const char *path,
          SvgRead    *r)
{
  static const GMarkupParser parser = { svg_start, svg_end, svg_chars, NULL, NULL };
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  GMarkupParseContext *context;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, &error));
  g_assert_no_error (error);
  memset (r, 0, sizeof *r);
  r->texts = g_array_new (FALSE, TRUE, sizeof (SvgText));
  g_array_set_clear_func (r->texts, (GDestroyNotify) svg_text_clear);
  r->current = g_string_new (NULL);
  r->shifts = g_array_new (FALSE, FALSE, sizeof (double));
  context = g_markup_parse_context_new (&parser, 0, r, NULL);
  g_assert_true (g_markup_parse_context_parse (context, contents, (gssize) len, &error));
  g_assert_true (g_markup_parse_context_end_parse (context, &error));
  g_assert_no_error (error);
  g_markup_parse_context_free (context);
}

static void
svg_read_clear (SvgRead *r)
{
  g_array_unref (r->texts);
  g_array_unref (r->shifts);
  g_string_free (r->current, TRUE);
}

/* How many <text> elements say @text exactly, in the band above @band_h or under it. */
static guint
count_text (const SvgRead *r,
            const char    *text,
            double         band_h,
            gboolean       in_band)
{
  guint n = 0;

  for (guint i = 0; i < r->texts->len; i++)
    {
      const SvgText *t = &g_array_index (r->texts, SvgText, i);

      if (g_str_equal (t->text, text) && (t->y < band_h) == in_band)
        n++;
    }
  return n;
}

/* How many lane headers under @band_h say @name (then its priority). */
static guint
count_header (const SvgRead *r,
              const char    *name,
              double         band_h)
{
  guint n = 0;

  for (guint i = 0; i < r->texts->len; i++)
    {
      const SvgText *t = &g_array_index (r->texts, SvgText, i);

      if (t->y > band_h && g_str_has_prefix (t->text, name) &&
          (t->text[strlen (name)] == '\0' || t->text[strlen (name)] == ' '))
        n++;
    }
  return n;
}

/* ------------------------------------------------------------------------------------------ */

static void
test_svg (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("simboard-record-events.raw.txt");
  g_autofree char *path = temp_path ("view.svg");
  g_autofree char *range = NULL;
  g_autoptr(GError) error = NULL;
  TksTimelineGeometry g;
  TksTimelineExport request = { 0 };
  guint first, last, n_names = 0;
  double band_h;
  SvgRead r;

  geometry (capture, &g);
  request.capture = capture;
  request.geometry = &g;
  request.width = WIDTH;
  request.height = HEIGHT;
  request.title = "cap10.txt";
  band_h = tks_timeline_export_band_height (&request);
  g_assert_cmpfloat (band_h, >, 30);
  g_assert_true (tks_timeline_export_write (&request, "svg", path, &error));
  g_assert_no_error (error);
  svg_read (path, &r);

  /* text stays text: no glyph outlines, and the picture as wide and as high as asked */
  g_assert_false (r.glyphs);
  g_assert_cmpuint (r.n_paths, >, 20);
  g_assert_cmpfloat_with_epsilon (r.height, HEIGHT + band_h, 0.01);

  /* the name and the range in the ruler's origin and unit, in the band */
  g_assert_cmpuint (count_text (&r, "cap10.txt", band_h, TRUE), ==, 1);
  range = tks_timeline_export_range (&g);
  g_assert_cmpstr (range, ==, "500.000 ms to 750.000 ms, from the capture’s start");
  g_assert_cmpuint (count_text (&r, range, band_h, TRUE), ==, 1);

  /* every lane in view: its name in its header and in the legend */
  g_assert_true (tks_timeline_visible_lanes (&g, tks_timeline_n_lanes (capture, &g), &first, &last));
  for (guint l = first; l < last; l++)
    {
      int priority;
      const char *name = tks_timeline_lane_name (capture, &g, l, &priority);

      g_assert_nonnull (name);
      g_assert_cmpuint (count_text (&r, name, band_h, TRUE), >=, 1);
      g_assert_cmpuint (count_header (&r, name, band_h), >=, 1);
      n_names++;
    }
  g_assert_cmpuint (n_names, >, 10);
  /* the handlers, the CPU's sleep and the exits are in it too, and the ruler's labels stay
   * text under the band */
  g_assert_cmpuint (count_text (&r, "interrupt handler", band_h, TRUE), ==, 1);
  g_assert_cmpuint (count_text (&r, "CPU sleep", band_h, TRUE), ==, 1);
  g_assert_cmpuint (count_text (&r, "exited", band_h, TRUE), ==, 1);
  g_assert_cmpuint (count_text (&r, "ms from start", band_h, FALSE), ==, 1);
  g_assert_cmpuint (count_text (&r, "600", band_h, FALSE), ==, 1);

  svg_read_clear (&r);
  remove_temp (path);
}

/* The range in ticks when the ruler is, and from the trigger when the ruler counts from it;
 * a trigger in view is in the legend. */
static void
test_range_origins (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-trigger-exits.saved.txt");
  g_autofree char *path = temp_path ("trigger.svg");
  g_autofree char *ticks = NULL;
  g_autofree char *from_trigger = NULL;
  g_autoptr(GError) error = NULL;
  TksTimelineGeometry g;
  TksTimelineExport request = { 0 };
  double trigger;
  SvgRead r;

  geometry (capture, &g);
  g_assert_true (tks_capture_get_trigger (capture, &trigger));
  g.x0 = trigger - 12;
  g.x1 = trigger + 48.5;
  g.origin = trigger;
  g.origin_kind = TKS_TIME_ORIGIN_TRIGGER;
  from_trigger = tks_timeline_export_range (&g);
  g_assert_cmpstr (from_trigger, ==, "-12.000 ms to 48.500 ms, from the trigger");
  g.time_ruler = FALSE;
  ticks = tks_timeline_export_range (&g);
  g_assert_cmpstr (ticks, ==, "ticks 17142 to 17202");
  g.time_ruler = TRUE;

  request.capture = capture;
  request.geometry = &g;
  request.width = WIDTH;
  request.height = HEIGHT;
  request.title = "board-trigger-exits.saved.txt";
  g_assert_true (tks_timeline_export_write (&request, "svg", path, &error));
  g_assert_no_error (error);
  svg_read (path, &r);
  g_assert_cmpuint (count_text (&r, from_trigger, 1e9, TRUE), ==, 1);
  g_assert_cmpuint (count_text (&r, "trigger", 1e9, TRUE), ==, 1);
  svg_read_clear (&r);
  remove_temp (path);
}

/* Pixels of the band that are not the background. */
static guint
inked (cairo_surface_t *surface,
       int              y0,
       int              y1)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);
  guint n = 0;

  for (int y = y0; y < y1; y++)
    for (int x = 0; x < cairo_image_surface_get_width (surface); x++)
      {
        guint32 v;

        memcpy (&v, data + y * stride + x * 4, sizeof v);
        if (((v >> 16) & 0xff) < 160 && ((v >> 8) & 0xff) < 160 && (v & 0xff) < 160)
          n++;
      }
  return n;
}

static void
test_png (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("simboard-record-events.raw.txt");
  g_autofree char *path = temp_path ("view.png");
  g_autoptr(GError) error = NULL;
  TksTimelineGeometry g;
  TksTimelineExport request = { 0 };
  cairo_surface_t *png;
  double band_h;
  guint title_ink;

  geometry (capture, &g);
  request.capture = capture;
  request.geometry = &g;
  request.width = WIDTH;
  request.height = HEIGHT;
  request.title = "cap10.txt";
  band_h = tks_timeline_export_band_height (&request);
  g_assert_true (tks_timeline_export_write (&request, "png", path, &error));
  g_assert_no_error (error);
  png = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (png), ==, (int) WIDTH);
  g_assert_cmpint (cairo_image_surface_get_height (png), ==, (int) ceil (HEIGHT + band_h));
  /* the title's line has text in it, and the legend's rows too */
  title_ink = inked (png, 0, 30);
  g_test_message ("band %.0f px high, %u dark pixels in the title's line, %u in the band",
                  band_h, title_ink, inked (png, 0, (int) band_h));
  g_assert_cmpuint (title_ink, >, 100);
  g_assert_cmpuint (inked (png, 30, (int) band_h - 2), >, 300);
  cairo_surface_destroy (png);
  remove_temp (path);
}

/* @needle in the @len bytes of @data (a PDF's streams have NULs), NULL when absent. */
static const char *
find_bytes (const char *data,
            gsize       len,
            const char *needle)
{
  gsize n = strlen (needle);

  for (gsize i = 0; i + n <= len; i++)
    if (memcmp (data + i, needle, n) == 0)
      return data + i;
  return NULL;
}

static void
test_pdf (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("simboard-record-events.raw.txt");
  g_autofree char *path = temp_path ("view.pdf");
  g_autofree char *contents = NULL;
  g_autofree char *pdftotext = g_find_program_in_path ("pdftotext");
  g_autoptr(GError) error = NULL;
  TksTimelineGeometry g;
  TksTimelineExport request = { 0 };
  g_autofree char *range = NULL;
  const char *box, *title;
  double band_h, w, h;
  gsize len;

  geometry (capture, &g);
  request.capture = capture;
  request.geometry = &g;
  request.width = WIDTH;
  request.height = HEIGHT;
  request.title = "cap10.txt";
  band_h = tks_timeline_export_band_height (&request);
  range = tks_timeline_export_range (&g);
  g_assert_true (tks_timeline_export_write (&request, "pdf", path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_true (g_str_has_prefix (contents, "%PDF-"));
  /* one page, the timeline's size and the band's */
  box = find_bytes (contents, len, "/MediaBox [");
  g_assert_nonnull (box);
  g_assert_cmpint (sscanf (box, "/MediaBox [ 0 0 %lf %lf ]", &w, &h), ==, 2);
  g_assert_cmpfloat_with_epsilon (w, WIDTH, 0.5);
  g_assert_cmpfloat_with_epsilon (h, HEIGHT + band_h, 0.5);
  /* the document's title: the name and the range (UTF-16 in hexadecimal) */
  title = find_bytes (contents, len, "/Title <FEFF");
  g_assert_nonnull (title);
  {
    g_autoptr(GArray) units = g_array_new (FALSE, FALSE, sizeof (gunichar2));
    g_autofree char *text = NULL;
    g_autofree char *expected = g_strdup_printf ("cap10.txt — %s", range);

    for (const char *p = title + strlen ("/Title <FEFF"); g_ascii_isxdigit (*p); p += 4)
      {
        char digits[5] = { 0 };
        gunichar2 unit;

        memcpy (digits, p, 4);
        unit = (gunichar2) g_ascii_strtoull (digits, NULL, 16);

        g_array_append_val (units, unit);
      }
    text = g_utf16_to_utf8 (&g_array_index (units, gunichar2, 0), units->len, NULL, NULL, NULL);
    g_assert_cmpstr (text, ==, expected);
  }
  if (pdftotext != NULL)
    {
      const char *argv[] = { pdftotext, path, "-", NULL };
      g_autofree char *out = NULL;
      int status;

      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                                   NULL, &out, NULL, &status, &error));
      g_assert_no_error (error);
      g_assert_nonnull (strstr (out, "cap10.txt"));
      g_assert_nonnull (strstr (out, "500.000 ms to 750.000 ms"));
      g_assert_nonnull (strstr (out, "interrupt handler"));
    }
  else
    g_test_message ("pdftotext not found: the page's text is not read back");
  remove_temp (path);
}

static void
test_bad_format (void)
{
  g_autoptr(TksCapture) capture = tks_test_load_data ("board-events-v2.raw.txt");
  g_autoptr(GError) error = NULL;
  TksTimelineGeometry g;
  TksTimelineExport request = { 0 };

  geometry (capture, &g);
  request.capture = capture;
  request.geometry = &g;
  request.width = WIDTH;
  request.height = HEIGHT;
  g_assert_false (tks_timeline_export_write (&request, "gif", "/nonexistent/view.gif", &error));
  g_assert_error (error, TKS_ERROR, TKS_ERROR_USAGE);
  g_clear_error (&error);
  g_assert_false (tks_timeline_export_write (&request, "svg", "/nonexistent/dir/view.svg", &error));
  g_assert_nonnull (error);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/export/images/svg", test_svg);
  g_test_add_func ("/export/images/range-origins", test_range_origins);
  g_test_add_func ("/export/images/png", test_png);
  g_test_add_func ("/export/images/pdf", test_pdf);
  g_test_add_func ("/export/images/bad-format", test_bad_format);

  {
    int status = g_test_run ();

    tks_test_release_fonts ();
    return status;
  }
}
