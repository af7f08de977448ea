/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The simulated board: the board library under a deterministic preemptive priority scheduler
 * on the host stand-in of the ChibiOS API, serving a ChibiOS-style shell.
 *
 * Time is counted in ticks; each tick holds SIM_CYCLES_PER_TICK cycles of CPU time that the
 * running threads consume. At each tick the sleeping threads whose time has come wake up and
 * may preempt the running one; threads then run their programs (work, sleep, wait, signal,
 * spawn, exit) until the tick's cycles are spent, the idle thread taking what is left. The
 * only source of variation is a xorshift generator seeded with the board's seed, so a seed
 * always gives the same switches at the same ticks. Simulated ticks follow real time.
 *
 * Interrupts take cycles too: a handler enters when its line is due and no handler of the
 * same or a higher priority runs, does its work in the middle of its cycles (making threads
 * ready), and leaves; the scheduler switches only once no handler runs. A handler whose cycles
 * outlast the tick is interrupted by the next tick's SysTick_Handler.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>

#include "ch.h"
#include "chprintf.h"
#include "threads_utilities.h"

#include "tks-simboard-board.h"

unsigned long tks_simboard_tick_hz = 1000;
unsigned long tks_simboard_log_size = 3000;

static const char * const state_names[N_STATES] = { "busy", "calibrate" };

static const Op prog_main[] = {
  { OP_SLEEP, 400, 600 }, { OP_WORK, 100, 300 }, { OP_SIGNAL, SEM_CONSOLE, 0 }, { OP_LOOP, 0, 0 },
};
static const Op prog_idle[] = { { OP_LOOP, 0, 0 } };
static const Op prog_console[] = {
  { OP_WAIT, SEM_CONSOLE, 0 }, { OP_WORK, 20, 60 }, { OP_LOOP, 0, 0 },
};
static const Op prog_control[] = {
  { OP_PERIOD, 10, 3 }, { OP_WORK, 100, 400 }, { OP_TRIGGER, 0, 0 }, { OP_LOOP, 0, 0 },
};
/* Woken by the sensor's interrupt. */
static const Op prog_sensor[] = {
  { OP_WAIT, SEM_SENSOR, 0 }, { OP_WORK, 40, 120 }, { OP_MARKER, 0, 0 },
  { OP_SIGNAL, SEM_FILTER, 0 }, { OP_LOOP, 0, 0 },
};
/* Busy on its channel, calibrating within it now and then. */
static const Op prog_filter[] = {
  { OP_WAIT, SEM_FILTER, 0 }, { OP_BEGIN, STATE_BUSY, 0 }, { OP_WORK, 50, 140 },
  { OP_ONE_IN, 6, 3 }, { OP_BEGIN, STATE_CALIBRATE, 0 }, { OP_WORK, 30, 80 }, { OP_END, 0, 0 },
  { OP_END, 0, 0 }, { OP_SIGNAL, SEM_LOGGER, 0 }, { OP_LOOP, 0, 0 },
};
static const Op prog_logger[] = {
  { OP_WAIT, SEM_LOGGER, 0 }, { OP_WORK, 30, 90 }, { OP_WAIT, SEM_LOGGER, 0 },
  { OP_WORK, 30, 90 }, { OP_SIGNAL, SEM_CONSOLE, 0 }, { OP_LOOP, 0, 0 },
};
static const Op prog_blinker[] = {
  { OP_PERIOD, 250, 7 }, { OP_WORK, 10, 30 }, { OP_LOOP, 0, 0 },
};
static const Op prog_housekeep[] = {
  { OP_PERIOD, 100, 50 }, { OP_WORK, 1500, 4000 }, { OP_LOOP, 0, 0 },
};
static const Op prog_spawner[] = {
  { OP_SLEEP, 150, 450 }, { OP_WORK, 20, 50 }, { OP_SPAWN, 0, 0 }, { OP_LOOP, 0, 0 },
};
static const Op prog_stats[] = {
  { OP_PERIOD, 50, 11 }, { OP_WORK, 150, 400 }, { OP_LOOP, 0, 0 },
};
/* Above the sensor thread, at a tick of the sensor's interrupt: the sensor waits for it. */
static const Op prog_watchdog[] = {
  { OP_PERIOD, 20, 4 }, { OP_WORK, 10, 30 }, { OP_LOOP, 0, 0 },
};
static const Op prog_shell[] = {
  { OP_SHELL, 0, 0 }, { OP_WORK, 50, 150 }, { OP_LOOP, 0, 0 },
};
/* Start-up work done in a thread of its own, which then exits (its number goes to the threads
 * created after it). */
