/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "tks-i18n.h"
#include "tks-lane-list.h"

/* What the user chose for a key, kept across rebuilds. */
enum
{
  STATE_HIDDEN   = 1 << 0,
  STATE_PINNED   = 1 << 1,
  STATE_EXPANDED = 1 << 2,
};

typedef struct
{
  TksLaneRow pub;         /* first: a Row is its TksLaneRow */
  char      *key;
  char      *label;
  char      *folded;      /* the name, case-folded, for the search */
  GArray    *threads;     /* guint: the thread, or a group's members in exit order */
  GPtrArray *members;     /* groups: Row (owned) */
  GArray    *shown;       /* groups: the members that are not hidden (guint) */
  guint      order;       /* position in the timeline's order (the capture's shown lanes) */
  double     exit_time;   /* threads and members: NAN when unknown */
} Row;

struct _TksLaneList
{
  GObject     parent_instance;

  TksCapture *capture;
  double      tick_hz;
  double      origin;     /* ticks: the 0 of the exit times in the labels */
  gboolean    range_set;
  double      from;
  double      to;
  TksLaneSort sort;
  GHashTable *load_rank;  /* key -> 1 + place in the load order taken when the sort was
                             applied: a new range or capture leaves the order as it was */
  GHashTable *identities; /* "priority:name" of the capture's threads, to tell its board */
  char       *search;     /* case-folded, NULL when none */

  GPtrArray  *top;        /* Row (owned): threads and groups, in the timeline's order */
  GPtrArray  *by_thread;  /* Row (not owned) by thread index: a thread's row or a member's */
  GHashTable *state;      /* key -> STATE_* bits */

  GPtrArray  *rows;       /* the panel's rows (not owned) */
  GArray     *lanes;      /* TksLane */
};

