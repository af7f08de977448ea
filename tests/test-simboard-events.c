/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The simulated board's events beyond the switches, against its ground truth: every
 * interrupt, wake-up, marker, state and sleep the board's hardware and workload produced
 * within the span of a threads_dump (version 2) is in it, with the counter value the truth's
 * time gives (a 168 MHz counter, 32 bits), the right handler, thread, name, value and nesting;
 * and nothing else is. A condition trigger set through the shell freezes the log at the first
 * wake-up above the limit. The dump is read here from its text, independently of the viewer.
 */
#include <stdio.h>
#include <string.h>

#include <gio/gio.h>

#include "tks-simboard.h"
#include "tks-simboard-private.h"

#define COUNTER_HZ 168000000U
#define TICK_WRAP  (1U << 20)

__extension__ typedef unsigned __int128 Wide;

/* The counter at @cycles (TKS_SIMBOARD_CYCLES_PER_TICK a tick) since boot. */
static guint32
counter_of (guint tick_hz, guint64 cycles)
{
  return (guint32) ((Wide) cycles * COUNTER_HZ / ((guint64) tick_hz * TKS_SIMBOARD_CYCLES_PER_TICK));
}

/* A truth time (ticks, the cycles as a fraction) in cycles. */
static guint64
cycles_of (double t)
{
  return (guint64) (t * TKS_SIMBOARD_CYCLES_PER_TICK + 0.5);
}

/********************                   THE TRUTH                  ********************/

typedef struct
{
  TksTruthKind kind;
  const char  *name;       /* interned */
  gboolean     logged;
  gboolean     dynamic;
  guint64      begin;      /* cycles */
  guint64      end;
  guint        depth;
  guint32      value;
} Ev;

static void
collect (const TksTruthEvent *event, gpointer data)
{
  GArray *events = data;
  Ev ev = { event->kind, g_intern_string (event->name), event->logged, event->dynamic,
            cycles_of (event->begin), cycles_of (event->end), event->depth, event->value };

  if (event->kind >= TKS_TRUTH_IRQ)
    g_array_append_val (events, ev);
}

/********************                   THE DUMP                   ********************/

typedef enum
{
  E_SWITCH, E_IRQ_ENTER, E_IRQ_LEAVE, E_SLEEP, E_WAKE, E_READY, E_MARKER, E_BEGIN, E_END,
  E_TRIGGER,
} EntryKind;

typedef struct
{
  EntryKind kind;
  int       a;          /* out thread, name id, thread number, channel */
  int       b;          /* in thread, state */
  guint32   value;
  guint32   counter;
  guint64   at;         /* cycles since boot, from the tick and the counter */
} Entry;

/* An interval rebuilt from the dump: an interrupt, a state, a sleep. */
typedef struct
{
  char    *name;
  guint64  begin;
  guint64  end;
  guint32  begin_counter;
  guint32  end_counter;
  guint    depth;
} Span;

typedef struct
{
  char      *text;
  char     **lines;
  guint      tick_hz;
  GPtrArray *threads;   /* live threads' names, index = number */
  GPtrArray *names;     /* index = name id */
  GArray    *entries;
  GArray    *irqs;      /* Span */
  GArray    *states;
  GArray    *sleeps;
} Dump;

static void
span_clear (gpointer data)
{
  g_free (((Span *) data)->name);
}

static void
dump_free (Dump *d)
{
  g_strfreev (d->lines);
  g_free (d->text);
  g_ptr_array_unref (d->threads);
  g_ptr_array_unref (d->names);
  g_array_unref (d->entries);
  g_array_unref (d->irqs);
  g_array_unref (d->states);
  g_array_unref (d->sleeps);
  g_free (d);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Dump, dump_free)

static const char *
header (const Dump *d, const char *key)
{
  gsize len = strlen (key);

  for (guint i = 0; d->lines[i] != NULL && strcmp (d->lines[i], "Threads:") != 0; i++)
    if (strncmp (d->lines[i], key, len) == 0 && strncmp (d->lines[i] + len, ": ", 2) == 0)
      return d->lines[i] + len + 2;
  return NULL;
}

static const char *
name_of (const Dump *d, int id)
{
  return id >= 0 && (guint) id < d->names->len ? g_ptr_array_index (d->names, id) : "?";
}

/* The cycle since boot of an entry at tick @tick20 (20 bits) with @counter, the board being at
 * tick @now: the tick unwraps backwards from @now, the counter places it within its tick. */
