/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/*
 * A capture is one thread list and one context-switch log from a board, rebuilt into a
 * timeline (see docs/rebuild.md). It is immutable once built, so it can be shared between
 * threads freely.
 *
 * Time is measured in board ticks, as a double: tick T spans [T, T+1); when k records share
 * a tick, the i-th of them (0-based) is placed at T + i/k. Ticks are unwrapped (the board's
 * 20-bit tick counter wraps), so times increase through the whole capture.
 */

#define TKS_TYPE_CAPTURE (tks_capture_get_type ())
G_DECLARE_FINAL_TYPE (TksCapture, tks_capture, TKS, CAPTURE, GObject)

/* A run: the thread held the CPU from @begin to @end (ticks). */
typedef struct
{
  double begin;
  double end;
} TksRun;

typedef enum
{
  TKS_MARK_IN,   /* an unlogged thread was switched in at @pos  */
  TKS_MARK_OUT,  /* an unlogged thread was switched out at @pos */
} TksMarkKind;

/* A mark: an IN or OUT seen for a thread that is not logged (its runs cannot be paired). */
typedef struct
{
  double  pos;
  guint32 kind;   /* TksMarkKind */
  guint32 width_div; /* k of the tick holding the record: the mark is 1/(2k) wide */
} TksMark;

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

/* Why the log ends where it does (tks_capture_get_log_end()). */
typedef enum
{
  TKS_LOG_END_CAPTURE_END, /* the log records to its last record: log end = capture end */
  TKS_LOG_END_LONE_EXITS,  /* only exit records follow the last switch: the log had stopped
                              (frozen by a trigger) and the board still wrote the exits of
                              threads, later; the switches after the last one are unknown */
} TksLogEndReason;

/* A hole in the log: the board did not record @dropped switches from @begin to @end (it was
 * printing a reply). Every run ends at @begin; after @end a thread switched out without having
 * been switched in since ran from @end. Between them nothing is known. */
typedef struct
{
  double  begin;
  double  end;
  guint64 dropped;
} TksGap;

/* The board's counters, as a threads_dump header gives them. They count since boot (or since
 * run mode began), not within the capture: information, not damage. */
typedef struct
{
  gboolean known;              /* the input had a threads_dump header */
  guint64  records_written;
  guint64  dropped_paused;     /* switches not recorded while the log was printed */
  guint64  dropped_history;    /* oldest records discarded for a full deleted history */
} TksBoardCounters;

/* The colours a viewer tells threads apart by, and the quiet one of the idle thread. */
#define TKS_THREAD_N_COLORS  24
#define TKS_THREAD_COLOR_IDLE TKS_THREAD_N_COLORS

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

/* The visible area saved with a capture, in the original viewer's units:
 * x in ticks; y in its lane units (lane rows 10, 20, 30… from the bottom, 10 high). */
typedef struct
{
  double x0, x1, y0, y1;
} TksSavedView;

/* Tick rates a board can have: a saved or typed rate outside is refused. */
#define TKS_TICK_HZ_MIN     1.0
#define TKS_TICK_HZ_MAX     1e9
#define TKS_TICK_HZ_DEFAULT 1000.0

static inline gboolean
tks_tick_hz_is_sane (double hz)
{
  return hz >= TKS_TICK_HZ_MIN && hz <= TKS_TICK_HZ_MAX; /* FALSE for NaN too */
}

TksCapture      *tks_capture_new_from_data        (const char    *data,
                                                   gsize          len,
                                                   GError       **error);
TksCapture      *tks_capture_new_from_file        (const char    *path,
                                                   GError       **error);
/* As tks_capture_new_from_file(); @source as in tks_capture_new_from_fd(). */
TksCapture      *tks_capture_new_from_file_full   (const char    *path,
                                                   const char    *source,
                                                   GError       **error);
/* Reads @fd to its end (a file, a pipe, a device); @display names it in messages. @source,
 * when not NULL, names where the capture comes from if the input does not say
 * (tks_capture_get_source()). */
TksCapture      *tks_capture_new_from_fd          (int            fd,
                                                   const char    *display,
                                                   const char    *source,
                                                   GError       **error);
TksCapture      *tks_capture_new_from_replies     (const char    *threads_list_reply,
                                                   gsize          list_len,
                                                   const char    *threads_timestamps_reply,
                                                   gsize          timestamps_len,
                                                   GError       **error);
/* The reply to threads_dump: the list and the log taken together, with a checksum. */
TksCapture      *tks_capture_new_from_dump        (const char    *threads_dump_reply,
                                                   gsize          len,
                                                   GError       **error);
/* As tks_capture_new_from_file(), in a worker thread. Its errors do not name the file: the
 * caller shows its name with them. */
