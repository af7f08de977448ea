/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>

#include "tks-cli.h"

int
tks_cli_info (int argc, char **argv)
{
  return TKS_CLI_MISUSE;
}

int
tks_cli_convert (int argc, char **argv)
{
  return TKS_CLI_MISUSE;
}
