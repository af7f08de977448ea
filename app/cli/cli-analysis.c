/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>

#include "tks-cli.h"
/* Placeholder until this command group lands. */

int
tks_cli_stats (int argc, char **argv)
{
  fprintf (stderr, "tickscope-cli: stats is not available in this build\n");
  return TKS_CLI_MISUSE;
}

int
tks_cli_export (int argc, char **argv)
{
  fprintf (stderr, "tickscope-cli: export is not available in this build\n");
  return TKS_CLI_MISUSE;
}