static guint64
entry_cycles (guint tick_hz, guint64 now, guint tick20, guint32 counter)
{
  guint64 tick = now - ((now - tick20) & (TICK_WRAP - 1));

  for (guint c = 0; c <= TKS_SIMBOARD_CYCLES_PER_TICK; c++)
    {
      guint64 at = tick * TKS_SIMBOARD_CYCLES_PER_TICK + c;

      if (counter_of (tick_hz, at) == counter)
        return at;
    }
  g_error ("counter %u does not fall in tick %" G_GUINT64_FORMAT, counter, tick);
}

static void
push_span (GArray *spans, const char *name, const Entry *begin, const Entry *end, guint depth)
{
  Span s = { g_strdup (name), begin->at, end->at, begin->counter, end->counter, depth };

  g_array_append_val (spans, s);
}

static Dump *
dump_parse (const char *text, guint64 now)
{
  Dump *d = g_new0 (Dump, 1);
  enum { HEADER, THREADS, DELETED, NAMES, LOG } section = HEADER;
  Entry irq_stack[16], state_stack[16];
  guint n_irq = 0, n_state = 0;
  const Entry *sleep = NULL;
  int waker = 0;

  d->text = g_strdup (text);
  d->lines = g_strsplit (text, "\r\n", -1);
  d->threads = g_ptr_array_new_with_free_func (g_free);
  d->names = g_ptr_array_new_with_free_func (g_free);
  d->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  d->irqs = g_array_new (FALSE, FALSE, sizeof (Span));
  d->states = g_array_new (FALSE, FALSE, sizeof (Span));
  d->sleeps = g_array_new (FALSE, FALSE, sizeof (Span));
  g_array_set_clear_func (d->irqs, span_clear);
  g_array_set_clear_func (d->states, span_clear);
  g_array_set_clear_func (d->sleeps, span_clear);
  g_ptr_array_add (d->threads, g_strdup (""));
  g_ptr_array_add (d->names, g_strdup (""));

  g_assert_cmpstr (d->lines[0], ==, "Dump version: 2");
  g_assert_cmpstr (header (d, "Counter frequency"), ==, "168000000");
  g_assert_cmpstr (header (d, "Counter bits"), ==, "32");
  g_assert_cmpstr (header (d, "Events"), ==, "cycles irq sleep ready user conditions");
  g_assert_cmpstr (header (d, "Max threads"), ==, "62");
  d->tick_hz = (guint) g_ascii_strtoull (header (d, "Tick frequency"), NULL, 10);

  for (guint i = 0; d->lines[i] != NULL; i++)
    {
      const char *line = d->lines[i];
      Entry e = { 0 };
      unsigned tick = 0;
      unsigned long value = 0;
      int number, id;
      char name[64];

      if (strcmp (line, "Threads:") == 0)
        section = THREADS;
      else if (strcmp (line, "Deleted threads: ") == 0)
        section = DELETED;
      else if (strcmp (line, "Names:") == 0)
        section = NAMES;
      else if (strcmp (line, "Timestamps:") == 0)
        section = LOG;
      if (section == THREADS
          && sscanf (line, "Thread number %d : Prio = %*d, Log = %*s Name = %63[^\n]", &number, name) == 2)
        {
          g_assert_cmpint (number, ==, (int) d->threads->len);
          g_ptr_array_add (d->threads, g_strdup (name));
        }
      if (section == NAMES && sscanf (line, "Name %d : Kind = %*[a-z], Name = %63[^\n]", &id, name) == 2)
        {
          g_assert_cmpint (id, ==, (int) d->names->len);
          g_ptr_array_add (d->names, g_strdup (name));
        }
      if (section != LOG)
        continue;

      if (sscanf (line, "From %d to %d at %u @ %u", &e.a, &e.b, &tick, &e.counter) == 4)
        e.kind = E_SWITCH;
      else if (sscanf (line, "Irq enter %d at %u @ %u", &e.a, &tick, &e.counter) == 3)
        e.kind = E_IRQ_ENTER;
      else if (sscanf (line, "Irq leave at %u @ %u", &tick, &e.counter) == 2)
        e.kind = E_IRQ_LEAVE;
      else if (sscanf (line, "Sleep at %u @ %u", &tick, &e.counter) == 2)
        e.kind = E_SLEEP;
      else if (sscanf (line, "Wake at %u @ %u", &tick, &e.counter) == 2)
        e.kind = E_WAKE;
      else if (sscanf (line, "Ready %d at %u @ %u", &e.a, &tick, &e.counter) == 3)
        e.kind = E_READY;
      else if (sscanf (line, "Marker %d = %lu at %u @ %u", &e.a, &value, &tick, &e.counter) == 4)
        e.kind = E_MARKER;
      else if (sscanf (line, "State %d begin %d at %u @ %u", &e.a, &e.b, &tick, &e.counter) == 4)
        e.kind = E_BEGIN;
      else if (sscanf (line, "State %d end at %u @ %u", &e.a, &tick, &e.counter) == 3)
        e.kind = E_END;
      else if (sscanf (line, "Trigger at %u @ %u", &tick, &e.counter) == 2)
        e.kind = E_TRIGGER;
      else
        continue;
      e.value = (guint32) value;
      e.at = entry_cycles (d->tick_hz, now, tick, e.counter);
      if (d->entries->len > 0)
        g_assert_cmpuint (e.at, >=, g_array_index (d->entries, Entry, d->entries->len - 1).at);
      g_array_append_val (d->entries, e);
    }

  /* The intervals: handlers and states nest, the innermost ends first; a sleep ends at the
   * next wake. An end whose beginning is older than the log is left out. */
  for (guint i = 0; i < d->entries->len; i++)
    {
      const Entry *e = &g_array_index (d->entries, Entry, i);

      switch (e->kind)
        {
        case E_IRQ_ENTER:
          g_assert_cmpuint (n_irq, <, G_N_ELEMENTS (irq_stack));
          irq_stack[n_irq++] = *e;
          /* the first handler to run while the CPU slept woke it */
          if (sleep != NULL && waker == 0)
            waker = e->a;
          break;
        case E_IRQ_LEAVE:
          /* the innermost handler under way ends */
          if (n_irq > 0)
            {
              n_irq--;
              push_span (d->irqs, name_of (d, irq_stack[n_irq].a), &irq_stack[n_irq], e, n_irq + 1);
            }
          break;
        case E_BEGIN:
          g_assert_cmpuint (n_state, <, G_N_ELEMENTS (state_stack));
          state_stack[n_state++] = *e;
          break;
        case E_END:
          if (n_state > 0)
            {
              g_autofree char *name = NULL;

              n_state--;
              g_assert_cmpint (state_stack[n_state].a, ==, e->a);
              name = g_strdup_printf ("%s: %s", name_of (d, e->a), name_of (d, state_stack[n_state].b));
              push_span (d->states, name, &state_stack[n_state], e, n_state + 1);
            }
          break;
        case E_SLEEP:
          sleep = e;
          waker = 0;
          break;
        case E_WAKE:
          if (sleep != NULL)
            push_span (d->sleeps, waker == 0 ? "" : name_of (d, waker), sleep, e, 0);
          sleep = NULL;
          break;
        case E_SWITCH:
          /* The scheduler switches once the handlers have left, not inside one. */
          g_assert_cmpuint (n_irq, ==, 0);
          break;
        case E_READY:
        case E_MARKER:
        case E_TRIGGER:
        default:
          break;
        }
    }
  return d;
}

