/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-capture.h"

G_BEGIN_DECLS

/**
 * TksEvents:
 *
 * Events beyond the thread switches: what a board built with the library's event options
 * sends in a threads_dump of dump version 2 (see mcu-lib/WIRE-FORMAT.md): interrupt handlers,
 * CPU sleep, wake-ups, markers, states and the trigger entry, with the board's realtime
 * counter. A capture read from dump version 1 or from the legacy commands has none
 * (tks_capture_get_events() returns NULL) and is rebuilt exactly as before.
 *
 * Time. Every event has two times (TksTime):
 * - @pos, in ticks as a double, on the same axis as the capture's runs (TksRun): what a view
 *   draws. With a counter, the runs of a version 2 capture are placed by it too, so an event
 *   and a switch that happened together have the same @pos.
 * - @time, an exact integer at the board's resolution: the realtime counter, unwrapped to 64
 *   bits (the 32-bit counter is unwrapped with the 20-bit tick, as WIRE-FORMAT.md says), when
 *   the board has one (tks_events_get_time_hz() is the counter's frequency); else the
 *   unwrapped tick (tks_events_get_time_hz() is the tick frequency). Only differences of
 *   @time mean something; the first entry's @time is its counter value as the board printed
 *   it (its tick without a counter).
 *
 * The capture's span (tks_capture_get_start(), _get_end()) covers the events before the first
 * switch and after the last; its trigger (tks_capture_get_trigger()) is the trigger entry's
 * place when the log holds one.
 *
 * Names. A handler, marker, channel or state is known by the id the board gave it; an id the
 * dump's Names section does not list (or 0, a name the board could not register) is shown as
 * "irq 7", "marker 7", "channel 7", "state 7" (0: "irq ?", ...), never refused.
 *
 * Every pointer returned stays valid as long as the capture.
 */

typedef struct _TksEvents TksEvents;

/**
 * TksEventKind:
 * @TKS_EVENT_SWITCH: a switch: a = out thread number, b = in thread number (an exit: a = b)
 * @TKS_EVENT_IRQ_ENTER: a handler enters: a = its name id (0: a name the board could not
 *   register)
 * @TKS_EVENT_IRQ_LEAVE: the innermost handler under way ends; a = its name id (0 when it
 *   entered before the log)
 * @TKS_EVENT_SLEEP: the CPU goes idle
 * @TKS_EVENT_WAKE: the CPU leaves idle; b = 1 when a handler entered since the Sleep, then
 *   a = the first one's name id: it woke the CPU
 * @TKS_EVENT_READY: a = number of the thread made ready (at that moment)
 * @TKS_EVENT_MARKER: a = marker name id, b = value
 * @TKS_EVENT_STATE_BEGIN: a = channel id, b = state id
 * @TKS_EVENT_STATE_END: a = channel id
 * @TKS_EVENT_TRIGGER: the trigger was set here
 * @TKS_N_EVENT_KINDS: the number of kinds
 *
 * The kinds of the log's entries: 0 is a switch record, the others are the board's event
 * kinds (the in-thread field of an entry whose out-thread is 63).
 */
typedef enum
{
  TKS_EVENT_SWITCH      = 0, /* a = out thread number, b = in thread number (an exit: a = b) */
  TKS_EVENT_IRQ_ENTER   = 1, /* a = handler name id (0: a name the board could not register) */
  TKS_EVENT_IRQ_LEAVE   = 2, /* the innermost handler under way ends; a = its name id (0 when
                                it entered before the log) */
  TKS_EVENT_SLEEP       = 3, /* the CPU goes idle */
  TKS_EVENT_WAKE        = 4, /* the CPU leaves idle; b = 1 when a handler entered since the
                                Sleep, then a = the first one's name id: it woke the CPU */
  TKS_EVENT_READY       = 5, /* a = number of the thread made ready (at that moment) */
  TKS_EVENT_MARKER      = 6, /* a = marker name id, b = value */
  TKS_EVENT_STATE_BEGIN = 7, /* a = channel id, b = state id */
  TKS_EVENT_STATE_END   = 8, /* a = channel id */
  TKS_EVENT_TRIGGER     = 9, /* the trigger was set here */
  TKS_N_EVENT_KINDS
} TksEventKind;

