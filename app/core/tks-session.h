/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "tks-capture.h"

G_BEGIN_DECLS

/**
 * TksSession:
 *
 * A session with a board's ChibiOS shell over a serial port (libserialport), a pty (termios),
 * TCP ("tcp:HOST:PORT") or the built-in simulated board ("demo"). Every operation is
 * asynchronous, cancellable and bounded by a timeout; the I/O runs in a worker thread and
 * results come back to the thread-default main context of the caller.
 */

/**
 * TKS_TYPE_SESSION:
 *
 * The #GType of #TksSession.
 */
#define TKS_TYPE_SESSION (tks_session_get_type ())
G_DECLARE_FINAL_TYPE (TksSession, tks_session, TKS, SESSION, GObject)

/**
 * TksSessionState:
 * @TKS_SESSION_DISCONNECTED: no board
 * @TKS_SESSION_CONNECTING: opening the link and finding the shell
 * @TKS_SESSION_IDLE: connected, nothing under way
 * @TKS_SESSION_BUSY: connected, a command under way
 *
 * The state of a session (its "state" property).
 */
typedef enum
{
  TKS_SESSION_DISCONNECTED,
  TKS_SESSION_CONNECTING,
  TKS_SESSION_IDLE,
  TKS_SESSION_BUSY,
} TksSessionState;

/**
 * TKS_TYPE_SESSION_STATE:
 *
 * The #GType of #TksSessionState.
 */
#define TKS_TYPE_SESSION_STATE (tks_session_state_get_type ())
/**
 * tks_session_state_get_type:
 *
 * Returns: the #GType of #TksSessionState; use %TKS_TYPE_SESSION_STATE
 */
GType tks_session_state_get_type (void) G_GNUC_CONST;

/**
 * tks_session_new:
 *
 * Creates a session, not connected. Its properties: "state" (#TksSessionState), "address"
 * (string), "description" (string: what the board is, e.g. "ChibiOS shell on /dev/ttyACM0 at
 * 115200 baud"), "baud" (guint, default 115200), "timeout" and "slow-paste" (see
 * tks_session_set_timeout()). Its signal "progress" (guint64 bytes_received, guint records,
 * double fraction or -1, double seconds_left or -1) is emitted during a fetch in the caller's
 * main context. Between requests the session looks at the link now and then (without reading
 * what the board sends); when the board went away (a TCP peer that closed, a pty's other side
 * closed, a serial device unplugged), the state becomes %TKS_SESSION_DISCONNECTED, then the
 * signal "link-lost" (const GError *error, %TKS_ERROR_DISCONNECTED saying why) is emitted in
 * the main context of tks_session_connect_async()'s caller; requests already queued then fail
 * with the same error.
 *
 * Returns: (transfer full): a new session
 */
TksSession      *tks_session_new                 (void);

/**
 * tks_session_get_state:
 * @self: a session
 *
 * Returns: the session's state
 */
TksSessionState  tks_session_get_state           (TksSession          *self);
/**
 * tks_session_get_address:
 * @self: a session
 *
 * Returns: (transfer none) (nullable): the address connected to, or being connected to
 */
const char      *tks_session_get_address         (TksSession          *self);
/**
 * tks_session_get_description:
 * @self: a session
 *
 * Returns: (transfer none) (nullable): what the board is, e.g. "ChibiOS shell on /dev/ttyACM0
 *   at 115200 baud"
 */
const char      *tks_session_get_description     (TksSession          *self);
/**
 * tks_session_set_baud:
 * @self: a session
 * @baud: the baud rate of a serial port (default 115200), read at connect time
 *
 * Sets the "baud" property.
 */
void             tks_session_set_baud            (TksSession          *self,
                                                  guint                baud);

/**
 * tks_session_connect_async:
 * @self: a session
 * @address: a serial port, a pty, "tcp:HOST:PORT" or "demo" (tks_transport_open())
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the caller's thread-default main context when done
 * @user_data: data for @callback
 *
 * Opens the link and brings the board's shell to a prompt, then asks it which commands it
 * offers.
 */
