/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "tks-simboard.h"

G_BEGIN_DECLS

/* Room of the board's log: --log-size may be anything from 16 up to this. */
#define TKS_SIMBOARD_MAX_LOG_SIZE 65536

/* The board itself (threads, scheduler, shell state), without a thread of its own. */
typedef struct _TksSimboardState TksSimboardState;

/* One board per process: take the right to run one before tks_simboard_state_new(). */
gboolean          tks_simboard_state_acquire (GError                  **error);
void              tks_simboard_state_release (void);

TksSimboardState *tks_simboard_state_new     (const TksSimboardOptions *opts);
void              tks_simboard_state_free    (TksSimboardState         *board);
guint64           tks_simboard_state_get_tick (TksSimboardState        *board);
/* Runs @ticks ticks of the workload at once (no shell, no real time). */
void              tks_simboard_state_advance (TksSimboardState         *board,
                                              guint64                   ticks);
/* Runs one shell command line at once, as the shell thread would, and returns its reply
 * (without the echo and the prompt). */
char             *tks_simboard_state_run_command (TksSimboardState     *board,
                                                  const char           *line);
/* Serves the shell on @fd in real time until EOF, "exit", an error or *@stop. With @is_pty,
 * a pty without a reader is waited for and output to it may be dropped. */
int               tks_simboard_state_serve   (TksSimboardState         *board,
                                              int                       fd,
                                              gboolean                  is_pty,
                                              const gint               *stop);

G_END_DECLS
