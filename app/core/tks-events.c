/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The events model: a dump version 2's entries placed in time, and its tracks. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "tks-events-private.h"


/* What held the CPU after an entry: the innermost handler under way (depth > 0), else the
 * thread switched in last. */
typedef struct
{
  guint   thread;
  guint32 handler;
  guint   depth;
} CpuState;

struct _TksEvents
{
  TksCapture    *capture;       /* owns this (not a reference) */
  TksEventsInfo  info;
  char          *options;
  char          *condition;
  gboolean       has_counter;
  TksEventEntry *entries;
  guint          n_entries;
  guint          counts[TKS_N_EVENT_KINDS];
  GHashTable    *names;         /* NameKey => char*: every name the log uses */
  GArray        *tracks[TKS_N_TRACK_KINDS]; /* TksTrack */
  GPtrArray     *items[TKS_N_TRACK_KINDS];  /* GArray* of each track's slices or instants */
  TksWakeup     *wakeups;
  guint          n_wakeups;
  CpuState      *cpu;           /* by entry: what held the CPU just after it */
  gboolean       has_trigger;
  TksTime        trigger;
  guint          unmatched[TKS_N_UNMATCHED];
};

/* ------------------------------------------------------------------------------------------ */
/* Build                                                                                        */

static const char * const name_kind_words[] = { "irq", "marker", "channel", "state" };

/* A (kind, board id) pair as a hash key. */
static gint64 *
name_key (guint   kind,
          guint32 id)
{
  gint64 *key = g_new (gint64, 1);

  *key = (gint64) kind << 32 | id;
  return key;
}

static GHashTable *
name_table_new (GDestroyNotify value_free)
{
  return g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, value_free);
}

static const char *
intern_name (TksEvents       *self,
             TksParsedEvents *ev,
             TksNameKind      kind,
             guint32          id)
{
  gint64 key = (gint64) kind << 32 | id;
  char *name = g_hash_table_lookup (self->names, &key);

  if (name != NULL)
    return name;
  if (id >= 1 && id <= TKS_EVENTS_MAX_NAMES && ev->names[id - 1].name != NULL)
    name = g_strdup (ev->names[id - 1].name);
  else if (id == 0)
    name = g_strdup_printf ("%s ?", name_kind_words[kind]);
  else
    name = g_strdup_printf ("%s %u", name_kind_words[kind], id);
  g_hash_table_insert (self->names, name_key (kind, id), name);
  return name;
}

/* An open slice: begun, not yet ended. */
typedef struct
{
  guint32 id;       /* handler, channel */
  guint32 label;    /* state id */
  TksTime begin;
  guint   flags;
} Open;

typedef struct
{
  TksEvents       *self;
  TksParsedEvents *ev;
  GHashTable      *index;      /* NameKey of (track kind, id) => track + 1 */
  TksTime          first;
  TksTime          last;
} Build;

/* The items (slices or instants) of the track of @kind for board id @id, made on first use. */
static GArray *
items_of (Build        *b,
          TksTrackKind  kind,
          guint32       id)
{
  static const TksNameKind name_kind[] = { TKS_NAME_IRQ, TKS_NAME_IRQ, TKS_NAME_MARKER,
                                           TKS_NAME_CHANNEL };
  TksEvents *self = b->self;
  gint64 key = (gint64) kind << 32 | id;
  guint t = GPOINTER_TO_UINT (g_hash_table_lookup (b->index, &key));
  TksTrack track = { .kind = kind, .name_id = id };

  if (t > 0)
    return g_ptr_array_index (self->items[kind], t - 1);
  track.name = kind == TKS_TRACK_SLEEP ? "CPU sleep" : intern_name (self, b->ev, name_kind[kind], id);
  g_array_append_val (self->tracks[kind], track);
  g_ptr_array_add (self->items[kind],
                   g_array_new (FALSE, FALSE, kind == TKS_TRACK_MARKER ? sizeof (TksInstant)
                                                                        : sizeof (TksSlice)));
  g_hash_table_insert (b->index, name_key (kind, id), GUINT_TO_POINTER (self->tracks[kind]->len));
  return g_ptr_array_index (self->items[kind], self->tracks[kind]->len - 1);
}

