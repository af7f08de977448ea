/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "tks-parser-private.h"

/* A capture file's own lines after "Saved position": the four floats of the view the original
 * viewer saved, then Tickscope's lines ("Tickscope KEY VALUE", its events, holes and
 * heartbeats). */

/* One of the four floats of the saved view. */
static void
position_line (TksParser  *parser,
               const char *p,
               const char *end)
{
  TksParsed *cur = parser->current;
  g_autofree char *text = g_strndup (p, end - p);
  char *endptr = NULL;
  double v = g_ascii_strtod (text, &endptr);

  if (endptr != NULL && *endptr == '\0' && isfinite (v))
    {
      double *slot[] = { &cur->saved_view.x0, &cur->saved_view.x1,
                         &cur->saved_view.y0, &cur->saved_view.y1 };

      *slot[parser->n_positions++] = v;
      cur->has_saved_view = parser->n_positions == 4;
      return;
    }
  parser->n_positions = 4;
  tks_parser_warn (parser, _("line %u: warning: the saved position is unreadable; "
                             "the whole capture is shown"), parser->line_no);
}

/* "Tickscope event…": TRUE when it is a saved event. */
static gboolean
saved_event_line (TksParser  *parser,
                  const char *p,
                  const char *end)
{
  g_autofree char *problem = NULL;

  if (!tks_parsed_events_saved_line (&parser->saved_events, parser->saved_switches, p, end,
                                     &problem))
    return FALSE;
  if (problem != NULL)
    tks_parser_warn (parser, _("line %u: warning: %s"), parser->line_no, problem);
  if (parser->saved_switches->len > MAX_RECORDS)
    tks_parser_fail (parser, _("Line %u: the saved events hold more than %u switches, "
                               "more than any board keeps"), parser->line_no, MAX_RECORDS);
  return TRUE;
}

static void
saved_tick_bits (TksParser  *parser,
                 char       *value,
                 const char *p,
                 const char *end)
{
  guint64 bits = 0;
  const char *v_end = value + strlen (value);

  if (parse_uint (value, v_end, 64, &bits) != v_end)
    bits = 0;
  tks_parser_set_tick_bits (parser, bits, p, end);
}

static void
saved_tick_hz (TksParser  *parser,
               char       *value,
               const char *p,
               const char *end)
{
  char *endptr = NULL;
  double hz = g_ascii_strtod (value, &endptr);

  if (endptr == value || *endptr != '\0')
    hz = NAN;
  tks_parser_set_tick_hz (parser, hz, p, end);
}

static void
saved_source (TksParser  *parser,
              char       *value,
              const char *p,
              const char *end)
{
  g_free (parser->current->source);
  parser->current->source = g_utf8_make_valid (value, -1);
}

static void
saved_trigger_name (TksParser  *parser,
                    char       *value,
                    const char *p,
                    const char *end)
{
  g_free (parser->current->trigger_name);
  parser->current->trigger_name = g_utf8_make_valid (value, -1);
}

/* What was wrong with the input the capture was made from, said again. */
static void
saved_damage (TksParser  *parser,
              char       *value,
              const char *p,
              const char *end)
{
  g_autofree char *damage = g_utf8_make_valid (value, -1);
  char *shown = g_strdup_printf (_("line %u: warning: in the input this capture "
                                   "was made from: %s"), parser->line_no, damage);

  tks_parser_keep_warning (parser, shown, strlen (shown) - strlen (damage));
}

typedef void (*SavedKeyFunc) (TksParser  *parser,
                              char       *value,
                              const char *p,
                              const char *end);

/* "Tickscope KEY VALUE": the keys read; others are passed over. */
static const struct
{
  const char  *key;
  SavedKeyFunc func;
} saved_keys[] = {
  { "tick-bits", saved_tick_bits },
  { "tick-hz", saved_tick_hz },
  { "source", saved_source },
  { "trigger-name", saved_trigger_name },
  { "damage", saved_damage },
};

static void
saved_key_line (TksParser  *parser,
                const char *p,
                const char *end)
{
  g_autofree char *text = g_strndup (p + strlen ("Tickscope "), end - p - strlen ("Tickscope "));
  char *value = strchr (text, ' ');

  if (value == NULL)
    return;
  *value++ = '\0';
  for (guint i = 0; i < G_N_ELEMENTS (saved_keys); i++)
    if (g_str_equal (text, saved_keys[i].key))
      {
        saved_keys[i].func (parser, value, p, end);
        return;
      }
}

void
tks_parser_saved_line (TksParser  *parser,
                       const char *p,
                       const char *end)
{
  trim (&p, &end);
  if (p == end)
    return;
  if (parser->n_positions < 4)
    position_line (parser, p, end);
  else if (has_prefix (p, end, "Tickscope event") && saved_event_line (parser, p, end))
    return;
  else if (has_prefix (p, end, "Tickscope gap "))
    tks_parser_gap_line (parser, p, end, p + strlen ("Tickscope gap "), TRUE, 0, MAX_RECORDS,
                         FALSE);
  else if (has_prefix (p, end, "Tickscope beat "))
    tks_parser_beat_line (parser, p, end, TRUE);
  else if (has_prefix (p, end, "Tickscope "))
    saved_key_line (parser, p, end);
}
