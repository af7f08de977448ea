/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Condition triggers, the host's side: the language a user types, the board's command and
 * the board's replies in words (see tks-condition.h and mcu-lib/WIRE-FORMAT.md). */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tks-condition.h"
#include "tks-error.h"

/* The board's words for the kinds, in TksConditionKind's order. */
static const char *const board_words[] = { "off", "latency", "run", "irq", "marker" };

typedef enum
{
  TOKEN_WORD,
  TOKEN_ABOVE,   /* > */
  TOKEN_EQUAL,   /* = */
  TOKEN_OTHER,   /* <, >=, <=, == ... : an operator the board does not offer */
} TokenKind;

typedef struct
{
  TokenKind   kind;
  char       *text;
  guint       column;  /* from 1, in characters */
} Token;

static void
token_clear (gpointer data)
{
  g_free (((Token *) data)->text);
}

static gboolean
is_operator (char c)
{
  return c == '>' || c == '<' || c == '=' || c == '!';
}

/* Words are runs of anything but spaces and operators; operators are runs of > < = !. */
static GArray *
tokenize (const char *text)
{
  GArray *tokens = g_array_new (FALSE, TRUE, sizeof (Token));
  const char *p = text;

  g_array_set_clear_func (tokens, token_clear);
  while (*p != '\0')
    {
      const char *start;
      Token token;

      if (g_ascii_isspace (*p))
        {
          p++;
          continue;
        }
      start = p;
      if (is_operator (*p))
        while (is_operator (*p))
          p++;
      else
        while (*p != '\0' && !g_ascii_isspace (*p) && !is_operator (*p))
          p++;
      token.text = g_strndup (start, p - start);
      token.column = (guint) g_utf8_strlen (text, start - text) + 1;
      token.kind = g_str_equal (token.text, ">") ? TOKEN_ABOVE
                   : g_str_equal (token.text, "=") ? TOKEN_EQUAL
                   : is_operator (*start) ? TOKEN_OTHER : TOKEN_WORD;
      g_array_append_val (tokens, token);
    }
  return tokens;
}

/* "“latency comm > 1000 parsecs”, column 21: " before @message */
G_GNUC_PRINTF (4, 5)
static void
fail_at (GError    **error,
         const char *text,
         guint       column,
         const char *format,
         ...)
{
  g_autofree char *message = NULL;
  va_list ap;

  va_start (ap, format);
  message = g_strdup_vprintf (format, ap);
  va_end (ap);
  if (column > 0)
    /* Translators: a condition a user typed, the column (from 1) where it goes wrong, then
     * what is wrong */
    g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE, _("“%s”, column %u: %s"), text, column,
                 message);
  else
    /* Translators: a condition a user typed, then what is wrong */
    g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE, _("“%s”: %s"), text, message);
}

/* A name the board's shell passes as one argument and the board keeps whole. */
static gboolean
read_name (const char  *text,
           const Token *token,
           const char  *what,
           char        *name,
           GError     **error)
{
  gsize len = strlen (token->text);

  if (len > TKS_CONDITION_NAME_MAX)
    {
      /* Translators: what the name is (thread, handler, marker), the name's length */
      fail_at (error, text, token->column,
               _("the %s's name is %u bytes long; the board keeps at most %u"), what,
               (guint) len, TKS_CONDITION_NAME_MAX);
      return FALSE;
    }
  for (const char *p = token->text; *p != '\0'; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f || *p == '"' || *p == '\'')
      {
        /* Translators: what the name is (thread, handler, marker) */
        fail_at (error, text, token->column + (guint) (p - token->text),
                 _("the %s's name holds a character the board's shell does not pass on"), what);
        return FALSE;
      }
  if (!g_utf8_validate (token->text, -1, NULL))
    {
      fail_at (error, text, token->column, _("the %s's name is not valid UTF-8"), what);
      return FALSE;
    }
  memcpy (name, token->text, len + 1);
  return TRUE;
}

/* A decimal number of the board's range, whole. */
static gboolean
read_number (const char *word,
             guint64    *value)
{
  guint64 v = 0;

  if (*word == '\0')
    return FALSE;
  for (; *word != '\0'; word++)
    {
      if (!g_ascii_isdigit (*word))
        return FALSE;
      v = v * 10 + (guint64) (*word - '0');
      if (v > TKS_CONDITION_NUMBER_MAX)
        return FALSE;
    }
  *value = v;
  return TRUE;
}