/**
 * TksNameKind:
 * @TKS_NAME_IRQ: a handler's name
 * @TKS_NAME_MARKER: a marker's name
 * @TKS_NAME_CHANNEL: a channel's name (states)
 * @TKS_NAME_STATE: a state's name
 *
 * The board's name tables: an id means something only with its kind.
 */
typedef enum
{
  TKS_NAME_IRQ,
  TKS_NAME_MARKER,
  TKS_NAME_CHANNEL,
  TKS_NAME_STATE,
} TksNameKind;

/**
 * TksTime:
 * @pos: ticks, on the runs' axis: what a view draws
 * @time: exact: counter counts (unwrapped) or ticks, see tks_events_get_time_hz(); only
 *   differences mean something
 *
 * The two times of every event (see #TksEvents).
 */
typedef struct
{
  double pos;    /* ticks, on the runs' axis */
  gint64 time;   /* exact: counter counts (unwrapped) or ticks, see tks_events_get_time_hz() */
} TksTime;

/**
 * TksEventEntry:
 * @kind: a #TksEventKind
 * @a: the payload's first word (see #TksEventKind)
 * @b: its second word
 * @time: when
 *
 * One entry of the log, in the board's order.
 */
typedef struct
{
  guint32 kind;  /* TksEventKind */
  guint32 a;
  guint32 b;
  TksTime time;
} TksEventEntry;

/**
 * TksSliceFlags:
 * @TKS_SLICE_OPEN_BEGIN: it began before the log: begin is the log's first entry
 * @TKS_SLICE_OPEN_END: it had not ended when the log ends: end is the last entry
 *
 * What a #TksSlice's ends mean.
 */
typedef enum
{
  TKS_SLICE_OPEN_BEGIN = 1 << 0, /* it began before the log: begin is the log's first entry */
  TKS_SLICE_OPEN_END   = 1 << 1, /* it had not ended when the log ends: end is the last entry */
} TksSliceFlags;

/**
 * TksSlice:
 * @begin: where it begins
 * @end: where it ends
 * @depth: nesting: 0 outermost (handlers nested in handlers, states in states)
 * @label: handler: its name; sleep: the waking handler's name, %NULL when none was recorded;
 *   state: the state's name
 * @flags: its #TksSliceFlags
 *
 * A span on a track: a handler's run, a sleep, a state.
 */
typedef struct
{
  TksTime     begin;
  TksTime     end;
  guint       depth;  /* nesting: 0 outermost (handlers nested in handlers, states in states) */
  const char *label;  /* handler: its name; sleep: the waking handler's name, NULL when none
                         was recorded; state: the state's name */
  guint       flags;  /* TksSliceFlags */
} TksSlice;

/**
 * TksInstant:
 * @time: when
 * @value: the marker's value
 *
 * An instant: a marker.
 */
typedef struct
{
  TksTime time;
  guint32 value;
} TksInstant;

/**
 * TksTrackKind:
 * @TKS_TRACK_IRQ: one per handler name: its runs (nested in any handler: depth)
 * @TKS_TRACK_SLEEP: one, "CPU sleep": the sleeps, labelled with the waking handler
 * @TKS_TRACK_MARKER: one per marker name: its instants
 * @TKS_TRACK_STATE: one per channel: its states, nested
 * @TKS_N_TRACK_KINDS: the number of kinds
 *
 * What a #TksTrack holds.
 */
typedef enum
{
  TKS_TRACK_IRQ,     /* one per handler name: its runs (nested in any handler: depth) */
  TKS_TRACK_SLEEP,   /* one, "CPU sleep": the sleeps, labelled with the waking handler */
  TKS_TRACK_MARKER,  /* one per marker name: its instants */
  TKS_TRACK_STATE,   /* one per channel: its states, nested */
  TKS_N_TRACK_KINDS
} TksTrackKind;

/**
 * TksTrack:
 * @kind: a #TksTrackKind
 * @name_id: the board's id (0 for the sleep track)
 * @name: its name
 * @slices: (array length=n_slices): by begin; IRQ, SLEEP, STATE
 * @n_slices: the number of @slices
 * @instants: (array length=n_instants): by time; MARKER
 * @n_instants: the number of @instants
 * @max_depth: deepest slice's depth + 1 (lanes the track needs)
 *
 * A row of events: a handler's runs, the sleeps, a marker's instants or a channel's states.
 */
