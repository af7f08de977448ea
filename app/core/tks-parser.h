/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-capture-private.h"

G_BEGIN_DECLS

/**
 * TksParser:
 *
 * A streaming reader of shell transcripts and capture files. Bytes go in by chunks of any
 * size; lines end in LF or CRLF. It understands the board's prompt and echo, banners, the
 * original viewer's file layout ("Saved position", bare command lines) and Tickscope's extra
 * lines, and keeps the last complete pair of threads_list and threads_timestamps replies.
 */
typedef struct _TksParser TksParser;

/**
 * TksParserSection:
 * @TKS_PARSER_SECTION_NONE: no reply: lines are read as a transcript
 * @TKS_PARSER_SECTION_LIST: a threads_list reply
 * @TKS_PARSER_SECTION_LOG: a threads_timestamps reply
 * @TKS_PARSER_SECTION_DUMP: a threads_dump (or threads_dump_compact) reply
 *
 * The reply that tks_parser_begin_reply() announces.
 */
typedef enum
{
  TKS_PARSER_SECTION_NONE,
  TKS_PARSER_SECTION_LIST,
  TKS_PARSER_SECTION_LOG,
  TKS_PARSER_SECTION_DUMP,
} TksParserSection;

/**
 * tks_parser_new:
 *
 * Creates a parser, ready for the first bytes of a transcript or a capture file.
 *
 * Returns: (transfer full): a new parser; free with tks_parser_free()
 */
TksParser *tks_parser_new            (void);
/**
 * tks_parser_free:
 * @parser: (nullable): a parser
 *
 * Frees @parser and everything it read that tks_parser_finish() did not hand out.
 */
void       tks_parser_free           (TksParser        *parser);
/**
 * tks_parser_begin_reply:
 * @parser: a parser
 * @section: the command whose reply follows
 *
 * Treats what follows as the reply to a command, as if its echo had just been read.
 */
void       tks_parser_begin_reply    (TksParser        *parser,
                                      TksParserSection  section);
/**
 * tks_parser_reserve:
 * @parser: a parser
 * @bytes: the size of the input to come
 *
 * Makes room for what @bytes of input can hold, so a large file is read without regrowing.
 */
void       tks_parser_reserve        (TksParser        *parser,
                                      guint64           bytes);
/**
 * tks_parser_feed:
 * @parser: a parser
 * @data: (array length=len): the next bytes of the input
 * @len: the number of bytes
 *
 * Reads the next chunk of the input, of any size; lines end in LF or CRLF and may span
 * chunks. Ignored once tks_parser_failed().
 */
void       tks_parser_feed           (TksParser        *parser,
                                      const char       *data,
                                      gsize             len);
/**
 * tks_parser_failed:
 * @parser: a parser
 *
 * Whether the input cannot be a capture (a bound was passed): further input is ignored, and
 * tks_parser_finish() says why.
 *
 * Returns: %TRUE when the parser gave up
 */
gboolean   tks_parser_failed         (TksParser        *parser);
/**
 * tks_parser_get_n_records:
 * @parser: a parser
 *
 * While reading: the records of the log read so far.
 *
 * Returns: the number of records
 */
guint      tks_parser_get_n_records  (TksParser        *parser);
/**
 * tks_parser_get_announced_records:
 * @parser: a parser
 *
 * While reading: how many records a threads_dump's header announced.
 *
 * Returns: the records announced, 0 when no header did
 */
guint      tks_parser_get_announced_records (TksParser *parser);
/**
 * tks_parser_get_n_unreadable:
 * @parser: a parser
 *
 * The lines of the current list and log that could not be read (skipped or kept as
 * unreadable).
 *
 * Returns: the number of such lines
 */
guint      tks_parser_get_n_unreadable (TksParser *parser);
/**
 * tks_parser_finish:
 * @parser: a parser
 * @error: return location for a #GError, or %NULL
 *
 * Ends the input and hands out the last complete list and log. Fails with
 * %TKS_ERROR_NOT_A_CAPTURE when the input holds neither a threads_list nor a
 * threads_timestamps reply, %TKS_ERROR_EMPTY when it holds only one of them,
 * %TKS_ERROR_UNKNOWN_COMMAND when the board's shell refused the command (the message names
 * the line), %TKS_ERROR_PARSE when the input passed a bound (tks_parser_failed()), the list
 * lists no thread or the log is unreadable.
 *
 * Returns: (transfer full) (nullable): the parsed list and log (free with tks_parsed_free()),
 *   or %NULL with @error set
 */
TksParsed *tks_parser_finish         (TksParser        *parser,
                                      GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksParser, tks_parser_free)

G_END_DECLS
