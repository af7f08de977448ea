/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Exit codes of tickscope-cli. */
enum
{
  TKS_CLI_OK      = 0, /* success, also with warnings */
  TKS_CLI_BAD     = 1, /* bad input: the reason is on stderr */
  TKS_CLI_MISUSE  = 2, /* wrong arguments */
};

/* Each subcommand gets argv with argv[0] = the subcommand's name. */
int tks_cli_info    (int argc, char **argv);
int tks_cli_convert (int argc, char **argv);
int tks_cli_stats   (int argc, char **argv);
int tks_cli_export  (int argc, char **argv);
int tks_cli_fetch   (int argc, char **argv);
int tks_cli_trigger (int argc, char **argv);
int tks_cli_run     (int argc, char **argv);

/* Shared helpers (cli-capture.c) */
GBytes *tks_cli_read_input  (const char *path, GError **error); /* "-" is stdin */
gboolean tks_cli_write_output (const char *path, const char *data, gsize len, GError **error);

G_END_DECLS
