/* SPDX-License-Identifier: GPL-3.0-or-later */
/* From a figure to its moment, and from a moment to the next (tks-window-navigate.h).
 *
 * The instance shown last (from the statistics window) gives the kind the keys "next of the
 * same kind" follow: a handler, a marker, a thread's wake-ups or runs. Once the selection
 * moved elsewhere (a click on another run), the kind is the selected run's: its thread's runs. */
#include "config.h"

#include <math.h>

#include "tks-activations.h"
#include "tks-event-list-model.h"
#include "tks-stats-worst.h"
#include "tks-window-navigate.h"
#include "tks-window-private.h"

#define KIND_RUN (-1)

typedef struct
{
  int    kind;      /* TksWorstKind, or KIND_RUN */
  guint  key;
  double pos;       /* where the instance shown last is (ticks) */
  guint  thread;    /* the run it selected, to tell when the selection moved */
  guint  run;
} Navigation;

static Navigation *
navigation (TksWindow *self)
{
  Navigation *nav = g_object_get_data (G_OBJECT (self), "tks-navigation");

  if (nav == NULL)
    {
      nav = g_new0 (Navigation, 1);
      nav->kind = KIND_RUN;
      nav->thread = G_MAXUINT;
      g_object_set_data_full (G_OBJECT (self), "tks-navigation", nav, g_free);
    }
  return nav;
}

/* Brings [begin, end] into view: centred when it shows well at the present zoom, else zoomed
 * so that it takes the middle half of the view. */
static void
show_span (TksWindow *self,
           double     begin,
           double     end)
{
  double span = tks_viewport_get_span (self->viewport), len = end - begin;

  if (len > 0 && (len > 0.8 * span || len < span / 200))
    tks_viewport_navigate (self->viewport, begin - len / 2, end + len / 2);
  else
    {
      double middle = (begin + end) / 2;

      tks_viewport_navigate (self->viewport, middle - span / 2, middle + span / 2);
    }
}

/* Selects @thread's run under way at @at (G_MAXUINT: the run of the thread that held the CPU
 * then); FALSE when there is none. */
static gboolean
select_run_at (TksWindow *self,
               guint      thread,
               double     at,
               guint     *run_thread,
               guint     *run)
{
  const TksThread *th;

  if (thread == G_MAXUINT)
    {
      if (!tks_event_list_run_at (self->capture, G_MAXUINT, at, run_thread, run))
        return FALSE;
    }
  else
    {
      th = tks_capture_get_thread (self->capture, thread);
      if (th == NULL || th->runs == NULL)
        return FALSE;
      *run = tks_runs_first_ending_after (th->runs, th->n_runs, at);
      if (*run >= th->n_runs || th->runs[*run].begin > at)
        return FALSE;
      *run_thread = thread;
    }
  return tks_timeline_view_select_run (self->timeline, *run_thread, *run);
}

/* Shows [begin, end], selects the run at @at, and remembers the kind for the keys. */
static void
go_to (TksWindow *self,
       double     begin,
       double     end,
       guint      thread,
       double     at,
       int        kind,
       guint      key)
{
  Navigation *nav = navigation (self);

  if (self->capture == NULL || !isfinite (begin) || !isfinite (end))
    return;
  show_span (self, begin, end);
  nav->kind = kind;
  nav->key = key;
  nav->pos = at;
  if (!select_run_at (self, thread, at, &nav->thread, &nav->run))
    nav->thread = G_MAXUINT;
}

static void
show_instance_action (GSimpleAction *action,
                      GVariant      *param,
                      gpointer       user_data)
{
  double begin, end, at;
  guint thread, key;
  int kind;

  g_variant_get (param, "(ddudiu)", &begin, &end, &thread, &at, &kind, &key);
  go_to (user_data, begin, end, thread, at, kind, key);
}

