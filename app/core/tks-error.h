/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * TKS_ERROR:
 *
 * The error domain of the core: the reader of captures, the shell protocol, the transports,
 * the recorder, budgets and conditions. Its codes are #TksError.
 */
#define TKS_ERROR (tks_error_quark ())

/**
 * TksError:
 * @TKS_ERROR_PARSE: a reply or a file line is malformed (message names the line)
 * @TKS_ERROR_NOT_A_CAPTURE: the input is neither a capture file nor a shell transcript
 * @TKS_ERROR_EMPTY: the input holds no thread list or no log
 * @TKS_ERROR_TIMEOUT: the board did not answer in time
 * @TKS_ERROR_DISCONNECTED: the link closed or the device went away
 * @TKS_ERROR_UNKNOWN_COMMAND: the board's shell does not know a command
 * @TKS_ERROR_IO: reading or writing a file or a port failed
 * @TKS_ERROR_USAGE: a caller gave arguments that make no sense
 * @TKS_ERROR_TOO_LONG: a reply passed what its command can legitimately return
 * @TKS_ERROR_RESTARTED: the board restarted during a command; the link is still up
 * @TKS_ERROR_REPEATED: a line came twice, or late (out of order): it was left out, and nothing
 *   is lost that was not said lost already
 */
typedef enum
{
  TKS_ERROR_PARSE,
  TKS_ERROR_NOT_A_CAPTURE,
  TKS_ERROR_EMPTY,
  TKS_ERROR_TIMEOUT,
  TKS_ERROR_DISCONNECTED,
  TKS_ERROR_UNKNOWN_COMMAND,
  TKS_ERROR_IO,
  TKS_ERROR_USAGE,
  TKS_ERROR_TOO_LONG,
  TKS_ERROR_RESTARTED,
  TKS_ERROR_REPEATED,
} TksError;

/**
 * tks_error_quark:
 *
 * The quark of the %TKS_ERROR domain; use %TKS_ERROR.
 *
 * Returns: the quark
 */
GQuark tks_error_quark (void);

G_END_DECLS
