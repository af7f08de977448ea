/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tickscope-cli find FILE EXPRESSION: the moments an expression of find (tks-find.h) names,
 * one line each. Its exit status is grep's: 0 when something matched, 1 when nothing did,
 * 2 for a wrong expression, wrong arguments or a file that cannot be read. */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "tks-cli.h"
#include "tks-find.h"

int
tks_cli_find (int    argc,
              char **argv)
{
  g_autoptr(TksCapture) capture = NULL;
  g_autoptr(TksFind) find = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) matches = NULL;
  guint n_total = 0;
  double origin, hz;
  gboolean help = tks_cli_wants_help (argc, argv);

  if (help || argc != 3 || argv[1][0] == '\0')
    {
      fprintf (help ? stdout : stderr, "%s",
               _("Usage: tickscope-cli find FILE EXPRESSION\n"
                 "EXPRESSION: [run|latency|irq|sleep|marker|state] [NAME…] "
                 "[> >= < <= = != VALUE[ns|us|ms|s|ticks]]\n"
                 "as in “latency > 100us”, “run > 2ms”, “irq USART2”, "
                 "“marker sample = 42”, or words of a name.\n"));
      return help ? TKS_CLI_OK : TKS_CLI_MISUSE;
    }

  find = tks_find_parse (argv[2], &error);
  if (find == NULL)
    {
      g_autofree char *message = tks_cli_escape (error->message);

      fprintf (stderr, "tickscope-cli: %s\n", message);
      return TKS_CLI_MISUSE;
    }
  capture = tks_cli_load (argv[1], NULL, &error);
  if (capture == NULL)
    {
      g_autofree char *message = tks_cli_escape (error->message);

      fprintf (stderr, "tickscope-cli: %s\n", message);
      return TKS_CLI_MISUSE;
    }

  /* times as the viewer's ruler counts them: from the trigger, else from the start */
  if (!tks_capture_get_trigger (capture, &origin))
    origin = tks_capture_get_start (capture);
  hz = tks_capture_get_tick_hz (capture);
  matches = tks_find_run (find, capture, 0, 0, &n_total);
  for (guint i = 0; i < matches->len; i++)
    {
      const TksFindMatch *m = &g_array_index (matches, TksFindMatch, i);
      g_autofree char *what = tks_find_match_describe (capture, m);
      g_autofree char *shown = tks_cli_escape (what);
      g_autofree char *tick = tks_tick_format (m->begin);

      /* Translators: a match of find: its time in ms from the ruler's 0, its tick, what it is */
      printf (_("%+.6f ms  tick %s  %s\n"), (m->begin - origin) * 1e3 / hz, tick, shown);
    }
  {
    g_autofree char *described = tks_find_describe (find);
    g_autofree char *shown = tks_cli_escape (described);

    fprintf (stderr, g_dngettext (GETTEXT_PACKAGE, "%u match: %s\n", "%u matches: %s\n", n_total),
             n_total, shown);
  }
  return n_total > 0 ? TKS_CLI_OK : TKS_CLI_BAD;
}
