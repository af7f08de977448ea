/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rows of the events list: the kinds and their families, the row object, and what a row
 * says (who, what, for how long) for an entry of the log or a row the log does not have. The
 * model that orders and filters them is in tks-event-list-model.c. */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "tks-event-list-model-private.h"
#include "tks-time-format.h"

/* ------------------------------------------------------------------------------------------ */
/* Kinds                                                                                      */

TksEventFilter
tks_event_row_kind_family (TksEventRowKind kind)
{
  switch (kind)
    {
    case TKS_EVENT_ROW_SWITCH:
    case TKS_EVENT_ROW_EXIT:
      return TKS_EVENT_FILTER_SWITCHES;
    case TKS_EVENT_ROW_HANDLER:
    case TKS_EVENT_ROW_HANDLER_END:
      return TKS_EVENT_FILTER_HANDLERS;
    case TKS_EVENT_ROW_SLEEP:
    case TKS_EVENT_ROW_WAKE:
      return TKS_EVENT_FILTER_SLEEP;
    case TKS_EVENT_ROW_READY:
      return TKS_EVENT_FILTER_WAKEUPS;
    case TKS_EVENT_ROW_MARKER:
      return TKS_EVENT_FILTER_MARKERS;
    case TKS_EVENT_ROW_STATE:
    case TKS_EVENT_ROW_STATE_END:
      return TKS_EVENT_FILTER_STATES;
    case TKS_EVENT_ROW_TRIGGER:
    case TKS_EVENT_ROW_HOLE:
    case TKS_EVENT_ROW_LOG_END:
    case TKS_N_EVENT_ROW_KINDS:
    default:
      return TKS_EVENT_FILTER_LOG;
    }
}

