/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tks-export-private.h"

/*
 * VCD (IEEE 1364 value change dump), for GTKWave and PulseView. Scope "board" holds a scope
 * per kind of signal: "threads" (a wire per thread, 1 while it runs; x from the capture's
 * start to a thread's first switch, and all along for a thread that is not logged),
 * "handlers" (a wire per interrupt handler, 1 while it is under way), "markers" (a 32-bit
 * integer per marker, its last value) and "capture" (cpu_sleep, trigger, not_recorded over
 * the log's holes, log_ended after the log's last switch). See docs/guide.md.
 *
 * The timescale is the largest of 1, 10 or 100 s, ms, us, ns or ps that counts a tick in
 * whole units and gives each record a time of its own: with a counter, at most one count per
 * unit (1 ns for counters above 100 MHz); without one, at least k units per tick for the k
 * entries that share a tick at i/k (so 100 us for a 10 kHz tick when no two share a tick).
 * When no unit counts a tick whole (32768 Hz), times are rounded to the picosecond.
 */

typedef enum
{
  SIGNAL_THREAD,
  SIGNAL_IRQ,
  SIGNAL_SLEEP,
  SIGNAL_MARKER,
  SIGNAL_TRIGGER,
  SIGNAL_NOT_RECORDED,
  SIGNAL_LOG_ENDED,
} SignalKind;

typedef struct
{
  SignalKind  kind;
  guint       index;   /* thread index, or track index */
  char        id[8];   /* the VCD identifier code */
  char       *name;    /* the VCD reference */
  guint       step;
} Signal;

typedef struct
{
  TksCapture     *capture;
  TksEvents      *events;
  double          origin;      /* ticks at time 0 */
  double          per_tick;    /* units per tick */
  const TksTrack *irqs;
  guint           n_irqs;
  const TksTrack *sleeps;
  guint           n_sleeps;
  const TksTrack *markers;
  guint           n_markers;
  const TksGap   *gaps;
  guint           n_gaps;
  GArray         *signals;     /* Signal */
} Vcd;

/* From the largest: 10^exponent picoseconds. */
static const struct
{
  const char *name;
  int         exponent;
} timescales[] = {
  { "100 s", 14 }, { "10 s", 13 }, { "1 s", 12 },
  { "100 ms", 11 }, { "10 ms", 10 }, { "1 ms", 9 },
  { "100 us", 8 }, { "10 us", 7 }, { "1 us", 6 },
  { "100 ns", 5 }, { "10 ns", 4 }, { "1 ns", 3 },
  { "100 ps", 2 }, { "10 ps", 1 }, { "1 ps", 0 },
};

static gint64
to_time (Vcd    *v,
         double  pos)
{
  double t = (pos - v->origin) * v->per_tick;

  return t > 0 ? llround (t) : 0;
}

/* ------------------------------------------------------------------------------------------ */
/* The timescale                                                                               */

/* The smallest part of a tick a position of the capture lies at (1 when all are whole). */
static void
fraction_of (double  pos,
             double *least)
{
  double frac;

  if (!isfinite (pos))
    return;
  frac = pos - floor (pos);
  if (frac > 1e-9 && frac < 1 - 1e-9)
    *least = MIN (*least, frac);
}

static double
least_fraction (Vcd *v)
{
  guint n_threads = tks_capture_get_n_threads (v->capture);
  double least = 1, pos;

  for (guint i = 0; i < n_threads; i++)
    {
      const TksThread *th = tks_capture_get_thread (v->capture, i);

      for (guint r = 0; r < th->n_runs; r++)
        {
          fraction_of (th->runs[r].begin, &least);
          fraction_of (th->runs[r].end, &least);
        }
      for (guint m = 0; m < th->n_marks; m++)
        fraction_of (th->marks[m].pos, &least);
      fraction_of (th->exit_time, &least);
    }
  for (guint g = 0; g < v->n_gaps; g++)
    {
      fraction_of (v->gaps[g].begin, &least);
      fraction_of (v->gaps[g].end, &least);
    }
  if (tks_capture_get_trigger (v->capture, &pos))
    fraction_of (pos, &least);
  fraction_of (tks_capture_get_log_end (v->capture, NULL), &least);
  if (v->events != NULL)
    {
      /* every entry, also those the export does not show (Ready), takes its share of the
       * tick: with all of them, the least fraction is 1/k */
      guint n;
      const TksEventEntry *entries = tks_events_get_entries (v->events, &n);

      for (guint i = 0; i < n; i++)
        fraction_of (entries[i].time.pos, &least);
    }
  return least;
}

