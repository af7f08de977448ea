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

#include "tks-simboard.h"
#include "tks-simboard-private.h"
#include "tks-simboard-legacy.h"
#include "tks-simboard-mcu.h"

unsigned long tks_simboard_tick_hz = 1000;
unsigned long tks_simboard_log_size = 3000;

#define SIM_CYCLES_PER_TICK TKS_SIMBOARD_CYCLES_PER_TICK
#define SIM_STACK_SIZE      1024
#define SIM_MAX_THREADS     40     /* besides the workers */
#define SIM_MAX_WORKERS     200
#define SIM_MAX_LINE        64
#define SIM_MAX_ARGS        4
#define SIM_TRIGGER_AFTER_S 45
#define SIM_UART_CHUNK      64     /* bytes a serial interrupt sends */
#define SIM_UART_BAUD       115200 /* without a --baud */
#define SIM_SENSOR_EVERY    2      /* ticks between sensor interrupts */

typedef enum
{
  OP_WORK,      /* a..b cycles of CPU */
  OP_SLEEP,     /* a..b ticks */
  OP_PERIOD,    /* until the next multiple of a ticks, plus b */
  OP_WAIT,      /* semaphore a */
  OP_SIGNAL,    /* semaphore a */
  OP_SPAWN,     /* a dynamic job */
  OP_SHELL,     /* run the pending shell command, or wait for one */
  OP_TRIGGER,   /* trigger the log from code, once, when the board is old enough */
  OP_EXIT,
  OP_LOOP,
  OP_MARKER,    /* the marker "sample" with the sensor's last reading */
  OP_BEGIN,     /* state a (SimStateName) begins on the channel "filter" */
  OP_END,       /* the newest state of the channel "filter" ends */
  OP_ONE_IN,    /* skips the next b operations, except once in a times on average */
} OpCode;

typedef struct
{
  OpCode op;
  guint  a;
  guint  b;
} Op;

enum
{
  SEM_FILTER,
  SEM_LOGGER,
  SEM_CONSOLE,
  SEM_SHELL,
  SEM_SENSOR,
  N_SEMS,
};

/* The states of the channel "filter". */
typedef enum
{
  STATE_BUSY,
  STATE_CALIBRATE,
  N_STATES,
} SimStateName;

static const char * const state_names[N_STATES] = { "busy", "calibrate" };

/* Interrupt lines, the highest priority first. */
typedef enum
{
  IRQ_SENSOR,   /* EXTI0_IRQHandler */
  IRQ_TICK,     /* SysTick_Handler */
  IRQ_SERIAL,   /* USART2_IRQHandler */
  N_IRQS,
} IrqLine;

typedef struct
{
  const char *name;
  tprio_t     prio;
  gboolean    logged;
  gboolean    dynamic;
  guint       stack_used;
  const Op   *program;
} Kind;

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

typedef enum
{
  RUN_FREE,
  RUN_READY,
  RUN_SLEEPING,
  RUN_WAITING,
  RUN_FINAL,
} RunState;

typedef struct
{
  /* Working area as ChibiOS lays it out: the stack, then the thread descriptor. */
  stkalign_t  stack[SIM_STACK_SIZE];
  thread_t    tp;
  const Kind *kind;
  guint       pc;
  guint       work_left;
  guint64     wake_tick;
  gint64      ready_seq;
  guint       wait_sem;
  RunState    run;
  guint       order;       /* creation order since boot */
  gboolean    readied;     /* made ready, not switched in since */
  double      ready_at;
  guint64     ready_at_seq;
  GArray     *waited;      /* with a truth: TksTruthCause, what held the CPU since readied */
  const char *waker;       /* what made it ready */
  guint       waker_thread;
  int         waker_priority;
} SimThread;

/* A handler under way: its cycles before and after its work. */
typedef struct
{
  IrqLine     line;
  guint       before;
  guint       after;
  gboolean    done;        /* its work is done */
  double      begin;
  guint64     begin_seq;
  const char *name;
} SimIrq;

/* A state begun on the channel "filter". */
typedef struct
{
  SimStateName state;
  double       begin;
  guint64      begin_seq;
} SimState;