/* A time: "1000us", "1.5 ms", "2s", "50µs", at @tokens[*i] (and the unit after it when
 * apart); in whole microseconds. */
static gboolean
read_time (const char *text,
           GArray     *tokens,
           guint      *i,
           guint32    *us,
           GError    **error)
{
  const Token *token = &g_array_index (tokens, Token, *i);
  const char *p = token->text;
  const char *unit;
  guint unit_column;
  g_autofree char *number = NULL;
  double value, scale, exact;
  gboolean fraction = FALSE;

  for (; g_ascii_isdigit (*p) || (*p == '.' && !fraction); p++)
    if (*p == '.')
      fraction = TRUE;
  if (p == token->text || (p == token->text + 1 && *token->text == '.'))
    {
      fail_at (error, text, token->column,
               _("“%s” is not a time: give a number and a unit (1000us, 2ms, 1s)"), token->text);
      return FALSE;
    }
  number = g_strndup (token->text, p - token->text);
  unit = p;
  unit_column = token->column + (guint) g_utf8_strlen (token->text, p - token->text);
  if (*unit == '\0' && *i + 1 < tokens->len
      && g_array_index (tokens, Token, *i + 1).kind == TOKEN_WORD)
    {
      (*i)++;
      unit = g_array_index (tokens, Token, *i).text;
      unit_column = g_array_index (tokens, Token, *i).column;
    }
  if (*unit == '\0')
    {
      fail_at (error, text, unit_column, _("the time %s has no unit: write us, ms or s after it"),
               number);
      return FALSE;
    }
  if (g_str_equal (unit, "us") || g_str_equal (unit, "µs") || g_str_equal (unit, "μs"))
    scale = 1;
  else if (g_str_equal (unit, "ms"))
    scale = 1e3;
  else if (g_str_equal (unit, "s"))
    scale = 1e6;
  else
    {
      fail_at (error, text, unit_column, _("“%s” is not a unit of time: use us, ms or s"), unit);
      return FALSE;
    }
  (*i)++;
  value = g_ascii_strtod (number, NULL) * scale;
  exact = round (value);
  if (fabs (value - exact) > 1e-6 * MAX (1.0, value))
    {
      fail_at (error, text, token->column,
               _("%s%s is not a whole number of microseconds, the board's unit"), number, unit);
      return FALSE;
    }
  if (exact > TKS_CONDITION_NUMBER_MAX)
    {
      fail_at (error, text, token->column,
               _("%s%s is more than the board holds (%u µs, about 71 minutes)"), number, unit,
               TKS_CONDITION_NUMBER_MAX);
      return FALSE;
    }
  *us = (guint32) exact;
  return TRUE;
}

static const char *
name_what (TksConditionKind kind)
{
  return kind == TKS_CONDITION_IRQ ? _("handler")
         : kind == TKS_CONDITION_MARKER ? _("marker") : _("thread");
}

/* The kind of condition the first word @token names. */
static gboolean
parse_kind (const char       *text,
            const Token      *token,
            TksConditionKind *kind,
            GError          **error)
{
  if (g_str_equal (token->text, "off") || g_str_equal (token->text, "none"))
    *kind = TKS_CONDITION_OFF;
  else if (g_str_equal (token->text, "latency") || g_str_equal (token->text, "wakeup")
           || g_str_equal (token->text, "wake-up"))
    *kind = TKS_CONDITION_LATENCY;
  else if (g_str_equal (token->text, "run"))
    *kind = TKS_CONDITION_RUN;
  else if (g_str_equal (token->text, "irq") || g_str_equal (token->text, "handler"))
    *kind = TKS_CONDITION_IRQ;
  else if (g_str_equal (token->text, "marker"))
    *kind = TKS_CONDITION_MARKER;
  else
    {
      fail_at (error, text, token->column,
               _("“%s” is not a kind of condition: say latency, run, irq, marker or off"),
               token->text);
      return FALSE;
    }
  return TRUE;
}

