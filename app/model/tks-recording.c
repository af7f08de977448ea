/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A recording under way (tks-recording.h): the worker that drives the board's stream into the
 * file, the seconds that read the file's end back for the live view, the counters a window
 * shows, and earlier stretches read back on demand. */
#include "config.h"

#include <glib/gstdio.h>

#include "tks-recording.h"
#include "tks-recording-tail.h"

/* The live view holds about this many seconds of the recording's end, within these bounds
 * (bytes): what it costs does not grow with the recording. */
#define LIVE_SECONDS   60.0
#define LIVE_MIN_BYTES (256 * 1024)
#define LIVE_MAX_BYTES (8 * 1024 * 1024)

/* The file's size when the recording had lasted @seconds: where an earlier stretch ends. */
typedef struct
{
  double  seconds;
  guint64 offset;
} RecordMark;

struct _TksRecording
{
  GObject             parent_instance;

  /* set before the worker starts, then read only */
  char               *address;
  TksTransportOptions options;
  char               *path;
  gboolean            events;  /* the board's events as well as its switches */
  /* cancelled: the user asked to stop */
  GCancellable       *stop;

  GMutex              lock;
  TksRecorderStats    stats;   /* under the lock */

  /* the main context's */
  gboolean            started;
  gboolean            stopped;
  guint               tick_id;
  TksRecordingTail   *tail;       /* the recording's end, for the live view */
  gboolean            reloading;  /* the tail is being read in a worker */
  GArray             *marks;      /* RecordMark: the file's size at each second */
  double              length;     /* seconds the recording holds, as of the last second */
  double              tick_wrap;  /* ticks between two wraps of its tick, as its header says */
  guint64             seen_bytes;   /* the stream's bytes at the last second, */
  guint64             seen_dropped; /* its drops, */
  guint64             dropped_last_second;
  gint64              data_time;    /* when bytes last arrived (monotonic, µs), */
  double              silence;      /* and how long before the last second that was */
};

G_DEFINE_FINAL_TYPE (TksRecording, tks_recording, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ADDRESS,
  PROP_PATH,
  PROP_EVENTS,
  PROP_LENGTH,
  PROP_STOPPING,
  PROP_STOPPED,
  N_PROPS
};

enum {
  SECOND,
  LIVE_STRETCH,
  LIVE_FAILED,
  STOPPED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* A stretch of the recording read from its file, as a capture, and where it lies in the
 * recording. */
typedef struct
{
  TksCapture *capture;
  double      wraps;
  double      wrap;     /* ticks between two wraps of the recording's tick */
  double      before;
} Stretch;

static void
stretch_free (Stretch *s)
{
  g_clear_object (&s->capture);
  g_free (s);
}

static void
publish_stats (TksRecording *self,
               TksRecorder  *recorder)
{
  g_mutex_lock (&self->lock);
  tks_recorder_get_stats (recorder, &self->stats);
  g_mutex_unlock (&self->lock);
}

void
tks_recording_get_stats (TksRecording     *self,
                         TksRecorderStats *stats)
{
  g_return_if_fail (TKS_IS_RECORDING (self));
  g_return_if_fail (stats != NULL);

  g_mutex_lock (&self->lock);
  *stats = self->stats;
  g_mutex_unlock (&self->lock);
}

gsize
tks_recording_live_bytes (double rate)
{
  const char *fixed = g_getenv ("TICKSCOPE_LIVE_BYTES");

  if (fixed != NULL && g_ascii_strtoull (fixed, NULL, 10) > 0)
    return (gsize) g_ascii_strtoull (fixed, NULL, 10);
  return (gsize) CLAMP (rate * LIVE_SECONDS, LIVE_MIN_BYTES, LIVE_MAX_BYTES);
}

static double
stats_rate (const TksRecorderStats *st)
{
  return st->seconds > 0 ? st->bytes / st->seconds : 0;
}

/* The worker: connects, records until asked to stop or the board or the link ends it. */
static void
record_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  TksRecording *self = source;
  g_autoptr(GError) error = NULL;
  g_autoptr(TksRecorder) recorder = NULL;
  TksTransport *transport;
  gboolean ok = TRUE;