struct _TksSimboardState
{
  TksSimboardOptions opts;
  guint32     rng;
  guint64     tick;
  guint       budget;      /* cycles of the tick not spent yet */
  SimThread  *threads;
  guint       n_threads;   /* room in threads */
  Kind       *worker_kinds;
  char      **worker_names;
  guint       n_created;
  SimThread  *current;
  SimThread  *idle;
  guint       sem_count[N_SEMS];
  gint64      seq_back;
  gint64      seq_front;
  guint       next_job;
  gboolean    triggered_from_code;
  guint64     trigger_tick;
  const TksMcuLib *mcu;    /* the build of the library the board runs */
  TksMcuCommand *commands; /* the shell commands it serves */

  /* Interrupts: due at an absolute cycle (tick * SIM_CYCLES_PER_TICK + cycle) */
  gboolean    irq_armed[N_IRQS];
  guint64     irq_due[N_IRQS];
  SimIrq      irqs[N_IRQS]; /* handlers under way, innermost last: one a line at most */
  guint       n_irqs;
  guint64     uart_queued; /* bytes of replies not sent yet, the chunk on the line included */
  guint64     uart_tx_due; /* when the chunk on the line is sent */
  gboolean    uart_rx;     /* a command line arrived */
  gboolean    uart_rx_raised; /* its interrupt came */
  guint32     sensor_value;

  /* Markers and states */
  tuname_t    id_sample;
  tuname_t    id_filter;
  tuname_t    id_states[N_STATES];
  SimState    states[8];
  guint       n_states;

  /* Sleep (the idle thread running) */
  double      sleep_begin;
  guint64     sleep_begin_seq;
  const char *sleep_waker;

  /* The clock: real time at tick clock_tick */
  gint64      clock_us;
  guint64     clock_tick;

  /* Ground truth */
  TksTruthFunc truth_func;
  gpointer    truth_data;
  guint64     truth_seq;
  double      run_begin;      /* the current thread's run */
  guint64     run_begin_seq;
  gboolean    run_open;
  guint64     charged_at;     /* the cycle up to which the waiting threads know what ran */

  /* The original library's recording (legacy_defects) */
  TksLegacyBoard *legacy;

  /* Shell */
  int         fd;
  gboolean    is_pty;
  GByteArray *in;
  GByteArray *out;
  char        line[SIM_MAX_LINE];
  guint       line_len;
  gboolean    command_pending;
  gboolean    recording;      /* threads_record under way: the input goes to the library */
  double      tx_backlog;     /* while recording: bytes the serial line has yet to send, on
                                 the board's clock (the shell thread waits for them) */
  guint64     tx_tick;        /* the tick tx_backlog was worked out at */
  guint64     printed;        /* bytes the shell printed, in all (sent or not yet) */
  gboolean    want_exit;
  gboolean    io_error;
  const gint *stop;
  gint64      wire_free_us;   /* at a baud rate: when the line can take the next byte */
  gint64      heard_us;       /* when the client last sent a byte */
  guint       writes_per_tick; /* run_command_slowly: the board runs a tick every so many
                                  writes of the reply */
  guint       writes;
};

static gint board_running;

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

static void run_shell_command (TksSimboardState *b);

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
              run_shell_command (b);
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
static void
serial_send (TksSimboardState *b, guint64 bytes)
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

static void
sim_tick (TksSimboardState *b)
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

/********************                     SHELL                    ********************/

typedef struct
{
  BaseSequentialStream base;
  TksSimboardState *board;
} BoardStream;

static void flush_out (TksSimboardState *b);

/* What the shell prints: out as it goes, a packet at a time, when the board serves a link. */
static size_t
board_stream_write (void *ip, const uint8_t *bp, size_t n)
{
  BoardStream *s = ip;
  TksSimboardState *b = s->board;

  g_byte_array_append (b->out, bp, (guint) n);
  b->printed += n;
  serial_send (b, n);
  if (b->opts.packet_bytes > 0 && b->fd >= 0 && b->out->len >= b->opts.packet_bytes)
    flush_out (b);
  if (b->writes_per_tick > 0 && ++b->writes % b->writes_per_tick == 0)
    {
      /* The other threads run while the reply is printed (the command itself waits). */
      guint keep = b->writes_per_tick;

      b->writes_per_tick = 0;
      sim_tick (b);
      b->writes_per_tick = keep;
    }
  return n;
}

