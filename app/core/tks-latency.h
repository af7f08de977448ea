/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-events.h"

G_BEGIN_DECLS

/*
 * Why a wake-up was late: its latency (made ready to switched in) split into what held the
 * CPU meanwhile, read from the log's entries between its Ready and its switch-in. Every
 * stretch between two consecutive entries goes to what held the CPU after the first of them
 * (tks_events_get_cpu_after()): the innermost handler under way, else the running thread. The
 * parts are sums of differences of the exact times (TksTime.time), so they add up to the
 * latency exactly. Thread priorities are the capture's (as the threads list gave them).
 */

typedef enum
{
  TKS_CAUSE_HANDLER, /* a handler ran (its own time: the handlers nested in it are apart) */
  TKS_CAUSE_HIGHER,  /* a thread of a higher priority ran */
  TKS_CAUSE_EQUAL,   /* a thread of the same priority ran (it was ready first) */
  TKS_CAUSE_LOWER,   /* a thread of a lower priority held the CPU: the kernel's own work on
                        its behalf (the switch itself), a critical section, a lock */
  TKS_CAUSE_OTHER,   /* the log does not say what ran (before its first switch, a switch to
                        no thread), or the thread's priority is not known */
} TksCauseKind;

typedef struct
{
  guint32     kind;    /* TksCauseKind */
  guint       id;      /* HANDLER: the handler's name id; HIGHER, EQUAL, LOWER: the thread's
                          index; OTHER: G_MAXUINT */
  const char *name;    /* the handler's or the thread's name; OTHER: NULL */
  gint64      time;    /* time units of TksTime.time */
  guint       count;   /* the stretches it ran (a handler's runs, a thread's runs) */
} TksCause;

typedef struct
{
  TksWakeup  wakeup;
  gint64     latency;  /* wakeup.latency: = handlers + higher + equal + rest */
  gint64     handlers;
  gint64     higher;
  gint64     equal;
  gint64     rest;     /* LOWER and OTHER: not explained by what ran */
  TksCause  *causes;   /* the largest first (ties: in the order they first ran) */
  guint      n_causes;
} TksLatencyBreakdown;

/* The breakdown of @wakeup (one of tks_events_get_wakeups()); NULL when it is open (never
 * switched in). Free with tks_latency_breakdown_free(). */
TksLatencyBreakdown *tks_latency_explain          (TksEvents                 *events,
                                                   const TksWakeup           *wakeup);
void                 tks_latency_breakdown_free   (TksLatencyBreakdown       *breakdown);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksLatencyBreakdown, tks_latency_breakdown_free)

/* The kind of a cause in words: "handler", "higher priority", "same priority", "lower
 * priority", "not known". */
const char          *tks_cause_kind_label         (TksCauseKind               kind);

/* The indices (into tks_events_get_wakeups()) of the @n closed wake-ups of @thread (every
 * thread's: G_MAXUINT) with the longest latencies, the longest first (ties: the earliest
 * first); *@n_found of them. */
guint               *tks_latency_worst            (TksEvents                 *events,
                                                   guint                      thread,
                                                   guint                      n,
                                                   guint                     *n_found);
/* The index of the closed wake-up of @thread (every thread's: G_MAXUINT) whose span (made
 * ready to switched in) is nearest @pos (ticks, on the runs' axis); G_MAXUINT when none. */
guint                tks_latency_nearest          (TksEvents                 *events,
                                                   guint                      thread,
                                                   double                     pos);

/* The breakdown as text lines, indented by @indent: the latency and its four parts, then a
 * line per cause, the largest first ("      3.2 µs  handler          SysTick_Handler, ran 1
 * time"). */
char                *tks_latency_format           (TksEvents                 *events,
                                                   const TksLatencyBreakdown *breakdown,
                                                   const char                *indent);

G_END_DECLS
