/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "tks-transport.h"

G_BEGIN_DECLS

/*
 * The ChibiOS shell protocol over a transport (docs/shell-protocol.md): a command is sent as
 * "NAME\r\n", the shell echoes it, answers, and the reply is complete when the prompt "ch> "
 * comes back at the start of a line. Blocking calls, for a worker thread; each is bounded by a
 * timeout and cancellable.
 */

#define TKS_SHELL_PROMPT "ch> "
#define TKS_SHELL_BANNER "ChibiOS/RT Shell\r\n"

typedef struct _TksShell TksShell;

/* Called after every chunk received: all bytes and all line ends received for the command. */
typedef void (*TksShellProgressFunc) (guint64  bytes,
                                      guint    lines,
                                      gpointer user_data);

/* Called with the reply's bytes as they arrive, in order, from the end of the echo on: piece by
 * piece the same bytes that tks_shell_command() returns. When the command then fails, what
 * was fed is to be thrown away. */
typedef void (*TksShellBodyFunc)     (const char *data,
                                      gsize       len,
                                      gpointer    user_data);

TksShell     *tks_shell_new              (TksTransport  *transport);
void          tks_shell_free             (TksShell      *self);
TksTransport *tks_shell_get_transport    (TksShell      *self);

/* The time to wait for a first byte and for each further byte (default 2000 ms); a command
 * expecting n bytes gets this plus twice the link's transfer time for n bytes in total. */
void          tks_shell_set_timeout      (TksShell      *self,
                                          guint          timeout_ms);
/* How long the link must stay silent after a prompt when resynchronising (default 100 ms). */
void          tks_shell_set_quiet_time   (TksShell      *self,
                                          guint          quiet_ms);
/* Send commands one character per millisecond, for boards whose input buffer is tiny. */
void          tks_shell_set_slow_paste   (TksShell      *self,
                                          gboolean       slow_paste);
/* The milliseconds a command expecting @expected_bytes is given. */
guint         tks_shell_get_command_timeout (TksShell   *self,
                                             gsize       expected_bytes);

/* Brings the shell to a fresh prompt: sends "\r\n" and drains until the prompt came back and
 * the link is quiet. Fails with TKS_ERROR_TIMEOUT when nothing answers and with
 * TKS_ERROR_PARSE when bytes arrive but never a prompt (wrong baud rate). */
gboolean      tks_shell_sync             (TksShell      *self,
                                          GCancellable  *cancellable,
                                          GError       **error);

/* Runs @command and returns its reply without the echoed command and the prompt (NUL
 * terminated; its length in @len). @expected_bytes scales the timeout (0: a short reply). */
char         *tks_shell_command          (TksShell             *self,
                                          const char           *command,
                                          gsize                 expected_bytes,
                                          TksShellProgressFunc  progress,
                                          gpointer              user_data,
                                          gsize                *len,
                                          GCancellable         *cancellable,
                                          GError              **error);

/* The same, handing the reply to @body while it arrives, so that it can be read meanwhile. */
char         *tks_shell_command_streamed (TksShell             *self,
                                          const char           *command,
                                          gsize                 expected_bytes,
                                          TksShellProgressFunc  progress,
                                          TksShellBodyFunc      body,
                                          gpointer              user_data,
                                          gsize                *len,
                                          GCancellable         *cancellable,
                                          GError              **error);

/* What a reply may hold. The shell reads the limit on every chunk, so a caller can tighten it
 * from its progress or body callback once the reply has said how much follows. */
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

/* A command to send, and what its reply may hold. */
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

/* The same, for @request. A reply that passes its bound fails with TKS_ERROR_TOO_LONG, naming
 * the command and the bytes read; the board is then brought to a fresh prompt before the next
 * command. */
char         *tks_shell_command_limited  (TksShell              *self,
                                          const TksShellRequest *request,
                                          gsize                 *len,
                                          GCancellable          *cancellable,
                                          GError               **error);

/* The bytes received for the last command when it failed (echo included; at most its bound),
 * until the next command; NULL when it succeeded or nothing came. */
const guint8 *tks_shell_get_failed_reply (TksShell     *self,
                                          gsize        *len);

/* The command names listed by a `help` reply ("Commands: help exit info …"). */
GStrv         tks_shell_parse_help       (const char    *reply);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksShell, tks_shell_free)

G_END_DECLS
