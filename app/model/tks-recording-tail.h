/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "tks-capture.h"

G_BEGIN_DECLS

/*
 * The end of a recording that is still being written (threads_record's stream, see
 * mcu-lib/WIRE-FORMAT.md), for a live view whose cost does not grow with the recording: what
 * the file gained is read at each update, and a bounded text is kept — the stream's header
 * (up to its "Compact:" line) with its thread list as of the first kept line (the threads
 * announced before it added, those whose exit records were let go removed and the threads
 * after them renumbered, as the board gives numbers back), the latest list line of every name
 * announced before the kept lines, and the last lines up to about @max_bytes. Each compact
 * line decodes on its own, so that text reads as a recording whose first lines are missing
 * (the parser says so).
 *
 * Memory: the header, the thread list (at most 63 lines), the names (one line per name id the
 * reader takes, 1 to TKS_MAX_NAME_ID) and @max_bytes of lines, each line at most the reader's
 * longest (TKS_MAX_LINE_BYTES, tks-limits.h) and a byte: a longer one is kept that long, for
 * the reader to say it is too long and skip it, as it does reading the file. Time: each
 * update reads what was added since the last one, and decodes the compact lines it lets go.
 */

/* A recording's ticks have 20 bits unless its header's "Tick bits" says otherwise (16 on a board
 * whose system time has 16 bits, mcu-lib/WIRE-FORMAT.md): they wrap every 2^20 ticks. */
#define TKS_RECORDING_TICK_BITS 20
#define TKS_RECORDING_TICK_WRAP ((double) (1u << TKS_RECORDING_TICK_BITS))

typedef struct _TksRecordingTail TksRecordingTail;

TksRecordingTail *tks_recording_tail_new           (const char        *path,
                                                    gsize              max_bytes);
void              tks_recording_tail_free          (TksRecordingTail  *self);
void              tks_recording_tail_set_max_bytes (TksRecordingTail  *self,
                                                    gsize              max_bytes);
/* Reads what the file gained since the last call (a line not finished yet waits for the
 * next). FALSE with @error when the file cannot be read. */
gboolean          tks_recording_tail_update        (TksRecordingTail  *self,
                                                    GError           **error);
/* The same, reading no further than the file's byte @limit: the end of the recording as it
 * was when the file had that many bytes (an earlier stretch of the recording, for a view
 * scrolled back). */
gboolean          tks_recording_tail_update_to     (TksRecordingTail  *self,
                                                    guint64            limit,
                                                    GError           **error);
/* The bounded text; NULL while the header is not complete. */
GBytes           *tks_recording_tail_compose       (TksRecordingTail  *self);
/* That text read as a capture, as the reader reads the file: a line longer than the reader's
 * longest is told of with its length in the file, as the file's reading tells of it (the reader
 * counts the bytes not kept, so that time grows with such a line, memory does not). NULL while
 * the header is not complete, or with @error when the text is not a capture (the reader's
 * reason, as reading the file gives it). */
TksCapture       *tks_recording_tail_read          (TksRecordingTail  *self,
                                                    GError           **error);
/* Bytes of the file read so far; bytes of lines kept now. */
guint64           tks_recording_tail_get_offset    (TksRecordingTail  *self);
gsize             tks_recording_tail_get_kept      (TksRecordingTail  *self);
/* Bytes of text held in all (the header, the list, the names, the lines, a line not finished):
 * bounded by the header's cap, @max_bytes and the reader's limits, whatever the stream. */
gsize             tks_recording_tail_get_held      (TksRecordingTail  *self);
/* Where the recording's tick wraps: 2^"Tick bits" ticks (TKS_RECORDING_TICK_WRAP while the
 * header is not complete). */
double            tks_recording_tail_get_tick_wrap (TksRecordingTail  *self);
/* Where the composed text lies in the recording. Its times count from its own first switch's
 * tick, which has the header's bits: its time t is t + wraps × the tick's wrap in the whole
 * recording's (the file read as a capture), where wraps is what this returns for the text's
 * @start (its capture's first time; an event before the first switch and before a wrap is
 * below 0). The tail counts the wraps in the switches it lets go as the whole file's reading
 * does (docs/rebuild.md): a tick smaller than the one before by more than half a wrap is one
 * after a wrap, and a heartbeat ("Heartbeat: tick T") and the first switch after it each come
 * after the one before. 0 while no line was let go. It tells of the tail as the last update left it:
 * ask between that update and the next. */
double            tks_recording_tail_wraps_before  (TksRecordingTail  *self,
                                                    double             start);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksRecordingTail, tks_recording_tail_free)

G_END_DECLS