/* “marker NAME [= VALUE]”, from token *@i on (moved past what it takes). */
static gboolean
parse_marker (const char    *text,
              GArray        *tokens,
              guint         *i,
              TksCondition  *c,
              GError       **error)
{
  const Token *token;
  guint64 value;

  if (*i >= tokens->len || g_array_index (tokens, Token, *i).kind != TOKEN_WORD)
    {
      fail_at (error, text, *i < tokens->len ? g_array_index (tokens, Token, *i).column : 0,
               _("name the marker: marker NAME or marker NAME = VALUE"));
      return FALSE;
    }
  if (!read_name (text, &g_array_index (tokens, Token, *i), name_what (c->kind), c->name, error))
    return FALSE;
  (*i)++;
  if (*i >= tokens->len)
    return TRUE;

  token = &g_array_index (tokens, Token, *i);
  if (token->kind != TOKEN_EQUAL)
    {
      fail_at (error, text, token->column,
               _("a marker is compared with “=” only: marker NAME = VALUE"));
      return FALSE;
    }
  if (++(*i) >= tokens->len)
    {
      fail_at (error, text, 0, _("the marker's value is missing after “=”"));
      return FALSE;
    }
  token = &g_array_index (tokens, Token, *i);
  if (!read_number (token->text, &value))
    {
      fail_at (error, text, token->column,
               _("“%s” is not a value the board compares: a whole number from 0 to %u"),
               token->text, TKS_CONDITION_NUMBER_MAX);
      return FALSE;
    }
  c->has_value = TRUE;
  c->value = (guint32) value;
  (*i)++;
  return TRUE;
}

/* “KIND [NAME] > TIME” after the kind, from token *@i on (moved past what it takes). */
static gboolean
parse_limit (const char    *text,
             GArray        *tokens,
             guint         *i,
             TksCondition  *c,
             GError       **error)
{
  const Token *token;

  if (*i < tokens->len && g_array_index (tokens, Token, *i).kind == TOKEN_WORD)
    {
      if (!read_name (text, &g_array_index (tokens, Token, *i), name_what (c->kind), c->name,
                      error))
        return FALSE;
      (*i)++;
    }
  if (*i >= tokens->len)
    {
      /* Translators: the kind of condition, as typed (latency, run, irq) */
      fail_at (error, text, 0, _("the limit is missing: %s [NAME] > TIME, e.g. > 1000us"),
               g_array_index (tokens, Token, 0).text);
      return FALSE;
    }
  token = &g_array_index (tokens, Token, *i);
  if (token->kind != TOKEN_ABOVE)
    {
      if (token->kind == TOKEN_WORD)
        fail_at (error, text, token->column,
                 _("“%s”: one name only, then “>” and a time"), token->text);
      else
        fail_at (error, text, token->column,
                 _("“%s” is not offered: the board sets the trigger on a time above a limit "
                   "(“>”)"), token->text);
      return FALSE;
    }
  if (++(*i) >= tokens->len)
    {
      fail_at (error, text, 0, _("the time is missing after “>”"));
      return FALSE;
    }
  return read_time (text, tokens, i, &c->limit_us, error);
}

gboolean
tks_condition_parse (const char    *text,
                     TksCondition  *condition,
                     GError       **error)
{
  g_autoptr(GArray) tokens = NULL;
  TksCondition c = { 0 };
  const Token *token;
  guint i = 1;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (condition != NULL, FALSE);

  tokens = tokenize (text);
  if (tokens->len == 0)
    {
      fail_at (error, text, 0, _("the condition is empty: say latency, run, irq, marker or off"));
      return FALSE;
    }
  if (!parse_kind (text, &g_array_index (tokens, Token, 0), &c.kind, error))
    return FALSE;
  if (c.kind == TKS_CONDITION_MARKER && !parse_marker (text, tokens, &i, &c, error))
    return FALSE;
  if (c.kind != TKS_CONDITION_MARKER && c.kind != TKS_CONDITION_OFF &&
      !parse_limit (text, tokens, &i, &c, error))
    return FALSE;

  if (i < tokens->len)
    {
      token = &g_array_index (tokens, Token, i);
      fail_at (error, text, token->column, _("“%s” is more than the condition takes"),
               token->text);
      return FALSE;
    }
  if (!tks_condition_check (&c, 0, error))
    return FALSE;
  *condition = c;
  return TRUE;
}

