/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tks-export-private.h"

/* ------------------------------------------------------------------------------------------ */
/* Linux ftrace text                                                                           */

/* ftrace's task names are cut as the kernel's are. */
#define FTRACE_COMM_MAX 15

/* Appends @str right-aligned in @width columns (ASCII). */
static void
append_padded_left (GString    *out,
                    const char *str,
                    guint       width)
{
  gsize len = strlen (str);

  for (; len < width; width--)
    g_string_append_c (out, ' ');
  g_string_append (out, str);
}


enum
{
  SWITCH_END   = 0, /* the thread leaves the CPU (OUT) */
  SWITCH_EXIT  = 1, /* the thread exits */
  SWITCH_BEGIN = 2, /* the thread gets the CPU (IN) */
  SWITCH_LATE_EXIT = 3, /* the thread's exit was recorded after the log ended: not a switch */
};

typedef struct
{
  double  pos;
  guint32 thread;
  guint32 kind;
} SwitchEvent;

static int
switch_event_compare (gconstpointer a,
                      gconstpointer b)
{
  const SwitchEvent *ea = a;
  const SwitchEvent *eb = b;

  if (ea->pos != eb->pos)
    return ea->pos < eb->pos ? -1 : 1;
  if (ea->kind != eb->kind)
    return ea->kind < eb->kind ? -1 : 1;
  if (ea->thread != eb->thread)
    return ea->thread < eb->thread ? -1 : 1;
  return 0;
}

/* A task name as ftrace prints it and as text importers split it: no blanks, no '=', no
 * brackets, parentheses, commas or colons. */
static char *
ftrace_sanitize (const char *name)
{
  GString *comm = g_string_new (NULL);

  for (const char *p = name; p != NULL && *p != '\0'; p++)
    {
      char c = *p;

      if (g_ascii_isalnum (c) || c == '_' || c == '.' || c == '/' || c == '+' || c == '-')
        g_string_append_c (comm, c);
      else
        g_string_append_c (comm, '_');
    }

  return g_string_free (comm, FALSE);
}

static char *
ftrace_comm (const TksThread *thread)
{
  g_autofree char *name = tks_export_thread_name (thread);
  char *comm = ftrace_sanitize (name);

  if (comm[0] == '\0')
    {
      g_free (comm);
      comm = g_strdup_printf ("thread%d", thread->number);
    }
  if (strlen (comm) > FTRACE_COMM_MAX)
    comm[FTRACE_COMM_MAX] = '\0';

  return comm;
}

typedef struct
{
  TksExportWriter  *w;        /* NULL while counting lines */
  TksCapture       *capture;
  char            **comms;
  char             *trigger_by;
  double            seconds_per_tick;
  double            origin;
  guint             n_lines;
} FtraceContext;

static const char *
ftrace_task_comm (FtraceContext *ctx,
                  int            thread)
{
  return thread < 0 ? "swapper/0" : ctx->comms[thread];
}

static int
ftrace_task_prio (FtraceContext *ctx,
                  int            thread)
{
  const TksThread *t;

  if (thread < 0)
    return 0;

  t = tks_capture_get_thread (ctx->capture, thread);
  return tks_export_priority_known (t) ? t->priority : 0;
}

/*
 * The state the previous task was left in. The log does not say; a fixed-priority scheduler
 * only lets a thread of lower or equal priority run when the previous one stopped being
 * ready, so that is "S" (sleeping); a higher-priority thread taking over preempted it ("R").
 */
static const char *
ftrace_prev_state (FtraceContext *ctx,
                   int            prev,
                   int            next,
                   gboolean       exited)
{
  if (exited)
    return "X";
  if (prev < 0 || next < 0 ||
      !tks_export_priority_known (tks_capture_get_thread (ctx->capture, prev)) ||
      !tks_export_priority_known (tks_capture_get_thread (ctx->capture, next)))
    return "R";
  return ftrace_task_prio (ctx, next) > ftrace_task_prio (ctx, prev) ? "R" : "S";
}

