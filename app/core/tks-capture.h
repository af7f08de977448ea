/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * TksCapture:
 *
 * A capture is one thread list and one context-switch log from a board, rebuilt into a
 * timeline (see docs/rebuild.md). It is immutable once built, so it can be shared between
 * threads freely.
 *
 * Time is measured in board ticks, as a double: tick T spans [T, T+1); when k records share
 * a tick, the i-th of them (0-based) is placed at T + i/k. Ticks are unwrapped (the board's
 * 20-bit tick counter wraps), so times increase through the whole capture.
 */

/**
 * TKS_TYPE_CAPTURE:
 *
 * The #GType of #TksCapture.
 */
#define TKS_TYPE_CAPTURE (tks_capture_get_type ())
G_DECLARE_FINAL_TYPE (TksCapture, tks_capture, TKS, CAPTURE, GObject)

/**
 * TksRun:
 * @begin: where the run begins (ticks)
 * @end: where it ends (ticks)
 *
 * A run: the thread held the CPU from @begin to @end.
 */
typedef struct
{
  double begin;
  double end;
} TksRun;

/**
 * TksMarkKind:
 * @TKS_MARK_IN: an unlogged thread was switched in at the mark's pos
 * @TKS_MARK_OUT: an unlogged thread was switched out at the mark's pos
 *
 * What a #TksMark is.
 */
typedef enum
{
  TKS_MARK_IN,   /* an unlogged thread was switched in at @pos  */
  TKS_MARK_OUT,  /* an unlogged thread was switched out at @pos */
} TksMarkKind;

/**
 * TksMark:
 * @pos: where (ticks)
 * @kind: a #TksMarkKind
 * @width_div: k of the tick holding the record: the mark is 1/(2k) wide
 *
 * A mark: an IN or OUT seen for a thread that is not logged (its runs cannot be paired).
 */
typedef struct
{
  double  pos;
  guint32 kind;   /* TksMarkKind */
  guint32 width_div; /* k of the tick holding the record: the mark is 1/(2k) wide */
} TksMark;

/**
 * TksThreadFlags:
 * @TKS_THREAD_LOGGED: "Log = Yes": runs are paired
 * @TKS_THREAD_EXITED: an exit record was seen: exit_time is set
 * @TKS_THREAD_DELETED: listed in the "Deleted threads" section
 * @TKS_THREAD_NOT_LISTED: only the log names it: name and priority unknown
 * @TKS_THREAD_RUNNING_AT_END: the last run lasts to the end of the capture
 * @TKS_THREAD_ASSUMED_START: the first run begins at tick 0 without an IN
 * @TKS_THREAD_RUNNING_AT_START: the first run began before the capture: it is shown from the
 *   capture's start to its first OUT
 * @TKS_THREAD_EXITED_AFTER_LOG_END: its exit record came after the log ended (see
 *   tks_capture_get_log_end()): it exited at exit_time, what it did since the end is unknown
 * @TKS_THREAD_EXITED_BEFORE_LOG: listed as deleted, but its exit is older than the log: it has
 *   no event in the capture
 *
 * What is known of a thread (#TksThread's flags).
 */
typedef enum
{
  TKS_THREAD_LOGGED         = 1 << 0, /* "Log = Yes": runs are paired                     */
  TKS_THREAD_EXITED         = 1 << 1, /* an exit record was seen: exit_time is set         */
  TKS_THREAD_DELETED        = 1 << 2, /* listed in the "Deleted threads" section           */
  TKS_THREAD_NOT_LISTED     = 1 << 3, /* only the log names it: name and priority unknown  */
  TKS_THREAD_RUNNING_AT_END = 1 << 4, /* the last run lasts to the end of the capture      */
  TKS_THREAD_ASSUMED_START  = 1 << 5, /* the first run begins at tick 0 without an IN      */
  TKS_THREAD_RUNNING_AT_START = 1 << 6, /* the first run began before the capture: it is
                                           shown from the capture's start to its first OUT */
  TKS_THREAD_EXITED_AFTER_LOG_END = 1 << 7, /* its exit record came after the log ended (see
                                               tks_capture_get_log_end()): it exited at
                                               exit_time, what it did since the end is unknown */
  TKS_THREAD_EXITED_BEFORE_LOG = 1 << 8, /* listed as deleted, but its exit is older than the
                                            log: it has no event in the capture */
} TksThreadFlags;

