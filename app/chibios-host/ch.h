/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Host stand-in for the subset of the ChibiOS/RT API that mcu-lib uses, with the layout of
 * RT 5.1 (ChibiOS 18.2): thread_t with prio, name, wabase, state, flags, statistics and the
 * extra fields from chconf.h; the registry; system locks with class checks; chprintf.
 *
 * It is not a kernel: tests and the simulated board decide which thread runs and when, and
 * call the ch_host_*() functions below, which run the kernel hooks as the kernel would.
 */
#ifndef CH_H
#define CH_H

#include "chtypes.h"
#include "chconf.h"

/* The system time's width, as the kernel's chtime.h sets it: 16 bits with
 * CH_CFG_ST_RESOLUTION 16 (a board in tick-less mode on a 16-bit timer), 64 with 64, else 32. */
#if defined(CH_CFG_ST_RESOLUTION) && (CH_CFG_ST_RESOLUTION == 16)
typedef uint16_t systime_t;
#elif defined(CH_CFG_ST_RESOLUTION) && (CH_CFG_ST_RESOLUTION == 64)
typedef uint64_t systime_t;
#else
typedef uint32_t systime_t;
#endif

#define _CHIBIOS_RT_
#define CH_KERNEL_STABLE   1
#define CH_KERNEL_VERSION  "5.1.0"
#define CH_KERNEL_MAJOR    5
#define CH_KERNEL_MINOR    1
#define CH_KERNEL_PATCH    0

#ifndef CH_CFG_USE_REGISTRY
#define CH_CFG_USE_REGISTRY TRUE
#endif
#ifndef CH_DBG_STATISTICS
#define CH_DBG_STATISTICS TRUE
#endif
#ifndef CH_CFG_THREAD_EXTRA_FIELDS
#define CH_CFG_THREAD_EXTRA_FIELDS
#endif
#ifndef CH_CFG_IRQ_PROLOGUE_HOOK
#define CH_CFG_IRQ_PROLOGUE_HOOK()
#endif
#ifndef CH_CFG_IRQ_EPILOGUE_HOOK
#define CH_CFG_IRQ_EPILOGUE_HOOK()
#endif
#ifndef CH_CFG_IDLE_ENTER_HOOK
#define CH_CFG_IDLE_ENTER_HOOK()
#endif
#ifndef CH_CFG_IDLE_LEAVE_HOOK
#define CH_CFG_IDLE_LEAVE_HOOK()
#endif
/* The kernel has no ready hook in this layout: the host's chconf.h may name one, as a board on
 * ChibiOS/RT 7 defines __trace_ready. */
#ifndef CH_HOST_READY_HOOK
#define CH_HOST_READY_HOOK(tp) ((void) 0)
#endif

#define IDLEPRIO ((tprio_t) 1)

/* Interrupt handlers, as ChibiOS writes them: the hooks see the handler's name in __func__. */
/* As in the kernel: the prologue hook runs before the kernel counts the handler
 * (__dbg_check_enter_isr()), the epilogue hook after it stopped counting it. */
extern int ch_host_isr_depth;
#define CH_IRQ_PROLOGUE()  CH_CFG_IRQ_PROLOGUE_HOOK(); ch_host_isr_depth++
#define CH_IRQ_EPILOGUE()  ch_host_isr_depth--; CH_CFG_IRQ_EPILOGUE_HOOK()

#define CH_DBG_STACK_FILL_VALUE 0x55

#define CH_STATE_READY      (tstate_t) 0
#define CH_STATE_CURRENT    (tstate_t) 1
#define CH_STATE_WTSEM      (tstate_t) 5
#define CH_STATE_SLEEPING   (tstate_t) 8
#define CH_STATE_WTEXIT     (tstate_t) 9
#define CH_STATE_WTMSG      (tstate_t) 14
#define CH_STATE_FINAL      (tstate_t) 15
#define CH_STATE_NAMES                                                     \
  "READY", "CURRENT", "WTSTART", "SUSPENDED", "QUEUED", "WTSEM", "WTMTX",  \
  "WTCOND", "SLEEPING", "WTEXIT", "WTOREVT", "WTANDEVT", "SNDMSGQ",        \
  "SNDMSG", "WTMSG", "FINAL"

#define CH_FLAG_MODE_MASK   (tmode_t) 3U
#define CH_FLAG_MODE_STATIC (tmode_t) 0U
#define CH_FLAG_MODE_HEAP   (tmode_t) 1U
#define CH_FLAG_MODE_MPOOL  (tmode_t) 2U
#define CH_FLAG_TERMINATE   (tmode_t) 4U

typedef struct
{
  rttime_t cumulative;
} time_measurement_t;

typedef struct ch_thread thread_t;