typedef struct
{
  guint32           kind;      /* TksTrackKind */
  guint32           name_id;   /* the board's id (0 for the sleep track) */
  const char       *name;
  const TksSlice   *slices;    /* by begin; IRQ, SLEEP, STATE */
  guint             n_slices;
  const TksInstant *instants;  /* by time; MARKER */
  guint             n_instants;
  guint             max_depth; /* deepest slice's depth + 1 (lanes the track needs) */
} TksTrack;

/**
 * TksWakerKind:
 * @TKS_WAKER_NONE: not known: before the log's first switch, or a thread it does not name
 * @TKS_WAKER_THREAD: the thread running (waker: its index)
 * @TKS_WAKER_HANDLER: the innermost handler under way (waker: its name id)
 *
 * What made a thread ready: what held the CPU at its Ready entry, read from the log (the
 * board's ready hook runs in the code that makes the thread ready: the handler under way,
 * else the running thread).
 */
typedef enum
{
  TKS_WAKER_NONE,     /* not known: before the log's first switch, or a thread it does not
                         name */
  TKS_WAKER_THREAD,   /* the thread running (waker: its index) */
  TKS_WAKER_HANDLER,  /* the innermost handler under way (waker: its name id) */
} TksWakerKind;

/**
 * TksWakeup:
 * @thread: index into the capture's threads (creation order), %G_MAXUINT when the number
 *   names no thread
 * @number: the thread's number in the Ready entry
 * @ready: when it was made ready
 * @run: when it was switched in; equals @ready when open
 * @latency: run.time - ready.time (time units); 0 when open
 * @open: no later switch-in of the thread in the log
 * @waker_kind: a #TksWakerKind
 * @waker: %TKS_WAKER_THREAD: a thread index; %TKS_WAKER_HANDLER: a name id
 * @ready_entry: its Ready among the entries (tks_events_get_entries())
 * @run_entry: the switch that switched it in; %G_MAXUINT when open
 *
 * A wake-up: the thread was made ready (Ready), then switched in.
 */
typedef struct
{
  guint    thread;    /* index into the capture's threads (creation order), G_MAXUINT when
                         the number names no thread */
  guint    number;    /* the thread's number in the Ready entry */
  TksTime  ready;
  TksTime  run;       /* equals ready when open */
  gint64   latency;   /* run.time - ready.time (time units); 0 when open */
  gboolean open;      /* no later switch-in of the thread in the log */
  guint32  waker_kind; /* TksWakerKind */
  guint    waker;     /* TKS_WAKER_THREAD: a thread index; TKS_WAKER_HANDLER: a name id */
  guint    ready_entry; /* its Ready among the entries (tks_events_get_entries()) */
  guint    run_entry; /* the switch that switched it in; G_MAXUINT when open */
} TksWakeup;

/**
 * TksEventsInfo:
 * @dump_version: "Dump version"
 * @counter_hz: "Counter frequency"; 0: no counter
 * @counter_bits: "Counter bits"
 * @slot_words: "Slot words": 2 with the counter, else 1
 * @slots: "Slots": the slots the printed entries take
 * @options: "Events": e.g. "cycles irq sleep ready user conditions"
 * @condition: "Condition": e.g. "latency above 500 us of sensor", "none"
 * @max_names: "Max names"
 * @names_refused: "Names refused"
 * @counted: "Counted handler" lines: the handlers the board counts without logging them,
 *   "NAME, N calls" each, joined by "; "
 * @counted_calls: their calls, in all
 * @has_trigger_value: the header has a "Trigger value"
 * @trigger_value: "Trigger value": µs past the limit, or the marker's value
 *
 * The dump's header keys of version 2 (zero / %NULL / %FALSE when absent).
 */
