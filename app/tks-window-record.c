/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Recording: the Record button streams the board's log (threads_record) into a file of the
 * history folder as it arrives, in a worker thread of its own (tks-recorder.h), while the
 * window's session with the board is closed. Every second the window reads what the file
 * gained and shows the recording's last minute (tks-recording-tail.h: the live view's cost
 * does not grow with the recording): the timeline rolls like an oscilloscope in roll mode (it follows the newest data unless the
 * user scrolled back; the "Recording position" scale brings back an earlier stretch, read from
 * the file), and the "Live load" table tells each thread's CPU share, switches per
 * second and longest run over the last second. The same button stops; the recording then
 * opens as a normal capture (save, statistics, exports), its holes where the board dropped
 * records, and the session connects again. A board that resets, a link that fails or falls
 * silent ends the recording with a message; the file keeps everything received. */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "tks-recorder.h"
#include "tks-recording-tail.h"
#include "tks-session.h"
#include "tks-widget-text.h"
#include "tks-window-private.h"

/* The span the timeline shows when a recording starts, in seconds. */
#define ROLL_SECONDS 5.0
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
  /* set before the thread starts, then read only */
  char               *address;
  TksTransportOptions options;
  char               *path;
  gboolean            events;  /* the board's events as well as its switches */
  /* cancelled: the user asked to stop */
  GCancellable       *stop;

  GMutex              lock;
  TksRecorderStats    stats;   /* under the lock */
};

static void
recording_free (TksRecording *r)
{
  g_free (r->address);
  g_free (r->path);
  g_clear_object (&r->stop);
  g_mutex_clear (&r->lock);
  g_free (r);
}

static TksRecorderStats
recording_stats (TksRecording *r)
{
  TksRecorderStats st;

  g_mutex_lock (&r->lock);
  st = r->stats;
  g_mutex_unlock (&r->lock);
  return st;
}

static void
publish_stats (TksRecording *r,
               TksRecorder  *recorder)
{
  g_mutex_lock (&r->lock);
  tks_recorder_get_stats (recorder, &r->stats);
  g_mutex_unlock (&r->lock);
}

