/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tks-find.h"
#include "tks-time-format.h"

G_DEFINE_QUARK (tks-find-error-quark, tks_find_error)

typedef enum
{
  WHAT_ANY,      /* plain words: runs, handlers, markers, states by name */
  WHAT_RUN,
  WHAT_WAKEUP,
  WHAT_HANDLER,
  WHAT_SLEEP,
  WHAT_MARKER,
  WHAT_STATE,
} What;

typedef enum
{
  OP_NONE,
  OP_GT,
  OP_GE,
  OP_LT,
  OP_LE,
  OP_EQ,
  OP_NE,
} Op;

struct _TksFind
{
  What     what;
  char    *name;      /* casefolded, NULL: any */
  Op       op;
  double   value;     /* µs, or ticks when @in_ticks, or a marker's value */
  gboolean in_ticks;
};

/* ------------------------------------------------------------------------------------------ */
/* Reading                                                                                    */

typedef enum
{
  TOK_END,
  TOK_WORD,
  TOK_OP,
} TokKind;

typedef struct
{
  TokKind     kind;
  char       *text;
  guint       column;   /* 1-based, in characters */
  Op          op;
} Token;

static void
token_clear (gpointer data)
{
  g_free (((Token *) data)->text);
}

static gboolean
is_op_char (gunichar c)
{
  return c == '<' || c == '>' || c == '=' || c == '!';
}

static gboolean
tokenize (const char  *expr,
          GArray      *tokens,
          GError     **error)
{
  const char *p = expr;
  guint column = 1;

  while (*p != '\0')
    {
      gunichar c = g_utf8_get_char (p);
      Token tok = { TOK_WORD, NULL, column, OP_NONE };

      if (g_unichar_isspace (c))
        {
          p = g_utf8_next_char (p);
          column++;
          continue;
        }
      if (is_op_char (c))
        {
          char two[3] = { p[0], p[1] == '=' ? '=' : '\0', '\0' };

          tok.kind = TOK_OP;
          if (strcmp (two, ">") == 0)
            tok.op = OP_GT;
          else if (strcmp (two, ">=") == 0)
            tok.op = OP_GE;
          else if (strcmp (two, "<") == 0)
            tok.op = OP_LT;
          else if (strcmp (two, "<=") == 0)
            tok.op = OP_LE;
          else if (strcmp (two, "=") == 0 || strcmp (two, "==") == 0)
            tok.op = OP_EQ;
          else if (strcmp (two, "!=") == 0)
            tok.op = OP_NE;
          else
            {
              g_set_error (error, TKS_FIND_ERROR, TKS_FIND_ERROR_SYNTAX,
                           /* Translators: %u: a column in the expression typed */
                           _("“!” at column %u is not a comparison: use != (or >, >=, <, <=, =)"),
                           column);
              return FALSE;
            }
          tok.text = g_strdup (two);
          p += strlen (two);
          column += strlen (two);
          g_array_append_val (tokens, tok);
          continue;
        }
      if (c == '"')
        {
          const char *end = strchr (p + 1, '"');

          if (end == NULL)
            {
              g_set_error (error, TKS_FIND_ERROR, TKS_FIND_ERROR_SYNTAX,
                           _("The quote at column %u is not closed"), column);
              return FALSE;
            }
          tok.text = g_strndup (p + 1, end - p - 1);
          column += g_utf8_strlen (p, end + 1 - p);
          p = end + 1;
          g_array_append_val (tokens, tok);
          continue;
        }
      {
        const char *start = p;

        while (*p != '\0')
          {
            gunichar d = g_utf8_get_char (p);

            if (g_unichar_isspace (d) || is_op_char (d) || d == '"')
              break;
            p = g_utf8_next_char (p);
            column++;
          }
        tok.text = g_strndup (start, p - start);
        g_array_append_val (tokens, tok);
      }
    }
  {
    Token end = { TOK_END, NULL, column, OP_NONE };

    g_array_append_val (tokens, end);
  }
  return TRUE;
}