static const struct BaseSequentialStreamVMT board_stream_vmt = { board_stream_write, NULL };

static void
out_str (TksSimboardState *b, const char *s)
{
  g_byte_array_append (b->out, (const guint8 *) s, (guint) strlen (s));
}

typedef TksMcuShellFunc ShellCmd;
typedef TksMcuCommand ShellCommand;

static void
cmd_info (BaseSequentialStream *chp, int argc, char *argv[])
{
  if (argc > 0)
    {
      chprintf (chp, "Usage: info\r\n");
      return;
    }
  chprintf (chp, "Kernel:       %s\r\n", CH_KERNEL_VERSION);
  chprintf (chp, "Compiler:     %s\r\n", "host C compiler");
  chprintf (chp, "Architecture: %s\r\n", "Simulator");
  chprintf (chp, "Core Variant: %s\r\n", "Tickscope simulated board");
  chprintf (chp, "Port Info:    %s\r\n", "Deterministic preemptive priority scheduler");
  chprintf (chp, "Platform:     %s\r\n", "Host");
  chprintf (chp, "Board:        %s\r\n", "tickscope-simboard " PACKAGE_VERSION);
}

static void
cmd_systime (BaseSequentialStream *chp, int argc, char *argv[])
{
  if (argc > 0)
    {
      chprintf (chp, "Usage: systime\r\n");
      return;
    }
  chprintf (chp, "%lu\r\n", (unsigned long) chVTGetSystemTimeX ());
}

static void
cmd_echo (BaseSequentialStream *chp, int argc, char *argv[])
{
  if (argc != 1)
    {
      chprintf (chp, "Usage: echo \"message\"\r\n");
      return;
    }
  chprintf (chp, "%s\r\n", argv[0]);
}

static void cmd_help (BaseSequentialStream *chp, int argc, char *argv[]);

static const ShellCommand shell_builtins[] = {
  { "help", cmd_help },
  { "exit", NULL },
  { "info", cmd_info },
  { "echo", cmd_echo },
  { "systime", cmd_systime },
};

/* The original library's commands, in its order (no threads_dump). */
static const ShellCommand legacy_commands[] = {
  { "threads_list", tks_legacy_cmd_threads_list },
  { "threads_timestamps", tks_legacy_cmd_threads_timestamps },
  { "threads_timestamps_trigger", tks_legacy_cmd_threads_timestamps_trigger },
  { "threads_timestamps_run", tks_legacy_cmd_threads_timestamps_run },
  { "threads_stat", cmd_threads_stat },
  { "threads_uc", cmd_threads_uc },
  { NULL, NULL },
};

static const ShellCommand *
board_commands (const TksSimboardState *b)
{
  return b->legacy != NULL ? legacy_commands : b->commands;
}

/* The commands of the library the board runs; with legacy, those of the original library. */
static ShellCommand *
make_commands (const TksSimboardOptions *opts, const TksMcuLib *mcu)
{
  guint n = 0, kept = 0;
  ShellCommand *commands;

  while (mcu->commands[n].name != NULL)
    n++;
  commands = g_new0 (ShellCommand, n + 1);
  for (guint i = 0; i < n; i++)
    if (!opts->legacy || (strcmp (mcu->commands[i].name, "threads_dump") != 0
                          && strcmp (mcu->commands[i].name, "threads_dump_compact") != 0
                          && strcmp (mcu->commands[i].name, "threads_trigger_when") != 0
                          && strcmp (mcu->commands[i].name, "threads_record") != 0))
      commands[kept++] = mcu->commands[i];
  return commands;
}

static void
cmd_help (BaseSequentialStream *chp, int argc, char *argv[])
{
  const ShellCommand *commands = board_commands (((BoardStream *) chp)->board);

  if (argc > 0)
    {
      chprintf (chp, "Usage: help\r\n");
      return;
    }

  chprintf (chp, "Commands: ");
  for (guint i = 0; i < G_N_ELEMENTS (shell_builtins); i++)
    chprintf (chp, "%s ", shell_builtins[i].name);
  for (guint i = 0; commands[i].name != NULL; i++)
    chprintf (chp, "%s ", commands[i].name);
  chprintf (chp, "\r\n");
}

