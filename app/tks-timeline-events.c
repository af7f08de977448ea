/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tks-timeline-events.h"

/* Colours of the event lanes: handlers red, sleep grey, markers purple; states take the
 * threads' palette by state id. */
const GdkRGBA tks_timeline_irq_color = { 0.75, 0.11, 0.16, 1.0 };
const GdkRGBA tks_timeline_sleep_color = { 0.47, 0.46, 0.48, 0.55 };
static const GdkRGBA marker_color = { 0.51, 0.24, 0.61, 1.0 };

#define MIN_LABEL_WIDTH 36.0
#define MAX_MERGED_DEPTHS 8

TksEventLane *
tks_timeline_event_lanes (TksCapture *capture,
                          guint      *n_lanes)
{
  static const TksTrackKind order[] = { TKS_TRACK_IRQ, TKS_TRACK_SLEEP, TKS_TRACK_STATE,
                                        TKS_TRACK_MARKER };
  TksEvents *events = capture != NULL ? tks_capture_get_events (capture) : NULL;
  TksEventLane *lanes;
  guint n = 0, total = 0;

  *n_lanes = 0;
  if (events == NULL)
    return NULL;
  for (guint k = 0; k < G_N_ELEMENTS (order); k++)
    {
      guint count;

      tks_events_get_tracks (events, order[k], &count);
      total += count;
    }
  if (total == 0)
    return NULL;
  lanes = g_new0 (TksEventLane, total);
  for (guint k = 0; k < G_N_ELEMENTS (order); k++)
    {
      guint count;
      const TksTrack *tracks = tks_events_get_tracks (events, order[k], &count);

      for (guint i = 0; i < count; i++)
        lanes[n++].track = &tracks[i];
    }
  *n_lanes = n;
  return lanes;
}

guint
tks_timeline_n_event_lanes (TksCapture *capture)
{
  g_autofree TksEventLane *lanes = NULL;
  guint n;

  lanes = tks_timeline_event_lanes (capture, &n);
  return n;
}

double
tks_timeline_event_lane_y (const TksTimelineGeometry *g,
                           guint                      lane)
{
  /* below the pinned thread lanes, scrolled */
  return g->top + (g->n_pinned + lane) * g->lane_height - g->v_offset;
}


char *
tks_timeline_format_point (const TksTimelineGeometry *g,
                           double                     t)
{
  return tks_time_format_at (t, g->origin, g->time_ruler ? g->tick_hz : 0,
                             g->resolution > 0 ? g->resolution : 1.0);
}

/* The first slice that may show at or after @t: slices are sorted by begin, and nested ones
 * lie inside an outermost one, so the walk back stops at an outermost slice ended by @t. */
G_STATIC_ASSERT (G_STRUCT_OFFSET (TksSlice, begin) == 0 && G_STRUCT_OFFSET (TksTime, pos) == 0);
G_STATIC_ASSERT (G_STRUCT_OFFSET (TksInstant, time) == 0);

static guint
first_slice_at (const TksTrack *track,
                double          t)
{
  guint lo = tks_first_at (track->slices, sizeof (TksSlice), 0, track->n_slices, t);

  while (lo > 0)
    {
      const TksSlice *prev = &track->slices[lo - 1];

      lo--;
      if (prev->depth == 0 && prev->end.pos <= t)
        return lo + 1;
    }
  return lo;
}

static guint
first_instant_at (const TksTrack *track,
                  double          t)
{
  return tks_first_at (track->instants, sizeof (TksInstant), 0, track->n_instants, t);
}

static void
slice_color (const TksTrack *track,
             const TksSlice *slice,
             GdkRGBA        *color)
{
  if (track->kind == TKS_TRACK_IRQ)
    {
      *color = tks_timeline_irq_color;
      /* nested handlers lighter, so the nesting shows */
      color->alpha = MAX (0.45, 1.0 - 0.18 * slice->depth);
    }
  else if (track->kind == TKS_TRACK_SLEEP)
    *color = tks_timeline_sleep_color;
  else
    {
      tks_timeline_palette_color (g_str_hash (slice->label != NULL ? slice->label : ""), color);
      color->alpha = 0.85;
    }
}

/* Where a slice of @depth is drawn in a lane at @y. */
static void
slice_box (const TksTimelineGeometry *g,
           const TksTrack            *track,
           guint                      depth,
           double                     y,
           double                    *box_y,
           double                    *box_h)
{
  double inset = MIN (5.0, floor (g->lane_height * 0.15));
  double h = g->lane_height - 2 * inset;

  if (track->kind == TKS_TRACK_STATE && track->max_depth > 1)
    {
      /* stacked: one row per nesting level */
      double row = h / track->max_depth;

      *box_y = y + inset + depth * row;
      *box_h = MAX (1.0, row - 1);
    }
  else
    {
      /* inside each other: every level 3 px in */
      double in = MIN (depth * 3.0, h / 2 - 1);

      *box_y = y + inset + in;
      *box_h = MAX (1.0, h - 2 * in);
    }
}