  recorder = tks_recorder_new (self->path, &error);
  if (recorder == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  tks_recorder_set_events (recorder, self->events);
  transport = tks_transport_open (self->address, &self->options, self->stop, &error);
  if (transport == NULL || !tks_recorder_start (recorder, transport, self->stop, &error))
    {
      (void) tks_recorder_close (recorder, NULL);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  while (!g_cancellable_is_cancelled (self->stop))
    {
      ok = tks_recorder_step (recorder, 200, NULL, &error);
      publish_stats (self, recorder);
      /* (the worker is the only writer of the stats: it reads them without the lock) */
      if (!ok || self->stats.ended)
        break;
    }
  if (ok && !self->stats.ended)
    ok = tks_recorder_stop (recorder, NULL, &error);
  if (!tks_recorder_close (recorder, ok ? &error : NULL))
    ok = FALSE;
  publish_stats (self, recorder);
  if (!ok)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

/* The counters of the second: what was dropped in it, and how long the board has been
 * silent. */
static void
update_counters (TksRecording *self)
{
  gint64 now = g_get_monotonic_time ();
  TksRecorderStats st;

  tks_recording_get_stats (self, &st);
  if (st.bytes != self->seen_bytes || self->data_time == 0)
    self->data_time = now;
  self->silence = (now - self->data_time) / (double) G_USEC_PER_SEC;
  self->dropped_last_second = st.dropped - MIN (st.dropped, self->seen_dropped);
  self->seen_bytes = st.bytes;
  self->seen_dropped = st.dropped;
}

/* The end of the recording in @tail, read up to the file's byte @limit, as a stretch; its
 * capture NULL without @error while the header is not complete. */
static Stretch *
stretch_of_tail (TksRecordingTail *tail,
                 guint64           limit,
                 GError          **error)
{
  g_autoptr(GError) failure = NULL;
  Stretch *stretch;

  if (!tks_recording_tail_update_to (tail, limit, error))
    return NULL;
  stretch = g_new0 (Stretch, 1);
  stretch->capture = tks_recording_tail_read (tail, &failure);
  if (failure != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&failure));
      stretch_free (stretch);
      return NULL;
    }
  if (stretch->capture == NULL)
    return stretch;
  /* (asked of the tail between this update and the next, as it must be) */
  stretch->wraps = tks_recording_tail_wraps_before (tail, tks_capture_get_start (stretch->capture));
  stretch->wrap = tks_recording_tail_get_tick_wrap (tail);
  return stretch;
}

/* In a worker: what the file gained, then the end of the recording as a capture. */
static void
reload_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  g_autoptr(GError) error = NULL;
  Stretch *stretch = stretch_of_tail (task_data, G_MAXUINT64, &error);

  if (stretch == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, stretch, (GDestroyNotify) stretch_free);
}

static void
reload_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  TksRecording *self = TKS_RECORDING (source);
  g_autoptr(GError) error = NULL;
  Stretch *stretch = g_task_propagate_pointer (G_TASK (result), &error);
  TksRecorderStats st;
  RecordMark mark;

  self->reloading = FALSE;
  if (self->stopped)
    {
      g_clear_pointer (&stretch, stretch_free);
      return;
    }
  update_counters (self);
  g_signal_emit (self, signals[SECOND], 0);
  tks_recording_get_stats (self, &st);
  mark.seconds = st.seconds;
  mark.offset = tks_recording_tail_get_offset (self->tail);
  g_array_append_val (self->marks, mark);
  if (self->length != mark.seconds)
    {
      self->length = mark.seconds;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LENGTH]);
    }
  /* a file without its first lines yet: the next second will do */
  if (stretch != NULL && stretch->capture != NULL)
    {
      self->tick_wrap = stretch->wrap;
      g_signal_emit (self, signals[LIVE_STRETCH], 0, stretch->capture, stretch->wraps);
    }
  /* the file's end is no capture (yet): the reader's reason, as reading the file gives it */
  if (error != NULL)
    g_signal_emit (self, signals[LIVE_FAILED], 0, error);
  g_clear_pointer (&stretch, stretch_free);
}

static gboolean
tick_cb (gpointer user_data)
{
  TksRecording *self = user_data;
  g_autoptr(GTask) task = NULL;
  TksRecorderStats st;

  if (self->reloading)
    {
      update_counters (self);
      g_signal_emit (self, signals[SECOND], 0);
      return G_SOURCE_CONTINUE;
    }
  /* the counters are told when the stretch read back is, in the same frame */
  tks_recording_get_stats (self, &st);
  if (!st.placed)
    {
      /* the file at the path is not the recording's yet (an older one may be there) */
      update_counters (self);
      g_signal_emit (self, signals[SECOND], 0);
      return G_SOURCE_CONTINUE;
    }
  tks_recording_tail_set_max_bytes (self->tail, tks_recording_live_bytes (stats_rate (&st)));
  self->reloading = TRUE;
  task = g_task_new (self, NULL, reload_done_cb, NULL);
  g_task_set_source_tag (task, tick_cb);
  g_task_set_task_data (task, self->tail, NULL);
  g_task_run_in_thread (task, reload_thread);
  return G_SOURCE_CONTINUE;
}

static void
record_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  TksRecording *self = TKS_RECORDING (source);
  g_autoptr(GError) error = NULL;

  g_task_propagate_boolean (G_TASK (result), &error);
  g_clear_handle_id (&self->tick_id, g_source_remove);
  self->stopped = TRUE;
  /* (nothing recorded: the recorder left the path as it was) */
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STOPPED]);
  g_signal_emit (self, signals[STOPPED], 0, error);
}

