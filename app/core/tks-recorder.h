/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "tks-compact.h"
#include "tks-transport.h"

G_BEGIN_DECLS

/**
 * TksRecorder:
 *
 * Continuous recording from a board (threads_record; see mcu-lib/WIRE-FORMAT.md). The stream
 * is written to a file as it arrives, byte for byte: the file is the shell's transcript of the
 * command, which any reader of captures opens (tks_capture_new_from_file(), tickscope-cli
 * info, the viewer's Open), also when the recording was cut (up to its last whole line). The
 * file is flushed to disk every second. On the way the stream is decoded: counters, and the
 * entries of each line for a live view; nothing is kept, memory stays bounded however long the
 * recording.
 *
 * The host keeps the board streaming by sending a keep-alive byte every second (the board
 * stops after THREADS_RECORD_SILENCE_MS without one) and stops it with the stop byte. Blocking
 * calls, for one worker thread; each wait is bounded and cancellable.
 */

/**
 * TKS_RECORD_STOP_BYTE:
 *
 * The byte that stops a board's stream (ETX).
 */
#define TKS_RECORD_STOP_BYTE      0x03  /* ETX */
/**
 * TKS_RECORD_KEEPALIVE_BYTE:
 *
 * The byte that keeps a board streaming (SYN: any other byte would do).
 */
#define TKS_RECORD_KEEPALIVE_BYTE 0x16  /* SYN: any other byte would do */

typedef struct _TksRecorder TksRecorder;

/**
 * TksRecorderStats:
 * @bytes: received from the board since the command was sent
 * @entries: decoded: switches and events
 * @dropped: slots the board recorded but could not send (its log went round before the link
 *   took them): its "Lost:" lines, where they were
 * @lines: compact lines decoded
 * @counted: calls of the handlers the board counts without logging them (the link's own): the
 *   sum of its last "Counted handler" lines
 * @damaged: lines damaged or missing on the link (noise): their entries lost
 * @ignored: end lines that more of the stream followed (noise on the link): passed over, as
 *   the reader passes over them
 * @misnumbered: threads announced with a number that is not the next
 * @holes: holes ("Lost:" lines) as a capture keeps them: one that follows another with no
 *   entry between and the same start joins it
 * @holes_not_kept: holes beyond the TKS_MAX_GAPS a capture keeps (not joined)
 * @threads: threads listed or announced
 * @seconds: since the command was sent (to the end, once ended)
 * @ended: the board ended the stream (its end line and prompt arrived)
 * @placed: the file is at its path: the board answered with the stream's header (until then
 *   it is written to a temporary file beside it, removed if nothing is recorded)
 *
 * The counters of a recording (tks_recorder_get_stats()).
 */
typedef struct
{
  guint64 bytes;         /* received from the board since the command was sent */
  guint64 entries;       /* decoded: switches and events */
  guint64 dropped;       /* slots the board recorded but could not send (its log went round
                          * before the link took them): its "Lost:" lines, where they were */
  guint64 lines;         /* compact lines decoded */
  guint64 counted;       /* calls of the handlers the board counts without logging them (the
                          * link's own): the sum of its last "Counted handler" lines */
  guint   damaged;       /* lines damaged or missing on the link (noise): their entries lost */
  guint   ignored;       /* end lines that more of the stream followed (noise on the link):
                          * passed over, as the reader passes over them */
  guint   misnumbered;   /* threads announced with a number that is not the next */
  guint64 holes;         /* holes ("Lost:" lines) as a capture keeps them: one that follows
                          * another with no entry between and the same start joins it */
  guint64 holes_not_kept; /* holes beyond the TKS_MAX_GAPS a capture keeps (not joined) */
  guint   threads;       /* threads listed or announced */
  double  seconds;       /* since the command was sent (to the end, once ended) */
  gboolean ended;        /* the board ended the stream (its end line and prompt arrived) */
  gboolean placed;       /* the file is at its path: the board answered with the stream's
                          * header (until then it is written to a temporary file beside it,
                          * removed if nothing is recorded) */
} TksRecorderStats;

/**
 * TksRecorderEntriesFunc:
 * @entries: (array length=n_entries) (nullable): the line's entries, in order; reused after
 *   the call
 * @n_entries: their number
 * @lost_before: slots the board lost just before them (0 mostly)
 * @user_data: the data given with the function
 *
 * Called with the entries of each compact line as it is decoded. At the end line, slots lost
 * after the last line come with no entries (@entries %NULL, @n_entries 0).
 */
typedef void (*TksRecorderEntriesFunc) (const TksEntry *entries,
                                        guint           n_entries,
                                        guint64         lost_before,
                                        gpointer        user_data);
/**
 * TksRecorderNoticeFunc:
 * @message: a sentence naming the line
 * @user_data: the data given with the function
 *
 * Called with every problem of the stream as it happens (a damaged or missing line, a hole, a
 * line that is not part of it).
 */
typedef void (*TksRecorderNoticeFunc)  (const char     *message,
                                        gpointer        user_data);

/**
 * tks_recorder_new:
 * @path: (type filename): the file to record to
 * @error: return location for a #GError, or %NULL
 *
 * Prepares the recording of @path: a temporary file beside it, which takes its place (an
 * existing file is replaced) once the board answers with the stream; until then, and if the
 * board refuses or the link fails first, an existing file at @path is left as it was. Fails
 * with %TKS_ERROR_IO when the temporary file cannot be created.
 *
 * Returns: (transfer full) (nullable): the recorder (free with tks_recorder_free()), or
 *   %NULL with @error set
 */