/**
 * TksLogEndReason:
 * @TKS_LOG_END_CAPTURE_END: the log records to its last record: log end = capture end
 * @TKS_LOG_END_LONE_EXITS: only exit records follow the last switch: the log had stopped
 *   (frozen by a trigger) and the board still wrote the exits of threads, later; the switches
 *   after the last one are unknown
 *
 * Why the log ends where it does (tks_capture_get_log_end()).
 */
typedef enum
{
  TKS_LOG_END_CAPTURE_END, /* the log records to its last record: log end = capture end */
  TKS_LOG_END_LONE_EXITS,  /* only exit records follow the last switch: the log had stopped
                              (frozen by a trigger) and the board still wrote the exits of
                              threads, later; the switches after the last one are unknown */
} TksLogEndReason;

/**
 * TksGap:
 * @begin: where the hole begins (ticks)
 * @end: where it ends (ticks)
 * @dropped: the switches the board did not record meanwhile
 *
 * A hole in the log: the board did not record @dropped switches from @begin to @end (it was
 * printing a reply). Every run ends at @begin; after @end a thread switched out without having
 * been switched in since ran from @end. Between them nothing is known.
 */
typedef struct
{
  double  begin;
  double  end;
  guint64 dropped;
} TksGap;

/**
 * TksBoardCounters:
 * @known: the input had a threads_dump header
 * @records_written: records the board wrote
 * @dropped_paused: switches not recorded while the log was printed
 * @dropped_history: oldest records discarded for a full deleted history
 *
 * The board's counters, as a threads_dump header gives them. They count since boot (or since
 * run mode began), not within the capture: information, not damage.
 */
typedef struct
{
  gboolean known;              /* the input had a threads_dump header */
  guint64  records_written;
  guint64  dropped_paused;     /* switches not recorded while the log was printed */
  guint64  dropped_history;    /* oldest records discarded for a full deleted history */
} TksBoardCounters;

/**
 * TKS_THREAD_N_COLORS:
 *
 * The colours a viewer tells threads apart by.
 */
#define TKS_THREAD_N_COLORS  24
/**
 * TKS_THREAD_COLOR_IDLE:
 *
 * The quiet colour of the idle thread.
 */
#define TKS_THREAD_COLOR_IDLE TKS_THREAD_N_COLORS

/**
 * TksThread:
 * @index: creation order, 0-based
 * @name: its name
 * @priority: its priority
 * @number: as listed: live position, or position when it exited
 * @flags: its #TksThreadFlags
 * @color: its colour (tks-thread-colors.c): an index into a palette of %TKS_THREAD_N_COLORS,
 *   or %TKS_THREAD_COLOR_IDLE
 * @first_event: position of its first IN/OUT/EXIT, NAN when none
 * @exit_time: NAN unless %TKS_THREAD_EXITED
 * @runs: (array length=n_runs): logged threads: sorted, non-overlapping
 * @n_runs: the number of @runs
 * @run_time: (array): n_runs + 1 sums: run_time[i] ticks were run before runs[i]
 * @marks: (array length=n_marks): unlogged threads: sorted by pos
 * @n_marks: the number of @marks
 *
 * A thread of a capture, owned by it.
 */
typedef struct
{
  guint          index;        /* creation order, 0-based */
  const char    *name;
  int            priority;
  int            number;       /* as listed: live position, or position when it exited */
  guint          flags;        /* TksThreadFlags */
  guint          color;        /* its colour (tks-thread-colors.c): an index into a palette
                                * of TKS_THREAD_N_COLORS, or TKS_THREAD_COLOR_IDLE */
  double         first_event;  /* position of its first IN/OUT/EXIT, NAN when none */
  double         exit_time;    /* NAN unless TKS_THREAD_EXITED */
  const TksRun  *runs;         /* logged threads: sorted, non-overlapping */
  guint          n_runs;
  const double  *run_time;     /* n_runs + 1 sums: run_time[i] ticks were run before runs[i] */
  const TksMark *marks;        /* unlogged threads: sorted by pos */
  guint          n_marks;
} TksThread;

