/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <stdio.h>

#include <gio/gio.h>

#include "tks-capture.h"
#include "tks-session.h"

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
/* Budgets, comparison and a live table (cli-check.c, cli-diff.c, cli-top.c). */
int tks_cli_check   (int argc, char **argv);
int tks_cli_diff    (int argc, char **argv);
int tks_cli_top     (int argc, char **argv);
int tks_cli_explain (int argc, char **argv);

/* Board commands (cli-board.c): their options, the connection and the fetch of `fetch`. */
typedef struct
{
  char     *output;
  char     *baud_text;    /* as given, read into @baud */
  char     *timeout_text; /* as given, read into @timeout */
  double    baud;         /* 0: the default */
  double    timeout;      /* seconds, 0: the default */
  char     *flow;
  gboolean  slow_paste;
  gboolean  no_history;
  gboolean  quiet;
  char     *when;   /* trigger --when CONDITION */
  gboolean  wait;   /* trigger --wait */
} TksCliBoardOptions;

void        tks_cli_board_options_clear (TksCliBoardOptions *opts);
/* Connects to @port as @opts say; NULL with the reason on stderr. */
TksSession *tks_cli_board_connect       (const char *name, const char *port,
                                         TksCliBoardOptions *opts);
/* Fetches from @session into opts->output as `fetch` does (progress, warnings, summary on
 * stderr, messages after "tickscope-cli NAME: "), the capture in @fetched (may be NULL); an
 * exit status. */
int         tks_cli_board_fetch         (const char *name, TksSession *session,
                                         TksCliBoardOptions *opts, TksCapture **fetched);
/* trigger --when / --wait (cli-trigger.c), the options read; an exit status. */
int         tks_cli_trigger_when        (const char *port, TksCliBoardOptions *opts);
int tks_cli_find    (int argc, char **argv);

/* The events of a dump version 2 (cli-events.c): info's lines (labels @width wide), and
 * stats' tables over [from, to] (ticks). Nothing for a capture without events. */
void tks_cli_info_events  (TksCapture *capture, int width);
void tks_cli_stats_events (TksCapture *capture, double from, double to, gboolean histogram,
                           double bucket_us);

/* Periods and deadlines in stats (cli-explain.c): --period THREAD=DURATION options as a
 * deadline per thread index in the capture's time units (*@deadlines, freed by the caller);
 * FALSE with the reason printed. Then stats' section. */
gboolean tks_cli_parse_periods (TksCapture *capture, const char * const *periods,
                                gint64 **deadlines);
void     tks_cli_stats_periods (TksCapture *capture, const gint64 *deadlines);

/* Shared helpers (cli-capture.c) */
/* "-" is stdin; @source names where the capture comes from if the file does not say (NULL: unnamed) */
TksCapture    *tks_cli_load           (const char *path, const char *source, GError **error);
/* The same for @command ("stats"), with the file's name as its source: its warnings printed
 * on standard error, NULL with the reason printed. */
TksCapture    *tks_cli_load_reported  (const char *command, const char *path);
GOutputStream *tks_cli_open_output    (const char *path, GError **error); /* "-" is stdout */
void           tks_cli_abandon_output (GOutputStream *out);
gboolean       tks_cli_write_output   (const char *path, const char *data, gsize len,
                                       GError **error);
/* A number option of @command given as @text (NULL: not given, @value left as it is): a number
 * from @min to @max (@whole: a whole number), else FALSE with a message naming @option and
 * @what it counts ("a number of seconds") on standard error (exit status 2). Infinities, NaN
 * and anything after the number are refused. */
gboolean       tks_cli_number_option  (const char *command, const char *option, const char *text,
                                       const char *what, double min, double max, gboolean whole,
                                       double *value);
/* --baud (@text, NULL: not given): a whole number from TKS_CLI_MIN_BAUD to TKS_CLI_MAX_BAUD. */
#define TKS_CLI_MIN_BAUD 50.0
#define TKS_CLI_MAX_BAUD 100000000.0
gboolean       tks_cli_baud_option    (const char *command, const char *text, double *value);
/* --timeout: a millisecond to an hour. */
#define TKS_CLI_MIN_TIMEOUT 0.001
#define TKS_CLI_MAX_TIMEOUT 3600.0
/* Text from a board or a file, safe to print: control characters and escape sequences are
 * shown as \xNN. */
char          *tks_cli_escape         (const char *text);
/* Whether the arguments after the command ask for its help (--help or -h before any --). */
gboolean       tks_cli_wants_help     (int argc, char **argv);
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