static What
what_of (const char *word)
{
  static const struct { const char *word; What what; } words[] = {
    { "run", WHAT_RUN }, { "runs", WHAT_RUN }, { "thread", WHAT_RUN },
    { "latency", WHAT_WAKEUP }, { "wakeup", WHAT_WAKEUP }, { "wake-up", WHAT_WAKEUP },
    { "irq", WHAT_HANDLER }, { "handler", WHAT_HANDLER }, { "isr", WHAT_HANDLER },
    { "sleep", WHAT_SLEEP },
    { "marker", WHAT_MARKER },
    { "state", WHAT_STATE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    if (g_ascii_strcasecmp (word, words[i].word) == 0)
      return words[i].what;
  return WHAT_ANY;
}

/* A unit's µs (0 for ticks); FALSE when @unit is none. */
static gboolean
unit_of (const char *unit,
         double     *us,
         gboolean   *ticks)
{
  static const struct { const char *unit; double us; } units[] = {
    { "ns", 1e-3 }, { "us", 1 }, { "µs", 1 }, { "ms", 1e3 }, { "s", 1e6 },
    { "t", 0 }, { "tick", 0 }, { "ticks", 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_ascii_strcasecmp (unit, units[i].unit) == 0 || strcmp (unit, units[i].unit) == 0)
      {
        *us = units[i].us;
        *ticks = units[i].us == 0;
        return TRUE;
      }
  return FALSE;
}

static const char *
measure_words (What what)
{
  switch (what)
    {
    case WHAT_WAKEUP: return _("a wake-up's latency");
    case WHAT_MARKER: return _("a marker's value");
    case WHAT_RUN:    return _("a run's length");
    case WHAT_HANDLER: return _("a handler's length");
    case WHAT_SLEEP:  return _("a sleep's length");
    case WHAT_STATE:  return _("a state's length");
    case WHAT_ANY:
    default:          return "";
    }
}

/* The value after the comparison at @tokens[*i]: a number and its unit, joined ("100us") or
 * apart ("100 us"). */
static gboolean
read_value (TksFind      *self,
            const Token  *tokens,
            guint        *i,
            const Token  *op,
            GError      **error)
{
  const Token *tok = &tokens[*i];
  const char *text, *end;
  double value;
  g_autofree char *unit = NULL;
  guint unit_column;

  if (tok->kind != TOK_WORD)
    {
      g_set_error (error, TKS_FIND_ERROR, TKS_FIND_ERROR_SYNTAX,
                   /* Translators: %s: a comparison (">"), %u: a column */
                   _("A number is expected after “%s” at column %u"), op->text, tok->column);
      return FALSE;
    }
  text = tok->text;
  value = g_ascii_strtod (text, (char **) &end);
  if (end == text || !isfinite (value) || value < 0 || text[0] == '-' || text[0] == '+')
    {
      g_set_error (error, TKS_FIND_ERROR, TKS_FIND_ERROR_SYNTAX,
                   /* Translators: %s: what was typed, %u: its column */
                   _("“%s” at column %u is not a number of zero or more"), text, tok->column);
      return FALSE;
    }
  unit_column = tok->column + g_utf8_strlen (text, end - text);
  (*i)++;
  if (*end != '\0')
    unit = g_strdup (end);
  else if (tokens[*i].kind == TOK_WORD && self->what != WHAT_MARKER)
    {
      unit = g_strdup (tokens[*i].text);
      unit_column = tokens[*i].column;
      (*i)++;
    }

  if (self->what == WHAT_MARKER)
    {
      if (unit != NULL)
        {
          g_set_error (error, TKS_FIND_ERROR, TKS_FIND_ERROR_SYNTAX,
                       _("A marker's value is a plain number: “%s” at column %u is not one"),
                       text, tok->column);
          return FALSE;
        }
      if (value != floor (value) || value > G_MAXUINT32)
        {
          g_set_error (error, TKS_FIND_ERROR, TKS_FIND_ERROR_SYNTAX,
                       _("A marker's value is a whole number from 0 to 4294967295: “%s” at "
                         "column %u is not"), text, tok->column);
          return FALSE;
        }
      self->value = value;
      return TRUE;
    }
  if (unit == NULL)
    {
      g_set_error (error, TKS_FIND_ERROR, TKS_FIND_ERROR_SYNTAX,
                   /* Translators: %s: a number, %u: its column */
                   _("“%s” at column %u needs a unit: ns, us, ms, s or ticks (as in 100us)"),
                   text, tok->column);
      return FALSE;
    }
  {
    double us;
    gboolean ticks;

    if (!unit_of (unit, &us, &ticks))
      {
        g_set_error (error, TKS_FIND_ERROR, TKS_FIND_ERROR_SYNTAX,
                     /* Translators: %s: what was typed as a unit, %u: its column */
                     _("Unknown unit “%s” at column %u: use ns, us, ms, s or ticks"),
                     unit, unit_column);
        return FALSE;
      }
    self->in_ticks = ticks;
    self->value = ticks ? value : value * us;
  }
  return TRUE;
}

TksFind *
tks_find_parse (const char  *expression,
                GError     **error)
{
  g_autoptr(GArray) tokens = g_array_new (FALSE, TRUE, sizeof (Token));
  g_autoptr(GString) name = g_string_new (NULL);
  TksFind *self;
  const Token *t;
  guint i = 0;

  g_return_val_if_fail (expression != NULL, NULL);

  g_array_set_clear_func (tokens, token_clear);
  if (!g_utf8_validate (expression, -1, NULL))
    {
      g_set_error_literal (error, TKS_FIND_ERROR, TKS_FIND_ERROR_SYNTAX,
                           _("The expression is not valid UTF-8 text"));
      return NULL;
    }
  if (!tokenize (expression, tokens, error))
    return NULL;
  t = (const Token *) (gpointer) tokens->data;

  self = g_new0 (TksFind, 1);
  if (t[0].kind == TOK_WORD)
    {
      self->what = what_of (t[0].text);
      if (self->what != WHAT_ANY)
        i++;
    }
  while (t[i].kind == TOK_WORD)
    {
      if (name->len > 0)
        g_string_append_c (name, ' ');
      g_string_append (name, t[i].text);
      i++;
    }
  if (name->len > 0)
    self->name = g_utf8_casefold (name->str, -1);

  if (t[i].kind == TOK_OP)
    {
      const Token *op = &t[i];

      if (self->what == WHAT_ANY)
        {
          g_set_error (error, TKS_FIND_ERROR, TKS_FIND_ERROR_SYNTAX,
                       /* Translators: %s: a comparison (">"), %u: its column */
                       _("“%s” at column %u compares nothing: begin with latency, run, irq, "
                         "sleep, state or marker (as in latency > 100us)"),
                       op->text, op->column);
          tks_find_free (self);
          return NULL;
        }
      self->op = op->op;
      i++;
      if (!read_value (self, t, &i, op, error))
        {
          tks_find_free (self);
          return NULL;
        }
    }
  if (t[i].kind != TOK_END)
    {
      g_set_error (error, TKS_FIND_ERROR, TKS_FIND_ERROR_SYNTAX,
                   /* Translators: %s: what was typed, %u: its column */
                   _("Unexpected “%s” at column %u: the expression ends after the value"),
                   t[i].text, t[i].column);
      tks_find_free (self);
      return NULL;
    }
  if (self->what == WHAT_ANY && self->name == NULL)
    {
      g_set_error_literal (error, TKS_FIND_ERROR, TKS_FIND_ERROR_SYNTAX,
                           _("Nothing to find: type a name, or an expression such as "
                             "latency > 100us"));
      tks_find_free (self);
      return NULL;
    }
  return self;
}

void
tks_find_free (TksFind *find)
{
  if (find == NULL)
    return;
  g_free (find->name);
  g_free (find);
}

static const char *
op_text (Op op)
{
  static const char *const texts[] = { "", ">", "≥", "<", "≤", "=", "≠" };

  return texts[op];
}

char *
tks_find_describe (TksFind *find)
{
  GString *s = g_string_new (NULL);
  static const char *whats[] = { NULL, N_("runs"), N_("wake-ups"), N_("handlers"), N_("sleeps"),
                                 N_("markers"), N_("states") };

  g_return_val_if_fail (find != NULL, NULL);

  if (find->what == WHAT_ANY)
    /* Translators: %s: the words searched for */
    g_string_printf (s, _("runs, handlers, markers and states named “%s”"), find->name);
  else
    {
      g_string_append (s, _(whats[find->what]));
      if (find->name != NULL)
        g_string_append_printf (s, _(" of “%s”"), find->name);
      if (find->op != OP_NONE)
        {
          g_string_append_printf (s, _(" with %s %s "), measure_words (find->what),
                                  op_text (find->op));
          if (find->what == WHAT_MARKER)
            g_string_append_printf (s, "%.0f", find->value);
          else if (find->in_ticks)
            g_string_append_printf (s, _("%g ticks"), find->value);
          else
            g_string_append_printf (s, _("%g µs"), find->value);
        }
    }
  return g_string_free (s, FALSE);
}

/* ------------------------------------------------------------------------------------------ */
/* Matching                                                                                   */

typedef struct
{
  TksFind    *find;
  TksCapture *capture;
  TksEvents  *events;
  double      tick_hz;
  double      limit;      /* the value to compare with: µs or a marker's value */
  GArray     *matches;
  guint       max;
  guint       n_total;
} Run;

static gboolean
name_matches (TksFind    *find,
              const char *name)
{
  g_autofree char *folded = NULL;

  if (find->name == NULL)
    return TRUE;
  if (name == NULL)
    return FALSE;
  folded = g_utf8_casefold (name, -1);
  return strstr (folded, find->name) != NULL;
}

static gboolean
compare (Op     op,
         double a,
         double b)
{
  switch (op)
    {
    case OP_GT: return a > b;
    case OP_GE: return a >= b;
    case OP_LT: return a < b;
    case OP_LE: return a <= b;
    case OP_EQ: return a == b;
    case OP_NE: return a != b;
    case OP_NONE:
    default:    return TRUE;
    }
}

static void
add (Run                *run,
     const TksFindMatch *match)
{
  if (!compare (run->find->op, match->measure, run->limit))
    return;
  run->n_total++;
  if (run->max == 0 || run->matches->len < run->max)
    g_array_append_val (run->matches, *match);
}

static void
find_runs (Run *run)
{
  guint n = tks_capture_get_n_threads (run->capture);

  for (guint i = 0; i < n; i++)
    {
      const TksThread *th = tks_capture_get_thread (run->capture, i);

      if (!name_matches (run->find, th->name))
        continue;
      for (guint r = 0; r < th->n_runs; r++)
        {
          TksFindMatch m = { th->runs[r].begin, th->runs[r].end, TKS_FIND_RUN, i, r, NULL,
                             (th->runs[r].end - th->runs[r].begin) * 1e6 / run->tick_hz };

          add (run, &m);
        }
    }
}

static void
find_wakeups (Run *run)
{
  guint n = 0;
  const TksWakeup *w;

  if (run->events == NULL)
    return;
  w = tks_events_get_wakeups (run->events, &n);
  for (guint i = 0; i < n; i++)
    {
      const TksThread *th = w[i].thread != G_MAXUINT
        ? tks_capture_get_thread (run->capture, w[i].thread) : NULL;
      TksFindMatch m = { w[i].ready.pos, w[i].run.pos, TKS_FIND_WAKEUP, w[i].thread, i, NULL,
                         tks_events_to_us (run->events, w[i].latency) };

      if (w[i].open || !name_matches (run->find, th != NULL ? th->name : NULL))
        continue;
      add (run, &m);
    }
}

static void
find_slices (Run          *run,
             TksTrackKind  kind,
             TksFindKind   find_kind)
{
  guint n = 0;
  const TksTrack *tracks;

  if (run->events == NULL)
    return;
  tracks = tks_events_get_tracks (run->events, kind, &n);
  for (guint k = 0; k < n; k++)
    {
      const TksTrack *tr = &tracks[k];
      /* a sleep is known by its waker; a state by its channel or its name */
      gboolean by_track = kind != TKS_TRACK_SLEEP && name_matches (run->find, tr->name);

      if (kind == TKS_TRACK_MARKER)
        {
          if (!by_track)
            continue;
          for (guint i = 0; i < tr->n_instants; i++)
            {
              TksFindMatch m = { tr->instants[i].time.pos, tr->instants[i].time.pos,
                                 TKS_FIND_MARKER, G_MAXUINT, i, tr, tr->instants[i].value };

              add (run, &m);
            }
          continue;
        }
      for (guint i = 0; i < tr->n_slices; i++)
        {
          const TksSlice *s = &tr->slices[i];
          TksFindMatch m = { s->begin.pos, s->end.pos, find_kind, G_MAXUINT, i, tr,
                             tks_events_to_us (run->events, s->end.time - s->begin.time) };

          if (!by_track && (kind == TKS_TRACK_IRQ || !name_matches (run->find, s->label)))
            continue;
          add (run, &m);
        }
    }
}

static int
cmp_match (gconstpointer a,
           gconstpointer b)
{
  const TksFindMatch *ma = a, *mb = b;

  if (ma->begin != mb->begin)
    return ma->begin < mb->begin ? -1 : 1;
  if (ma->kind != mb->kind)
    return ma->kind < mb->kind ? -1 : 1;
  return ma->thread < mb->thread ? -1 : ma->thread > mb->thread;
}

GArray *
tks_find_run (TksFind    *find,
              TksCapture *capture,
              double      tick_hz,
              guint       max,
              guint      *n_total)
{
  Run run = { find, capture, NULL, tick_hz, find->value, NULL, max, 0 };

  g_return_val_if_fail (find != NULL, NULL);
  g_return_val_if_fail (TKS_IS_CAPTURE (capture), NULL);

  if (!(run.tick_hz > 0))
    run.tick_hz = tks_capture_get_tick_hz (capture);
  if (find->in_ticks)
    run.limit = find->value * 1e6 / run.tick_hz;
  run.events = tks_capture_get_events (capture);
  run.matches = g_array_new (FALSE, FALSE, sizeof (TksFindMatch));

  switch (find->what)
    {
    case WHAT_RUN:
      find_runs (&run);
      break;
    case WHAT_WAKEUP:
      find_wakeups (&run);
      break;
    case WHAT_HANDLER:
      find_slices (&run, TKS_TRACK_IRQ, TKS_FIND_HANDLER);
      break;
    case WHAT_SLEEP:
      find_slices (&run, TKS_TRACK_SLEEP, TKS_FIND_SLEEP);
      break;
    case WHAT_MARKER:
      find_slices (&run, TKS_TRACK_MARKER, TKS_FIND_MARKER);
      break;
    case WHAT_STATE:
      find_slices (&run, TKS_TRACK_STATE, TKS_FIND_STATE);
      break;
    case WHAT_ANY:
    default:
      find_runs (&run);
      find_slices (&run, TKS_TRACK_IRQ, TKS_FIND_HANDLER);
      find_slices (&run, TKS_TRACK_MARKER, TKS_FIND_MARKER);
      find_slices (&run, TKS_TRACK_STATE, TKS_FIND_STATE);
      break;
    }
  g_array_sort (run.matches, cmp_match);
  if (n_total != NULL)
    *n_total = run.n_total;
  return run.matches;
}

guint
tks_find_next (const GArray *matches,
               double        t,
               gboolean      forward)
{
  guint n, lo = 0, hi;

  g_return_val_if_fail (matches != NULL, G_MAXUINT);

  n = matches->len;
  if (n == 0)
    return G_MAXUINT;
  hi = n;
  /* the first match beginning after @t (forward), at or after @t (backward) */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      double b = g_array_index (matches, TksFindMatch, mid).begin;

      if (forward ? b <= t : b < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (forward)
    return lo < n ? lo : 0;
  return lo > 0 ? lo - 1 : n - 1;
}


char *
tks_find_match_describe (TksCapture         *capture,
                         const TksFindMatch *match)
{
  g_autofree char *us = NULL;
  const TksThread *th = NULL;

  g_return_val_if_fail (TKS_IS_CAPTURE (capture), NULL);
  g_return_val_if_fail (match != NULL, NULL);

  if (match->thread != G_MAXUINT)
    th = tks_capture_get_thread (capture, match->thread);
  if (match->kind != TKS_FIND_MARKER)
    us = tks_time_format_us (match->measure);
  switch (match->kind)
    {
    case TKS_FIND_RUN:
      /* Translators: a thread's run: its name, its length */
      return g_strdup_printf (_("run of %s, %s"), th != NULL ? th->name : "?", us);
    case TKS_FIND_WAKEUP:
      /* Translators: a thread's wake-up: its name, its latency */
      return g_strdup_printf (_("wake-up of %s, latency %s"), th != NULL ? th->name : "?", us);
    case TKS_FIND_HANDLER:
      return g_strdup_printf (_("handler %s, %s"), match->track->name, us);
    case TKS_FIND_SLEEP:
      {
        const char *by = match->track->slices[match->index].label;

        return by != NULL ? g_strdup_printf (_("sleep, %s, woken by %s"), us, by)
                          : g_strdup_printf (_("sleep, %s"), us);
      }
    case TKS_FIND_MARKER:
      return g_strdup_printf (_("marker %s, value %.0f"), match->track->name, match->measure);
    case TKS_FIND_STATE:
    default:
      {
        const char *state = match->track->slices[match->index].label;

        return g_strdup_printf (_("state %s of %s, %s"), state != NULL ? state : "?",
                                match->track->name, us);
      }
    }
}