/* Splits the line as the ChibiOS shell does: blanks separate words, "quotes" group them. */
static int
split_line (char *line, char *words[], int max_words)
{
  int n = 0;
  char *p = line;

  for (;;)
    {
      char *start;

      while (*p == ' ' || *p == '\t')
        p++;
      if (*p == '\0')
        break;
      if (*p == '"')
        {
          start = ++p;
          while (*p != '\0' && *p != '"')
            p++;
        }
      else
        {
          start = p;
          while (*p != '\0' && *p != ' ' && *p != '\t')
            p++;
        }
      if (n >= max_words)
        return max_words + 1;
      words[n++] = start;
      if (*p == '\0')
        break;
      *p++ = '\0';
    }
  return n;
}

static void
run_shell_command (TksSimboardState *b)
{
  BoardStream stream = { { &board_stream_vmt }, b };
  char *words[SIM_MAX_ARGS + 2] = { NULL };
  char line[SIM_MAX_LINE + 1];
  int n;

  b->command_pending = FALSE;
  b->uart_rx_raised = FALSE;
  memcpy (line, b->line, b->line_len);
  line[b->line_len] = '\0';
  b->line_len = 0;

  n = split_line (line, words, SIM_MAX_ARGS + 1);
  if (n > SIM_MAX_ARGS + 1)
    {
      out_str (b, "too many arguments\r\n");
    }
  else if (n > 0)
    {
      const ShellCommand *commands = board_commands (b);
      ShellCmd func = NULL;
      gboolean found = FALSE;

      for (guint i = 0; i < G_N_ELEMENTS (shell_builtins) && !found; i++)
        if (strcmp (words[0], shell_builtins[i].name) == 0)
          {
            func = shell_builtins[i].func;
            found = TRUE;
          }
      for (guint i = 0; commands[i].name != NULL && !found; i++)
        if (strcmp (words[0], commands[i].name) == 0)
          {
            func = commands[i].func;
            found = TRUE;
          }

      if (!found)
        {
          out_str (b, words[0]);
          out_str (b, " ?\r\n");
        }
      else if (func == NULL)
        {
          if (n > 1)
            out_str (b, "Usage: exit\r\n");
          else
            b->want_exit = TRUE;
        }
      else if (strcmp (words[0], "threads_record") == 0
               && (n == 1 || (n == 2 && strcmp (words[1], "events") == 0)))
        {
          /* The shell thread streams from the board's loop (record_step) until the host
           * stops it; the prompt comes then. */
          if (b->mcu->record_begin (&stream.base, n == 2))
            {
              b->recording = TRUE;
              b->tx_backlog = b->out->len;
              b->tx_tick = b->tick;
              return;
            }
        }
      else
        {
          func (&stream.base, n - 1, &words[1]);
        }
    }
  if (!b->want_exit)
    out_str (b, "ch> ");
}

/* A step of threads_record, as its loop on a board runs every few milliseconds: the bytes
 * the host sent go to the library, which streams what the log holds. The serial line drains
 * on the board's clock: while it still has bytes to send, the shell thread waits (a board's
 * chprintf() blocks on a full output queue) and the log fills meanwhile. */
