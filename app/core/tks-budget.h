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

typedef enum
{
  TKS_BUDGET_HOLDS,
  TKS_BUDGET_VIOLATED,
  TKS_BUDGET_NO_DATA,
} TksBudgetVerdict;

typedef enum
{
  TKS_QUANTITY_TIME,     /* seconds */
  TKS_QUANTITY_PERCENT,
  TKS_QUANTITY_COUNT,
} TksQuantityKind;

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

typedef struct _TksBudgets TksBudgets;

/* The name of a budget's key ("max-latency"). */
const char *tks_budget_kind_to_string (TksBudgetKind kind);

/* A number with a unit of @kind: "250us", "1.5 ms", "2s", "40%", "3". FALSE with a sentence
 * in @error (TKS_ERROR_PARSE, without a line) when it is not one. */
gboolean    tks_quantity_parse        (const char      *text,
                                       TksQuantityKind  kind,
                                       double          *value,
                                       const char     **unit,
                                       double          *unit_scale,
                                       GError         **error);

/* A time from the time ruler's origin, as tickscope-cli check prints it and tickscope --at
 * takes it: "1.25s", "-300ms", "420us"; a number alone is seconds. */
gboolean    tks_time_offset_parse     (const char      *text,
                                       double          *seconds,
                                       GError         **error);
/* Where the time ruler counts from by default: the capture's trigger, else its start (ticks). */
double      tks_capture_ruler_origin  (TksCapture      *capture);
/* @seconds from the ruler's origin, in ticks at the capture's tick rate. */
double      tks_capture_ruler_position (TksCapture     *capture,
                                        double          seconds);

/* Reads the budgets in @data (@display names the file in messages) against @capture: every
 * group must name a thread or handler of it. TKS_ERROR_PARSE with "FILE:LINE: why". */
TksBudgets *tks_budgets_new_from_data (const char  *data,
                                       gsize        len,
                                       const char  *display,
                                       TksCapture  *capture,
                                       GError     **error);
void        tks_budgets_free          (TksBudgets  *self);
/* Measures every budget; the number violated or not measurable. */
guint       tks_budgets_check         (TksBudgets  *self,
                                       TksCapture  *capture);
guint       tks_budgets_get_n         (TksBudgets  *self);
TksBudget  *tks_budgets_get           (TksBudgets  *self,
                                       guint        i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksBudgets, tks_budgets_free)

G_END_DECLS
