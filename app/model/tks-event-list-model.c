/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The events list's model: the log's entries merged with the rows it does not have (holes,
 * its end, a trigger), filtered by kind and thread, limited to a time range, and the rows
 * made on demand (tks-event-row.c says what each says) with a cache of the last ones. */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "tks-event-list-model-private.h"

/* ------------------------------------------------------------------------------------------ */
/* The model                                                                                  */

/* Rows kept made, at most. */
#define CACHE_MAX 512

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TksEventListModel, tks_event_list_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static double
base_pos (TksEventListModel *self,
          guint              b)
{
  double pos;
  guint out, in;

  if (self->entries != NULL)
    return self->entries[b].time.pos;
  tks_capture_get_switch_record (self->capture, self->kept != NULL ? self->kept[b] : b,
                                 &pos, &out, &in);
  return pos;
}

/* Extras whose merged place is before @m. */
static guint
extras_before (TksEventListModel *self,
               guint              m)
{
  guint lo = 0, hi = self->extras->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const Extra *x = &g_array_index (self->extras, Extra, mid);

      if (x->ins + mid < m)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* A merged row: an extra (*@extra set) or a base row (*@base set). */
static void
merged_split (TksEventListModel *self,
              guint              m,
              const Extra      **extra,
              guint             *base)
{
  guint c = extras_before (self, m);

  *extra = NULL;
  if (c < self->extras->len && g_array_index (self->extras, Extra, c).ins + c == m)
    *extra = &g_array_index (self->extras, Extra, c);
  else
    *base = m - c;
}

static double
merged_pos (TksEventListModel *self,
            guint              m)
{
  const Extra *x;
  guint b = 0;

  merged_split (self, m, &x, &b);
  return x != NULL ? x->pos : base_pos (self, b);
}

static guint
all_to_merged (TksEventListModel *self,
               guint              p)
{
  return self->index != NULL ? self->index[p] : p;
}

/* The first of the n_all rows at or after @t (> @t when @after). */
static guint
all_first_at (TksEventListModel *self,
              double             t,
              gboolean           after)
{
  guint lo = 0, hi = self->n_all;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      double pos = merged_pos (self, all_to_merged (self, mid));

      if (after ? pos <= t : pos < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* ------------------------------------------------------------------------------------------ */
/* Threads by number                                                                          */

static int
cmp_by_number (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  TksCapture *capture = user_data;
  const TksThread *ta = tks_capture_get_thread (capture, *(const guint *) a);
  const TksThread *tb = tks_capture_get_thread (capture, *(const guint *) b);

  if (ta->number != tb->number)
    return ta->number < tb->number ? -1 : 1;
  return ta->index < tb->index ? -1 : ta->index > tb->index;
}

/* The thread numbered @number at @t: of the threads that had the number, the last created
 * that was alive then. G_MAXUINT when none had it. */
guint
_tks_event_list_model_thread_of_number (TksEventListModel *self,
                                        guint              number,
                                        double             t)
{
  guint n = tks_capture_get_n_threads (self->capture);
  guint lo = 0, hi = n, best = G_MAXUINT;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (tks_capture_get_thread (self->capture, self->by_number[mid])->number < (int) number)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (; lo < n; lo++)
    {
      const TksThread *th = tks_capture_get_thread (self->capture, self->by_number[lo]);

      if (th->number != (int) number)
        break;
      if (best == G_MAXUINT)
        best = th->index;
      if (!(th->first_event <= t) && !isnan (th->first_event))
        continue;
      if (!isnan (th->exit_time) && th->exit_time < t)
        continue;
      best = th->index;
    }
  return best;
}

/* Whether @thread's run begins (@begin) or ends at @t, or its mark says so. */
static gboolean
thread_switches_at (const TksThread *th,
                    double           t,
                    gboolean         begin)
{
  if (th->n_runs > 0)
    {
      guint r = begin ? tks_runs_first_beginning_at (th->runs, 0, th->n_runs, t)
                      : tks_runs_first_ending_after (th->runs, th->n_runs, t - 1e-9);

      return r < th->n_runs && (begin ? th->runs[r].begin : th->runs[r].end) == t;
    }
  if (th->n_marks > 0)
    {
      guint m = tks_marks_first_at (th->marks, 0, th->n_marks, t);

      for (; m < th->n_marks && th->marks[m].pos == t; m++)
        if (th->marks[m].kind == (begin ? TKS_MARK_IN : TKS_MARK_OUT))
          return TRUE;
    }
  return FALSE;
}

/* The thread a switch at @t switches in (@in) or out: the one its number names then, checked
 * against the runs (a number names another thread once threads have exited). */
guint
_tks_event_list_model_thread_of_switch (TksEventListModel *self,
                                        guint              number,
                                        double             t,
                                        gboolean           in)
{
  guint guess = _tks_event_list_model_thread_of_number (self, number, t);
  guint n = tks_capture_get_n_threads (self->capture);

  if (guess == G_MAXUINT || thread_switches_at (tks_capture_get_thread (self->capture, guess), t, in))
    return guess;
  for (guint i = 0; i < n; i++)
    if (i != guess && thread_switches_at (tks_capture_get_thread (self->capture, i), t, in))
      return i;
  return guess;
}

const char *
_tks_event_list_model_thread_name (TksEventListModel *self,
                                   guint              thread,
                                   guint              number,
                                   char             **owned)
{
  const TksThread *th = thread != G_MAXUINT ? tks_capture_get_thread (self->capture, thread)
                                            : NULL;

  if (th != NULL && th->name != NULL && th->name[0] != '\0')
    return th->name;
  /* Translators: a thread known only by its number */
  return *owned = g_strdup_printf (_("thread %u"), number);
}

/* ------------------------------------------------------------------------------------------ */
/* What a row is                                                                              */

/* A merged row's kind and, for a switch or a wake-up, the numbers of its threads. */
static TksEventRowKind
merged_kind (TksEventListModel *self,
             guint              m,
             double            *pos,
             guint             *out,
             guint             *in)
{
  const Extra *x;
  guint b = 0;

  merged_split (self, m, &x, &b);
  *out = *in = G_MAXUINT;
  if (x != NULL)
    {
      *pos = x->pos;
      return x->kind;
    }
  if (self->entries != NULL)
    {
      const TksEventEntry *e = &self->entries[b];

      *pos = e->time.pos;
      if (e->kind == TKS_EVENT_SWITCH)
        {
          *out = e->a;
          *in = e->b;
        }
      else if (e->kind == TKS_EVENT_READY)
        *in = e->a;
      return _tks_event_row_kind_of_entry (e);
    }
  tks_capture_get_switch_record (self->capture, self->kept != NULL ? self->kept[b] : b,
                                 pos, out, in);
  return *out == *in ? TKS_EVENT_ROW_EXIT : TKS_EVENT_ROW_SWITCH;
}

static gboolean
merged_passes (TksEventListModel *self,
               guint              m)
{
  double pos;
  guint out, in;
  TksEventRowKind kind = merged_kind (self, m, &pos, &out, &in);

  if (!(tks_event_row_kind_family (kind) & self->kinds))
    return FALSE;
  if (self->thread == G_MAXUINT)
    return TRUE;
  {
    const TksThread *th = tks_capture_get_thread (self->capture, self->thread);

    if (th == NULL)
      return FALSE;
    if (kind == TKS_EVENT_ROW_READY)
      return _tks_event_list_model_thread_of_number (self, in, pos) == self->thread;
    if (_tks_event_list_model_thread_of_switch (self, in, pos, TRUE) == self->thread)
      return TRUE;
    if (kind == TKS_EVENT_ROW_SWITCH && _tks_event_list_model_thread_of_switch (self, out, pos, FALSE) == self->thread)
      return TRUE;
  }
  return FALSE;
}

static TksEventRow *
make_row (TksEventListModel *self,
          guint              p)
{
  TksEventRow *row = g_object_new (TKS_TYPE_EVENT_ROW, NULL);
  guint m = all_to_merged (self, p);
  const Extra *x;
  guint b = 0;

  row->index = p;
  merged_split (self, m, &x, &b);
  if (x != NULL)
    {
      row->kind = x->kind;
      row->time = x->pos;
      _tks_event_row_fill_extra (self, row, x);
    }
  else if (self->entries != NULL)
    {
      row->kind = _tks_event_row_kind_of_entry (&self->entries[b]);
      row->time = self->entries[b].time.pos;
      _tks_event_row_fill_entry (self, row, &self->entries[b]);
    }
  else
    {
      TksEventEntry e = { .kind = TKS_EVENT_SWITCH };
      guint out, in;

      tks_capture_get_switch_record (self->capture, self->kept != NULL ? self->kept[b] : b,
                                     &e.time.pos, &out, &in);
      e.a = out;
      e.b = in;
      row->kind = _tks_event_row_kind_of_entry (&e);
      row->time = e.time.pos;
      _tks_event_row_fill_entry (self, row, &e);
    }
  if (row->who == NULL)
    row->who = g_strdup ("");
  return row;
}

/* ------------------------------------------------------------------------------------------ */
/* Building                                                                                   */

static int
cmp_extra (gconstpointer a,
           gconstpointer b)
{
  const Extra *xa = a, *xb = b;

  return xa->pos < xb->pos ? -1 : xa->pos > xb->pos;
}

static void
build_base (TksEventListModel *self)
{
  TksCapture *capture = self->capture;
  guint n_threads;
  gboolean trigger_entry = FALSE;
  TksTime trigger_time;
  double trigger_pos, log_end;
  guint n_gaps = 0;
  const TksGap *gaps;

  g_clear_pointer (&self->kept, g_free);
  g_clear_pointer (&self->by_number, g_free);
  g_array_set_size (self->extras, 0);
  self->entries = NULL;
  self->n_base = 0;
  self->events = NULL;
  self->n_merged = 0;
  if (capture == NULL)
    return;

  self->events = tks_capture_get_events (capture);
  if (self->events != NULL)
    {
      self->entries = tks_events_get_entries (self->events, &self->n_base);
      trigger_entry = tks_events_get_trigger (self->events, &trigger_time);
    }
  else
    {
      guint n = tks_capture_get_n_switch_records (capture);
      guint kept = tks_capture_get_n_records (capture);

      self->n_base = kept;
      if (kept != n)
        {
          guint k = 0;

          self->kept = g_new (guint, MAX (kept, 1));
          for (guint i = 0; i < n && k < kept; i++)
            {
              double pos;
              guint out, in;

              tks_capture_get_switch_record (capture, i, &pos, &out, &in);
              if (!isnan (pos))
                self->kept[k++] = i;
            }
          self->n_base = k;
        }
    }

  n_threads = tks_capture_get_n_threads (capture);
  self->by_number = g_new (guint, MAX (n_threads, 1));
  for (guint i = 0; i < n_threads; i++)
    self->by_number[i] = i;
  g_qsort_with_data (self->by_number, n_threads, sizeof (guint), cmp_by_number, capture);

  gaps = tks_capture_get_gaps (capture, &n_gaps);
  for (guint i = 0; i < n_gaps; i++)
    {
      Extra x = { gaps[i].begin, TKS_EVENT_ROW_HOLE, i, 0 };

      g_array_append_val (self->extras, x);
    }
  log_end = tks_capture_get_log_end (capture, NULL);
  if (log_end < tks_capture_get_end (capture))
    {
      Extra x = { log_end, TKS_EVENT_ROW_LOG_END, 0, 0 };

      g_array_append_val (self->extras, x);
    }
  if (!trigger_entry && tks_capture_get_trigger (capture, &trigger_pos))
    {
      Extra x = { trigger_pos, TKS_EVENT_ROW_TRIGGER, 0, 0 };

      g_array_append_val (self->extras, x);
    }
  g_array_sort (self->extras, cmp_extra);
  for (guint k = 0; k < self->extras->len; k++)
    {
      Extra *x = &g_array_index (self->extras, Extra, k);
      guint lo = 0, hi = self->n_base;

      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (base_pos (self, mid) < x->pos)
            lo = mid + 1;
          else
            hi = mid;
        }
      x->ins = lo;
    }
  self->n_merged = self->n_base + self->extras->len;
}

static void
build_index (TksEventListModel *self)
{
  g_clear_pointer (&self->index, g_free);
  if (self->kinds == TKS_EVENT_FILTER_ALL && self->thread == G_MAXUINT)
    {
      self->n_all = self->n_merged;
      return;
    }
  {
    GArray *index = g_array_new (FALSE, FALSE, sizeof (guint));

    for (guint m = 0; m < self->n_merged; m++)
      if (merged_passes (self, m))
        g_array_append_val (index, m);
    self->n_all = index->len;
    self->index = (guint *) (gpointer) g_array_free (index, FALSE);
  }
}

static void
range_bounds (TksEventListModel *self,
              guint             *lo,
              guint             *hi)
{
  double from = self->from, to = self->to;

  *lo = isnan (from) ? 0 : all_first_at (self, from, FALSE);
  *hi = isnan (to) ? self->n_all : all_first_at (self, to, TRUE);
  if (*hi < *lo)
    *hi = *lo;
}

/* Everything changed: the view starts again. */
static void
reset (TksEventListModel *self)
{
  guint old = self->hi - self->lo;

  g_hash_table_remove_all (self->cache);
  build_index (self);
  range_bounds (self, &self->lo, &self->hi);
  if (old > 0 || self->hi > self->lo)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, old, self->hi - self->lo);
}

/* ------------------------------------------------------------------------------------------ */
/* Rows kept from one capture to the next                                                     */

/* Whether only the cache holds @value (a row): no view shows it. */
static gboolean
row_unheld (gpointer key,
            gpointer value,
            gpointer user_data)
{
  return g_atomic_int_get (&G_OBJECT (value)->ref_count) <= 1;
}

static gboolean
same_double (double a,
             double b)
{
  return a == b || (isnan (a) && isnan (b));
}

/* Whether @a and @b say the same. */
static gboolean
rows_alike (const TksEventRow *a,
            const TksEventRow *b)
{
  return a->kind == b->kind && same_double (a->duration, b->duration) &&
         g_strcmp0 (a->who, b->who) == 0 && g_strcmp0 (a->detail, b->detail) == 0;
}

/* @row, of the capture shown before, whose times were those of the capture now less @shift:
 * the same row of the capture now, in the cache at its position, if it has one that no other
 * row took and that says the same. */
static void
keep_row (TksEventListModel *self,
          TksEventRow       *row,
          double             shift)
{
  double t = row->time + shift;

  for (guint p = all_first_at (self, t, FALSE); p < self->hi; p++)
    {
      g_autoptr(TksEventRow) now = NULL;

      if (p < self->lo || merged_pos (self, all_to_merged (self, p)) != t)
        return;
      if (g_hash_table_contains (self->cache, GUINT_TO_POINTER (p)))
        continue;
      now = make_row (self, p);
      if (rows_alike (row, now))
        {
          row->index = p;
          row->time = now->time;
          row->thread = now->thread;
          g_hash_table_insert (self->cache, GUINT_TO_POINTER (p), g_object_ref (row));
          return;
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* GListModel                                                                                 */

static GType
tks_event_list_model_get_item_type (GListModel *model)
{
  return TKS_TYPE_EVENT_ROW;
}

static guint
tks_event_list_model_get_n_items (GListModel *model)
{
  TksEventListModel *self = TKS_EVENT_LIST_MODEL (model);

  return self->hi - self->lo;
}

static gpointer
tks_event_list_model_get_item (GListModel *model,
                               guint       position)
{
  TksEventListModel *self = TKS_EVENT_LIST_MODEL (model);
  guint p;
  TksEventRow *row;

  if (position >= self->hi - self->lo)
    return NULL;
  p = self->lo + position;
  row = g_hash_table_lookup (self->cache, GUINT_TO_POINTER (p));
  if (row == NULL)
    {
      /* (the rows a view holds stay: a next capture finds them there) */
      if (g_hash_table_size (self->cache) >= CACHE_MAX)
        g_hash_table_foreach_remove (self->cache, row_unheld, NULL);
      row = make_row (self, p);
      g_hash_table_insert (self->cache, GUINT_TO_POINTER (p), row);
    }
  return g_object_ref (row);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = tks_event_list_model_get_item_type;
  iface->get_n_items = tks_event_list_model_get_n_items;
  iface->get_item = tks_event_list_model_get_item;
}

static void
tks_event_list_model_finalize (GObject *object)
{
  TksEventListModel *self = TKS_EVENT_LIST_MODEL (object);

  g_clear_pointer (&self->cache, g_hash_table_unref);
  g_clear_pointer (&self->kept, g_free);
  g_clear_pointer (&self->by_number, g_free);
  g_clear_pointer (&self->index, g_free);
  g_clear_pointer (&self->extras, g_array_unref);
  g_clear_object (&self->capture);
  G_OBJECT_CLASS (tks_event_list_model_parent_class)->finalize (object);
}

static void
tks_event_list_model_class_init (TksEventListModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tks_event_list_model_finalize;
}

static void
tks_event_list_model_init (TksEventListModel *self)
{
  self->cache = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
  self->extras = g_array_new (FALSE, FALSE, sizeof (Extra));
  self->kinds = TKS_EVENT_FILTER_ALL;
  self->thread = G_MAXUINT;
  self->from = self->to = NAN;
}

/* ------------------------------------------------------------------------------------------ */
/* API                                                                                        */

TksEventListModel *
tks_event_list_model_new (void)
{
  return g_object_new (TKS_TYPE_EVENT_LIST_MODEL, NULL);
}

void
tks_event_list_model_set_capture (TksEventListModel *self,
                                  TksCapture        *capture)
{
  g_return_if_fail (TKS_IS_EVENT_LIST_MODEL (self));
  g_return_if_fail (capture == NULL || TKS_IS_CAPTURE (capture));

  if (capture == self->capture)
    return;
  g_set_object (&self->capture, capture);
  if (self->thread != G_MAXUINT &&
      (capture == NULL || self->thread >= tks_capture_get_n_threads (capture)))
    self->thread = G_MAXUINT;
  g_hash_table_remove_all (self->cache);
  build_base (self);
  reset (self);
}

void
tks_event_list_model_set_next_capture (TksEventListModel *self,
                                       TksCapture        *capture,
                                       double             shift,
                                       guint              thread)
{
  g_autoptr(GHashTable) held = NULL;
  GHashTableIter iter;
  gpointer row;
  guint old = self->hi - self->lo;

  g_return_if_fail (TKS_IS_EVENT_LIST_MODEL (self));
  g_return_if_fail (TKS_IS_CAPTURE (capture));
  g_return_if_fail (isfinite (shift));

  if (thread != G_MAXUINT && thread >= tks_capture_get_n_threads (capture))
    thread = G_MAXUINT;
  if (self->capture == NULL || capture == self->capture)
    {
      tks_event_list_model_set_capture (self, capture);
      tks_event_list_model_set_filter (self, self->kinds, thread);
      return;
    }
  /* the rows a view holds, then the capture and its rows in the same range of time */
  g_hash_table_foreach_remove (self->cache, row_unheld, NULL);
  held = g_steal_pointer (&self->cache);
  self->cache = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
  g_set_object (&self->capture, capture);
  self->thread = thread;
  self->from += shift;
  self->to += shift;
  build_base (self);
  build_index (self);
  range_bounds (self, &self->lo, &self->hi);
  /* Each row held that the capture has, saying the same, is its row still: a view gets it
   * back at its new place and keeps what it made of it. */
  g_hash_table_iter_init (&iter, held);
  while (g_hash_table_iter_next (&iter, NULL, &row))
    keep_row (self, row, shift);
  if (old > 0 || self->hi > self->lo)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, old, self->hi - self->lo);
}

TksCapture *
tks_event_list_model_get_capture (TksEventListModel *self)
{
  g_return_val_if_fail (TKS_IS_EVENT_LIST_MODEL (self), NULL);
  return self->capture;
}

void
tks_event_list_model_set_range (TksEventListModel *self,
                                double             from,
                                double             to)
{
  guint lo, hi, old_lo = self->lo, old_hi = self->hi;

  g_return_if_fail (TKS_IS_EVENT_LIST_MODEL (self));

  self->from = from;
  self->to = to;
  range_bounds (self, &lo, &hi);
  if (lo == old_lo && hi == old_hi)
    return;
  if (hi <= old_lo || lo >= old_hi)
    {
      /* no row in common */
      self->lo = lo;
      self->hi = hi;
      g_list_model_items_changed (G_LIST_MODEL (self), 0, old_hi - old_lo, hi - lo);
      return;
    }
  /* The tail first, then the head; a view asks the model as each change leaves it, so the
   * model is [old_lo, hi) while the first is told. */
  if (hi != old_hi)
    {
      self->hi = hi;
      g_list_model_items_changed (G_LIST_MODEL (self), MIN (hi, old_hi) - old_lo,
                                  old_hi > hi ? old_hi - hi : 0,
                                  hi > old_hi ? hi - old_hi : 0);
    }
  if (lo != old_lo)
    {
      self->lo = lo;
      g_list_model_items_changed (G_LIST_MODEL (self), 0,
                                  lo > old_lo ? lo - old_lo : 0,
                                  old_lo > lo ? old_lo - lo : 0);
    }
}

void
tks_event_list_model_set_filter (TksEventListModel *self,
                                 TksEventFilter     kinds,
                                 guint              thread)
{
  g_return_if_fail (TKS_IS_EVENT_LIST_MODEL (self));

  kinds &= TKS_EVENT_FILTER_ALL;
  if (kinds == self->kinds && thread == self->thread)
    return;
  self->kinds = kinds;
  self->thread = thread;
  reset (self);
}

TksEventFilter
tks_event_list_model_get_kinds (TksEventListModel *self)
{
  g_return_val_if_fail (TKS_IS_EVENT_LIST_MODEL (self), TKS_EVENT_FILTER_ALL);
  return self->kinds;
}

guint
tks_event_list_model_get_thread (TksEventListModel *self)
{
  g_return_val_if_fail (TKS_IS_EVENT_LIST_MODEL (self), G_MAXUINT);
  return self->thread;
}

guint
tks_event_list_model_get_n_all (TksEventListModel *self)
{
  g_return_val_if_fail (TKS_IS_EVENT_LIST_MODEL (self), 0);
  return self->n_all;
}

guint
tks_event_list_model_find_time (TksEventListModel *self,
                                double             t)
{
  guint p;

  g_return_val_if_fail (TKS_IS_EVENT_LIST_MODEL (self), 0);

  p = all_first_at (self, t, FALSE);
  p = CLAMP (p, self->lo, self->hi);
  return p - self->lo;
}

guint
tks_event_list_model_find_run (TksEventListModel *self,
                               guint              thread,
                               double             t)
{
  guint first = tks_event_list_model_find_time (self, t);
  const TksThread *th;

  g_return_val_if_fail (TKS_IS_EVENT_LIST_MODEL (self), 0);

  th = self->capture != NULL && thread != G_MAXUINT
    ? tks_capture_get_thread (self->capture, thread) : NULL;
  if (th == NULL)
    return first;
  for (guint p = self->lo + first; p < self->hi; p++)
    {
      double pos;
      guint out, in;
      TksEventRowKind kind = merged_kind (self, all_to_merged (self, p), &pos, &out, &in);

      if (pos > t)
        break;
      if (kind == TKS_EVENT_ROW_SWITCH && _tks_event_list_model_thread_of_switch (self, in, pos, TRUE) == thread)
        return p - self->lo;
    }
  return first;
}

guint
tks_event_list_model_position_of (TksEventListModel *self,
                                  guint              index)
{
  g_return_val_if_fail (TKS_IS_EVENT_LIST_MODEL (self), G_MAXUINT);

  return index >= self->lo && index < self->hi ? index - self->lo : G_MAXUINT;
}

gboolean
tks_event_list_run_at (TksCapture *capture,
                       guint       thread,
                       double      t,
                       guint      *run_thread,
                       guint      *run)
{
  guint n;

  g_return_val_if_fail (TKS_IS_CAPTURE (capture), FALSE);

  n = tks_capture_get_n_threads (capture);
  for (guint k = 0; k < n + 1; k++)
    {
      /* the row's thread first, then any that held the CPU */
      guint i = k == 0 ? thread : k - 1;
      const TksThread *th;
      guint r;

      if (i == G_MAXUINT || i >= n || (k > 0 && i == thread))
        continue;
      th = tks_capture_get_thread (capture, i);
      if (th->n_runs == 0)
        continue;
      r = tks_runs_first_ending_after (th->runs, th->n_runs, t);
      if (r < th->n_runs && th->runs[r].begin <= t)
        {
          *run_thread = i;
          *run = r;
          return TRUE;
        }
      /* the row's thread: the run a wake-up leads to, or the one a switch begins */
      if (k == 0 && r < th->n_runs)
        {
          *run_thread = i;
          *run = r;
          return TRUE;
        }
    }
  return FALSE;
}