G_DEFINE_FINAL_TYPE (TksLaneList, tks_lane_list, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
row_free (gpointer data)
{
  Row *row = data;

  g_free (row->key);
  g_free (row->label);
  g_free (row->folded);
  g_array_unref (row->threads);
  g_clear_pointer (&row->members, g_ptr_array_unref);
  g_clear_pointer (&row->shown, g_array_unref);
  g_free (row);
}

static Row *
row_new (TksLaneRowKind   kind,
         char            *key,
         const TksThread *thread)
{
  Row *row = g_new0 (Row, 1);

  row->key = key;
  row->threads = g_array_new (FALSE, FALSE, sizeof (guint));
  row->folded = g_utf8_casefold (thread->name, -1);
  row->exit_time = NAN;
  row->pub.kind = kind;
  row->pub.key = row->key;
  row->pub.name = thread->name;
  row->pub.priority = thread->priority;
  row->pub.number = -1;
  if (kind == TKS_LANE_ROW_GROUP)
    {
      row->members = g_ptr_array_new_with_free_func (row_free);
      row->shown = g_array_new (FALSE, FALSE, sizeof (guint));
    }
  else
    {
      g_array_append_val (row->threads, thread->index);
      row->pub.number = thread->number;
      if (thread->flags & TKS_THREAD_EXITED)
        row->exit_time = thread->exit_time;
    }
  row->pub.threads = (const guint *) (gpointer) row->threads->data;
  row->pub.n_threads = row->threads->len;
  return row;
}

/* Exited threads that may share a lane with others of their name and priority. */
static gboolean
is_groupable (const TksThread *thread)
{
  return (thread->flags & (TKS_THREAD_EXITED | TKS_THREAD_DELETED)) != 0 &&
         (thread->flags & TKS_THREAD_NOT_LISTED) == 0;
}

static char *
group_key (const TksThread *thread)
{
  return g_strdup_printf ("g:%d:%s", thread->priority, thread->name);
}

static char *
thread_key (const TksThread *thread)
{
  return g_strdup_printf ("t:%d:%d:%s", thread->number, thread->priority, thread->name);
}

/* Members in exit order; those whose exit is unknown (before the log) last, by number. */
static int
compare_members (gconstpointer a,
                 gconstpointer b)
{
  const Row *ra = *(const Row * const *) a;
  const Row *rb = *(const Row * const *) b;
  gboolean ka = !isnan (ra->exit_time), kb = !isnan (rb->exit_time);

  if (ka != kb)
    return ka ? -1 : 1;
  if (ka && ra->exit_time != rb->exit_time)
    return ra->exit_time < rb->exit_time ? -1 : 1;
  if (ra->pub.number != rb->pub.number)
    return ra->pub.number < rb->pub.number ? -1 : 1;
  return ra->pub.threads[0] < rb->pub.threads[0] ? -1 : ra->pub.threads[0] > rb->pub.threads[0];
}

char *
tks_lane_list_shown_name (const char *name)
{
  if (name == NULL || *name == '\0')
    /* Translators: a thread without a name */
    return g_strdup (_("(no name)"));
  return tks_i18n_escape (name);
}

/* What a board without a copy of an exited dynamic thread's name calls it (threads_list
 * always does): no name of the thread's own. */
#define NAME_OF_EXITED_DYNAMIC "Exited dynamic thread"

static gboolean
has_own_name (const char *name)
{
  return name != NULL && *name != '\0' && strcmp (name, NAME_OF_EXITED_DYNAMIC) != 0;
}

static void
label_row (TksLaneList *self,
           Row         *row)
{
  g_autofree char *name = tks_lane_list_shown_name (row->pub.name);

  g_free (row->label);
  switch (row->pub.kind)
    {
    case TKS_LANE_ROW_GROUP:
      /* Translators: a lane holding the exited threads of one name and priority: the
       * name, then how many threads ("×" is the multiplication sign) */
      row->label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s ×%u", "%s ×%u",
                                                 row->members->len),
                                    name, row->members->len);
      break;
    case TKS_LANE_ROW_MEMBER:
      if (!has_own_name (row->pub.name))
        {
          g_autofree char *number = g_strdup_printf ("#%d", row->pub.number);

          g_free (name);
          name = g_steal_pointer (&number);
        }
      else
        {
          /* Translators: a thread of a group of exited threads: its name and number */
          g_autofree char *named = g_strdup_printf (_("%s #%d"), name, row->pub.number);

          g_free (name);
          name = g_steal_pointer (&named);
        }
      if (!isnan (row->exit_time))
        /* Translators: a thread of a group of exited threads: its name and number ("#7"
         * alone when the board did not name it), then when it exited, in milliseconds */
        row->label = g_strdup_printf (_("%s, exited at %.1f ms"), name,
                                      (row->exit_time - self->origin) * 1000.0 / self->tick_hz);
      else
        /* Translators: a thread of a group of exited threads, whose exit is older than the
         * log: its name and number ("#7" alone when the board did not name it) */
        row->label = g_strdup_printf (_("%s, exited before the log"), name);
      break;
    case TKS_LANE_ROW_THREAD:
    default:
      row->label = g_steal_pointer (&name);
      break;
    }
  row->pub.label = row->label;
}

static void
apply_state (TksLaneList *self,
             Row         *row)
{
  guint bits = GPOINTER_TO_UINT (g_hash_table_lookup (self->state, row->key));

  row->pub.hidden = (bits & STATE_HIDDEN) != 0;
  row->pub.pinned = row->pub.kind != TKS_LANE_ROW_MEMBER && (bits & STATE_PINNED) != 0;
  row->pub.expanded = row->pub.kind == TKS_LANE_ROW_GROUP && (bits & STATE_EXPANDED) != 0;
}

static void
set_share (Row    *row,
           double  run_time,
           double  duration)
{
  row->pub.run_time = run_time;
  row->pub.share = duration > 0 ? run_time / duration * 100.0 : 0.0;
}

/* Each row's run time in the range, from the core's sums of each thread's runs. */
static void
compute_shares (TksLaneList *self)
{
  /* as the core's statistics: nothing is known after the log's end */
  double start = tks_capture_get_start (self->capture);
  double end = tks_capture_get_log_end (self->capture, NULL);
  double from = self->range_set ? MAX (self->from, start) : start;
  double to = self->range_set ? MIN (self->to, end) : end;
  double duration = to > from ? to - from : 0;

  for (guint i = 0; i < self->top->len; i++)
    {
      Row *row = g_ptr_array_index (self->top, i);
      double sum = 0;

      for (guint m = 0; m < row->threads->len; m++)
        {
          guint t = g_array_index (row->threads, guint, m);
          double busy = duration > 0
            ? tks_thread_busy (tks_capture_get_thread (self->capture, t), from, to) : 0;

          if (row->members != NULL)
            set_share (g_ptr_array_index (self->by_thread, t), busy, duration);
          sum += busy;
        }
      set_share (row, sum, duration);
    }
}

