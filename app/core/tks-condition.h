/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * Condition triggers: the board freezes its log around the first event that meets a
 * condition (mcu-lib/WIRE-FORMAT.md, "Condition triggers"). This is the host's side: a small
 * language a user types,
 *
 *   latency comm > 1000us     the first wake-up of comm later than 1000 µs
 *   latency > 500us           a wake-up of any thread
 *   irq USART2_IRQHandler > 50us   a handler longer than 50 µs
 *   run worker > 2ms          a run of worker longer than 2 ms
 *   marker sample = 42        the marker sample with the value 42
 *   marker sample             the marker sample, any value
 *   off                       no condition
 *
 * (times in us, µs, ms or s), read into a TksCondition, checked against what a board can hold
 * and turned into its shell command; and the board's replies to that command, read and told
 * in words. Nothing here talks to a board.
 */

/* What the board's name and command line hold (threads_utilities.c: tu_when_name, and a
 * ChibiOS shell line of SHELL_MAX_LINE_LENGTH 64, the terminating zero included). */
#define TKS_CONDITION_NAME_MAX      47
#define TKS_CONDITION_LINE_MAX      63
/* The largest limit or value the board reads (2^32 - 2) */
#define TKS_CONDITION_NUMBER_MAX    4294967294u
#define TKS_CONDITION_COMMAND       "threads_trigger_when"

typedef enum
{
  TKS_CONDITION_OFF,
  TKS_CONDITION_LATENCY,  /* a wake-up (made ready → running) above limit_us */
  TKS_CONDITION_RUN,      /* a run of a thread longer than limit_us */
  TKS_CONDITION_IRQ,      /* a handler longer than limit_us */
  TKS_CONDITION_MARKER,   /* a marker (with value, when has_value) */
} TksConditionKind;

typedef struct
{
  TksConditionKind kind;
  char             name[TKS_CONDITION_NAME_MAX + 1]; /* "" for any thread or handler */
  guint32          limit_us;                         /* latency, run, irq */
  gboolean         has_value;                        /* marker */
  guint32          value;
} TksCondition;

/* Reads @text; FALSE with a TKS_ERROR_USAGE error naming what is wrong and where (the column,
 * from 1) otherwise. */
gboolean  tks_condition_parse        (const char          *text,
                                      TksCondition        *condition,
                                      GError             **error);

/* Whether the board can hold @condition: its limit measurable by a counter of @counter_hz
 * (0: not known, not checked; the board's counter is 32 bits wide), and its command no longer
 * than a shell line. FALSE with a TKS_ERROR_USAGE error saying why. */
gboolean  tks_condition_check        (const TksCondition  *condition,
                                      guint64              counter_hz,
                                      GError             **error);

/* Whether a board whose `help` lists @commands (NULL: not known) offers conditions; FALSE
 * with a TKS_ERROR_UNKNOWN_COMMAND error saying so. */
gboolean  tks_condition_board_offers (const char * const  *commands,
                                      GError             **error);

/* The shell command, e.g. "threads_trigger_when latency 1000 comm". */
char     *tks_condition_to_command   (const TksCondition  *condition);
/* The condition in the language above ("latency comm > 1000us"). */
char     *tks_condition_to_string    (const TksCondition  *condition);
/* In words: "the first wake-up of comm later than 1000 µs". */
char     *tks_condition_describe     (const TksCondition  *condition);

/* Reads the board's text of a condition ("latency above 1000 us of comm", as its replies and
 * the dump's Condition and Trigger name lines print it); FALSE when it is not one. */
gboolean  tks_condition_from_board   (const char          *text,
                                      TksCondition        *condition);

typedef enum
{
  TKS_BOARD_MODE_UNKNOWN, /* the board did not say (a library older than the Mode line) */
  TKS_BOARD_MODE_RUN,     /* recording, no trigger yet */
  TKS_BOARD_MODE_ARMED,   /* triggered, still recording the half after the trigger */
  TKS_BOARD_MODE_FROZEN,  /* triggered, the log frozen: ready to fetch */
} TksBoardMode;

typedef enum
{
  TKS_CONDITION_REPLY_SET,         /* "Condition: TEXT" */
  TKS_CONDITION_REPLY_NONE,        /* "Condition: none" */
  TKS_CONDITION_REPLY_USAGE,       /* "Usage: threads_trigger_when ..." */
  TKS_CONDITION_REPLY_UNAVAILABLE, /* "This condition is not available on this board ..." */
  TKS_CONDITION_REPLY_DISABLED,    /* "Condition triggers are disabled ..." */
  TKS_CONDITION_REPLY_UNKNOWN,     /* "threads_trigger_when ?": the shell has no such command */
  TKS_CONDITION_REPLY_OTHER,       /* anything else */
} TksConditionReplyKind;

typedef struct
{
  TksConditionReplyKind kind;
  char                 *text;  /* SET: the board's text of the condition; OTHER: the reply's
                                  first line */
  TksBoardMode          mode;  /* from the "Mode:" line of the query's reply, if any */
} TksConditionReply;

/* Reads a reply of threads_trigger_when (with or without arguments). */
void      tks_condition_reply_read   (const char          *reply,
                                      TksConditionReply   *out);
void      tks_condition_reply_clear  (TksConditionReply   *reply);

/* The reply in words, for a user: "Armed: the first wake-up of comm later than 1000 µs sets
 * the trigger", "The board does not offer this condition (...)". */
char     *tks_condition_reply_describe (const TksConditionReply *reply);
/* The board's mode in words ("running, no trigger yet", "triggered, recording the rest",
 * "frozen: the log is ready to fetch"). */
const char *tks_board_mode_describe  (TksBoardMode         mode);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TksConditionReply, tks_condition_reply_clear)

G_END_DECLS