void
tks_recording_start (TksRecording *self)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (TKS_IS_RECORDING (self));
  g_return_if_fail (!self->started);

  self->started = TRUE;
  update_counters (self);
  task = g_task_new (self, NULL, record_done_cb, NULL);
  g_task_set_source_tag (task, tks_recording_start);
  g_task_run_in_thread (task, record_thread);
  self->tick_id = g_timeout_add_seconds (1, tick_cb, self);
}

void
tks_recording_stop (TksRecording *self)
{
  g_return_if_fail (TKS_IS_RECORDING (self));

  if (g_cancellable_is_cancelled (self->stop))
    return;
  g_cancellable_cancel (self->stop);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STOPPING]);
}

gboolean
tks_recording_can_read_back (TksRecording *self)
{
  g_return_val_if_fail (TKS_IS_RECORDING (self), FALSE);

  return self->marks->len > 0;
}

typedef struct
{
  TksRecordingTail *tail;
  guint64           limit;
  double            before;   /* seconds from the position asked for to the stretch's end */
} BackLoad;

static void
back_load_free (BackLoad *b)
{
  tks_recording_tail_free (b->tail);
  g_free (b);
}

/* In a worker: the stretch of the recording that ends at the file's byte limit. */
static void
back_load_thread (GTask        *task,
                  gpointer      source,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  BackLoad *b = task_data;
  g_autoptr(GError) error = NULL;
  Stretch *stretch = stretch_of_tail (b->tail, b->limit, &error);

  if (stretch == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    {
      stretch->before = b->before;
      g_task_return_pointer (task, stretch, (GDestroyNotify) stretch_free);
    }
}

void
tks_recording_read_back_async (TksRecording        *self,
                               double               seconds,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  TksRecorderStats st;
  double rate;
  gsize bytes;
  double half;
  const RecordMark *marks;
  guint i;
  BackLoad *b;

  g_return_if_fail (TKS_IS_RECORDING (self));
  g_return_if_fail (self->marks->len > 0);

  tks_recording_get_stats (self, &st);
  rate = stats_rate (&st);
  bytes = tks_recording_live_bytes (rate);
  half = rate > 0 ? bytes / rate / 2 : LIVE_SECONDS / 2;
  marks = (const RecordMark *) (gpointer) self->marks->data;
  for (i = 0; i < self->marks->len && marks[i].seconds < seconds + half; i++)
    ;
  if (i == self->marks->len)
    i = self->marks->len - 1;
  b = g_new0 (BackLoad, 1);
  b->tail = tks_recording_tail_new (self->path, bytes);
  b->limit = marks[i].offset;
  b->before = MAX (marks[i].seconds - seconds, 0);
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tks_recording_read_back_async);
  g_task_set_task_data (task, b, (GDestroyNotify) back_load_free);
  g_task_run_in_thread (task, back_load_thread);
}