static void
draw_label (TksPainter    *painter,
            PangoLayout   *layout,
            const char    *text,
            const GdkRGBA *color,
            double         x,
            double         width,
            double         y,
            double         height)
{
  int lw, lh;

  pango_layout_set_width (layout, (int) ((width - 4) * PANGO_SCALE));
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &lw, &lh);
  if (lh <= height + 2)
    painter->text (painter, color, x + 2, y + (height - lh) / 2, layout);
}

/* A span of slices narrower than pixels, drawn at the share of it they cover (never fainter
 * than a quarter), as the threads' runs are. */
static void
flush_merged (const TksTimelineGeometry *g,
              TksPainter                *painter,
              const TksTrack            *track,
              double                     y,
              double                     b,
              double                     e,
              double                     busy,
              const GdkRGBA             *color,
              guint                      depth)
{
  GdkRGBA shaded = *color;
  double by, bh;

  slice_box (g, track, depth, y, &by, &bh);
  shaded.alpha *= 0.25 + 0.75 * CLAMP (busy / MAX (1.0, e - b), 0.0, 1.0);
  painter->fill (painter, &shaded, g->left + b, by, e - b, bh);
}

static void
render_slices (const TksTimelineGeometry *g,
               TksPainter                *painter,
               PangoLayout               *layout,
               const TksTrack            *track,
               double                     y)
{
  double scale = g->width / (g->x1 - g->x0);
  double merged_b[MAX_MERGED_DEPTHS], merged_e[MAX_MERGED_DEPTHS];
  double merged_busy[MAX_MERGED_DEPTHS];   /* pixels of slices in the merged span */
  GdkRGBA merged_color[MAX_MERGED_DEPTHS];
  static const GdkRGBA label_color = { 1, 1, 1, 1 };

  for (guint d = 0; d < MAX_MERGED_DEPTHS; d++)
    merged_b[d] = merged_e[d] = -1;

  for (guint i = first_slice_at (track, g->x0); i < track->n_slices; i++)
    {
      const TksSlice *s = &track->slices[i];
      double b, e, by, bh, busy;
      GdkRGBA color;

      if (s->begin.pos > g->x1)
        break;
      if (s->end.pos < g->x0)
        continue;
      b = MAX (0.0, (s->begin.pos - g->x0) * scale);
      e = MIN (g->width, (s->end.pos - g->x0) * scale);
      busy = MAX (0.0, e - b);
      if (e - b < 1.0)
        e = b + 1.0;
      slice_color (track, s, &color);
      slice_box (g, track, s->depth, y, &by, &bh);
      if (s->depth < MAX_MERGED_DEPTHS)
        {
          guint d = s->depth;

          /* Slices narrower than a pixel merge into pixel columns. */
          if (merged_e[d] >= 0 && b <= merged_e[d] + 0.5 && e - b < 2.0)
            {
              merged_e[d] = MAX (merged_e[d], e);
              merged_busy[d] += busy;
              continue;
            }
          if (merged_e[d] >= 0)
            {
              flush_merged (g, painter, track, y, merged_b[d], merged_e[d], merged_busy[d],
                            &merged_color[d], d);
              merged_e[d] = -1;
            }
          if (e - b < 2.0)
            {
              merged_b[d] = b;
              merged_e[d] = e;
              merged_busy[d] = busy;
              merged_color[d] = color;
              continue;
            }
        }
      painter->fill (painter, &color, g->left + b, by, e - b, bh);
      if (e - b >= MIN_LABEL_WIDTH && s->label != NULL && layout != NULL)
        draw_label (painter, layout, s->label,
                    track->kind == TKS_TRACK_SLEEP ? &painter->fg : &label_color,
                    g->left + b, e - b, by, bh);
    }
  for (guint d = 0; d < MAX_MERGED_DEPTHS; d++)
    if (merged_e[d] >= 0)
      flush_merged (g, painter, track, y, merged_b[d], merged_e[d], merged_busy[d],
                    &merged_color[d], d);
}

