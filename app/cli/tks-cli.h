/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <stdio.h>

#include <gio/gio.h>

#include "tks-capture.h"

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
int tks_cli_record  (int argc, char **argv);
int tks_cli_find    (int argc, char **argv);

/* The events of a dump version 2 (cli-events.c): info's lines (labels @width wide), and
 * stats' tables over [from, to] (ticks). Nothing for a capture without events. */
void tks_cli_info_events  (TksCapture *capture, int width);
void tks_cli_stats_events (TksCapture *capture, double from, double to, gboolean histogram,
                           double bucket_us);

/* Shared helpers (cli-capture.c) */
/* "-" is stdin; @source names where the capture comes from if the file does not say (NULL: unnamed) */
TksCapture    *tks_cli_load           (const char *path, const char *source, GError **error);
GOutputStream *tks_cli_open_output    (const char *path, GError **error); /* "-" is stdout */
void           tks_cli_abandon_output (GOutputStream *out);
gboolean       tks_cli_write_output   (const char *path, const char *data, gsize len,
                                       GError **error);
/* Text from a board or a file, safe to print: control characters and escape sequences are
 * shown as \xNN. */
char          *tks_cli_escape         (const char *text);
/* Prints a capture's warning on @out after @prefix, with “warning: ” when it does not say it
 * is one. */
void           tks_cli_print_warning  (FILE *out, const char *prefix, const char *warning);
/* Prints @text padded with spaces to @width characters (at least one space after it): the
 * label of a "Label:   value" line. */
void           tks_cli_print_label    (const char *text, int width);
/* The command's exit status, once standard output is flushed: a failed write is an error. */
int            tks_cli_finish         (const char *command, int status);

/* Tables (cli-table.c): @align has one letter per column, 'l' or 'r', and is followed by
 * the columns' headings and NULL; cells are added row after row; numbers as C writes them
 * ("-" for NaN), whatever the language. */
typedef struct _TksCliTable TksCliTable;
TksCliTable   *tks_cli_table_new        (const char *align, ...) G_GNUC_NULL_TERMINATED;
void           tks_cli_table_free       (TksCliTable *table);
void           tks_cli_table_add        (TksCliTable *table, const char *text);
void           tks_cli_table_add_number (TksCliTable *table, const char *format, double value);
void           tks_cli_table_add_uint   (TksCliTable *table, guint value);
void           tks_cli_table_print      (TksCliTable *table, FILE *out);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksCliTable, tks_cli_table_free)

G_END_DECLS