const char *
tks_event_row_kind_name (TksEventRowKind kind)
{
  switch (kind)
    {
    case TKS_EVENT_ROW_SWITCH:      return _("switch");
    case TKS_EVENT_ROW_EXIT:        return _("exit");
    case TKS_EVENT_ROW_HANDLER:     return _("handler");
    case TKS_EVENT_ROW_HANDLER_END: return _("handler end");
    case TKS_EVENT_ROW_SLEEP:       return _("sleep");
    case TKS_EVENT_ROW_WAKE:        return _("wake");
    case TKS_EVENT_ROW_READY:       return _("wake-up");
    case TKS_EVENT_ROW_MARKER:      return _("marker");
    case TKS_EVENT_ROW_STATE:       return _("state");
    case TKS_EVENT_ROW_STATE_END:   return _("state end");
    case TKS_EVENT_ROW_TRIGGER:     return _("trigger");
    case TKS_EVENT_ROW_HOLE:        return _("hole");
    case TKS_EVENT_ROW_LOG_END:     return _("log end");
    case TKS_N_EVENT_ROW_KINDS:
    default:                        return "";
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Rows                                                                                       */


G_DEFINE_FINAL_TYPE (TksEventRow, tks_event_row, G_TYPE_OBJECT)

static void
tks_event_row_finalize (GObject *object)
{
  TksEventRow *self = TKS_EVENT_ROW (object);

  g_free (self->who);
  g_free (self->detail);
  G_OBJECT_CLASS (tks_event_row_parent_class)->finalize (object);
}

static void
tks_event_row_class_init (TksEventRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tks_event_row_finalize;
}

static void
tks_event_row_init (TksEventRow *self)
{
  self->duration = NAN;
  self->thread = G_MAXUINT;
}

guint
tks_event_row_get_index (TksEventRow *self)
{
  g_return_val_if_fail (TKS_IS_EVENT_ROW (self), 0);
  return self->index;
}

TksEventRowKind
tks_event_row_get_kind (TksEventRow *self)
{
  g_return_val_if_fail (TKS_IS_EVENT_ROW (self), TKS_EVENT_ROW_SWITCH);
  return self->kind;
}

double
tks_event_row_get_time (TksEventRow *self)
{
  g_return_val_if_fail (TKS_IS_EVENT_ROW (self), NAN);
  return self->time;
}

const char *
tks_event_row_get_who (TksEventRow *self)
{
  g_return_val_if_fail (TKS_IS_EVENT_ROW (self), "");
  return self->who != NULL ? self->who : "";
}

const char *
tks_event_row_get_detail (TksEventRow *self)
{
  g_return_val_if_fail (TKS_IS_EVENT_ROW (self), "");
  return self->detail != NULL ? self->detail : "";
}

double
tks_event_row_get_duration (TksEventRow *self)
{
  g_return_val_if_fail (TKS_IS_EVENT_ROW (self), NAN);
  return self->duration;
}

guint
tks_event_row_get_thread (TksEventRow *self)
{
  g_return_val_if_fail (TKS_IS_EVENT_ROW (self), G_MAXUINT);
  return self->thread;
}

/* ------------------------------------------------------------------------------------------ */
/* What a row says                                                                            */

TksEventRowKind
_tks_event_row_kind_of_entry (const TksEventEntry *e)
{
  switch (e->kind)
    {
    case TKS_EVENT_SWITCH:      return e->a == e->b ? TKS_EVENT_ROW_EXIT : TKS_EVENT_ROW_SWITCH;
    case TKS_EVENT_IRQ_ENTER:   return TKS_EVENT_ROW_HANDLER;
    case TKS_EVENT_IRQ_LEAVE:   return TKS_EVENT_ROW_HANDLER_END;
    case TKS_EVENT_SLEEP:       return TKS_EVENT_ROW_SLEEP;
    case TKS_EVENT_WAKE:        return TKS_EVENT_ROW_WAKE;
    case TKS_EVENT_READY:       return TKS_EVENT_ROW_READY;
    case TKS_EVENT_MARKER:      return TKS_EVENT_ROW_MARKER;
    case TKS_EVENT_STATE_BEGIN: return TKS_EVENT_ROW_STATE;
    case TKS_EVENT_STATE_END:   return TKS_EVENT_ROW_STATE_END;
    case TKS_EVENT_TRIGGER:
    default:                    return TKS_EVENT_ROW_TRIGGER;
    }
}

/* The run of @thread beginning at @t: its length, NAN when none does. */
static double
run_beginning_at (TksCapture *capture,
                  guint       thread,
                  double      t)
{
  const TksThread *th = thread != G_MAXUINT ? tks_capture_get_thread (capture, thread) : NULL;
  guint r;

  if (th == NULL)
    return NAN;
  r = tks_runs_first_beginning_at (th->runs, 0, th->n_runs, t);
  if (r < th->n_runs && th->runs[r].begin == t)
    return th->runs[r].end - th->runs[r].begin;
  return NAN;
}

static const TksTrack *
track_of (TksEvents    *events,
          TksTrackKind  kind,
          guint32       name_id)
{
  guint n = 0;
  const TksTrack *tracks = tks_events_get_tracks (events, kind, &n);

  for (guint i = 0; i < n; i++)
    if (kind == TKS_TRACK_SLEEP || tracks[i].name_id == name_id)
      return &tracks[i];
  return NULL;
}

/* The slice of @track beginning at @t. */
static const TksSlice *
slice_at (const TksTrack *track,
          double          t)
{
  guint i;

  if (track == NULL)
    return NULL;
  i = tks_first_at (track->slices, sizeof (TksSlice), 0, track->n_slices, t);
  if (i < track->n_slices && track->slices[i].begin.pos == t)
    return &track->slices[i];
  return NULL;
}


void
_tks_event_row_fill_entry (TksEventListModel   *self,
                           TksEventRow         *row,
                           const TksEventEntry *e)
{
  TksEvents *ev = self->events;
  double t = e->time.pos;
  g_autofree char *owned = NULL;
  g_autofree char *owned2 = NULL;

  switch (e->kind)
    {
    case TKS_EVENT_SWITCH:
      {
        guint out = _tks_event_list_model_thread_of_switch (self, e->a, t, FALSE);
        guint in = _tks_event_list_model_thread_of_switch (self, e->b, t, TRUE);

        row->thread = in;
        if (e->a == e->b)
          {
            row->who = g_strdup (_tks_event_list_model_thread_name (self, in, e->b, &owned));
            row->detail = g_strdup (_("exits"));
          }
        else
          {
            row->who = g_strdup (_tks_event_list_model_thread_name (self, in, e->b, &owned));
            row->detail = g_strdup_printf ("%s → %s", _tks_event_list_model_thread_name (self, out, e->a, &owned2),
                                           row->who);
            row->duration = run_beginning_at (self->capture, in, t);
          }
      }
      break;
    case TKS_EVENT_IRQ_ENTER:
      {
        const TksSlice *s = slice_at (track_of (ev, TKS_TRACK_IRQ, e->a), t);

        row->who = g_strdup (tks_events_get_name (ev, TKS_NAME_IRQ, e->a));
        if (s != NULL)
          {
            g_autofree char *us = tks_time_format_us (tks_events_to_us (ev, s->end.time - s->begin.time));

            row->duration = s->end.pos - s->begin.pos;
            row->detail = (s->flags & TKS_SLICE_OPEN_END)
              /* Translators: a handler that had not left when the log ended */
              ? g_strdup_printf (_("enters, runs %s at least"), us)
              : s->depth > 0
              /* Translators: a handler entered inside another one; %s: its duration */
              ? g_strdup_printf (_("enters (nested), runs %s"), us)
              : g_strdup_printf (_("enters, runs %s"), us);
          }
        else
          row->detail = g_strdup (_("enters"));
      }
      break;
    case TKS_EVENT_IRQ_LEAVE:
      row->who = g_strdup (tks_events_get_name (ev, TKS_NAME_IRQ, e->a));
      row->detail = g_strdup (_("leaves"));
      break;
    case TKS_EVENT_SLEEP:
      {
        const TksSlice *s = slice_at (track_of (ev, TKS_TRACK_SLEEP, 0), t);

        row->who = g_strdup (_("CPU"));
        if (s != NULL)
          {
            row->duration = s->end.pos - s->begin.pos;
            row->detail = s->label != NULL
              /* Translators: %s: the handler that woke the CPU */
              ? g_strdup_printf (_("sleeps, woken by %s"), s->label)
              : g_strdup (_("sleeps, woken by no recorded handler"));
          }
        else
          row->detail = g_strdup (_("sleeps"));
      }
      break;
    case TKS_EVENT_WAKE:
      row->who = g_strdup (_("CPU"));
      row->detail = e->b == 1
        ? g_strdup_printf (_("wakes, by %s"), tks_events_get_name (ev, TKS_NAME_IRQ, e->a))
        : g_strdup (_("wakes"));
      break;
    case TKS_EVENT_READY:
      {
        guint n = 0, lo = 0, hi;
        const TksWakeup *w = tks_events_get_wakeups (ev, &n);
        guint thread = _tks_event_list_model_thread_of_number (self, e->a, t);

        row->thread = thread;
        row->who = g_strdup (_tks_event_list_model_thread_name (self, thread, e->a, &owned));
        hi = n;
        while (lo < hi)
          {
            guint mid = lo + (hi - lo) / 2;

            if (w[mid].ready.pos < t)
              lo = mid + 1;
            else
              hi = mid;
          }
        while (lo < n && w[lo].ready.pos == t && w[lo].number != e->a)
          lo++;
        if (lo < n && w[lo].ready.pos == t)
          {
            if (w[lo].open)
              row->detail = g_strdup (_("made ready, still waiting when the log ends"));
            else
              {
                g_autofree char *us = tks_time_format_us (tks_events_to_us (ev, w[lo].latency));

                /* Translators: %s: the wake-up latency */
                row->detail = g_strdup_printf (_("made ready, latency %s"), us);
                row->duration = w[lo].run.pos - w[lo].ready.pos;
              }
          }
        else
          row->detail = g_strdup (_("made ready"));
      }
      break;
    case TKS_EVENT_MARKER:
      row->who = g_strdup (tks_events_get_name (ev, TKS_NAME_MARKER, e->a));
      /* Translators: a marker's value */
      row->detail = g_strdup_printf (_("value %u"), e->b);
      break;
    case TKS_EVENT_STATE_BEGIN:
      {
        const TksSlice *s = slice_at (track_of (ev, TKS_TRACK_STATE, e->a), t);

        row->who = g_strdup (tks_events_get_name (ev, TKS_NAME_CHANNEL, e->a));
        if (s != NULL)
          row->duration = s->end.pos - s->begin.pos;
        /* Translators: %s: a state's name */
        row->detail = g_strdup_printf (_("%s begins"), tks_events_get_name (ev, TKS_NAME_STATE,
                                                                           e->b));
      }
      break;
    case TKS_EVENT_STATE_END:
      row->who = g_strdup (tks_events_get_name (ev, TKS_NAME_CHANNEL, e->a));
      row->detail = g_strdup (_("state ends"));
      break;
    case TKS_EVENT_TRIGGER:
    default:
      {
        const char *name = tks_capture_get_trigger_name (self->capture);

        row->who = g_strdup (name != NULL ? name : "");
        row->detail = g_strdup (_("the trigger was set"));
      }
      break;
    }
}

void
_tks_event_row_fill_extra (TksEventListModel *self,
                           TksEventRow       *row,
                           const Extra       *x)
{
  switch (x->kind)
    {
    case TKS_EVENT_ROW_HOLE:
      {
        guint n = 0;
        const TksGap *gap = &tks_capture_get_gaps (self->capture, &n)[x->data];

        row->duration = gap->end - gap->begin;
        row->detail = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                    "%" G_GUINT64_FORMAT " switch not recorded",
                                                    "%" G_GUINT64_FORMAT " switches not recorded",
                                                    gap->dropped),
                                       gap->dropped);
      }
      break;
    case TKS_EVENT_ROW_LOG_END:
      row->detail = g_strdup (_("the log ends: only exits were recorded after"));
      break;
    case TKS_EVENT_ROW_TRIGGER:
    default:
      {
        const char *name = tks_capture_get_trigger_name (self->capture);

        row->who = g_strdup (name != NULL ? name : "");
        row->detail = g_strdup (_("the trigger was set"));
      }
      break;
    }
}
