/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "tks-capture.h"

G_BEGIN_DECLS

/*
 * A session with a board's ChibiOS shell over a serial port (libserialport), a pty (termios),
 * TCP ("tcp:HOST:PORT") or the built-in simulated board ("demo"). Every operation is
 * asynchronous, cancellable and bounded by a timeout; the I/O runs in a worker thread and
 * results come back to the thread-default main context of the caller.
 */

#define TKS_TYPE_SESSION (tks_session_get_type ())
G_DECLARE_FINAL_TYPE (TksSession, tks_session, TKS, SESSION, GObject)

typedef enum
{
  TKS_SESSION_DISCONNECTED,
  TKS_SESSION_CONNECTING,
  TKS_SESSION_IDLE,
  TKS_SESSION_BUSY,
} TksSessionState;

#define TKS_TYPE_SESSION_STATE (tks_session_state_get_type ())
GType tks_session_state_get_type (void) G_GNUC_CONST;

TksSession      *tks_session_new                 (void);

/* Properties: "state" (TksSessionState), "address" (string), "description" (string: what the
 * board is, e.g. "ChibiOS shell on /dev/ttyACM0 at 115200 baud"), "baud" (guint, default 115200).
 * Signal "progress" (guint64 bytes_received, guint records, double fraction or -1,
 * double seconds_left or -1), emitted during a fetch in the caller's main context. */
TksSessionState  tks_session_get_state           (TksSession          *self);
const char      *tks_session_get_address         (TksSession          *self);
const char      *tks_session_get_description     (TksSession          *self);
void             tks_session_set_baud            (TksSession          *self,
                                                  guint                baud);

void             tks_session_connect_async       (TksSession          *self,
                                                  const char          *address,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
gboolean         tks_session_connect_finish      (TksSession          *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);
void             tks_session_disconnect          (TksSession          *self);

/* Any shell command; the reply without the echoed command and the prompt. */
void             tks_session_command_async       (TksSession          *self,
                                                  const char          *command,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
char            *tks_session_command_finish      (TksSession          *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);

/* threads_timestamps_trigger: the reply line, e.g. "Trigger set by Shell command at   17154". */
void             tks_session_trigger_async       (TksSession          *self,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
char            *tks_session_trigger_finish      (TksSession          *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);

/* threads_timestamps_run */
void             tks_session_run_async           (TksSession          *self,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
gboolean         tks_session_run_finish          (TksSession          *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);

/* Gets new data: the list and the log (or the consistent snapshot command when the board
 * offers it), rebuilt into a capture. */
void             tks_session_fetch_async         (TksSession          *self,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
TksCapture      *tks_session_fetch_finish        (TksSession          *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);

/* Settings, read at connect time. "timeout" (guint, ms, default 2000): how long the board
 * may stay silent; a command expecting n bytes is also given twice their transfer time at
 * the baud rate. "slow-paste" (gboolean): send commands one character per millisecond. */
guint            tks_session_get_baud            (TksSession          *self);
void             tks_session_set_timeout         (TksSession          *self,
                                                  guint                timeout_ms);
void             tks_session_set_slow_paste      (TksSession          *self,
                                                  gboolean             slow_paste);
void             tks_session_set_flow_control    (TksSession          *self,
                                                  guint                flow_control);

/* Fetch with the consistent snapshot command when the board offers it (default TRUE); when
 * FALSE, always with threads_list then threads_timestamps. Read at connect time. */
void             tks_session_set_prefer_snapshot (TksSession          *self,
                                                  gboolean             prefer_snapshot);

/* After connecting: whether the board offers the consistent snapshot command (threads_dump),
 * and the commands its `help` lists. */
gboolean         tks_session_has_snapshot_command (TksSession         *self);
const char * const *tks_session_get_board_commands (TksSession        *self);

/* Every fetched capture is saved on arrival (atomically) in the history folder,
 * g_get_user_data_dir()/tickscope/captures; the path of the last one saved, or NULL. */
const char      *tks_session_get_last_saved_path (TksSession          *self);
/* The bytes the last fetch received and how long it took. */
void             tks_session_get_last_fetch_size (TksSession          *self,
                                                  guint64             *bytes,
                                                  double              *seconds);
void             tks_session_set_save_history    (TksSession          *self,
                                                  gboolean             save_history);
char            *tks_session_get_history_dir     (void);
/* The history's size limit in bytes (default 500 MB, 0: none), read at connect time: after
 * each save the oldest files are removed until the folder fits, never the newest fetch. */
void             tks_session_set_history_limit   (TksSession          *self,
                                                  guint64              max_bytes);
/* When the last fetch arrived damaged (unreadable lines, bytes no reply holds), the bytes as
 * received are kept next to the capture in the history, and its warnings name their lines:
 * their path; NULL after a fetch that arrived whole. */
const char      *tks_session_get_last_raw_path   (TksSession          *self);
/* The history's files, newest first (paths), for a History / Open Recent menu. */
GPtrArray       *tks_session_list_history        (void);

G_END_DECLS