/* The worker: connects, records until asked to stop or the board or the link ends it. */
static void
record_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  TksRecording *r = task_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(TksRecorder) recorder = NULL;
  TksTransport *transport;
  gboolean ok = TRUE;

  recorder = tks_recorder_new (r->path, &error);
  if (recorder == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  tks_recorder_set_events (recorder, r->events);
  transport = tks_transport_open (r->address, &r->options, r->stop, &error);
  if (transport == NULL || !tks_recorder_start (recorder, transport, r->stop, &error))
    {
      (void) tks_recorder_close (recorder, NULL);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  while (!g_cancellable_is_cancelled (r->stop))
    {
      ok = tks_recorder_step (recorder, 200, NULL, &error);
      publish_stats (r, recorder);
      if (!ok || r->stats.ended)
        break;
    }
  if (ok && !r->stats.ended)
    ok = tks_recorder_stop (recorder, NULL, &error);
  if (!tks_recorder_close (recorder, ok ? &error : NULL))
    ok = FALSE;
  publish_stats (r, recorder);
  if (!ok)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

/* Live load */

typedef struct
{
  const char *name;
  double      share;
  guint       switches;
  double      longest;
} LoadRow;

static int
compare_load (gconstpointer a,
              gconstpointer b)
{
  const LoadRow *ra = a, *rb = b;

  return ra->share < rb->share ? 1 : ra->share > rb->share ? -1 : g_strcmp0 (ra->name, rb->name);
}

/* The widest text each column's cells make room for, in characters */
static const guint column_chars[] = { 20, 6, 8, 22 };

/* A cell of the table. The heading's are labels; the rows' are inscriptions, whose size does
 * not follow their text: the numbers changed every second redraw their cells only, rather
 * than lay the window out again. */
static GtkWidget *
cell (TksWindow         *self,
      guint              column,
      const char        *text,
      GtkAccessibleRole  role)
{
  float xalign = column > 0 ? 1.0f : 0.0f;
  GtkWidget *widget;

  if (role == GTK_ACCESSIBLE_ROLE_CELL)
    {
      widget = g_object_new (GTK_TYPE_INSCRIPTION, "accessible-role", role, "xalign", xalign,
                             "min-chars", column_chars[column], "nat-chars", column_chars[column],
                             "text-overflow", GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END, NULL);
      tks_inscription_set_text (widget, text);
    }
  else
    widget = g_object_new (GTK_TYPE_LABEL, "label", text, "accessible-role", role,
                           "xalign", xalign, NULL);
  gtk_widget_set_hexpand (widget, column == 0);
  if (column > 0)
    gtk_widget_add_css_class (widget, "numeric");
  gtk_size_group_add_widget (self->live_load_columns[column], widget);
  return widget;
}

/* A row of the table: its cells in a box, whose columns line up with the heading's. */
static GtkWidget *
table_row (TksWindow          *self,
           const char * const *texts,
           GtkAccessibleRole   cell_role)
{
  GtkWidget *row = g_object_new (GTK_TYPE_BOX, "spacing", 24,
                                 "accessible-role", GTK_ACCESSIBLE_ROLE_ROW, NULL);

  G_STATIC_ASSERT (G_N_ELEMENTS (column_chars) == G_N_ELEMENTS (self->live_load_columns));
  for (guint c = 0; c < G_N_ELEMENTS (self->live_load_columns); c++)
    gtk_box_append (GTK_BOX (row), cell (self, c, texts[c], cell_role));
  return row;
}

/* Shows a row of the table, or blanks it while keeping its place: its cells emptied, not
 * drawn, and hidden from screen readers. Neither changes the table's size. */
static void
show_row (GtkWidget *row,
          gboolean   shown)
{
  if (!shown && gtk_widget_get_child_visible (row))
    for (GtkWidget *c = gtk_widget_get_first_child (row); c != NULL; c = gtk_widget_get_next_sibling (c))
      tks_inscription_set_text (c, "");
  if (gtk_widget_get_child_visible (row) != shown)
    {
      gtk_widget_set_child_visible (row, shown);
      gtk_accessible_update_state (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_STATE_HIDDEN, !shown, -1);
    }
}

/* The table of the last second of @capture, busiest thread first. Each row is named for
 * screen readers by what it says: "thread, CPU %, switches/s, longest run". */
static void
update_live_load (TksWindow  *self,
                  TksCapture *capture)
{
  GtkWidget *table = self->live_load_table;
  double hz = tks_capture_get_tick_hz (capture);
  double end = tks_capture_get_log_end (capture, NULL);
  double from = MAX (tks_capture_get_start (capture), end - hz);
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (LoadRow));
  GtkWidget *row_widget;
  guint i;

  if (!(end > from) || !tks_tick_hz_is_sane (hz))
    end = from;

  for (i = 0; i < tks_capture_get_n_threads (capture); i++)
    {
      const TksThread *th = tks_capture_get_thread (capture, i);
      LoadRow row = { th->name != NULL ? th->name : "?", 0, 0, 0 };
      guint r = tks_runs_first_ending_after (th->runs, th->n_runs, from);

      if (!(th->flags & TKS_THREAD_LOGGED))
        continue;
      row.share = 100.0 * tks_thread_busy (th, from, end) / (end - from);
      for (; r < th->n_runs && th->runs[r].begin < end; r++)
        {
          double b = MAX (th->runs[r].begin, from), e = MIN (th->runs[r].end, end);

          if (th->runs[r].begin >= from)
            row.switches++;
          row.longest = MAX (row.longest, e - b);
        }
      if (row.share > 0 || row.switches > 0)
        g_array_append_val (rows, row);
    }
  g_array_sort (rows, compare_load);
  /* The rows stay, their texts change: a screen reader keeps its place, and a second whose
   * threads are fewer than the last one's blanks the surplus rows rather than removes them.
   * The table keeps its height, so a recording's seconds, with threads coming and going, do
   * not lay the window out again; it grows only to the most threads seen at once. */
  row_widget = gtk_widget_get_next_sibling (gtk_widget_get_first_child (table));
  for (i = 0; i < rows->len; i++)
    {
      const LoadRow *row = &g_array_index (rows, LoadRow, i);
      g_autofree char *share = g_strdup_printf ("%.1f", row->share);
      g_autofree char *switches = g_strdup_printf ("%.0f", row->switches * hz / (end - from));
      g_autofree char *longest = tks_timeline_format_duration (row->longest, hz);
      const char *texts[] = { row->name, share, switches, longest };
      /* Translators: a row of the live load table read by a screen reader: the thread, its
       * share of the last second, its switches per second and its longest run */
      g_autofree char *name = g_strdup_printf (_("%s, %s %% CPU, %s switches/s, longest run %s"),
                                               row->name, share, switches, longest);
      GtkWidget *label;

      if (row_widget == NULL)
        {
          row_widget = table_row (self, texts, GTK_ACCESSIBLE_ROLE_CELL);
          gtk_box_append (GTK_BOX (table), row_widget);
        }
      else
        {
          label = gtk_widget_get_first_child (row_widget);
          for (guint c = 0; c < G_N_ELEMENTS (texts); c++, label = gtk_widget_get_next_sibling (label))
            tks_inscription_set_text (label, texts[c]);
        }
      gtk_accessible_update_property (GTK_ACCESSIBLE (row_widget), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      name, -1);
      show_row (row_widget, TRUE);
      row_widget = gtk_widget_get_next_sibling (row_widget);
    }
  for (; row_widget != NULL; row_widget = gtk_widget_get_next_sibling (row_widget))
    show_row (row_widget, FALSE);
}

/* A new recording's table: the heading only */
static void
clear_live_load (TksWindow *self)
{
  GtkWidget *heading = gtk_widget_get_first_child (self->live_load_table);

  while (gtk_widget_get_next_sibling (heading) != NULL)
    gtk_box_remove (GTK_BOX (self->live_load_table), gtk_widget_get_next_sibling (heading));
}

/* What the Live load's numbers are worth: the records the board dropped (in the last second
 * and in all), lines damaged on the link, and a stream fallen silent (the table then keeps
 * the last second received, greyed out). Shown above the table and given as its description
 * to screen readers; hidden while everything arrives. */
static void
update_live_state (TksWindow              *self,
                   const TksRecorderStats *st)
{
  gint64 now = g_get_monotonic_time ();
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *text = NULL;
  double silent;

  if (st->bytes != self->record_seen_bytes || self->record_data_time == 0)
    self->record_data_time = now;
  silent = (now - self->record_data_time) / (double) G_USEC_PER_SEC;
  if (st->dropped > 0)
    {
      g_autofree char *last = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                               st->dropped - MIN (st->dropped, self->record_seen_dropped));
      g_autofree char *all = g_strdup_printf ("%" G_GUINT64_FORMAT, st->dropped);

      /* Translators: records the board could not send: in the last second, then in all */
      g_ptr_array_add (parts, g_strdup_printf (_("Dropped by the board: %s records in the last "
                                                 "second, %s in all."), last, all));
    }
  if (st->damaged > 0)
    g_ptr_array_add (parts, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u line damaged on the link.",
                                                          "%u lines damaged on the link.", st->damaged),
                                             st->damaged));
  /* the board sends a line at least every 250 ms while it streams */
  if (silent >= 1.5)
    g_ptr_array_add (parts, g_strdup_printf (_("No data from the board for %.0f s: the load "
                                               "shown is of the last second received."), silent));
  g_ptr_array_add (parts, NULL);
  text = g_strjoinv (" ", (char **) parts->pdata);
  self->record_seen_bytes = st->bytes;
  self->record_seen_dropped = st->dropped;

  gtk_label_set_text (self->live_state_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->live_state_label), *text != '\0');
  gtk_widget_set_sensitive (self->live_load_table, silent < 1.5);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->live_load_table),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