struct ch_thread
{
  tprio_t             prio;
  thread_t           *newer;
  thread_t           *older;
  const char         *name;
  stkalign_t         *wabase;
  tstate_t            state;
  tmode_t             flags;
  time_measurement_t  stats;
  CH_CFG_THREAD_EXTRA_FIELDS
};

typedef struct
{
  time_measurement_t m_crit_thd;
  time_measurement_t m_crit_isr;
} kernel_stats_t;

typedef struct
{
  kernel_stats_t kernel_stats;
} ch_system_t;

#ifdef __cplusplus
extern "C" {
#endif

extern ch_system_t ch;

void       chSysLock (void);
void       chSysUnlock (void);
/* Inline, as a port's lock from an interrupt handler is (a write of BASEPRI on Cortex-M). */
extern int ch_host_lock_depth;
#if defined(__GNUC__)
__attribute__((noreturn))
#endif
void       ch_host_lock_failed (const char *func);

/* CH_DBG_SYSTEM_STATE_CHECK: when set, chSysLockFromISR() outside a handler the kernel
 * counts halts, as the kernel's does (SV#6). */
extern int ch_host_state_check;

/* The port's lock from an interrupt handler (what chSysLockFromISR() takes, without the
 * kernel's state checks). The stand-in checks that it is not taken twice; built with
 * CH_HOST_PORT_RELEASE (the cost benchmarks), it is what a port's lock is without debug
 * checks: one write (of BASEPRI on Cortex-M), which the compiler keeps in place. */
#ifdef CH_HOST_PORT_RELEASE
static inline void
port_lock_from_isr (void)
{
  ch_host_lock_depth = 1;
  __asm__ __volatile__ ("" ::: "memory");
}

static inline void
port_unlock_from_isr (void)
{
  __asm__ __volatile__ ("" ::: "memory");
  ch_host_lock_depth = 0;
}
#else
static inline void
port_lock_from_isr (void)
{
  if (ch_host_lock_depth != 0)
    ch_host_lock_failed (__func__);
  ch_host_lock_depth = 1;
}

static inline void
port_unlock_from_isr (void)
{
  if (ch_host_lock_depth != 1)
    ch_host_lock_failed (__func__);
  ch_host_lock_depth = 0;
}
#endif

static inline void
chSysLockFromISR (void)
{
  port_lock_from_isr ();
  if (ch_host_state_check != 0 && ch_host_isr_depth <= 0)
    ch_host_lock_failed (__func__);
}

static inline void
chSysUnlockFromISR (void)
{
  if (ch_host_state_check != 0 && ch_host_isr_depth <= 0)
    ch_host_lock_failed (__func__);
  port_unlock_from_isr ();
}
void       ch_host_check_class_i (const char *func);
#define    chDbgCheckClassI() ch_host_check_class_i (__func__)
thread_t  *chThdGetSelfX (void);
thread_t  *chRegFirstThread (void);
thread_t  *chRegNextThread (thread_t *tp);

/* Host control (tests and the simulated board only): the time in 32 bits, which a 16-bit
 * system time reads modulo 2^16. */
extern uint32_t ch_host_time;

/* Inline, as in the kernel (a read of the system time counter). */
static inline systime_t
chVTGetSystemTimeX (void)
{
  return (systime_t) ch_host_time;
}

/* Milliseconds to ticks, rounded up as the kernel does. */
#define TIME_MS2I(ms) ((uint32_t) (((uint64_t) (ms) * (uint64_t) (CH_CFG_ST_FREQUENCY) + 999U) / 1000U))

/* The realtime counter (the cycle counter of a Cortex-M), set by the host. */
extern rtcnt_t ch_host_counter;

static inline rtcnt_t
chSysGetRealtimeCounterX (void)
{
  return ch_host_counter;
}

void       ch_host_reset (void);
int        ch_host_is_locked (void);
/* Registers @tp (newest in the registry) and runs the thread init hook. */
void       ch_host_thread_init (thread_t *tp, const char *name, tprio_t prio, tmode_t mode);
/* Runs the exit hook of @tp (locked), marks it FINAL and removes it from the registry. */
void       ch_host_thread_exit (thread_t *tp);
/* Runs the context switch hook (locked) from the current thread to @ntp, which becomes
 * current. The first call only sets the current thread when none is set. */
void       ch_host_switch (thread_t *ntp);
thread_t  *ch_host_current (void);
/* Runs the ready hook of @tp (locked) and marks it ready: the thread is woken up. */
void       ch_host_ready (thread_t *tp);
/* Makes @tp current without running the hook: a switch between threads the log ignores. */
void       ch_host_set_current (thread_t *tp);

#ifdef __cplusplus
}
#endif

#endif /* CH_H */