static void
add_slice (Build        *b,
           TksTrackKind  kind,
           guint32       id,
           const Open   *open,
           TksTime       end,
           guint         depth,
           const char   *label,
           guint         flags)
{
  TksSlice slice = { open->begin, end, depth, label, open->flags | flags };

  g_array_append_val (items_of (b, kind, id), slice);
}

/* The handlers under way and the CPU's sleep, as the log goes. Handlers nest, and leave before
 * the switch they lead to; Sleep and Wake alternate (mcu-lib/WIRE-FORMAT.md): what the log
 * says otherwise cannot have happened, and is counted, not drawn. */
typedef struct
{
  GArray  *irqs;        /* Open: the handlers under way, innermost last */
  Open     sleep;
  gboolean sleeping;
  gboolean woken;       /* a handler entered since the Sleep */
  guint32  waker;       /* the first of them */
  TksTime  begin;       /* where the log, or the stretch after its last hole, begins */
  TksTime  last;        /* the last entry's time */
  gboolean in_thread;   /* since then, a switch, Sleep or Wake: the CPU was outside every
                         * handler, none from before is under way any more */
  gboolean slept;       /* since then, a Sleep or a Wake */
} Cpu;

static void
cpu_irq_enter (Build         *b,
               Cpu           *cpu,
               TksEventEntry *en)
{
  Open open = { .id = en->a, .begin = en->time };

  intern_name (b->self, b->ev, TKS_NAME_IRQ, en->a);
  g_array_append_val (cpu->irqs, open);
  /* the first handler that enters after a Sleep woke the CPU */
  if (cpu->sleeping && !cpu->woken)
    {
      cpu->woken = TRUE;
      cpu->waker = en->a;
    }
}

/* The innermost handler under way ends; none: it began before the log (or its last hole), unless
 * the CPU was seen outside every handler since. */
static void
cpu_irq_leave (Build         *b,
               Cpu           *cpu,
               TksEventEntry *en)
{
  Open open = { .id = en->a, .begin = cpu->begin, .flags = TKS_SLICE_OPEN_BEGIN };

  if (cpu->irqs->len > 0)
    {
      open = g_array_index (cpu->irqs, Open, cpu->irqs->len - 1);
      g_array_set_size (cpu->irqs, cpu->irqs->len - 1);
    }
  else if (cpu->in_thread)
    {
      b->self->unmatched[TKS_UNMATCHED_IRQ_LEAVE]++;
      return;
    }
  en->a = open.id;
  add_slice (b, TKS_TRACK_IRQ, open.id, &open, en->time, cpu->irqs->len,
             intern_name (b->self, b->ev, TKS_NAME_IRQ, open.id), 0);
}

/* The CPU runs a thread here (a switch, Sleep or Wake): the handlers still under way lost
 * their leave. */
static void
cpu_in_thread (Build *b,
               Cpu   *cpu)
{
  b->self->unmatched[TKS_UNMATCHED_IRQ_ENTER] += cpu->irqs->len;
  g_array_set_size (cpu->irqs, 0);
  cpu->in_thread = TRUE;
}

static void
cpu_sleep (Build         *b,
           Cpu           *cpu,
           TksEventEntry *en)
{
  cpu_in_thread (b, cpu);
  cpu->slept = TRUE;
  if (cpu->sleeping)
    {
      b->self->unmatched[TKS_UNMATCHED_SLEEP]++;
      return;
    }
  cpu->sleep = (Open) { .begin = en->time };
  cpu->sleeping = TRUE;
  cpu->woken = FALSE;
}

static void
cpu_wake (Build         *b,
          Cpu           *cpu,
          TksEventEntry *en)
{
  gboolean woken = cpu->sleeping && cpu->woken;

  cpu_in_thread (b, cpu);
  en->a = woken ? cpu->waker : 0;
  en->b = woken;
  if (!cpu->sleeping && cpu->slept)
    {
      b->self->unmatched[TKS_UNMATCHED_WAKE]++;
      return;
    }
  /* (asleep when the log began: what woke it is known only if it entered since) */
  if (!cpu->sleeping)
    cpu->sleep = (Open) { .begin = cpu->begin, .flags = TKS_SLICE_OPEN_BEGIN };
  add_slice (b, TKS_TRACK_SLEEP, 0, &cpu->sleep, en->time, 0,
             woken ? intern_name (b->self, b->ev, TKS_NAME_IRQ, cpu->waker) : NULL, 0);
  cpu->sleeping = FALSE;
  cpu->slept = TRUE;
}