TksCapture *
tks_recording_read_back_finish (TksRecording  *self,
                                GAsyncResult  *result,
                                double        *wraps,
                                double        *before,
                                GError       **error)
{
  Stretch *stretch;
  TksCapture *capture;

  g_return_val_if_fail (TKS_IS_RECORDING (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  stretch = g_task_propagate_pointer (G_TASK (result), error);
  if (stretch == NULL)
    return NULL;
  if (wraps != NULL)
    *wraps = stretch->wraps;
  if (before != NULL)
    *before = stretch->before;
  capture = g_steal_pointer (&stretch->capture);
  stretch_free (stretch);
  return capture;
}

const char *
tks_recording_get_address (TksRecording *self)
{
  g_return_val_if_fail (TKS_IS_RECORDING (self), NULL);

  return self->address;
}

const char *
tks_recording_get_path (TksRecording *self)
{
  g_return_val_if_fail (TKS_IS_RECORDING (self), NULL);

  return self->path;
}

double
tks_recording_get_tick_wrap (TksRecording *self)
{
  g_return_val_if_fail (TKS_IS_RECORDING (self), TKS_RECORDING_TICK_WRAP);

  return self->tick_wrap;
}

gboolean
tks_recording_get_events (TksRecording *self)
{
  g_return_val_if_fail (TKS_IS_RECORDING (self), FALSE);

  return self->events;
}

gboolean
tks_recording_get_stopping (TksRecording *self)
{
  g_return_val_if_fail (TKS_IS_RECORDING (self), FALSE);

  return g_cancellable_is_cancelled (self->stop);
}

gboolean
tks_recording_get_stopped (TksRecording *self)
{
  g_return_val_if_fail (TKS_IS_RECORDING (self), FALSE);

  return self->stopped;
}

double
tks_recording_get_length (TksRecording *self)
{
  g_return_val_if_fail (TKS_IS_RECORDING (self), 0);

  return self->length;
}

guint64
tks_recording_get_dropped_last_second (TksRecording *self)
{
  g_return_val_if_fail (TKS_IS_RECORDING (self), 0);

  return self->dropped_last_second;
}

double
tks_recording_get_silence (TksRecording *self)
{
  g_return_val_if_fail (TKS_IS_RECORDING (self), 0);

  return self->silence;
}

TksRecording *
tks_recording_new (const char                *address,
                   const TksTransportOptions *options,
                   const char                *path,
                   gboolean                   events)
{
  TksRecording *self;

  g_return_val_if_fail (address != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (TKS_TYPE_RECORDING, "address", address, "path", path,
                       "events", events, NULL);
  if (options != NULL)
    self->options = *options;
  return self;
}

static void
tks_recording_dispose (GObject *object)
{
  TksRecording *self = TKS_RECORDING (object);

  /* (the worker and the readings hold a reference: none is under way here) */
  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_cancellable_cancel (self->stop);

  G_OBJECT_CLASS (tks_recording_parent_class)->dispose (object);
}

static void
tks_recording_finalize (GObject *object)
{
  TksRecording *self = TKS_RECORDING (object);

  g_free (self->address);
  g_free (self->path);
  g_clear_object (&self->stop);
  g_clear_pointer (&self->tail, tks_recording_tail_free);
  g_clear_pointer (&self->marks, g_array_unref);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (tks_recording_parent_class)->finalize (object);
}

static void
tks_recording_constructed (GObject *object)
{
  TksRecording *self = TKS_RECORDING (object);

  G_OBJECT_CLASS (tks_recording_parent_class)->constructed (object);

  self->tail = tks_recording_tail_new (self->path, tks_recording_live_bytes (0));
}

static void
tks_recording_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TksRecording *self = TKS_RECORDING (object);

  switch (prop_id)
    {
    case PROP_ADDRESS:
      g_value_set_string (value, self->address);
      break;
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    case PROP_EVENTS:
      g_value_set_boolean (value, self->events);
      break;
    case PROP_LENGTH:
      g_value_set_double (value, self->length);
      break;
    case PROP_STOPPING:
      g_value_set_boolean (value, tks_recording_get_stopping (self));
      break;
    case PROP_STOPPED:
      g_value_set_boolean (value, self->stopped);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_recording_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  TksRecording *self = TKS_RECORDING (object);

  switch (prop_id)
    {
    case PROP_ADDRESS:
      self->address = g_value_dup_string (value);
      break;
    case PROP_PATH:
      self->path = g_value_dup_string (value);
      break;
    case PROP_EVENTS:
      self->events = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_recording_class_init (TksRecordingClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = tks_recording_constructed;
  object_class->dispose = tks_recording_dispose;
  object_class->finalize = tks_recording_finalize;
  object_class->get_property = tks_recording_get_property;
  object_class->set_property = tks_recording_set_property;

  properties[PROP_ADDRESS] =
    g_param_spec_string ("address", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EVENTS] =
    g_param_spec_boolean ("events", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LENGTH] =
    g_param_spec_double ("length", NULL, NULL, 0, G_MAXDOUBLE, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STOPPING] =
    g_param_spec_boolean ("stopping", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STOPPED] =
    g_param_spec_boolean ("stopped", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TksRecording::second:
   *
   * Once a second while the worker runs: the counters are up to date.
   */
  signals[SECOND] =
    g_signal_new ("second", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  /**
   * TksRecording::live-stretch:
   * @capture: the recording's end, read from its file this second
   * @wraps: the tick's wraps before @capture's start (tks_recording_tail_wraps_before())
   */
  signals[LIVE_STRETCH] =
    g_signal_new ("live-stretch", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 2, TKS_TYPE_CAPTURE, G_TYPE_DOUBLE);
  /**
   * TksRecording::live-failed:
   * @error: why the recording's end, read from its file this second, is no capture: the
   *   reader's reason, as reading the file would give it (a line longer than any of a capture
   *   that is all the recording holds yet, say)
   *
   * Instead of #TksRecording::live-stretch, in a second whose reading failed.
   */
  signals[LIVE_FAILED] =
    g_signal_new ("live-failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
  /**
   * TksRecording::stopped:
   * @error: (nullable): why the recording ended, NULL when the board ended its stream as asked
   *
   * Once: the worker is done, the file complete.
   */
  signals[STOPPED] =
    g_signal_new ("stopped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
tks_recording_init (TksRecording *self)
{
  g_mutex_init (&self->lock);
  self->stop = g_cancellable_new ();
  self->marks = g_array_new (FALSE, FALSE, sizeof (RecordMark));
  self->tick_wrap = TKS_RECORDING_TICK_WRAP;
}