/**
 * TksSavedView:
 * @x0: the left edge (ticks)
 * @x1: the right edge (ticks)
 * @y0: the bottom edge, in lane units (lane rows 10, 20, 30… from the bottom, 10 high)
 * @y1: the top edge
 *
 * The visible area saved with a capture, in the original viewer's units.
 */
typedef struct
{
  double x0, x1, y0, y1;
} TksSavedView;

/**
 * TKS_TICK_HZ_MIN:
 *
 * The lowest tick rate a board can have: a saved or typed rate below is refused.
 */
#define TKS_TICK_HZ_MIN     1.0
/**
 * TKS_TICK_HZ_MAX:
 *
 * The highest tick rate a board can have: a saved or typed rate above is refused.
 */
#define TKS_TICK_HZ_MAX     1e9
/**
 * TKS_TICK_HZ_DEFAULT:
 *
 * The tick rate of a capture whose input gives none.
 */
#define TKS_TICK_HZ_DEFAULT 1000.0

/**
 * tks_tick_hz_is_sane:
 * @hz: a tick rate
 *
 * Returns: whether a board can have @hz (%FALSE for NaN too)
 */
static inline gboolean
tks_tick_hz_is_sane (double hz)
{
  return hz >= TKS_TICK_HZ_MIN && hz <= TKS_TICK_HZ_MAX; /* FALSE for NaN too */
}

/**
 * tks_capture_new_from_data:
 * @data: (array length=len): a capture file or a shell transcript
 * @len: its length
 * @error: return location for a #GError, or %NULL
 *
 * Reads a capture from memory. Fails with the errors of tks_parser_finish().
 *
 * Returns: (transfer full) (nullable): the capture, or %NULL with @error set
 */
TksCapture      *tks_capture_new_from_data        (const char    *data,
                                                   gsize          len,
                                                   GError       **error);
/**
 * tks_capture_new_from_file:
 * @path: (type filename): a capture file or a shell transcript
 * @error: return location for a #GError, or %NULL
 *
 * Reads a capture file. Fails with the errors of tks_parser_finish(), the message beginning
 * with the input's name, and %TKS_ERROR_IO when it cannot be opened or read.
 *
 * Returns: (transfer full) (nullable): the capture, or %NULL with @error set
 */
TksCapture      *tks_capture_new_from_file        (const char    *path,
                                                   GError       **error);
/**
 * tks_capture_new_from_file_full:
 * @path: (type filename): a capture file or a shell transcript
 * @source: (nullable): where the capture comes from, if the input does not say
 * @error: return location for a #GError, or %NULL
 *
 * As tks_capture_new_from_file(); @source as in tks_capture_new_from_fd().
 *
 * Returns: (transfer full) (nullable): the capture, or %NULL with @error set
 */
TksCapture      *tks_capture_new_from_file_full   (const char    *path,
                                                   const char    *source,
                                                   GError       **error);
/**
 * tks_capture_new_from_fd:
 * @fd: a file descriptor: a file, a pipe, a device; it stays open
 * @display: names the input in messages
 * @source: (nullable): names where the capture comes from if the input does not say
 *   (tks_capture_get_source())
 * @error: return location for a #GError, or %NULL
 *
 * Reads @fd to its end, by chunks: reading stops as soon as the input cannot be a capture.
 * Fails with the errors of tks_parser_finish(), the message beginning with the input's name,
 * and %TKS_ERROR_IO when it cannot be read.
 *
 * Returns: (transfer full) (nullable): the capture, or %NULL with @error set
 */
TksCapture      *tks_capture_new_from_fd          (int            fd,
                                                   const char    *display,
                                                   const char    *source,
                                                   GError       **error);
