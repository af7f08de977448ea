/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The time ruler above the lanes: in board ticks, or in real time from the ruler's 0 with
 * the ticks under it, at steps of 1, 2 or 5; and the times written as the ruler writes them. */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tks-time-format.h"
#include "tks-timeline-render.h"

double
tks_timeline_nice_step (double min_step)
{
  double p, f;

  if (!(min_step > 0) || !isfinite (min_step))
    return 1;
  p = pow (10, floor (log10 (min_step)));
  f = min_step / p;
  if (f <= 1)
    return p;
  if (f <= 2)
    return 2 * p;
  if (f <= 5)
    return 5 * p;
  return 10 * p;
}

static int
decimals_for (double step)
{
  int d = (int)ceil (-log10 (step) - 1e-9);
  return CLAMP (d, 0, 6);
}

char *
tks_timeline_format_ticks (double ticks,
                           double step)
{
  return g_strdup_printf ("%.*f", decimals_for (step), ticks);
}

char *
tks_timeline_format_duration (double ticks,
                              double tick_hz)
{
  /* time first, ticks second */
  return tks_time_format_span (ticks, tick_hz);
}

/* Whether a tick is a millisecond: then the ruler shows one number per step. */
static gboolean
ticks_are_ms (double tick_hz)
{
  return fabs (tick_hz - 1000.0) < 1e-6;
}

/* The ruler in real time: seconds, milliseconds or microseconds from the origin. */
static void
render_time_ruler (const TksTimelineGeometry *g,
                   TksPainter                *painter)
{
  GdkRGBA line = painter->fg;
  GdkRGBA text = painter->fg;
  GdkRGBA muted = painter->fg;
  GdkRGBA grid = painter->fg;
  double scale = g->width / (g->x1 - g->x0);
  double min_s = 110.0 / scale / g->tick_hz;
  double res_s = (g->resolution > 0 ? g->resolution : 1.0) / g->tick_hz;
  double step_s, unit, step, t;
  const char *legend;
  g_autoptr(PangoLayout) layout = NULL;
  double ruler_top = g->top - TKS_TIMELINE_RULER_HEIGHT;
  double label_y = ruler_top + 1;
  int decimals;

  line.alpha = 0.5;
  grid.alpha = 0.07;
  text.alpha = 0.85;
  muted.alpha = 0.55;
  /* never a step finer than what the data can tell apart */
  step_s = tks_timeline_nice_step (MAX (min_s, res_s));
  if (step_s >= 1.0)
    unit = 1.0;
  else if (step_s >= 1e-3)
    unit = 1e-3;
  else
    unit = 1e-6;
  decimals = decimals_for (step_s / unit);
  step = step_s * g->tick_hz;   /* in ticks */

  switch (g->origin_kind)
    {
    case TKS_TIME_ORIGIN_TRIGGER:
      /* Translators: the time ruler's unit and origin */
      legend = unit == 1.0 ? _("s from trigger") : unit == 1e-3 ? _("ms from trigger")
                                                                 : _("µs from trigger");
      break;
    case TKS_TIME_ORIGIN_USER:
      legend = unit == 1.0 ? _("s from origin") : unit == 1e-3 ? _("ms from origin")
                                                                : _("µs from origin");
      break;
    default:
      legend = unit == 1.0 ? _("s from start") : unit == 1e-3 ? _("ms from start")
                                                               : _("µs from start");
      break;
    }

  painter->fill (painter, &line, g->left, g->top - 1, g->width, 1);
  if (painter->pango != NULL)
    {
      int lw, lh;

      layout = pango_layout_new (painter->pango);
      pango_layout_set_text (layout, legend, -1);
      pango_layout_get_pixel_size (layout, &lw, &lh);
      label_y = ruler_top + MAX (1.0, (TKS_TIMELINE_RULER_HEIGHT - 9 - lh) / 2);
      if (g->left - 8 - lw >= 0)
        painter->text (painter, &muted, g->left - 8 - lw, label_y, layout);
    }

  /* steps counted from the origin, so that 0 falls on one */
  for (t = g->origin + ceil ((g->x0 - g->origin) / step - 1e-9) * step; t <= g->x1 + 1e-9 * step; t += step)
    {
      double x = g->left + (t - g->x0) * scale;

      painter->fill (painter, &line, x, g->top - 9, 1, 8);
      painter->fill (painter, &grid, x, g->top, 1, g->bottom - g->top);
      for (int i = 1; i < 5; i++)
        {
          double minor = x + i * step * scale / 5;

          if (minor < g->left + g->width)
            painter->fill (painter, &line, minor, g->top - 4, 1, 3);
        }
      if (layout != NULL)
        {
          double value = (t - g->origin) / g->tick_hz / unit;
          g_autofree char *label = NULL;
          int lw, lh;

          if (fabs (value) < 0.5 * pow (10, -decimals))
            value = 0;   /* no "-0.000" */
          label = g_strdup_printf ("%.*f", decimals, value);
          pango_layout_set_text (layout, label, -1);
          pango_layout_get_pixel_size (layout, &lw, &lh);
          if (x + 3 + lw <= g->left + g->width)
            painter->text (painter, &text, x + 3, label_y, layout);
        }
    }
}

