/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>

#include "tks-cli.h"
/* Placeholder until this command group lands. */

int
tks_cli_fetch (int argc, char **argv)
{
  fprintf (stderr, "tickscope-cli: fetch is not available in this build\n");
  return TKS_CLI_MISUSE;
}

int
tks_cli_trigger (int argc, char **argv)
{
  fprintf (stderr, "tickscope-cli: trigger is not available in this build\n");
  return TKS_CLI_MISUSE;
}

int
tks_cli_run (int argc, char **argv)
{
  fprintf (stderr, "tickscope-cli: run is not available in this build\n");
  return TKS_CLI_MISUSE;
}