gboolean
tks_condition_check (const TksCondition  *condition,
                     guint64              counter_hz,
                     GError             **error)
{
  g_autofree char *command = NULL;
  g_autofree char *shown = NULL;
  gsize len;

  g_return_val_if_fail (condition != NULL, FALSE);

  shown = tks_condition_to_string (condition);
  if (strlen (condition->name) > TKS_CONDITION_NAME_MAX)
    {
      fail_at (error, shown, 0, _("the name is longer than the %u bytes the board keeps"),
               TKS_CONDITION_NAME_MAX);
      return FALSE;
    }
  if (counter_hz > 0 && condition->kind != TKS_CONDITION_OFF
      && condition->kind != TKS_CONDITION_MARKER
      && (guint64) condition->limit_us * counter_hz > (guint64) G_MAXUINT32 * 1000000u)
    {
      guint64 most = (guint64) G_MAXUINT32 * 1000000u / counter_hz;

      /* Translators: the limit in µs, the counter's frequency in MHz, the largest limit */
      fail_at (error, shown, 0,
               _("%u µs is more than the board's 32-bit counter measures at %.0f MHz (at most "
                 "%" G_GUINT64_FORMAT " µs)"), condition->limit_us, counter_hz / 1e6, most);
      return FALSE;
    }
  command = tks_condition_to_command (condition);
  len = strlen (command);
  if (len > TKS_CONDITION_LINE_MAX)
    {
      fail_at (error, shown, 0,
               _("the board's command would be %u characters long, more than the %u a ChibiOS "
                 "shell line holds: use a shorter name"), (guint) len, TKS_CONDITION_LINE_MAX);
      return FALSE;
    }
  return TRUE;
}

gboolean
tks_condition_board_offers (const char * const  *commands,
                            GError             **error)
{
  if (commands != NULL && g_strv_contains (commands, TKS_CONDITION_COMMAND))
    return TRUE;
  if (commands == NULL)
    g_set_error (error, TKS_ERROR, TKS_ERROR_UNKNOWN_COMMAND,
                 _("The board's commands are not known (its help did not answer): it may not "
                   "offer condition triggers"));
  else
    g_set_error (error, TKS_ERROR, TKS_ERROR_UNKNOWN_COMMAND,
                 _("The board does not offer condition triggers: its help does not list "
                   "threads_trigger_when (build the board library with "
                   "THREADS_TIMESTAMPS_CONDITIONS)"));
  return FALSE;
}

char *
tks_condition_to_command (const TksCondition *condition)
{
  g_return_val_if_fail (condition != NULL, NULL);

  switch (condition->kind)
    {
    case TKS_CONDITION_OFF:
      return g_strdup (TKS_CONDITION_COMMAND " off");
    case TKS_CONDITION_MARKER:
      if (condition->has_value)
        return g_strdup_printf (TKS_CONDITION_COMMAND " marker %s %u", condition->name,
                                condition->value);
      return g_strdup_printf (TKS_CONDITION_COMMAND " marker %s", condition->name);
    case TKS_CONDITION_LATENCY:
    case TKS_CONDITION_RUN:
    case TKS_CONDITION_IRQ:
    default:
      return g_strdup_printf (TKS_CONDITION_COMMAND " %s %u%s%s", board_words[condition->kind],
                              condition->limit_us, condition->name[0] != '\0' ? " " : "",
                              condition->name);
    }
}

char *
tks_condition_to_string (const TksCondition *condition)
{
  g_return_val_if_fail (condition != NULL, NULL);

  switch (condition->kind)
    {
    case TKS_CONDITION_OFF:
      return g_strdup ("off");
    case TKS_CONDITION_MARKER:
      if (condition->has_value)
        return g_strdup_printf ("marker %s = %u", condition->name, condition->value);
      return g_strdup_printf ("marker %s", condition->name);
    case TKS_CONDITION_LATENCY:
    case TKS_CONDITION_RUN:
    case TKS_CONDITION_IRQ:
    default:
      return g_strdup_printf ("%s %s%s> %uus", board_words[condition->kind], condition->name,
                              condition->name[0] != '\0' ? " " : "", condition->limit_us);
    }
}