typedef struct
{
  guint        dump_version;
  guint64      counter_hz;      /* "Counter frequency"; 0: no counter */
  guint        counter_bits;    /* "Counter bits" */
  guint        slot_words;      /* "Slot words": 2 with the counter, else 1 */
  guint64      slots;           /* "Slots": the slots the printed entries take */
  const char  *options;         /* "Events": e.g. "cycles irq sleep ready user conditions" */
  const char  *condition;       /* "Condition": e.g. "latency above 500 us of sensor", "none" */
  guint        max_names;       /* "Max names" */
  guint        names_refused;   /* "Names refused" */
  const char  *counted;         /* "Counted handler" lines: the handlers the board counts
                                   without logging them, "NAME, N calls" each, joined by "; " */
  guint64      counted_calls;   /* their calls, in all */
  gboolean     has_trigger_value;
  guint64      trigger_value;   /* "Trigger value": µs past the limit, or the marker's value */
} TksEventsInfo;

/**
 * tks_capture_get_events:
 * @capture: a capture
 *
 * Returns: (transfer none) (nullable): the capture's events, owned by it; %NULL when it has none
 *   (dump version 1, legacy commands)
 */
TksEvents           *tks_capture_get_events        (TksCapture   *capture);

/**
 * tks_events_get_info:
 * @events: a capture's events
 *
 * Returns: (transfer none): the dump's header keys
 */
const TksEventsInfo *tks_events_get_info           (TksEvents    *events);
/**
 * tks_events_has_counter:
 * @events: a capture's events
 *
 * Returns: whether the board has a realtime counter
 */
gboolean             tks_events_has_counter        (TksEvents    *events);
/**
 * tks_events_get_time_hz:
 * @events: a capture's events
 *
 * Returns: the units per second of #TksTime's time: the counter's frequency, else the tick
 *   frequency
 */
double               tks_events_get_time_hz        (TksEvents    *events);
/**
 * tks_events_to_us:
 * @events: a capture's events
 * @delta: a difference of #TksTime's time
 *
 * Returns: @delta in microseconds
 */
double               tks_events_to_us              (TksEvents    *events,
                                                    gint64        delta);

/**
 * tks_events_get_entries:
 * @events: a capture's events
 * @n_entries: (out): their number
 *
 * Every entry of the log, switches included, in order.
 *
 * Returns: (transfer none) (array length=n_entries): the entries
 */
const TksEventEntry *tks_events_get_entries        (TksEvents    *events,
                                                    guint        *n_entries);
/**
 * tks_events_count:
 * @events: a capture's events
 * @kind: a kind of entry
 *
 * Returns: the number of entries of @kind
 */
guint                tks_events_count              (TksEvents    *events,
                                                    TksEventKind  kind);

/**
 * tks_events_get_name:
 * @events: a capture's events
 * @kind: which of the board's tables
 * @id: the board's id
 *
 * A name by its board id and kind.
 *
 * Returns: (transfer none) (nullable): the registered name, or "irq 7" for one the dump's
 *   Names section does not list; %NULL for an id the log does not use
 */
const char          *tks_events_get_name           (TksEvents    *events,
                                                    TksNameKind   kind,
                                                    guint32       id);

/**
 * tks_events_get_tracks:
 * @events: a capture's events
 * @kind: the kind of tracks
 * @n_tracks: (out): their number
 *
 * Returns: (transfer none) (array length=n_tracks): the tracks of @kind
 */
const TksTrack      *tks_events_get_tracks         (TksEvents    *events,
                                                    TksTrackKind  kind,
                                                    guint        *n_tracks);
/**
 * tks_events_get_wakeups:
 * @events: a capture's events
 * @n_wakeups: (out): their number
 *
 * Returns: (transfer none) (array length=n_wakeups): the wake-ups, by ready time
 */
const TksWakeup     *tks_events_get_wakeups        (TksEvents    *events,
                                                    guint        *n_wakeups);
/**
 * tks_events_get_cpu_after:
 * @events: a capture's events
 * @entry: an entry (tks_events_get_entries())
 * @thread: (out) (optional): the thread switched in last: its index, %G_MAXUINT before the
 *   log's first switch or after a switch to no thread
 * @handler: (out) (optional): the innermost handler under way: its name id
 * @handler_depth: (out) (optional): the handlers under way
 *
 * What held the CPU just after entry @entry: the innermost handler under way when
 * *@handler_depth > 0, else the thread switched in last.
 */