static gboolean
matches (TksLaneList *self,
         const Row   *row)
{
  return self->search == NULL || strstr (row->folded, self->search) != NULL;
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  TksLaneList *self = user_data;
  const Row *ra = *(const Row * const *) a;
  const Row *rb = *(const Row * const *) b;

  if (self->sort == TKS_LANE_SORT_LOAD)
    {
      /* the order taken when the sort was applied; rows new since then come last */
      guint ka = GPOINTER_TO_UINT (g_hash_table_lookup (self->load_rank, ra->key));
      guint kb = GPOINTER_TO_UINT (g_hash_table_lookup (self->load_rank, rb->key));

      if (ka != kb)
        return ka == 0 ? 1 : kb == 0 ? -1 : ka < kb ? -1 : 1;
    }
  if (self->sort == TKS_LANE_SORT_NAME)
    {
      int c = g_utf8_collate (ra->pub.name, rb->pub.name);

      if (c != 0)
        return c;
    }
  return ra->order < rb->order ? -1 : ra->order > rb->order;
}

/* The load order as it is now: the busiest row first (equal loads in the timeline's order). */
static int
compare_load (gconstpointer a,
              gconstpointer b)
{
  const Row *ra = *(const Row * const *) a;
  const Row *rb = *(const Row * const *) b;

  if (ra->pub.run_time != rb->pub.run_time)
    return ra->pub.run_time > rb->pub.run_time ? -1 : 1;
  return ra->order < rb->order ? -1 : ra->order > rb->order;
}

static void
take_load_order (TksLaneList *self)
{
  g_autoptr(GPtrArray) sorted = g_ptr_array_copy (self->top, NULL, NULL);

  g_ptr_array_set_free_func (sorted, NULL);
  g_ptr_array_sort (sorted, compare_load);
  g_hash_table_remove_all (self->load_rank);
  for (guint i = 0; i < sorted->len; i++)
    g_hash_table_insert (self->load_rank, g_strdup (((Row *) g_ptr_array_index (sorted, i))->key),
                         GUINT_TO_POINTER (i + 1));
}

/* What tells a board: the identities ("priority:name") of its threads. */
static GHashTable *
capture_identities (TksCapture *capture)
{
  GHashTable *set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint n = tks_capture_get_n_threads (capture);

  for (guint i = 0; i < n; i++)
    {
      const TksThread *th = tks_capture_get_thread (capture, i);

      g_hash_table_add (set, g_strdup_printf ("%d:%s", th->priority, th->name));
    }
  return set;
}

/* Two captures are of one board when at least half of their threads' identities are common
 * to both (a recording's threads come and go, another board's program has others). */
static gboolean
same_board (GHashTable *a,
            GHashTable *b)
{
  GHashTableIter iter;
  gpointer key;
  guint common = 0, n_union;

  g_hash_table_iter_init (&iter, a);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    common += g_hash_table_contains (b, key);
  n_union = g_hash_table_size (a) + g_hash_table_size (b) - common;
  return n_union == 0 || common * 2 >= n_union;
}

/* A capture of another board opens with its groups collapsed, in its own load order. */
static gboolean
forget_other_board (TksLaneList *self)
{
  g_autoptr(GHashTable) identities = capture_identities (self->capture);
  gboolean other = self->identities != NULL && !same_board (self->identities, identities);
  GHashTableIter iter;
  gpointer key, value;

  if (other)
    {
      g_hash_table_iter_init (&iter, self->state);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          guint bits = GPOINTER_TO_UINT (value) & ~STATE_EXPANDED;

          if (bits == 0)
            g_hash_table_iter_remove (&iter);
          else
            g_hash_table_iter_replace (&iter, GUINT_TO_POINTER (bits));
        }
    }
  g_clear_pointer (&self->identities, g_hash_table_unref);
  self->identities = g_steal_pointer (&identities);
  return other || g_hash_table_size (self->load_rank) == 0;
}

static void
add_lane (TksLaneList      *self,
          const guint      *threads,
          guint             n_threads,
          const TksLaneRow *row)
{
  TksLane lane = { threads, n_threads, row };

  g_array_append_val (self->lanes, lane);
}

