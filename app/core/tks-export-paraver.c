/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tks-export-private.h"
#include "tks-i18n.h"

/*
 * Paraver: a trace (.prv) of one node with one CPU running one application of one task, whose
 * threads are the rows: the board's threads in creation order, one per interrupt handler
 * ("irq NAME"), and a last one, "capture", for markers and what the capture says of itself
 * (trigger, holes, log end). The configuration (.pcf) names the states and the event types;
 * the row names (.row) name the threads. Times in nanoseconds from the capture's start. See
 * docs/guide.md.
 *
 * A thread's state is Running during its runs. Between them, with the wake-ups of a board
 * built with the ready event: Ready from its Ready entry to its switch-in, Waiting before;
 * when no Ready came, Ready if it was preempted (a thread of higher priority came in when it
 * went out: the kernel puts it back in the ready list without a Ready entry), else Waiting
 * (blocked or sleeping, woken straight into the CPU). Without that event, "Not running".
 * Nothing is written where nothing is known: before a thread's first switch, in the log's
 * holes, after the log's end, after an exit.
 */

enum
{
  STATE_RUNNING     = 1,
  STATE_READY       = 2,
  STATE_WAITING     = 3,
  STATE_NOT_RUNNING = 4,
};

enum
{
  RECORD_STATE = 1,
  RECORD_EVENT = 2,
};

/* Event types (the .pcf names them). */
enum
{
  EVENT_IRQ          = 1000,  /* value: the handler (track index + 1) on its row; 0: ends */
  EVENT_MARKER_BASE  = 2000,  /* + marker track index; value: the marker's */
  EVENT_EXIT         = 3000,  /* 1: the thread exits; 2: exit recorded after the log ended */
  EVENT_UNLOGGED     = 3001,  /* a thread that is not logged: 1 switched in, 2 out */
  EVENT_TRIGGER      = 3002,  /* 1 */
  EVENT_NOT_RECORDED = 3003,  /* the switches dropped at a hole's begin; 0 at its end */
  EVENT_LOG_END      = 3004,  /* 1: the log ends, only exits follow */
};

typedef enum
{
  ROW_THREAD,
  ROW_IRQ,
  ROW_MARKER,
  ROW_CAPTURE,
} RowKind;

typedef struct
{
  RowKind      kind;
  guint        index;     /* thread index, or track index */
  guint        prv_thread; /* the Paraver thread (1-based) */
  guint        step;
  GArray      *wakeups;   /* ROW_THREAD: indices into the wake-ups, of this thread */
  guint        wakeup;    /* the first of them not yet used */
  guint8      *preempted; /* ROW_THREAD: a bit per run: switched out by a higher priority */
} Row;

typedef struct
{
  TksCapture      *capture;
  TksEvents       *events;
  double           start;
  double           ns_per_tick;
  gint64           ftime;
  double           log_end;
  gboolean         ready_known;
  const TksTrack  *irqs;
  guint            n_irqs;
  const TksTrack  *markers;
  guint            n_markers;
  const TksGap    *gaps;
  guint            n_gaps;
  const TksWakeup *wakeups;
  guint            n_wakeups;
  Row             *rows;
  guint            n_rows;
  guint            n_threads; /* Paraver threads */
} Paraver;

static gint64
to_ns (Paraver *p,
       double   pos)
{
  double ns = (pos - p->start) * p->ns_per_tick;

  if (!(ns > 0))
    return 0;
  return MIN (llround (ns), p->ftime);
}

static void
add_record (GArray  *records,
            guint32  kind,
            gint64   time,
            gint64   end,
            guint32  type,
            guint64  value,
            guint32  order)
{
  TksExportRecord r = { .time = time, .end = end, .kind = kind, .type = type, .value = value,
                        .order = order };

  g_array_append_val (records, r);
}