static const Op prog_init[] = {
  { OP_WORK, 200, 600 }, { OP_SLEEP, 100, 300 }, { OP_WORK, 300, 900 }, { OP_SLEEP, 100, 300 },
  { OP_WORK, 100, 400 }, { OP_EXIT, 0, 0 },
};
static const Op prog_worker[] = {
  { OP_PERIOD, 16, 0 }, { OP_WORK, 5, 40 }, { OP_LOOP, 0, 0 },
};
static const Op prog_job[] = {
  { OP_WORK, 100, 600 }, { OP_SLEEP, 1, 6 }, { OP_WORK, 100, 900 }, { OP_SLEEP, 1, 4 },
  { OP_WORK, 50, 300 }, { OP_EXIT, 0, 0 },
};

/* Created at boot, in this order (main and idle first, as chSysInit() does). */
static const Kind static_kinds[] = {
  { "main", 128, TRUE, FALSE, 0, prog_main },
  { "idle", 1, TRUE, FALSE, 180, prog_idle },
  { "init", 120, TRUE, FALSE, 400, prog_init },
  { "console", 129, TRUE, FALSE, 560, prog_console },
  { "control", 133, TRUE, FALSE, 512, prog_control },
  { "sensor", 148, TRUE, FALSE, 480, prog_sensor },
  { "filter", 138, TRUE, FALSE, 450, prog_filter },
  { "logger", 118, TRUE, FALSE, 530, prog_logger },
  { "blinker", 108, TRUE, FALSE, 300, prog_blinker },
  { "housekeep", 12, TRUE, FALSE, 480, prog_housekeep },
  { "stats", 100, FALSE, FALSE, 420, prog_stats },
  { "watchdog", 160, FALSE, FALSE, 260, prog_watchdog },
  { "spawner", 130, TRUE, FALSE, 644, prog_spawner },
  { "shell1", 138, TRUE, FALSE, 884, prog_shell },
};

static const Kind job_kinds[] = {
  { "job_a", 123, TRUE, TRUE, 500, prog_job },
  { "job_b", 143, TRUE, TRUE, 500, prog_job },
  { "job_c", 129, TRUE, TRUE, 500, prog_job },
  { "job_d", 123, TRUE, TRUE, 500, prog_job },
  { "job_e", 129, TRUE, TRUE, 500, prog_job },
  { "job_f", 143, TRUE, TRUE, 500, prog_job },
  { "job_g", 129, FALSE, TRUE, 500, prog_job },
};

/********************                 RANDOM NUMBERS               ********************/

static guint32
rng_next (TksSimboardState *b)
{
  guint32 x = b->rng;

  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  b->rng = x;
  return x;
}

static guint
rng_range (TksSimboardState *b, guint lo, guint hi)
{
  if (hi <= lo)
    return lo;
  return lo + rng_next (b) % (hi - lo + 1);
}

/********************                  GROUND TRUTH                ********************/

/* Now, at the clock's full resolution. */
static double
truth_now (TksSimboardState *b)
{
  return (double) b->tick + (double) (SIM_CYCLES_PER_TICK - b->budget) / SIM_CYCLES_PER_TICK;
}

static void
truth_event (TksSimboardState *b, TksTruthKind kind, const SimThread *t, double begin,
             guint64 begin_seq, double end, guint64 end_seq)
{
  TksTruthEvent ev = {
    kind, t->order, t->kind->name, t->kind->prio, t->kind->logged, t->kind->dynamic,
    begin, end, begin_seq, end_seq, 0, 0,
  };

  if (b->truth_func != NULL)
    b->truth_func (&ev, b->truth_data);
}

/* An event that is not a thread's (interrupt, marker, state, sleep), ending now. */
static void
truth_other (TksSimboardState *b, TksTruthKind kind, const char *name, double begin,
             guint64 begin_seq, guint depth, guint32 value)
{
  TksTruthEvent ev = {
    kind, G_MAXUINT, name, 0, TRUE, FALSE, begin, truth_now (b), begin_seq, b->truth_seq++,
    depth, value,
  };

  if (b->truth_func != NULL)
    b->truth_func (&ev, b->truth_data);
}

/********************                     CLOCK                    ********************/

/* Cycles since boot: the tick's and those of the tick already spent. */
static guint64
now_cycles (const TksSimboardState *b)
{
  return b->tick * SIM_CYCLES_PER_TICK + (SIM_CYCLES_PER_TICK - b->budget);
}