static void
record_step (TksSimboardState *b)
{
  BoardStream stream = { { &board_stream_vmt }, b };
  struct pollfd pfd = { b->fd, POLLIN, 0 };
  guint64 before;

  if (!b->recording)
    return;
  if (b->opts.baud > 0)
    {
      b->tx_backlog -= (double) (b->tick - b->tx_tick) * b->opts.baud / 10.0 / b->opts.tick_hz;
      b->tx_tick = b->tick;
      if (b->tx_backlog > 0)
        return;
      b->tx_backlog = 0;
    }
  /* What the host sent meanwhile (the board's serial interrupt takes it as it comes). */
  if (poll (&pfd, 1, 0) > 0 && (pfd.revents & POLLIN) != 0)
    {
      guint8 buf[64];
      ssize_t n = read (b->fd, buf, sizeof buf);

      if (n > 0)
        {
          g_byte_array_append (b->in, buf, (guint) n);
          b->heard_us = g_get_monotonic_time ();
        }
    }
  /* (what the poll prints goes out a packet at a time meanwhile: counted as printed) */
  before = b->printed;
  if (!b->mcu->record_poll (&stream.base, b->in->data, b->in->len))
    {
      /* The last poll sends what the log held up to the stop byte: the line takes it at its
       * pace before the prompt goes (as the replies after it). */
      if (b->opts.baud > 0)
        b->wire_free_us = g_get_monotonic_time ()
                          + (gint64) ((b->printed - before) * 10 * G_USEC_PER_SEC / b->opts.baud);
      b->recording = FALSE;
      out_str (b, "ch> ");
    }
  b->tx_backlog += (double) (b->printed - before);
  g_byte_array_set_size (b->in, 0);
}

/* Line editing as the ChibiOS shell does it: echo, backspace, CR ends the line, other
 * control characters are ignored, the line holds at most SIM_MAX_LINE - 1 characters. */
static void
shell_input (TksSimboardState *b)
{
  guint used = 0;

  while (used < b->in->len && !b->command_pending && !b->want_exit && !b->recording)
    {
      guint8 c = b->in->data[used++];

      if (c == 8 || c == 127)
        {
          if (b->line_len > 0)
            {
              b->line_len--;
              out_str (b, "\b \b");
            }
        }
      else if (c == '\r')
        {
          out_str (b, "\r\n");
          b->command_pending = TRUE;
        }
      else if (c < 0x20)
        {
          continue;
        }
      else if (b->line_len < SIM_MAX_LINE - 1)
        {
          b->line[b->line_len++] = (char) c;
          g_byte_array_append (b->out, &c, 1);
        }
    }
  g_byte_array_remove_range (b->in, 0, used);
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
  b->commands = make_commands (opts, b->mcu);

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
    sim_tick (b);
}

char *
tks_simboard_state_run_command_slowly (TksSimboardState *b, const char *line,
                                       guint writes_per_tick)
{
  char *reply;

  b->writes_per_tick = writes_per_tick;
  b->writes = 0;
  reply = tks_simboard_state_run_command (b, line);
  b->writes_per_tick = 0;
  return reply;
}

char *
tks_simboard_state_record (TksSimboardState *b, gboolean events, guint64 ticks, guint poll_ticks)
{
  static const uint8_t keep_alive = 0x16, stop = 3;
  BoardStream stream = { { &board_stream_vmt }, b };
  GByteArray *saved = b->out;
  GByteArray *text = g_byte_array_new ();
  guint64 end = b->tick + ticks;

  g_return_val_if_fail (poll_ticks > 0, NULL);

  b->out = text;
  if (b->mcu->record_begin (&stream.base, events))
    {
      while (b->tick < end)
        {
          tks_simboard_state_advance (b, MIN ((guint64) poll_ticks, end - b->tick));
          b->mcu->record_poll (&stream.base, &keep_alive, 1);
        }
      b->mcu->record_poll (&stream.base, &stop, 1);
    }
  b->out = saved;
  g_byte_array_append (text, (const guint8 *) "", 1);
  return (char *) g_byte_array_free (text, FALSE);
}

char *
tks_simboard_state_run_command (TksSimboardState *b, const char *line)
{
  gsize len = strlen (line);
  GByteArray *saved = b->out;
  GByteArray *reply = g_byte_array_new ();
  char *text;

  b->out = reply;
  b->line_len = (guint) MIN (len, (gsize) SIM_MAX_LINE - 1);
  memcpy (b->line, line, b->line_len);
  b->command_pending = TRUE;
  run_shell_command (b);
  b->out = saved;
  if (reply->len >= 4 && memcmp (reply->data + reply->len - 4, "ch> ", 4) == 0)
    g_byte_array_set_size (reply, reply->len - 4);
  g_byte_array_append (reply, (const guint8 *) "", 1);
  text = (char *) g_byte_array_free (reply, FALSE);
  return text;
}

static gboolean
stopping (TksSimboardState *b)
{
  return b->stop != NULL && g_atomic_int_get (b->stop);
}