void                 tks_events_get_cpu_after      (TksEvents    *events,
                                                    guint         entry,
                                                    guint        *thread,
                                                    guint32      *handler,
                                                    guint        *handler_depth);
/**
 * tks_events_describe_waker:
 * @events: a capture's events
 * @wakeup: one of tks_events_get_wakeups()
 *
 * The waker of @wakeup in words: "thread NAME", "handler NAME", or "not known".
 *
 * Returns: (transfer full): the text; free with g_free()
 */
char                *tks_events_describe_waker     (TksEvents       *events,
                                                    const TksWakeup *wakeup);
/**
 * tks_events_get_trigger:
 * @events: a capture's events
 * @time: (out) (optional): when the board's trigger was set
 *
 * Returns: whether the log holds the trigger entry
 */
gboolean             tks_events_get_trigger        (TksEvents    *events,
                                                    TksTime      *time);

/**
 * TksUnmatchedKind:
 * @TKS_UNMATCHED_IRQ_LEAVE: a handler leave with none under way, once the CPU was seen outside
 *   every handler (a switch, Sleep or Wake)
 * @TKS_UNMATCHED_IRQ_ENTER: a handler still under way at a switch, Sleep or Wake: its leave is
 *   missing
 * @TKS_UNMATCHED_WAKE: a Wake while awake, after a first Sleep or Wake
 * @TKS_UNMATCHED_SLEEP: a Sleep while asleep
 * @TKS_N_UNMATCHED: the number of kinds
 *
 * Events that cannot have happened as the log has them (mcu-lib/WIRE-FORMAT.md: handlers
 * nest and leave before the switch they lead to; Sleep and Wake alternate): each is left out
 * of the tracks, and so of every time and share, and counted.
 */
typedef enum
{
  TKS_UNMATCHED_IRQ_LEAVE,  /* a handler leave with none under way, once the CPU was seen
                             * outside every handler (a switch, Sleep or Wake) */
  TKS_UNMATCHED_IRQ_ENTER,  /* a handler still under way at a switch, Sleep or Wake: its leave
                             * is missing */
  TKS_UNMATCHED_WAKE,       /* a Wake while awake, after a first Sleep or Wake */
  TKS_UNMATCHED_SLEEP,      /* a Sleep while asleep */
  TKS_N_UNMATCHED
} TksUnmatchedKind;

/**
 * tks_events_count_unmatched:
 * @events: a capture's events
 * @kind: a kind of unmatched event
 *
 * Returns: the number of events of @kind left out
 */
guint                tks_events_count_unmatched    (TksEvents        *events,
                                                    TksUnmatchedKind  kind);

/* ------------------------------------------------------------------------------------------ */
/* Statistics (tks-events-stats.c): over a range [from, to] of positions (ticks, NAN: the
 * capture's start or end), in microseconds from the exact times.                             */

/**
 * TksLatencyStats:
 * @thread: index into the capture's threads
 * @count: wake-ups that ended in a switch-in
 * @n_open: wake-ups still waiting when the log ends
 * @min_us: the shortest latency; NAN when @count is 0
 * @mean_us: the mean latency
 * @p50_us: the median latency
 * @p99_us: the 99th percentile
 * @max_us: the longest latency
 *
 * A thread's wake-ups made ready inside the range. The percentiles are nearest-rank: the
 * smallest latency that at least 50 % (99 %) of them do not exceed.
 */
typedef struct
{
  guint  thread;     /* index into the capture's threads */
  guint  count;      /* wake-ups that ended in a switch-in */
  guint  n_open;     /* wake-ups still waiting when the log ends */
  double min_us;     /* NAN when count is 0 */
  double mean_us;
  double p50_us;
  double p99_us;
  double max_us;
} TksLatencyStats;

/**
 * TksHandlerStats:
 * @track: the handler's track
 * @count: its runs that begin inside the range
 * @total_us: their time
 * @longest_us: the longest of them
 *
 * A handler's runs that begin inside the range.
 */
typedef struct
{
  const TksTrack *track;
  guint           count;
  double          total_us;
  double          longest_us;
} TksHandlerStats;