static void
ftrace_line_prefix (FtraceContext *ctx,
                    int            task,
                    double         pos)
{
  const char *comm = task < 0 ? "<idle>" : ctx->comms[task];

  gsize mark;

  append_padded_left (ctx->w->out, comm, 16);
  g_string_append_c (ctx->w->out, '-');
  mark = ctx->w->out->len;
  tks_export_append_uint (ctx->w->out, (guint) (task + 1));
  for (gsize n = ctx->w->out->len - mark; n < 5; n++)
    g_string_append_c (ctx->w->out, ' ');
  g_string_append (ctx->w->out, " [000] d..2 ");
  tks_export_append_fixed (ctx->w->out, (pos - ctx->origin) * ctx->seconds_per_tick, 6);
  g_string_append (ctx->w->out, ": ");
}

static void
ftrace_switch (FtraceContext *ctx,
               double         pos,
               int            prev,
               int            next,
               gboolean       exited)
{
  GString *out;

  ctx->n_lines++;
  if (ctx->w == NULL)
    return;

  out = ctx->w->out;
  ftrace_line_prefix (ctx, prev, pos);
  g_string_append (out, "sched_switch: prev_comm=");
  g_string_append (out, ftrace_task_comm (ctx, prev));
  g_string_append (out, " prev_pid=");
  tks_export_append_int (out, prev + 1);
  g_string_append (out, " prev_prio=");
  tks_export_append_int (out, ftrace_task_prio (ctx, prev));
  g_string_append (out, " prev_state=");
  g_string_append (out, ftrace_prev_state (ctx, prev, next, exited));
  g_string_append (out, " ==> next_comm=");
  g_string_append (out, ftrace_task_comm (ctx, next));
  g_string_append (out, " next_pid=");
  tks_export_append_int (out, next + 1);
  g_string_append (out, " next_prio=");
  tks_export_append_int (out, ftrace_task_prio (ctx, next));
  g_string_append_c (out, '\n');
}

/* A tracing_mark_write line: @what, then " @key=@value" when @value is set. */
static void
ftrace_mark (FtraceContext *ctx,
             int            current,
             double         pos,
             const char    *what,
             const char    *key,
             const char    *value)
{
  ctx->n_lines++;
  if (ctx->w == NULL)
    return;

  ftrace_line_prefix (ctx, current, pos);
  g_string_append (ctx->w->out, "tracing_mark_write: ");
  g_string_append (ctx->w->out, what);
  if (value != NULL && value[0] != '\0')
    g_string_append_printf (ctx->w->out, " %s=%s", key, value);
  g_string_append_c (ctx->w->out, '\n');
}

static void
ftrace_trigger (FtraceContext *ctx,
                int            current,
                double         pos)
{
  ftrace_mark (ctx, current, pos, "trigger", "set_by", ctx->trigger_by);
}

/* The marks of the holes' ends up to @pos: "not_recorded dropped=N" where a hole begins,
 * "not_recorded_end" where it ends (@done: marks written so far, two a hole). */
static void
ftrace_gap_marks (FtraceContext *ctx,
                  int            current,
                  const TksGap  *gaps,
                  guint          n_gaps,
                  guint         *done,
                  double         pos)
{
  while (*done < 2 * n_gaps)
    {
      const TksGap *gap = &gaps[*done / 2];
      gboolean at_begin = *done % 2 == 0;
      double at = at_begin ? gap->begin : gap->end;

      if (at > pos)
        return;
      if (at_begin)
        {
          char dropped[24];

          g_snprintf (dropped, sizeof dropped, "%" G_GUINT64_FORMAT, gap->dropped);
          ftrace_mark (ctx, current, at, "not_recorded", "dropped", dropped);
        }
      else
        ftrace_mark (ctx, current, at, "not_recorded_end", "", NULL);
      (*done)++;
    }
}

/* A line of an event of a dump version 2: @event (a tracepoint, with its fields). */
static void
ftrace_event (FtraceContext *ctx,
              int            current,
              double         pos,
              const char    *event)
{
  ctx->n_lines++;
  if (ctx->w == NULL)
    return;
  ftrace_line_prefix (ctx, current, pos);
  g_string_append (ctx->w->out, event);
  g_string_append_c (ctx->w->out, '\n');
}