/* The timescale's index, and the units per tick. */
static guint
choose_timescale (Vcd    *v,
                  double  tick_hz,
                  double *per_tick)
{
  double tick_ps = 1e12 / tick_hz;
  gboolean whole = fabs (tick_ps - round (tick_ps)) < 1e-3;  /* a tick is whole picoseconds */
  gint64 ps = (gint64) round (tick_ps);
  double needed;   /* the least units per tick */
  guint best = G_N_ELEMENTS (timescales) - 1;

  if (v->events != NULL && tks_events_has_counter (v->events))
    needed = tks_events_get_info (v->events)->counter_hz / tick_hz;
  else
    needed = ceil (1 / least_fraction (v) - 1e-6);

  for (guint i = 0; whole && i < G_N_ELEMENTS (timescales); i++)
    {
      gint64 unit = 1;

      for (int e = 0; e < timescales[i].exponent; e++)
        unit *= 10;
      if (ps % unit == 0 && (double) (ps / unit) >= needed)
        {
          best = i;
          break;
        }
    }
  /* no unit counts a tick whole (a rate like 3 Hz or 32768 Hz): the finest, rounded */
  *per_tick = tick_ps / pow (10, timescales[best].exponent);
  return best;
}

/* ------------------------------------------------------------------------------------------ */
/* The changes, by signal                                                                      */

static void
add_change (GArray  *records,
            gint64   time,
            guint64  value,
            guint32  order)
{
  TksExportRecord r = { .time = time, .value = value, .order = order };

  g_array_append_val (records, r);
}

/* 1 from @begin to @end (then 0 unless not @falls). At one time, a wire falls before another
 * rises; a pulse that lasts no time in the unit still rises, then falls. */
static void
add_pulse (Vcd      *v,
           GArray   *records,
           double    begin,
           double    end,
           gboolean  falls)
{
  gint64 from = to_time (v, begin);
  gint64 to = to_time (v, end);

  add_change (records, from, 1, 1);
  if (falls)
    add_change (records, to, 0, to > from ? 0 : 2);
}

/* Slices of a track as a wire: 1 from a slice's begin to its end, nested or overlapping
 * slices taken together. */
static gint64
slices_step (Vcd            *v,
             Signal         *sig,
             const TksTrack *track,
             GArray         *records)
{
  guint s = sig->step;
  double end;

  if (s >= track->n_slices)
    return G_MAXINT64;
  end = track->slices[s].end.pos;
  while (s + 1 < track->n_slices && track->slices[s + 1].begin.pos < end)
    end = MAX (end, track->slices[++s].end.pos);
  add_pulse (v, records, track->slices[sig->step].begin.pos, end, TRUE);
  sig->step = s + 1;
  return sig->step < track->n_slices ? to_time (v, track->slices[sig->step].begin.pos)
                                     : G_MAXINT64;
}

static gint64
thread_step (Vcd    *v,
             Signal *sig,
             GArray *records)
{
  const TksThread *th = tks_capture_get_thread (v->capture, sig->index);
  guint s = sig->step++;

  if (s >= th->n_runs)
    return G_MAXINT64;
  /* a run to the capture's end stays 1 */
  add_pulse (v, records, th->runs[s].begin, th->runs[s].end,
             !(s + 1 == th->n_runs && (th->flags & TKS_THREAD_RUNNING_AT_END) != 0));
  return s + 1 < th->n_runs ? to_time (v, th->runs[s + 1].begin) : G_MAXINT64;
}

static gint64
marker_step (Vcd    *v,
             Signal *sig,
             GArray *records)
{
  const TksTrack *track = &v->markers[sig->index];
  guint s = sig->step++;

  if (s >= track->n_instants)
    return G_MAXINT64;
  add_change (records, to_time (v, track->instants[s].time.pos), track->instants[s].value, 2);
  return s + 1 < track->n_instants ? to_time (v, track->instants[s + 1].time.pos)
                                   : G_MAXINT64;
}

