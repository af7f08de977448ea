/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The events' placement: a dump version 2's entries on the unwrapped ticks and counter, and
 * each entry's place inside its tick (docs/rebuild.md). */
#include "config.h"

#include <math.h>

#include "tks-events-private.h"

#define COUNTER_PERIOD ((gint64) 1 << 32)

/* The entries on the timeline: all but the switches the rebuild dropped (a save leaves them
 * out too, so a saved capture places the others the same); @map: their indices among all. */
TksParsedEntry *
tks_parsed_events_kept_entries (TksParsedEvents *ev,
                                const GArray    *records,
                                guint          **map,
                                guint           *n_kept)
{
  const TksParsedEntry *e = (const TksParsedEntry *) (gconstpointer) ev->entries->data;
  const TksRecord *r = (const TksRecord *) (gconstpointer) records->data;
  TksParsedEntry *kept = g_new (TksParsedEntry, MAX (ev->entries->len, 1));
  guint n = 0;

  *map = g_new (guint, MAX (ev->entries->len, 1));
  for (guint i = 0; i < ev->entries->len; i++)
    if (e[i].kind != TKS_EVENT_SWITCH ||
        (e[i].record < records->len && !(r[e[i].record].flags & TKS_RECORD_DROPPED)))
      {
        (*map)[n] = i;
        kept[n++] = e[i];
      }
  *n_kept = n;
  return kept;
}

/* The ticks of the @n entries @e (@map: their indices among all the entries read) unwrapped
 * into @ticks, each from the one before: a smaller tick is a wrap. A recording's heartbeats
 * (@beats, TksParsedBeat, may be NULL) between two entries carry the time over a quiet stretch
 * of more than half a wrap, as they carry the records in the rebuild: each one less than half
 * a wrap ahead of the time reached moves it on; one further ahead is behind it and tells
 * nothing. */
static void
unwrap_ticks (const TksParsedEvents *ev,
              const TksParsedEntry  *e,
              const guint           *map,
              guint                  n,
              const GArray          *beats,
              gint64                *ticks)
{
  gint64 period = ev->tick_period;
  guint n_beats = beats != NULL ? beats->len : 0, b = 0;

  for (guint i = 0; i < n; i++)
    {
      gint64 at = i > 0 ? ticks[i - 1] : -1;

      for (; b < n_beats && g_array_index (beats, TksParsedBeat, b).entry <= map[i]; b++)
        {
          gint64 t = (gint64) g_array_index (beats, TksParsedBeat, b).tick & (period - 1);
          gint64 step = at < 0 ? 0 : ((t - at % period) % period + period) % period;

          if (at >= 0 && step < period / 2)
            at += step;
        }
      ticks[i] = at < 0 ? (gint64) e[i].tick
                        : at + (((gint64) e[i].tick - at % period) % period + period) % period;
    }
}

/* The counter places each entry: pos = count / counts_per_tick + phase, with the phase that
 * keeps every entry of a stretch inside its tick ([tick, tick + 1)); where the counter
 * disagrees with the ticks (it stopped while the CPU slept, or the input says so), a new
 * stretch begins with its own phase. The earliest phase is taken: an entry just after a tick's
 * interrupt lies at its start. */
static void
place_by_counter (TksPlacedEntry *pl,
                  guint           n,
                  double          counts_per_tick)
{
  guint start = 0;
  double lo = -INFINITY, hi = INFINITY;

  for (guint i = 0; i <= n; i++)
    {
      double a = 0, b = 0;

      if (i < n)
        {
          double c = (double) (pl[i].count - pl[0].count) / counts_per_tick;
          double t = (double) (pl[i].tick - pl[0].tick);

          a = t - c;
          b = t + 1.0 - c;
          if (MAX (lo, a) < MIN (hi, b))
            {
              lo = MAX (lo, a);
              hi = MIN (hi, b);
              continue;
            }
        }
      for (guint j = start; j < i; j++)
        {
          double c = (double) (pl[j].count - pl[0].count) / counts_per_tick;
          double t = (double) (pl[j].tick - pl[0].tick);

          pl[j].frac = CLAMP (c + lo - t, 0.0, nextafter (1.0, 0.0));
          if (j > 0 && pl[j].tick == pl[j - 1].tick && pl[j].frac < pl[j - 1].frac)
            pl[j].frac = pl[j - 1].frac;
        }
      start = i;
      lo = a;
      hi = b;
    }
}