/* Writes @len bytes. A pty without a reader drops output like a serial line. */
static void
send_out (TksSimboardState *b,
          const guint8     *data,
          gsize             len)
{
  gsize done = 0;

  while (done < len && !b->io_error)
    {
      ssize_t n = send (b->fd, data + done, len - done, MSG_NOSIGNAL | MSG_DONTWAIT);

      if (n < 0 && errno == ENOTSOCK)
        n = write (b->fd, data + done, len - done);

      if (n > 0)
        {
          done += (gsize) n;
          continue;
        }
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && errno == EAGAIN)
        {
          struct pollfd pfd = { b->fd, POLLOUT, 0 };
          int waited_ms = 0;

          /* A reader that stops reading: give up after 5 s (50 ms on a pty, whose output
           * nobody may be reading), or as soon as the board is asked to stop. */
          while (poll (&pfd, 1, 50) == 0)
            {
              waited_ms += 50;
              if (stopping (b) || waited_ms >= (b->is_pty ? 50 : 5000))
                break;
            }
          if ((pfd.revents & POLLOUT) == 0)
            {
              if (b->is_pty)
                break;
              b->io_error = TRUE;
            }
          continue;
        }
      if (b->is_pty && n < 0 && errno == EIO)
        break;
      b->io_error = TRUE;
    }
}

/* Writes the pending output; at a baud rate, no faster than a serial line at that rate, 8N1
 * (ten bits a byte), a slice of at most 10 ms at a time. */
static void
flush_out (TksSimboardState *b)
{
  gsize slice = b->opts.baud > 0 ? MAX (b->opts.baud / 1000, 1) : b->out->len;

  for (gsize done = 0; done < b->out->len && !b->io_error && !stopping (b); )
    {
      gsize n = MIN (slice, b->out->len - done);

      if (b->opts.baud > 0 && !b->recording)
        {
          gint64 now = g_get_monotonic_time ();

          if (b->wire_free_us > now)
            g_usleep ((gulong) (b->wire_free_us - now));
          b->wire_free_us = MAX (now, b->wire_free_us) + (gint64) n * 10 * G_USEC_PER_SEC / b->opts.baud;
        }
      send_out (b, b->out->data + done, n);
      done += n;
    }
  g_byte_array_set_size (b->out, 0);
}

/* The tick real time has reached: the clock runs from the board's start. */
static guint64
clock_target (TksSimboardState *b)
{
  double ticks_per_us = b->opts.tick_hz * b->opts.speed / 1e6;

  return b->clock_tick + (guint64) ((double) (g_get_monotonic_time () - b->clock_us) * ticks_per_us);
}

/* Whether the client has sent nothing for the idle time (never on a pty, which has no next
 * client): it is told so, and let go. */
static gboolean
client_idle (TksSimboardState *b)
{
  g_autofree char *text = NULL;

  if (b->opts.idle_s == 0 || b->is_pty ||
      g_get_monotonic_time () - b->heard_us < (gint64) b->opts.idle_s * G_USEC_PER_SEC)
    return FALSE;
  text = g_strdup_printf ("\r\ntickscope-simboard: nothing heard from you for %u s: the board "
                          "lets you go, for the next client\r\n", b->opts.idle_s);
  out_str (b, text);
  flush_out (b);
  return TRUE;
}

/* The link is gone, or another begins (with no link: b->fd is -1). What the host it served
 * asked for goes with it:
 * - a recording it streamed ends, as the board's silence would end it, and nobody reads its
 *   end;
 * - a command line it sent that the shell has not run yet is dropped, with the note of its
 *   interrupt. Run with nobody connected, the board would run it alone: a threads_record run
 *   so would start a recording nothing polls, which no silence would ever end, and every
 *   later host's would be refused ("A recording is already under way"). */
static void
link_reset (TksSimboardState *b)
{
  if (b->recording)
    {
      static const guint8 stop_byte = 3;
      BoardStream stream = { { &board_stream_vmt }, b };

      g_assert (b->fd < 0);
      (void) b->mcu->record_poll (&stream.base, &stop_byte, 1);
      b->recording = FALSE;
    }
  b->line_len = 0;
  b->command_pending = FALSE;
  b->uart_rx_raised = FALSE;
  g_byte_array_set_size (b->in, 0);
  g_byte_array_set_size (b->out, 0);
}