/* The realtime counter after @cycles: a TKS_SIMBOARD_COUNTER_HZ counter, 32 bits. */
static guint32
counter_at (guint tick_hz, guint64 cycles)
{
  guint64 per_s = (guint64) tick_hz * SIM_CYCLES_PER_TICK;

  return (guint32) ((cycles / per_s) * TKS_SIMBOARD_COUNTER_HZ
                    + (cycles % per_s) * TKS_SIMBOARD_COUNTER_HZ / per_s);
}

/* The kernel's clocks (system time, realtime counter) at the present cycle. */
static void
sync_clock (TksSimboardState *b)
{
  ch_host_time = (systime_t) b->tick;
  ch_host_counter = counter_at (b->opts.tick_hz, now_cycles (b));
}

static void
spend (TksSimboardState *b, guint cycles)
{
  b->budget -= cycles;
  sync_clock (b);
}

/* What held the CPU from the last charge to now goes to every thread waiting to run: the
 * innermost handler under way, else the running thread. Called before anything changes what
 * holds the CPU (a handler enters or leaves, a switch) and before a thread is made ready. */
static void
truth_charge (TksSimboardState *b)
{
  guint64 now = now_cycles (b);
  guint64 d = now - b->charged_at;
  TksTruthCause cause = { 0 };

  b->charged_at = now;
  if (b->truth_func == NULL || d == 0)
    return;
  if (b->n_irqs > 0)
    cause = (TksTruthCause) { b->irqs[b->n_irqs - 1].name, G_MAXUINT, 0, TRUE, 0 };
  else if (b->current != NULL)
    cause = (TksTruthCause) { b->current->kind->name, b->current->order, b->current->kind->prio,
                              b->current->kind->logged, 0 };
  else
    return;
  for (guint i = 0; i < b->n_threads; i++)
    {
      SimThread *t = &b->threads[i];
      gboolean found = FALSE;

      if (!t->readied || t == b->current || t->run != RUN_READY)
        continue;
      if (t->waited == NULL)
        t->waited = g_array_new (FALSE, FALSE, sizeof (TksTruthCause));
      for (guint k = 0; k < t->waited->len && !found; k++)
        {
          TksTruthCause *c = &g_array_index (t->waited, TksTruthCause, k);

          if (c->name == cause.name && c->thread == cause.thread)
            {
              c->cycles += d;
              found = TRUE;
            }
        }
      if (!found)
        {
          cause.cycles = d;
          g_array_append_val (t->waited, cause);
        }
    }
}

/* The current thread stops running now, at event @seq. */
static void
truth_run_ends (TksSimboardState *b, guint64 seq)
{
  if (b->run_open && b->current != NULL)
    truth_event (b, TKS_TRUTH_RUN, b->current, b->run_begin, b->run_begin_seq, truth_now (b), seq);
  b->run_open = FALSE;
}

static void
truth_run_begins (TksSimboardState *b, guint64 seq)
{
  b->run_begin = truth_now (b);
  b->run_begin_seq = seq;
  b->run_open = TRUE;
}

/********************                   SCHEDULER                  ********************/

/* @t is made ready (created, or woken up): the kernel's ready hook runs. */
static void
make_ready (TksSimboardState *b, SimThread *t)
{
  truth_charge (b);
  if (t->waited != NULL)
    g_array_set_size (t->waited, 0);
  t->waker = b->n_irqs > 0 ? b->irqs[b->n_irqs - 1].name
                           : b->current != NULL ? b->current->kind->name : "";
  t->waker_thread = b->n_irqs > 0 || b->current == NULL ? G_MAXUINT : b->current->order;
  t->waker_priority = t->waker_thread != G_MAXUINT ? b->current->kind->prio : 0;
  t->run = RUN_READY;
  ch_host_ready (&t->tp);
  t->readied = TRUE;
  t->ready_at = truth_now (b);
  t->ready_at_seq = b->truth_seq++;
  t->ready_seq = b->seq_back++;
}

static SimThread *
pick_next (TksSimboardState *b)
{
  SimThread *best = NULL;

  for (guint i = 0; i < b->n_threads; i++)
    {
      SimThread *t = &b->threads[i];

      if (t->run != RUN_READY)
        continue;
      if (best == NULL || t->tp.prio > best->tp.prio
          || (t->tp.prio == best->tp.prio && t->ready_seq < best->ready_seq))
        best = t;
    }
  return best;
}

/* The current thread stopped running (it blocked, exited or was preempted): switch to the
 * best ready thread. */
