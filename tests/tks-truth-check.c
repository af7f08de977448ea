/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The truth checker: see tks-truth-check.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tks-truth-check.h"
#include "tks-legacy-viewer.h"

Truth *
truth_new (void)
{
  Truth *truth = g_new0 (Truth, 1);

  truth->threads = g_array_new (FALSE, TRUE, sizeof (TruthThread));
  truth->runs = g_array_new (FALSE, FALSE, sizeof (TruthRun));
  return truth;
}

void
truth_free (Truth *truth)
{
  g_array_unref (truth->threads);
  g_array_unref (truth->runs);
  g_free (truth);
}

/* A TksTruthFunc. */
void
truth_collect (const TksTruthEvent *ev, gpointer data)
{
  Truth *truth = data;
  TruthThread *t;

  if (ev->kind != TKS_TRUTH_CREATE && ev->kind != TKS_TRUTH_RUN && ev->kind != TKS_TRUTH_EXIT
      && ev->kind != TKS_TRUTH_RUNNING)
    return;
  if (ev->kind == TKS_TRUTH_CREATE)
    {
      TruthThread nt = { ev->name, ev->priority, ev->logged, ev->dynamic,
                         truth->live_numbered < TRUTH_MAX_NUMBERED, FALSE };

      g_assert_cmpuint (ev->thread, ==, truth->threads->len);
      truth->live_numbered += nt.numbered;
      g_array_append_val (truth->threads, nt);
      return;
    }
  t = &g_array_index (truth->threads, TruthThread, ev->thread);
  if (ev->kind == TKS_TRUTH_EXIT)
    {
      truth->live_numbered -= t->numbered;
      t->exited = TRUE;
      truth->n_exits++;
      truth->last_exit_tick = (guint64) ev->begin;
    }
  else if (ev->kind == TKS_TRUTH_RUN && t->logged && t->numbered)
    {
      TruthRun run = { ev->thread, ev->begin, ev->end, ev->begin_seq, ev->end_seq, FALSE };

      g_array_append_val (truth->runs, run);
    }
}

/* Forgets the runs that ended before tick @tick (they are older than any log to come). */
void
truth_forget_before (Truth *truth, double tick)
{
  guint keep = 0;

  for (guint i = 0; i < truth->runs->len; i++)
    if (g_array_index (truth->runs, TruthRun, i).end >= tick)
      g_array_index (truth->runs, TruthRun, keep++) = g_array_index (truth->runs, TruthRun, i);
  g_array_set_size (truth->runs, keep);
}

/* The lines of @text (ends "\n" or "\r\n" removed), in a NULL-terminated array: g_strsplit
 * without its strstr (see below). A last line without an end is left out when @whole_only. */
GStrv
truth_lines (const char *text, gboolean whole_only)
{
  GPtrArray *lines = g_ptr_array_new ();

  for (const char *p = text; *p != '\0';)
    {
      gsize n = 0;

      while (p[n] != '\0' && p[n] != '\n')
        n++;
      if (p[n] == '\n' || !whole_only)
        g_ptr_array_add (lines, g_strndup (p, n > 0 && p[n - 1] == '\r' ? n - 1 : n));
      p += n;
      if (*p == '\n')
        p++;
    }
  g_ptr_array_add (lines, NULL);
  return (GStrv) g_ptr_array_free (lines, FALSE);
}

/* The "From %d to %d at %d" records of @text, in order. Line by line with plain loops (a
 * sanitizer's strstr and sscanf check the whole rest of the text at every call, which makes
 * g_strsplit and sscanf on long replies quadratic). */
GArray *
truth_records (const char *text)
{
  GArray *records = g_array_new (FALSE, FALSE, sizeof (TruthRecord));

  for (const char *p = text; *p != '\0';)
    {
      char line[96];
      gsize n = 0;
      TruthRecord rec;

      while (p[n] != '\0' && p[n] != '\n')
        n++;
      if (n < sizeof line && n >= 5 && memcmp (p, "From ", 5) == 0)
        {
          memcpy (line, p, n);
          line[n] = '\0';
          if (sscanf (line, "From %d to %d at %d", &rec.out, &rec.in, &rec.tick) == 3)
            g_array_append_val (records, rec);
        }
      p += n;
      if (*p == '\n')
        p++;
    }
  return records;
}

