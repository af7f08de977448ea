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

G_END_DECLS