/* What is still under way at the log's end, or where a hole begins, ends there. */
static void
cpu_close (Build *b,
           Cpu   *cpu)
{
  for (guint d = cpu->irqs->len; d > 0; d--)
    {
      const Open *open = &g_array_index (cpu->irqs, Open, d - 1);

      add_slice (b, TKS_TRACK_IRQ, open->id, open, cpu->last, d - 1,
                 intern_name (b->self, b->ev, TKS_NAME_IRQ, open->id), TKS_SLICE_OPEN_END);
    }
  g_array_set_size (cpu->irqs, 0);
  if (cpu->sleeping)
    add_slice (b, TKS_TRACK_SLEEP, 0, &cpu->sleep, cpu->last, 0, NULL, TKS_SLICE_OPEN_END);
  cpu->sleeping = FALSE;
}

/* The log begins at @at, or begins again there after a hole (the board lost what lies between):
 * nothing is known to be under way. */
static void
cpu_begin (Build   *b,
           Cpu     *cpu,
           TksTime  at)
{
  cpu_close (b, cpu);
  cpu->begin = at;
  cpu->last = at;
  cpu->in_thread = FALSE;
  cpu->slept = FALSE;
}

static int
compare_uints (gconstpointer a,
               gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y ? 1 : 0;
}

/* The log's holes that lie before a record (TksParsedGap), by index. */
static GArray *
hole_places (const GArray *gaps)
{
  GArray *places = g_array_new (FALSE, FALSE, sizeof (TksParsedGap));

  for (guint g = 0; g < gaps->len; g++)
    if (g_array_index (gaps, TksParsedGap, g).index != G_MAXUINT)
      g_array_append_val (places, g_array_index (gaps, TksParsedGap, g));
  g_array_sort (places, compare_uints);   /* (index comes first) */
  return places;
}

/* @tick - @from, modulo the ticks' @period. */
static gint64
tick_distance (gint64 tick,
               gint64 from,
               gint64 period)
{
  return ((tick - from) % period + period) % period;
}

/* Whether @entry lies past @hole: after the record before which the hole lies, or beside it
 * (its index is the records before it) at the tick the hole ends at or later. */
static gboolean
entry_past (const TksParsedEntry *entry,
            const TksParsedGap   *hole,
            gint64                period)
{
  gint64 span = tick_distance (hole->end, hole->begin, period);
  gint64 d = tick_distance (entry->tick, hole->begin, period);

  if (entry->record != hole->index)
    return entry->record > hole->index;
  return entry->kind == TKS_EVENT_SWITCH || span == 0 || (d >= span && d < period / 2);
}

/* Whether @entry lies past the hole at places[*next]; then the holes after it are looked at. */
static gboolean
past_hole (const GArray         *places,
           guint                *next,
           const TksParsedEntry *entry,
           gint64                period)
{
  gboolean past = FALSE;

  while (*next < places->len &&
         entry_past (entry, &g_array_index (places, TksParsedGap, *next), period))
    {
      past = TRUE;
      (*next)++;
    }
  return past;
}

static int
compare_slices (gconstpointer a,
                gconstpointer b)
{
  const TksSlice *sa = a, *sb = b;

  if (sa->begin.time != sb->begin.time)
    return sa->begin.time < sb->begin.time ? -1 : 1;
  return sa->depth < sb->depth ? -1 : sa->depth > sb->depth ? 1 : 0;
}

static int
compare_wakeups (gconstpointer a,
                 gconstpointer b)
{
  const TksWakeup *wa = a, *wb = b;

  if (wa->ready.time != wb->ready.time)
    return wa->ready.time < wb->ready.time ? -1 : 1;
  return wa->thread < wb->thread ? -1 : wa->thread > wb->thread ? 1 : 0;
}