/* The next (previous) activation of the selected thread: its run begins there. */
static void
step_activation (TksWindow *self,
                 gboolean   forward)
{
  g_autoptr(GArray) times = NULL;
  const TksThread *th;
  guint thread, run, i;
  double t;

  if (self->capture == NULL || !tks_timeline_view_get_selection (self->timeline, &thread, &run))
    return;
  th = tks_capture_get_thread (self->capture, thread);
  times = tks_thread_activations (self->capture, thread, NAN, NAN, NULL);
  t = th->runs[run].begin;
  /* the first activation after the run's begin, or the last before it */
  for (i = 0; i < times->len && g_array_index (times, double, i) <= t; i++)
    ;
  if (!forward)
    {
      while (i > 0 && g_array_index (times, double, i - 1) >= t)
        i--;
      if (i == 0)
        return;
      i--;
    }
  if (i >= times->len)
    return;
  t = g_array_index (times, double, i);
  run = tks_runs_first_beginning_at (th->runs, 0, th->n_runs, t);
  if (run >= th->n_runs)
    return;
  go_to (self, th->runs[run].begin, th->runs[run].end, thread,
         (th->runs[run].begin + th->runs[run].end) / 2, KIND_RUN, thread);
}

static void
next_activation_action (GSimpleAction *action,
                        GVariant      *param,
                        gpointer       user_data)
{
  step_activation (user_data, TRUE);
}

static void
previous_activation_action (GSimpleAction *action,
                            GVariant      *param,
                            gpointer       user_data)
{
  step_activation (user_data, FALSE);
}

/* The first of @n items (by position, sorted) after @t, or the last before it; G_MAXUINT
 * when there is none. @pos_of gives an item's position. */