static gint64
vcd_step (gpointer  user_data,
          guint     index,
          GArray   *records)
{
  Vcd *v = user_data;
  Signal *sig = &g_array_index (v->signals, Signal, index);
  double pos;

  switch (sig->kind)
    {
    case SIGNAL_THREAD:
      return thread_step (v, sig, records);
    case SIGNAL_IRQ:
      return slices_step (v, sig, &v->irqs[sig->index], records);
    case SIGNAL_SLEEP:
      return slices_step (v, sig, &v->sleeps[sig->index], records);
    case SIGNAL_MARKER:
      return marker_step (v, sig, records);
    case SIGNAL_TRIGGER:
      if (sig->step++ == 0 && tks_capture_get_trigger (v->capture, &pos) && isfinite (pos))
        add_change (records, to_time (v, pos), 1, 1);
      return G_MAXINT64;
    case SIGNAL_NOT_RECORDED:
      if (sig->step < v->n_gaps)
        {
          add_pulse (v, records, v->gaps[sig->step].begin, v->gaps[sig->step].end, TRUE);
        }
      sig->step++;
      return sig->step < v->n_gaps ? to_time (v, v->gaps[sig->step].begin) : G_MAXINT64;
    case SIGNAL_LOG_ENDED:
    default:
      if (sig->step++ == 0 && tks_export_log_end_before_end (v->capture, &pos))
        add_change (records, to_time (v, pos), 1, 1);
      return G_MAXINT64;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Declarations                                                                                */

/* A VCD reference: letters, digits and '_' (any other byte becomes '_'), not starting with a
 * digit, unique in its scope (then "_2", "_3"…). */
static char *
vcd_name (GHashTable *taken,
          const char *prefix,
          const char *name)
{
  g_autofree char *capped = tks_export_capped_name (name != NULL ? name : "");
  GString *ref = g_string_new (prefix);
  g_autofree char *base = NULL;

  for (const char *p = capped; *p != '\0'; p++)
    g_string_append_c (ref, g_ascii_isalnum (*p) ? *p : '_');
  if (ref->len == 0 || g_ascii_isdigit (ref->str[0]))
    g_string_prepend_c (ref, '_');
  base = g_strdup (ref->str);
  for (guint n = 2; g_hash_table_contains (taken, ref->str); n++)
    {
      g_string_assign (ref, base);
      g_string_append_printf (ref, "_%u", n);
    }
  g_hash_table_add (taken, g_strdup (ref->str));
  return g_string_free (ref, FALSE);
}

/* Identifier codes: printable ASCII from '!' to '~', in base 94. */
static void
vcd_id (guint n,
        char  id[8])
{
  guint i = 0;

  do
    {
      id[i++] = (char) ('!' + n % 94);
      n /= 94;
    }
  while (n > 0 && i < 7);
  id[i] = '\0';
}

static void
add_signal (Vcd        *v,
            GHashTable *taken,
            SignalKind  kind,
            guint       index,
            const char *prefix,
            const char *name)
{
  Signal sig = { .kind = kind, .index = index };

  vcd_id (v->signals->len, sig.id);
  sig.name = vcd_name (taken, prefix, name);
  g_array_append_val (v->signals, sig);
}

static void
signal_clear (gpointer data)
{
  g_free (((Signal *) data)->name);
}

static void
declare (Vcd        *v,
         GString    *out,
         guint       from,
         const char *scope)
{
  if (from >= v->signals->len)
    return;
  g_string_append_printf (out, "$scope module %s $end\n", scope);
  for (guint i = from; i < v->signals->len; i++)
    {
      Signal *sig = &g_array_index (v->signals, Signal, i);

      g_string_append_printf (out, "$var %s %s %s $end\n",
                              sig->kind == SIGNAL_MARKER ? "integer 32" : "wire 1", sig->id,
                              sig->name);
    }
  g_string_append (out, "$upscope $end\n");
}

static void
append_value (GString      *out,
              const Signal *sig,
              guint64       value)
{
  if (sig->kind == SIGNAL_MARKER)
    {
      char bits[65];
      guint n = 0;

      do
        {
          bits[n++] = (char) ('0' + (value & 1));
          value >>= 1;
        }
      while (value != 0);
      g_string_append_c (out, 'b');
      while (n > 0)
        g_string_append_c (out, bits[--n]);
      g_string_append_c (out, ' ');
    }
  else
    g_string_append_c (out, value == 0 ? '0' : value == 1 ? '1' : 'x');
  g_string_append (out, sig->id);
  g_string_append_c (out, '\n');
}

/* $date, $version and a $comment: where the capture comes from, its tick, and what it lost
 * or could not read. */
static void
write_comments (Vcd     *v,
                double   tick_hz,
                GString *out)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *date = g_date_time_format (now, "%a %b %e %H:%M:%S %Y");
  g_autoptr(GString) comment = g_string_new (NULL);
  const char *source = tks_capture_get_source (v->capture);
  guint n_warnings = 0;
  const char * const *warnings = tks_capture_get_warnings (v->capture, &n_warnings);

  g_string_append_printf (out, "$date\n  %s\n$end\n$version\n  Tickscope %s\n$end\n", date,
                          PACKAGE_VERSION);
  g_string_append_printf (comment, "source: %s\n", source != NULL ? source : "");
  g_string_append (comment, "tick rate: ");
  tks_export_append_number (comment, tick_hz, 6);
  g_string_append (comment, " Hz; time 0 is tick ");
  tks_export_append_number (comment, v->origin, 0);
  g_string_append_c (comment, '\n');
  for (guint i = 0; i < n_warnings; i++)
    g_string_append_printf (comment, "%s\n", warnings[i]);
  g_string_append (out, "$comment\n");
  for (const char *p = comment->str; *p != '\0'; p++)
    {
      /* "$end" would close the comment */
      if (p[0] == '$' && g_str_has_prefix (p, "$end"))
        g_string_append_c (out, '_');
      else if ((guchar) *p >= 0x20 || *p == '\n')
        g_string_append_c (out, *p);
      else
        g_string_append_c (out, ' ');
    }
  g_string_append (out, "$end\n");
}

gboolean
tks_export_vcd (TksCapture      *capture,
                double           tick_hz,
                TksExportWriter *w)
{
  g_autoptr(GArray) signals = g_array_new (FALSE, TRUE, sizeof (Signal));
  g_autoptr(TksExportMerge) merge = NULL;
  guint n_threads = tks_capture_get_n_threads (capture);
  gint64 last_time = -1;
  TksExportRecord r;
  guint timescale;
  Vcd v = { 0 };

  g_array_set_clear_func (signals, signal_clear);
  v.capture = capture;
  v.events = tks_capture_get_events (capture);
  v.signals = signals;
  v.origin = floor (tks_capture_get_start (capture));
  if (!isfinite (v.origin))
    v.origin = 0;
  v.gaps = tks_capture_get_gaps (capture, &v.n_gaps);
  if (v.events != NULL)
    {
      v.irqs = tks_events_get_tracks (v.events, TKS_TRACK_IRQ, &v.n_irqs);
      v.sleeps = tks_events_get_tracks (v.events, TKS_TRACK_SLEEP, &v.n_sleeps);
      v.markers = tks_events_get_tracks (v.events, TKS_TRACK_MARKER, &v.n_markers);
    }
  timescale = choose_timescale (&v, tick_hz, &v.per_tick);

  write_comments (&v, tick_hz, w->out);
  g_string_append_printf (w->out, "$timescale %s $end\n$scope module board $end\n",
                          timescales[timescale].name);

  {
    g_autoptr(GHashTable) taken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    guint from = 0;

    for (guint i = 0; i < n_threads; i++)
      {
        const TksThread *th = tks_capture_get_thread (capture, i);
        g_autofree char *name = NULL;

        /* gone before the log began: no signal, as in every export */
        if (th->flags & TKS_THREAD_EXITED_BEFORE_LOG)
          continue;
        name = tks_export_thread_name (th);
        add_signal (&v, taken, SIGNAL_THREAD, i, "", name);
      }
    declare (&v, w->out, from, "threads");

    g_hash_table_remove_all (taken);
    from = v.signals->len;
    for (guint i = 0; i < v.n_irqs; i++)
      add_signal (&v, taken, SIGNAL_IRQ, i, "", v.irqs[i].name);
    declare (&v, w->out, from, "handlers");

    g_hash_table_remove_all (taken);
    from = v.signals->len;
    for (guint i = 0; i < v.n_markers; i++)
      add_signal (&v, taken, SIGNAL_MARKER, i, "", v.markers[i].name);
    declare (&v, w->out, from, "markers");

    g_hash_table_remove_all (taken);
    from = v.signals->len;
    for (guint i = 0; i < v.n_sleeps; i++)
      add_signal (&v, taken, SIGNAL_SLEEP, i, "", "cpu_sleep");
    add_signal (&v, taken, SIGNAL_TRIGGER, 0, "", "trigger");
    add_signal (&v, taken, SIGNAL_NOT_RECORDED, 0, "", "not_recorded");
    add_signal (&v, taken, SIGNAL_LOG_ENDED, 0, "", "log_ended");
    declare (&v, w->out, from, "capture");
  }
  g_string_append (w->out, "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n");
  for (guint i = 0; i < v.signals->len; i++)
    {
      const Signal *sig = &g_array_index (v.signals, Signal, i);
      guint64 initial = 0;

      if (sig->kind == SIGNAL_THREAD)
        {
          const TksThread *th = tks_capture_get_thread (capture, sig->index);

          /* unknown until its first switch; all along when it is not logged */
          if ((th->flags & TKS_THREAD_LOGGED) == 0 || !(th->first_event <= v.origin))
            initial = 2;
        }
      append_value (w->out, sig, initial);
    }
  g_string_append (w->out, "$end\n");
  last_time = 0;

  merge = tks_export_merge_new (v.signals->len, vcd_step, &v);
  while (tks_export_merge_next (merge, &r))
    {
      if (r.time != last_time)
        {
          g_string_append_c (w->out, '#');
          tks_export_append_int (w->out, r.time);
          g_string_append_c (w->out, '\n');
          last_time = r.time;
        }
      append_value (w->out, &g_array_index (v.signals, Signal, r.row), r.value);
      if (!tks_export_flush (w, FALSE))
        return FALSE;
    }
  return TRUE;
}
