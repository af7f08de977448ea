/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-session.h"
#include "tks-shell.h"

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

G_END_DECLS