static void
reschedule (TksSimboardState *b)
{
  SimThread *next = pick_next (b);
  SimThread *prev = b->current;

  g_assert (next != NULL);   /* idle is always ready */
  if (next == prev)
    return;
  next->run = RUN_READY;
  ch.kernel_stats.m_crit_thd.cumulative += 2;
  truth_charge (b);
  {
    guint64 seq = b->truth_seq++;

    truth_run_ends (b, seq);
    if (prev == b->idle)
      truth_other (b, TKS_TRUTH_SLEEP, b->sleep_waker != NULL ? b->sleep_waker : "",
                   b->sleep_begin, b->sleep_begin_seq, 0, 0);
    if (b->legacy != NULL)
      tks_legacy_switch (b->legacy, &next->tp, next->kind->logged,
                         prev != NULL ? &prev->tp : NULL, prev != NULL && prev->kind->logged,
                         (guint32) b->tick);
    ch_host_switch (&next->tp);
    b->current = next;
    truth_run_begins (b, seq);
    if (next->readied && b->truth_func != NULL)
      {
        TksTruthEvent ev = {
          TKS_TRUTH_WAKEUP, next->order, next->kind->name, next->kind->prio, next->kind->logged,
          next->kind->dynamic, next->ready_at, truth_now (b), next->ready_at_seq, seq, 0, 0,
          next->waker, next->waker_thread, next->waker_priority,
          next->waited != NULL ? (const TksTruthCause *) (gconstpointer) next->waited->data : NULL,
          next->waited != NULL ? next->waited->len : 0,
        };

        b->truth_func (&ev, b->truth_data);
      }
    next->readied = FALSE;
    if (next == b->idle)
      {
        b->sleep_begin = truth_now (b);
        b->sleep_begin_seq = seq;
        b->sleep_waker = NULL;
      }
  }
  /* ch_host_switch marks the previous thread READY; keep the real state of a blocked one. */
  if (prev != NULL)
    {
      switch (prev->run)
        {
        case RUN_SLEEPING:
          prev->tp.state = CH_STATE_SLEEPING;
          break;
        case RUN_WAITING:
          prev->tp.state = prev->wait_sem == SEM_SHELL ? CH_STATE_WTMSG : CH_STATE_WTSEM;
          break;
        case RUN_FINAL:
          prev->tp.state = CH_STATE_FINAL;
          prev->run = RUN_FREE;
          break;
        case RUN_FREE:
        case RUN_READY:
        default:
          break;
        }
    }
}

/* @t woke up: preempts the current thread if it has a higher priority (once the interrupt
 * handlers under way have left). */
static void
wake (TksSimboardState *b, SimThread *t)
{
  make_ready (b, t);
  if (b->n_irqs == 0 && b->current != NULL && t->tp.prio > b->current->tp.prio)
    {
      b->current->ready_seq = b->seq_front--;
      reschedule (b);
    }
}

static SimThread *
create_thread (TksSimboardState *b, const Kind *kind)
{
  SimThread *t = NULL;

  for (guint i = 0; i < b->n_threads; i++)
    {
      if (b->threads[i].run == RUN_FREE && &b->threads[i] != b->current)
        {
          t = &b->threads[i];
          break;
        }
    }
  if (t == NULL)
    return NULL;

  memset (&t->tp, 0, sizeof t->tp);
  memset (t->stack, CH_DBG_STACK_FILL_VALUE, sizeof t->stack);
  memset (t->stack + sizeof t->stack - kind->stack_used, 0, kind->stack_used);
  t->kind = kind;
  t->pc = 0;
  t->work_left = 0;
  t->order = b->n_created++;
  if (kind->logged)
    logNextCreatedThreadsTimestamps ();
  else
    dontLogNextCreatedThreadsTimestamps ();
  ch_host_thread_init (&t->tp, kind->name, kind->prio,
                       kind->dynamic ? CH_FLAG_MODE_HEAP : CH_FLAG_MODE_STATIC);
  t->tp.wabase = kind->stack_used != 0 ? t->stack : NULL;
  logNextCreatedThreadsTimestamps ();
  if (b->legacy != NULL)
    tks_legacy_created (b->legacy, &t->tp, kind->name, kind->prio, kind->logged, kind->dynamic);
  {
    guint64 seq = b->truth_seq++;

    truth_event (b, TKS_TRUTH_CREATE, t, truth_now (b), seq, truth_now (b), seq);
  }
  make_ready (b, t);
  return t;
}