/* The events of a dump version 2 up to @pos (@done: entries passed so far), as the kernel
 * names them: irq_handler_entry/exit, sched_wakeup; markers, states and sleep as
 * tracing_mark_write. */
static void
ftrace_events (FtraceContext *ctx,
               int            current,
               guint         *done,
               double         pos)
{
  TksEvents *events = tks_capture_get_events (ctx->capture);
  const TksEventEntry *e;
  guint n;

  if (events == NULL)
    return;
  e = tks_events_get_entries (events, &n);
  for (; *done < n && e[*done].time.pos <= pos; (*done)++)
    {
      const TksEventEntry *en = &e[*done];
      g_autofree char *name = NULL;
      g_autofree char *line = NULL;

      switch (en->kind)
        {
        case TKS_EVENT_IRQ_ENTER:
          name = ftrace_sanitize (tks_events_get_name (events, TKS_NAME_IRQ, en->a));
          line = g_strdup_printf ("irq_handler_entry: irq=%u name=%s", en->a, name);
          break;
        case TKS_EVENT_IRQ_LEAVE:
          line = g_strdup_printf ("irq_handler_exit: irq=%u ret=handled", en->a);
          break;
        case TKS_EVENT_READY:
          {
            guint n_wakeups, lo = 0, hi;
            const TksWakeup *w = tks_events_get_wakeups (events, &n_wakeups);
            int thread = -1;

            /* the thread this Ready names, from its wake-up (by ready time) */
            for (hi = n_wakeups; lo < hi;)
              {
                guint mid = lo + (hi - lo) / 2;

                if (w[mid].ready.time < en->time.time)
                  lo = mid + 1;
                else
                  hi = mid;
              }
            for (guint i = lo; i < n_wakeups && w[i].ready.time == en->time.time && thread < 0; i++)
              if (w[i].number == en->a && w[i].thread < tks_capture_get_n_threads (ctx->capture))
                thread = (int) w[i].thread;
            if (thread < 0)
              line = g_strdup_printf ("tracing_mark_write: ready number=%u", en->a);
            else
              {
                guint waker;

                line = g_strdup_printf ("sched_wakeup: comm=%s pid=%d prio=%d target_cpu=000",
                                        ftrace_task_comm (ctx, thread), thread + 1,
                                        ftrace_task_prio (ctx, thread));
                /* on the line of the task that made it ready (the one a handler interrupted,
                 * when a handler did), as the kernel prints a wakeup */
                tks_events_get_cpu_after (events, *done, &waker, NULL, NULL);
                if (waker < tks_capture_get_n_threads (ctx->capture))
                  {
                    ftrace_event (ctx, (int) waker, en->time.pos, line);
                    continue;
                  }
              }
          }
          break;
        case TKS_EVENT_MARKER:
          name = ftrace_sanitize (tks_events_get_name (events, TKS_NAME_MARKER, en->a));
          line = g_strdup_printf ("tracing_mark_write: %s=%u", name, en->b);
          break;
        case TKS_EVENT_STATE_BEGIN:
        case TKS_EVENT_STATE_END:
          {
            g_autofree char *channel = ftrace_sanitize (tks_events_get_name (events, TKS_NAME_CHANNEL, en->a));

            if (en->kind == TKS_EVENT_STATE_END)
              line = g_strdup_printf ("tracing_mark_write: state_end channel=%s", channel);
            else
              {
                name = ftrace_sanitize (tks_events_get_name (events, TKS_NAME_STATE, en->b));
                line = g_strdup_printf ("tracing_mark_write: state_begin channel=%s state=%s",
                                        channel, name);
              }
          }
          break;
        case TKS_EVENT_SLEEP:
          line = g_strdup ("tracing_mark_write: cpu_sleep");
          break;
        case TKS_EVENT_WAKE:
          name = en->b != 0 ? ftrace_sanitize (tks_events_get_name (events, TKS_NAME_IRQ, en->a))
                            : g_strdup ("none");
          line = g_strdup_printf ("tracing_mark_write: cpu_wake by=%s", name);
          break;
        case TKS_EVENT_SWITCH:
        case TKS_EVENT_TRIGGER:
        default:
          continue;
        }
      ftrace_event (ctx, current, en->time.pos, line);
    }
}