/* The walk through the entries: the CPU, the state channels' open slices, the wake-ups. */
typedef struct
{
  Cpu         cpu;
  GPtrArray  *states;       /* GArray of Open per channel: its slices under way */
  GHashTable *state_index;  /* channel => index in states */
  GArray     *wakeups;      /* TksWakeup */
  GHashTable *pending;      /* thread => wakeup + 1 */
  guint       running;      /* the thread switched in last */
  guint       n_threads;
} Walk;

/* A state channel's slice begins, or the innermost under way ends. */
static void
walk_state (Build         *b,
            Walk          *walk,
            TksEventEntry *en)
{
  TksEvents *self = b->self;
  TksParsedEvents *ev = b->ev;
  gpointer found;
  GArray *stack;
  Open open = { .id = en->a, .label = en->b, .begin = en->time };

  if (!g_hash_table_lookup_extended (walk->state_index, GUINT_TO_POINTER (en->a), NULL, &found))
    {
      found = GUINT_TO_POINTER (walk->states->len);
      g_ptr_array_add (walk->states, g_array_new (FALSE, FALSE, sizeof (Open)));
      g_hash_table_insert (walk->state_index, GUINT_TO_POINTER (en->a), found);
      items_of (b, TKS_TRACK_STATE, en->a);
    }
  stack = g_ptr_array_index (walk->states, GPOINTER_TO_UINT (found));
  if (en->kind == TKS_EVENT_STATE_BEGIN)
    {
      intern_name (self, ev, TKS_NAME_STATE, en->b);
      g_array_append_val (stack, open);
      return;
    }
  if (stack->len > 0)
    {
      open = g_array_index (stack, Open, stack->len - 1);
      g_array_set_size (stack, stack->len - 1);
    }
  else
    open = (Open) { .id = en->a, .begin = b->first, .flags = TKS_SLICE_OPEN_BEGIN };
  add_slice (b, TKS_TRACK_STATE, en->a, &open, en->time, stack->len,
             open.flags & TKS_SLICE_OPEN_BEGIN
             ? intern_name (self, ev, TKS_NAME_STATE, 0)
             : intern_name (self, ev, TKS_NAME_STATE, open.label), 0);
}

/* Entry @i makes @thread ready: a wake-up begins, unless one is already waiting. */
static void
walk_ready (Walk          *walk,
            TksEventEntry *en,
            guint          i,
            guint          thread)
{
  TksWakeup w = { .thread = thread, .number = en->a, .ready = en->time,
                  .run = en->time, .open = TRUE, .ready_entry = i,
                  .run_entry = G_MAXUINT };

  /* What made it ready: the handler under way, else the running thread. */
  if (walk->cpu.irqs->len > 0)
    {
      w.waker_kind = TKS_WAKER_HANDLER;
      w.waker = g_array_index (walk->cpu.irqs, Open, walk->cpu.irqs->len - 1).id;
    }
  else if (walk->running != G_MAXUINT)
    {
      w.waker_kind = TKS_WAKER_THREAD;
      w.waker = walk->running;
    }

  /* A thread made ready twice before it runs: its latency runs from the first. */
  if (thread < walk->n_threads && g_hash_table_contains (walk->pending, GUINT_TO_POINTER (thread)))
    return;
  g_array_append_val (walk->wakeups, w);
  if (thread < walk->n_threads)
    g_hash_table_insert (walk->pending, GUINT_TO_POINTER (thread),
                         GUINT_TO_POINTER (walk->wakeups->len));
}

/* Entry @i switches @thread in: its wake-up, if one waits, ends. */
static void
walk_switch (Build         *b,
             Walk          *walk,
             TksEventEntry *en,
             guint          i,
             guint          thread)
{
  guint w;

  cpu_in_thread (b, &walk->cpu);
  w = thread < walk->n_threads
      ? GPOINTER_TO_UINT (g_hash_table_lookup (walk->pending, GUINT_TO_POINTER (thread)))
      : 0;
  if (w > 0)
    {
      TksWakeup *wk = &g_array_index (walk->wakeups, TksWakeup, w - 1);

      wk->run = en->time;
      wk->latency = en->time.time - wk->ready.time;
      wk->open = FALSE;
      wk->run_entry = i;
      g_hash_table_remove (walk->pending, GUINT_TO_POINTER (thread));
    }
  walk->running = thread < walk->n_threads ? thread : G_MAXUINT;
}

