/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Condition triggers on the host: the language read, the board's command written, the
 * board's replies in words; and (with the simulated board) the board library reading the
 * commands as the host meant them. */
#include "config.h"

#include <string.h>

#include "tks-condition.h"
#include "tks-error.h"

#if HAVE_SIMBOARD
#include "tks-simboard.h"
#include "tks-simboard-private.h"
#endif

static const struct
{
  const char *text;
  const char *command;
  const char *shown;
  const char *words;
} good[] = {
  { "latency comm > 1000us", "threads_trigger_when latency 1000 comm", "latency comm > 1000us",
    "the first wake-up of comm later than 1000 µs" },
  { "latency > 500us", "threads_trigger_when latency 500", "latency > 500us",
    "the first wake-up of any thread later than 500 µs" },
  { "  latency   sensor>12 µs ", "threads_trigger_when latency 12 sensor", "latency sensor > 12us",
    "the first wake-up of sensor later than 12 µs" },
  { "irq USART2 > 50us", "threads_trigger_when irq 50 USART2", "irq USART2 > 50us",
    "the first run of the handler USART2 longer than 50 µs" },
  { "handler > 1.5ms", "threads_trigger_when irq 1500", "irq > 1500us",
    "the first handler that runs longer than 1500 µs" },
  { "run worker > 2ms", "threads_trigger_when run 2000 worker", "run worker > 2000us",
    "the first run of worker longer than 2000 µs" },
  { "run > 1s", "threads_trigger_when run 1000000", "run > 1000000us",
    "the first run of any thread longer than 1000000 µs" },
  { "run x > 0.25 s", "threads_trigger_when run 250000 x", "run x > 250000us",
    "the first run of x longer than 250000 µs" },
  { "latency a > 4294967294us", "threads_trigger_when latency 4294967294 a",
    "latency a > 4294967294us", "the first wake-up of a later than 4294967294 µs" },
  { "irq > 25565281us", "threads_trigger_when irq 25565281", "irq > 25565281us",
    "the first handler that runs longer than 25565281 µs" },
  { "irq > 25565282us", "threads_trigger_when irq 25565282", "irq > 25565282us",
    "the first handler that runs longer than 25565282 µs" },
  { "marker sample = 42", "threads_trigger_when marker sample 42", "marker sample = 42",
    "the first marker sample with the value 42" },
  { "marker sample=0", "threads_trigger_when marker sample 0", "marker sample = 0",
    "the first marker sample with the value 0" },
  { "marker sample", "threads_trigger_when marker sample", "marker sample",
    "the first marker sample" },
  { "off", "threads_trigger_when off", "off", "no condition" },
};

static void
test_parse_good (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *command = NULL;
      g_autofree char *shown = NULL;
      g_autofree char *words = NULL;
      TksCondition condition, again;

      g_test_message ("%s", good[i].text);
      g_assert_true (tks_condition_parse (good[i].text, &condition, &error));
      g_assert_no_error (error);
      command = tks_condition_to_command (&condition);
      shown = tks_condition_to_string (&condition);
      words = tks_condition_describe (&condition);
      g_assert_cmpstr (command, ==, good[i].command);
      g_assert_cmpstr (shown, ==, good[i].shown);
      g_assert_cmpstr (words, ==, good[i].words);
      /* What is shown reads back as the same condition. */
      g_assert_true (tks_condition_parse (shown, &again, NULL));
      g_assert_cmpmem (&again, sizeof again, &condition, sizeof condition);
    }
}