static void
signal_sem (TksSimboardState *b, guint sem)
{
  SimThread *waiter = NULL;

  for (guint i = 0; i < b->n_threads; i++)
    {
      SimThread *t = &b->threads[i];

      if (t->run == RUN_WAITING && t->wait_sem == sem
          && (waiter == NULL || t->tp.prio > waiter->tp.prio
              || (t->tp.prio == waiter->tp.prio && t->ready_seq < waiter->ready_seq)))
        waiter = t;
    }
  if (waiter != NULL)
    wake (b, waiter);
  else if (b->sem_count[sem] < 8)
    b->sem_count[sem]++;
}


/* Runs the current thread's program until it has work to do or stops running. */
static void
step (TksSimboardState *b)
{
  SimThread *t = b->current;
  guint guard;

  for (guard = 0; guard < 32 && b->current == t && t->work_left == 0; guard++)
    {
      const Op *op = &t->kind->program[t->pc];

      t->pc++;
      switch (op->op)
        {
        case OP_WORK:
          t->work_left = rng_range (b, op->a, op->b);
          break;
        case OP_SLEEP:
          t->wake_tick = b->tick + rng_range (b, op->a, op->b);
          t->run = RUN_SLEEPING;
          reschedule (b);
          break;
        case OP_PERIOD:
          t->wake_tick = (b->tick / op->a + 1) * op->a + op->b;
          t->run = RUN_SLEEPING;
          reschedule (b);
          break;
        case OP_WAIT:
          if (b->sem_count[op->a] > 0)
            {
              b->sem_count[op->a]--;
            }
          else
            {
              t->wait_sem = op->a;
              t->run = RUN_WAITING;
              reschedule (b);
            }
          break;
        case OP_SIGNAL:
          signal_sem (b, op->a);
          break;
        case OP_SPAWN:
          {
            const Kind *kind = &job_kinds[b->next_job % G_N_ELEMENTS (job_kinds)];
            SimThread *job;

            b->next_job += 1 + rng_range (b, 0, 2);
            job = create_thread (b, kind);
            if (job != NULL && job->tp.prio > t->tp.prio)
              {
                t->ready_seq = b->seq_front--;
                reschedule (b);
              }
          }
          break;
        case OP_SHELL:
          if (b->command_pending)
            {
              tks_sim_run_shell_command (b);
            }
          else
            {
              t->pc--;
              t->wait_sem = SEM_SHELL;
              t->run = RUN_WAITING;
              reschedule (b);
            }
          break;
        case OP_TRIGGER:
          if (!b->triggered_from_code && b->tick >= b->trigger_tick)
            {
              b->triggered_from_code = TRUE;
              if (b->legacy != NULL)
                tks_legacy_trigger (b->legacy, "control_overrun", (guint32) b->tick);
              else
                setTriggerTimestamps ("control_overrun");
              t->work_left = 2 * SIM_CYCLES_PER_TICK;
            }
          break;
        case OP_EXIT:
          {
            guint64 seq = b->truth_seq++;

            t->run = RUN_FINAL;
            ch_host_thread_exit (&t->tp);
            if (b->legacy != NULL)
              tks_legacy_exited (b->legacy, &t->tp, (guint32) b->tick);
            truth_run_ends (b, seq);
            truth_event (b, TKS_TRUTH_EXIT, t, truth_now (b), seq, truth_now (b), seq);
            reschedule (b);
          }
          break;
        case OP_LOOP:
          t->pc = 0;
          if (t == b->idle)
            t->work_left = SIM_CYCLES_PER_TICK;
          break;
        case OP_MARKER:
          tuMarker (b->id_sample, b->sensor_value);
          {
            guint64 seq = b->truth_seq;

            truth_other (b, TKS_TRUTH_MARKER, "sample", truth_now (b), seq, 0, b->sensor_value);
          }
          break;
        case OP_BEGIN:
          if (b->n_states < G_N_ELEMENTS (b->states))
            {
              tuStateBegin (b->id_filter, b->id_states[op->a]);
              b->states[b->n_states++] = (SimState) { op->a, truth_now (b), b->truth_seq++ };
            }
          break;
        case OP_END:
          if (b->n_states > 0)
            {
              const SimState *st = &b->states[--b->n_states];
              g_autofree char *name = g_strconcat ("filter: ", state_names[st->state], NULL);

              tuStateEnd (b->id_filter);
              truth_other (b, TKS_TRUTH_STATE, g_intern_string (name), st->begin, st->begin_seq,
                           b->n_states + 1, 0);
            }
          break;
        case OP_ONE_IN:
          if (rng_range (b, 1, op->a) != 1)
            t->pc += op->b;
          break;
        default:
          g_assert_not_reached ();
        }
    }
}

