/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-parser.h"

G_BEGIN_DECLS

/*
 * The reader's insides that its tests reach: its two readers of a record line, and the
 * sizes of the batches in which it decodes a compact log.
 */

/*
 * A compact log of switches only (a recording may be hours long) is decoded by batches of
 * lines, in parallel: each line decodes on its own (see tks_compact_line_decode()); the lines
 * are then taken in order, as one by one, for their sequence numbers, warnings and records.
 */
#define BATCH_LINES 8192
#define CHUNK_LINES 128
#define MAX_DECODE_THREADS 8

/* A record line "From %2d to %2d at %7d" between @p and @end (its line end removed). */
gboolean      tks_parse_record_line        (const char *p,
                                            const char *end,
                                            TksRecord  *record);
/* The same in the board's own layout only, from @p to its line end included: where the next
 * line starts, or NULL for any other layout. */
const char   *tks_parse_record_fixed       (const char *p,
                                            const char *end,
                                            TksRecord  *record);
/* Batches (FALSE: line by line), the threads that decode a batch, the lines a thread takes
 * at a time and a batch holds at most; and a recording's records read at most. */
void          tks_parser_set_batches       (TksParser  *parser,
                                            gboolean    batch,
                                            guint       n_threads,
                                            guint       chunk_lines,
                                            guint       batch_lines);
void          tks_parser_set_max_records   (TksParser  *parser,
                                            guint       max);
/* Whether the reader has started threads to decode its batches. */
gboolean      tks_parser_get_threads_used  (TksParser  *parser);

G_END_DECLS