/********************                   CHECKS                     ********************/

typedef struct
{
  guint64 first;   /* the log's span, cycles: events strictly within it are checked */
  guint64 last;
  guint   irqs, nested, wakeups, markers, states, nested_states, sleeps, woken_sleeps;
} Seen;

static gboolean
inside (const Seen *seen, guint64 begin, guint64 end)
{
  return begin > seen->first && end < seen->last;
}

/* The depth of @ev can be known from the log: the intervals around it are in it too. */
static gboolean
depth_known (GArray *truth, const Ev *ev, const Seen *seen)
{
  if (ev->depth <= 1)
    return TRUE;
  for (guint i = 0; i < truth->len; i++)
    {
      const Ev *o = &g_array_index (truth, Ev, i);

      if (o->kind == ev->kind && o->depth == ev->depth - 1 && o->begin <= ev->begin
          && o->end >= ev->end && inside (seen, o->begin, o->end))
        return depth_known (truth, o, seen);
    }
  return FALSE;
}

/* The interval of @spans named @name from @begin to @end; its depth when @depth > 0. */
static gboolean
has_span (GArray *spans, guint tick_hz, const char *name, guint64 begin, guint64 end, guint depth)
{
  for (guint i = 0; i < spans->len; i++)
    {
      const Span *s = &g_array_index (spans, Span, i);

      if (s->begin == begin && strcmp (s->name, name) == 0)
        return s->end == end && s->begin_counter == counter_of (tick_hz, begin)
               && s->end_counter == counter_of (tick_hz, end) && (depth == 0 || s->depth == depth);
    }
  return FALSE;
}