/********************                  INTERRUPTS                  ********************/

typedef enum
{
  IRQ_ENTER,
  IRQ_WORK,
  IRQ_LEAVE,
} IrqPhase;

/* The work of the handlers, in the middle of their cycles; each may make them longer. */
static void
tick_work (TksSimboardState *b)
{
  for (guint i = 0; i < b->n_threads; i++)
    {
      SimThread *t = &b->threads[i];

      if (t->run == RUN_SLEEPING && t->wake_tick <= b->tick)
        {
          wake (b, t);
          b->irqs[b->n_irqs - 1].after++;
        }
    }
}

static void
sensor_work (TksSimboardState *b)
{
  b->sensor_value = rng_range (b, 1900, 2200);
  signal_sem (b, SEM_SENSOR);
}

static void arm_serial (TksSimboardState *b);

/* Cycles the serial line takes to send @bytes. */
static guint64
serial_cycles (const TksSimboardState *b, guint64 bytes)
{
  guint64 baud = b->opts.baud > 0 ? b->opts.baud : SIM_UART_BAUD;

  return MAX (1, bytes * 10 * b->opts.tick_hz * SIM_CYCLES_PER_TICK / baud);
}

/* A command line arrived, and/or the chunk on the line was sent: the next one goes. */
static void
serial_work (TksSimboardState *b)
{
  guint64 now = now_cycles (b);

  if (b->uart_rx)
    {
      b->uart_rx = FALSE;
      signal_sem (b, SEM_SHELL);
    }
  if (b->uart_queued > 0 && b->uart_tx_due <= now)
    {
      b->uart_queued -= MIN (b->uart_queued, SIM_UART_CHUNK);
      b->uart_tx_due = now + serial_cycles (b, MIN (b->uart_queued, SIM_UART_CHUNK));
    }
  arm_serial (b);
}

/* An interrupt handler as ChibiOS writes one: the hooks see its name in __func__. It runs in
 * three calls (enter, work, leave) so that others can interrupt it between them; it returns
 * its name. */
#define SIM_IRQ_HANDLER(handler, work)                                      static const char *                                                         handler (TksSimboardState *b, IrqPhase phase)                               {                                                                             if (phase == IRQ_ENTER)                                                       {                                                                             CH_IRQ_PROLOGUE ();                                                       }                                                                         else if (phase == IRQ_WORK)                                                   {                                                                             work (b);                                                                 }                                                                         else                                                                          {                                                                             CH_IRQ_EPILOGUE ();                                                       }                                                                         return __func__;                                                          }

SIM_IRQ_HANDLER (EXTI0_IRQHandler, sensor_work)
SIM_IRQ_HANDLER (SysTick_Handler, tick_work)
SIM_IRQ_HANDLER (USART2_IRQHandler, serial_work)

static const char *(*const irq_handlers[N_IRQS]) (TksSimboardState *b, IrqPhase phase) = {
  EXTI0_IRQHandler, SysTick_Handler, USART2_IRQHandler,
};

/* Cycles of each handler before and after its work. */
static const guint irq_cycles[N_IRQS][4] = {
  { 1, 2, 1, 2 },
  { 1, 2, 1, 2 },
  { 1, 3, 1, 4 },
};

static void
arm (TksSimboardState *b, IrqLine line, guint64 due)
{
  b->irq_armed[line] = TRUE;
  b->irq_due[line] = due;
}

static void
arm_serial (TksSimboardState *b)
{
  b->irq_armed[IRQ_SERIAL] = b->uart_rx || b->uart_queued > 0;
  b->irq_due[IRQ_SERIAL] = b->uart_rx ? now_cycles (b) : b->uart_tx_due;
}

/* The shell printed @bytes: the serial line sends them, a chunk at a time. */
void
tks_sim_serial_send (TksSimboardState *b, guint64 bytes)
{
  if (b->uart_queued == 0)
    b->uart_tx_due = now_cycles (b) + serial_cycles (b, MIN (bytes, SIM_UART_CHUNK));
  b->uart_queued += bytes;
  arm_serial (b);
}

/* The line due now that may interrupt what runs (a thread, or a handler of lower priority),
 * the highest priority first; -1 when none. */
