/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rebuild: the parsed thread lists and log records become threads, runs and marks. */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#ifdef G_OS_UNIX
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "tks-capture-rebuild-private.h"

G_STATIC_ASSERT (sizeof (ThreadState) <= 64);

void
tks_rebuild_warn (Rebuild    *rb,
                  const char *format,
                  ...)
{
  va_list args;

  rb->n_warnings++;
  if (rb->warnings->len >= MAX_KEPT_WARNINGS)
    return;
  va_start (args, format);
  g_ptr_array_add (rb->warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

/* Events that cannot have happened as the log has them: one warning for each kind, with the
 * count (they are left out of the handlers' and the sleep's times). */
static void
warn_unmatched (Rebuild   *rb,
                TksEvents *events)
{
  guint n;

  if ((n = tks_events_count_unmatched (events, TKS_UNMATCHED_IRQ_LEAVE)) > 0)
    tks_rebuild_warn (rb, g_dngettext (GETTEXT_PACKAGE,
                                   "warning: %u interrupt handler leave without its enter: "
                                   "impossible, left out of the handlers' times",
                                   "warning: %u interrupt handler leaves without their enter: "
                                   "impossible, left out of the handlers' times", n), n);
  if ((n = tks_events_count_unmatched (events, TKS_UNMATCHED_IRQ_ENTER)) > 0)
    tks_rebuild_warn (rb, g_dngettext (GETTEXT_PACKAGE,
                                   "warning: %u interrupt handler enter without its leave "
                                   "before the next switch: left out of the handlers' times",
                                   "warning: %u interrupt handler enters without their leave "
                                   "before the next switch: left out of the handlers' times",
                                   n), n);
  if ((n = tks_events_count_unmatched (events, TKS_UNMATCHED_WAKE)) > 0)
    tks_rebuild_warn (rb, g_dngettext (GETTEXT_PACKAGE,
                                   "warning: %u CPU wake without a sleep before it: impossible, "
                                   "left out of the sleep time",
                                   "warning: %u CPU wakes without a sleep before them: "
                                   "impossible, left out of the sleep time", n), n);
  if ((n = tks_events_count_unmatched (events, TKS_UNMATCHED_SLEEP)) > 0)
    tks_rebuild_warn (rb, g_dngettext (GETTEXT_PACKAGE,
                                   "warning: %u CPU sleep while asleep: impossible, left out "
                                   "of the sleep time",
                                   "warning: %u CPU sleeps while asleep: impossible, left out "
                                   "of the sleep time", n), n);
}

static void
reverse_infos (GPtrArray *infos)
{
  for (guint a = 0, b = infos->len; a + 1 < b; a++, b--)
    {
      gpointer tmp = infos->pdata[a];

      infos->pdata[a] = infos->pdata[b - 1];
      infos->pdata[b - 1] = tmp;
    }
}

/* The original library remembers the last 64 exited threads, whatever its log holds: with its
 * deleted-thread list full, the log can hold the exits of threads the list has forgotten, the
 * oldest ones. Each of those exit records tells the number the thread had: it goes back at
 * that number, before (older than) the threads the list has, unnamed, so that the threads
 * after it keep their numbers and no thread takes another's name. (With fewer than 64 listed,
 * nothing was forgotten: more exits than listed were read after the list.) */
#define ORIGINAL_MAX_DELETED 64
#define ORIGINAL_MAX_FORGOTTEN 65536

static void
rebuild_forgotten_exits (Rebuild *rb)
{
  const TksRecord *r = (const TksRecord *) (gconstpointer) rb->parsed->records->data;
  guint n = rb->parsed->records->len;
  guint forgotten, found = 0;
  g_autofree guint8 *numbers = NULL;

  if (rb->n_exits <= rb->parsed->deleted->len || rb->parsed->deleted->len < ORIGINAL_MAX_DELETED)
    return;
  forgotten = rb->n_exits - rb->parsed->deleted->len;
  /* Each becomes a lane: a file cannot make more of them than a board's log could hold. */
  forgotten = MIN (forgotten, ORIGINAL_MAX_FORGOTTEN);
  numbers = g_new (guint8, forgotten);
  for (guint i = 0; i < n && found < forgotten; i++)
    if (!(r[i].flags & TKS_RECORD_DROPPED) && record_is_exit (&r[i]))
      numbers[found++] = r[i].out;
  tks_rebuild_warn (rb, g_dngettext (GETTEXT_PACKAGE,
                                 "warning: the log holds %u exit of a thread the deleted-thread "
                                 "list no longer has (the board remembers only the last ones): "
                                 "shown as not in the list",
                                 "warning: the log holds %u exits of threads the deleted-thread "
                                 "list no longer has (the board remembers only the last ones): "
                                 "shown as not in the list", forgotten),
                    forgotten);

  for (guint f = found; f > 0; f--)
    {
      ThreadInfo *info = g_new0 (ThreadInfo, 1);

      info->deleted = TRUE;
      info->deleted_order = -1;
      info->number = numbers[f - 1];
      /* The list is still last first here (see rebuild_creation_order). */
      g_ptr_array_insert (rb->infos,
                          rb->infos->len - (MIN (info->number, rb->infos->len + 1) - 1), info);
    }
}

/* Step 1: creation order. The deleted threads go back, last deleted first, at their number.
 * The list is built last first, so that an insertion at number n moves n entries, not the
 * whole list after it: linear in a history of any length. */
static void
rebuild_creation_order (Rebuild *rb)
{
  TksParsed *parsed = rb->parsed;

  for (guint i = 0; i < parsed->live->len; i++)
    {
      const TksListEntry *entry = g_ptr_array_index (parsed->live, i);
      ThreadInfo *info = g_new0 (ThreadInfo, 1);

      info->entry = entry;
      info->deleted_order = -1;
      info->number = entry->number;
      if (entry->number != (int) i + 1)
        tks_rebuild_warn (rb, _("line %u: warning: thread “%s” is listed as number %d at position %u"),
                          entry->line, entry->name, entry->number, i + 1);
      g_ptr_array_add (rb->infos, info);
    }
  reverse_infos (rb->infos);

  for (guint i = parsed->deleted->len; i > 0; i--)
    {
      const TksListEntry *entry = g_ptr_array_index (parsed->deleted, i - 1);
      ThreadInfo *info = g_new0 (ThreadInfo, 1);
      guint at;

      info->entry = entry;
      info->deleted = TRUE;
      info->deleted_order = i - 1;
      info->number = entry->number;
      if (entry->number < 1 || (guint) entry->number > rb->infos->len + 1)
        {
          at = CLAMP (entry->number, 1, (int) rb->infos->len + 1) - 1;
          tks_rebuild_warn (rb, g_dngettext (GETTEXT_PACKAGE,
                                         "line %u: warning: deleted thread “%s” has number %d, "
                                         "but only %u thread was alive then",
                                         "line %u: warning: deleted thread “%s” has number %d, "
                                         "but only %u threads were alive then",
                                         rb->infos->len + 1),
                            entry->line, entry->name, entry->number, rb->infos->len + 1);
        }
      else
        at = entry->number - 1;
      g_ptr_array_insert (rb->infos, rb->infos->len - at, info);
    }
  rebuild_forgotten_exits (rb);
  reverse_infos (rb->infos);
  rb->n_listed = rb->infos->len;
}

static void
rebuild_initial_working_list (Rebuild *rb)
{
  TksParsed *parsed = rb->parsed;
  guint stale = 0;

  if (parsed->deleted->len > rb->n_exits)
    {
      /* Not damage: the board's history remembers more exits than the log holds. These
       * threads are flagged TKS_THREAD_EXITED_BEFORE_LOG and counted. */
      stale = parsed->deleted->len - rb->n_exits;
    }

  /* Last first (see WORKING), without the first @stale deleted threads. */
  rb->initial = g_array_sized_new (FALSE, FALSE, sizeof (guint), rb->infos->len);
  for (guint t = rb->infos->len; t > 0; t--)
    {
      ThreadInfo *info = g_ptr_array_index (rb->infos, t - 1);

      if (info->deleted_order < 0 || info->deleted_order >= (int) stale)
        g_array_append_val (rb->initial, (guint) { t - 1 });
    }
}

/* Where the trigger's tick falls on the unwrapped time line. */
static void
rebuild_place_trigger (Rebuild *rb)
{
  TksCapture *self = rb->self;
  TksParsed *parsed = rb->parsed;
  gint64 t = parsed->trigger_tick;

  if (!parsed->has_trigger)
    return;

  self->has_trigger = TRUE;
  if (rb->period < ((gint64) 1 << 32))
    {
      /* The log keeps the low bits of the tick, the trigger more (or as many, on a board
       * whose system time is as narrow: it is placed by the records around it). */
      gint64 low = t & (rb->period - 1);
      gint64 best = low, best_dist = G_MAXINT64;

      for (gint64 e = -1; e <= (gint64) ((self->end - self->start) / rb->period) + 1; e++)
        {
          gint64 cand = (gint64) self->start - ((gint64) self->start % rb->period) + e * rb->period + low;
          gint64 dist = cand < self->start ? (gint64) self->start - cand
                        : cand > self->end ? cand - (gint64) self->end : 0;

          if (dist < best_dist)
            {
              best_dist = dist;
              best = cand;
            }
        }
      t = best;
    }
  self->trigger_pos = (double) t;
}

static int
compare_lanes (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  TksCapture *self = user_data;
  const TksThread *ta = &self->threads[*(const guint *) a];
  const TksThread *tb = &self->threads[*(const guint *) b];
  gboolean ua = (ta->flags & TKS_THREAD_NOT_LISTED) != 0;
  gboolean ub = (tb->flags & TKS_THREAD_NOT_LISTED) != 0;

  if (ua != ub)
    return ua ? 1 : -1;
  if (ta->priority != tb->priority)
    return ta->priority > tb->priority ? -1 : 1;
  return ta->index < tb->index ? -1 : ta->index > tb->index ? 1 : 0;
}

/* The switches the holes of the log are missing. */
static guint64
gaps_dropped (TksCapture *self)
{
  guint64 n = 0;

  for (guint g = 0; g < self->n_gaps; g++)
    n += self->gaps[g].dropped;
  return n;
}

static gint
compare_gaps (gconstpointer a,
              gconstpointer b)
{
  const TksParsedGap *ga = a, *gb = b;

  if (ga->index != gb->index)
    return ga->index < gb->index ? -1 : 1;
  return ga->order < gb->order ? -1 : ga->order > gb->order ? 1 : 0;
}

/* The holes the input places between two of its records, by index (in the input's order
 * between the same two records). */
static void
rebuild_collect_gaps (Rebuild *rb)
{
  GArray *gaps = rb->parsed->gaps;
  guint n_records = rb->parsed->records->len;

  rb->gaps = g_new (TksParsedGap, MAX (gaps->len, 1));
  for (guint g = 0; g < gaps->len; g++)
    {
      const TksParsedGap *pg = &g_array_index (gaps, TksParsedGap, g);

      /* (Before the first record and after the last too: the log's ends lie in them.) */
      if (pg->index <= n_records && n_records > 0)
        {
          rb->gaps[rb->n_gaps] = *pg;
          rb->gaps[rb->n_gaps].order = rb->n_gaps;
          rb->n_gaps++;
        }
      else
        tks_rebuild_warn (rb, _("warning: a hole before record %u of a log of %u records is "
                        "ignored"), pg->index, n_records);
    }
  qsort (rb->gaps, rb->n_gaps, sizeof (TksParsedGap), compare_gaps);
  rb->self->gaps = g_new0 (TksGap, MAX (rb->n_gaps, 1));
  rb->self->saved_gaps = g_new0 (TksParsedGap, MAX (rb->n_gaps, 1));
}

#define LARGE_PAGE       (2u << 20)
#define LARGE_BLOCK_MIN  (4u << 20)

/* A block that pass 2 fills (hundreds of MB for an hour's recording) is asked for in the
 * kernel's large pages where it has them: one page fault, and one page to map, where small
 * pages take 512. */
static void
block_advise_large (gpointer block,
                    gsize    size)
{
#if defined(G_OS_UNIX) && defined(MADV_HUGEPAGE)
  if (block != NULL && size >= LARGE_BLOCK_MIN)
    {
      guintptr first = ((guintptr) block + LARGE_PAGE - 1) & ~(guintptr) (LARGE_PAGE - 1);
      guintptr last = ((guintptr) block + size) & ~(guintptr) (LARGE_PAGE - 1);

      /* (advice only: where it is not taken, small pages come as before) */
      if (last > first)
        (void) madvise ((void *) first, last - first, MADV_HUGEPAGE);
    }
#else
  (void) block;
  (void) size;
#endif
}

/* A block of @size bytes that pass 2 fills. */
static gpointer
block_new (gsize size)
{
  gpointer block = g_malloc (MAX (size, 1));

  block_advise_large (block, size);
  return block;
}

/* The pages of the blocks the second pass fills (runs, marks and their sums: hundreds of MB
 * for an hour's recording) are made by another thread while it runs, rather than one fault at
 * a time as it writes: the kernel makes a page present without changing what it holds, so the
 * two never disturb each other. Where the kernel cannot, the pages come as they are written. */
#define PREFAULT_MIN   (16u << 20)
#define PREFAULT_STEP  (4u << 20)

typedef struct
{
  GThread *thread;
  gint     stop;            /* atomic: the pass is over */
  guint8  *starts[3];
  gsize    lens[3];
} Prefault;

#if defined(MADV_POPULATE_WRITE)
static gpointer
prefault_run (gpointer data)
{
  Prefault *pf = data;
  gsize page = (gsize) sysconf (_SC_PAGESIZE);

  for (guint b = 0; b < G_N_ELEMENTS (pf->starts); b++)
    {
      /* (whole pages inside the block only) */
      guint8 *p = (guint8 *) (((guintptr) pf->starts[b] + page - 1) & ~(guintptr) (page - 1));
      guint8 *end = (guint8 *) (((guintptr) pf->starts[b] + pf->lens[b]) & ~(guintptr) (page - 1));

      for (; p < end && !g_atomic_int_get (&pf->stop); p += PREFAULT_STEP)
        if (madvise (p, MIN ((gsize) (end - p), PREFAULT_STEP), MADV_POPULATE_WRITE) != 0)
          return NULL;
    }
  return NULL;
}
#endif

static void
prefault_start (Prefault *pf)
{
  gsize total = pf->lens[0] + pf->lens[1] + pf->lens[2];

  pf->thread = NULL;
  g_atomic_int_set (&pf->stop, 0);
#if defined(MADV_POPULATE_WRITE)
  if (total >= PREFAULT_MIN && g_get_num_processors () > 1)
    pf->thread = g_thread_try_new ("tks-prefault", prefault_run, pf, NULL);
#else
  (void) total;
#endif
}

static void
prefault_stop (Prefault *pf)
{
  g_atomic_int_set (&pf->stop, 1);
  if (pf->thread != NULL)
    g_thread_join (pf->thread);
  pf->thread = NULL;
}

/* The span of the timeline, and the base that puts a full trigger tick in the right 20-bit
 * epoch; where the log ends. */
static void
rebuild_place_span (Rebuild *rb)
{
  TksCapture *self = rb->self;
  TksParsed *parsed = rb->parsed;

  if (parsed->has_trigger && rb->period < rb->full_period &&
      parsed->trigger_tick >= rb->period && rb->first_tick >= 0)
    {
      /* Move the whole log to the epoch of the trigger, so times read as the board's. */
      gint64 t = parsed->trigger_tick;
      gint64 mid = (rb->first_tick + rb->last_tick) / 2;
      gint64 e = (t - mid + rb->period / 2) / rb->period;

      rb->base = MAX (0, e * rb->period);
    }

  if (rb->first_tick >= 0)
    {
      gint64 first, last;

      self->start = (double) (rb->base + rb->first_tick);
      self->end = (double) (rb->base + rb->last_tick + 1);
      /* A dump version 2: the events before the first switch and after the last are in it. */
      if (tks_parsed_events_tick_span (parsed->events, parsed->records, parsed->beats,
                                       &first, &last))
        {
          self->start = MIN (self->start, (double) (rb->base + rb->first_tick + first));
          self->end = MAX (self->end, (double) (rb->base + rb->first_tick + last + 1));
        }
    }
  /* Pass 2 moves it back when only exits follow the last switch. */
  self->log_end = rb->last_switch >= 0 ? self->end : self->start;
  self->log_end_reason = rb->lone_exits && rb->last_switch < 0 ? TKS_LOG_END_LONE_EXITS
                         : TKS_LOG_END_CAPTURE_END;
}

/* The blocks pass 2 fills, sized from pass 1's counts; @prefault gets them. */
static void
rebuild_allocate (Rebuild  *rb,
                  Prefault *prefault)
{
  TksCapture *self = rb->self;
  gsize total_runs = 0, total_marks = 0;

  for (guint t = 0; t < self->n_threads; t++)
    {
      ThreadInfo *info = g_ptr_array_index (rb->infos, t);
      ThreadState *st = &rb->states[t];

      /* Room, from pass 1's counts: a logged thread's runs each need an IN, and one more run
       * may start the capture; an unlogged thread gets a mark per IN and per OUT. */
      if (info->entry == NULL || info->entry->logged)
        {
          st->n_runs += 1;
          st->n_marks = 0;
        }
      else
        {
          st->n_marks += st->n_runs;
          st->n_runs = 0;
        }
      total_runs += st->n_runs;
      total_marks += st->n_marks;
    }
  self->runs = block_new (total_runs * sizeof (TksRun));
  self->marks = block_new (total_marks * sizeof (TksMark));
  /* The runs' sums, filled with them: one more than the runs, per thread. */
  self->run_time = block_new ((total_runs + self->n_threads + 1) * sizeof (double));
  prefault->starts[0] = (guint8 *) self->runs;
  prefault->lens[0] = total_runs * sizeof (TksRun);
  prefault->starts[1] = (guint8 *) self->marks;
  prefault->lens[1] = total_marks * sizeof (TksMark);
  prefault->starts[2] = (guint8 *) self->run_time;
  prefault->lens[2] = (total_runs + self->n_threads + 1) * sizeof (double);
}

/* Each thread's place in the blocks, its name, priority and flags. */
static void
rebuild_name_threads (Rebuild *rb)
{
  TksCapture *self = rb->self;
  gsize total_runs = 0, total_marks = 0;

  for (guint t = 0; t < self->n_threads; t++)
    {
      ThreadInfo *info = g_ptr_array_index (rb->infos, t);
      TksThread *th = &self->threads[t];
      ThreadState *st = &rb->states[t];

      th->index = t;
      th->runs = self->runs + total_runs;
      th->run_time = self->run_time + total_runs + t;
      th->marks = self->marks + total_marks;
      total_runs += st->n_runs;
      total_marks += st->n_marks;

      if (info->entry != NULL)
        {
          self->names[t] = g_strdup (info->entry->name);
          th->priority = info->entry->priority;
          if (info->entry->logged)
            th->flags |= TKS_THREAD_LOGGED;
        }
      else
        {
          /* Translators: the name of a thread the log names but the thread list does not have */
          self->names[t] = g_strdup_printf (_("Thread %d (not in list)"), info->number);
          th->priority = 0;
          th->flags |= TKS_THREAD_NOT_LISTED | TKS_THREAD_LOGGED;
        }
      if (info->deleted)
        th->flags |= TKS_THREAD_DELETED;
      /* (not a thread whose exit the full list forgot: that one exits inside the log) */
      if (info->deleted && info->deleted_order >= 0 &&
          info->deleted_order < tks_rebuild_first_deleted (rb))
        th->flags |= TKS_THREAD_EXITED_BEFORE_LOG;
      th->name = self->names[t];
      th->number = info->number;
    }
}

/* A dump version 2: every record's place, from which its entries are placed. (A capture
 * without events works its records' places out only when asked: tks_capture_get_switch_record.) */
static void
rebuild_prepare_places (Rebuild *rb)
{
  TksParsed *parsed = rb->parsed;
  guint n_entries;

  if (parsed->events == NULL)
    return;
  /* (pass 2 writes every record's, NAN for one dropped) */
  rb->record_pos = block_new ((gsize) parsed->records->len * sizeof (double));
  n_entries = parsed->events->entries->len;
  rb->fractions = tks_parsed_events_fractions (parsed->events, parsed->records,
                                               parsed->beats, rb->self->tick_hz);
  rb->entry_threads = g_new (guint, MAX (n_entries, 1));
  for (guint i = 0; i < n_entries; i++)
    rb->entry_threads[i] = G_MAXUINT;
}

/* After pass 2: the runs still open end with the log, and each thread takes its state. */
static void
rebuild_close_threads (Rebuild *rb)
{
  TksCapture *self = rb->self;

  /* Holes after the last record: the log (and the capture) ends with the last of them. */
  if (rb->gaps_passed > 0 && self->gaps[rb->gaps_passed - 1].end > self->end)
    {
      if (self->log_end_reason == TKS_LOG_END_CAPTURE_END)
        self->log_end = self->gaps[rb->gaps_passed - 1].end;
      self->end = self->gaps[rb->gaps_passed - 1].end;
    }

  for (guint t = 0; t < self->n_threads; t++)
    {
      TksThread *th = &self->threads[t];
      ThreadState *st = &rb->states[t];

      if (th->flags & TKS_THREAD_LOGGED)
        state_cross_gaps (rb, st, th);
      if (st->open)
        {
          /* Still running when the log was read (or when it ended): shown running to there. */
          state_add_run (st, th, st->open_begin, self->log_end);
          th->flags |= TKS_THREAD_RUNNING_AT_END;
        }
      ((double *) th->run_time)[st->n_runs] = st->run_sum;
      th->n_runs = st->n_runs;
      th->n_marks = st->n_marks;
      th->flags |= st->flags;
      th->first_event = st->first_event;
      th->exit_time = st->exit_time;

      if (st->lost_in > 0 || st->lost_out > 0)
        tks_rebuild_warn (rb, _("warning: thread “%s”: %u switches in and %u switches out "
                                "could not be paired into runs"),
                          th->name, st->lost_in, st->lost_out);
    }

  self->n_gaps = rb->gaps_passed;
  if (rb->n_gaps > rb->gaps_passed)
    tks_rebuild_warn (rb, g_dngettext (GETTEXT_PACKAGE,
                                       "warning: %u hole in a log without a record is ignored",
                                       "warning: %u holes in a log without a record are ignored",
                                       rb->n_gaps - rb->gaps_passed),
                      rb->n_gaps - rb->gaps_passed);
  self->mean_per_tick = rb->n_ticks > 0 ? (double) self->n_records / rb->n_ticks : 0.0;
}

/* The lanes: listed threads first, by priority, then creation; those shown. */
static void
rebuild_sort_lanes (TksCapture *self)
{
  self->n_lanes = self->n_threads;
  self->lanes = g_new (guint, MAX (self->n_lanes, 1));
  for (guint t = 0; t < self->n_lanes; t++)
    self->lanes[t] = t;
  g_qsort_with_data (self->lanes, self->n_lanes, sizeof (guint), compare_lanes, self);
  self->shown_lanes = g_new (guint, MAX (self->n_lanes, 1));
  for (guint l = 0; l < self->n_lanes; l++)
    if (!(self->threads[self->lanes[l]].flags & TKS_THREAD_EXITED_BEFORE_LOG))
      self->shown_lanes[self->n_shown_lanes++] = self->lanes[l];
}

/* The board's drop counters count since run mode began. Only when the log still holds every
 * record written since then do the switches dropped while paused fall inside it. */
static void
rebuild_check_counters (Rebuild *rb)
{
  TksParsed *parsed = rb->parsed;
  guint64 n;
  g_autofree char *count = NULL;

  if (!(parsed->counters.known && parsed->counters.dropped_paused > 0 &&
        parsed->counters.dropped_history == 0 &&
        parsed->counters.records_written == parsed->records->len &&
        parsed->counters.dropped_paused != gaps_dropped (rb->self)))
    return;
  n = parsed->counters.dropped_paused;
  count = g_strdup_printf ("%" G_GUINT64_FORMAT, n);
  tks_rebuild_warn (rb, g_dngettext (GETTEXT_PACKAGE,
                                     "warning: the board did not record %s switch while this "
                                     "log was paused for printing: runs around that moment may "
                                     "be missing or too long",
                                     "warning: the board did not record %s switches while this "
                                     "log was paused for printing: runs around those moments "
                                     "may be missing or too long", (gulong) n),
                    count);
}

/* A dump version 2: the events model, and the trigger where its entry says. */
static void
rebuild_events (Rebuild *rb)
{
  TksCapture *self = rb->self;
  TksTime trigger;

  if (rb->parsed->events == NULL)
    return;
  self->events = tks_events_build (self, rb->parsed->events, rb->record_pos, rb->entry_threads);
  warn_unmatched (rb, self->events);
  /* The trigger entry says exactly where, inside its tick, the trigger was set. */
  if (tks_events_get_trigger (self->events, &trigger))
    {
      self->has_trigger = TRUE;
      self->trigger_pos = trigger.pos;
    }
}

/* Warnings: the reader's first, then the rebuild's. */
static void
rebuild_collect_warnings (Rebuild *rb)
{
  TksCapture *self = rb->self;
  TksParsed *parsed = rb->parsed;
  guint all = parsed->n_warnings + rb->n_warnings;

  self->warnings = g_ptr_array_new_with_free_func (g_free);
  for (guint w = 0; w < parsed->warnings->len; w++)
    g_ptr_array_add (self->warnings, g_strdup (g_ptr_array_index (parsed->warnings, w)));
  for (guint w = 0; w < rb->warnings->len && self->warnings->len < MAX_KEPT_WARNINGS; w++)
    g_ptr_array_add (self->warnings, g_strdup (g_ptr_array_index (rb->warnings, w)));
  if (all > self->warnings->len)
    g_ptr_array_add (self->warnings,
                     g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                   "warning: %u more warning not shown",
                                                   "warning: %u more warnings not shown",
                                                   all - self->warnings->len),
                                      all - self->warnings->len));
  g_ptr_array_add (self->warnings, NULL);
}

