/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "tks-cli.h"
#include "tks-i18n.h"

static const struct
{
  const char *name;
  int (*run) (int argc, char **argv);
  const char *synopsis;     /* as it is typed: not translated */
  const char *description;  /* NULL: the synopsis says it all */
} commands[] = {
  { "info",    tks_cli_info,    "info FILE",                      N_("threads, records, span, trigger, warnings") },
  { "stats",   tks_cli_stats,   "stats FILE [--from T --to T] [--histogram] [--period T=10ms]", N_("per-thread run time, share, activations, wake-up latency") },
  { "explain", tks_cli_explain, "explain FILE [--thread T] [--worst N] [--at TIME]", N_("why wake-ups were late: what ran meanwhile") },
  { "export",  tks_cli_export,  "export FILE --format perfetto|csv|ftrace|paraver|vcd [-o OUT] [--tick-hz HZ] [--unit s|ms|us|ns]", NULL },
  { "find",    tks_cli_find,    "find FILE EXPRESSION",           N_("the moments an expression names (latency > 100us, irq USART2)") },
  { "convert", tks_cli_convert, "convert TRANSCRIPT -o FILE.txt", N_("raw shell bytes -> capture file") },
  { "fetch",   tks_cli_fetch,   "fetch PORT -o FILE.txt",         N_("get the list and the log from a board") },
  { "trigger", tks_cli_trigger, "trigger PORT [--when CONDITION] [--wait -o FILE]", N_("set the board's trigger, now or on a condition; wait for the freeze and fetch") },
  { "run",     tks_cli_run,     "run PORT",                       N_("remove the trigger, restart logging") },
  { "record",  tks_cli_record,  "record PORT -o FILE [--duration S] [--events]", N_("stream the board's log into a file until Ctrl+C") },
  { "check",   tks_cli_check,   "check FILE --budgets BUDGETS.ini [--junit OUT.xml]", N_("timing budgets: exit 1 when one is broken") },
  { "diff",    tks_cli_diff,    "diff A B [--format text|csv]",   N_("two captures per thread and handler, largest changes first") },
  { "top",     tks_cli_top,     "top PORT [--interval S] [--json] [--events]", N_("a live per-thread CPU table from a recording board") },
};

static void
print_usage (FILE *out)
{
  fprintf (out, "%s\n\n%s\n", _("Usage: tickscope-cli COMMAND [ARGS]"), _("Commands:"));
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (commands[i].description != NULL)
      fprintf (out, "  %-30s %s\n", commands[i].synopsis, _(commands[i].description));
    else
      fprintf (out, "  %s\n", commands[i].synopsis);
  fprintf (out, "\n%s",
           _("FILE may be a capture (.txt) or raw bytes received from the board's shell;\n"
             "“-” reads standard input or writes standard output. PORT is a serial port\n"
             "(/dev/ttyACM0, COM3), a pty, tcp:HOST:PORT or “demo” (the simulated board).\n"
             "Exit status: 0 success (also with warnings), 1 bad input, 2 misuse;\n"
             "find: 0 when something matched, 1 when nothing did, 2 on an error.\n"));
}

int
main (int    argc,
      char **argv)
{
  tks_i18n_init ();

  if (argc < 2)
    {
      print_usage (stderr);
      return TKS_CLI_MISUSE;
    }

  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      print_usage (stdout);
      return TKS_CLI_OK;
    }

  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("tickscope-cli %s\n", PACKAGE_VERSION);
      return TKS_CLI_OK;
    }

  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return tks_cli_finish (commands[i].name, commands[i].run (argc - 1, argv + 1));

  {
    g_autofree char *shown = tks_cli_escape (argv[1]);

    fprintf (stderr, _("tickscope-cli: unknown command “%s”\n\n"), shown);
  }
  print_usage (stderr);
  return TKS_CLI_MISUSE;
}