static guint
spans_inside (GArray *spans, const Seen *seen)
{
  guint n = 0;

  for (guint i = 0; i < spans->len; i++)
    n += inside (seen, g_array_index (spans, Span, i).begin, g_array_index (spans, Span, i).end);
  return n;
}

/* A Ready of @ev's thread at its beginning, then its switch-in at its end. */
static gboolean
has_wakeup (const Dump *d, const Ev *ev)
{
  guint named = 0;

  for (guint n = 1; n < d->threads->len; n++)
    named += strcmp (g_ptr_array_index (d->threads, n), ev->name) == 0;
  for (guint i = 0; i < d->entries->len; i++)
    {
      const Entry *r = &g_array_index (d->entries, Entry, i);
      int number = r->a;

      if (r->kind != E_READY || r->at != ev->begin
          || r->counter != counter_of (d->tick_hz, ev->begin))
        continue;
      /* A static thread by its number in the list (0: a thread created while every number
       * was taken); a dynamic one (names repeat) by its Ready and switch-in. */
      if (!ev->dynamic && named == 0 && number != 0)
        continue;
      if (!ev->dynamic && named != 0
          && (named != 1 || (guint) number >= d->threads->len
              || strcmp (g_ptr_array_index (d->threads, number), ev->name) != 0))
        continue;
      for (guint j = i + 1; j < d->entries->len; j++)
        {
          const Entry *s = &g_array_index (d->entries, Entry, j);

          if (s->kind != E_SWITCH)
            continue;
          if (s->a == s->b && s->a < number)
            number--;     /* an exit: the threads numbered above it are one lower */
          else if (s->b == number && s->a != s->b)
            {
              if (s->at == ev->end && s->counter == counter_of (d->tick_hz, ev->end))
                return TRUE;
              /* Threads without a number are all 0: any of them may come in first. */
              if (number != 0 || s->at > ev->end)
                break;
            }
        }
    }
  return FALSE;
}

static gboolean
has_marker (const Dump *d, const Ev *ev)
{
  for (guint i = 0; i < d->entries->len; i++)
    {
      const Entry *m = &g_array_index (d->entries, Entry, i);

      if (m->kind == E_MARKER && m->at == ev->begin && m->value == ev->value
          && m->counter == counter_of (d->tick_hz, ev->begin)
          && strcmp (name_of (d, m->a), ev->name) == 0)
        return TRUE;
    }
  return FALSE;
}

static guint
entries_inside (const Dump *d, EntryKind kind, const Seen *seen)
{
  guint n = 0;

  for (guint i = 0; i < d->entries->len; i++)
    {
      const Entry *e = &g_array_index (d->entries, Entry, i);

      n += e->kind == kind && inside (seen, e->at, e->at);
    }
  return n;
}

