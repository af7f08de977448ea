/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "tks-simboard.h"

G_BEGIN_DECLS

/* Room of the board's log: --log-size may be anything from 16 up to this. */
#define TKS_SIMBOARD_MAX_LOG_SIZE 65536

/* The board itself (threads, scheduler, shell state), without a thread of its own. */
typedef struct _TksSimboardState TksSimboardState;

/* One board per process: take the right to run one before tks_simboard_state_new(). */
gboolean          tks_simboard_state_acquire (GError                  **error);
void              tks_simboard_state_release (void);

TksSimboardState *tks_simboard_state_new     (const TksSimboardOptions *opts);
void              tks_simboard_state_free    (TksSimboardState         *board);
guint64           tks_simboard_state_get_tick (TksSimboardState        *board);
/* Runs @ticks ticks of the workload at once (no shell, no real time). */
void              tks_simboard_state_advance (TksSimboardState         *board,
                                              guint64                   ticks);
/* Runs one shell command line at once, as the shell thread would, and returns its reply
 * (without the echo and the prompt). */
char             *tks_simboard_state_run_command (TksSimboardState     *board,
                                                  const char           *line);
/* threads_record (@events: "threads_record events") for @ticks of the board, the library
 * polled every @poll_ticks with a keep-alive byte, then stopped: the stream's text (its header
 * to its end line, without the echo and the prompt). */
char             *tks_simboard_state_record      (TksSimboardState     *board,
                                                  gboolean              events,
                                                  guint64               ticks,
                                                  guint                 poll_ticks);
/* tks_simboard_state_run_command(), with the board running a tick every @writes_per_tick
 * writes of the reply: threads run, are created and exit while the reply is printed, as on
 * a board whose shell waits for a slow link. Not while the shell is served. */
char             *tks_simboard_state_run_command_slowly (TksSimboardState *board,
                                                         const char       *line,
                                                         guint             writes_per_tick);
/* Runs the board up to the tick real time has reached since it was created (the board's
 * clock runs from its start, whether or not the shell is served), a bounded number of ticks
 * per call; TRUE when it has caught up. */
gboolean          tks_simboard_state_catch_up (TksSimboardState        *board);

/*
 * What the scheduler really did, as it does it: the ground truth a rebuilt timeline is
 * checked against. Times are in ticks at the clock's full resolution: a tick is
 * TKS_SIMBOARD_CYCLES_PER_TICK cycles, so tick T, cycle c is T + c / 1000. Several events can
 * happen at the same cycle (a thread that blocks before it does any work): @seq orders them.
 */
#define TKS_SIMBOARD_CYCLES_PER_TICK 1000

typedef enum
{
  TKS_TRUTH_CREATE, /* the thread was created at @begin (= @end)                           */
  TKS_TRUTH_RUN,    /* the thread held the CPU from @begin to @end                          */
  TKS_TRUTH_EXIT,   /* the thread exited at @begin (= @end); its last run ends there        */
  TKS_TRUTH_RUNNING, /* the run going on when the truth ended (the board stopped)          */
  /* The events beyond the switches (the board's hardware and its workload's markers): */
  TKS_TRUTH_IRQ,    /* the handler @name ran from @begin (enter) to @end (leave), @depth 1
                       when it interrupted a thread, 2 when it interrupted another handler  */
  TKS_TRUTH_WAKEUP, /* the thread was made ready at @begin and switched in at @end; @waker
                       made it ready, @causes held the CPU meanwhile                        */
  TKS_TRUTH_MARKER, /* the marker @name with @value, at @begin (= @end)                     */
  TKS_TRUTH_STATE,  /* the state @name ("channel: state") from @begin to @end, @depth 1 for
                       the outermost state of its channel                                    */
  TKS_TRUTH_SLEEP,  /* the CPU slept (the idle thread ran) from @begin to @end; @name: the
                       handler that ran first meanwhile, "" when none did                   */
} TksTruthKind;

/* The board's realtime counter: the cycle counter of a 168 MHz core, 32 bits, wrapping every
 * 25.6 s whatever the tick frequency. */
#define TKS_SIMBOARD_COUNTER_HZ 168000000U

/* What held the CPU while a thread waited to run, from the scheduler's own bookkeeping: a
 * handler (its own cycles, the handlers nested in it apart) or a thread. */
typedef struct
{
  const char  *name;        /* the handler's or the thread's */
  guint        thread;      /* the thread's creation order; G_MAXUINT: a handler */
  int          priority;
  gboolean     logged;
  guint64      cycles;      /* the CPU cycles it held (TKS_SIMBOARD_CYCLES_PER_TICK a tick) */
} TksTruthCause;

typedef struct
{
  TksTruthKind kind;
  guint        thread;      /* creation order since boot, 0-based (main is 0, idle 1); for
                               the kinds that are not a thread's (irq, marker, state, sleep):
                               G_MAXUINT */
  const char  *name;
  int          priority;
  gboolean     logged;      /* created to be logged */
  gboolean     dynamic;     /* created from the heap: the legacy threads_list calls it "Exited
                               dynamic thread" after its exit */
  double       begin;
  double       end;
  guint64      begin_seq;   /* order of the switch (or creation, exit) at @begin */
  guint64      end_seq;     /* order of the switch or exit at @end */
  guint        depth;       /* TKS_TRUTH_IRQ, TKS_TRUTH_STATE: nesting depth, from 1 */
  guint32      value;       /* TKS_TRUTH_MARKER: the marker's value */
  /* TKS_TRUTH_WAKEUP: */
  const char  *waker;       /* what made it ready: the handler under way, else the thread
                               running */
  guint        waker_thread; /* its creation order; G_MAXUINT: a handler */
  int          waker_priority;
  const TksTruthCause *causes; /* what held the CPU from @begin to @end, in the order each
                               first did; their cycles add up to the wait */
  guint        n_causes;
} TksTruthEvent;

typedef void (*TksTruthFunc) (const TksTruthEvent *event,
                              gpointer             user_data);

/* tks_simboard_state_new(), with @func called with every event of the board's life, from
 * the creation of its first thread on. */
TksSimboardState *tks_simboard_state_new_traced (const TksSimboardOptions *opts,
                                                 TksTruthFunc              func,
                                                 gpointer                  user_data);
/* The run going on now: fills @event (kind TKS_TRUTH_RUN, @end the present time,
 * @end_seq the next sequence number). */
void              tks_simboard_state_get_truth_running (TksSimboardState *board,
                                                        TksTruthEvent    *event);
/* Closes the truth: reports the run going on now as kind TKS_TRUTH_RUNNING. */
void              tks_simboard_state_end_truth (TksSimboardState *board);

/* The truth as CSV, written as it comes and flushed at least every 50 ms of real time, so a
 * reader of the file gets it while the board runs (see tickscope-simboard --help). */
typedef struct _TksTruthWriter TksTruthWriter;

TksTruthWriter   *tks_truth_writer_open      (const char               *path,
                                              GError                  **error);
/* A TksTruthFunc: @user_data is the writer. */
void              tks_truth_writer_write     (const TksTruthEvent      *event,
                                              gpointer                  user_data);
gboolean          tks_truth_writer_close     (TksTruthWriter           *writer,
                                              GError                  **error);

/* Serves the shell on @fd in real time until EOF, "exit", an error or *@stop. With @is_pty,
 * a pty without a reader is waited for and output to it may be dropped. */
int               tks_simboard_state_serve   (TksSimboardState         *board,
                                              int                       fd,
                                              gboolean                  is_pty,
                                              const gint               *stop);

G_END_DECLS
