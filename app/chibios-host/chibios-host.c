/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch.h"
#include "chprintf.h"

ch_system_t ch;
uint32_t ch_host_time;
rtcnt_t ch_host_counter;

int ch_host_lock_depth;
int ch_host_isr_depth;
int ch_host_state_check;
#define lock_depth ch_host_lock_depth
static thread_t *current;
static thread_t *reg_oldest;
static thread_t *reg_newest;

#if defined(__GNUC__)
__attribute__((noreturn))
#endif
static void
fail (const char *what, const char *func)
{
  fprintf (stderr, "chibios-host: %s in %s\n", what, func);
  abort ();
}

void
chSysLock (void)
{
  if (lock_depth != 0)
    fail ("chSysLock() while locked", __func__);
  lock_depth = 1;
}

void
chSysUnlock (void)
{
  if (lock_depth != 1)
    fail ("chSysUnlock() while not locked", __func__);
  lock_depth = 0;
}

void
ch_host_lock_failed (const char *func)
{
  fail ("wrong lock state", func);
}

void
ch_host_check_class_i (const char *func)
{
  if (lock_depth == 0)
    fail ("I-class function called without the system lock", func);
}

thread_t *
chThdGetSelfX (void)
{
  return current;
}

thread_t *
chRegFirstThread (void)
{
  return reg_oldest;
}

thread_t *
chRegNextThread (thread_t *tp)
{
  return tp->newer;
}

int
ch_host_is_locked (void)
{
  return lock_depth != 0;
}

thread_t *
ch_host_current (void)
{
  return current;
}

void
ch_host_set_current (thread_t *tp)
{
  if (current != NULL && current->state == CH_STATE_CURRENT)
    current->state = CH_STATE_READY;
  tp->state = CH_STATE_CURRENT;
  current = tp;
}

void
ch_host_reset (void)
{
  lock_depth = 0;
  ch_host_isr_depth = 0;
  ch_host_state_check = 0;
  current = NULL;
  reg_oldest = NULL;
  reg_newest = NULL;
  ch_host_time = 0;
  ch_host_counter = 0;
  ch.kernel_stats.m_crit_thd.cumulative = 0;
  ch.kernel_stats.m_crit_isr.cumulative = 0;
}

void
ch_host_thread_init (thread_t *tp, const char *name, tprio_t prio, tmode_t mode)
{
  tp->prio = prio;
  tp->name = name;
  tp->flags = mode;
  tp->state = CH_STATE_READY;
  tp->stats.cumulative = 0;
  tp->newer = NULL;
  tp->older = reg_newest;
  if (reg_newest != NULL)
    reg_newest->newer = tp;
  else
    reg_oldest = tp;
  reg_newest = tp;

  chSysLock ();
  CH_CFG_THREAD_INIT_HOOK (tp);
  chSysUnlock ();
}

void
ch_host_thread_exit (thread_t *tp)
{
  chSysLock ();
  CH_CFG_THREAD_EXIT_HOOK (tp);
  chSysUnlock ();

  tp->state = CH_STATE_FINAL;
  if (tp->older != NULL)
    tp->older->newer = tp->newer;
  else
    reg_oldest = tp->newer;
  if (tp->newer != NULL)
    tp->newer->older = tp->older;
  else
    reg_newest = tp->older;
  tp->newer = NULL;
  tp->older = NULL;
}

void
ch_host_ready (thread_t *tp)
{
  chSysLock ();
  CH_HOST_READY_HOOK (tp);
  chSysUnlock ();
  if (tp->state != CH_STATE_CURRENT)
    tp->state = CH_STATE_READY;
}

void
ch_host_switch (thread_t *ntp)
{
  thread_t *otp = current;

  if (otp != NULL)
    {
      chSysLock ();
      /* As the kernel's scheduler: leaving and entering the idle thread, then the switch. */
      if (otp->prio == IDLEPRIO)
        {
          CH_CFG_IDLE_LEAVE_HOOK ();
        }
      if (ntp->prio == IDLEPRIO)
        {
          CH_CFG_IDLE_ENTER_HOOK ();
        }
      CH_CFG_CONTEXT_SWITCH_HOOK (ntp, otp);
      chSysUnlock ();
      if (otp->state == CH_STATE_CURRENT)
        otp->state = CH_STATE_READY;
    }
  ntp->state = CH_STATE_CURRENT;
  current = ntp;
}

/* ChibiOS's chprintf() prints hexadecimal digits in upper case whatever the conversion
 * letter: turn every %x into %X. */
static const char *
upper_hex_format (const char *fmt, char *buf, size_t size)
{
  size_t i = 0;
  const char *p = fmt;

  while (*p != '\0' && i + 1 < size)
    {
      buf[i++] = *p;
      if (*p++ != '%')
        continue;
      while (*p != '\0' && strchr ("-+ #0123456789.lhzjt", *p) != NULL && i + 1 < size)
        buf[i++] = *p++;
      if (*p == 'x' && i + 1 < size)
        {
          buf[i++] = 'X';
          p++;
        }
    }
  if (*p != '\0')
    return fmt;
  buf[i] = '\0';
  return buf;
}

int
chsnprintf (char *str, size_t size, const char *fmt, ...)
{
  char fmt_buf[256];
  va_list ap;
  int n;

  fmt = upper_hex_format (fmt, fmt_buf, sizeof fmt_buf);
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
  va_start (ap, fmt);
  n = vsnprintf (str, size, fmt, ap);
  va_end (ap);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
  return n;
}

int
chprintf (BaseSequentialStream *chp, const char *fmt, ...)
{
  char stack_buf[256];
  char fmt_buf[256];
  char *buf = stack_buf;
  va_list ap;
  int n;

  fmt = upper_hex_format (fmt, fmt_buf, sizeof fmt_buf);
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
  va_start (ap, fmt);
  n = vsnprintf (stack_buf, sizeof stack_buf, fmt, ap);
  va_end (ap);
  if (n < 0)
    return 0;
  if ((size_t) n >= sizeof stack_buf)
    {
      buf = malloc ((size_t) n + 1);
      if (buf == NULL)
        return 0;
      va_start (ap, fmt);
      vsnprintf (buf, (size_t) n + 1, fmt, ap);
      va_end (ap);
    }
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
  chp->vmt->write (chp, (const uint8_t *) buf, (size_t) n);
  if (buf != stack_buf)
    free (buf);
  return n;
}