/* Entry @i, of @thread when it names one (a Ready, a switch). */
static void
walk_entry (Build         *b,
            Walk          *walk,
            TksEventEntry *en,
            guint          i,
            guint          thread)
{
  TksEvents *self = b->self;

  switch (en->kind)
    {
    case TKS_EVENT_IRQ_ENTER:
      cpu_irq_enter (b, &walk->cpu, en);
      break;
    case TKS_EVENT_IRQ_LEAVE:
      cpu_irq_leave (b, &walk->cpu, en);
      break;
    case TKS_EVENT_SLEEP:
      cpu_sleep (b, &walk->cpu, en);
      break;
    case TKS_EVENT_WAKE:
      cpu_wake (b, &walk->cpu, en);
      break;
    case TKS_EVENT_MARKER:
      {
        TksInstant instant = { en->time, en->b };

        g_array_append_val (items_of (b, TKS_TRACK_MARKER, en->a), instant);
      }
      break;
    case TKS_EVENT_STATE_BEGIN:
    case TKS_EVENT_STATE_END:
      walk_state (b, walk, en);
      break;
    case TKS_EVENT_READY:
      walk_ready (walk, en, i, thread);
      break;
    case TKS_EVENT_SWITCH:
      walk_switch (b, walk, en, i, thread);
      break;
    case TKS_EVENT_TRIGGER:
      if (!self->has_trigger)
        {
          self->has_trigger = TRUE;
          self->trigger = en->time;
        }
      break;
    default:
      break;
    }
}

/* The entries in time: on the ticks of the rebuild, from its place of the first switch it kept
 * (the tick is unwrapped there, and moved to the trigger's epoch). */
static void
build_entries (TksEvents            *self,
               const TksParsedEntry *e,
               const TksPlacedEntry *pl,
               guint                 n,
               const double         *record_pos)
{
  double offset = 0;

  for (guint i = 0; i < n; i++)
    if (e[i].kind == TKS_EVENT_SWITCH && record_pos != NULL && !isnan (record_pos[e[i].record]))
      {
        offset = round (record_pos[e[i].record] - ((double) pl[i].tick + pl[i].frac));
        break;
      }

  self->n_entries = n;
  self->entries = g_new0 (TksEventEntry, MAX (n, 1));
  self->cpu = g_new0 (CpuState, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      TksEventEntry *out = &self->entries[i];

      out->kind = e[i].kind;
      out->a = e[i].a;
      out->b = e[i].b;
      out->time.pos = (double) pl[i].tick + pl[i].frac + offset;
      out->time.time = self->has_counter ? pl[i].count : pl[i].tick + (gint64) offset;
      self->counts[e[i].kind]++;
    }
}

/* The state slices still under way when the log ends end there. */
static void
close_states (Build *b,
              Walk  *walk)
{
  for (guint s = 0; s < walk->states->len; s++)
    {
      GArray *stack = g_ptr_array_index (walk->states, s);

      for (guint d = stack->len; d > 0; d--)
        {
          const Open *open = &g_array_index (stack, Open, d - 1);

          add_slice (b, TKS_TRACK_STATE, open->id, open, b->last, d - 1,
                     intern_name (b->self, b->ev, TKS_NAME_STATE, open->label),
                     TKS_SLICE_OPEN_END);
        }
    }
}