/**
 * TksMarkerStats:
 * @track: the marker's track
 * @count: its occurrences inside the range
 * @min_interval_us: the shortest interval between consecutive ones; NAN below two
 * @mean_interval_us: the mean interval
 * @max_interval_us: the longest interval
 *
 * A marker's occurrences inside the range, and the intervals between consecutive ones.
 */
typedef struct
{
  const TksTrack *track;
  guint           count;
  double          min_interval_us; /* NAN below two occurrences */
  double          mean_interval_us;
  double          max_interval_us;
} TksMarkerStats;

/**
 * tks_events_latency_stats:
 * @events: a capture's events
 * @from: start of the range in ticks, NAN for the capture's start
 * @to: end of the range in ticks, NAN for the capture's end
 *
 * The latencies of the wake-ups made ready inside the range.
 *
 * Returns: (transfer full) (element-type TksLatencyStats): one per thread with a wake-up in the
 *   range, by thread index; free with g_array_unref()
 */
GArray              *tks_events_latency_stats      (TksEvents    *events,
                                                    double        from,
                                                    double        to);
/**
 * tks_events_latency_histogram:
 * @events: a capture's events
 * @thread: a thread's index, %G_MAXUINT for every thread's
 * @from: start of the range in ticks, NAN for the capture's start
 * @to: end of the range in ticks, NAN for the capture's end
 * @bucket_us: the width of a bucket (µs)
 * @n_buckets: the number of buckets
 *
 * The latencies of @thread's wake-ups in the range in buckets: bucket i counts
 * [i * @bucket_us, (i + 1) * @bucket_us); the last one also counts every longer one.
 *
 * Returns: (transfer full) (array length=n_buckets): the counts; free with g_free()
 */
guint               *tks_events_latency_histogram  (TksEvents    *events,
                                                    guint         thread,
                                                    double        from,
                                                    double        to,
                                                    double        bucket_us,
                                                    guint         n_buckets);
/**
 * tks_events_handler_stats:
 * @events: a capture's events
 * @from: start of the range in ticks, NAN for the capture's start
 * @to: end of the range in ticks, NAN for the capture's end
 *
 * The runs of each handler that begin inside the range.
 *
 * Returns: (transfer full) (element-type TksHandlerStats): one per handler track, in track order;
 *   free with g_array_unref()
 */
GArray              *tks_events_handler_stats      (TksEvents    *events,
                                                    double        from,
                                                    double        to);
/**
 * tks_events_marker_stats:
 * @events: a capture's events
 * @from: start of the range in ticks, NAN for the capture's start
 * @to: end of the range in ticks, NAN for the capture's end
 *
 * The occurrences of each marker inside the range.
 *
 * Returns: (transfer full) (element-type TksMarkerStats): one per marker track, in track order;
 *   free with g_array_unref()
 */
GArray              *tks_events_marker_stats       (TksEvents    *events,
                                                    double        from,
                                                    double        to);
/**
 * tks_events_thread_time_without_irqs:
 * @events: a capture's events
 * @thread: a thread of the capture
 * @from: start of the range in ticks, NAN for the capture's start
 * @to: end of the range in ticks, NAN for the capture's end
 *
 * The ticks inside the range that @thread ran, handlers excluded (the time of the outermost
 * handlers that ran during its runs is taken out).
 *
 * Returns: the ticks
 */
double               tks_events_thread_time_without_irqs (TksEvents       *events,
                                                          const TksThread *thread,
                                                          double           from,
                                                          double           to);
/**
 * tks_events_sleep_time:
 * @events: a capture's events
 * @from: start of the range in ticks, NAN for the capture's start
 * @to: end of the range in ticks, NAN for the capture's end
 *
 * Returns: the ticks inside the range the CPU slept
 */
double               tks_events_sleep_time         (TksEvents    *events,
                                                    double        from,
                                                    double        to);
/**
 * tks_events_irq_time:
 * @events: a capture's events
 * @from: start of the range in ticks, NAN for the capture's start
 * @to: end of the range in ticks, NAN for the capture's end
 *
 * Returns: the ticks inside the range spent in handlers (outermost)
 */
double               tks_events_irq_time           (TksEvents    *events,
                                                    double        from,
                                                    double        to);

G_END_DECLS