/* The panel's rows and the timeline's lanes, after any change. */
static void
refresh (TksLaneList *self)
{
  g_autoptr(GPtrArray) sorted = g_ptr_array_copy (self->top, NULL, NULL);

  g_ptr_array_set_free_func (sorted, NULL); /* the copy does not own the rows */
  g_ptr_array_sort_with_data (sorted, compare_rows, self);
  g_ptr_array_set_size (self->rows, 0);
  g_array_set_size (self->lanes, 0);

  /* pinned rows first, then the others */
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < sorted->len; i++)
      {
        Row *row = g_ptr_array_index (sorted, i);

        if (row->pub.pinned != (pass == 0))
          continue;

        if (matches (self, row))
          {
            g_ptr_array_add (self->rows, row);
            if (row->pub.expanded)
              for (guint m = 0; m < row->members->len; m++)
                if (matches (self, g_ptr_array_index (row->members, m)))
                  g_ptr_array_add (self->rows, g_ptr_array_index (row->members, m));
          }

        if (row->pub.hidden)
          continue;
        if (row->members == NULL)
          {
            add_lane (self, row->pub.threads, row->pub.n_threads, &row->pub);
            continue;
          }
        g_array_set_size (row->shown, 0);
        for (guint m = 0; m < row->members->len; m++)
          {
            Row *member = g_ptr_array_index (row->members, m);

            if (!member->pub.hidden)
              g_array_append_val (row->shown, member->pub.threads[0]);
          }
        if (row->shown->len == 0)
          continue;
        if (!row->pub.expanded)
          {
            add_lane (self, (const guint *) (gpointer) row->shown->data, row->shown->len,
                      &row->pub);
            continue;
          }
        for (guint m = 0; m < row->members->len; m++)
          {
            Row *member = g_ptr_array_index (row->members, m);

            if (!member->pub.hidden)
              add_lane (self, member->pub.threads, 1, &member->pub);
          }
      }
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
build (TksLaneList *self,
       gboolean     with_exited_before_log)
{
  g_autoptr(GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) groups = g_hash_table_new (g_str_hash, g_str_equal);
  const guint *lanes;
  guint n_lanes;
  gboolean new_order = forget_other_board (self);

  g_ptr_array_set_size (self->rows, 0);
  g_array_set_size (self->lanes, 0);
  g_ptr_array_set_size (self->top, 0);
  g_ptr_array_set_size (self->by_thread, 0);
  g_ptr_array_set_size (self->by_thread, tks_capture_get_n_threads (self->capture));

  lanes = tks_capture_get_shown_lanes (self->capture, with_exited_before_log, &n_lanes);
  for (guint i = 0; i < n_lanes; i++)
    {
      const TksThread *th = tks_capture_get_thread (self->capture, lanes[i]);

      if (is_groupable (th))
        {
          char *key = group_key (th);
          guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, key));

          g_hash_table_replace (counts, key, GUINT_TO_POINTER (n + 1));
        }
    }

  for (guint i = 0; i < n_lanes; i++)
    {
      const TksThread *th = tks_capture_get_thread (self->capture, lanes[i]);
      g_autofree char *gkey = is_groupable (th) ? group_key (th) : NULL;
      Row *row;

      if (gkey != NULL && GPOINTER_TO_UINT (g_hash_table_lookup (counts, gkey)) >= 2)
        {
          Row *group = g_hash_table_lookup (groups, gkey);

          if (group == NULL)
            {
              group = row_new (TKS_LANE_ROW_GROUP, g_strdup (gkey), th);
              group->order = i;
              g_ptr_array_add (self->top, group);
              g_hash_table_insert (groups, group->key, group);
            }
          row = row_new (TKS_LANE_ROW_MEMBER, thread_key (th), th);
          row->order = i;
          row->pub.group = &group->pub;
          g_ptr_array_add (group->members, row);
        }
      else
        {
          row = row_new (TKS_LANE_ROW_THREAD, thread_key (th), th);
          row->order = i;
          g_ptr_array_add (self->top, row);
        }
      g_ptr_array_index (self->by_thread, th->index) = row;
    }

  for (guint i = 0; i < self->top->len; i++)
    {
      Row *row = g_ptr_array_index (self->top, i);

      if (row->members != NULL)
        {
          g_ptr_array_sort (row->members, compare_members);
          for (guint m = 0; m < row->members->len; m++)
            {
              Row *member = g_ptr_array_index (row->members, m);

              g_array_append_val (row->threads, member->pub.threads[0]);
              label_row (self, member);
              apply_state (self, member);
            }
          row->pub.threads = (const guint *) (gpointer) row->threads->data;
          row->pub.n_threads = row->threads->len;
        }
      label_row (self, row);
      apply_state (self, row);
    }
  compute_shares (self);
  if (new_order)
    take_load_order (self);
  refresh (self);
}

