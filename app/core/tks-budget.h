/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-capture.h"

G_BEGIN_DECLS

/*
 * Timing budgets checked against a capture (tickscope-cli check; docs/guide.md). A budgets
 * file is a key file (GKeyFile): one group per thread or interrupt handler, named as the
 * capture names it, and [capture]:
 *
 *   [sensor]               a thread
 *   max-latency = 200us    its longest wake-up latency (made ready -> running; needs events)
 *   max-share = 20%        its largest share of any window (share-window, default 1 s)
 *   max-run = 2ms          its longest run
 *   period = 10ms          its mean activation interval is within max-jitter of it (1 %
 *                          of it without max-jitter)
 *   max-jitter = 500us     every activation interval is within this of period (of the mean
 *                          interval without period)
 *   [USART1]               a handler: max-duration (its longest call), max-share
 *   [capture]              max-dropped = 0 (entries the board could not log or send),
 *                          share-window = 1s
 *
 * Times take a unit (ns, us, ms, s), shares %, counts none. Each budget is one test: held,
 * violated (with its worst moment), or not measurable in this capture (no data).
 */

/**
 * TksBudgetKind:
 * @TKS_BUDGET_MAX_LATENCY: max-latency: a thread's longest wake-up latency
 * @TKS_BUDGET_MAX_SHARE: max-share: the largest share of any window
 * @TKS_BUDGET_MAX_RUN: max-run: a thread's longest run
 * @TKS_BUDGET_PERIOD: period: a thread's mean activation interval
 * @TKS_BUDGET_MAX_JITTER: max-jitter: how far any activation interval is from the period
 * @TKS_BUDGET_MAX_DURATION: max-duration: a handler's longest call
 * @TKS_BUDGET_MAX_DROPPED: max-dropped: entries the board could not log or send
 * @TKS_N_BUDGET_KINDS: the number of kinds
 *
 * The keys of a budgets file.
 */
typedef enum
{
  TKS_BUDGET_MAX_LATENCY,
  TKS_BUDGET_MAX_SHARE,
  TKS_BUDGET_MAX_RUN,
  TKS_BUDGET_PERIOD,
  TKS_BUDGET_MAX_JITTER,
  TKS_BUDGET_MAX_DURATION,
  TKS_BUDGET_MAX_DROPPED,
  TKS_N_BUDGET_KINDS
} TksBudgetKind;

/**
 * TksBudgetVerdict:
 * @TKS_BUDGET_HOLDS: the capture keeps the budget
 * @TKS_BUDGET_VIOLATED: it does not (the budget says its worst moment)
 * @TKS_BUDGET_NO_DATA: it cannot be measured in this capture
 *
 * What tks_budgets_check() found for a budget.
 */
typedef enum
{
  TKS_BUDGET_HOLDS,
  TKS_BUDGET_VIOLATED,
  TKS_BUDGET_NO_DATA,
} TksBudgetVerdict;

/**
 * TksQuantityKind:
 * @TKS_QUANTITY_TIME: a time, in seconds
 * @TKS_QUANTITY_PERCENT: a share, in %
 * @TKS_QUANTITY_COUNT: a count, without a unit
 *
 * What tks_quantity_parse() reads.
 */
typedef enum
{
  TKS_QUANTITY_TIME,     /* seconds */
  TKS_QUANTITY_PERCENT,
  TKS_QUANTITY_COUNT,
} TksQuantityKind;

/**
 * TksBudget:
 * @subject: the group: a thread's or a handler's name, or "capture"
 * @subject_kind: a #TksSubjectKind, or %G_MAXUINT for [capture]
 * @kind: a #TksBudgetKind
 * @line: the line of its key in the budgets file
 * @limit_text: the limit as written
 * @limit: the limit in seconds, percent or a count
 * @unit: the unit written ("ms", "%", "" for a count)
 * @unit_scale: seconds per unit written (1 for % and counts)
 * @verdict: after tks_budgets_check(): a #TksBudgetVerdict
 * @measured: the measure, in the unit of @limit; NAN: no data
 * @at: the worst moment in ticks (a share's: the middle of the busiest window), NAN when none
 * @n_over: instances beyond the limit
 * @n_total: instances measured
 * @note: why no data, or how many instances were over
 *
 * One budget of a budgets file, and what tks_budgets_check() found.
 */
