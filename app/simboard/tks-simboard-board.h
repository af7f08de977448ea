/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The simulated board's state, shared by the files that make it: the scheduler and its
 * workload (tks-simboard.c), the shell (tks-simboard-shell.c), the link it serves
 * (tks-simboard-serve.c) and its options (tks-simboard-options.c). */
#pragma once

#include <glib.h>

#include "ch.h"
#include "chprintf.h"

#include "tks-simboard.h"
#include "tks-simboard-private.h"
#include "tks-simboard-legacy.h"
#include "tks-simboard-mcu.h"

G_BEGIN_DECLS

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

/* The scheduler (tks-simboard.c) */
/* Runs the board one tick: its interrupts, its threads, its shell's command. */
void tks_sim_tick        (TksSimboardState *b);
/* The shell printed @bytes: the serial interrupt sends them, a chunk at a time. */
void tks_sim_serial_send (TksSimboardState *b,
                          guint64           bytes);

/* The shell (tks-simboard-shell.c) */
/* What the shell prints goes through this stream (tks_sim_stream_vmt). */
typedef struct
{
  BaseSequentialStream base;
  TksSimboardState *board;
} BoardStream;

extern const struct BaseSequentialStreamVMT tks_sim_stream_vmt;

/* The shell thread runs the pending command line. */
void           tks_sim_run_shell_command (TksSimboardState *b);
/* A step of threads_record, while it runs: the host's bytes to the library, its stream out. */
void           tks_sim_record_step       (TksSimboardState *b);
/* The host's bytes, edited into the command line as the ChibiOS shell does. */
void           tks_sim_shell_input       (TksSimboardState *b);
void           tks_sim_out_str           (TksSimboardState *b,
                                          const char       *s);
TksMcuCommand *tks_sim_make_commands     (const TksSimboardOptions *opts,
                                          const TksMcuLib          *mcu);

/* The link (tks-simboard-serve.c) */
/* Sends the output pending, at the link's pace. */
void tks_sim_flush_out (TksSimboardState *b);

G_END_DECLS
