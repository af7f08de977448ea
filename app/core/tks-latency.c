/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A wake-up's latency split into what held the CPU meanwhile (see tks-latency.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "tks-events-private.h"
#include "tks-latency.h"

static TksCauseKind
classify (TksCapture *capture,
          guint       woken,
          guint       thread)
{
  guint n_threads = tks_capture_get_n_threads (capture);
  int mine, theirs;

  if (thread >= n_threads || woken >= n_threads || thread == woken)
    return TKS_CAUSE_OTHER;
  mine = tks_capture_get_thread (capture, woken)->priority;
  theirs = tks_capture_get_thread (capture, thread)->priority;
  if (theirs > mine)
    return TKS_CAUSE_HIGHER;
  return theirs == mine ? TKS_CAUSE_EQUAL : TKS_CAUSE_LOWER;
}

/* The cause of (@kind, @id) in @causes, added when new. */
static TksCause *
cause_of (GArray       *causes,
          TksCauseKind  kind,
          guint         id)
{
  TksCause cause = { kind, id, NULL, 0, 0 };

  for (guint i = 0; i < causes->len; i++)
    {
      TksCause *c = &g_array_index (causes, TksCause, i);

      if (c->kind == kind && c->id == id)
        return c;
    }
  g_array_append_val (causes, cause);
  return &g_array_index (causes, TksCause, causes->len - 1);
}

TksLatencyBreakdown *
tks_latency_explain (TksEvents       *events,
                     const TksWakeup *wakeup)
{
  TksCapture *capture;
  const TksEventEntry *entries;
  guint n_entries;
  g_autoptr(GArray) causes = NULL;
  TksLatencyBreakdown *bd;
  guint prev_index = G_MAXUINT;

  g_return_val_if_fail (events != NULL && wakeup != NULL, NULL);
  entries = tks_events_get_entries (events, &n_entries);
  if (wakeup->open || wakeup->run_entry >= n_entries || wakeup->ready_entry > wakeup->run_entry)
    return NULL;

  capture = tks_events_get_capture (events);
  causes = g_array_new (FALSE, FALSE, sizeof (TksCause));
  bd = g_new0 (TksLatencyBreakdown, 1);
  bd->wakeup = *wakeup;
  bd->latency = wakeup->latency;

  for (guint i = wakeup->ready_entry; i < wakeup->run_entry; i++)
    {
      gint64 dt = entries[i + 1].time.time - entries[i].time.time;
      guint thread, depth;
      guint32 handler;
      TksCause *c;

      if (dt == 0)
        continue;
      tks_events_get_cpu_after (events, i, &thread, &handler, &depth);
      if (depth > 0)
        c = cause_of (causes, TKS_CAUSE_HANDLER, handler);
      else
        {
          TksCauseKind kind = classify (capture, wakeup->thread, thread);

          c = cause_of (causes, kind, kind == TKS_CAUSE_OTHER ? G_MAXUINT : thread);
        }
      c->time += dt;
      /* a new stretch when something else held the CPU just before (the array may have
       * moved: compare by index) */
      {
        guint index = (guint) (c - &g_array_index (causes, TksCause, 0));

        if (index != prev_index)
          c->count++;
        prev_index = index;
      }
    }

  for (guint i = 0; i < causes->len; i++)
    {
      TksCause *c = &g_array_index (causes, TksCause, i);

      switch (c->kind)
        {
        case TKS_CAUSE_HANDLER:
          c->name = tks_events_get_name (events, TKS_NAME_IRQ, c->id);
          bd->handlers += c->time;
          break;
        case TKS_CAUSE_HIGHER:
          c->name = tks_capture_get_thread (capture, c->id)->name;
          bd->higher += c->time;
          break;
        case TKS_CAUSE_EQUAL:
          c->name = tks_capture_get_thread (capture, c->id)->name;
          bd->equal += c->time;
          break;
        case TKS_CAUSE_LOWER:
          c->name = tks_capture_get_thread (capture, c->id)->name;
          bd->rest += c->time;
          break;
        default:
          bd->rest += c->time;
          break;
        }
    }
  /* The largest first; ties keep the order in which they first ran (insertion sort). */
  for (guint i = 1; i < causes->len; i++)
    {
      TksCause c = g_array_index (causes, TksCause, i);
      guint j = i;

      while (j > 0 && g_array_index (causes, TksCause, j - 1).time < c.time)
        {
          g_array_index (causes, TksCause, j) = g_array_index (causes, TksCause, j - 1);
          j--;
        }
      g_array_index (causes, TksCause, j) = c;
    }
  bd->n_causes = causes->len;
  bd->causes = (TksCause *) (gpointer) g_array_free (g_steal_pointer (&causes), FALSE);
  g_assert (bd->handlers + bd->higher + bd->equal + bd->rest
            == entries[wakeup->run_entry].time.time - entries[wakeup->ready_entry].time.time);
  return bd;
}