static void
update_record_label (TksWindow *self)
{
  TksRecording *r = self->recording;
  TksRecorderStats st;
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;
  g_autofree char *entries = NULL;
  g_autofree char *dropped = NULL;
  g_autofree char *bytes = NULL;

  if (r == NULL)
    return;
  st = recording_stats (r);
  update_live_state (self, &st);
  /* once stopped, the line says so until the board's stream has ended */
  if (g_cancellable_is_cancelled (r->stop))
    return;
  name = g_path_get_basename (r->path);
  entries = g_strdup_printf ("%" G_GUINT64_FORMAT, st.entries);
  dropped = g_strdup_printf ("%" G_GUINT64_FORMAT, st.dropped);
  bytes = g_strdup_printf ("%" G_GUINT64_FORMAT, st.bytes);
  /* Translators: while recording: the file, events, seconds, records dropped, bytes */
  text = g_strdup_printf (_("Recording to %s: %s events in %.0f s, %s dropped, %s bytes"),
                          name, entries, st.seconds, dropped, bytes);
  tks_inscription_set_text (self->record_label, text);
}

/* The timeline shows @capture, a stretch of the recording read back from the file by @tail,
 * which places it in the recording. The time ruler counts from the recording's start.
 * Returns what to add to a time of the stretch shown before to have it in @capture's times
 * (0 for the first stretch). */
static double
put_recording_capture (TksWindow        *self,
                       TksCapture       *capture,
                       TksRecordingTail *tail)
{
  double start = tks_capture_get_start (capture);
  double end = tks_capture_get_end (capture);
  double wrap = tks_recording_tail_get_tick_wrap (tail);
  double wraps = tks_recording_tail_wraps_before (tail, start);
  double shift;

  /* the first stretch shown holds the recording's beginning */
  if (isnan (self->record_origin))
    self->record_origin = start + wraps * wrap;
  shift = isnan (self->record_wraps) ? 0 : (self->record_wraps - wraps) * wrap;
  self->record_wrap = wrap;

  g_set_object (&self->capture, capture);
  g_clear_object (&self->file);
  self->record_live = TRUE;
  tks_viewport_set_bounds (self->viewport, start, end);
  /* the marks and the selected run stay where they are in the recording */
  if (isnan (self->record_wraps))
    tks_timeline_view_set_capture (self->timeline, capture);
  else
    tks_timeline_view_set_next_capture (self->timeline, capture, shift);
  self->record_wraps = wraps;
  tks_timeline_view_set_stretch (self->timeline, TRUE);
  tks_overview_set_capture (self->overview, capture);
  tks_timeline_view_set_time_origin (self->timeline, self->record_origin - wraps * wrap);
  return shift;
}

static void
recording_capture_shown (TksWindow *self,
                         double     v_offset)
{
  tks_viewport_set_v_offset (self->viewport, v_offset);
  _tks_window_update_empty (self);
  _tks_window_update_status (self);
  _tks_window_update_actions (self);
}

/* The recording's end: rolling with the newest data unless the user scrolled back, without
 * the jumps a newly opened capture makes. */
