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

/**
 * TKS_CONDITION_NAME_MAX:
 *
 * The longest name the board holds in a condition (threads_utilities.c: tu_when_name).
 */
#define TKS_CONDITION_NAME_MAX      47
/**
 * TKS_CONDITION_LINE_MAX:
 *
 * The longest command line the board's shell reads (a ChibiOS shell line of
 * SHELL_MAX_LINE_LENGTH 64, the terminating zero included).
 */
#define TKS_CONDITION_LINE_MAX      63
/**
 * TKS_CONDITION_NUMBER_MAX:
 *
 * The largest limit or value the board reads (2^32 - 2).
 */
#define TKS_CONDITION_NUMBER_MAX    4294967294u
/**
 * TKS_CONDITION_COMMAND:
 *
 * The board's shell command that sets and queries conditions.
 */
#define TKS_CONDITION_COMMAND       "threads_trigger_when"

/**
 * TksConditionKind:
 * @TKS_CONDITION_OFF: no condition
 * @TKS_CONDITION_LATENCY: a wake-up (made ready → running) above limit_us
 * @TKS_CONDITION_RUN: a run of a thread longer than limit_us
 * @TKS_CONDITION_IRQ: a handler longer than limit_us
 * @TKS_CONDITION_MARKER: a marker (with value, when has_value)
 *
 * What a condition waits for.
 */
typedef enum
{
  TKS_CONDITION_OFF,
  TKS_CONDITION_LATENCY,  /* a wake-up (made ready → running) above limit_us */
  TKS_CONDITION_RUN,      /* a run of a thread longer than limit_us */
  TKS_CONDITION_IRQ,      /* a handler longer than limit_us */
  TKS_CONDITION_MARKER,   /* a marker (with value, when has_value) */
} TksConditionKind;

/**
 * TksCondition:
 * @kind: what it waits for
 * @name: the thread, handler or marker; "" for any thread or handler
 * @limit_us: %TKS_CONDITION_LATENCY, %TKS_CONDITION_RUN, %TKS_CONDITION_IRQ: the limit (µs)
 * @has_value: %TKS_CONDITION_MARKER: only the marker with @value
 * @value: the marker's value
 *
 * A condition trigger, as tks_condition_parse() reads it.
 */
typedef struct
{
  TksConditionKind kind;
  char             name[TKS_CONDITION_NAME_MAX + 1]; /* "" for any thread or handler */
  guint32          limit_us;                         /* latency, run, irq */
  gboolean         has_value;                        /* marker */
  guint32          value;
} TksCondition;

/**
 * tks_condition_parse:
 * @text: a condition in the language above, e.g. "latency comm > 1000us"
 * @condition: (out caller-allocates): the condition read
 * @error: return location for a #GError, or %NULL
 *
 * Reads @text. Fails with %TKS_ERROR_USAGE naming what is wrong and where (the column, from 1).
 *
 * Returns: %TRUE when @text is a condition
 */
gboolean  tks_condition_parse        (const char          *text,
                                      TksCondition        *condition,
                                      GError             **error);

/**
 * tks_condition_check:
 * @condition: a condition
 * @counter_hz: the board's counter's frequency; 0: not known, not checked
 * @error: return location for a #GError, or %NULL
 *
 * Whether the board can hold @condition: its limit measurable by a counter of @counter_hz (the
 * board's counter is 32 bits wide), and its command no longer than a shell line. Fails with
 * %TKS_ERROR_USAGE saying why.
 *
 * Returns: %TRUE when the board can hold it
 */
gboolean  tks_condition_check        (const TksCondition  *condition,
                                      guint64              counter_hz,
                                      GError             **error);

/**
 * tks_condition_board_offers:
 * @commands: (array zero-terminated=1) (nullable): the commands the board's `help` lists;
 *   %NULL: not known
 * @error: return location for a #GError, or %NULL
 *
 * Whether a board offers conditions. Fails with %TKS_ERROR_UNKNOWN_COMMAND saying so.
 *
 * Returns: %TRUE when it does
 */
gboolean  tks_condition_board_offers (const char * const  *commands,
                                      GError             **error);

/**
 * tks_condition_to_command:
 * @condition: a condition
 *
 * The shell command that sets @condition, e.g. "threads_trigger_when latency 1000 comm".
 *
 * Returns: (transfer full): the command; free with g_free()
 */
char     *tks_condition_to_command   (const TksCondition  *condition);
/**
 * tks_condition_to_string:
 * @condition: a condition
 *
 * The condition in the language above ("latency comm > 1000us").
 *
 * Returns: (transfer full): the text; free with g_free()
 */