static int
irq_to_enter (const TksSimboardState *b)
{
  guint64 now = now_cycles (b);
  guint below = b->n_irqs > 0 ? b->irqs[b->n_irqs - 1].line : N_IRQS;

  for (guint line = 0; line < below; line++)
    if (b->irq_armed[line] && b->irq_due[line] <= now)
      return (int) line;
  return -1;
}

/* Cycles that may run before a line becomes due, within the tick. */
static guint
cycles_until_due (const TksSimboardState *b)
{
  guint64 now = now_cycles (b);
  guint64 until = b->budget;

  for (guint line = 0; line < N_IRQS; line++)
    if (b->irq_armed[line] && b->irq_due[line] > now)
      until = MIN (until, b->irq_due[line] - now);
  return (guint) until;
}

static void
irq_enter (TksSimboardState *b, IrqLine line)
{
  SimIrq *irq;
  const char *name;

  truth_charge (b);
  irq = &b->irqs[b->n_irqs++];
  b->irq_armed[line] = FALSE;
  *irq = (SimIrq) {
    line, rng_range (b, irq_cycles[line][0], irq_cycles[line][1]),
    rng_range (b, irq_cycles[line][2], irq_cycles[line][3]), FALSE, truth_now (b), b->truth_seq++,
  };
  name = irq_handlers[line] (b, IRQ_ENTER);
  irq->name = name;
  if (b->current == b->idle && b->sleep_waker == NULL)
    b->sleep_waker = name;
}

/* Runs the innermost handler under way for at most @limit cycles (it may enter, work, or
 * leave instead). */
static void
irq_run (TksSimboardState *b, guint limit)
{
  SimIrq *irq = &b->irqs[b->n_irqs - 1];
  guint *left = irq->done ? &irq->after : &irq->before;

  if (*left > 0)
    {
      guint use = MIN (*left, limit);

      *left -= use;
      spend (b, use);
    }
  else if (!irq->done)
    {
      irq->done = TRUE;
      irq_handlers[irq->line] (b, IRQ_WORK);
    }
  else
    {
      SimIrq done = *irq;
      const char *name;

      truth_charge (b);
      name = irq_handlers[done.line] (b, IRQ_LEAVE);

      truth_other (b, TKS_TRUTH_IRQ, name, done.begin, done.begin_seq, b->n_irqs, 0);
      b->n_irqs--;
    }
}

void
tks_sim_tick (TksSimboardState *b)
{
  b->tick++;
  b->budget = SIM_CYCLES_PER_TICK;
  sync_clock (b);

  arm (b, IRQ_TICK, now_cycles (b));
  if (b->tick % SIM_SENSOR_EVERY == 0)
    arm (b, IRQ_SENSOR, now_cycles (b) + rng_range (b, 1, 40));
  if (b->command_pending && !b->uart_rx_raised)
    {
      b->uart_rx_raised = TRUE;
      b->uart_rx = TRUE;
      arm_serial (b);
    }

  while (b->budget > 0)
    {
      SimThread *t = b->current;
      SimThread *best;
      int line = irq_to_enter (b);

      if (line >= 0)
        {
          irq_enter (b, (IrqLine) line);
          continue;
        }
      if (b->n_irqs > 0)
        {
          irq_run (b, cycles_until_due (b));
          continue;
        }
      best = pick_next (b);

      if (best != t && best->tp.prio > t->tp.prio)
        {
          t->ready_seq = b->seq_front--;
          reschedule (b);
          continue;
        }
      if (t == b->idle && best != t)
        {
          reschedule (b);
          continue;
        }
      if (t->work_left == 0)
        {
          step (b);
          continue;
        }
      {
        guint use = MIN (t->work_left, cycles_until_due (b));

        t->work_left -= use;
        t->tp.stats.cumulative += use;
        spend (b, use);
      }
    }
  if (b->current == b->idle)
    b->idle->work_left = 0;
}

/********************                     BOARD                    ********************/

TksSimboardState *
tks_simboard_state_new (const TksSimboardOptions *opts)
{
  return tks_simboard_state_new_traced (opts, NULL, NULL);
}