void
tks_capture_rebuild (TksCapture *self)
{
  TksParsed *parsed = self->parsed;
  Rebuild rb = { 0 };
  Prefault prefault;

  rb.self = self;
  rb.parsed = parsed;
  rb.infos = g_ptr_array_new_with_free_func (g_free);
  rb.warnings = g_ptr_array_new_with_free_func (g_free);

  rebuild_collect_gaps (&rb);
  tks_rebuild_check_records (&rb);
  if (parsed->events != NULL)
    parsed->events->tick_period = rb.period;
  rebuild_creation_order (&rb);
  rebuild_initial_working_list (&rb);

  /* Pass 1 counts (and invents the threads the list lacks); pass 2 fills. */
  rb.n_states = rb.infos->len + 16;
  rb.states = g_new (ThreadState, rb.n_states);
  tks_rebuild_count (&rb);
  rebuild_place_span (&rb);
  rebuild_place_trigger (&rb);

  self->n_threads = rb.infos->len;
  self->threads = g_new0 (TksThread, self->n_threads);
  self->names = g_new0 (char *, self->n_threads + 1);
  rebuild_allocate (&rb, &prefault);
  prefault_start (&prefault);
  rebuild_name_threads (&rb);
  rebuild_prepare_places (&rb);
  tks_rebuild_fill (&rb);
  prefault_stop (&prefault);
  rebuild_close_threads (&rb);

  tks_capture_assign_colors (self);
  rebuild_sort_lanes (self);

  if (parsed->records->len == 0)
    tks_rebuild_warn (&rb, _("warning: the log is empty: nothing was recorded yet"));
  rebuild_check_counters (&rb);
  rebuild_events (&rb);
  rebuild_collect_warnings (&rb);

  g_free (rb.fractions);
  if (self->events == NULL)
    {
      self->has_switch_records = TRUE;
      self->place_base = rb.base;
      self->place_period = rb.period;
      self->n_jumps = rb.jumps->len;
      self->jumps = (TksJump *) (gpointer) g_array_free (rb.jumps, FALSE);
    }
  else
    g_array_unref (rb.jumps);
  g_free (rb.record_pos);
  g_free (rb.entry_threads);
  g_free (rb.states);
  g_free (rb.gaps);
  g_array_unref (rb.initial);
  g_ptr_array_unref (rb.infos);
  g_ptr_array_unref (rb.warnings);
}