/* Every bad condition names what is wrong, and where. */
static const struct
{
  const char *text;
  const char *message;
} bad[] = {
  { "", "“”: the condition is empty: say latency, run, irq, marker or off" },
  { "latenzy comm > 1ms", "“latenzy comm > 1ms”, column 1: “latenzy” is not a kind of condition" },
  { "latency comm > 1000", "“latency comm > 1000”, column 20: the time 1000 has no unit: write us, ms or s after it" },
  { "latency comm > 1000 parsecs", "column 21: “parsecs” is not a unit of time: use us, ms or s" },
  { "latency comm > 10ns", "column 18: “ns” is not a unit of time" },
  { "latency comm > fast", "column 16: “fast” is not a time" },
  { "latency comm < 1ms", "column 14: “<” is not offered: the board sets the trigger on a time above a limit" },
  { "latency comm >= 1ms", "column 14: “>=” is not offered" },
  { "latency comm", "the limit is missing: latency [NAME] > TIME" },
  { "latency comm >", "the time is missing after “>”" },
  { "latency comm main > 1ms", "column 14: “main”: one name only" },
  { "latency comm > 0.5us", "column 16: 0.5us is not a whole number of microseconds" },
  { "run x > 4294967295us", "column 9: 4294967295us is more than the board holds" },
  { "run x > 5000s", "5000s is more than the board holds" },
  { "latency comm > 1ms later", "column 20: “later” is more than the condition takes" },
  { "off now", "column 5: “now” is more than the condition takes" },
  { "marker", "name the marker" },
  { "marker = 3", "column 8: name the marker" },
  { "marker sample > 3", "column 15: a marker is compared with “=” only" },
  { "marker sample =", "the marker's value is missing after “=”" },
  { "marker sample = -1", "“-1” is not a value the board compares" },
  { "marker sample = 4294967295", "column 17: “4294967295” is not a value the board compares" },
  { "run a\"b > 1ms", "column 6: the thread's name holds a character the board's shell does not pass on" },
  { "irq a-handler-name-of-forty-eight-bytes-exactly-xyz1 > 1us",
    "column 5: the handler's name is 48 bytes long; the board keeps at most 47" },
  /* The board's shell line: 63 characters (SHELL_MAX_LINE_LENGTH 64). */
  { "latency a-thread-name-of-thirty-bytesX > 1000us",
    "the board's command would be 64 characters long, more than the 63 a ChibiOS shell line holds" },
};

static void
test_parse_bad (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      TksCondition condition = { .kind = TKS_CONDITION_RUN, .limit_us = 77 };

      g_assert_false (tks_condition_parse (bad[i].text, &condition, &error));
      g_assert_error (error, TKS_ERROR, TKS_ERROR_USAGE);
      g_test_message ("%s → %s", bad[i].text, error->message);
      if (strstr (error->message, bad[i].message) == NULL)
        g_error ("“%s”: expected “%s” in “%s”", bad[i].text, bad[i].message, error->message);
      /* Nothing is written on failure. */
      g_assert_cmpint (condition.kind, ==, TKS_CONDITION_RUN);
      g_assert_cmpuint (condition.limit_us, ==, 77);
    }
}

/* The longest names a shell line carries, and the counter's reach. */
static void
test_check (void)
{
  g_autoptr(GError) error = NULL;
  TksCondition condition;

  /* "threads_trigger_when latency 1000 " is 34 characters: 29 are left for the name. */
  g_assert_true (tks_condition_parse ("latency a-thread-name-of-29-bytes-xyz > 1000us", &condition,
                                      &error));
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (condition.name), ==, 29);

  /* At 168 MHz the 32-bit counter measures up to 2^32 / 168 µs (25.56 s). */
  g_assert_true (tks_condition_parse ("run > 25565281us", &condition, NULL));
  g_assert_true (tks_condition_check (&condition, 168000000, NULL));
  g_assert_true (tks_condition_parse ("run > 25565282us", &condition, NULL));
  g_assert_true (tks_condition_check (&condition, 0, NULL));
  g_assert_false (tks_condition_check (&condition, 168000000, &error));
  g_assert_error (error, TKS_ERROR, TKS_ERROR_USAGE);
  g_assert_nonnull (strstr (error->message, "25565282 µs is more than the board's 32-bit counter "
                                            "measures at 168 MHz (at most 25565281 µs)"));
  /* A marker's value is no time. */
  g_assert_true (tks_condition_parse ("marker m = 4294967294", &condition, NULL));
  g_assert_true (tks_condition_check (&condition, 168000000, NULL));
}

static void
test_board_offers (void)
{
  static const char *const with[] = { "help", "threads_dump", "threads_trigger_when", NULL };
  static const char *const without[] = { "help", "threads_dump", NULL };
  g_autoptr(GError) error = NULL;

  g_assert_true (tks_condition_board_offers (with, NULL));
  g_assert_false (tks_condition_board_offers (without, &error));
  g_assert_error (error, TKS_ERROR, TKS_ERROR_UNKNOWN_COMMAND);
  g_assert_nonnull (strstr (error->message, "does not list threads_trigger_when"));
  g_clear_error (&error);
  g_assert_false (tks_condition_board_offers (NULL, &error));
  g_assert_error (error, TKS_ERROR, TKS_ERROR_UNKNOWN_COMMAND);
}

