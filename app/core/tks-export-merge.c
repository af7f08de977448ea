/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tks-export-private.h"

/*
 * Formats that list every row's records on one time axis (Paraver, VCD) take them from the
 * rows' own sequences: each row makes its records a step at a time (a run and what follows
 * it, a handler's slice), and a heap keyed by each row's earliest record hands them out in
 * time order. A row keeps only its current step's records, so memory does not grow with the
 * capture.
 */

typedef struct
{
  GArray *pending;   /* TksExportRecord, sorted by time then order, from head on */
  guint   head;
  gint64  next;      /* the earliest record of the row's next step; G_MAXINT64: none */
} MergeRow;

struct _TksExportMerge
{
  MergeRow         *rows;
  guint             n_rows;
  guint            *heap;    /* rows with a record, by their earliest */
  guint             n_heap;
  TksExportRowStep  step;
  gpointer          user_data;
};

static int
record_compare (gconstpointer a,
                gconstpointer b)
{
  const TksExportRecord *ra = a;
  const TksExportRecord *rb = b;

  if (ra->time != rb->time)
    return ra->time < rb->time ? -1 : 1;
  if (ra->order != rb->order)
    return ra->order < rb->order ? -1 : 1;
  return 0;
}

/* Steps @row until its earliest pending record comes before anything a later step makes.
 * FALSE when the row has nothing left. */
static gboolean
row_prepare (TksExportMerge *self,
             guint           index)
{
  MergeRow *row = &self->rows[index];

  while (row->next != G_MAXINT64 &&
         (row->head >= row->pending->len ||
          g_array_index (row->pending, TksExportRecord, row->head).time >= row->next))
    {
      if (row->head > 0)
        {
          g_array_remove_range (row->pending, 0, row->head);
          row->head = 0;
        }
      row->next = self->step (self->user_data, index, row->pending);
      if (row->pending->len > 1)
        g_array_sort (row->pending, record_compare);
    }
  return row->head < row->pending->len;
}

static gboolean
heap_less (TksExportMerge *self,
           guint           a,
           guint           b)
{
  MergeRow *ra = &self->rows[a];
  MergeRow *rb = &self->rows[b];
  int c = record_compare (&g_array_index (ra->pending, TksExportRecord, ra->head),
                          &g_array_index (rb->pending, TksExportRecord, rb->head));

  return c != 0 ? c < 0 : a < b;
}

static void
heap_sift_down (TksExportMerge *self,
                guint           i)
{
  for (;;)
    {
      guint least = i, l = 2 * i + 1, r = 2 * i + 2, swap;

      if (l < self->n_heap && heap_less (self, self->heap[l], self->heap[least]))
        least = l;
      if (r < self->n_heap && heap_less (self, self->heap[r], self->heap[least]))
        least = r;
      if (least == i)
        return;
      swap = self->heap[i];
      self->heap[i] = self->heap[least];
      self->heap[least] = swap;
      i = least;
    }
}

/**
 * tks_export_merge_new:
 * @n_rows: how many rows
 * @step: makes a row's next step
 * @user_data: for @step
 *
 * Returns: (transfer full): a merge of the rows' records, in time order
 */
TksExportMerge *
tks_export_merge_new (guint            n_rows,
                      TksExportRowStep step,
                      gpointer         user_data)
{
  TksExportMerge *self = g_new0 (TksExportMerge, 1);

  self->rows = g_new0 (MergeRow, MAX (n_rows, 1));
  self->heap = g_new0 (guint, MAX (n_rows, 1));
  self->n_rows = n_rows;
  self->step = step;
  self->user_data = user_data;
  for (guint i = 0; i < n_rows; i++)
    {
      self->rows[i].pending = g_array_new (FALSE, FALSE, sizeof (TksExportRecord));
      self->rows[i].next = G_MININT64;
      if (row_prepare (self, i))
        self->heap[self->n_heap++] = i;
    }
  for (guint i = self->n_heap / 2; i-- > 0;)
    heap_sift_down (self, i);
  return self;
}

/* The next record of all rows, in time order (ties: by order, then by row). FALSE at the
 * end. */
gboolean
tks_export_merge_next (TksExportMerge  *self,
                       TksExportRecord *record)
{
  guint index;
  MergeRow *row;

  if (self->n_heap == 0)
    return FALSE;
  index = self->heap[0];
  row = &self->rows[index];
  *record = g_array_index (row->pending, TksExportRecord, row->head);
  record->row = index;
  row->head++;
  if (!row_prepare (self, index))
    self->heap[0] = self->heap[--self->n_heap];
  heap_sift_down (self, 0);
  return TRUE;
}

void
tks_export_merge_free (TksExportMerge *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_rows; i++)
    g_array_unref (self->rows[i].pending);
  g_free (self->rows);
  g_free (self->heap);
  g_free (self);
}