void             tks_capture_load_file_async      (GFile               *file,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
TksCapture      *tks_capture_load_file_finish     (GAsyncResult  *result,
                                                   GError       **error);

/* The capture file: @view (NULL: the saved one, else the whole capture) and @tick_hz (0: the
 * capture's own) are what a view shows, saved with the capture. */
gboolean         tks_capture_write                (TksCapture         *self,
                                                   GString            *out,
                                                   const TksSavedView *view,
                                                   double              tick_hz);
gboolean         tks_capture_save                 (TksCapture         *self,
                                                   const char         *path,
                                                   const TksSavedView *view,
                                                   double              tick_hz,
                                                   GError            **error);

guint            tks_capture_get_n_threads        (TksCapture    *self);
const TksThread *tks_capture_get_thread           (TksCapture    *self,
                                                   guint          index);
/* Every thread's lane, top to bottom. */
const guint     *tks_capture_get_lanes            (TksCapture    *self,
                                                   guint         *n_lanes);
/* The lanes to show: without the threads that exited before the log begins, unless
 * @with_exited_before_log. */
const guint     *tks_capture_get_shown_lanes      (TksCapture    *self,
                                                   gboolean       with_exited_before_log,
                                                   guint         *n_lanes);
guint            tks_capture_get_n_exited_before_log (TksCapture *self);
guint            tks_capture_get_n_records        (TksCapture    *self);
/* A capture without events (tks_capture_get_events() NULL) keeps its switch records as the
 * board wrote them, dropped ones included (a capture with events has them among its entries:
 * 0 here). Record @index: its place on the timeline (NAN: dropped, not on it) and the numbers
 * of the threads switched out and in (an exit: @out = @in); FALSE past the last. */
guint            tks_capture_get_n_switch_records (TksCapture    *self);
gboolean         tks_capture_get_switch_record    (TksCapture    *self,
                                                   guint          index,
                                                   double        *pos,
                                                   guint         *out,
                                                   guint         *in);
double           tks_capture_get_start            (TksCapture    *self);
double           tks_capture_get_end              (TksCapture    *self);
/* Where the log really ends: after its last switch. Up to there every thread's state is
 * known; from there to the capture's end only the exit records of threads
 * (TKS_THREAD_EXITED_AFTER_LOG_END) were written. Equals the end unless @reason says why not. */
double           tks_capture_get_log_end          (TksCapture    *self,
                                                   TksLogEndReason *reason);
guint            tks_capture_get_n_exits_after_log_end (TksCapture *self);
/* The holes in the log, in time order (none unless the board said where they are). */
const TksGap    *tks_capture_get_gaps             (TksCapture    *self,
                                                   guint         *n_gaps);
gboolean         tks_capture_get_trigger          (TksCapture    *self,
                                                   double        *pos);
const char      *tks_capture_get_trigger_name     (TksCapture    *self);
/* A place in ticks as a person reads it: "17154" for a whole tick, "353010.945" (to the
 * thousandth) inside one, as a trigger set by an event is. */
char            *tks_tick_format                  (double         pos);
guint            tks_capture_get_max_switches_per_tick (TksCapture *self);
double           tks_capture_get_mean_switches_per_tick (TksCapture *self);
/* The tick rate the input gives, else TKS_TICK_HZ_DEFAULT. A view that shows the capture at
 * another rate keeps that rate itself. */
double           tks_capture_get_tick_hz          (TksCapture    *self);
/* Where the capture comes from (a board, a file), when known. */
const char      *tks_capture_get_source           (TksCapture    *self);
gboolean         tks_capture_get_saved_view       (TksCapture    *self,
                                                   TksSavedView  *view);
const char * const *tks_capture_get_warnings      (TksCapture    *self,
                                                   guint         *n_warnings);
/* The board's log size, when the input says (threads_dump); 0 otherwise. */
guint            tks_capture_get_log_size         (TksCapture    *self);
void             tks_capture_get_board_counters   (TksCapture    *self,
                                                   TksBoardCounters *counters);
/* The switches the board did not record while paused (printing) since @previous, an earlier
 * dump of the same board: TRUE with @dropped when all of them fall inside this capture's log
 * (it reaches back to where @previous was taken, in the same run), FALSE when that cannot be
 * known. */
gboolean         tks_capture_get_dropped_since    (TksCapture    *self,
                                                   TksCapture    *previous,
                                                   guint64       *dropped);
/* For a threads_dump: NULL when it arrived whole (its count and checksum agree), else why not. */
const char      *tks_capture_get_damage           (TksCapture    *self);

/* Finding runs and marks by time, in O(log n). Runs are sorted and do not overlap; marks are
 * sorted. The index of the first run ending after @t (n_runs when none does): */
guint            tks_runs_first_ending_after      (const TksRun  *runs,
                                                   guint          n_runs,
                                                   double         t);
/* The first run at or after @from beginning at or after @t; the first mark at or after @from
 * at or after @t. They search near @from first: a next answer near the last one is cheap. */
/* Ticks @thread ran in [t0, t1): O(log runs). */
double           tks_thread_busy                  (const TksThread *thread,
                                                   double         t0,
                                                   double         t1);
/* The first of @n items, at or after @from, whose time is >= @t: items sorted by a double
 * that each starts with (a run's begin, a mark's pos, an event slice's or instant's pos). */
guint            tks_first_at                     (gconstpointer  items,
                                                   gsize          stride,
                                                   guint          from,
                                                   guint          n,
                                                   double         t);
guint            tks_runs_first_beginning_at      (const TksRun  *runs,
                                                   guint          from,
                                                   guint          n_runs,
                                                   double         t);
guint            tks_marks_first_at               (const TksMark *marks,
                                                   guint          from,
                                                   guint          n_marks,
                                                   double         t);

/* Lane coordinates are those of tks_capture_get_shown_lanes (@with_exited_before_log). */
double           tks_capture_lane_to_legacy_y     (TksCapture    *self,
                                                   gboolean       with_exited_before_log,
                                                   double         lane);
double           tks_capture_legacy_y_to_lane     (TksCapture    *self,
                                                   gboolean       with_exited_before_log,
                                                   double         y);

G_END_DECLS