TksSimboardState *
tks_simboard_state_new_traced (const TksSimboardOptions *opts,
                               TksTruthFunc              func,
                               gpointer                  user_data)
{
  TksSimboardState *b = g_new0 (TksSimboardState, 1);

  b->opts = *opts;
  b->truth_func = func;
  b->truth_data = user_data;
  b->budget = SIM_CYCLES_PER_TICK;
  b->n_threads = SIM_MAX_THREADS + MIN (opts->workers, SIM_MAX_WORKERS);
  b->threads = g_new0 (SimThread, b->n_threads);
  b->rng = opts->seed * 2654435761U + 0x9E3779B9U;
  if (b->rng == 0)
    b->rng = 1;
  b->trigger_tick = (guint64) SIM_TRIGGER_AFTER_S * opts->tick_hz + rng_range (b, 0, opts->tick_hz * 10);
  b->in = g_byte_array_new ();
  b->out = g_byte_array_new ();
  b->fd = -1;

  /* The original library had no events. */
  if (opts->events && !opts->legacy && !opts->legacy_defects)
    b->mcu = opts->systime_bits == 16 ? &tks_mcu_events16_lib : &tks_mcu_events_lib;
  else
    b->mcu = opts->systime_bits == 16 ? &tks_mcu_plain16_lib : &tks_mcu_plain_lib;
  g_assert (b->mcu->thread_size == sizeof (thread_t));
  tks_simboard_mcu_use (b->mcu);
  b->commands = tks_sim_make_commands (opts, b->mcu);

  tks_simboard_tick_hz = opts->tick_hz;
  tks_simboard_log_size = opts->log_size;
  ch_host_reset ();
  threadsUtilitiesResetState ();
  if (opts->legacy_defects)
    b->legacy = tks_legacy_new (opts->log_size);
  b->id_sample = tuRegisterMarker ("sample");
  b->id_filter = tuRegisterChannel ("filter");
  for (guint i = 0; i < N_STATES; i++)
    b->id_states[i] = tuRegisterState (state_names[i]);

  for (guint i = 0; i < G_N_ELEMENTS (static_kinds); i++)
    {
      SimThread *t = create_thread (b, &static_kinds[i]);

      if (i == 0)
        {
          /* main runs from the start, as after chSysInit(). */
          ch_host_switch (&t->tp);
          b->current = t;
          t->readied = FALSE;
          truth_run_begins (b, b->truth_seq++);
        }
      else if (i == 1)
        {
          b->idle = t;
        }
    }

  /* Workers: many threads alive at once, at spread priorities. */
  b->worker_kinds = g_new0 (Kind, b->n_threads - SIM_MAX_THREADS + 1);
  b->worker_names = g_new0 (char *, b->n_threads - SIM_MAX_THREADS + 1);
  for (guint i = 0; i < b->n_threads - SIM_MAX_THREADS; i++)
    {
      Kind *kind = &b->worker_kinds[i];

      b->worker_names[i] = g_strdup_printf ("worker%u", i + 1);
      *kind = (Kind) { b->worker_names[i], (tprio_t) (100 + i % 40), TRUE, FALSE, 200, prog_worker };
      create_thread (b, kind);
    }

  /* A board that has been running for a while: the log already holds its history. */
  tks_simboard_state_advance (b, (guint64) opts->uptime_ms * opts->tick_hz / 1000);
  /* Its clock started that long ago. */
  b->clock_tick = b->tick;
  b->clock_us = g_get_monotonic_time ();
  return b;
}

void
tks_simboard_state_get_truth_running (TksSimboardState *b,
                                      TksTruthEvent    *event)
{
  const SimThread *t = b->current;

  *event = (TksTruthEvent) {
    TKS_TRUTH_RUN, t->order, t->kind->name, t->kind->prio, t->kind->logged, t->kind->dynamic,
    b->run_begin, truth_now (b), b->run_begin_seq, b->truth_seq, 0, 0,
  };
}

void
tks_simboard_state_end_truth (TksSimboardState *b)
{
  if (b->run_open)
    truth_event (b, TKS_TRUTH_RUNNING, b->current, b->run_begin, b->run_begin_seq,
                 truth_now (b), b->truth_seq);
  b->run_open = FALSE;
  b->truth_func = NULL;
  b->truth_data = NULL;
}

void
tks_simboard_state_free (TksSimboardState *b)
{
  if (b == NULL)
    return;
  for (guint i = 0; i < b->n_threads; i++)
    g_clear_pointer (&b->threads[i].waited, g_array_unref);
  tks_legacy_free (b->legacy);
  g_free (b->commands);
  g_free (b->threads);
  g_free (b->worker_kinds);
  g_strfreev (b->worker_names);
  g_byte_array_unref (b->in);
  g_byte_array_unref (b->out);
  g_free (b);
}

guint64
tks_simboard_state_get_tick (TksSimboardState *b)
{
  return b->tick;
}

void
tks_simboard_state_advance (TksSimboardState *b, guint64 ticks)
{
  while (ticks-- > 0)
    tks_sim_tick (b);
}