char *
tks_condition_describe (const TksCondition *condition)
{
  g_return_val_if_fail (condition != NULL, NULL);

  switch (condition->kind)
    {
    case TKS_CONDITION_OFF:
      return g_strdup (_("no condition"));
    case TKS_CONDITION_LATENCY:
      if (condition->name[0] != '\0')
        /* Translators: a thread's name, a time in microseconds */
        return g_strdup_printf (_("the first wake-up of %s later than %u µs"), condition->name,
                                condition->limit_us);
      return g_strdup_printf (_("the first wake-up of any thread later than %u µs"),
                              condition->limit_us);
    case TKS_CONDITION_RUN:
      if (condition->name[0] != '\0')
        /* Translators: a thread's name, a time in microseconds */
        return g_strdup_printf (_("the first run of %s longer than %u µs"), condition->name,
                                condition->limit_us);
      return g_strdup_printf (_("the first run of any thread longer than %u µs"),
                              condition->limit_us);
    case TKS_CONDITION_IRQ:
      if (condition->name[0] != '\0')
        /* Translators: an interrupt handler's name, a time in microseconds */
        return g_strdup_printf (_("the first run of the handler %s longer than %u µs"),
                                condition->name, condition->limit_us);
      return g_strdup_printf (_("the first handler that runs longer than %u µs"),
                              condition->limit_us);
    case TKS_CONDITION_MARKER:
    default:
      if (condition->has_value)
        /* Translators: a marker's name, its value */
        return g_strdup_printf (_("the first marker %s with the value %u"), condition->name,
                                condition->value);
      return g_strdup_printf (_("the first marker %s"), condition->name);
    }
}

/* A board's “marker NAME [= VALUE]” (@n words). */
static gboolean
marker_from_board (char         **words,
                   guint          n,
                   TksCondition  *c)
{
  guint64 number;

  if (strlen (words[1]) == 0 || strlen (words[1]) > TKS_CONDITION_NAME_MAX)
    return FALSE;
  c->kind = TKS_CONDITION_MARKER;
  strcpy (c->name, words[1]);
  if (n == 4)
    {
      if (!g_str_equal (words[2], "=") || !read_number (words[3], &number))
        return FALSE;
      c->has_value = TRUE;
      c->value = (guint32) number;
    }
  return TRUE;
}

/* A board's “KIND above N us [of NAME]” (@n words). */
static gboolean
limit_from_board (char         **words,
                  guint          n,
                  TksCondition  *c)
{
  guint64 number;
  guint k;

  if (!read_number (words[2], &number))
    return FALSE;
  for (k = TKS_CONDITION_LATENCY; k <= TKS_CONDITION_IRQ; k++)
    if (g_str_equal (words[0], board_words[k]))
      break;
  if (k > TKS_CONDITION_IRQ)
    return FALSE;
  c->kind = k;
  c->limit_us = (guint32) number;
  if (n == 6)
    {
      if (!g_str_equal (words[4], "of") || strlen (words[5]) == 0
          || strlen (words[5]) > TKS_CONDITION_NAME_MAX)
        return FALSE;
      strcpy (c->name, words[5]);
    }
  return TRUE;
}

gboolean
tks_condition_from_board (const char   *text,
                          TksCondition *condition)
{
  TksCondition c = { 0 };
  g_auto(GStrv) words = NULL;
  guint n;

  g_return_val_if_fail (condition != NULL, FALSE);

  if (text == NULL)
    return FALSE;
  words = g_strsplit (text, " ", -1);
  n = g_strv_length (words);
  if (n == 1 && g_str_equal (words[0], "none"))
    c.kind = TKS_CONDITION_OFF;
  else if ((n == 2 || n == 4) && g_str_equal (words[0], "marker"))
    {
      if (!marker_from_board (words, n, &c))
        return FALSE;
    }
  else if ((n == 4 || n == 6) && g_str_equal (words[1], "above") && g_str_equal (words[3], "us"))
    {
      if (!limit_from_board (words, n, &c))
        return FALSE;
    }
  else
    return FALSE;
  *condition = c;
  return TRUE;
}