guint
truth_count_exits (const char *text)
{
  g_autoptr(GArray) records = truth_records (text);
  guint exits = 0;

  for (guint i = 0; i < records->len; i++)
    exits += g_array_index (records, TruthRecord, i).out == g_array_index (records, TruthRecord, i).in;
  return exits;
}

/* The log's window in the board's ticks: @reply is a threads_timestamps or threads_dump
 * reply read when the board was at tick @now, its ticks wrapping every @period. FALSE when the
 * log holds no switch. */
gboolean
truth_log_window (const char *reply, guint64 now, gint64 period, gint64 *first, gint64 *last,
                  guint32 *first_raw)
{
  g_autoptr(GArray) records = truth_records (reply);
  gint64 u = -1, prev = -1, epoch = 0, first_u = -1, last_switch = -1;

  for (guint i = 0; i < records->len; i++)
    {
      const TruthRecord *rec = &g_array_index (records, TruthRecord, i);

      if (prev >= 0 && rec->tick < prev)
        epoch++;
      prev = rec->tick;
      u = epoch * period + rec->tick;
      if (first_u < 0)
        {
          first_u = u;
          *first_raw = (guint32) rec->tick;
        }
      if (rec->out != rec->in)
        last_switch = u;
    }
  if (last_switch < 0)
    return FALSE;
  {
    /* The last record is the latest of the ticks with its low bits up to now. */
    gint64 now_low = (gint64) now % period;
    gint64 last_low = u % period;
    gint64 last_abs = (gint64) now - now_low + last_low - (last_low > now_low ? period : 0);
    gint64 offset = last_abs - u;

    *first = first_u + offset;
    *last = last_switch + offset;
  }
  return TRUE;
}