static GArray *
ftrace_collect_events (TksCapture *capture)
{
  guint n_threads = tks_capture_get_n_threads (capture);
  GArray *events = g_array_new (FALSE, FALSE, sizeof (SwitchEvent));

  for (guint i = 0; i < n_threads; i++)
    {
      const TksThread *thread = tks_capture_get_thread (capture, i);
      gboolean exited = (thread->flags & TKS_THREAD_EXITED) != 0 && isfinite (thread->exit_time);

      for (guint r = 0; thread->runs != NULL && r < thread->n_runs; r++)
        {
          const TksRun *run = &thread->runs[r];
          gboolean last = r + 1 == thread->n_runs;
          SwitchEvent ev;

          ev.pos = run->begin;
          ev.thread = i;
          ev.kind = SWITCH_BEGIN;
          g_array_append_val (events, ev);

          /* The end of a run still going at the end of the capture is not a switch, and a
           * run ending at the exit is reported by the exit itself. */
          if (last && (thread->flags & TKS_THREAD_RUNNING_AT_END) != 0)
            continue;
          if (exited && run->end == thread->exit_time)
            continue;

          ev.pos = run->end;
          ev.kind = SWITCH_END;
          g_array_append_val (events, ev);
        }

      for (guint m = 0; thread->marks != NULL && m < thread->n_marks; m++)
        {
          SwitchEvent ev;

          ev.pos = thread->marks[m].pos;
          ev.thread = i;
          ev.kind = thread->marks[m].kind == TKS_MARK_IN ? SWITCH_BEGIN : SWITCH_END;
          g_array_append_val (events, ev);
        }

      if (exited)
        {
          SwitchEvent ev;

          ev.pos = thread->exit_time;
          ev.thread = i;
          ev.kind = (thread->flags & TKS_THREAD_EXITED_AFTER_LOG_END) ? SWITCH_LATE_EXIT
                                                                       : SWITCH_EXIT;
          g_array_append_val (events, ev);
        }
    }

  g_array_sort (events, switch_event_compare);

  return events;
}

/* Walks the events in time order, writing one sched_switch line per switch (or only
 * counting them when ctx->w is NULL). */
static gboolean
ftrace_walk (FtraceContext *ctx,
             GArray        *events,
             gboolean       has_trigger,
             double         trigger)
{
  double log_end;
  gboolean log_end_done = !tks_export_log_end_before_end (ctx->capture, &log_end);
  gboolean trigger_done = !has_trigger;
  int current = -1;
  guint i = 0;
  guint n_gaps, gap_marks = 0, events_done = 0;
  const TksGap *gaps = tks_capture_get_gaps (ctx->capture, &n_gaps);

  while (i < events->len)
    {
      double pos = g_array_index (events, SwitchEvent, i).pos;
      int outs[4];
      int ins[4];
      gboolean out_exits[4];
      guint n_outs = 0;
      guint n_ins = 0;

      ftrace_gap_marks (ctx, current, gaps, n_gaps, &gap_marks, pos);
      ftrace_events (ctx, current, &events_done, pos);

      if (!trigger_done && trigger <= pos)
        {
          ftrace_trigger (ctx, current, trigger);
          trigger_done = TRUE;
        }
      if (!log_end_done && log_end <= pos)
        {
          /* After it, no switch is known: only exits, as marks. */
          ftrace_mark (ctx, current, log_end, "log_end", "reason", "lone_exits");
          log_end_done = TRUE;
        }

      /* Every event at one position comes from one record: at most one thread leaves and
       * one comes in. Damaged data can hold more; they are taken pairwise. */
      for (; i < events->len && g_array_index (events, SwitchEvent, i).pos == pos; i++)
        {
          const SwitchEvent *ev = &g_array_index (events, SwitchEvent, i);

          if (ev->kind == SWITCH_LATE_EXIT)
            ftrace_mark (ctx, current, pos, "exit_after_log_end", "comm",
                         ctx->comms[ev->thread]);
          else if (ev->kind == SWITCH_BEGIN)
            {
              if (n_ins < G_N_ELEMENTS (ins))
                ins[n_ins++] = (int) ev->thread;
            }
          else if (n_outs < G_N_ELEMENTS (outs))
            {
              out_exits[n_outs] = ev->kind == SWITCH_EXIT;
              outs[n_outs++] = (int) ev->thread;
            }
        }

      for (guint k = 0; k < MAX (n_outs, n_ins); k++)
        {
          int prev = k < n_outs ? outs[k] : current;
          int next = k < n_ins ? ins[k] : -1;
          gboolean exited = k < n_outs && out_exits[k];

          if (prev == next)
            continue;

          ftrace_switch (ctx, pos, prev, next, exited);
          current = next;
        }

      if (ctx->w != NULL && !tks_export_flush (ctx->w, FALSE))
        return FALSE;
    }

  ftrace_gap_marks (ctx, current, gaps, n_gaps, &gap_marks, INFINITY);
  ftrace_events (ctx, current, &events_done, INFINITY);
  if (!trigger_done)
    ftrace_trigger (ctx, current, trigger);
  if (!log_end_done)
    ftrace_mark (ctx, current, log_end, "log_end", "reason", "lone_exits");

  return TRUE;
}