/* Every event of @all_truth within the log's span is in @d, and no other. */
static void
check_events (const Dump *d, GArray *all_truth, Seen *seen)
{
  g_autoptr(GArray) truth = g_array_new (FALSE, FALSE, sizeof (Ev));
  guint truth_irqs = 0, truth_states = 0, truth_sleeps = 0, truth_markers = 0;

  g_assert_cmpuint (d->entries->len, >, 100);
  seen->first = g_array_index (d->entries, Entry, 0).at;
  seen->last = g_array_index (d->entries, Entry, d->entries->len - 1).at;
  /* The events within the span. */
  for (guint i = 0; i < all_truth->len; i++)
    if (inside (seen, g_array_index (all_truth, Ev, i).begin, g_array_index (all_truth, Ev, i).end))
      g_array_append_val (truth, g_array_index (all_truth, Ev, i));

  for (guint i = 0; i < truth->len; i++)
    {
      const Ev *ev = &g_array_index (truth, Ev, i);
      gboolean ok = TRUE;

      if (!inside (seen, ev->begin, ev->end))
        continue;
      switch (ev->kind)
        {
        case TKS_TRUTH_IRQ:
          ok = has_span (d->irqs, d->tick_hz, ev->name, ev->begin, ev->end,
                         depth_known (truth, ev, seen) ? ev->depth : 0);
          truth_irqs++;
          seen->irqs++;
          seen->nested += ev->depth > 1;
          break;
        case TKS_TRUTH_STATE:
          ok = has_span (d->states, d->tick_hz, ev->name, ev->begin, ev->end,
                         depth_known (truth, ev, seen) ? ev->depth : 0);
          truth_states++;
          seen->states++;
          seen->nested_states += ev->depth > 1;
          break;
        case TKS_TRUTH_SLEEP:
          ok = has_span (d->sleeps, d->tick_hz, ev->name, ev->begin, ev->end, 0);
          truth_sleeps++;
          seen->sleeps++;
          seen->woken_sleeps += ev->name[0] != '\0';
          break;
        case TKS_TRUTH_MARKER:
          ok = has_marker (d, ev);
          truth_markers++;
          seen->markers++;
          break;
        case TKS_TRUTH_WAKEUP:
          if (!ev->logged)
            continue;
          ok = has_wakeup (d, ev);
          seen->wakeups++;
          break;
        case TKS_TRUTH_CREATE:
        case TKS_TRUTH_RUN:
        case TKS_TRUTH_EXIT:
        case TKS_TRUTH_RUNNING:
        default:
          continue;
        }
      if (!ok)
        g_error ("%s \"%s\" from cycle %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT
                 " (counter %u to %u, depth %u, value %u) is not in the dump",
                 ev->kind == TKS_TRUTH_IRQ ? "irq" : ev->kind == TKS_TRUTH_STATE ? "state"
                 : ev->kind == TKS_TRUTH_SLEEP ? "sleep" : ev->kind == TKS_TRUTH_MARKER ? "marker"
                 : "wakeup", ev->name, ev->begin, ev->end, counter_of (d->tick_hz, ev->begin),
                 counter_of (d->tick_hz, ev->end), ev->depth, ev->value);
    }
  /* Nothing that did not happen. */
  g_assert_cmpuint (spans_inside (d->irqs, seen), ==, truth_irqs);
  g_assert_cmpuint (spans_inside (d->states, seen), ==, truth_states);
  g_assert_cmpuint (spans_inside (d->sleeps, seen), ==, truth_sleeps);
  g_assert_cmpuint (entries_inside (d, E_MARKER, seen), ==, truth_markers);
}

static TksSimboardState *
board_new (guint32 seed, guint tick_hz, guint workers, GArray *truth)
{
  TksSimboardOptions opts;

  tks_simboard_options_init (&opts);
  opts.seed = seed;
  opts.tick_hz = tick_hz;
  opts.workers = workers;
  g_assert_true (tks_simboard_options_check (&opts, NULL));
  g_assert_true (tks_simboard_state_acquire (NULL));
  return tks_simboard_state_new_traced (&opts, collect, truth);
}

static void
board_free (TksSimboardState *board)
{
  tks_simboard_state_free (board);
  tks_simboard_state_release ();
}

static GArray *
truth_new (void)
{
  return g_array_new (FALSE, FALSE, sizeof (Ev));
}

typedef struct
{
  guint32 seed;
  guint   tick_hz;
  guint64 ticks;      /* before a long reply, sent on the serial line while the board runs */
  guint64 after;      /* then before the dump */
  guint   workers;
} EventsCase;

static const EventsCase events_cases[] = {
  { 1, 1000, 3000, 400, 0 },
  { 2, 1000, 8000, 150, 0 },
  { 3, 100, 2600, 300, 0 },       /* the counter wrapped (26 s) */
  { 4, 10000, 20000, 2000, 0 },
  { 5, 1000, 40000, 1000, 0 },    /* wrapped, at 1000 Hz */
  { 6, 1000, 3000, 200, 60 },     /* more threads than numbers (62 with events) */
};