/* Each track points to its items, sorted. */
static void
finish_tracks (TksEvents *self)
{
  for (guint k = 0; k < TKS_N_TRACK_KINDS; k++)
    for (guint t = 0; t < self->tracks[k]->len; t++)
      {
        TksTrack *track = &g_array_index (self->tracks[k], TksTrack, t);
        GArray *items = g_ptr_array_index (self->items[k], t);

        if (k == TKS_TRACK_MARKER)
          {
            track->instants = (const TksInstant *) (gconstpointer) items->data;
            track->n_instants = items->len;
            track->max_depth = items->len > 0;
            continue;
          }
        g_array_sort (items, compare_slices);
        track->slices = (const TksSlice *) (gconstpointer) items->data;
        track->n_slices = items->len;
        for (guint i = 0; i < track->n_slices; i++)
          track->max_depth = MAX (track->max_depth, track->slices[i].depth + 1);
      }
}

TksEvents *
tks_events_build (TksCapture      *capture,
                  TksParsedEvents *ev,
                  const double    *record_pos,
                  const guint     *entry_threads)
{
  TksEvents *self = g_new0 (TksEvents, 1);
  g_autofree guint *map = NULL;
  guint n;
  g_autofree TksParsedEntry *e = tks_parsed_events_kept_entries (ev, capture->parsed->records,
                                                                 &map, &n);
  g_autofree TksPlacedEntry *pl = tks_parsed_events_place (ev, e, map, n,
                                                           tks_capture_get_tick_hz (capture),
                                                           capture->parsed->beats);
  Build b = { self, ev };
  g_autoptr(GArray) holes = hole_places (capture->parsed->gaps);
  guint next_hole = 0;
  g_autoptr(GPtrArray) states = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr(GHashTable) state_index = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) wakeups = g_array_new (FALSE, FALSE, sizeof (TksWakeup));
  g_autoptr(GHashTable) pending = g_hash_table_new (NULL, NULL);
  Walk walk = { .cpu = { .irqs = g_array_new (FALSE, FALSE, sizeof (Open)) },
                .states = states, .state_index = state_index, .wakeups = wakeups,
                .pending = pending, .running = G_MAXUINT,
                .n_threads = tks_capture_get_n_threads (capture) };

  self->capture = capture;
  self->info = ev->info;
  self->info.options = self->options = g_strdup (ev->options);
  self->info.condition = self->condition = g_strdup (ev->condition);
  self->has_counter = ev->has_counter && ev->info.counter_hz > 0;
  self->names = name_table_new (g_free);
  for (guint k = 0; k < TKS_N_TRACK_KINDS; k++)
    {
      self->tracks[k] = g_array_new (FALSE, FALSE, sizeof (TksTrack));
      self->items[k] = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
    }
  b.index = name_table_new (NULL);

  build_entries (self, e, pl, n, record_pos);
  if (n > 0)
    {
      b.first = self->entries[0].time;
      b.last = self->entries[n - 1].time;
    }
  walk.cpu.begin = walk.cpu.last = b.first;

  for (guint i = 0; i < n; i++)
    {
      TksEventEntry *en = &self->entries[i];
      guint thread = entry_threads != NULL ? entry_threads[map[i]] : G_MAXUINT;
      Cpu *cpu = &walk.cpu;

      if (past_hole (holes, &next_hole, &e[i], ev->tick_period))
        cpu_begin (&b, cpu, en->time);
      walk_entry (&b, &walk, en, i, thread);
      self->cpu[i] = (CpuState) { walk.running,
                                  cpu->irqs->len > 0
                                  ? g_array_index (cpu->irqs, Open, cpu->irqs->len - 1).id : 0,
                                  cpu->irqs->len };
      cpu->last = en->time;
    }

  /* What is still under way when the log ends. */
  cpu_close (&b, &walk.cpu);
  g_array_unref (walk.cpu.irqs);
  close_states (&b, &walk);
  finish_tracks (self);

  g_array_sort (wakeups, compare_wakeups);
  self->n_wakeups = wakeups->len;
  self->wakeups = (TksWakeup *) (gpointer) g_array_free (g_steal_pointer (&wakeups), FALSE);
  g_hash_table_unref (b.index);
  return self;
}

void
tks_events_free (TksEvents *self)
{
  if (self == NULL)
    return;
  g_free (self->options);
  g_free (self->condition);
  g_free (self->entries);
  g_hash_table_unref (self->names);
  for (guint k = 0; k < TKS_N_TRACK_KINDS; k++)
    {
      g_array_unref (self->tracks[k]);
      g_ptr_array_unref (self->items[k]);
    }
  g_free (self->wakeups);
  g_free (self->cpu);
  g_free (self);
}