typedef struct
{
  char   *subject;    /* the group: a thread's or a handler's name, or "capture" */
  guint   subject_kind; /* TksSubjectKind, or G_MAXUINT for [capture] */
  guint   kind;       /* TksBudgetKind */
  guint   line;       /* of the key in the budgets file */
  char   *limit_text; /* as written */
  double  limit;      /* seconds, percent or count */
  const char *unit;   /* the unit written ("ms", "%", "" for a count) */
  double  unit_scale; /* seconds per unit written (1 for % and counts) */
  /* after tks_budgets_check(): */
  guint   verdict;    /* TksBudgetVerdict */
  double  measured;   /* same unit as limit; NAN: no data */
  double  at;         /* ticks: the worst moment (a share's: the middle of the busiest window),
                       NAN when none */
  guint   n_over;     /* instances beyond the limit */
  guint   n_total;    /* instances measured */
  char   *note;       /* why no data, or how many instances were over */
} TksBudget;

/**
 * TksBudgets:
 *
 * The budgets of a budgets file, read against a capture.
 */
typedef struct _TksBudgets TksBudgets;

/**
 * tks_budget_kind_to_string:
 * @kind: a kind of budget
 *
 * The name of a budget's key ("max-latency").
 *
 * Returns: (transfer none): the key
 */
const char *tks_budget_kind_to_string (TksBudgetKind kind);

/**
 * tks_quantity_parse:
 * @text: a number with a unit of @kind: "250us", "1.5 ms", "2s", "40%", "3"
 * @kind: what @text should be
 * @value: (out): the number in seconds, percent or a count
 * @unit: (out) (transfer none): the unit written ("ms", "%", "" for a count)
 * @unit_scale: (out): seconds per unit written (1 for % and counts)
 * @error: return location for a #GError, or %NULL
 *
 * Reads a budget's limit. Fails with %TKS_ERROR_PARSE (a sentence, without a line) when @text
 * is not one, or is negative.
 *
 * Returns: %TRUE when @text is a quantity of @kind
 */
gboolean    tks_quantity_parse        (const char      *text,
                                       TksQuantityKind  kind,
                                       double          *value,
                                       const char     **unit,
                                       double          *unit_scale,
                                       GError         **error);

/**
 * tks_time_offset_parse:
 * @text: "1.25s", "-300ms", "420us"; a number alone is seconds
 * @seconds: (out): the time in seconds
 * @error: return location for a #GError, or %NULL
 *
 * Reads a time from the time ruler's origin, as tickscope-cli check prints it and tickscope
 * --at takes it. Fails with %TKS_ERROR_USAGE when @text is not one.
 *
 * Returns: %TRUE when @text is a time
 */
gboolean    tks_time_offset_parse     (const char      *text,
                                       double          *seconds,
                                       GError         **error);
/**
 * tks_capture_ruler_origin:
 * @capture: a capture
 *
 * Where the time ruler counts from by default: the capture's trigger, else its start.
 *
 * Returns: the origin (ticks)
 */
double      tks_capture_ruler_origin  (TksCapture      *capture);
/**
 * tks_capture_ruler_position:
 * @capture: a capture
 * @seconds: a time from the ruler's origin (tks_capture_ruler_origin())
 *
 * A time from the ruler's origin as a position.
 *
 * Returns: the position in ticks, at the capture's tick rate
 */
double      tks_capture_ruler_position (TksCapture     *capture,
                                        double          seconds);

/**
 * tks_budgets_new_from_data:
 * @data: (array length=len): the budgets file's text
 * @len: its length in bytes
 * @display: the file's name, for messages
 * @capture: the capture the budgets are for: every group must name a thread or handler of it
 * @error: return location for a #GError, or %NULL
 *
 * Reads the budgets in @data. Fails with %TKS_ERROR_PARSE, the message "FILE:LINE: why", when
 * @data is not a text file, not a key file, or names what @capture does not hold.
 *
 * Returns: (transfer full) (nullable): the budgets (free with tks_budgets_free()), or %NULL
 *   with @error set
 */
TksBudgets *tks_budgets_new_from_data (const char  *data,
                                       gsize        len,
                                       const char  *display,
                                       TksCapture  *capture,
                                       GError     **error);
/**
 * tks_budgets_free:
 * @self: (nullable): budgets
 *
 * Frees @self and its budgets.
 */
void        tks_budgets_free          (TksBudgets  *self);
/**
 * tks_budgets_check:
 * @self: budgets
 * @capture: the capture they were read against
 *
 * Measures every budget in @capture: each gets its verdict, its measure and its worst moment.
 *
 * Returns: the number of budgets violated or not measurable
 */
guint       tks_budgets_check         (TksBudgets  *self,
                                       TksCapture  *capture);
/**
 * tks_budgets_get_n:
 * @self: budgets
 *
 * Returns: the number of budgets
 */
guint       tks_budgets_get_n         (TksBudgets  *self);
/**
 * tks_budgets_get:
 * @self: budgets
 * @i: a budget's index, below tks_budgets_get_n()
 *
 * Returns: (transfer none): budget @i, owned by @self
 */
TksBudget  *tks_budgets_get           (TksBudgets  *self,
                                       guint        i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksBudgets, tks_budgets_free)

G_END_DECLS