gboolean
tks_simboard_state_catch_up (TksSimboardState *b)
{
  guint64 target = clock_target (b);

  /* A bounded amount per call, so input stays responsive. */
  for (guint steps = 0; b->tick < target && steps < 20000; steps++)
    {
      sim_tick (b);
      if (b->fd >= 0)
        record_step (b);
      if (b->out->len > 0 && b->fd >= 0)
        flush_out (b);
    }
  return b->tick >= target;
}

int
tks_simboard_state_serve (TksSimboardState *b, int fd, gboolean is_pty, const gint *stop)
{
  double ticks_per_us = b->opts.tick_hz * b->opts.speed / 1e6;
  int saved_errno = 0;

  link_reset (b);
  b->fd = fd;
  b->is_pty = is_pty;
  b->stop = stop;
  b->io_error = FALSE;
  b->want_exit = FALSE;
  b->heard_us = g_get_monotonic_time ();

  if (b->opts.banner)
    out_str (b, "\r\nChibiOS/RT Shell\r\n");
  out_str (b, "ch> ");
  flush_out (b);

  while (!b->io_error && !b->want_exit && (stop == NULL || !g_atomic_int_get (stop)))
    {
      struct pollfd pfd = { fd, POLLIN, 0 };
      gboolean caught_up = tks_simboard_state_catch_up (b);
      int timeout_ms;
      int r;

      shell_input (b);
      if (b->out->len > 0)
        flush_out (b);
      if (client_idle (b))
        break;

      timeout_ms = !caught_up ? 0 : (int) MAX (1.0, MIN (20.0, 1000.0 / (ticks_per_us * 1e6)));
      r = poll (&pfd, 1, timeout_ms);
      if (r < 0)
        {
          if (errno == EINTR)
            continue;
          saved_errno = errno;
          break;
        }
      if (r > 0 && (pfd.revents & (POLLIN | POLLHUP | POLLERR)) != 0)
        {
          guint8 buf[512];
          ssize_t n = read (fd, buf, sizeof buf);

          if (n > 0)
            {
              g_byte_array_append (b->in, buf, (guint) n);
              b->heard_us = g_get_monotonic_time ();
              shell_input (b);
              record_step (b);
            }
          else if (n == 0)
            {
              break;   /* EOF */
            }
          else if (errno == EINTR || errno == EAGAIN)
            {
              continue;
            }
          else if (is_pty && errno == EIO)
            {
              /* Nobody has the pty open: wait for a reader. */
              g_usleep (20000);
            }
          else
            {
              saved_errno = errno;
              break;
            }
        }
    }
  if (b->recording)
    g_byte_array_set_size (b->out, 0);
  flush_out (b);
  b->fd = -1;
  link_reset (b);
  if (saved_errno != 0)
    {
      errno = saved_errno;
      return -1;
    }
  return 0;
}

/********************                  PUBLIC API                  ********************/

void
tks_simboard_options_init (TksSimboardOptions *opts)
{
  g_return_if_fail (opts != NULL);
  opts->seed = 1;
  opts->tick_hz = 1000;
  opts->log_size = 3000;
  opts->speed = 1.0;
  opts->banner = TRUE;
  opts->uptime_ms = 0;
  opts->packet_bytes = 256;
  opts->baud = 0;
  opts->workers = 0;
  opts->legacy_defects = FALSE;
  opts->events = TRUE;
  opts->legacy = FALSE;
  opts->systime_bits = 32;
  opts->idle_s = 0;
}

