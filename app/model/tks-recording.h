/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "tks-capture.h"
#include "tks-recorder.h"
#include "tks-transport.h"

G_BEGIN_DECLS

/*
 * A recording under way: a board's log (threads_record) streamed into a file as it arrives, by
 * a worker thread of its own driving the core's TksRecorder (tks-recorder.h), and the file's
 * end read back every second for a live view (tks-recording-tail.h: what that costs does not
 * grow with the recording).
 *
 * Once a second, on the main context it was started from, the recording brings its counters
 * up to date and emits TksRecording::second; when the second's reading of the file's end is
 * done, it notes the file's size at that length of the recording (TksRecording:length) and
 * emits TksRecording::live-stretch with the end as a capture (or TksRecording::live-failed with
 * the reader's reason when that end is no capture, as reading the file would say). Earlier stretches are read back
 * from the file on demand (tks_recording_read_back_async()). TksRecording::stopped tells, once,
 * that the worker is done and the file complete: the board ended the stream after
 * tks_recording_stop(), or the board or the link ended it (the error says how). A recording
 * that received nothing leaves no file.
 */

#define TKS_TYPE_RECORDING (tks_recording_get_type ())

G_DECLARE_FINAL_TYPE (TksRecording, tks_recording, TKS, RECORDING, GObject)

/* Records the board at @address (@options: NULL for the defaults) into @path, the board's
 * events as well as its switches when @events. Nothing happens before tks_recording_start(). */
TksRecording *tks_recording_new            (const char                 *address,
                                            const TksTransportOptions  *options,
                                            const char                 *path,
                                            gboolean                    events);
/* Starts the worker and the seconds. Once. */
void          tks_recording_start          (TksRecording               *self);
/* Asks the board to end its stream; TksRecording::stopped follows once it has. */
void          tks_recording_stop           (TksRecording               *self);

const char   *tks_recording_get_address    (TksRecording               *self);
const char   *tks_recording_get_path       (TksRecording               *self);
gboolean      tks_recording_get_events     (TksRecording               *self);
/* Ticks between two wraps of the recording's tick (2^"Tick bits"), as the live stretches
 * read so far say: TKS_RECORDING_TICK_WRAP before the first. */
double        tks_recording_get_tick_wrap  (TksRecording               *self);
/* Whether tks_recording_stop() was called. */
gboolean      tks_recording_get_stopping   (TksRecording               *self);
/* Whether the worker is done (TksRecording::stopped was emitted). */
gboolean      tks_recording_get_stopped    (TksRecording               *self);
/* Seconds the recording held at the last second's reading of its file (0 before it). */
double        tks_recording_get_length     (TksRecording               *self);

/* The counters as of the last second (or of the end, once stopped). */
void          tks_recording_get_stats      (TksRecording               *self,
                                            TksRecorderStats           *stats);
/* Records the board dropped in the last second. */
guint64       tks_recording_get_dropped_last_second (TksRecording      *self);
/* Seconds without a byte from the board, as of the last second. */
double        tks_recording_get_silence    (TksRecording               *self);

/* Whether a stretch can be read back: the file was read at one second at least. */
gboolean      tks_recording_can_read_back  (TksRecording               *self);
/* Reads the stretch of the recording around @seconds into it back from the file, in a worker:
 * about as much as the live view holds, ending half of it after that position. */
void          tks_recording_read_back_async  (TksRecording             *self,
                                              double                    seconds,
                                              GCancellable             *cancellable,
                                              GAsyncReadyCallback       callback,
                                              gpointer                  user_data);
/* The stretch as a capture (NULL without @error while the file has no complete header),
 * @wraps as tks_recording_tail_wraps_before() tells of its start, and @before: seconds from
 * the position asked for to the stretch's end. */
TksCapture   *tks_recording_read_back_finish (TksRecording             *self,
                                              GAsyncResult             *result,
                                              double                   *wraps,
                                              double                   *before,
                                              GError                  **error);

/* Bytes of the file a live view keeps: about a minute of the recording at @rate bytes a
 * second, within bounds. TICKSCOPE_LIVE_BYTES, when set, fixes it (a short live view, for
 * tests). */
gsize         tks_recording_live_bytes     (double                      rate);

G_END_DECLS