static void
show_live_capture (TksWindow  *self,
                   TksCapture *capture)
{
  double old_start = self->capture != NULL ? tks_capture_get_start (self->capture) : 0;
  double old_end = self->capture != NULL ? tks_capture_get_end (self->capture) : 0;
  double span = tks_viewport_get_span (self->viewport);
  double visible_start = tks_viewport_get_visible_start (self->viewport);
  double visible_end = tks_viewport_get_visible_end (self->viewport);
  gboolean first = self->capture == NULL || !self->record_live;
  gboolean following = first || visible_end >= old_end - span * 0.02;
  double end = tks_capture_get_end (capture);
  double v_offset = tks_viewport_get_v_offset (self->viewport);
  double shift;

  shift = put_recording_capture (self, capture, self->record_tail);
  /* a capture shorter than the roll's span was shown whole: the span grows with it */
  if (first || span >= (old_end - old_start) * 0.98)
    span = MAX (span, ROLL_SECONDS * tks_capture_get_tick_hz (capture));
  if (following)
    tks_viewport_set_range (self->viewport, end - span, end);
  else
    /* scrolled back in the live view: it stays on the same stretch of time while it holds it */
    tks_viewport_set_range (self->viewport, visible_start + shift, visible_end + shift);
  recording_capture_shown (self, v_offset);
  update_live_load (self, capture);
}

/* An earlier stretch, read by @tail, which ends @before seconds after the position asked
 * for: the view shows that position, with the span it had. */
static void
show_back_capture (TksWindow        *self,
                   TksCapture       *capture,
                   TksRecordingTail *tail,
                   double            before)
{
  double span = tks_viewport_get_span (self->viewport);
  double v_offset = tks_viewport_get_v_offset (self->viewport);
  double start = tks_capture_get_start (capture);
  double end = tks_capture_get_end (capture);
  double at = CLAMP (end - before * tks_capture_get_tick_hz (capture), start, end);

  put_recording_capture (self, capture, tail);
  span = MIN (span, end - start);
  at = CLAMP (at - span / 2, start, end - span);
  tks_viewport_set_range (self->viewport, at, at + span);
  recording_capture_shown (self, v_offset);
}

/* The end of the recording in @tail, read up to the file's byte @limit, as a capture; NULL
 * without @error while the header is not complete. */
static TksCapture *
capture_of_tail (TksRecordingTail *tail,
                 guint64           limit,
                 GError          **error)
{
  g_autoptr(GBytes) text = NULL;
  gsize len;
  const char *data;

  if (!tks_recording_tail_update_to (tail, limit, error))
    return NULL;
  text = tks_recording_tail_compose (tail);
  if (text == NULL)
    return NULL;
  data = g_bytes_get_data (text, &len);
  return tks_capture_new_from_data (data, len, error);
}

/* In a worker: what the file gained, then the end of the recording as a capture. */
static void
reload_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  g_autoptr(GError) error = NULL;
  TksCapture *capture = capture_of_tail (task_data, G_MAXUINT64, &error);

  if (error != NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    /* NULL: the header is not complete yet */
    g_task_return_pointer (task, capture, g_object_unref);
}

/* Bytes of the file the live view keeps: about LIVE_SECONDS of the recording at @rate bytes a
 * second. TICKSCOPE_LIVE_BYTES, when set, fixes it (a short live view, for tests). */
static gsize
live_bytes (double rate)
{
  const char *fixed = g_getenv ("TICKSCOPE_LIVE_BYTES");

  if (fixed != NULL && g_ascii_strtoull (fixed, NULL, 10) > 0)
    return (gsize) g_ascii_strtoull (fixed, NULL, 10);
  return (gsize) CLAMP (rate * LIVE_SECONDS, LIVE_MIN_BYTES, LIVE_MAX_BYTES);
}

static char *
format_position (double seconds)
{
  guint s = (guint) MAX (seconds, 0);

  if (s >= 3600)
    return g_strdup_printf ("%u:%02u:%02u", s / 3600, s / 60 % 60, s % 60);
  return g_strdup_printf ("%u:%02u", s / 60, s % 60);
}

/* "Live", or where the stretch shown lies in the recording. */
static void
update_position_label (TksWindow *self)
{
  g_autofree char *at = NULL;
  g_autofree char *length = NULL;
  g_autofree char *text = NULL;

  if (!self->record_back)
    {
      tks_inscription_set_text (self->record_position_label, _("Live"));
      gtk_widget_set_sensitive (self->record_live_button, FALSE);
      return;
    }
  at = format_position (gtk_adjustment_get_value (self->record_position));
  length = format_position (self->record_length);
  /* Translators: where the view is in a recording under way: "At 1:05 of 12:40" */
  text = g_strdup_printf (_("At %s of %s"), at, length);
  tks_inscription_set_text (self->record_position_label, text);
  gtk_widget_set_sensitive (self->record_live_button, TRUE);
}

/* The scale's end follows the recording's length; while live, its value too. */
static void
sync_position (TksWindow *self)
{
  double length = MAX (self->record_length, 1);

  self->record_position_setting = TRUE;
  gtk_adjustment_set_upper (self->record_position, length);
  if (!self->record_back)
    gtk_adjustment_set_value (self->record_position, length);
  self->record_position_setting = FALSE;
}

/* Whether the user may move the scale: the view is back, or the pointer or the focus is on
 * the scale. */
static gboolean
position_in_use (TksWindow *self)
{
  return self->record_back || gtk_widget_has_focus (self->record_position_scale) ||
         gtk_event_controller_motion_contains_pointer (GTK_EVENT_CONTROLLER_MOTION (self->record_position_motion));
}

