/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * The reply of `threads_dump`: a header ("Key: value" lines), "Threads:" and the thread list,
 * "Timestamps:" and the log, then "End of dump: N records, checksum XXXXXXXX". The list and
 * the log are taken together on the board, so they always agree; the checksum (FNV-1a over
 * the 32-bit records) shows whether bytes were lost on the way.
 */

#define TKS_SHELL_DUMP_VERSION 1

typedef struct
{
  guint       version;
  double      tick_hz;     /* 0 when not given */
  guint       log_size;    /* 0 when not given */
  guint       n_records;   /* as counted, and checked against the board's count */
  gboolean    triggered;
  const char *list;        /* points into the reply */
  gsize       list_len;
  const char *log;
  gsize       log_len;
} TksShellDump;

/* Splits and checks a dump reply. TKS_ERROR_PARSE when it is damaged or incomplete. */
gboolean tks_shell_parse_dump (const char    *reply,
                               gsize          len,
                               TksShellDump  *dump,
                               GError       **error);

G_END_DECLS