static guint
step_index (guint      n,
            double     t,
            gboolean   forward,
            double   (*pos_of) (gconstpointer items, guint i),
            gconstpointer items)
{
  guint lo = 0, hi = n;

  /* the first whose position is after @t */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (pos_of (items, mid) <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (forward)
    return lo < n ? lo : G_MAXUINT;
  while (lo > 0 && pos_of (items, lo - 1) >= t)
    lo--;
  return lo > 0 ? lo - 1 : G_MAXUINT;
}

static double
slice_pos (gconstpointer items,
           guint         i)
{
  return ((const TksSlice *) items)[i].begin.pos;
}

static double
instant_pos (gconstpointer items,
             guint         i)
{
  return ((const TksInstant *) items)[i].time.pos;
}

static double
run_pos (gconstpointer items,
         guint         i)
{
  return ((const TksRun *) items)[i].begin;
}

/* The next (previous) wake-up of the thread of the wake-up shown last. */
static void
step_wakeup (TksWindow  *self,
             TksEvents  *events,
             Navigation *nav,
             gboolean    forward)
{
  guint n = 0, i;
  const TksWakeup *w = tks_events_get_wakeups (events, &n);

  /* the thread's wake-ups are few among all: a plain walk */
  if (forward)
    for (i = 0; i < n && !(w[i].thread == nav->key && !w[i].open && w[i].ready.pos > nav->pos); i++)
      ;
  else
    for (i = n; i-- > 0 && !(w[i].thread == nav->key && !w[i].open && w[i].ready.pos < nav->pos);)
      ;
  if (i >= n)
    return;
  go_to (self, w[i].ready.pos, w[i].run.pos, w[i].thread, w[i].run.pos, nav->kind, nav->key);
  nav->pos = w[i].ready.pos;
}

/* The next (previous) handler run, marker, wake-up or sleep of the kind shown last. */
static gboolean
step_event (TksWindow  *self,
            Navigation *nav,
            gboolean    forward)
{
  TksEvents *events = tks_capture_get_events (self->capture);
  const TksTrack *tracks;
  guint n = 0, i;

  if (events == NULL)
    return FALSE;
  if (nav->kind == TKS_WORST_WAKEUP)
    {
      step_wakeup (self, events, nav, forward);
      return TRUE;
    }
  if (nav->kind == TKS_WORST_MARKER)
    {
      tracks = tks_events_get_tracks (events, TKS_TRACK_MARKER, &n);
      if (nav->key >= n)
        return FALSE;
      i = step_index (tracks[nav->key].n_instants, nav->pos, forward, instant_pos,
                      tracks[nav->key].instants);
      if (i != G_MAXUINT)
        {
          double t = tracks[nav->key].instants[i].time.pos;

          go_to (self, t, t, G_MAXUINT, t, nav->kind, nav->key);
        }
      return TRUE;
    }
  if (nav->kind == TKS_WORST_HANDLER || nav->kind == TKS_WORST_SLEEP_SHARE)
    {
      TksTrackKind track_kind = nav->kind == TKS_WORST_HANDLER ? TKS_TRACK_IRQ : TKS_TRACK_SLEEP;
      guint key = nav->kind == TKS_WORST_HANDLER ? nav->key : 0;

      tracks = tks_events_get_tracks (events, track_kind, &n);
      if (key >= n)
        return FALSE;
      i = step_index (tracks[key].n_slices, nav->pos, forward, slice_pos, tracks[key].slices);
      if (i != G_MAXUINT)
        {
          const TksSlice *sl = &tracks[key].slices[i];

          go_to (self, sl->begin.pos, sl->end.pos, G_MAXUINT, sl->begin.pos, nav->kind, nav->key);
        }
      return TRUE;
    }
  return FALSE;
}

/* The next (previous) event of the kind shown last; a run's: its thread's next run. */
static void
step_of_kind (TksWindow *self,
              gboolean   forward)
{
  Navigation *nav = navigation (self);
  const TksThread *th;
  guint thread, run;
  gboolean selected;

  if (self->capture == NULL)
    return;
  selected = tks_timeline_view_get_selection (self->timeline, &thread, &run);
  /* the selection moved since: the selected run's kind */
  if (selected && (thread != nav->thread || run != nav->run))
    {
      nav->kind = KIND_RUN;
      nav->key = thread;
    }
  if (step_event (self, nav, forward))
    return;
  if (!selected)
    return;
  th = tks_capture_get_thread (self->capture, thread);
  run = step_index (th->n_runs, th->runs[run].begin, forward, run_pos, th->runs);
  if (run != G_MAXUINT)
    go_to (self, th->runs[run].begin, th->runs[run].end, thread,
           (th->runs[run].begin + th->runs[run].end) / 2, nav->kind, nav->key);
}

static void
next_of_kind_action (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  step_of_kind (user_data, TRUE);
}

static void
previous_of_kind_action (GSimpleAction *action,
                         GVariant      *param,
                         gpointer       user_data)
{
  step_of_kind (user_data, FALSE);
}

/* Is the focus where a key types text? */
static gboolean
focus_takes_text (GtkWidget *focus)
{
  for (; focus != NULL; focus = gtk_widget_get_parent (focus))
    if (GTK_IS_EDITABLE (focus) || GTK_IS_TEXT_VIEW (focus))
      return TRUE;
  return FALSE;
}

/* A key that no widget with the focus took: the timeline's, wherever the focus is (a list,
 * a panel, a button), except where keys type text. */
static gboolean
window_key_pressed_cb (GtkEventControllerKey *controller,
                       guint                  keyval,
                       guint                  keycode,
                       GdkModifierType        state,
                       TksWindow             *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  if (focus == NULL || focus_takes_text (focus)
      || focus == GTK_WIDGET (self->timeline)
      || gtk_widget_is_ancestor (focus, GTK_WIDGET (self->timeline)))
    return FALSE;
  return gtk_event_controller_key_forward (controller, GTK_WIDGET (self->timeline));
}

void
_tks_window_navigate_init (TksWindow *self)
{
  static const GActionEntry entries[] = {
    { "show-instance", show_instance_action, "(ddudiu)", NULL, NULL, { 0 } },
    { "next-activation", next_activation_action, NULL, NULL, NULL, { 0 } },
    { "previous-activation", previous_activation_action, NULL, NULL, NULL, { 0 } },
    { "next-of-kind", next_of_kind_action, NULL, NULL, NULL, { 0 } },
    { "previous-of-kind", previous_of_kind_action, NULL, NULL, NULL, { 0 } },
  };
  GtkEventController *controller;

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  /* after the widget with the focus had the key (bubble): a list keeps its arrows */
  controller = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_BUBBLE);
  g_signal_connect (controller, "key-pressed", G_CALLBACK (window_key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}