/* A state from @begin to @end (ticks), without the log's holes. */
static void
add_state (Paraver *p,
           GArray  *records,
           double   begin,
           double   end,
           guint    state)
{
  for (guint g = 0; g < p->n_gaps && begin < end; g++)
    {
      if (p->gaps[g].end <= begin || p->gaps[g].begin >= end)
        continue;
      if (p->gaps[g].begin > begin)
        add_record (records, RECORD_STATE, to_ns (p, begin), to_ns (p, p->gaps[g].begin), 0,
                    state, 1);
      begin = p->gaps[g].end;
    }
  if (begin < end)
    add_record (records, RECORD_STATE, to_ns (p, begin), to_ns (p, end), 0, state, 1);
}

/* The first wake-up of @row's thread made ready from @from to @to, NULL when none. */
static const TksWakeup *
row_wakeup (Paraver *p,
            Row     *row,
            double   from,
            double   to)
{
  while (row->wakeup < row->wakeups->len)
    {
      const TksWakeup *wk = &p->wakeups[g_array_index (row->wakeups, guint, row->wakeup)];

      if (wk->ready.pos > to)
        return NULL;
      if (wk->ready.pos >= from)
        return wk;
      row->wakeup++;
    }
  return NULL;
}

/* The states of a thread that is not running, from @begin to @end: what it waited for,
 * after run @run (G_MAXUINT: before its first run). */
static void
not_running_states (Paraver *p,
                    Row     *row,
                    guint    run,
                    double   begin,
                    double   end,
                    GArray  *records)
{
  const TksWakeup *wk;

  if (!(begin < end))
    return;
  if (!p->ready_known)
    {
      if (run != G_MAXUINT)
        add_state (p, records, begin, end, STATE_NOT_RUNNING);
      return;
    }
  wk = row_wakeup (p, row, begin, end);
  if (wk != NULL)
    {
      /* made ready: it was waiting before (not known before its first run) */
      if (run != G_MAXUINT)
        add_state (p, records, begin, wk->ready.pos, STATE_WAITING);
      add_state (p, records, wk->ready.pos, end, STATE_READY);
      row->wakeup++;
    }
  else if (run != G_MAXUINT)
    add_state (p, records, begin, end,
               row->preempted[run / 8] & (1u << (run % 8)) ? STATE_READY : STATE_WAITING);
}

static gint64
thread_step (Paraver *p,
             Row     *row,
             GArray  *records)
{
  const TksThread *th = tks_capture_get_thread (p->capture, row->index);
  gboolean exited = (th->flags & TKS_THREAD_EXITED) != 0 && isfinite (th->exit_time);
  gboolean late_exit = exited && (th->flags & TKS_THREAD_EXITED_AFTER_LOG_END) != 0;
  /* up to where its state is known */
  double known_end = exited && !late_exit ? MIN (th->exit_time, p->log_end) : p->log_end;
  guint s = row->step++;

  if (th->n_marks > 0)
    {
      /* not logged: its switches as events */
      if (s < th->n_marks)
        add_record (records, RECORD_EVENT, to_ns (p, th->marks[s].pos), 0, EVENT_UNLOGGED,
                    th->marks[s].kind == TKS_MARK_IN ? 1 : 2, 2);
      if (s + 1 < th->n_marks)
        return to_ns (p, th->marks[s + 1].pos);
    }
  else if (th->n_runs > 0)
    {
      const TksRun *run = &th->runs[s];
      double next = s + 1 < th->n_runs ? th->runs[s + 1].begin : known_end;

      if (s == 0)
        not_running_states (p, row, G_MAXUINT, p->start, run->begin, records);
      add_record (records, RECORD_STATE, to_ns (p, run->begin), to_ns (p, run->end), 0,
                  STATE_RUNNING, 1);
      if (!(s + 1 == th->n_runs && (th->flags & TKS_THREAD_RUNNING_AT_END) != 0))
        not_running_states (p, row, s, run->end, next, records);
      if (s + 1 < th->n_runs)
        return to_ns (p, th->runs[s + 1].begin);
    }
  else if (s == 0)
    /* logged, never ran: only a wake-up says something */
    not_running_states (p, row, G_MAXUINT, p->start, known_end, records);

  if (exited)
    add_record (records, RECORD_EVENT, to_ns (p, th->exit_time), 0, EVENT_EXIT,
                late_exit ? 2 : 1, 2);
  return G_MAXINT64;
}