/**
 * tks_capture_new_from_replies:
 * @threads_list_reply: (array length=list_len): the reply to threads_list
 * @list_len: its length
 * @threads_timestamps_reply: (array length=timestamps_len): the reply to threads_timestamps
 * @timestamps_len: its length
 * @error: return location for a #GError, or %NULL
 *
 * Rebuilds the capture a board's two replies give. Fails with the errors of
 * tks_parser_finish().
 *
 * Returns: (transfer full) (nullable): the capture, or %NULL with @error set
 */
TksCapture      *tks_capture_new_from_replies     (const char    *threads_list_reply,
                                                   gsize          list_len,
                                                   const char    *threads_timestamps_reply,
                                                   gsize          timestamps_len,
                                                   GError       **error);
/**
 * tks_capture_new_from_dump:
 * @threads_dump_reply: (array length=len): the reply to threads_dump (or threads_dump_compact)
 * @len: its length
 * @error: return location for a #GError, or %NULL
 *
 * Rebuilds the capture of a threads_dump reply: the list and the log taken together, with a
 * checksum (a reply that arrived damaged is a capture that says so: tks_capture_get_damage()).
 * Fails with the errors of tks_parser_finish().
 *
 * Returns: (transfer full) (nullable): the capture, or %NULL with @error set
 */
TksCapture      *tks_capture_new_from_dump        (const char    *threads_dump_reply,
                                                   gsize          len,
                                                   GError       **error);
/**
 * tks_capture_load_file_async:
 * @file: a local file
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called in the caller's thread-default main context when done
 * @user_data: data for @callback
 *
 * As tks_capture_new_from_file(), in a worker thread.
 */