/* The recording is @seconds long. While the view is live and the scale is left alone, its
 * knob stays at the end whatever the length: the scale is brought up to date when the
 * pointer or the focus comes to it. A scale's new range lays the window out again, and on
 * X11 each layout of a window asks the X server for the work area and the window's place,
 * round trips that a frame of the rolling timeline would wait for every second. */
static void
update_position (TksWindow *self,
                 double     seconds)
{
  self->record_length = seconds;
  if (position_in_use (self))
    sync_position (self);
  update_position_label (self);
}

static void
position_approached_cb (TksWindow *self)
{
  if (self->recording != NULL)
    sync_position (self);
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
  TksCapture *capture = capture_of_tail (b->tail, b->limit, &error);

  if (error != NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, capture, g_object_unref);
}

static void start_back_load (TksWindow *self);

static void
back_load_done_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(TksWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = g_task_propagate_pointer (G_TASK (result), &error);
  BackLoad *b = g_task_get_task_data (G_TASK (result));

  self->record_back_loading = FALSE;
  if (self->recording == NULL || !self->record_back || self->record_closing)
    return;
  if (self->record_back_wanted >= 0)
    /* the position moved on meanwhile */
    start_back_load (self);
  else if (capture != NULL)
    show_back_capture (self, capture, b->tail, b->before);
  else if (error != NULL)
    _tks_window_show_message (self, error->message);
}

/* Reads the stretch around the position asked for from the file, in a worker: the view keeps
 * about as much as the live view does, ending half of it after the position. */
static void
start_back_load (TksWindow *self)
{
  g_autoptr(GTask) task = NULL;
  TksRecorderStats st = recording_stats (self->recording);
  double rate = st.seconds > 0 ? st.bytes / st.seconds : 0;
  gsize bytes = live_bytes (rate);
  double half = rate > 0 ? bytes / rate / 2 : LIVE_SECONDS / 2;
  double wanted = self->record_back_wanted;
  const RecordMark *marks = (const RecordMark *) (gpointer) self->record_marks->data;
  guint i;
  BackLoad *b;

  self->record_back_wanted = -1;
  for (i = 0; i < self->record_marks->len && marks[i].seconds < wanted + half; i++)
    ;
  if (i == self->record_marks->len)
    i = self->record_marks->len - 1;
  b = g_new0 (BackLoad, 1);
  b->tail = tks_recording_tail_new (self->recording->path, bytes);
  b->limit = marks[i].offset;
  b->before = MAX (marks[i].seconds - wanted, 0);
  self->record_back_loading = TRUE;
  task = g_task_new (NULL, NULL, back_load_done_cb, g_object_ref (self));
  g_task_set_source_tag (task, start_back_load);
  g_task_set_task_data (task, b, (GDestroyNotify) back_load_free);
  g_task_run_in_thread (task, back_load_thread);
}

/* Back to the recording's end: the next second's update shows it, rolling. */
static void
go_live (TksWindow *self)
{
  if (!self->record_back)
    return;
  self->record_back = FALSE;
  self->record_back_wanted = -1;
  self->record_live = FALSE;
  sync_position (self);
  update_position_label (self);
}

static void
record_position_changed_cb (GtkAdjustment *adjustment,
                            TksWindow     *self)
{
  double value = gtk_adjustment_get_value (adjustment);

  if (self->record_position_setting || self->recording == NULL ||
      self->record_marks->len == 0)
    return;
  if (value >= gtk_adjustment_get_upper (adjustment) - 1)
    {
      go_live (self);
      return;
    }
  self->record_back = TRUE;
  self->record_back_wanted = value;
  update_position_label (self);
  if (!self->record_back_loading)
    start_back_load (self);
}

static void
record_live_clicked_cb (GtkButton *button,
                        TksWindow *self)
{
  go_live (self);
}

static void
reload_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(TksWindow) self = user_data;
  g_autoptr(TksCapture) capture = g_task_propagate_pointer (G_TASK (result), NULL);
  RecordMark mark;

  self->record_reloading = FALSE;
  if (self->recording == NULL)
    {
      /* the recording ended meanwhile: its tail was left for this reload to let go */
      g_clear_pointer (&self->record_tail, tks_recording_tail_free);
      return;
    }
  if (self->record_closing)
    return;
  update_record_label (self);
  mark.seconds = recording_stats (self->recording).seconds;
  mark.offset = tks_recording_tail_get_offset (self->record_tail);
  g_array_append_val (self->record_marks, mark);
  update_position (self, mark.seconds);
  /* a file without its first lines yet: the next second will do */
  if (capture == NULL)
    return;
  if (self->record_back)
    /* an earlier stretch is shown: the load is the board's present all the same */
    update_live_load (self, capture);
  else
    show_live_capture (self, capture);
}

static gboolean
record_tick_cb (gpointer user_data)
{
  TksWindow *self = user_data;
  TksRecording *r = self->recording;
  TksRecorderStats st;
  g_autoptr(GTask) task = NULL;

  if (self->record_reloading || r == NULL)
    {
      update_record_label (self);
      return G_SOURCE_CONTINUE;
    }
  /* the counts are written when the stretch read back is shown, in the same frame */
  st = recording_stats (r);
  tks_recording_tail_set_max_bytes (self->record_tail,
                                    live_bytes (st.seconds > 0 ? st.bytes / st.seconds : 0));
  self->record_reloading = TRUE;
  task = g_task_new (NULL, NULL, reload_done_cb, g_object_ref (self));
  g_task_set_source_tag (task, record_tick_cb);
  g_task_set_task_data (task, self->record_tail, NULL);
  g_task_run_in_thread (task, reload_thread);
  return G_SOURCE_CONTINUE;
}

