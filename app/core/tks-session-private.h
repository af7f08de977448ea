/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-session.h"
#include "tks-parser.h"
#include "tks-shell.h"
#include "tks-transport.h"

G_BEGIN_DECLS

/* One step of a session run on @shell in the calling thread, without the worker, the main
 * loop or the history: for tests and fuzzing of what the session makes of a board's replies. */
typedef enum
{
  TKS_SESSION_STEP_CONNECT, /* sync and help: returns the board's commands (GStrv) */
  TKS_SESSION_STEP_FETCH,   /* returns a TksCapture; threads_dump when @use_dump */
  TKS_SESSION_STEP_TRIGGER, /* returns the reply line (char *) */
  TKS_SESSION_STEP_RUN,     /* returns "Run mode" (char *) */
} TksSessionStep;

gpointer tks_session_run_on_shell (TksShell        *shell,
                                   TksSessionStep   step,
                                   gboolean         use_dump,
                                   GError         **error);

/* Between the session's files: the link a worker owns and the jobs it runs. */

#define DEFAULT_BAUD        115200
#define DEFAULT_TIMEOUT_MS  2000
#define DEFAULT_LOG_SIZE    3000
#define MAX_EXPECTED_LOG    (1u << 18) /* what a board's word is taken for, to size buffers */
#define RECORD_BYTES        26    /* "From %2d to %2d at %7d\r\n" */
#define COMPACT_RECORD_BYTES 8    /* a record of threads_dump_compact, events and counter included */
#define LIST_LINE_BYTES     60
#define DUMP_END_BYTES      64    /* "End of dump: N records, checksum X" */
#define PROGRESS_INTERVAL_US (G_USEC_PER_SEC / 20)
#define IDLE_CHECK_US       (G_USEC_PER_SEC * 3 / 4) /* how often an idle link is looked at */

/* What each reply can legitimately hold, with a margin: a longer one is not a reply. */
#define LIST_MAX_THREADS    1024
#define LIST_MAX_BYTES      ((gsize) LIST_MAX_THREADS * 128)
#define HELP_MAX_BYTES      ((gsize) 16 * 1024)
#define LINE_MAX_BYTES      ((gsize) 4 * 1024)   /* a one-line answer: trigger, run */
#define COMMAND_MAX_BYTES   ((gsize) 256 * 1024) /* any other command: info, systime, threads_stat */
#define REPLY_MARGIN_BYTES  ((gsize) 64 * 1024)
#define KEPT_END_BYTES      ((gsize) 64 * 1024)  /* of a failed reply: its first and last bytes */
#define DEFAULT_HISTORY_MAX ((guint64) 500 * 1000 * 1000)


/*
 * One connection: a worker thread that owns the transport and the shell, fed through a queue
 * of jobs. Results go back to the main context of whoever asked (GTask).
 */
typedef struct
{
  guint                id;
  GAsyncQueue         *jobs;
  GCancellable        *cancellable;   /* cancelled by disconnect */
  GThread             *thread;
  GWeakRef             session;       /* told when the link is found gone between requests */
  GMainContext        *context;       /* of the connect call: where the session is told */

  /* Settings at connect time (read-only afterwards) */
  char                *address;
  TksTransportOptions  options;
  guint                timeout_ms;
  gboolean             slow_paste;
  gboolean             save_history;
  guint64              history_max_bytes;
  gboolean             prefer_snapshot;

  /* Worker thread only, until the connect job completes; read-only afterwards except
   * expected_records (worker only). */
  TksShell            *shell;
  gboolean             dead;
  char                *description;
  GStrv                commands;
  gboolean             has_dump;
  gboolean             has_compact;   /* threads_dump_compact: the log in the compact encoding */
  guint                log_size;         /* from the board, 0 when unknown */
  guint                expected_records; /* largest log seen */
  GError              *lost;          /* why the link was found gone between requests */
} Link;

typedef enum
{
  JOB_CONNECT,
  JOB_COMMAND,
  JOB_TRIGGER,
  JOB_RUN,
  JOB_FETCH,
  JOB_QUIT,
} JobKind;

typedef struct
{
  JobKind  kind;
  GTask   *task;
  char    *command;
  Link    *link;
  guint    link_id;

  /* filled by the worker */
  GError  *error;
  gpointer result;
  GDestroyNotify result_free;
  gboolean link_lost;
  char    *saved_path;
  char    *raw_path;      /* the received bytes, kept when they arrived damaged */

  /* fetch progress (worker) */
  gint64   start_us;
  gint64   last_progress_us;
  guint64  bytes_before;
  guint64  bytes;
  guint    records;
  gsize    expected_bytes;
  guint    expected_records;
  TksParser *parser;    /* reads the log while it arrives */
  TksShellLimit limit;  /* of the reply being read */
  char    *limit_bound;
  GString *transcript;  /* the replies received so far, as the shell showed them */
} Job;

/* tks-session.c: tells whoever asked how far a fetch has come (@final: done). */
void  tks_session_job_progress      (Job          *job,
                                     gboolean      final);

/* tks-session-commands.c: the jobs, run by the worker on the link's shell. */
void  tks_session_run_connect       (Link         *link,
                                     Job          *job,
                                     GCancellable *cancellable);
void  tks_session_run_simple        (Link         *link,
                                     Job          *job,
                                     GCancellable *cancellable);
void  tks_session_run_fetch         (Link         *link,
                                     Job          *job,
                                     GCancellable *cancellable);

/* tks-session-history.c: what a fetch keeps in the history folder. */
void  tks_session_save_raw          (Link         *link,
                                     Job          *job,
                                     GString      *transcript);
void  tks_session_save_failed_reply (Link         *link,
                                     Job          *job,
                                     const char   *command);
void  tks_session_keep_in_history   (Link         *link,
                                     Job          *job,
                                     TksCapture   *capture,
                                     GString      *received);

G_END_DECLS
