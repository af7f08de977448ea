/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "tks-transport.h"

G_BEGIN_DECLS

/**
 * TksShell:
 *
 * The ChibiOS shell protocol over a transport (docs/shell-protocol.md): a command is sent as
 * "NAME\r\n", the shell echoes it, answers, and the reply is complete when the prompt "ch> "
 * comes back at the start of a line. Blocking calls, for a worker thread; each is bounded by a
 * timeout and cancellable.
 */

/**
 * TKS_SHELL_PROMPT:
 *
 * The prompt of the board's shell: a reply is complete when it comes back at the start of a
 * line.
 */
#define TKS_SHELL_PROMPT "ch> "
/**
 * TKS_SHELL_BANNER:
 *
 * The banner the board's shell prints when it starts: when it comes during a command, the
 * board restarted.
 */
#define TKS_SHELL_BANNER "ChibiOS/RT Shell\r\n"

typedef struct _TksShell TksShell;

/**
 * TksShellProgressFunc:
 * @bytes: all bytes received for the command
 * @lines: all line ends received for the command
 * @user_data: the data given with the function
 *
 * Called after every chunk received.
 */
typedef void (*TksShellProgressFunc) (guint64  bytes,
                                      guint    lines,
                                      gpointer user_data);

/**
 * TksShellBodyFunc:
 * @data: (array length=len): the next bytes of the reply
 * @len: their number
 * @user_data: the data given with the function
 *
 * Called with the reply's bytes as they arrive, in order, from the end of the echo on: piece
 * by piece the same bytes that tks_shell_command() returns. When the command then fails, what
 * was fed is to be thrown away.
 */
typedef void (*TksShellBodyFunc)     (const char *data,
                                      gsize       len,
                                      gpointer    user_data);

/**
 * tks_shell_new:
 * @transport: (transfer full): the link to the board, freed with the shell
 *
 * Speaks the shell protocol over @transport.
 *
 * Returns: (transfer full): a new shell; free with tks_shell_free()
 */
TksShell     *tks_shell_new              (TksTransport  *transport);
/**
 * tks_shell_free:
 * @self: (nullable): a shell
 *
 * Frees @self and closes its transport.
 */
void          tks_shell_free             (TksShell      *self);
/**
 * tks_shell_get_transport:
 * @self: a shell
 *
 * Returns: (transfer none): the link the shell speaks over
 */
TksTransport *tks_shell_get_transport    (TksShell      *self);

/**
 * tks_shell_set_timeout:
 * @self: a shell
 * @timeout_ms: the time to wait for a first byte and for each further byte (default 2000 ms)
 *
 * Sets how long the board may stay silent; a command expecting n bytes gets this plus twice
 * the link's transfer time for n bytes in total.
 */
void          tks_shell_set_timeout      (TksShell      *self,
                                          guint          timeout_ms);
/**
 * tks_shell_set_quiet_time:
 * @self: a shell
 * @quiet_ms: the time in ms (default 100 ms)
 *
 * Sets how long the link must stay silent after a prompt when resynchronising
 * (tks_shell_sync()).
 */
void          tks_shell_set_quiet_time   (TksShell      *self,
                                          guint          quiet_ms);
/**
 * tks_shell_set_slow_paste:
 * @self: a shell
 * @slow_paste: %TRUE to send commands one character per millisecond
 *
 * Sends commands slowly, for boards whose input buffer is tiny.
 */
void          tks_shell_set_slow_paste   (TksShell      *self,
                                          gboolean       slow_paste);
/**
 * tks_shell_get_command_timeout:
 * @self: a shell
 * @expected_bytes: what the command's reply is likely to hold
 *
 * Returns: the milliseconds a command expecting @expected_bytes is given
 */
guint         tks_shell_get_command_timeout (TksShell   *self,
                                             gsize       expected_bytes);

/**
 * tks_shell_sync:
 * @self: a shell
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError, or %NULL
 *
 * Brings the shell to a fresh prompt: sends "\r\n" and drains until the prompt came back and
 * the link is quiet. Fails with %TKS_ERROR_TIMEOUT when nothing answers, %TKS_ERROR_PARSE
 * when bytes arrive but never a prompt (wrong baud rate), the transport's errors
 * (%TKS_ERROR_DISCONNECTED, %G_IO_ERROR_CANCELLED…).
 *
 * Returns: %TRUE at a fresh prompt
 */
gboolean      tks_shell_sync             (TksShell      *self,
                                          GCancellable  *cancellable,
                                          GError       **error);

/**
 * tks_shell_command:
 * @self: a shell
 * @command: a shell command line (one line, at most 63 characters)
 * @expected_bytes: what the reply is likely to hold, to scale the timeout (0: a short reply)
 * @progress: (nullable) (scope call): called after every chunk received
 * @user_data: data for @progress
 * @len: (out) (optional): the reply's length
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError, or %NULL
 *
 * Runs @command. Fails with %TKS_ERROR_USAGE for a command that is not one shell line,
 * %TKS_ERROR_TIMEOUT when the board stays silent or the reply does not end in time,
 * %TKS_ERROR_PARSE when what comes is not the shell's (no echo, no prompt),
 * %TKS_ERROR_UNKNOWN_COMMAND when the shell does not know the command, %TKS_ERROR_RESTARTED
 * when the board restarted meanwhile, %TKS_ERROR_TOO_LONG when the reply passes its bound,
 * and the transport's errors (%TKS_ERROR_DISCONNECTED, %G_IO_ERROR_CANCELLED…).
 *
 * Returns: (transfer full) (nullable): the reply without the echoed command and the prompt,
 *   NUL terminated (free with g_free()), or %NULL with @error set
 */
