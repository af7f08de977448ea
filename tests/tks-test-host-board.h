/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * A board's scheduler scripted on the host stand-in (app/chibios-host), for the tests that
 * read back what the board library logs: the clock, switches and wake-ups of threads[], and
 * interrupt handlers that run @inside and leave at the clock given to irq().
 */

#include <string.h>

#include "ch.h"
#include "threads_utilities.h"

#define TKS_HOST_MAX_THREADS 8

static thread_t threads[TKS_HOST_MAX_THREADS];
static void (*inside) (void);
static systime_t leave_tick[2];
static rtcnt_t leave_counter[2];
static int depth;

static inline void
at (systime_t tick,
    rtcnt_t   counter)
{
  ch_host_time = tick;
  ch_host_counter = counter;
}

static inline void
sw (int       i,
    systime_t tick,
    rtcnt_t   counter)
{
  at (tick, counter);
  ch_host_switch (&threads[i]);
}

static inline void
ready (int       i,
       systime_t tick,
       rtcnt_t   counter)
{
  at (tick, counter);
  ch_host_ready (&threads[i]);
}

static inline void
SysTick_Handler (void)
{
  CH_IRQ_PROLOGUE ();
  at (leave_tick[depth - 1], leave_counter[depth - 1]);
  CH_IRQ_EPILOGUE ();
}

static inline void
USART1_IRQHandler (void)
{
  CH_IRQ_PROLOGUE ();
  if (inside != NULL)
    inside ();
  at (leave_tick[depth - 1], leave_counter[depth - 1]);
  CH_IRQ_EPILOGUE ();
}

/* Runs @handler from the clock @tick, @counter to @leave, @leave_at (handlers nest). */
static inline void
irq (void      (*handler) (void),
     systime_t tick,
     rtcnt_t   counter,
     systime_t leave,
     rtcnt_t   leave_at)
{
  int d = depth++;

  leave_tick[d] = leave;
  leave_counter[d] = leave_at;
  at (tick, counter);
  handler ();
  depth--;
}

/* A kernel and a library just started, no thread yet (the test creates its own). */
static inline void
host_boot (void)
{
  ch_host_reset ();
  tuResetState ();
  memset (threads, 0, sizeof threads);
  inside = NULL;
}