/* The board's replies (threads_utilities.c, tuCmdThreadsTriggerWhen), told in words. */
static void
test_replies (void)
{
  static const struct
  {
    const char *reply;
    TksConditionReplyKind kind;
    TksBoardMode mode;
    const char *words;
  } replies[] = {
    { "Condition: latency above 1000 us of comm\r\n", TKS_CONDITION_REPLY_SET,
      TKS_BOARD_MODE_UNKNOWN, "Armed: the first wake-up of comm later than 1000 µs sets the trigger" },
    { "Condition: latency above 1000 us of comm\r\nMode: run\r\n", TKS_CONDITION_REPLY_SET,
      TKS_BOARD_MODE_RUN, "Armed: the first wake-up of comm later than 1000 µs sets the trigger" },
    { "Condition: irq above 50 us\r\nMode: armed\r\n", TKS_CONDITION_REPLY_SET,
      TKS_BOARD_MODE_ARMED,
      "Triggered: the first handler that runs longer than 50 µs was met; the board records the "
      "rest of its log" },
    { "Condition: marker sample = 42\r\nMode: frozen\r\n", TKS_CONDITION_REPLY_SET,
      TKS_BOARD_MODE_FROZEN,
      "Triggered: the first marker sample with the value 42 was met and the log froze around it" },
    { "Condition: something new\r\nMode: run\r\n", TKS_CONDITION_REPLY_SET, TKS_BOARD_MODE_RUN,
      "Armed: the condition “something new” sets the trigger" },
    { "Condition: none\r\nMode: run\r\n", TKS_CONDITION_REPLY_NONE, TKS_BOARD_MODE_RUN,
      "No condition is set" },
    { "Condition: none\r\nMode: frozen\r\n", TKS_CONDITION_REPLY_NONE, TKS_BOARD_MODE_FROZEN,
      "No condition is set; the log is frozen by a trigger" },
    { "Usage: threads_trigger_when latency|run|irq MICROSECONDS [NAME] | marker NAME [VALUE] | off\r\n",
      TKS_CONDITION_REPLY_USAGE, TKS_BOARD_MODE_UNKNOWN,
      "The board did not accept the condition (it answered with its usage line)" },
    { "This condition is not available on this board (or the name is too long)\r\n",
      TKS_CONDITION_REPLY_UNAVAILABLE, TKS_BOARD_MODE_UNKNOWN,
      "The board does not offer this condition (it does not record these events, the limit is "
      "more than its counter measures, or the name is too long)" },
    { "Condition triggers are disabled (THREADS_TIMESTAMPS_CONDITIONS)\r\n",
      TKS_CONDITION_REPLY_DISABLED, TKS_BOARD_MODE_UNKNOWN,
      "The board does not offer condition triggers (its library is built without "
      "THREADS_TIMESTAMPS_CONDITIONS)" },
    { "threads_trigger_when ?\r\n", TKS_CONDITION_REPLY_UNKNOWN, TKS_BOARD_MODE_UNKNOWN,
      "The board does not offer condition triggers (its shell has no threads_trigger_when "
      "command)" },
    { "", TKS_CONDITION_REPLY_OTHER, TKS_BOARD_MODE_UNKNOWN,
      "The board gave an answer Tickscope does not know: “”" },
    { "\r\nbonjour\r\nMode: sideways\r\n", TKS_CONDITION_REPLY_OTHER, TKS_BOARD_MODE_UNKNOWN,
      "The board gave an answer Tickscope does not know: “bonjour”" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (replies); i++)
    {
      g_auto(TksConditionReply) reply = { 0 };
      g_autofree char *words = NULL;

      tks_condition_reply_read (replies[i].reply, &reply);
      g_assert_cmpint (reply.kind, ==, replies[i].kind);
      g_assert_cmpint (reply.mode, ==, replies[i].mode);
      words = tks_condition_reply_describe (&reply);
      g_assert_cmpstr (words, ==, replies[i].words);
    }
}

/* The board's text of each condition reads back as the condition. */
static void
test_from_board (void)
{
  static const char *const not_conditions[] = {
    "latency above x us", "latency above 10 ms", "latency below 10 us", "marker", "walk above 1 us",
    "run above 1 us to x", "marker a b c", "latency above 4294967295 us",
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      TksCondition condition, back;
      g_autofree char *board_text = NULL;
      const char *command = good[i].command + strlen ("threads_trigger_when ");
      g_auto(GStrv) w = g_strsplit (command, " ", -1);

      g_assert_true (tks_condition_parse (good[i].text, &condition, NULL));
      /* as threads_utilities.c prints it */
      if (condition.kind == TKS_CONDITION_OFF)
        board_text = g_strdup ("none");
      else if (condition.kind == TKS_CONDITION_MARKER)
        board_text = g_strdup (good[i].shown);
      else
        board_text = g_strdup_printf ("%s above %s us%s%s", w[0], w[1], w[2] ? " of " : "",
                                      w[2] ? w[2] : "");
      g_assert_true (tks_condition_from_board (board_text, &back));
      g_assert_cmpmem (&back, sizeof back, &condition, sizeof condition);
    }
  for (guint i = 0; i < G_N_ELEMENTS (not_conditions); i++)
    {
      TksCondition c;

      g_assert_false (tks_condition_from_board (not_conditions[i], &c));
    }
}

#if HAVE_SIMBOARD
/* The board library reads each command as the host meant it: its reply names the same
 * condition, and the query that follows says it is armed. */
static void
test_board_agrees (void)
{
  TksSimboardOptions opts;
  TksSimboardState *board;

  tks_simboard_options_init (&opts);
  g_assert_true (tks_simboard_state_acquire (NULL));
  board = tks_simboard_state_new (&opts);
  tks_simboard_state_advance (board, 100);
  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      TksCondition condition, back;
      g_autofree char *command = NULL;
      g_autofree char *reply = NULL;
      g_autofree char *query = NULL;
      g_autofree char *words = NULL;
      g_auto(TksConditionReply) read = { 0 };
      g_auto(TksConditionReply) state = { 0 };

      g_assert_true (tks_condition_parse (good[i].text, &condition, NULL));
      command = tks_condition_to_command (&condition);
      reply = tks_simboard_state_run_command (board, command);
      g_test_message ("%s → %s", command, reply);
      tks_condition_reply_read (reply, &read);
      if (condition.kind == TKS_CONDITION_OFF)
        {
          g_assert_cmpint (read.kind, ==, TKS_CONDITION_REPLY_NONE);
          continue;
        }
      /* What the host's check refuses for the board's 168 MHz counter, the board refuses. */
      if (!tks_condition_check (&condition, 168000000, NULL))
        {
          g_assert_cmpint (read.kind, ==, TKS_CONDITION_REPLY_UNAVAILABLE);
          continue;
        }
      g_assert_cmpint (read.kind, ==, TKS_CONDITION_REPLY_SET);
      g_assert_true (tks_condition_from_board (read.text, &back));
      g_assert_cmpmem (&back, sizeof back, &condition, sizeof condition);

      query = tks_simboard_state_run_command (board, "threads_trigger_when");
      tks_condition_reply_read (query, &state);
      g_assert_cmpint (state.kind, ==, TKS_CONDITION_REPLY_SET);
      g_assert_cmpstr (state.text, ==, read.text);
      g_assert_cmpint (state.mode, !=, TKS_BOARD_MODE_UNKNOWN);
      words = tks_condition_reply_describe (&read);
      g_assert_true (g_str_has_prefix (words, "Armed: "));
      g_free (tks_simboard_state_run_command (board, "threads_trigger_when off"));
      g_free (tks_simboard_state_run_command (board, "threads_timestamps_run"));
    }
  tks_simboard_state_free (board);
  tks_simboard_state_release ();
}
#endif

int
main (int    argc,
      char **argv)
{
  g_setenv ("LANGUAGE", "C", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/condition/parse/good", test_parse_good);
  g_test_add_func ("/condition/parse/bad", test_parse_bad);
  g_test_add_func ("/condition/check", test_check);
  g_test_add_func ("/condition/board-offers", test_board_offers);
  g_test_add_func ("/condition/replies", test_replies);
  g_test_add_func ("/condition/from-board", test_from_board);
#if HAVE_SIMBOARD
  g_test_add_func ("/condition/board-agrees", test_board_agrees);
#endif
  return g_test_run ();
}