static void
set_record_state (TksWindow *self,
                  gboolean   recording)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "record");

  if (action != NULL)
    g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (recording));
  gtk_revealer_set_reveal_child (self->record_revealer, recording);
  if (recording)
    {
      g_autofree char *text = g_strdup_printf (_("Recording from %s"), self->recording->address);

      clear_live_load (self);
      gtk_label_set_text (self->subtitle_label, text);
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), TRUE);
    }
  _tks_window_update_actions (self);
}

typedef struct
{
  TksWindow  *self;
  GFile      *file;
  char       *message;
  gboolean    failed;
  TksCapture *stretch;   /* the recording's stretch shown when it ended, or NULL */
  double      shift;     /* what its times gain in the whole recording's */
} FinalLoad;

static void
final_load_done_cb (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  FinalLoad *load = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(TksCapture) capture = tks_capture_load_file_finish (result, &error);

  if (capture != NULL)
    {
      TksWindow *self = load->self;
      double x0 = tks_viewport_get_visible_start (self->viewport) + load->shift;
      double x1 = tks_viewport_get_visible_end (self->viewport) + load->shift;
      double v_offset = tks_viewport_get_v_offset (self->viewport);
      /* (a recording longer than a capture holds opens without its end: no view to keep) */
      gboolean keep = load->stretch != NULL && self->capture == load->stretch &&
                      x0 < tks_capture_get_end (capture) && x1 > tks_capture_get_start (capture);

      self->file_is_capture = FALSE;
      /* As an oscilloscope stopped: the view stays where it was, its marks and selected run
       * too, while the whole recording is there to scroll through. (The timeline has the
       * capture already when the window gives it.) */
      if (keep)
        {
          tks_timeline_view_set_next_capture (self->timeline, capture, load->shift);
          /* the whole recording: the selected run has its number among the thread's now */
          tks_timeline_view_set_stretch (self->timeline, FALSE);
        }
      tks_window_set_capture (self, capture, load->file);
      if (keep)
        {
          /* the ruler counts from the capture's start again, as for any capture: the same
           * times, the recording's first tick */
          tks_timeline_view_set_time_origin (self->timeline, NAN);
          tks_viewport_set_range (self->viewport, x0, x1);
          tks_viewport_set_v_offset (self->viewport, v_offset);
        }
    }
  if (capture == NULL)
    {
      /* Translators: what became of the recording, then why its file does not open */
      g_autofree char *message = g_strdup_printf (_("%s It does not open: %s"), load->message,
                                                  error->message);

      tks_window_show_error (load->self, message);
    }
  else if (load->failed)
    tks_window_show_error (load->self, load->message);
  else
    _tks_window_show_message (load->self, load->message);
  g_object_unref (load->self);
  g_object_unref (load->file);
  g_clear_object (&load->stretch);
  g_free (load->message);
  g_free (load);
}

static void
record_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(TksWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  TksRecording *r = self->recording;
  g_autoptr(GFile) file = NULL;
  g_autofree char *address = NULL;
  g_autofree char *message = NULL;
  g_autofree char *name = NULL;
  TksCapture *shown_stretch;
  TksRecorderStats st;

  g_task_propagate_boolean (G_TASK (result), &error);
  g_clear_handle_id (&self->record_tick_id, g_source_remove);
  self->recording = NULL;
  if (!self->record_reloading)
    g_clear_pointer (&self->record_tail, tks_recording_tail_free);
  if (self->record_closing || self->close_after_record)
    {
      recording_free (r);
      /* the file is complete: the window asked to close can go */
      if (self->close_after_record && !self->record_closing)
        gtk_window_destroy (GTK_WINDOW (self));
      return;
    }
  shown_stretch = self->record_live && !isnan (self->record_wraps) ? self->capture : NULL;
  self->record_live = FALSE;
  self->record_back = FALSE;
  update_position_label (self);
  st = r->stats;
  file = g_file_new_for_path (r->path);
  name = g_file_get_parse_name (file);
  address = g_steal_pointer (&r->address);
  set_record_state (self, FALSE);

  if (error != NULL && st.bytes == 0)
    {
      /* nothing was recorded: no file to show */
      g_remove (r->path);
      message = g_strdup_printf (_("Could not record: %s"), error->message);
      tks_window_show_error (self, message);
    }
  else
    {
      FinalLoad *load = g_new0 (FinalLoad, 1);

      if (error != NULL)
        /* Translators: the reason, then the file */
        load->message = g_strdup_printf (_("The recording ended: %s. Everything received up to "
                                           "then is in “%s”."), error->message, name);
      else
        {
          g_autofree char *entries = g_strdup_printf ("%" G_GUINT64_FORMAT, st.entries);
          g_autofree char *dropped = g_strdup_printf ("%" G_GUINT64_FORMAT, st.dropped);
          g_autofree char *bytes = g_strdup_printf ("%" G_GUINT64_FORMAT, st.bytes);

          /* Translators: events, seconds, records dropped, bytes, then the file */
          load->message = g_strdup_printf (_("Recorded %s events in %.1f s, %s dropped, %s bytes, "
                                             "into “%s”."), entries, st.seconds, dropped, bytes, name);
        }
      load->failed = error != NULL;
      load->self = g_object_ref (self);
      load->file = g_object_ref (file);
      /* the whole recording's times are those of its first stretch, unwrapped */
      if (shown_stretch != NULL)
        {
          load->stretch = g_object_ref (shown_stretch);
          load->shift = self->record_wraps * self->record_wrap;
        }
      /* the recording as a capture like any other, then what became of it */
      tks_capture_load_file_async (file, NULL, final_load_done_cb, load);
    }
  recording_free (r);
  /* the board again, as before the recording, without a fetch over the recording shown
   * (after a link that failed, the user connects when the board is back) */
  if (error == NULL && address != NULL && self->session != NULL)
    {
      self->skip_fetch_on_connect = TRUE;
      tks_window_connect (self, address);
    }
  else
    /* "Not connected.": the board menu connects again */
    _tks_window_board_show_state (self);
}