static void
render_instants (const TksTimelineGeometry *g,
                 TksPainter                *painter,
                 PangoLayout               *layout,
                 const TksTrack            *track,
                 double                     y)
{
  double scale = g->width / (g->x1 - g->x0);
  double last_x = -1e9;

  for (guint i = first_instant_at (track, g->x0); i < track->n_instants; i++)
    {
      const TksInstant *m = &track->instants[i];
      double x = (m->time.pos - g->x0) * scale;

      if (m->time.pos > g->x1)
        break;
      if (x - last_x < 1.0)
        continue;   /* one flag a pixel */
      last_x = x;
      painter->fill (painter, &marker_color, g->left + x, y + 3, 1.5, g->lane_height - 6);
      painter->fill (painter, &marker_color, g->left + x, y + 3, 7, 6);
      if (layout != NULL)
        {
          double next = i + 1 < track->n_instants
                        ? (track->instants[i + 1].time.pos - g->x0) * scale : g->width;
          g_autofree char *value = g_strdup_printf ("%u", m->value);
          int lw, lh;

          pango_layout_set_width (layout, -1);
          pango_layout_set_text (layout, value, -1);
          pango_layout_get_pixel_size (layout, &lw, &lh);
          if (next - x >= lw + 12 && x + 9 + lw <= g->width)
            painter->text (painter, &painter->fg, g->left + x + 9, y + g->lane_height - lh - 2,
                           layout);
        }
    }
}

/* Whether @thread counts in the CPU's load: logged, and not the idle thread (the lowest
 * priority, as ChibiOS gives it). */
static gboolean
counts_in_load (const TksThread *thread)
{
  return thread != NULL && (thread->flags & TKS_THREAD_LOGGED) && thread->n_runs > 0
         && thread->priority > 1;
}

/* The CPU's load in each pixel column: the share each thread ran, stacked from the bottom
 * in lane order, idle left out. */
static void
render_load (TksCapture                *capture,
             const TksTimelineGeometry *g,
             TksPainter                *painter,
             double                     y)
{
  double scale = g->width / (g->x1 - g->x0);
  double inset = MIN (3.0, floor (g->lane_height * 0.1));
  double h = g->lane_height - 2 * inset;
  const guint *lanes;
  guint n_lanes;
  g_autofree guint *cursor = NULL;

  lanes = tks_capture_get_shown_lanes (capture, g->all_lanes, &n_lanes);
  cursor = g_new0 (guint, MAX (n_lanes, 1));
  /* two pixels a column: the graph costs half the rectangles */
  for (double col = 0; col < g->width; col += 2)
    {
      double t0 = g->x0 + col / scale, t1 = g->x0 + MIN (col + 2, g->width) / scale;
      double base = y + inset + h;

      for (guint l = n_lanes; l-- > 0;)
        {
          const TksThread *th = tks_capture_get_thread (capture, lanes[l]);
          double busy, bar;
          GdkRGBA color;

          if (!counts_in_load (th))
            continue;
          busy = tks_thread_busy (th, t0, t1) / (t1 - t0);
          if (busy <= 0)
            continue;
          bar = MIN (busy * h, base - (y + inset));
          if (bar < 0.5)
            continue;
          tks_timeline_thread_color (th, &color);
          painter->fill (painter, &color, g->left + col, base - bar, MIN (2.0, g->width - col), bar);
          base -= bar;
        }
    }
}

void
tks_timeline_render_events (TksCapture                *capture,
                            const TksTimelineGeometry *g,
                            TksPainter                *painter)
{
  g_autofree TksEventLane *lanes = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  GdkRGBA band = painter->fg;
  TksClipPainter scrolled;
  double top = tks_timeline_scroll_top (g);
  guint n;

  if (capture == NULL || g->width <= 0 || !(g->x1 > g->x0))
    return;
  /* the event lanes scroll under the pinned thread lanes */
  tks_clip_painter_init (&scrolled, painter, top);
  painter = &scrolled.base;
  lanes = tks_timeline_event_lanes (capture, &n);
  if (painter->pango != NULL)
    {
      layout = pango_layout_new (painter->pango);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
    }
  band.alpha = 0.05;
  if (g->load_graph)
    {
      double y = tks_timeline_event_lane_y (g, 0);

      if (y + g->lane_height > top && y < g->bottom)
        {
          painter->fill (painter, &band, g->left, y, g->width, g->lane_height);
          render_load (capture, g, painter, y);
        }
    }
  for (guint i = 0; i < n; i++)
    {
      const TksTrack *track = lanes[i].track;
      double y = tks_timeline_event_lane_y (g, i + (g->load_graph ? 1 : 0));

      if (y + g->lane_height <= top || y >= g->bottom)
        continue;
      painter->fill (painter, &band, g->left, y, g->width, g->lane_height);
      if (track->kind == TKS_TRACK_MARKER)
        render_instants (g, painter, layout, track, y);
      else
        render_slices (g, painter, layout, track, y);
    }
}

