/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "ch.h"
#include "hal.h"

G_BEGIN_DECLS

/*
 * The recording of the original threads_utilities library, defects included, for the
 * simulated board's --legacy-defects mode. The board's scheduler tells it what happens
 * (threads are named by their thread_t); it prints the legacy replies byte for byte.
 * One per process, like the board.
 */
typedef struct _TksLegacyBoard TksLegacyBoard;

TksLegacyBoard *tks_legacy_new     (guint              log_size);
void            tks_legacy_free    (TksLegacyBoard    *legacy);
void            tks_legacy_created (TksLegacyBoard    *legacy,
                                    const thread_t    *tp,
                                    const char        *name,
                                    int                priority,
                                    gboolean           logged,
                                    gboolean           dynamic);
void            tks_legacy_exited  (TksLegacyBoard    *legacy,
                                    const thread_t    *tp,
                                    guint32            tick);
void            tks_legacy_switch  (TksLegacyBoard    *legacy,
                                    const thread_t    *in,
                                    gboolean           in_logged,
                                    const thread_t    *out,
                                    gboolean           out_logged,
                                    guint32            tick);
void            tks_legacy_trigger (TksLegacyBoard    *legacy,
                                    const char        *name,
                                    guint32            tick);

/* The original library's shell commands, on the board of this process. */
void tks_legacy_cmd_threads_list               (BaseSequentialStream *chp, int argc, char *argv[]);
void tks_legacy_cmd_threads_timestamps         (BaseSequentialStream *chp, int argc, char *argv[]);
void tks_legacy_cmd_threads_timestamps_trigger (BaseSequentialStream *chp, int argc, char *argv[]);
void tks_legacy_cmd_threads_timestamps_run     (BaseSequentialStream *chp, int argc, char *argv[]);

G_END_DECLS
