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

/**
 * TksCauseKind:
 * @TKS_CAUSE_HANDLER: a handler ran (its own time: the handlers nested in it are apart)
 * @TKS_CAUSE_HIGHER: a thread of a higher priority ran
 * @TKS_CAUSE_EQUAL: a thread of the same priority ran (it was ready first)
 * @TKS_CAUSE_LOWER: a thread of a lower priority held the CPU: the kernel's own work on its
 *   behalf (the switch itself), a critical section, a lock
 * @TKS_CAUSE_OTHER: the log does not say what ran (before its first switch, a switch to no
 *   thread), or the thread's priority is not known
 *
 * What held the CPU during part of a wake-up's latency.
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

/**
 * TksCause:
 * @kind: a #TksCauseKind
 * @id: %TKS_CAUSE_HANDLER: the handler's name id; HIGHER, EQUAL, LOWER: the thread's index;
 *   %TKS_CAUSE_OTHER: %G_MAXUINT
 * @name: the handler's or the thread's name; %TKS_CAUSE_OTHER: %NULL
 * @time: its part of the latency, in time units of #TksTime's time
 * @count: the stretches it ran (a handler's runs, a thread's runs)
 *
 * One thing that held the CPU while a woken thread waited.
 */
typedef struct
{
  guint32     kind;    /* TksCauseKind */
  guint       id;      /* HANDLER: the handler's name id; HIGHER, EQUAL, LOWER: the thread's
                          index; OTHER: G_MAXUINT */
  const char *name;    /* the handler's or the thread's name; OTHER: NULL */
  gint64      time;    /* time units of TksTime.time */
  guint       count;   /* the stretches it ran (a handler's runs, a thread's runs) */
} TksCause;

/**
 * TksLatencyBreakdown:
 * @wakeup: the wake-up explained
 * @latency: its latency (= @handlers + @higher + @equal + @rest)
 * @handlers: the time handlers ran
 * @higher: the time threads of a higher priority ran
 * @equal: the time threads of the same priority ran
 * @rest: %TKS_CAUSE_LOWER and %TKS_CAUSE_OTHER: not explained by what ran
 * @causes: (array length=n_causes): the largest first (ties: in the order they first ran)
 * @n_causes: the number of @causes
 *
 * A wake-up's latency split into what held the CPU meanwhile (tks_latency_explain()).
 */
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

/**
 * tks_latency_explain:
 * @events: a capture's events
 * @wakeup: one of tks_events_get_wakeups()
 *
 * Splits the latency of @wakeup into what held the CPU meanwhile.
 *
 * Returns: (transfer full) (nullable): the breakdown (free with
 *   tks_latency_breakdown_free()), %NULL when the wake-up is open (never switched in)
 */
TksLatencyBreakdown *tks_latency_explain          (TksEvents                 *events,
                                                   const TksWakeup           *wakeup);
/**
 * tks_latency_breakdown_free:
 * @breakdown: (nullable): a breakdown
 *
 * Frees @breakdown and its causes.
 */
void                 tks_latency_breakdown_free   (TksLatencyBreakdown       *breakdown);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksLatencyBreakdown, tks_latency_breakdown_free)

/**
 * tks_cause_kind_label:
 * @kind: a kind of cause
 *
 * The kind of a cause in words: "handler", "higher priority", "same priority", "lower
 * priority", "not known".
 *
 * Returns: (transfer none): the label (not translated: it is what the CLI prints)
 */
const char          *tks_cause_kind_label         (TksCauseKind               kind);

/**
 * tks_latency_worst:
 * @events: a capture's events
 * @thread: a thread's index, %G_MAXUINT for every thread's
 * @n: the most wake-ups to return
 * @n_found: (out): how many are returned
 *
 * The closed wake-ups of @thread with the longest latencies, the longest first (ties: the
 * earliest first).
 *
 * Returns: (transfer full) (array length=n_found): indices into tks_events_get_wakeups();
 *   free with g_free()
 */
guint               *tks_latency_worst            (TksEvents                 *events,
                                                   guint                      thread,
                                                   guint                      n,
                                                   guint                     *n_found);
/**
 * tks_latency_nearest:
 * @events: a capture's events
 * @thread: a thread's index, %G_MAXUINT for every thread's
 * @pos: a position (ticks, on the runs' axis)
 *
 * The closed wake-up of @thread whose span (made ready to switched in) is nearest @pos.
 *
 * Returns: its index into tks_events_get_wakeups(), %G_MAXUINT when there is none
 */
guint                tks_latency_nearest          (TksEvents                 *events,
                                                   guint                      thread,
                                                   double                     pos);

/**
 * tks_latency_format:
 * @events: the capture's events
 * @breakdown: a breakdown of tks_latency_explain()
 * @indent: what each line begins with
 *
 * The breakdown as text lines: the latency and its four parts, then a line per cause, the
 * largest first ("      3.2 µs  handler          SysTick_Handler, ran 1 time").
 *
 * Returns: (transfer full): the lines, each ending in a newline; free with g_free()
 */
char                *tks_latency_format           (TksEvents                 *events,
                                                   const TksLatencyBreakdown *breakdown,
                                                   const char                *indent);

G_END_DECLS