void
_tks_window_record_explain (TksWindow *self)
{
  const char *text;
  const char * const *commands = self->session != NULL ? tks_session_get_board_commands (self->session)
                                                      : NULL;

  if (self->record_button == NULL)
    return;
  if (self->recording != NULL)
    text = _("Stop recording");
  else if (self->session == NULL || tks_session_get_state (self->session) == TKS_SESSION_DISCONNECTED)
    text = _("Record continuously: connect to a board first");
  else if (commands != NULL && !g_strv_contains (commands, "threads_record"))
    text = _("This board cannot record: its library needs THREADS_TIMESTAMPS_RECORD = true");
  else
    text = _("Record continuously: the board streams its log into a file");
  tks_widget_set_tooltip (self->record_button, text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->record_button),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

gboolean
_tks_window_can_record (TksWindow *self)
{
  const char * const *commands;

  if (self->recording != NULL)
    return TRUE;
  if (self->session == NULL || self->fetching ||
      tks_session_get_state (self->session) != TKS_SESSION_IDLE)
    return FALSE;
  commands = tks_session_get_board_commands (self->session);
  return commands != NULL && g_strv_contains (commands, "threads_record");
}

static void
start_recording (TksWindow *self)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *dir = tks_session_get_history_dir ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *file_name = g_strdup_printf ("record-%s.txt", stamp);
  g_autoptr(GVariant) state = NULL;
  TksRecording *r;

  if (!_tks_window_can_record (self) || self->recording != NULL)
    return;
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      g_autofree char *message = g_strdup_printf (_("Could not record: cannot create “%s”"), dir);

      tks_window_show_error (self, message);
      return;
    }
  r = g_new0 (TksRecording, 1);
  g_mutex_init (&r->lock);
  r->address = g_strdup (tks_session_get_address (self->session));
  r->options.baud = tks_session_get_baud (self->session);
  r->options.flow_control = tks_board_popover_get_flow_control (self->board_popover);
  r->path = g_build_filename (dir, file_name, NULL);
  state = g_action_group_get_action_state (G_ACTION_GROUP (self), "record-events");
  r->events = state != NULL && g_variant_get_boolean (state);
  r->stop = g_cancellable_new ();
  self->record_tail = tks_recording_tail_new (r->path, live_bytes (0));
  g_array_set_size (self->record_marks, 0);
  self->record_origin = NAN;
  self->record_wraps = NAN;
  self->record_back = FALSE;
  self->record_back_wanted = -1;
  self->record_length = 0;
  sync_position (self);
  update_position_label (self);

  /* the board's shell is the recording's alone until it ends */
  tks_session_disconnect (self->session);
  self->recording = r;
  self->record_live = FALSE;
  self->record_seen_bytes = self->record_seen_dropped = 0;
  self->record_data_time = 0;
  _tks_window_clear_error (self);
  set_record_state (self, TRUE);
  update_record_label (self);
  task = g_task_new (self, NULL, record_done_cb, g_object_ref (self));
  g_task_set_source_tag (task, start_recording);
  g_task_set_task_data (task, r, NULL);
  g_task_run_in_thread (task, record_thread);
  self->record_tick_id = g_timeout_add_seconds (1, record_tick_cb, self);
}

void
_tks_window_record (TksWindow *self,
                    gboolean   start)
{
  if (start)
    start_recording (self);
  else if (self->recording != NULL)
    {
      g_cancellable_cancel (self->recording->stop);
      tks_inscription_set_text (self->record_label, _("Stopping the recording…"));
    }
}

void
tks_window_connect_and_record (TksWindow  *self,
                               const char *address,
                               gboolean    events)
{
  g_return_if_fail (TKS_IS_WINDOW (self));
  g_return_if_fail (address != NULL);

  tks_window_connect (self, address);
  self->record_on_connect = TRUE;
  if (events)
    g_action_group_change_action_state (G_ACTION_GROUP (self), "record-events",
                                        g_variant_new_boolean (TRUE));
}