gboolean
tks_export_ftrace (TksCapture      *capture,
                   double           tick_hz,
                   TksExportWriter *w)
{
  guint n_threads = tks_capture_get_n_threads (capture);
  g_autoptr(GArray) events = ftrace_collect_events (capture);
  g_autoptr(GPtrArray) comms = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *trigger_by = NULL;
  FtraceContext ctx = { 0 };
  double trigger = 0;
  gboolean has_trigger;

  for (guint t = 0; t < n_threads; t++)
    g_ptr_array_add (comms, ftrace_comm (tks_capture_get_thread (capture, t)));

  has_trigger = tks_capture_get_trigger (capture, &trigger) && isfinite (trigger);
  if (has_trigger && tks_capture_get_trigger_name (capture) != NULL)
    {
      g_autofree char *by = tks_export_capped_name (tks_capture_get_trigger_name (capture));

      trigger_by = ftrace_sanitize (by);
    }

  ctx.capture = capture;
  ctx.comms = (char **) comms->pdata;
  ctx.trigger_by = trigger_by;
  ctx.seconds_per_tick = 1.0 / tick_hz;

  /* Timestamps cannot be negative in this format. */
  ctx.origin = MIN (0.0, tks_capture_get_start (capture));
  if (events->len > 0)
    ctx.origin = MIN (ctx.origin, g_array_index (events, SwitchEvent, 0).pos);
  if (has_trigger)
    ctx.origin = MIN (ctx.origin, trigger);
  if (!isfinite (ctx.origin))
    ctx.origin = 0;

  /* The header gives the number of entries: count them first. */
  ftrace_walk (&ctx, events, has_trigger, trigger);

  g_string_append (w->out,
                   "# tracer: nop\n"
                   "#\n");
  {
    /* What the capture lost or could not read stays visible, as comments readers skip. */
    guint n_warnings = 0;
    const char * const *warnings = tks_capture_get_warnings (capture, &n_warnings);

    for (guint i = 0; i < n_warnings; i++)
      {
        g_string_append (w->out, "# ");
        for (const char *p = warnings[i]; *p != '\0'; p++)
          g_string_append_c (w->out, *p == '\n' || *p == '\r' ? ' ' : *p);
        g_string_append_c (w->out, '\n');
      }
    if (n_warnings > 0)
      g_string_append (w->out, "#\n");
  }
  g_string_append_printf (w->out,
                          "# entries-in-buffer/entries-written: %u/%u   #P:1\n",
                          ctx.n_lines, ctx.n_lines);
  g_string_append (w->out,
                   "#\n"
                   "#                                _-----=> irqs-off\n"
                   "#                               / _----=> need-resched\n"
                   "#                              | / _---=> hardirq/softirq\n"
                   "#                              || / _--=> preempt-depth\n"
                   "#                              ||| /     delay\n"
                   "#           TASK-PID     CPU#  ||||   TIMESTAMP  FUNCTION\n"
                   "#              | |         |   ||||      |         |\n");

  ctx.w = w;
  ctx.n_lines = 0;

  return ftrace_walk (&ctx, events, has_trigger, trigger);
}