static void
test_events (gconstpointer data)
{
  const EventsCase *c = data;
  g_autoptr(GArray) truth = truth_new ();
  TksSimboardState *board = board_new (c->seed, c->tick_hz, c->workers, truth);
  g_autofree char *text = NULL;
  g_autoptr(Dump) dump = NULL;
  Seen seen = { 0 };
  guint64 now;

  tks_simboard_state_advance (board, c->ticks);
  g_free (tks_simboard_state_run_command (board, "threads_timestamps"));
  tks_simboard_state_advance (board, c->after);
  now = tks_simboard_state_get_tick (board);
  text = tks_simboard_state_run_command (board, "threads_dump");
  board_free (board);

  dump = dump_parse (text, now);
  if (c->workers > 0)
    g_assert_false (g_str_has_prefix (header (dump, "Unnumbered threads"), "0 live"));
  check_events (dump, truth, &seen);
  g_test_message ("seed %u, %u Hz: log from cycle %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT
                  ", counter %s: %u irqs (%u nested), %u wake-ups, %u markers, %u states "
                  "(%u nested), %u sleeps (%u woken by a handler)", c->seed, c->tick_hz,
                  seen.first, seen.last,
                  seen.last * COUNTER_HZ / (c->tick_hz * 1000ULL) >= G_GUINT64_CONSTANT (1) << 32
                  ? "wrapped" : "not wrapped", seen.irqs, seen.nested, seen.wakeups, seen.markers,
                  seen.states, seen.nested_states, seen.sleeps, seen.woken_sleeps);
  /* Every kind is there to check. */
  g_assert_cmpuint (seen.irqs, >, 50);
  g_assert_cmpuint (seen.nested, >, 0);
  g_assert_cmpuint (seen.wakeups, >, 20);
  g_assert_cmpuint (seen.markers, >, 5);
  g_assert_cmpuint (seen.states, >, 5);
  g_assert_cmpuint (seen.sleeps, >, 5);
  g_assert_cmpuint (seen.woken_sleeps, >, 0);
  for (guint i = 0; i < dump->irqs->len; i++)
    if (strcmp (g_array_index (dump->irqs, Span, i).name, "USART2_IRQHandler") == 0)
      return;
  g_error ("no serial interrupt in the log while a reply was sent");
}

/* threads_trigger_when latency N sensor: the log freezes around the first wake-up of the
 * sensor thread whose latency (made ready to switched in) is above N microseconds. */
static void
test_trigger_when (void)
{
  static const guint limits_us[] = { 3, 12, 25 };

  for (guint l = 0; l < G_N_ELEMENTS (limits_us); l++)
    {
      g_autoptr(GArray) truth = truth_new ();
      TksSimboardState *board = board_new (11 + l, 1000, 0, truth);
      g_autofree char *command = g_strdup_printf ("threads_trigger_when latency %u sensor", limits_us[l]);
      g_autofree char *condition = g_strdup_printf ("latency above %u us of sensor", limits_us[l]);
      g_autofree char *reply = NULL;
      g_autofree char *expected = NULL;
      g_autofree char *text = NULL;
      g_autoptr(Dump) dump = NULL;
      const Ev *first = NULL;
      guint64 set_at, now, latency;
      guint trigger = G_MAXUINT;
      const Entry *in;

      tks_simboard_state_advance (board, 2000);
      set_at = tks_simboard_state_get_tick (board) * TKS_SIMBOARD_CYCLES_PER_TICK;
      reply = tks_simboard_state_run_command (board, command);
      expected = g_strdup_printf ("Condition: %s\r\n", condition);
      g_assert_cmpstr (reply, ==, expected);
      tks_simboard_state_advance (board, 6000);
      now = tks_simboard_state_get_tick (board);
      text = tks_simboard_state_run_command (board, "threads_dump");
      board_free (board);

      /* The truth's first wake-up of the sensor above the limit, switched in after the
       * condition was set: the counter decides, as on the board. */
      for (guint i = 0; i < truth->len && first == NULL; i++)
        {
          const Ev *ev = &g_array_index (truth, Ev, i);

          if (ev->kind == TKS_TRUTH_WAKEUP && strcmp (ev->name, "sensor") == 0 && ev->end > set_at
              && (guint32) (counter_of (1000, ev->end) - counter_of (1000, ev->begin))
                 > limits_us[l] * (COUNTER_HZ / 1000000))
            first = ev;
        }
      g_assert_nonnull (first);
      latency = (guint32) (counter_of (1000, first->end) - counter_of (1000, first->begin));
      g_test_message ("limit %u us: the first wake-up above it was made ready at cycle %"
                      G_GUINT64_FORMAT ", switched in %" G_GUINT64_FORMAT " counts later (%"
                      G_GUINT64_FORMAT " us), %" G_GUINT64_FORMAT " ticks after the condition",
                      limits_us[l], first->begin, latency, latency / (COUNTER_HZ / 1000000),
                      first->end / TKS_SIMBOARD_CYCLES_PER_TICK - set_at / TKS_SIMBOARD_CYCLES_PER_TICK);

      dump = dump_parse (text, now);
      g_assert_cmpstr (header (dump, "Mode"), ==, "frozen");
      g_assert_cmpstr (header (dump, "Trigger name"), ==, condition);
      g_assert_cmpstr (header (dump, "Condition"), ==, condition);
      g_assert_cmpuint (g_ascii_strtoull (header (dump, "Trigger tick"), NULL, 10), ==,
                        first->end / TKS_SIMBOARD_CYCLES_PER_TICK);
      g_assert_cmpuint (g_ascii_strtoull (header (dump, "Trigger value"), NULL, 10), ==,
                        latency / (COUNTER_HZ / 1000000));
      for (guint i = 0; i < dump->entries->len; i++)
        if (g_array_index (dump->entries, Entry, i).kind == E_TRIGGER)
          {
            g_assert_cmpuint (trigger, ==, G_MAXUINT);
            trigger = i;
          }
      /* The trigger entry, at the wake-up's switch-in, just before it; the log around it. */
      g_assert_cmpuint (trigger, >, 100);
      g_assert_cmpuint (trigger + 100, <, dump->entries->len);
      g_assert_cmpuint (g_array_index (dump->entries, Entry, trigger).at, ==, first->end);
      g_assert_cmpuint (g_array_index (dump->entries, Entry, trigger).counter, ==,
                        counter_of (1000, first->end));
      in = &g_array_index (dump->entries, Entry, trigger + 1);
      g_assert_cmpint (in->kind, ==, E_SWITCH);
      g_assert_cmpuint (in->at, ==, first->end);
      g_assert_cmpstr (g_ptr_array_index (dump->threads, in->b), ==, "sensor");
      /* Frozen half a log later: the board ran on, the log did not. */
      g_assert_cmpuint (g_array_index (dump->entries, Entry, dump->entries->len - 1).at, <,
                        now * TKS_SIMBOARD_CYCLES_PER_TICK - 1000 * TKS_SIMBOARD_CYCLES_PER_TICK);
    }
}