void
tks_timeline_render_ruler (TksCapture                *capture,
                           const TksTimelineGeometry *g,
                           TksPainter                *painter)
{
  GdkRGBA line = painter->fg;
  GdkRGBA text = painter->fg;
  GdkRGBA muted = painter->fg;
  GdkRGBA grid = painter->fg;
  double scale, step, t, ms_step;
  g_autoptr(PangoLayout) layout = NULL;
  double ruler_top = g->top - TKS_TIMELINE_RULER_HEIGHT;
  gboolean two_rows = g->tick_hz > 0 && !ticks_are_ms (g->tick_hz);
  double label_y = ruler_top + 1;

  if (g->width <= 0 || !(g->x1 > g->x0))
    return;
  if (g->time_ruler && g->tick_hz > 0)
    {
      render_time_ruler (g, painter);
      return;
    }

  line.alpha = 0.5;
  grid.alpha = 0.07;
  text.alpha = 0.85;
  muted.alpha = 0.55;
  scale = g->width / (g->x1 - g->x0);
  step = tks_timeline_nice_step (110.0 / scale);
  ms_step = g->tick_hz > 0 ? step * 1000.0 / g->tick_hz : 0;

  painter->fill (painter, &line, g->left, g->top - 1, g->width, 1);
  if (painter->pango != NULL)
    {
      const char *legend;
      int lw, lh;

      layout = pango_layout_new (painter->pango);
      /* The units, once, left of the numbers: ticks over ms when they differ. */
      if (two_rows)
        /* Translators: the ruler's units, one per row of numbers */
        legend = _("ticks\nms");
      else if (g->tick_hz > 0)
        /* Translators: the ruler's unit when a tick lasts one millisecond */
        legend = _("ticks = ms");
      else
        /* Translators: the ruler's unit when the tick rate is unknown */
        legend = _("ticks");
      pango_layout_set_text (layout, legend, -1);
      pango_layout_set_alignment (layout, PANGO_ALIGN_RIGHT);
      pango_layout_get_pixel_size (layout, &lw, &lh);
      if (!two_rows)
        label_y = ruler_top + MAX (1.0, (TKS_TIMELINE_RULER_HEIGHT - 9 - lh) / 2);
      if (g->left - 8 - lw >= 0)
        painter->text (painter, &muted, g->left - 8 - lw, label_y, layout);
      pango_layout_set_alignment (layout, PANGO_ALIGN_LEFT);
    }

  for (t = ceil (g->x0 / step) * step; t <= g->x1; t += step)
    {
      double x = g->left + (t - g->x0) * scale;
      double minor;
      int i;

      painter->fill (painter, &line, x, g->top - 9, 1, 8);
      painter->fill (painter, &grid, x, g->top, 1, g->bottom - g->top);
      for (i = 1; i < 5; i++)
        {
          minor = x + i * step * scale / 5;
          if (minor < g->left + g->width)
            painter->fill (painter, &line, minor, g->top - 4, 1, 3);
        }

      if (layout != NULL)
        {
          g_autofree char *ticks = tks_timeline_format_ticks (t, step);
          g_autofree char *label = NULL;
          int lw, lh;

          if (two_rows)
            label = g_strdup_printf ("%s\n%.*f", ticks, decimals_for (ms_step), t * 1000.0 / g->tick_hz);
          else
            label = g_strdup (ticks);
          pango_layout_set_text (layout, label, -1);
          pango_layout_get_pixel_size (layout, &lw, &lh);
          /* a number that does not fit whole is left out rather than cut */
          if (x + 3 + lw <= g->left + g->width)
            painter->text (painter, &text, x + 3, label_y, layout);
        }
    }
}
