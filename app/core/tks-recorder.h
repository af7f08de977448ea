/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "tks-compact.h"
#include "tks-transport.h"

G_BEGIN_DECLS

/*
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

#define TKS_RECORD_STOP_BYTE      0x03  /* ETX */
#define TKS_RECORD_KEEPALIVE_BYTE 0x16  /* SYN: any other byte would do */

typedef struct _TksRecorder TksRecorder;

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

/* Called with the entries of each compact line as it is decoded (TksEntry, in order; the
 * array is reused after the call). @entries: its entries; @lost_before: slots the board lost
 * just before them (0 mostly). At the end line, slots lost after the last line come with no
 * entries (@entries NULL, @n_entries 0). */
typedef void (*TksRecorderEntriesFunc) (const TksEntry *entries,
                                        guint           n_entries,
                                        guint64         lost_before,
                                        gpointer        user_data);
/* Called with every problem of the stream as it happens (a damaged or missing line, a hole,
 * a line that is not part of it), as a sentence naming the line. */
typedef void (*TksRecorderNoticeFunc)  (const char     *message,
                                        gpointer        user_data);

/* Prepares the recording of @path: a temporary file beside it, which takes its place (an
 * existing file is replaced) once the board answers with the stream; until then, and if the
 * board refuses or the link fails first, an existing file at @path is left as it was. */
TksRecorder *tks_recorder_new           (const char              *path,
                                         GError                 **error);
void         tks_recorder_free          (TksRecorder             *self);
void         tks_recorder_set_entries_func (TksRecorder          *self,
                                            TksRecorderEntriesFunc func,
                                            gpointer               user_data);
void         tks_recorder_set_notice_func  (TksRecorder          *self,
                                            TksRecorderNoticeFunc  func,
                                            gpointer               user_data);
/* How often the keep-alive byte is sent (default 1000 ms; a board whose clock runs faster
 * than real time, as the simulated board's can, needs it more often). */
void         tks_recorder_set_keepalive_interval (TksRecorder    *self,
                                                  guint           interval_ms);

/* What the board streams: its switches at tick resolution (FALSE, the default: about a byte
 * each) or every entry of its log with the counter value (TRUE: several times more bytes).
 * Before tks_recorder_start(). */
void         tks_recorder_set_events    (TksRecorder             *self,
                                         gboolean                 events);

/* Brings the board's shell to a prompt, checks that it offers threads_record
 * (TKS_ERROR_UNKNOWN_COMMAND otherwise) and starts it. Takes @transport (freed with the
 * recorder), also when it fails. */
gboolean     tks_recorder_start         (TksRecorder             *self,
                                         TksTransport            *transport,
                                         GCancellable            *cancellable,
                                         GError                 **error);
/* Reads what arrives within @timeout_ms, writes it, decodes it, and sends the keep-alive
 * when it is due. FALSE with @error when the recording cannot go on: the link closed or
 * failed (TKS_ERROR_DISCONNECTED), the board fell silent (TKS_ERROR_TIMEOUT) or gave its
 * prompt without ending the stream (TKS_ERROR_PARSE: it was reset). TRUE otherwise; the
 * stats say when the board ended the stream. Everything received is in the file either way. */
gboolean     tks_recorder_step          (TksRecorder             *self,
                                         int                      timeout_ms,
                                         GCancellable            *cancellable,
                                         GError                 **error);
/* Sends the stop byte and reads the rest of the stream up to the board's prompt (within a few
 * seconds). */
gboolean     tks_recorder_stop          (TksRecorder             *self,
                                         GCancellable            *cancellable,
                                         GError                 **error);
/* Writes what the file still lacks on disk and closes it. */
gboolean     tks_recorder_close         (TksRecorder             *self,
                                         GError                 **error);
/* Bytes as received, without a transport (a stream read from elsewhere): written and decoded
 * as tks_recorder_step() does. */
void         tks_recorder_feed          (TksRecorder             *self,
                                         const guint8            *data,
                                         gsize                    len);
void         tks_recorder_get_stats     (TksRecorder             *self,
                                         TksRecorderStats        *stats);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksRecorder, tks_recorder_free)

G_END_DECLS