static char *
lane_title (const TksTrack *track)
{
  switch (track->kind)
    {
    case TKS_TRACK_IRQ:
      /* Translators: the name of an interrupt handler's lane */
      return g_strdup_printf (_("IRQ %s"), track->name);
    case TKS_TRACK_SLEEP:
      return g_strdup (_("CPU sleep"));
    case TKS_TRACK_STATE:
      /* Translators: the lane of a channel of states, e.g. "filter (states)" */
      return g_strdup_printf (_("%s (states)"), track->name);
    default:
      /* Translators: the lane of a marker, e.g. "sample (marker)" */
      return g_strdup_printf (_("%s (marker)"), track->name);
    }
}

void
tks_timeline_render_event_headers (TksCapture                *capture,
                                   const TksTimelineGeometry *g,
                                   TksPainter                *painter)
{
  g_autofree TksEventLane *lanes = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  TksClipPainter scrolled;
  guint n;

  if (capture == NULL || painter->pango == NULL)
    return;
  tks_clip_painter_init (&scrolled, painter, tks_timeline_scroll_top (g));
  painter = &scrolled.base;
  lanes = tks_timeline_event_lanes (capture, &n);
  if (n == 0 && !g->load_graph)
    return;
  layout = pango_layout_new (painter->pango);
  pango_layout_set_width (layout, (int) (g->left - 12) * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  if (g->load_graph)
    {
      int lw, lh;
      double y = tks_timeline_event_lane_y (g, 0);

      pango_layout_set_text (layout, _("CPU load"), -1);
      pango_layout_get_pixel_size (layout, &lw, &lh);
      painter->text (painter, &painter->fg, 10, y + (g->lane_height - lh) / 2, layout);
    }
  for (guint i = 0; i < n; i++)
    {
      const TksTrack *track = lanes[i].track;
      double y = tks_timeline_event_lane_y (g, i + (g->load_graph ? 1 : 0));
      g_autofree char *title = NULL;
      const GdkRGBA *chip;
      int lw, lh;

      if (y + g->lane_height <= tks_timeline_scroll_top (g) || y >= g->bottom)
        continue;
      chip = track->kind == TKS_TRACK_IRQ ? &tks_timeline_irq_color
             : track->kind == TKS_TRACK_MARKER ? &marker_color : &tks_timeline_sleep_color;
      title = lane_title (track);
      pango_layout_set_text (layout, title, -1);
      pango_layout_get_pixel_size (layout, &lw, &lh);
      painter->fill (painter, chip, 2, y + 6, 4, g->lane_height - 12);
      painter->text (painter, &painter->fg, 10, y + (g->lane_height - lh) / 2, layout);
    }
}

/* The load graph's tooltip at @x: the share of its pixel column every thread but idle ran. */
static char *
load_tooltip (TksCapture                *capture,
              const TksTimelineGeometry *g,
              double                     x)
{
  double scale0 = g->width / (g->x1 - g->x0);
  double t0 = g->x0 + (x - g->left) / scale0, t1 = t0 + 1 / scale0, busy = 0;
  const guint *threads;
  guint n_threads;

  threads = tks_capture_get_shown_lanes (capture, g->all_lanes, &n_threads);
  for (guint l = 0; l < n_threads; l++)
    {
      const TksThread *th = tks_capture_get_thread (capture, threads[l]);

      if (counts_in_load (th))
        busy += tks_thread_busy (th, t0, t1);
    }
  /* Translators: the CPU load graph's tooltip: threads busy, idle left out */
  return g_strdup_printf (_("<b>CPU load</b> %.0f %%\nthreads other than idle, over this pixel"),
                          100 * MIN (1.0, busy / (t1 - t0)));
}

/* A marker's tooltip: the one within @tol of @t on @track, NULL when none is. */
static char *
marker_tooltip (TksEvents                 *events,
                const TksTimelineGeometry *g,
                const TksTrack            *track,
                double                     t,
                double                     tol)
{
  guint i = first_instant_at (track, t - tol);
  const TksInstant *m;
  g_autofree char *since = NULL;
  g_autofree char *at = NULL;
  g_autofree char *name = NULL;

  if (i >= track->n_instants || track->instants[i].time.pos > t + tol)
    return NULL;
  m = &track->instants[i];
  since = tks_timeline_format_us (tks_events_to_us (events, m->time.time - track->instants[0].time.time));
  at = tks_timeline_format_point (g, m->time.pos);
  name = g_markup_escape_text (track->name, -1);
  /* Translators: a marker's tooltip: its name and value; its place among the marker's, when
   * (from the ruler's 0), and the time since its first */
  return g_strdup_printf (_("<b>%s</b> = %u\nmarker %u of %u, at %s, %s after the first"),
                          name, m->value, i + 1, track->n_instants, at, since);
}

/* The deepest slice of @track within @tol of @t; NULL when none is. */
static const TksSlice *
slice_near (const TksTrack *track,
            double          t,
            double          tol)
{
  const TksSlice *best = NULL;

  for (guint i = first_slice_at (track, t - tol); i < track->n_slices; i++)
    {
      const TksSlice *s = &track->slices[i];

      if (s->begin.pos > t + tol)
        break;
      if (s->end.pos >= t - tol && (best == NULL || s->depth >= best->depth))
        best = s;
    }
  return best;
}

/* A handler's, the CPU's sleep's or a state's tooltip, for @slice of @track. */
static char *
slice_tooltip (TksCapture                *capture,
               const TksTimelineGeometry *g,
               const TksTrack            *track,
               const TksSlice            *slice)
{
  TksEvents *events = tks_capture_get_events (capture);
  g_autofree char *length = tks_timeline_format_us (
    tks_events_to_us (events, slice->end.time - slice->begin.time));
  /* from the ruler's 0, as every time the view shows */
  g_autofree char *at = tks_timeline_format_point (g, slice->begin.pos);
  g_autofree char *label = g_markup_escape_text (slice->label != NULL ? slice->label : "", -1);

  switch (track->kind)
    {
    case TKS_TRACK_IRQ:
      /* Translators: an interrupt handler's tooltip: name, duration, start, nesting */
      return g_strdup_printf (_("<b>%s</b>\nran %s, from %s%s"), label, length, at,
                              slice->depth > 0 ? _(" (nested in another handler)") : "");
    case TKS_TRACK_SLEEP:
      if (slice->label != NULL)
        return g_strdup_printf (_("<b>CPU asleep</b> %s, from %s\nwoken by %s"), length,
                                at, label);
      return g_strdup_printf (_("<b>CPU asleep</b> %s, from %s"), length, at);
    default:
      {
        g_autofree char *channel = g_markup_escape_text (track->name, -1);

        /* Translators: a state's tooltip: channel: state, duration, start */
        return g_strdup_printf (_("<b>%s: %s</b>\n%s, from %s"), channel, label, length, at);
      }
    }
}

char *
tks_timeline_event_tooltip (TksCapture                *capture,
                            const TksTimelineGeometry *g,
                            double                     x,
                            double                     y)
{
  g_autofree TksEventLane *lanes = NULL;
  TksEvents *events;
  const TksTrack *track;
  const TksSlice *slice;
  double lane, t, tol, scale;
  guint n;

  if (capture == NULL || g->width <= 0 || !(g->x1 > g->x0) || x < g->left || y < g->top
      || y >= g->bottom)
    return NULL;
  events = tks_capture_get_events (capture);
  lanes = tks_timeline_event_lanes (capture, &n);
  if (y < tks_timeline_scroll_top (g))
    return NULL;   /* a pinned thread lane */
  lane = floor ((y - g->top + g->v_offset) / g->lane_height) - g->n_pinned;
  if (g->load_graph)
    {
      if (lane == 0)
        return load_tooltip (capture, g, x);
      lane--;
    }
  if (events == NULL || lane < 0 || lane >= n)
    return NULL;
  track = lanes[(guint) lane].track;
  scale = g->width / (g->x1 - g->x0);
  t = g->x0 + (x - g->left) / scale;
  tol = 3.0 / scale;

  if (track->kind == TKS_TRACK_MARKER)
    return marker_tooltip (events, g, track, t, tol);
  slice = slice_near (track, t, tol);
  return slice != NULL ? slice_tooltip (capture, g, track, slice) : NULL;
}

const TksWakeup *
tks_timeline_wakeup_of_run (TksCapture *capture,
                            guint       thread,
                            double      begin)
{
  TksEvents *events = capture != NULL ? tks_capture_get_events (capture) : NULL;
  const TksWakeup *wakeups;
  const TksWakeup *best = NULL;
  guint n;

  if (events == NULL)
    return NULL;
  wakeups = tks_events_get_wakeups (events, &n);
  for (guint i = 0; i < n; i++)
    {
      if (wakeups[i].ready.pos > begin)
        break;
      if (wakeups[i].thread == thread && !wakeups[i].open && fabs (wakeups[i].run.pos - begin) < 1e-9)
        best = &wakeups[i];
    }
  return best;
}