char     *tks_condition_to_string    (const TksCondition  *condition);
/**
 * tks_condition_describe:
 * @condition: a condition
 *
 * The condition in words: "the first wake-up of comm later than 1000 µs".
 *
 * Returns: (transfer full): the text; free with g_free()
 */
char     *tks_condition_describe     (const TksCondition  *condition);

/**
 * tks_condition_from_board:
 * @text: the board's text of a condition ("latency above 1000 us of comm", as its replies and
 *   the dump's Condition and Trigger name lines print it)
 * @condition: (out caller-allocates): the condition read
 *
 * Reads the board's text of a condition.
 *
 * Returns: %FALSE when @text is not one
 */
gboolean  tks_condition_from_board   (const char          *text,
                                      TksCondition        *condition);

/**
 * TksBoardMode:
 * @TKS_BOARD_MODE_UNKNOWN: the board did not say (a library older than the Mode line)
 * @TKS_BOARD_MODE_RUN: recording, no trigger yet
 * @TKS_BOARD_MODE_ARMED: triggered, still recording the half after the trigger
 * @TKS_BOARD_MODE_FROZEN: triggered, the log frozen: ready to fetch
 *
 * What the board's log is doing, as its reply's "Mode:" line says.
 */
typedef enum
{
  TKS_BOARD_MODE_UNKNOWN, /* the board did not say (a library older than the Mode line) */
  TKS_BOARD_MODE_RUN,     /* recording, no trigger yet */
  TKS_BOARD_MODE_ARMED,   /* triggered, still recording the half after the trigger */
  TKS_BOARD_MODE_FROZEN,  /* triggered, the log frozen: ready to fetch */
} TksBoardMode;

/**
 * TksConditionReplyKind:
 * @TKS_CONDITION_REPLY_SET: "Condition: TEXT"
 * @TKS_CONDITION_REPLY_NONE: "Condition: none"
 * @TKS_CONDITION_REPLY_USAGE: "Usage: threads_trigger_when ..."
 * @TKS_CONDITION_REPLY_UNAVAILABLE: "This condition is not available on this board ..."
 * @TKS_CONDITION_REPLY_DISABLED: "Condition triggers are disabled ..."
 * @TKS_CONDITION_REPLY_UNKNOWN: "threads_trigger_when ?": the shell has no such command
 * @TKS_CONDITION_REPLY_OTHER: anything else
 *
 * What a reply of threads_trigger_when is.
 */
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

/**
 * TksConditionReply:
 * @kind: what the reply is
 * @text: %TKS_CONDITION_REPLY_SET: the board's text of the condition;
 *   %TKS_CONDITION_REPLY_OTHER: the reply's first line; else %NULL
 * @mode: from the "Mode:" line of the query's reply, if any
 *
 * A reply of threads_trigger_when, read (tks_condition_reply_read()); clear it with
 * tks_condition_reply_clear().
 */
typedef struct
{
  TksConditionReplyKind kind;
  char                 *text;  /* SET: the board's text of the condition; OTHER: the reply's
                                  first line */
  TksBoardMode          mode;  /* from the "Mode:" line of the query's reply, if any */
} TksConditionReply;

/**
 * tks_condition_reply_read:
 * @reply: a reply of threads_trigger_when (with or without arguments)
 * @out: (out caller-allocates): the reply read; clear it with tks_condition_reply_clear()
 *
 * Reads a reply of threads_trigger_when.
 */
void      tks_condition_reply_read   (const char          *reply,
                                      TksConditionReply   *out);
/**
 * tks_condition_reply_clear:
 * @reply: a reply read
 *
 * Frees what @reply holds (not @reply itself).
 */
void      tks_condition_reply_clear  (TksConditionReply   *reply);

/**
 * tks_condition_reply_describe:
 * @reply: a reply read
 *
 * The reply in words, for a user: "Armed: the first wake-up of comm later than 1000 µs sets
 * the trigger", "The board does not offer this condition (...)".
 *
 * Returns: (transfer full): the text; free with g_free()
 */
char     *tks_condition_reply_describe (const TksConditionReply *reply);
/**
 * tks_board_mode_describe:
 * @mode: a board's mode
 *
 * The board's mode in words ("recording, no trigger yet", "triggered, recording the rest of
 * the log", "frozen: the log is ready to fetch", "not known").
 *
 * Returns: (transfer none): the text, translated
 */
const char *tks_board_mode_describe  (TksBoardMode         mode);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TksConditionReply, tks_condition_reply_clear)

G_END_DECLS