char         *tks_shell_command          (TksShell             *self,
                                          const char           *command,
                                          gsize                 expected_bytes,
                                          TksShellProgressFunc  progress,
                                          gpointer              user_data,
                                          gsize                *len,
                                          GCancellable         *cancellable,
                                          GError              **error);

/**
 * tks_shell_command_streamed:
 * @self: a shell
 * @command: a shell command line
 * @expected_bytes: as for tks_shell_command()
 * @progress: (nullable) (scope call): called after every chunk received
 * @body: (nullable) (scope call): called with the reply while it arrives
 * @user_data: data for @progress and @body
 * @len: (out) (optional): the reply's length
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError, or %NULL
 *
 * As tks_shell_command(), handing the reply to @body while it arrives, so that it can be read
 * meanwhile. Fails as tks_shell_command() does.
 *
 * Returns: (transfer full) (nullable): the whole reply (free with g_free()), or %NULL with
 *   @error set
 */
char         *tks_shell_command_streamed (TksShell             *self,
                                          const char           *command,
                                          gsize                 expected_bytes,
                                          TksShellProgressFunc  progress,
                                          TksShellBodyFunc      body,
                                          gpointer              user_data,
                                          gsize                *len,
                                          GCancellable         *cancellable,
                                          GError              **error);

/**
 * TksShellLimit:
 * @max_bytes: the most bytes of the reply, echo and prompt included; 0: four times the
 *   expected bytes, at least 1 MiB
 * @bound: what bounds it, for the message ("the log holds at most 3000 records"); %NULL: none
 *   given
 * @confirm_end: a prompt ends the reply only once an empty line sent after it is answered by a
 *   bare prompt: what comes before that answer is the reply's rest, kept in it after the prompt
 *   that looked like its end (for replies with no end of their own: a prompt may stand inside
 *   them)
 *
 * What a reply may hold. The shell reads the limit on every chunk, so a caller can tighten it
 * from its progress or body callback once the reply has said how much follows.
 */
typedef struct
{
  gsize       max_bytes;         /* the most bytes of the reply, echo and prompt included;
                                  * 0: four times the expected bytes, at least 1 MiB */
  const char *bound;             /* what bounds it, for the message ("the log holds at most
                                  * 3000 records"); NULL: none given */
  gboolean    confirm_end;       /* a prompt ends the reply only once an empty line sent
                                  * after it is answered by a bare prompt: what comes before
                                  * that answer is the reply's rest, kept in it after the
                                  * prompt that looked like its end (for replies with no end
                                  * of their own: a prompt may stand inside them) */
} TksShellLimit;

/**
 * TksShellRequest:
 * @command: the shell command line
 * @expected_bytes: what its reply is likely to hold (0: unknown), for the time it is given and
 *   its default bound
 * @limit: (nullable): what the reply may hold, read on every chunk; %NULL: the default bound
 * @progress: (nullable): called after every chunk received
 * @body: (nullable): called with the reply as it arrives
 * @user_data: for @progress and @body
 *
 * A command to send, and what its reply may hold (tks_shell_command_limited()).
 */
typedef struct
{
  const char           *command;
  gsize                 expected_bytes; /* what its reply is likely to hold (0: unknown), for
                                         * the time it is given and its default bound */
  TksShellLimit        *limit;          /* NULL: the default bound; read on every chunk */
  TksShellProgressFunc  progress;       /* NULL: none */
  TksShellBodyFunc      body;           /* the reply as it arrives; NULL: none */
  gpointer              user_data;      /* for @progress and @body */
} TksShellRequest;

/**
 * tks_shell_command_limited:
 * @self: a shell
 * @request: the command, its callbacks and its bound
 * @len: (out) (optional): the reply's length
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError, or %NULL
 *
 * As tks_shell_command_streamed(), for @request. A reply that passes its bound fails with
 * %TKS_ERROR_TOO_LONG, naming the command and the bytes read; the board is then brought to a
 * fresh prompt before the next command. Fails otherwise as tks_shell_command() does.
 *
 * Returns: (transfer full) (nullable): the whole reply (free with g_free()), or %NULL with
 *   @error set
 */
char         *tks_shell_command_limited  (TksShell              *self,
                                          const TksShellRequest *request,
                                          gsize                 *len,
                                          GCancellable          *cancellable,
                                          GError               **error);

/**
 * tks_shell_get_failed_reply:
 * @self: a shell
 * @len: (out): the number of bytes
 *
 * The bytes received for the last command when it failed (echo included; at most its bound),
 * valid until the next command.
 *
 * Returns: (transfer none) (array length=len) (nullable): the bytes, %NULL when the last
 *   command succeeded or nothing came
 */
const guint8 *tks_shell_get_failed_reply (TksShell     *self,
                                          gsize        *len);

/**
 * tks_shell_parse_help:
 * @reply: a reply to `help` ("Commands: help exit info …")
 *
 * The command names a `help` reply lists.
 *
 * Returns: (transfer full): the names, empty when there are none; free with g_strfreev()
 */
GStrv         tks_shell_parse_help       (const char    *reply);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksShell, tks_shell_free)

G_END_DECLS