static void
tks_lane_list_finalize (GObject *object)
{
  TksLaneList *self = TKS_LANE_LIST (object);

  g_clear_object (&self->capture);
  g_free (self->search);
  g_hash_table_unref (self->load_rank);
  g_clear_pointer (&self->identities, g_hash_table_unref);
  g_ptr_array_unref (self->rows);
  g_array_unref (self->lanes);
  g_ptr_array_unref (self->by_thread);
  g_ptr_array_unref (self->top);
  g_hash_table_unref (self->state);

  G_OBJECT_CLASS (tks_lane_list_parent_class)->finalize (object);
}

static void
tks_lane_list_class_init (TksLaneListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tks_lane_list_finalize;

  /**
   * TksLaneList::changed:
   *
   * The rows or the lanes changed: the rows' pointers from before are no longer valid.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tks_lane_list_init (TksLaneList *self)
{
  self->tick_hz = TKS_TICK_HZ_DEFAULT;
  self->sort = TKS_LANE_SORT_PRIORITY;
  self->top = g_ptr_array_new_with_free_func (row_free);
  self->by_thread = g_ptr_array_new ();
  self->state = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->load_rank = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->rows = g_ptr_array_new ();
  self->lanes = g_array_new (FALSE, FALSE, sizeof (TksLane));
}

TksLaneList *
tks_lane_list_new (TksCapture *capture,
                   gboolean    with_exited_before_log,
                   double      tick_hz)
{
  TksLaneList *self;

  g_return_val_if_fail (TKS_IS_CAPTURE (capture), NULL);

  self = g_object_new (TKS_TYPE_LANE_LIST, NULL);
  if (tks_tick_hz_is_sane (tick_hz))
    self->tick_hz = tick_hz;
  tks_lane_list_set_capture (self, capture, with_exited_before_log);
  return self;
}

void
tks_lane_list_set_capture (TksLaneList *self,
                           TksCapture  *capture,
                           gboolean     with_exited_before_log)
{
  g_return_if_fail (TKS_IS_LANE_LIST (self));
  g_return_if_fail (TKS_IS_CAPTURE (capture));

  g_set_object (&self->capture, capture);
  build (self, with_exited_before_log);
}

TksCapture *
tks_lane_list_get_capture (TksLaneList *self)
{
  g_return_val_if_fail (TKS_IS_LANE_LIST (self), NULL);
  return self->capture;
}

/* The members' labels say when they exited: after a change of the tick rate or the origin. */
static void
relabel_members (TksLaneList *self)
{
  for (guint i = 0; i < self->top->len; i++)
    {
      Row *row = g_ptr_array_index (self->top, i);

      if (row->members != NULL)
        for (guint m = 0; m < row->members->len; m++)
          label_row (self, g_ptr_array_index (row->members, m));
    }
  g_signal_emit (self, signals[CHANGED], 0);
}

void
tks_lane_list_set_tick_hz (TksLaneList *self,
                           double       tick_hz)
{
  g_return_if_fail (TKS_IS_LANE_LIST (self));
  g_return_if_fail (tks_tick_hz_is_sane (tick_hz));

  if (tick_hz == self->tick_hz)
    return;
  self->tick_hz = tick_hz;
  relabel_members (self);
}

void
tks_lane_list_set_time_origin (TksLaneList *self,
                               double       origin)
{
  g_return_if_fail (TKS_IS_LANE_LIST (self));
  g_return_if_fail (isfinite (origin));

  if (origin == self->origin)
    return;
  self->origin = origin;
  relabel_members (self);
}

void
tks_lane_list_set_range (TksLaneList *self,
                         double       from,
                         double       to)
{
  g_return_if_fail (TKS_IS_LANE_LIST (self));

  self->range_set = TRUE;
  self->from = MIN (from, to);
  self->to = MAX (from, to);
  compute_shares (self);
  refresh (self);
}

void
tks_lane_list_set_sort (TksLaneList *self,
                        TksLaneSort  sort)
{
  g_return_if_fail (TKS_IS_LANE_LIST (self));
  g_return_if_fail (sort <= TKS_LANE_SORT_NAME);

  self->sort = sort;
  if (sort == TKS_LANE_SORT_LOAD)
    take_load_order (self);
  refresh (self);
}

void
tks_lane_list_sort_again (TksLaneList *self)
{
  g_return_if_fail (TKS_IS_LANE_LIST (self));

  take_load_order (self);
  refresh (self);
}

TksLaneSort
tks_lane_list_get_sort (TksLaneList *self)
{
  g_return_val_if_fail (TKS_IS_LANE_LIST (self), TKS_LANE_SORT_PRIORITY);
  return self->sort;
}

void
tks_lane_list_set_search (TksLaneList *self,
                          const char  *text)
{
  g_return_if_fail (TKS_IS_LANE_LIST (self));

  g_clear_pointer (&self->search, g_free);
  if (text != NULL && *text != '\0')
    self->search = g_utf8_casefold (text, -1);
  refresh (self);
}

static Row *
find_row (TksLaneList *self,
          const char  *key)
{
  for (guint i = 0; i < self->top->len; i++)
    {
      Row *row = g_ptr_array_index (self->top, i);

      if (g_str_equal (row->key, key))
        return row;
      if (row->members != NULL)
        for (guint m = 0; m < row->members->len; m++)
          {
            Row *member = g_ptr_array_index (row->members, m);

            if (g_str_equal (member->key, key))
              return member;
          }
    }
  return NULL;
}

const TksLaneRow *
tks_lane_list_find_row (TksLaneList *self,
                        const char  *key)
{
  Row *row;

  g_return_val_if_fail (TKS_IS_LANE_LIST (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  row = find_row (self, key);
  return row != NULL ? &row->pub : NULL;
}

const TksLaneRow *
tks_lane_list_find_thread (TksLaneList *self,
                           guint        thread)
{
  g_return_val_if_fail (TKS_IS_LANE_LIST (self), NULL);

  if (thread >= self->by_thread->len)
    return NULL;
  return g_ptr_array_index (self->by_thread, thread);
}

/* Records @bit for @key (kept for a rebuild) and applies it to its row. */
static gboolean
set_state (TksLaneList *self,
           const char  *key,
           guint        bit,
           gboolean     on)
{
  Row *row;
  guint bits;

  g_return_val_if_fail (TKS_IS_LANE_LIST (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  row = find_row (self, key);
  if (row == NULL)
    return FALSE;
  if (bit == STATE_PINNED && row->pub.kind == TKS_LANE_ROW_MEMBER)
    return FALSE;
  if (bit == STATE_EXPANDED && row->pub.kind != TKS_LANE_ROW_GROUP)
    return FALSE;

  bits = GPOINTER_TO_UINT (g_hash_table_lookup (self->state, key));
  bits = on ? bits | bit : bits & ~bit;
  if (bits != 0)
    g_hash_table_replace (self->state, g_strdup (key), GUINT_TO_POINTER (bits));
  else
    g_hash_table_remove (self->state, key);
  apply_state (self, row);
  refresh (self);
  return TRUE;
}

gboolean
tks_lane_list_set_hidden (TksLaneList *self,
                          const char  *key,
                          gboolean     hidden)
{
  return set_state (self, key, STATE_HIDDEN, hidden);
}

gboolean
tks_lane_list_set_pinned (TksLaneList *self,
                          const char  *key,
                          gboolean     pinned)
{
  return set_state (self, key, STATE_PINNED, pinned);
}

gboolean
tks_lane_list_set_expanded (TksLaneList *self,
                            const char  *key,
                            gboolean     expanded)
{
  return set_state (self, key, STATE_EXPANDED, expanded);
}

const TksLaneRow *const *
tks_lane_list_get_rows (TksLaneList *self,
                        guint       *n_rows)
{
  g_return_val_if_fail (TKS_IS_LANE_LIST (self), NULL);

  if (n_rows != NULL)
    *n_rows = self->rows->len;
  return (const TksLaneRow *const *) self->rows->pdata;
}

const TksLane *
tks_lane_list_get_lanes (TksLaneList *self,
                         guint       *n_lanes)
{
  g_return_val_if_fail (TKS_IS_LANE_LIST (self), NULL);

  if (n_lanes != NULL)
    *n_lanes = self->lanes->len;
  return (const TksLane *) (gpointer) self->lanes->data;
}