/* A handler's slices: Running while it is under way (slices that overlap, nested or left open
 * by a hole, as one state: a row's states never overlap), an event as each begins and ends. */
static gint64
irq_step (Paraver *p,
          Row     *row,
          GArray  *records)
{
  const TksTrack *track = &p->irqs[row->index];
  guint s = row->step;
  double end;

  if (s >= track->n_slices)
    return G_MAXINT64;
  end = track->slices[s].end.pos;
  for (; row->step < track->n_slices && (row->step == s || track->slices[row->step].begin.pos < end);
       row->step++)
    {
      const TksSlice *sl = &track->slices[row->step];

      end = MAX (end, sl->end.pos);
      add_record (records, RECORD_EVENT, to_ns (p, sl->begin.pos), 0, EVENT_IRQ, row->index + 1, 2);
      /* the end first among the records of one time */
      add_record (records, RECORD_EVENT, to_ns (p, sl->end.pos), 0, EVENT_IRQ, 0, 0);
    }
  add_record (records, RECORD_STATE, to_ns (p, track->slices[s].begin.pos), to_ns (p, end), 0,
              STATE_RUNNING, 1);
  return row->step < track->n_slices ? to_ns (p, track->slices[row->step].begin.pos)
                                     : G_MAXINT64;
}

static gint64
marker_step (Paraver *p,
             Row     *row,
             GArray  *records)
{
  const TksTrack *track = &p->markers[row->index];
  guint s = row->step++;

  if (s >= track->n_instants)
    return G_MAXINT64;
  add_record (records, RECORD_EVENT, to_ns (p, track->instants[s].time.pos), 0,
              EVENT_MARKER_BASE + row->index, track->instants[s].value, 2);
  return s + 1 < track->n_instants ? to_ns (p, track->instants[s + 1].time.pos) : G_MAXINT64;
}

/* All at once: a few records. */
static gint64
capture_step (Paraver *p,
              Row     *row,
              GArray  *records)
{
  double trigger, log_end;

  if (row->step++ > 0)
    return G_MAXINT64;
  if (tks_capture_get_trigger (p->capture, &trigger) && isfinite (trigger))
    add_record (records, RECORD_EVENT, to_ns (p, trigger), 0, EVENT_TRIGGER, 1, 2);
  for (guint g = 0; g < p->n_gaps; g++)
    {
      add_record (records, RECORD_EVENT, to_ns (p, p->gaps[g].begin), 0, EVENT_NOT_RECORDED,
                  MAX (p->gaps[g].dropped, 1), 2);
      add_record (records, RECORD_EVENT, to_ns (p, p->gaps[g].end), 0, EVENT_NOT_RECORDED, 0, 0);
    }
  if (tks_export_log_end_before_end (p->capture, &log_end))
    add_record (records, RECORD_EVENT, to_ns (p, log_end), 0, EVENT_LOG_END, 1, 2);
  return G_MAXINT64;
}