static int
read_run_compare (gconstpointer a, gconstpointer b)
{
  const ReadRun *x = a, *y = b;

  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/* The runs of @capture; @first is the board's tick of its first record. */
GArray *
read_runs_of_capture (TksCapture *capture, gint64 first)
{
  GArray *runs = g_array_new (FALSE, FALSE, sizeof (ReadRun));
  double start = tks_capture_get_start (capture);
  gint64 offset = first - (gint64) floor (start);

  for (guint t = 0; t < tks_capture_get_n_threads (capture); t++)
    {
      const TksThread *th = tks_capture_get_thread (capture, t);

      if (!(th->flags & TKS_THREAD_LOGGED))
        continue;
      for (guint r = 0; r < th->n_runs; r++)
        {
          ReadRun run = {
            t, th->name, th->priority, th->runs[r].begin + offset, th->runs[r].end + offset,
            (gint64) floor (th->runs[r].begin) + offset, (gint64) floor (th->runs[r].end) + offset,
            r == 0 && (th->flags & TKS_THREAD_RUNNING_AT_START) != 0,
            r + 1 == th->n_runs && (th->flags & TKS_THREAD_RUNNING_AT_END) != 0,
          };

          g_array_append_val (runs, run);
        }
    }
  g_array_sort (runs, read_run_compare);
  return runs;
}

/* The runs the original viewer draws; @first_raw is the tick its first record prints. */
GArray *
read_runs_of_legacy (GPtrArray *threads, gint64 first, guint32 first_raw)
{
  GArray *runs = g_array_new (FALSE, FALSE, sizeof (ReadRun));
  gint64 offset = first - first_raw;

  for (guint t = 0; t < threads->len; t++)
    {
      const LegacyThread *th = g_ptr_array_index (threads, t);

      for (guint r = 0; r < th->runs->len; r++)
        {
          const LegacyRun *lr = &g_array_index (th->runs, LegacyRun, r);
          ReadRun run = {
            t, th->name, th->priority, lr->begin + offset, lr->end_tick + offset,
            lr->begin_tick + offset, lr->end_tick + offset, FALSE, FALSE,
          };

          g_array_append_val (runs, run);
        }
    }
  g_array_sort (runs, read_run_compare);
  return runs;
}

/* The holes a threads_dump reply places in its log (its "Paused:" lines), in board ticks (the
 * line's full ticks, for boards younger than 2^32 ticks). */
GArray *
truth_holes (const char *dump)
{
  GArray *holes = g_array_new (FALSE, FALSE, sizeof (TruthHole));
  g_auto(GStrv) lines = truth_lines (dump, FALSE);

  for (guint i = 0; lines[i] != NULL && strcmp (lines[i], "Threads:") != 0; i++)
    {
      unsigned long seq, begin, end, dropped;

      if (sscanf (lines[i], "Paused: before record %lu, ticks %lu to %lu, %lu switches dropped",
                  &seq, &begin, &end, &dropped) == 4)
        {
          TruthHole hole = { (gint64) begin, (gint64) end };

          g_array_append_val (holes, hole);
        }
    }
  return holes;
}

/* Inside a hole nothing is claimed: the truth's runs (and the one going on at the read,
 * @running) without what lies in the holes' ticks. A run that lies there wholly goes, one
 * that crosses a hole ends at its first tick and goes on from its last. The order of the
 * events at the cuts is not compared. */
Truth *
truth_cut_holes (const Truth *truth, GArray *holes, TksTruthEvent *running)
{
  Truth *cut = truth_new ();

  g_array_append_vals (cut->threads, truth->threads->data, truth->threads->len);
  cut->live_numbered = truth->live_numbered;
  cut->n_exits = truth->n_exits;
  cut->last_exit_tick = truth->last_exit_tick;
  for (guint r = 0; r < truth->runs->len; r++)
    {
      TruthRun run = g_array_index (truth->runs, TruthRun, r);
      gboolean keep = TRUE;

      for (guint h = 0; h < holes->len && keep; h++)
        {
          const TruthHole *hole = &g_array_index (holes, TruthHole, h);
          gint64 b = (gint64) floor (run.begin), e = (gint64) floor (run.end);

          if (e < hole->begin || b > hole->end)
            continue;
          if (b >= hole->begin && e <= hole->end)
            keep = FALSE;
          else if (b < hole->begin && e > hole->end)
            {
              TruthRun before = run;

              before.end = (double) hole->begin;
              before.cut_end = TRUE;
              g_array_append_val (cut->runs, before);
              run.begin = (double) hole->end;
              run.cut_begin = TRUE;
            }
          else if (b < hole->begin)
            {
              run.end = (double) hole->begin;
              run.cut_end = TRUE;
            }
          else
            {
              run.begin = (double) hole->end;
              run.cut_begin = TRUE;
            }
        }
      if (keep)
        g_array_append_val (cut->runs, run);
    }
  for (guint h = 0; h < holes->len; h++)
    {
      const TruthHole *hole = &g_array_index (holes, TruthHole, h);

      if ((gint64) floor (running->begin) >= hole->begin &&
          (gint64) floor (running->begin) <= hole->end)
        running->begin = (double) hole->end;
    }
  return cut;
}

/* A reading's runs without those that lie wholly in the ticks of a hole. */
void
truth_cut_read (GArray *read, GArray *holes)
{
  guint keep = 0;

  for (guint j = 0; j < read->len; j++)
    {
      const ReadRun *r = &g_array_index (read, ReadRun, j);
      gboolean inside = FALSE;

      for (guint h = 0; h < holes->len && !inside; h++)
        {
          const TruthHole *hole = &g_array_index (holes, TruthHole, h);

          inside = !r->open_start && !r->open_end && r->begin_tick >= hole->begin &&
                   r->end_tick <= hole->end;
        }
      if (!inside)
        g_array_index (read, ReadRun, keep++) = *r;
    }
  g_array_set_size (read, keep);
}

void
truth_score_clear (TruthScore *score)
{
  gboolean names_kept = score->names_kept;

  if (score->errors != NULL)
    g_string_free (score->errors, TRUE);
  memset (score, 0, sizeof *score);
  score->names_kept = names_kept;
}

static void
truth_score_note (TruthScore *score, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
truth_score_note (TruthScore *score, const char *format, ...)
{
  va_list args;

  if (score->errors == NULL)
    score->errors = g_string_new (NULL);
  if (score->errors->len > 2000)
    return;
  va_start (args, format);
  g_string_append_vprintf (score->errors, format, args);
  va_end (args);
  g_string_append_c (score->errors, '\n');
}

static void
truth_score_spurious (TruthScore *score, const ReadRun *r)
{
  score->spurious++;
  truth_score_note (score, "run %.3f..%.3f drawn on %s has no such run in the truth",
                    r->begin, r->end, r->name);
}

static gint64
truth_tick (double t)
{
  return (gint64) floor (t);
}

static gboolean
truth_same_thread (const TruthThread *tt, const ReadRun *r, gboolean names_kept)
{
  if (r->priority != tt->priority)
    return FALSE;
  if (g_strcmp0 (r->name, tt->name) == 0)
    return TRUE;
  return !names_kept && tt->dynamic && tt->exited
         && g_strcmp0 (r->name, "Exited dynamic thread") == 0;
}

typedef struct
{
  guint64 seq;
  double  pos;
} TruthOrder;

/* Whether @r is drawn from the tick @t begins in to the tick it ends in. */
static gboolean
truth_ticks_match (const TruthRun *t, const ReadRun *r, gint64 first, gint64 last)
{
  gint64 te = truth_tick (t->end);
  gboolean begin_ok = r->open_start ? truth_tick (t->begin) <= first
                                    : r->begin_tick == truth_tick (t->begin);
  gboolean end_ok = r->open_end ? t->open || te >= last : !t->open && r->end_tick == te;

  return begin_ok && end_ok;
}

/* Whether @r's thread is @t's: name, priority, and one thread of the reading for one of the
 * truth's (the maps hold the pairs found so far). */
static gboolean
truth_identity_ok (const Truth *truth, const TruthRun *t, const ReadRun *r,
                   GHashTable *to_truth, GHashTable *to_read, gboolean names_kept)
{
  gpointer rk = GUINT_TO_POINTER (r->thread + 1), tk = GUINT_TO_POINTER (t->thread + 1);
  gpointer mapped = g_hash_table_lookup (to_truth, rk);
  gpointer back = g_hash_table_lookup (to_read, tk);

  return truth_same_thread (&g_array_index (truth->threads, TruthThread, t->thread), r,
                            names_kept)
         && (mapped == NULL || mapped == tk) && (back == NULL || back == rk);
}

static int
truth_order_compare (gconstpointer a, gconstpointer b)
{
  const TruthOrder *x = a, *y = b;

  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Scores the reading @read against @truth in the window [@first, @last] (board ticks);
 * @running is the run going on when the log was read. */
void
truth_score (const Truth *truth, const TksTruthEvent *running, GArray *read, gint64 first,
             gint64 last, TruthScore *score)
{
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (TruthRun));
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (TruthOrder));
  g_autoptr(GHashTable) to_truth = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(GHashTable) to_read = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint i = 0, j = 0;

  for (guint r = 0; r <= truth->runs->len; r++)
    {
      TruthRun run;
      const TruthThread *tt;

      if (r < truth->runs->len)
        run = g_array_index (truth->runs, TruthRun, r);
      else if (truth->runs->len > 0 && g_array_index (truth->runs, TruthRun, truth->runs->len - 1).begin_seq
                                       >= running->begin_seq)
        continue;   /* the run going on at the read has ended since: it is in the truth */
      else
        run = (TruthRun) { running->thread, running->begin, running->end, running->begin_seq,
                           running->end_seq, TRUE };
      tt = &g_array_index (truth->threads, TruthThread, run.thread);
      if (!tt->logged || !tt->numbered)
        continue;
      if (truth_tick (run.end) < first || truth_tick (run.begin) > last)
        continue;
      if (truth_tick (run.end) == first)
        {
          /* Wholly in the first tick, of which the log may hold only the last events. */
          score->edge_missing++;
          score->truth_runs++;
          continue;
        }
      g_array_append_val (expected, run);
    }
  /* In the order they began. */
  for (guint a = 1; a < expected->len; a++)
    for (guint b = a; b > 0 && g_array_index (expected, TruthRun, b - 1).begin_seq >
                               g_array_index (expected, TruthRun, b).begin_seq; b--)
      {
        TruthRun tmp = g_array_index (expected, TruthRun, b);

        g_array_index (expected, TruthRun, b) = g_array_index (expected, TruthRun, b - 1);
        g_array_index (expected, TruthRun, b - 1) = tmp;
      }

  score->truth_runs += expected->len;
  while (i < expected->len || j < read->len)
    {
      const TruthRun *t = i < expected->len ? &g_array_index (expected, TruthRun, i) : NULL;
      const ReadRun *r = j < read->len ? &g_array_index (read, ReadRun, j) : NULL;
      const ReadRun *r_next = j + 1 < read->len ? &g_array_index (read, ReadRun, j + 1) : NULL;
      gint64 tb = t != NULL ? MAX (truth_tick (t->begin), first) : G_MAXINT64;
      gint64 te = t != NULL ? (t->open ? G_MAXINT64 : truth_tick (t->end)) : 0;
      gint64 rb = r != NULL ? (r->open_start ? first : r->begin_tick) : G_MAXINT64;
      gint64 re = r != NULL ? (r->open_end ? G_MAXINT64 : r->end_tick) : 0;
      /* Wholly in a tick the log may hold only part of. */
      gboolean at_edge = t != NULL && truth_tick (t->begin) >= last;

      if (r != NULL && !r->open_end && r->end_tick <= first)
        {
          /* Likewise: what the log shows of its first tick alone is not compared. */
          j++;
          continue;
        }
      if (t != NULL && r != NULL && truth_ticks_match (t, r, first, last))
        {
          const TruthThread *tt = &g_array_index (truth->threads, TruthThread, t->thread);

          if (truth_identity_ok (truth, t, r, to_truth, to_read, score->names_kept))
            {
              TruthOrder ob = { t->begin_seq, r->begin }, oe = { t->end_seq, r->end };

              g_hash_table_insert (to_truth, GUINT_TO_POINTER (r->thread + 1),
                                   GUINT_TO_POINTER (t->thread + 1));
              g_hash_table_insert (to_read, GUINT_TO_POINTER (t->thread + 1),
                                   GUINT_TO_POINTER (r->thread + 1));
              score->right++;
              if (!r->open_start && !t->cut_begin)
                g_array_append_val (order, ob);
              if (!r->open_end && !t->cut_end)
                g_array_append_val (order, oe);
              i++;
              j++;
            }
          else if (at_edge)
            {
              score->edge_missing++;
              i++;
            }
          else if (r_next != NULL && truth_ticks_match (t, r_next, first, last)
                   && truth_identity_ok (truth, t, r_next, to_truth, to_read,
                                         score->names_kept))
            {
              truth_score_spurious (score, r);
              j++;
            }
          else
            {
              score->wrong_thread++;
              score->wrong_named += strstr (r->name, "(not in list)") == NULL;
              truth_score_note (score, "run %.3f..%.3f of %s (prio %d, created #%u) is "
                                "drawn on %s (prio %d, #%u)", t->begin, t->end, tt->name,
                                tt->priority, t->thread, r->name, r->priority, r->thread);
              i++;
              j++;
            }
          continue;
        }
      if (at_edge && tb <= rb)
        {
          score->edge_missing++;
          i++;
        }
      else if (r != NULL && (t == NULL || rb < tb || (rb == tb && re < te)))
        {
          truth_score_spurious (score, r);
          j++;
        }
      else
        {
          score->wrong_ticks++;
          truth_score_note (score, "run %.3f..%.3f of %s (created #%u) is not drawn as such",
                            t->begin, t->end,
                            g_array_index (truth->threads, TruthThread, t->thread).name, t->thread);
          i++;
        }
    }

  /* The reading's creation order is the truth's. */
  {
    GHashTableIter iter;
    gpointer rk, tk;
    g_autoptr(GArray) pairs = g_array_new (FALSE, FALSE, sizeof (TruthOrder));

    g_hash_table_iter_init (&iter, to_truth);
    while (g_hash_table_iter_next (&iter, &rk, &tk))
      {
        TruthOrder o = { GPOINTER_TO_UINT (rk), GPOINTER_TO_UINT (tk) };

        g_array_append_val (pairs, o);
      }
    g_array_sort (pairs, truth_order_compare);
    for (guint p = 1; p < pairs->len; p++)
      if (g_array_index (pairs, TruthOrder, p).pos < g_array_index (pairs, TruthOrder, p - 1).pos)
        {
          score->order_errors++;
          truth_score_note (score, "threads #%u and #%u of the reading are in the wrong "
                            "creation order", (guint) g_array_index (pairs, TruthOrder, p - 1).seq - 1,
                            (guint) g_array_index (pairs, TruthOrder, p).seq - 1);
        }
  }

  /* Within a tick: the same event at the same place, later events further on. */
  g_array_sort (order, truth_order_compare);
  for (guint o = 1; o < order->len; o++)
    {
      const TruthOrder *a = &g_array_index (order, TruthOrder, o - 1);
      const TruthOrder *b = &g_array_index (order, TruthOrder, o);

      if (a->seq == b->seq ? a->pos != b->pos : a->pos >= b->pos)
        {
          score->order_errors++;
          truth_score_note (score, "events %" G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT
                            " are placed at %.4f and %.4f", a->seq, b->seq, a->pos, b->pos);
        }
    }
}