void
tks_condition_reply_read (const char        *reply,
                          TksConditionReply *out)
{
  g_auto(GStrv) lines = NULL;
  const char *first = NULL;

  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);
  out->kind = TKS_CONDITION_REPLY_OTHER;
  lines = g_strsplit (reply != NULL ? reply : "", "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);

      if (*line == '\0')
        continue;
      if (first == NULL)
        first = line;
      else if (g_str_has_prefix (line, "Mode: "))
        {
          const char *mode = line + strlen ("Mode: ");

          out->mode = g_str_equal (mode, "run") ? TKS_BOARD_MODE_RUN
                      : g_str_equal (mode, "armed") ? TKS_BOARD_MODE_ARMED
                      : g_str_equal (mode, "frozen") ? TKS_BOARD_MODE_FROZEN
                      : TKS_BOARD_MODE_UNKNOWN;
        }
    }
  if (first == NULL)
    first = "";
  if (g_str_has_prefix (first, "Condition: "))
    {
      const char *text = first + strlen ("Condition: ");

      out->kind = g_str_equal (text, "none") ? TKS_CONDITION_REPLY_NONE : TKS_CONDITION_REPLY_SET;
      if (out->kind == TKS_CONDITION_REPLY_SET)
        out->text = g_strdup (text);
    }
  else if (g_str_has_prefix (first, "Usage: " TKS_CONDITION_COMMAND))
    out->kind = TKS_CONDITION_REPLY_USAGE;
  else if (g_str_has_prefix (first, "This condition is not available"))
    out->kind = TKS_CONDITION_REPLY_UNAVAILABLE;
  else if (g_str_has_prefix (first, "Condition triggers are disabled"))
    out->kind = TKS_CONDITION_REPLY_DISABLED;
  else if (g_str_equal (first, TKS_CONDITION_COMMAND " ?")
           || g_str_has_prefix (first, TKS_CONDITION_COMMAND "?"))
    out->kind = TKS_CONDITION_REPLY_UNKNOWN;
  else
    out->text = g_strndup (first, 200);
}

void
tks_condition_reply_clear (TksConditionReply *reply)
{
  g_clear_pointer (&reply->text, g_free);
}

/* "the first wake-up of comm later than 1000 µs", or the board's own text quoted */
static char *
board_condition_words (const char *text)
{
  TksCondition condition;

  if (tks_condition_from_board (text, &condition))
    return tks_condition_describe (&condition);
  /* Translators: a condition in the board's own words */
  return g_strdup_printf (_("the condition “%s”"), text);
}

char *
tks_condition_reply_describe (const TksConditionReply *reply)
{
  g_autofree char *what = NULL;

  g_return_val_if_fail (reply != NULL, NULL);

  switch (reply->kind)
    {
    case TKS_CONDITION_REPLY_SET:
      what = board_condition_words (reply->text);
      if (reply->mode == TKS_BOARD_MODE_FROZEN)
        /* Translators: the condition, in words */
        return g_strdup_printf (_("Triggered: %s was met and the log froze around it"), what);
      if (reply->mode == TKS_BOARD_MODE_ARMED)
        return g_strdup_printf (_("Triggered: %s was met; the board records the rest of its "
                                  "log"), what);
      return g_strdup_printf (_("Armed: %s sets the trigger"), what);
    case TKS_CONDITION_REPLY_NONE:
      if (reply->mode == TKS_BOARD_MODE_FROZEN)
        return g_strdup (_("No condition is set; the log is frozen by a trigger"));
      if (reply->mode == TKS_BOARD_MODE_ARMED)
        return g_strdup (_("No condition is set; a trigger was set and the board records the "
                           "rest of its log"));
      return g_strdup (_("No condition is set"));
    case TKS_CONDITION_REPLY_USAGE:
      return g_strdup (_("The board did not accept the condition (it answered with its usage "
                         "line)"));
    case TKS_CONDITION_REPLY_UNAVAILABLE:
      return g_strdup (_("The board does not offer this condition (it does not record these "
                         "events, the limit is more than its counter measures, or the name is "
                         "too long)"));
    case TKS_CONDITION_REPLY_DISABLED:
      return g_strdup (_("The board does not offer condition triggers (its library is built "
                         "without THREADS_TIMESTAMPS_CONDITIONS)"));
    case TKS_CONDITION_REPLY_UNKNOWN:
      return g_strdup (_("The board does not offer condition triggers (its shell has no "
                         "threads_trigger_when command)"));
    case TKS_CONDITION_REPLY_OTHER:
    default:
      /* Translators: the board's reply, as it came */
      return g_strdup_printf (_("The board gave an answer Tickscope does not know: “%s”"),
                              reply->text != NULL ? reply->text : "");
    }
}

const char *
tks_board_mode_describe (TksBoardMode mode)
{
  switch (mode)
    {
    case TKS_BOARD_MODE_RUN:
      return _("recording, no trigger yet");
    case TKS_BOARD_MODE_ARMED:
      return _("triggered, recording the rest of the log");
    case TKS_BOARD_MODE_FROZEN:
      return _("frozen: the log is ready to fetch");
    case TKS_BOARD_MODE_UNKNOWN:
    default:
      return _("not known");
    }
}