void
tks_latency_breakdown_free (TksLatencyBreakdown *bd)
{
  if (bd == NULL)
    return;
  g_free (bd->causes);
  g_free (bd);
}

const char *
tks_cause_kind_label (TksCauseKind kind)
{
  switch (kind)
    {
    case TKS_CAUSE_HANDLER:
      return "handler";
    case TKS_CAUSE_HIGHER:
      return "higher priority";
    case TKS_CAUSE_EQUAL:
      return "same priority";
    case TKS_CAUSE_LOWER:
      return "lower priority";
    case TKS_CAUSE_OTHER:
    default:
      return "not known";
    }
}

typedef struct
{
  const TksWakeup *wakeups;
} WorstSort;

static int
compare_worst (gconstpointer a,
               gconstpointer b,
               gpointer      data)
{
  const WorstSort *ws = data;
  const TksWakeup *wa = &ws->wakeups[*(const guint *) a];
  const TksWakeup *wb = &ws->wakeups[*(const guint *) b];

  if (wa->latency != wb->latency)
    return wa->latency > wb->latency ? -1 : 1;
  if (wa->ready.time != wb->ready.time)
    return wa->ready.time < wb->ready.time ? -1 : 1;
  return *(const guint *) a < *(const guint *) b ? -1 : 1;
}

guint *
tks_latency_worst (TksEvents *events,
                   guint      thread,
                   guint      n,
                   guint     *n_found)
{
  guint n_wakeups, count = 0;
  const TksWakeup *w;
  guint *found;
  WorstSort ws;

  g_return_val_if_fail (events != NULL && n_found != NULL, NULL);
  w = tks_events_get_wakeups (events, &n_wakeups);
  found = g_new (guint, MAX (n_wakeups, 1));
  for (guint i = 0; i < n_wakeups; i++)
    if (!w[i].open && (thread == G_MAXUINT || w[i].thread == thread))
      found[count++] = i;
  ws.wakeups = w;
  g_qsort_with_data (found, (gint) count, sizeof (guint), compare_worst, &ws);
  *n_found = MIN (count, n);
  return found;
}

guint
tks_latency_nearest (TksEvents *events,
                     guint      thread,
                     double     pos)
{
  guint n_wakeups, best = G_MAXUINT;
  const TksWakeup *w;
  double best_d = INFINITY;

  g_return_val_if_fail (events != NULL, G_MAXUINT);
  w = tks_events_get_wakeups (events, &n_wakeups);
  for (guint i = 0; i < n_wakeups; i++)
    {
      double d;

      if (w[i].open || (thread != G_MAXUINT && w[i].thread != thread))
        continue;
      if (pos < w[i].ready.pos)
        d = w[i].ready.pos - pos;
      else if (pos > w[i].run.pos)
        d = pos - w[i].run.pos;
      else
        d = 0;
      if (d < best_d)
        {
          best_d = d;
          best = i;
        }
    }
  return best;
}

char *
tks_latency_format (TksEvents                 *events,
                    const TksLatencyBreakdown *bd,
                    const char                *indent)
{
  GString *s = g_string_new (NULL);
  struct { const char *what; gint64 time; } totals[] = {
    { "handlers", bd->handlers }, { "higher priority", bd->higher },
    { "same priority", bd->equal }, { "rest (kernel, critical sections, locks)", bd->rest },
  };

  g_string_append_printf (s, "%slatency %.1f µs =", indent, tks_events_to_us (events, bd->latency));
  for (guint i = 0; i < G_N_ELEMENTS (totals); i++)
    g_string_append_printf (s, "%s %s %.1f µs", i > 0 ? " +" : "", totals[i].what,
                            tks_events_to_us (events, totals[i].time));
  g_string_append_c (s, '\n');
  for (guint i = 0; i < bd->n_causes; i++)
    {
      const TksCause *c = &bd->causes[i];

      if (c->kind == TKS_CAUSE_OTHER)
        g_string_append_printf (s, "%s%10.1f µs  %-16s (the log does not say what ran)\n",
                                indent, tks_events_to_us (events, c->time),
                                tks_cause_kind_label (c->kind));
      else
        g_string_append_printf (s, "%s%10.1f µs  %-16s %s%s, ran %u time%s%s\n", indent,
                                tks_events_to_us (events, c->time),
                                tks_cause_kind_label (c->kind),
                                c->kind == TKS_CAUSE_HANDLER ? "" : "thread ", c->name, c->count,
                                c->count == 1 ? "" : "s",
                                c->kind == TKS_CAUSE_LOWER ? " (part of the rest)" : "");
    }
  return g_string_free (s, FALSE);
}