static gint64
paraver_step (gpointer  user_data,
              guint     index,
              GArray   *records)
{
  Paraver *p = user_data;
  Row *row = &p->rows[index];

  switch (row->kind)
    {
    case ROW_THREAD:
      return thread_step (p, row, records);
    case ROW_IRQ:
      return irq_step (p, row, records);
    case ROW_MARKER:
      return marker_step (p, row, records);
    case ROW_CAPTURE:
    default:
      return capture_step (p, row, records);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Which runs ended by preemption: a sweep over every thread's runs (and the switches in of
 * threads that are not logged) in time order.                                                 */

typedef struct
{
  Paraver *p;
  guint   *steps;
} Sweep;

static gint64
sweep_step (gpointer  user_data,
            guint     index,
            GArray   *records)
{
  Sweep *sweep = user_data;
  Paraver *p = sweep->p;
  const TksThread *th = tks_capture_get_thread (p->capture, p->rows[index].index);
  guint s = sweep->steps[index]++;

  if (th->n_marks > 0)
    {
      /* a thread that is not logged: its switches in count (kind 1: no run of its own) */
      if (s >= th->n_marks)
        return G_MAXINT64;
      if (th->marks[s].kind == TKS_MARK_IN)
        add_record (records, 1, to_ns (p, th->marks[s].pos), 0, 1, s, 1);
      return s + 1 < th->n_marks ? to_ns (p, th->marks[s + 1].pos) : G_MAXINT64;
    }
  if (s >= th->n_runs)
    return G_MAXINT64;
  /* at one time, the run that ends comes before the one that begins */
  add_record (records, 0, to_ns (p, th->runs[s].begin), 0, 1, s, 1);
  add_record (records, 0, to_ns (p, th->runs[s].end), 0, 0, s, 0);
  return s + 1 < th->n_runs ? to_ns (p, th->runs[s + 1].begin) : G_MAXINT64;
}

static void
find_preemptions (Paraver *p,
                  guint    n_thread_rows)
{
  g_autofree guint *steps = g_new0 (guint, MAX (n_thread_rows, 1));
  Sweep sweep = { p, steps };
  g_autoptr(TksExportMerge) merge = tks_export_merge_new (n_thread_rows, sweep_step, &sweep);
  TksExportRecord r, last_end = { .time = -1 };

  while (tks_export_merge_next (merge, &r))
    {
      const TksThread *in, *out;

      if (r.type == 0)
        {
          last_end = r;
          continue;
        }
      if (last_end.time != r.time || last_end.row == r.row)
        continue;
      in = tks_capture_get_thread (p->capture, p->rows[r.row].index);
      out = tks_capture_get_thread (p->capture, p->rows[last_end.row].index);
      if (tks_export_priority_known (in) && tks_export_priority_known (out) &&
          in->priority > out->priority)
        p->rows[last_end.row].preempted[last_end.value / 8] |= 1u << (last_end.value % 8);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* The three files                                                                             */

/* A name for the .pcf and the .row: one line, control characters escaped. */
static void
append_label (GString    *out,
              const char *prefix,
              const char *name)
{
  g_autofree char *capped = tks_export_capped_name (name != NULL ? name : "");
  g_autofree char *escaped = tks_i18n_escape (capped);

  g_string_append (out, prefix);
  for (const char *c = escaped; *c != '\0'; c++)
    g_string_append_c (out, *c == '\n' || *c == '\r' ? ' ' : *c);
}

static void
write_pcf (Paraver *p,
           GString *pcf)
{
  g_string_append (pcf,
                   "DEFAULT_OPTIONS\n\n"
                   "LEVEL               THREAD\n"
                   "UNITS               NANOSEC\n"
                   "LOOK_BACK           100\n"
                   "SPEED               1\n"
                   "FLAG_ICONS          ENABLED\n"
                   "NUM_OF_STATE_COLORS 5\n"
                   "YMAX_SCALE          37\n\n\n"
                   "DEFAULT_SEMANTIC\n\n"
                   "THREAD_FUNC          State As Is\n\n\n"
                   "STATES\n"
                   "0    Not known\n"
                   "1    Running\n"
                   "2    Ready\n"
                   "3    Waiting\n"
                   "4    Not running\n\n\n"
                   "STATES_COLOR\n"
                   "0    {117,195,255}\n"
                   "1    {0,0,255}\n"
                   "2    {255,191,0}\n"
                   "3    {192,192,192}\n"
                   "4    {128,128,128}\n\n\n");

  g_string_append_printf (pcf, "EVENT_TYPE\n0    %d    Interrupt handler\nVALUES\n0      End\n",
                          EVENT_IRQ);
  for (guint i = 0; i < p->n_irqs; i++)
    {
      g_string_append_printf (pcf, "%u      ", i + 1);
      append_label (pcf, "", p->irqs[i].name);
      g_string_append_c (pcf, '\n');
    }
  g_string_append (pcf, "\n\n");

  if (p->n_markers > 0)
    {
      g_string_append (pcf, "EVENT_TYPE\n");
      for (guint i = 0; i < p->n_markers; i++)
        {
          g_string_append_printf (pcf, "0    %u    ", EVENT_MARKER_BASE + i);
          append_label (pcf, "Marker ", p->markers[i].name);
          g_string_append_c (pcf, '\n');
        }
      g_string_append (pcf, "\n\n");
    }

  g_string_append_printf (pcf,
                          "EVENT_TYPE\n0    %d    Thread exit\nVALUES\n"
                          "1      Exited\n2      Exited after the log ended\n\n\n"
                          "EVENT_TYPE\n0    %d    Switch of a thread not logged\nVALUES\n"
                          "1      In\n2      Out\n\n\n"
                          "EVENT_TYPE\n0    %d    Trigger\nVALUES\n1      Set\n\n\n"
                          "EVENT_TYPE\n0    %d    Not recorded (switches dropped)\nVALUES\n"
                          "0      End\n\n\n"
                          "EVENT_TYPE\n0    %d    Log ended (only exits follow)\nVALUES\n"
                          "1      Log end\n\n",
                          EVENT_EXIT, EVENT_UNLOGGED, EVENT_TRIGGER, EVENT_NOT_RECORDED,
                          EVENT_LOG_END);
}

static void
write_row (Paraver *p,
           GString *out)
{
  const char *source = tks_capture_get_source (p->capture);

  g_string_append (out, "LEVEL CPU SIZE 1\nCPU 1\n\nLEVEL NODE SIZE 1\nboard\n\n");
  g_string_append (out, "LEVEL APPL SIZE 1\n");
  append_label (out, "", source != NULL && source[0] != '\0' ? source : "ChibiOS board");
  g_string_append (out, "\n\nLEVEL TASK SIZE 1\nthreads\n\n");
  g_string_append_printf (out, "LEVEL THREAD SIZE %u\n", p->n_threads);
  for (guint i = 0; i < p->n_rows; i++)
    {
      const Row *row = &p->rows[i];

      if (row->kind == ROW_THREAD)
        {
          g_autofree char *name = tks_export_thread_name (tks_capture_get_thread (p->capture,
                                                                                   row->index));

          append_label (out, "", name);
        }
      else if (row->kind == ROW_IRQ)
        append_label (out, "irq ", p->irqs[row->index].name);
      else if (row->kind == ROW_CAPTURE)
        g_string_append (out, "capture");
      else
        continue;  /* markers are on the capture's row */
      g_string_append_c (out, '\n');
    }
}

static void
write_header (Paraver *p,
              GString *out)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *date = g_date_time_format (now, "%d/%m/%y at %H:%M");

  g_string_append_printf (out, "#Paraver (%s):%" G_GINT64_FORMAT "_ns:1(1):1:1(%u:1)\n", date,
                          p->ftime, p->n_threads);
}

static void
write_record (Paraver               *p,
              const TksExportRecord *r,
              GString               *out)
{
  guint thread = p->rows[r->row].prv_thread;

  if (r->kind == RECORD_STATE)
    {
      /* a thread that does not run is on no CPU */
      g_string_append (out, r->value == STATE_RUNNING ? "1:1:1:1:" : "1:0:1:1:");
      tks_export_append_uint (out, thread);
      g_string_append_c (out, ':');
      tks_export_append_int (out, r->time);
      g_string_append_c (out, ':');
      tks_export_append_int (out, MAX (r->end, r->time));
      g_string_append_c (out, ':');
      tks_export_append_uint (out, r->value);
    }
  else
    {
      g_string_append (out, "2:1:1:1:");
      tks_export_append_uint (out, thread);
      g_string_append_c (out, ':');
      tks_export_append_int (out, r->time);
      g_string_append_c (out, ':');
      tks_export_append_uint (out, r->type);
      g_string_append_c (out, ':');
      tks_export_append_uint (out, r->value);
    }
  g_string_append_c (out, '\n');
}

gboolean
tks_export_paraver (TksCapture      *capture,
                    double           tick_hz,
                    TksExportWriter *prv,
                    GString         *pcf,
                    GString         *row_names)
{
  g_autoptr(GArray) rows = g_array_new (FALSE, TRUE, sizeof (Row));
  g_autoptr(TksExportMerge) merge = NULL;
  guint n_capture_threads = tks_capture_get_n_threads (capture);
  g_autofree guint *row_of = g_new (guint, MAX (n_capture_threads, 1));
  guint n_thread_rows = 0;
  gboolean ok = TRUE;
  Paraver p = { 0 };
  TksExportRecord r;
  Row row;

  p.capture = capture;
  p.events = tks_capture_get_events (capture);
  p.start = tks_capture_get_start (capture);
  p.ns_per_tick = 1e9 / tick_hz;
  p.log_end = tks_capture_get_log_end (capture, NULL);
  p.ftime = MAX (0, llround ((tks_capture_get_end (capture) - p.start) * p.ns_per_tick));
  p.gaps = tks_capture_get_gaps (capture, &p.n_gaps);
  if (p.events != NULL)
    {
      const char *options = tks_events_get_info (p.events)->options;
      g_auto(GStrv) words = g_strsplit (options != NULL ? options : "", " ", -1);

      p.irqs = tks_events_get_tracks (p.events, TKS_TRACK_IRQ, &p.n_irqs);
      p.markers = tks_events_get_tracks (p.events, TKS_TRACK_MARKER, &p.n_markers);
      p.wakeups = tks_events_get_wakeups (p.events, &p.n_wakeups);
      /* a board built with the ready event, or a log that has some */
      p.ready_known = g_strv_contains ((const char * const *) words, "ready") ||
                      tks_events_count (p.events, TKS_EVENT_READY) > 0;
    }

  for (guint i = 0; i < n_capture_threads; i++)
    {
      const TksThread *th = tks_capture_get_thread (capture, i);

      row_of[i] = G_MAXUINT;
      /* gone before the log began: no row, as in every export */
      if (th->flags & TKS_THREAD_EXITED_BEFORE_LOG)
        continue;
      memset (&row, 0, sizeof row);
      row.kind = ROW_THREAD;
      row.index = i;
      row.prv_thread = ++p.n_threads;
      row.wakeups = g_array_new (FALSE, FALSE, sizeof (guint));
      row.preempted = g_new0 (guint8, th->n_runs / 8 + 1);
      g_array_append_val (rows, row);
    }
  n_thread_rows = rows->len;
  for (guint i = 0; i < n_thread_rows; i++)
    row_of[g_array_index (rows, Row, i).index] = i;
  for (guint w = 0; w < p.n_wakeups; w++)
    if (p.wakeups[w].thread < n_capture_threads && row_of[p.wakeups[w].thread] != G_MAXUINT)
      g_array_append_val (g_array_index (rows, Row, row_of[p.wakeups[w].thread]).wakeups, w);
  for (guint i = 0; i < p.n_irqs; i++)
    {
      memset (&row, 0, sizeof row);
      row.kind = ROW_IRQ;
      row.index = i;
      row.prv_thread = ++p.n_threads;
      g_array_append_val (rows, row);
    }
  memset (&row, 0, sizeof row);
  row.kind = ROW_CAPTURE;
  row.prv_thread = ++p.n_threads;
  g_array_append_val (rows, row);
  for (guint i = 0; i < p.n_markers; i++)
    {
      row.kind = ROW_MARKER;
      row.index = i;
      g_array_append_val (rows, row);
    }
  p.rows = (Row *) (gpointer) rows->data;
  p.n_rows = rows->len;

  if (p.ready_known)
    find_preemptions (&p, n_thread_rows);

  write_pcf (&p, pcf);
  write_row (&p, row_names);
  write_header (&p, prv->out);

  merge = tks_export_merge_new (p.n_rows, paraver_step, &p);
  while (ok && tks_export_merge_next (merge, &r))
    {
      write_record (&p, &r, prv->out);
      ok = tks_export_flush (prv, FALSE);
    }

  for (guint i = 0; i < n_thread_rows; i++)
    {
      g_array_unref (p.rows[i].wakeups);
      g_free (p.rows[i].preempted);
    }
  return ok;
}