/* Ticks only: the entries of a tick share it evenly, in their order. */
static void
place_evenly (TksPlacedEntry *pl,
              guint           n)
{
  for (guint i = 0; i < n;)
    {
      guint k = i;

      while (k < n && pl[k].tick == pl[i].tick)
        k++;
      for (guint j = i; j < k; j++)
        pl[j].frac = (double) (j - i) / (double) (k - i);
      i = k;
    }
}

/* Places the @n entries @e, @map their indices among all (see tks-events.h, and
 * docs/rebuild.md). */
TksPlacedEntry *
tks_parsed_events_place (TksParsedEvents      *ev,
                         const TksParsedEntry *e,
                         const guint          *map,
                         guint                 n,
                         double                tick_hz,
                         const GArray         *beats)
{
  TksPlacedEntry *pl = g_new0 (TksPlacedEntry, MAX (n, 1));
  g_autofree gint64 *ticks = g_new (gint64, MAX (n, 1));
  double counts_per_tick = ev->has_counter && ev->info.counter_hz > 0
                           ? (double) ev->info.counter_hz / tick_hz : 0.0;

  unwrap_ticks (ev, e, map, n, beats, ticks);
  for (guint i = 0; i < n; i++)
    {
      pl[i].tick = ticks[i];
      if (i == 0)
        {
          pl[i].count = ev->has_counter ? (gint64) e[i].counter : (gint64) e[i].tick;
          continue;
        }
      if (ev->has_counter)
        {
          /* The difference modulo 2^32, plus the wraps that bring it closest to the ticks. */
          gint64 d = (gint64) (guint32) (e[i].counter - e[i - 1].counter);
          double expected = (double) (pl[i].tick - pl[i - 1].tick) * counts_per_tick;
          double wraps = floor ((expected - (double) d) / (double) COUNTER_PERIOD + 0.5);

          /* (a hostile input's ticks could make it overflow 64 bits: it stops wrapping) */
          if ((double) pl[i - 1].count + expected > 4e18)
            wraps = 0;

          pl[i].count = pl[i - 1].count + d + (gint64) MAX (wraps, 0.0) * COUNTER_PERIOD;
        }
      else
        pl[i].count = pl[i].tick;
    }

  if (counts_per_tick > 0)
    place_by_counter (pl, n, counts_per_tick);
  else
    place_evenly (pl, n);
  return pl;
}

gboolean
tks_parsed_events_tick_span (TksParsedEvents *events,
                             const GArray    *records,
                             const GArray    *beats,
                             gint64          *first,
                             gint64          *last)
{
  g_autofree TksParsedEntry *e = NULL;
  g_autofree guint *map = NULL;
  g_autofree gint64 *ticks = NULL;
  guint n;

  if (events == NULL)
    return FALSE;
  e = tks_parsed_events_kept_entries (events, records, &map, &n);
  for (guint i = 0; i < n; i++)
    if (e[i].kind == TKS_EVENT_SWITCH)
      {
        /* the ticks only, as the rebuild unwraps them */
        ticks = g_new (gint64, n);
        unwrap_ticks (events, e, map, n, beats, ticks);
        *first = ticks[0] - ticks[i];
        *last = ticks[n - 1] - ticks[i];
        return TRUE;
      }
  return FALSE;
}

double *
tks_parsed_events_fractions (TksParsedEvents *events,
                             const GArray    *records,
                             const GArray    *beats,
                             double           tick_hz)
{
  g_autofree TksPlacedEntry *pl = NULL;
  g_autofree TksParsedEntry *e = NULL;
  g_autofree guint *map = NULL;
  double *fractions;
  guint n;

  if (events == NULL)
    return NULL;
  e = tks_parsed_events_kept_entries (events, records, &map, &n);
  pl = tks_parsed_events_place (events, e, map, n, tick_hz, beats);
  fractions = g_new0 (double, MAX (records->len, 1));
  for (guint i = 0; i < n; i++)
    if (e[i].kind == TKS_EVENT_SWITCH)
      fractions[e[i].record] = pl[i].frac;
  /* The records of one tick keep their order whatever the entries between them say (a
   * garbled tick among the events unwraps differently): their places never go back. */
  {
    const TksRecord *r = (const TksRecord *) (gconstpointer) records->data;
    guint prev = G_MAXUINT;

    for (guint i = 0; i < records->len; i++)
      {
        if (r[i].flags & TKS_RECORD_DROPPED)
          continue;
        if (prev != G_MAXUINT && r[i].tick == r[prev].tick && fractions[i] < fractions[prev])
          fractions[i] = fractions[prev];
        prev = i;
      }
  }
  return fractions;
}