/* ------------------------------------------------------------------------------------------ */
/* Accessors                                                                                    */

TksEvents *
tks_capture_get_events (TksCapture *capture)
{
  g_return_val_if_fail (TKS_IS_CAPTURE (capture), NULL);
  return capture->events;
}

TksCapture *
tks_events_get_capture (TksEvents *self)
{
  return self->capture;
}

const TksEventsInfo *
tks_events_get_info (TksEvents *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return &self->info;
}

gboolean
tks_events_has_counter (TksEvents *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->has_counter;
}

double
tks_events_get_time_hz (TksEvents *self)
{
  g_return_val_if_fail (self != NULL, 1.0);
  return self->has_counter ? (double) self->info.counter_hz
                           : tks_capture_get_tick_hz (self->capture);
}

double
tks_events_to_us (TksEvents *self,
                  gint64     delta)
{
  return (double) delta * 1e6 / tks_events_get_time_hz (self);
}

const TksEventEntry *
tks_events_get_entries (TksEvents *self,
                        guint     *n_entries)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (n_entries != NULL)
    *n_entries = self->n_entries;
  return self->entries;
}

guint
tks_events_count (TksEvents    *self,
                  TksEventKind  kind)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (kind < TKS_N_EVENT_KINDS, 0);
  return self->counts[kind];
}

const char *
tks_events_get_name (TksEvents   *self,
                     TksNameKind  kind,
                     guint32      id)
{
  gint64 key = (gint64) kind << 32 | id;

  g_return_val_if_fail (self != NULL, NULL);
  return g_hash_table_lookup (self->names, &key);
}

const TksTrack *
tks_events_get_tracks (TksEvents    *self,
                       TksTrackKind  kind,
                       guint        *n_tracks)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (kind < TKS_N_TRACK_KINDS, NULL);
  if (n_tracks != NULL)
    *n_tracks = self->tracks[kind]->len;
  return (const TksTrack *) (gconstpointer) self->tracks[kind]->data;
}

const TksWakeup *
tks_events_get_wakeups (TksEvents *self,
                        guint     *n_wakeups)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (n_wakeups != NULL)
    *n_wakeups = self->n_wakeups;
  return self->wakeups;
}

guint
tks_events_count_unmatched (TksEvents        *self,
                            TksUnmatchedKind  kind)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (kind < TKS_N_UNMATCHED, 0);
  return self->unmatched[kind];
}

gboolean
tks_events_get_trigger (TksEvents *self,
                        TksTime   *time)
{
  g_return_val_if_fail (self != NULL, FALSE);
  if (self->has_trigger && time != NULL)
    *time = self->trigger;
  return self->has_trigger;
}

void
tks_events_get_cpu_after (TksEvents *self,
                          guint      entry,
                          guint     *thread,
                          guint32   *handler,
                          guint     *handler_depth)
{
  CpuState none = { G_MAXUINT, 0, 0 };
  const CpuState *cpu;

  g_return_if_fail (self != NULL);
  cpu = entry < self->n_entries ? &self->cpu[entry] : &none;
  if (thread != NULL)
    *thread = cpu->thread;
  if (handler != NULL)
    *handler = cpu->handler;
  if (handler_depth != NULL)
    *handler_depth = cpu->depth;
}

char *
tks_events_describe_waker (TksEvents       *self,
                           const TksWakeup *wakeup)
{
  g_return_val_if_fail (self != NULL && wakeup != NULL, NULL);
  switch (wakeup->waker_kind)
    {
    case TKS_WAKER_THREAD:
      if (wakeup->waker < tks_capture_get_n_threads (self->capture))
        return g_strdup_printf ("thread %s",
                                tks_capture_get_thread (self->capture, wakeup->waker)->name);
      break;
    case TKS_WAKER_HANDLER:
      return g_strdup_printf ("handler %s",
                              tks_events_get_name (self, TKS_NAME_IRQ, wakeup->waker));
    default:
      break;
    }
  return g_strdup ("not known");
}