void             tks_capture_load_file_async      (GFile               *file,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
/**
 * tks_capture_preload_file:
 * @file: a local file
 *
 * Starts reading @file in a thread of its own at once, for a program that knows which file it
 * will show before it is ready to ask (the viewer, while its toolkit starts): the next
 * tks_capture_load_file_async() of the same file takes the read over, waiting for its end
 * rather than reading again. One preload at a time: a second call while one is pending, or a
 * file that is not local, does nothing. tks_capture_preload_forget() drops one that is not
 * wanted after all.
 */
void             tks_capture_preload_file         (GFile               *file);
/**
 * tks_capture_preload_wait:
 * @timeout_ms: how long to wait at most, in milliseconds
 *
 * Waits for the pending preload's read to end, for at most @timeout_ms.
 *
 * Returns: %TRUE when no preload is pending or its read has ended, %FALSE when it is still
 * reading after @timeout_ms
 */
gboolean         tks_capture_preload_wait         (guint                timeout_ms);
/**
 * tks_capture_preload_forget:
 *
 * Drops the pending preload, if any (its thread lets go of the capture when it ends): a later
 * load of the same file reads it again.
 */
void             tks_capture_preload_forget       (void);
/**
 * tks_capture_load_file_finish:
 * @result: the result given to the callback
 * @error: return location for a #GError, or %NULL
 *
 * Ends a load. Its errors do not name the file: the caller shows its name with them. Fails as
 * tks_capture_new_from_file() does, with %TKS_ERROR_IO for a file that is not local,
 * %G_IO_ERROR_CANCELLED.
 *
 * Returns: (transfer full) (nullable): the capture, or %NULL with @error set
 */
TksCapture      *tks_capture_load_file_finish     (GAsyncResult  *result,
                                                   GError       **error);

/**
 * tks_capture_write:
 * @self: a capture
 * @out: the string to append the capture file to
 * @view: (nullable): the visible area to save; %NULL: the saved one, else the whole capture
 * @tick_hz: the tick rate to save; 0: the capture's own
 *
 * Appends the capture file of @self to @out: @view and @tick_hz are what a view shows, saved
 * with the capture.
 *
 * Returns: %FALSE for a tick rate a board cannot have (tks_tick_hz_is_sane())
 */
gboolean         tks_capture_write                (TksCapture         *self,
                                                   GString            *out,
                                                   const TksSavedView *view,
                                                   double              tick_hz);
/**
 * tks_capture_save:
 * @self: a capture
 * @path: (type filename): where to save
 * @view: (nullable): as for tks_capture_write()
 * @tick_hz: as for tks_capture_write()
 * @error: return location for a #GError, or %NULL
 *
 * Saves the capture file of @self to @path, atomically. Fails with %TKS_ERROR_IO when it
 * cannot be written.
 *
 * Returns: %TRUE on success
 */
gboolean         tks_capture_save                 (TksCapture         *self,
                                                   const char         *path,
                                                   const TksSavedView *view,
                                                   double              tick_hz,
                                                   GError            **error);

/**
 * tks_capture_get_n_threads:
 * @self: a capture
 *
 * Returns: the number of threads
 */
guint            tks_capture_get_n_threads        (TksCapture    *self);
/**
 * tks_capture_get_thread:
 * @self: a capture
 * @index: creation order, below tks_capture_get_n_threads()
 *
 * Returns: (transfer none): the thread, owned by @self
 */
const TksThread *tks_capture_get_thread           (TksCapture    *self,
                                                   guint          index);
/**
 * tks_capture_get_lanes:
 * @self: a capture
 * @n_lanes: (out) (optional): the number of lanes
 *
 * Every thread's lane, top to bottom.
 *
 * Returns: (transfer none) (array length=n_lanes): thread indices, owned by @self
 */
const guint     *tks_capture_get_lanes            (TksCapture    *self,
                                                   guint         *n_lanes);
/**
 * tks_capture_get_shown_lanes:
 * @self: a capture
 * @with_exited_before_log: whether to show the threads that exited before the log begins
 * @n_lanes: (out) (optional): the number of lanes
 *
 * The lanes to show, top to bottom.
 *
 * Returns: (transfer none) (array length=n_lanes): thread indices, owned by @self
 */
const guint     *tks_capture_get_shown_lanes      (TksCapture    *self,
                                                   gboolean       with_exited_before_log,
                                                   guint         *n_lanes);
/**
 * tks_capture_get_n_exited_before_log:
 * @self: a capture
 *
 * Returns: the number of threads listed as deleted whose exit is older than the log
 *   (%TKS_THREAD_EXITED_BEFORE_LOG)
 */
guint            tks_capture_get_n_exited_before_log (TksCapture *self);
/**
 * tks_capture_get_n_records:
 * @self: a capture
 *
 * Returns: the number of the log's records
 */
guint            tks_capture_get_n_records        (TksCapture    *self);
/**
 * tks_capture_get_n_switch_records:
 * @self: a capture
 *
 * A capture without events (tks_capture_get_events() %NULL) keeps its switch records as the
 * board wrote them, dropped ones included (a capture with events has them among its entries).
 *
 * Returns: the number of switch records kept; 0 for a capture with events
 */
guint            tks_capture_get_n_switch_records (TksCapture    *self);
/**
 * tks_capture_get_switch_record:
 * @self: a capture
 * @index: a switch record (tks_capture_get_n_switch_records())
 * @pos: (out): its place on the timeline (NAN: dropped, not on it)
 * @out: (out): the number of the thread switched out
 * @in: (out): the number of the thread switched in (an exit: @out = @in)
 *
 * Gets a switch record as the board wrote it.
 *
 * Returns: %FALSE past the last
 */
gboolean         tks_capture_get_switch_record    (TksCapture    *self,
                                                   guint          index,
                                                   double        *pos,
                                                   guint         *out,
                                                   guint         *in);
/**
 * tks_capture_get_start:
 * @self: a capture
 *
 * Returns: where the capture begins (ticks)
 */
double           tks_capture_get_start            (TksCapture    *self);
/**
 * tks_capture_get_end:
 * @self: a capture
 *
 * Returns: where the capture ends (ticks)
 */
double           tks_capture_get_end              (TksCapture    *self);
/**
 * tks_capture_get_log_end:
 * @self: a capture
 * @reason: (out) (optional): why the log ends there
 *
 * Where the log really ends: after its last switch. Up to there every thread's state is
 * known; from there to the capture's end only the exit records of threads
 * (%TKS_THREAD_EXITED_AFTER_LOG_END) were written.
 *
 * Returns: the log's end (ticks); the capture's end unless @reason says why not
 */
double           tks_capture_get_log_end          (TksCapture    *self,
                                                   TksLogEndReason *reason);
/**
 * tks_capture_get_n_exits_after_log_end:
 * @self: a capture
 *
 * Returns: the number of threads that exited after the log ended
 *   (%TKS_THREAD_EXITED_AFTER_LOG_END)
 */
guint            tks_capture_get_n_exits_after_log_end (TksCapture *self);
/**
 * tks_capture_get_gaps:
 * @self: a capture
 * @n_gaps: (out): the number of holes
 *
 * The holes in the log, in time order (none unless the board said where they are).
 *
 * Returns: (transfer none) (array length=n_gaps): the holes, owned by @self
 */
const TksGap    *tks_capture_get_gaps             (TksCapture    *self,
                                                   guint         *n_gaps);
/**
 * tks_capture_get_trigger:
 * @self: a capture
 * @pos: (out) (optional): where the trigger was set (ticks), NAN without one
 *
 * Returns: whether the capture has a trigger
 */
gboolean         tks_capture_get_trigger          (TksCapture    *self,
                                                   double        *pos);
/**
 * tks_capture_get_trigger_name:
 * @self: a capture
 *
 * Returns: (transfer none) (nullable): what set the trigger, as the board named it, or %NULL
 */
const char      *tks_capture_get_trigger_name     (TksCapture    *self);
/**
 * tks_tick_format:
 * @pos: a place (ticks)
 *
 * A place in ticks as a person reads it: "17154" for a whole tick, "353010.945" (to the
 * thousandth) inside one, as a trigger set by an event is.
 *
 * Returns: (transfer full): the text; free with g_free()
 */
char            *tks_tick_format                  (double         pos);
/**
 * tks_capture_get_max_switches_per_tick:
 * @self: a capture
 *
 * Returns: the most switch records one tick holds
 */
guint            tks_capture_get_max_switches_per_tick (TksCapture *self);
/**
 * tks_capture_get_mean_switches_per_tick:
 * @self: a capture
 *
 * Returns: the mean number of switch records per tick that holds any
 */
double           tks_capture_get_mean_switches_per_tick (TksCapture *self);
/**
 * tks_capture_get_tick_hz:
 * @self: a capture
 *
 * A view that shows the capture at another rate keeps that rate itself.
 *
 * Returns: the tick rate the input gives, else %TKS_TICK_HZ_DEFAULT
 */
double           tks_capture_get_tick_hz          (TksCapture    *self);
/**
 * tks_capture_get_source:
 * @self: a capture
 *
 * Returns: (transfer none) (nullable): where the capture comes from (a board, a file), when known
 */
const char      *tks_capture_get_source           (TksCapture    *self);
/**
 * tks_capture_get_saved_view:
 * @self: a capture
 * @view: (out caller-allocates): the visible area saved with the capture
 *
 * Returns: whether the capture file saved one
 */
gboolean         tks_capture_get_saved_view       (TksCapture    *self,
                                                   TksSavedView  *view);
/**
 * tks_capture_get_warnings:
 * @self: a capture
 * @n_warnings: (out) (optional): their number
 *
 * What the reader found wrong but could read past (a line skipped, a record that cannot be
 * paired), each a sentence naming its line.
 *
 * Returns: (transfer none) (array length=n_warnings zero-terminated=1): the warnings, owned by
 *   @self
 */
const char * const *tks_capture_get_warnings      (TksCapture    *self,
                                                   guint         *n_warnings);
/**
 * tks_capture_get_log_size:
 * @self: a capture
 *
 * Returns: the board's log size, when the input says (threads_dump); 0 otherwise
 */
guint            tks_capture_get_log_size         (TksCapture    *self);
/**
 * tks_capture_get_board_counters:
 * @self: a capture
 * @counters: (out caller-allocates): the board's counters
 *
 * Gets the board's counters, as a threads_dump header gives them.
 */
void             tks_capture_get_board_counters   (TksCapture    *self,
                                                   TksBoardCounters *counters);
/**
 * tks_capture_get_dropped_since:
 * @self: a capture
 * @previous: an earlier dump of the same board
 * @dropped: (out): the switches the board did not record while paused (printing) since
 *   @previous
 *
 * Counts what the board lost between two dumps.
 *
 * Returns: %TRUE with @dropped when all of them fall inside this capture's log (it reaches
 *   back to where @previous was taken, in the same run), %FALSE when that cannot be known
 */
gboolean         tks_capture_get_dropped_since    (TksCapture    *self,
                                                   TksCapture    *previous,
                                                   guint64       *dropped);
/**
 * tks_capture_get_damage:
 * @self: a capture
 *
 * Returns: (transfer none) (nullable): for a threads_dump: %NULL when it arrived whole (its
 *   count and checksum agree), else why not
 */
const char      *tks_capture_get_damage           (TksCapture    *self);

/* Finding runs and marks by time, in O(log n). Runs are sorted and do not overlap; marks are
 * sorted. */
/**
 * tks_runs_first_ending_after:
 * @runs: (array length=n_runs): runs, sorted, not overlapping
 * @n_runs: their number
 * @t: a position (ticks)
 *
 * Returns: the index of the first run ending after @t, @n_runs when none does
 */
guint            tks_runs_first_ending_after      (const TksRun  *runs,
                                                   guint          n_runs,
                                                   double         t);
/**
 * tks_thread_busy:
 * @thread: a logged thread
 * @t0: start of the range (ticks)
 * @t1: end of the range (ticks)
 *
 * The ticks @thread ran in [@t0, @t1), in O(log runs).
 *
 * Returns: the ticks
 */
double           tks_thread_busy                  (const TksThread *thread,
                                                   double         t0,
                                                   double         t1);
/**
 * tks_first_at:
 * @items: @n items sorted by a double that each starts with (a run's begin, a mark's pos,
 *   an event slice's or instant's pos)
 * @stride: the size of an item
 * @from: the first item to look at
 * @n: the number of items
 * @t: a position (ticks)
 *
 * Searches near @from first: a next answer near the last one is cheap.
 *
 * Returns: the first item at or after @from whose time is >= @t; @n when none is
 */
guint            tks_first_at                     (gconstpointer  items,
                                                   gsize          stride,
                                                   guint          from,
                                                   guint          n,
                                                   double         t);
/**
 * tks_runs_first_beginning_at:
 * @runs: (array length=n_runs): runs, sorted
 * @from: the first run to look at
 * @n_runs: their number
 * @t: a position (ticks)
 *
 * Searches near @from first: a next answer near the last one is cheap.
 *
 * Returns: the first run at or after @from beginning at or after @t; @n_runs when none does
 */
guint            tks_runs_first_beginning_at      (const TksRun  *runs,
                                                   guint          from,
                                                   guint          n_runs,
                                                   double         t);
/**
 * tks_marks_first_at:
 * @marks: (array length=n_marks): marks, sorted
 * @from: the first mark to look at
 * @n_marks: their number
 * @t: a position (ticks)
 *
 * Searches near @from first: a next answer near the last one is cheap.
 *
 * Returns: the first mark at or after @from at or after @t; @n_marks when none is
 */
guint            tks_marks_first_at               (const TksMark *marks,
                                                   guint          from,
                                                   guint          n_marks,
                                                   double         t);

/**
 * tks_capture_lane_to_legacy_y:
 * @self: a capture
 * @with_exited_before_log: as for tks_capture_get_shown_lanes()
 * @lane: a lane coordinate of tks_capture_get_shown_lanes()
 *
 * Returns: the place in the original viewer's lane units (#TksSavedView)
 */
double           tks_capture_lane_to_legacy_y     (TksCapture    *self,
                                                   gboolean       with_exited_before_log,
                                                   double         lane);
/**
 * tks_capture_legacy_y_to_lane:
 * @self: a capture
 * @with_exited_before_log: as for tks_capture_get_shown_lanes()
 * @y: a place in the original viewer's lane units (#TksSavedView)
 *
 * Returns: the lane coordinate of tks_capture_get_shown_lanes()
 */
double           tks_capture_legacy_y_to_lane     (TksCapture    *self,
                                                   gboolean       with_exited_before_log,
                                                   double         y);

G_END_DECLS