gboolean
tks_simboard_options_check (const TksSimboardOptions *opts, GError **error)
{
  g_return_val_if_fail (opts != NULL, FALSE);

  if (opts->tick_hz < 100 || opts->tick_hz > 100000)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Tick frequency %u Hz is out of range: use 100 to 100000 Hz", opts->tick_hz);
      return FALSE;
    }
  if (opts->systime_bits != 16 && opts->systime_bits != 32)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "A system time of %u bits is not simulated: use 16 or 32", opts->systime_bits);
      return FALSE;
    }
  if (opts->log_size < 16 || opts->log_size > TKS_SIMBOARD_MAX_LOG_SIZE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Log size %u is out of range: use 16 to %u records", opts->log_size,
                   (guint) TKS_SIMBOARD_MAX_LOG_SIZE);
      return FALSE;
    }
  if (opts->uptime_ms > 600000)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Uptime %u ms is out of range: use 0 to 600000 ms", opts->uptime_ms);
      return FALSE;
    }
  if (opts->baud != 0 && (opts->baud < 300 || opts->baud > 10000000))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Baud rate %u is out of range: use 300 to 10000000, or 0 for no limit",
                   opts->baud);
      return FALSE;
    }
  if (opts->packet_bytes > 65536)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Packet size %u is out of range: use 0 (whole replies) to 65536 bytes",
                   opts->packet_bytes);
      return FALSE;
    }
  if (opts->workers > SIM_MAX_WORKERS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%u workers is out of range: use 0 to %u", opts->workers,
                   (guint) SIM_MAX_WORKERS);
      return FALSE;
    }
  if (!(opts->speed > 0.0 && opts->speed <= 1000.0))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "Speed %g is out of range: use a factor above 0 and up to 1000", opts->speed);
      return FALSE;
    }
  return TRUE;
}

gboolean
tks_simboard_state_acquire (GError **error)
{
  if (!g_atomic_int_compare_and_exchange (&board_running, 0, 1))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           "A simulated board is already running in this process");
      return FALSE;
    }
  return TRUE;
}

void
tks_simboard_state_release (void)
{
  g_atomic_int_set (&board_running, 0);
}

int
tks_simboard_serve_fd (const TksSimboardOptions *opts, int fd)
{
  TksSimboardState *b;
  int r, saved;

  if (opts == NULL || fd < 0 || !tks_simboard_options_check (opts, NULL))
    {
      errno = EINVAL;
      return -1;
    }
  if (!tks_simboard_state_acquire (NULL))
    {
      errno = EBUSY;
      return -1;
    }
  b = tks_simboard_state_new (opts);
  r = tks_simboard_state_serve (b, fd, FALSE, NULL);
  saved = errno;
  tks_simboard_state_free (b);
  tks_simboard_state_release ();
  errno = saved;
  return r;
}

struct _TksSimboard
{
  TksSimboardState *board;
  GThread     *thread;
  int          fd;
  gint         stop;
};

static gpointer
board_thread (gpointer data)
{
  TksSimboard *self = data;

  tks_simboard_state_serve (self->board, self->fd, FALSE, &self->stop);
  return NULL;
}

TksSimboard *
tks_simboard_start (const TksSimboardOptions *opts, int fd, GError **error)
{
  TksSimboard *self;

  g_return_val_if_fail (opts != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (fd < 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           "The simulated board needs a connected file descriptor");
      return NULL;
    }
  if (!tks_simboard_options_check (opts, error))
    return NULL;
  if (!tks_simboard_state_acquire (error))
    return NULL;

  self = g_new0 (TksSimboard, 1);
  self->fd = fd;
  self->board = tks_simboard_state_new (opts);
  self->thread = g_thread_new ("tks-simboard", board_thread, self);
  return self;
}

void
tks_simboard_stop (TksSimboard *self)
{
  if (self == NULL)
    return;
  g_atomic_int_set (&self->stop, 1);
  g_thread_join (self->thread);
  tks_simboard_state_free (self->board);
  g_free (self);
  tks_simboard_state_release ();
}

gpointer
tks_simboard_start_demo (int fd, GError **error)
{
  TksSimboardOptions opts;

  tks_simboard_options_init (&opts);
  opts.uptime_ms = 10000;
  opts.events = g_strcmp0 (g_getenv ("TICKSCOPE_DEMO_EVENTS"), "0") != 0;
  /* With every interrupt recorded, 3000 slots hold a fifth of a second: the demo's log holds
   * a couple of seconds, as a board with a larger log would. */
  if (opts.events)
    opts.log_size = 32768;
  return tks_simboard_start (&opts, fd, error);
}

void
tks_simboard_stop_demo (gpointer board)
{
  tks_simboard_stop (board);
}