/* The builds the board can run, and the commands they serve. */
static void
test_versions (void)
{
  static const struct
  {
    gboolean events, legacy;
    const char *dump_start;
    const char *when_start;
  } cases[] = {
    { TRUE, FALSE, "Dump version: 2\r\n", "Usage: threads_trigger_when" },
    { FALSE, FALSE, "Dump version: 1\r\n", "threads_trigger_when ?" },
    { TRUE, TRUE, "threads_dump ?", "threads_trigger_when ?" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      TksSimboardOptions opts;
      TksSimboardState *board;
      g_autofree char *dump = NULL;
      g_autofree char *when = NULL;
      g_autofree char *help = NULL;
      g_autofree char *log = NULL;

      tks_simboard_options_init (&opts);
      opts.events = cases[i].events;
      opts.legacy = cases[i].legacy;
      g_assert_true (tks_simboard_state_acquire (NULL));
      board = tks_simboard_state_new (&opts);
      tks_simboard_state_advance (board, 1000);
      dump = tks_simboard_state_run_command (board, "threads_dump");
      when = tks_simboard_state_run_command (board, "threads_trigger_when x");
      help = tks_simboard_state_run_command (board, "help");
      log = tks_simboard_state_run_command (board, "threads_timestamps");
      tks_simboard_state_free (board);
      tks_simboard_state_release ();

      g_assert_true (g_str_has_prefix (dump, cases[i].dump_start));
      g_assert_true (g_str_has_prefix (when, cases[i].when_start));
      g_assert_true (g_str_has_suffix (help, cases[i].legacy
                                       ? " threads_stat threads_uc \r\n"
                                       : cases[i].events
                                       ? " threads_dump threads_dump_compact threads_trigger_when threads_record \r\n"
                                       : " threads_uc threads_dump threads_dump_compact threads_record \r\n"));
      /* The legacy log: switches only, without counter values, whatever the build. */
      g_assert_true (g_str_has_prefix (log, "From "));
      g_assert_null (strstr (log, " @ "));
      g_assert_null (strstr (log, "Irq"));
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (events_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/simboard/events/truth/%u", i + 1);

      g_test_add_data_func (path, &events_cases[i], test_events);
    }
  g_test_add_func ("/simboard/events/trigger-when", test_trigger_when);
  g_test_add_func ("/simboard/events/versions", test_versions);
  return g_test_run ();
}