void             tks_session_connect_async       (TksSession          *self,
                                                  const char          *address,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
/**
 * tks_session_connect_finish:
 * @self: a session
 * @result: the result given to the callback
 * @error: return location for a #GError, or %NULL
 *
 * Ends a connection. Fails with the errors of tks_transport_open() and tks_shell_sync(),
 * %G_IO_ERROR_CANCELLED.
 *
 * Returns: %TRUE when connected
 */
gboolean         tks_session_connect_finish      (TksSession          *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);
/**
 * tks_session_disconnect:
 * @self: a session
 *
 * Closes the link; what is under way is cancelled.
 */
void             tks_session_disconnect          (TksSession          *self);

/**
 * tks_session_command_async:
 * @self: a connected session
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the caller's thread-default main context when done
 * @user_data: data for @callback
 *
 * Runs any shell command.
 */
void             tks_session_command_async       (TksSession          *self,
                                                  const char          *command,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
/**
 * tks_session_command_finish:
 * @self: a session
 * @result: the result given to the callback
 * @error: return location for a #GError, or %NULL
 *
 * Ends a command. Fails with %TKS_ERROR_DISCONNECTED when not connected (or the link went
 * away), the errors of tks_shell_command() otherwise.
 *
 * Returns: (transfer full) (nullable): the reply without the echoed command and the prompt
 *   (free with g_free()), or %NULL with @error set
 */
char            *tks_session_command_finish      (TksSession          *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);

/**
 * tks_session_trigger_async:
 * @self: a connected session
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the caller's thread-default main context when done
 * @user_data: data for @callback
 *
 * Sets the board's trigger (threads_timestamps_trigger).
 */
void             tks_session_trigger_async       (TksSession          *self,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
/**
 * tks_session_trigger_finish:
 * @self: a session
 * @result: the result given to the callback
 * @error: return location for a #GError, or %NULL
 *
 * Ends setting the trigger. Fails with %TKS_ERROR_PARSE when the board did not set it (the
 * message quotes its answer), as tks_session_command_finish() otherwise.
 *
 * Returns: (transfer full) (nullable): the reply line, e.g. "Trigger set by Shell command at
 *   17154" (free with g_free()), or %NULL with @error set
 */
char            *tks_session_trigger_finish      (TksSession          *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);

/**
 * tks_session_run_async:
 * @self: a connected session
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the caller's thread-default main context when done
 * @user_data: data for @callback
 *
 * Restarts the board's logging (threads_timestamps_run).
 */
void             tks_session_run_async           (TksSession          *self,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
/**
 * tks_session_run_finish:
 * @self: a session
 * @result: the result given to the callback
 * @error: return location for a #GError, or %NULL
 *
 * Ends restarting the log. Fails with %TKS_ERROR_PARSE when the board did not restart it (the
 * message quotes its answer), as tks_session_command_finish() otherwise.
 *
 * Returns: %TRUE when the board logs again
 */
gboolean         tks_session_run_finish          (TksSession          *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);

/**
 * tks_session_fetch_async:
 * @self: a connected session
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the caller's thread-default main context when done
 * @user_data: data for @callback
 *
 * Gets new data: the list and the log (or the consistent snapshot command when the board
 * offers it), rebuilt into a capture; "progress" is emitted meanwhile.
 */
void             tks_session_fetch_async         (TksSession          *self,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
/**
 * tks_session_fetch_finish:
 * @self: a session
 * @result: the result given to the callback
 * @error: return location for a #GError, or %NULL
 *
 * Ends a fetch. Fails with %TKS_ERROR_PARSE when the reply arrived damaged (the message says
 * how; fetch again), %TKS_ERROR_IO when the history folder cannot take the capture, the
 * errors of tks_shell_command() and of the capture's reader (tks_capture_new_from_replies(),
 * tks_capture_new_from_dump()) otherwise.
 *
 * Returns: (transfer full) (nullable): the capture, or %NULL with @error set
 */
TksCapture      *tks_session_fetch_finish        (TksSession          *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);

/**
 * tks_session_get_baud:
 * @self: a session
 *
 * Returns: the "baud" property
 */
guint            tks_session_get_baud            (TksSession          *self);
/**
 * tks_session_set_timeout:
 * @self: a session
 * @timeout_ms: how long the board may stay silent (default 2000 ms)
 *
 * Sets the "timeout" property, read at connect time: a command expecting n bytes is also given
 * twice their transfer time at the baud rate.
 */
void             tks_session_set_timeout         (TksSession          *self,
                                                  guint                timeout_ms);
/**
 * tks_session_set_slow_paste:
 * @self: a session
 * @slow_paste: %TRUE to send commands one character per millisecond
 *
 * Sets the "slow-paste" property, read at connect time.
 */
void             tks_session_set_slow_paste      (TksSession          *self,
                                                  gboolean             slow_paste);
/**
 * tks_session_set_flow_control:
 * @self: a session
 * @flow_control: a #TksFlowControl
 *
 * Sets the flow control of a serial port, read at connect time.
 */
void             tks_session_set_flow_control    (TksSession          *self,
                                                  guint                flow_control);

/**
 * tks_session_set_prefer_snapshot:
 * @self: a session
 * @prefer_snapshot: %TRUE (the default) to fetch with the consistent snapshot command when the
 *   board offers it; %FALSE to fetch always with threads_list then threads_timestamps
 *
 * Sets how fetches ask for data. Read at connect time.
 */
void             tks_session_set_prefer_snapshot (TksSession          *self,
                                                  gboolean             prefer_snapshot);

/**
 * tks_session_has_snapshot_command:
 * @self: a session
 *
 * After connecting: whether the board offers the consistent snapshot command (threads_dump).
 *
 * Returns: %TRUE when it does
 */
gboolean         tks_session_has_snapshot_command (TksSession         *self);
/**
 * tks_session_get_board_commands:
 * @self: a session
 *
 * After connecting: the commands the board's `help` lists.
 *
 * Returns: (transfer none) (array zero-terminated=1): the commands; empty when not connected
 *   or not known
 */
const char * const *tks_session_get_board_commands (TksSession        *self);

/**
 * tks_session_get_last_saved_path:
 * @self: a session
 *
 * Every fetched capture is saved on arrival (atomically) in the history folder
 * (tks_session_get_history_dir()).
 *
 * Returns: (transfer none) (nullable) (type filename): the path of the last one saved, or
 *   %NULL
 */
const char      *tks_session_get_last_saved_path (TksSession          *self);
/**
 * tks_session_get_last_fetch_size:
 * @self: a session
 * @bytes: (out): the bytes the last fetch received
 * @seconds: (out): how long it took
 *
 * Gets the size and the time of the last fetch.
 */
void             tks_session_get_last_fetch_size (TksSession          *self,
                                                  guint64             *bytes,
                                                  double              *seconds);
/**
 * tks_session_set_save_history:
 * @self: a session
 * @save_history: whether fetched captures are saved in the history folder
 *
 * Sets whether fetched captures are saved.
 */
void             tks_session_set_save_history    (TksSession          *self,
                                                  gboolean             save_history);
/**
 * tks_session_get_history_dir:
 *
 * The history folder: g_get_user_data_dir()/tickscope/captures.
 *
 * Returns: (transfer full) (type filename): its path; free with g_free()
 */
char            *tks_session_get_history_dir     (void);
/**
 * tks_session_set_history_limit:
 * @self: a session
 * @max_bytes: the history's size limit in bytes (default 500 MB, 0: none)
 *
 * Sets the history's size limit, read at connect time: after each save the oldest files are
 * removed until the folder fits, never the newest fetch.
 */
void             tks_session_set_history_limit   (TksSession          *self,
                                                  guint64              max_bytes);
/**
 * tks_session_get_last_raw_path:
 * @self: a session
 *
 * When the last fetch arrived damaged (unreadable lines, bytes no reply holds), the bytes as
 * received are kept next to the capture in the history, and its warnings name their lines.
 *
 * Returns: (transfer none) (nullable) (type filename): their path; %NULL after a fetch that
 *   arrived whole
 */
const char      *tks_session_get_last_raw_path   (TksSession          *self);
/**
 * tks_session_list_history:
 *
 * The history's files, for a History / Open Recent menu.
 *
 * Returns: (transfer full) (element-type filename): their paths, newest first; free with
 *   g_ptr_array_unref()
 */
GPtrArray       *tks_session_list_history        (void);

G_END_DECLS