TksRecorder *tks_recorder_new           (const char              *path,
                                         GError                 **error);
/**
 * tks_recorder_free:
 * @self: (nullable): a recorder
 *
 * Frees @self and its transport; the temporary file is removed unless the board answered
 * with the stream (it then is the file at the path).
 */
void         tks_recorder_free          (TksRecorder             *self);
/**
 * tks_recorder_set_entries_func:
 * @self: a recorder
 * @func: (nullable) (scope forever): called with each compact line's entries, until @self is
 *   freed
 * @user_data: data for @func
 *
 * Sets what receives the entries while the stream is decoded, for a live view.
 */
void         tks_recorder_set_entries_func (TksRecorder          *self,
                                            TksRecorderEntriesFunc func,
                                            gpointer               user_data);
/**
 * tks_recorder_set_notice_func:
 * @self: a recorder
 * @func: (nullable) (scope forever): called with every problem of the stream, until @self is
 *   freed
 * @user_data: data for @func
 *
 * Sets what receives the stream's problems as they happen.
 */
void         tks_recorder_set_notice_func  (TksRecorder          *self,
                                            TksRecorderNoticeFunc  func,
                                            gpointer               user_data);
/**
 * tks_recorder_set_keepalive_interval:
 * @self: a recorder
 * @interval_ms: how often the keep-alive byte is sent (default 1000 ms)
 *
 * Sets the keep-alive's interval: a board whose clock runs faster than real time, as the
 * simulated board's can, needs it more often.
 */
void         tks_recorder_set_keepalive_interval (TksRecorder    *self,
                                                  guint           interval_ms);

/**
 * tks_recorder_set_events:
 * @self: a recorder
 * @events: %TRUE for every entry of the board's log with the counter value (several times more
 *   bytes), %FALSE (the default) for its switches at tick resolution (about a byte each)
 *
 * Sets what the board streams. Before tks_recorder_start().
 */
void         tks_recorder_set_events    (TksRecorder             *self,
                                         gboolean                 events);

/**
 * tks_recorder_start:
 * @self: a recorder
 * @transport: (transfer full): the link to the board, freed with the recorder, also when this
 *   fails
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError, or %NULL
 *
 * Brings the board's shell to a prompt, checks that it offers threads_record and starts it.
 * Fails with %TKS_ERROR_UNKNOWN_COMMAND when the board does not offer it, with the errors of
 * tks_shell_sync() and of the transport otherwise.
 *
 * Returns: %TRUE when the command was sent
 */
gboolean     tks_recorder_start         (TksRecorder             *self,
                                         TksTransport            *transport,
                                         GCancellable            *cancellable,
                                         GError                 **error);
/**
 * tks_recorder_step:
 * @self: a started recorder
 * @timeout_ms: how long to wait for bytes
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError, or %NULL
 *
 * Reads what arrives within @timeout_ms, writes it, decodes it, and sends the keep-alive when
 * it is due. Fails when the recording cannot go on: the link closed or failed
 * (%TKS_ERROR_DISCONNECTED), the board fell silent for 5 s (%TKS_ERROR_TIMEOUT), gave its
 * prompt without ending the stream (%TKS_ERROR_PARSE: it was reset or refused) or streams in
 * a way this version cannot decode (%TKS_ERROR_PARSE), the file cannot be written
 * (%TKS_ERROR_IO). Everything received is in the file either way.
 *
 * Returns: %TRUE while the recording goes on; the stats say when the board ended the stream
 */
gboolean     tks_recorder_step          (TksRecorder             *self,
                                         int                      timeout_ms,
                                         GCancellable            *cancellable,
                                         GError                 **error);
/**
 * tks_recorder_stop:
 * @self: a started recorder
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError, or %NULL
 *
 * Sends the stop byte and reads the rest of the stream up to the board's prompt (within a few
 * seconds). Fails with %TKS_ERROR_TIMEOUT when the board does not end the recording, with the
 * errors of tks_recorder_step() otherwise.
 *
 * Returns: %TRUE when the board ended the stream
 */
gboolean     tks_recorder_stop          (TksRecorder             *self,
                                         GCancellable            *cancellable,
                                         GError                 **error);
/**
 * tks_recorder_close:
 * @self: a recorder
 * @error: return location for a #GError, or %NULL
 *
 * Writes what the file still lacks on disk and closes it. Fails with %TKS_ERROR_IO when it
 * cannot be written.
 *
 * Returns: %TRUE when the file is whole on disk
 */
gboolean     tks_recorder_close         (TksRecorder             *self,
                                         GError                 **error);
/**
 * tks_recorder_feed:
 * @self: a recorder
 * @data: (array length=len): bytes as received
 * @len: their number
 *
 * Takes bytes without a transport (a stream read from elsewhere): written and decoded as
 * tks_recorder_step() does.
 */
void         tks_recorder_feed          (TksRecorder             *self,
                                         const guint8            *data,
                                         gsize                    len);
/**
 * tks_recorder_get_stats:
 * @self: a recorder
 * @stats: (out caller-allocates): the recording's counters
 *
 * Gets the recording's counters so far.
 */
void         tks_recorder_get_stats     (TksRecorder             *self,
                                         TksRecorderStats        *stats);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksRecorder, tks_recorder_free)

G_END_DECLS