gboolean
_tks_window_record_on_connect (TksWindow *self)
{
  if (!self->record_on_connect)
    return FALSE;
  self->record_on_connect = FALSE;
  if (!_tks_window_can_record (self))
    {
      tks_window_show_error (self, _("Could not record: the board has no threads_record command "
                                     "(its library needs THREADS_TIMESTAMPS_RECORD = true)"));
      return FALSE;
    }
  start_recording (self);
  return TRUE;
}

gboolean
_tks_window_record_close_request (TksWindow *self)
{
  if (self->recording == NULL)
    return FALSE;
  self->close_after_record = TRUE;
  g_cancellable_cancel (self->recording->stop);
  tks_inscription_set_text (self->record_label, _("Stopping the recording…"));
  return TRUE;
}

/* Closing the window stops the recording and waits for its file to be complete. */
void
_tks_window_record_dispose (TksWindow *self)
{
  g_clear_handle_id (&self->record_tick_id, g_source_remove);
  self->record_closing = TRUE;
  g_clear_pointer (&self->record_marks, g_array_unref);
  if (self->record_position != NULL)
    g_signal_handlers_disconnect_by_data (self->record_position, self);
  g_clear_object (&self->record_position);
  if (self->recording != NULL)
    g_cancellable_cancel (self->recording->stop);
}

void
_tks_window_record_init (TksWindow *self)
{
  const char *headings[] = {
    _("Thread"),
    /* Translators: a column of the live load table: the share of the last second */
    _("CPU %"),
    _("Switches/s"),
    _("Longest run"),
  };
  GtkWidget *heading;
  GtkWidget *scale;
  GtkEventController *focus;

  G_STATIC_ASSERT (G_N_ELEMENTS (headings) == G_N_ELEMENTS (self->live_load_columns));
  /* the recording's position: dragging it back shows an earlier stretch, read from the file */
  self->record_marks = g_array_new (FALSE, FALSE, sizeof (RecordMark));
  self->record_back_wanted = -1;
  self->record_position = g_object_ref_sink (gtk_adjustment_new (1, 0, 1, 1, 10, 0));
  g_signal_connect (self->record_position, "value-changed",
                    G_CALLBACK (record_position_changed_cb), self);
  self->record_position_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  scale = gtk_scale_new (GTK_ORIENTATION_HORIZONTAL, self->record_position);
  self->record_position_scale = scale;
  self->record_position_motion = gtk_event_controller_motion_new ();
  g_signal_connect_swapped (self->record_position_motion, "enter",
                            G_CALLBACK (position_approached_cb), self);
  gtk_widget_add_controller (scale, self->record_position_motion);
  focus = gtk_event_controller_focus_new ();
  g_signal_connect_swapped (focus, "enter", G_CALLBACK (position_approached_cb), self);
  gtk_widget_add_controller (scale, focus);
  gtk_scale_set_draw_value (GTK_SCALE (scale), FALSE);
  gtk_widget_set_hexpand (scale, TRUE);
  gtk_widget_set_tooltip_text (scale, _("Drag back to see an earlier part of the recording"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (scale), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Recording position"), -1);
  /* an inscription: the recording's length in it grows every second while the view is back */
  self->record_position_label = g_object_new (GTK_TYPE_INSCRIPTION, "accessible-role",
                                              GTK_ACCESSIBLE_ROLE_LABEL, "xalign", 0.0f,
                                              "min-chars", 16, "nat-chars", 24, "text-overflow",
                                              GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END, NULL);
  tks_inscription_set_text (self->record_position_label, _("Live"));
  self->record_live_button = gtk_button_new_with_label (_("Back to Live"));
  gtk_widget_set_tooltip_text (self->record_live_button, _("Follow the newest data again"));
  gtk_widget_set_sensitive (self->record_live_button, FALSE);
  g_signal_connect (self->record_live_button, "clicked", G_CALLBACK (record_live_clicked_cb), self);
  gtk_box_append (GTK_BOX (self->record_position_box), scale);
  gtk_box_append (GTK_BOX (self->record_position_box), self->record_position_label);
  gtk_box_append (GTK_BOX (self->record_position_box), self->record_live_button);
  gtk_widget_insert_after (self->record_position_box,
                           gtk_widget_get_parent (self->record_label),
                           self->record_label);
  for (guint c = 0; c < G_N_ELEMENTS (self->live_load_columns); c++)
    self->live_load_columns[c] = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);
  heading = table_row (self, headings, GTK_ACCESSIBLE_ROLE_COLUMN_HEADER);
  /* Translators: the heading row of the live load table, read by a screen reader */
  gtk_accessible_update_property (GTK_ACCESSIBLE (heading), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Thread, CPU %, switches/s, longest run"), -1);
  for (GtkWidget *h = gtk_widget_get_first_child (heading); h != NULL; h = gtk_widget_get_next_sibling (h))
    gtk_widget_add_css_class (h, "heading");
  gtk_box_append (GTK_BOX (self->live_load_table), heading);
  /* the heading's cells hold the columns' groups */
  for (guint c = 0; c < G_N_ELEMENTS (self->live_load_columns); c++)
    g_object_unref (self->live_load_columns[c]);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->live_load_table),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Live load"), -1);
  set_record_state (self, FALSE);
}
