/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-capture-private.h"

G_BEGIN_DECLS

/*
 * A streaming reader of shell transcripts and capture files. Bytes go in by chunks of any
 * size; lines end in LF or CRLF. It understands the board's prompt and echo, banners, the
 * original viewer's file layout ("Saved position", bare command lines) and Tickscope's extra
 * lines, and keeps the last complete pair of threads_list and threads_timestamps replies.
 */
typedef struct _TksParser TksParser;

typedef enum
{
  TKS_PARSER_SECTION_NONE,
  TKS_PARSER_SECTION_LIST,
  TKS_PARSER_SECTION_LOG,
  TKS_PARSER_SECTION_DUMP,
} TksParserSection;

TksParser *tks_parser_new            (void);
void       tks_parser_free           (TksParser        *parser);
/* Treat what follows as the reply to a command, as if its echo had just been read. */
void       tks_parser_begin_reply    (TksParser        *parser,
                                      TksParserSection  section);
/* Room for what @bytes of input can hold, so a large file is read without regrowing. */
void       tks_parser_reserve        (TksParser        *parser,
                                      guint64           bytes);
void       tks_parser_feed           (TksParser        *parser,
                                      const char       *data,
                                      gsize             len);
/* TRUE when the input cannot be a capture (a bound was passed): further input is ignored,
 * and tks_parser_finish() says why. */
gboolean   tks_parser_failed         (TksParser        *parser);
/* While reading: the records of the log read so far, and how many a threads_dump's header
 * announced (0 when none did). */
guint      tks_parser_get_n_records  (TksParser        *parser);
guint      tks_parser_get_announced_records (TksParser *parser);
/* The lines of the current list and log that could not be read (skipped or kept as unreadable). */
guint      tks_parser_get_n_unreadable (TksParser *parser);
/* Ends the input; returns the parsed capture or NULL with @error set. */
TksParsed *tks_parser_finish         (TksParser        *parser,
                                      GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksParser, tks_parser_free)

G_END_DECLS
