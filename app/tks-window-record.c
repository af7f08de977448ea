/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Recording: the Record button streams the board's log (threads_record) into a file of the
 * history folder as it arrives (a TksRecording, tks-recording.h: its worker thread, its file,
 * its counters), while the window's session with the board is closed. Every second the
 * recording reads what the file gained and the window shows the recording's last minute
 * (tks-recording-tail.h: the live view's cost does not grow with the recording): the timeline
 * rolls like an oscilloscope in roll mode (it follows the newest data unless the user scrolled
 * back; the panel's "Recording position" scale brings back an earlier stretch, read from the
 * file), and the panel under it (tks-record-panel.h) tells the counts and each thread's load
 * over the last second. The same button stops; the recording then opens as a normal capture
 * (save, statistics, exports), its holes where the board dropped records, and the session
 * connects again. A board that resets, a link that fails or falls silent ends the recording
 * with a message; the file keeps everything received. */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "tks-record-panel.h"
#include "tks-recording-tail.h"
#include "tks-session.h"
#include "tks-widget-text.h"
#include "tks-window-private.h"

/* The span the timeline shows when a recording starts, in seconds. */
#define ROLL_SECONDS 5.0

/* The timeline shows @capture, a stretch of the recording read back from the file, which
 * @wraps places in the recording (tks_recording_tail_wraps_before()). The time ruler counts
 * from the recording's start. Returns what to add to a time of the stretch shown before to have it in @capture's times
 * (0 for the first stretch). */
static double
put_recording_capture (TksWindow  *self,
                       TksCapture *capture,
                       double      wraps)
{
  double start = tks_capture_get_start (capture);
  double end = tks_capture_get_end (capture);
  double wrap = self->recording != NULL ? tks_recording_get_tick_wrap (self->recording)
                                        : TKS_RECORDING_TICK_WRAP;
  double shift;

  /* the first stretch shown holds the recording's beginning */
  if (isnan (self->rec.origin))
    self->rec.origin = start + wraps * wrap;
  shift = isnan (self->rec.wraps) ? 0 : (self->rec.wraps - wraps) * wrap;

  g_set_object (&self->capture, capture);
  g_clear_object (&self->file);
  self->rec.live = TRUE;
  tks_viewport_set_bounds (self->viewport, start, end);
  /* the marks and the selected run stay where they are in the recording */
  if (isnan (self->rec.wraps))
    tks_timeline_view_set_capture (self->timeline, capture);
  else
    {
      tks_events_panel_expect_next_capture (self->events_panel, capture, shift);
      tks_timeline_view_set_next_capture (self->timeline, capture, shift);
    }
  self->rec.wraps = wraps;
  tks_timeline_view_set_stretch (self->timeline, TRUE);
  tks_overview_set_capture (self->overview, capture);
  tks_timeline_view_set_time_origin (self->timeline, self->rec.origin - wraps * wrap);
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
                   TksCapture *capture,
                   double      wraps)
{
  double old_start = self->capture != NULL ? tks_capture_get_start (self->capture) : 0;
  double old_end = self->capture != NULL ? tks_capture_get_end (self->capture) : 0;
  double span = tks_viewport_get_span (self->viewport);
  double visible_start = tks_viewport_get_visible_start (self->viewport);
  double visible_end = tks_viewport_get_visible_end (self->viewport);
  gboolean first = self->capture == NULL || !self->rec.live;
  gboolean following = first || visible_end >= old_end - span * 0.02;
  double end = tks_capture_get_end (capture);
  double v_offset = tks_viewport_get_v_offset (self->viewport);
  double shift;

  shift = put_recording_capture (self, capture, wraps);
  /* a capture shorter than the roll's span was shown whole: the span grows with it */
  if (first || span >= (old_end - old_start) * 0.98)
    span = MAX (span, ROLL_SECONDS * tks_capture_get_tick_hz (capture));
  if (following)
    tks_viewport_set_range (self->viewport, end - span, end);
  else
    /* scrolled back in the live view: it stays on the same stretch of time while it holds it */
    tks_viewport_set_range (self->viewport, visible_start + shift, visible_end + shift);
  recording_capture_shown (self, v_offset);
}

/* An earlier stretch, placed by @wraps, which ends @before seconds after the position asked
 * for: the view shows that position, with the span it had. */
static void
show_back_capture (TksWindow  *self,
                   TksCapture *capture,
                   double      wraps,
                   double      before)
{
  double span = tks_viewport_get_span (self->viewport);
  double v_offset = tks_viewport_get_v_offset (self->viewport);
  double start = tks_capture_get_start (capture);
  double end = tks_capture_get_end (capture);
  double at = CLAMP (end - before * tks_capture_get_tick_hz (capture), start, end);

  put_recording_capture (self, capture, wraps);
  span = MIN (span, end - start);
  at = CLAMP (at - span / 2, start, end - span);
  tks_viewport_set_range (self->viewport, at, at + span);
  recording_capture_shown (self, v_offset);
}

/* The recording's end, read from its file this second (the panel shows its load). */
static void
recording_live_stretch_cb (TksWindow  *self,
                           TksCapture *capture,
                           double      wraps)
{
  /* (an earlier stretch is shown: it stays) */
  if (!tks_record_panel_get_back (self->record_panel))
    show_live_capture (self, capture, wraps);
}

/* An earlier stretch, read back as the panel's position asked. */
static void
record_stretch_read_cb (TksWindow  *self,
                        TksCapture *capture,
                        double      wraps,
                        double      before)
{
  show_back_capture (self, capture, wraps, before);
}

static void
record_read_failed_cb (TksWindow    *self,
                       const GError *error)
{
  _tks_window_show_message (self, error->message);
}

/* Back to the recording's end: the next second's update shows it, rolling. */
static void
record_back_cb (TksWindow *self)
{
  if (!tks_record_panel_get_back (self->record_panel))
    self->rec.live = FALSE;
}

static void
set_record_state (TksWindow *self,
                  gboolean   recording)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "record");

  if (action != NULL)
    g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (recording));
  gtk_revealer_set_reveal_child (self->record_revealer, recording);
  tks_header_bar_set_recording (self->header, recording);
  _tks_window_board_update_reconnect (self);
  if (recording)
    {
      g_autofree char *text = g_strdup_printf (_("Recording from %s"),
                                               tks_recording_get_address (self->recording));

      tks_header_bar_set_subtitle (self->header, text);
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
    _tks_window_board_show_error (load->self, load->message);
  else
    _tks_window_show_message (load->self, load->message);
  g_object_unref (load->self);
  g_object_unref (load->file);
  g_clear_object (&load->stretch);
  g_free (load->message);
  g_free (load);
}

/* The recording's file is complete: it opens as a capture, after a message telling what
 * became of it (@error: why it ended, when the board or the link ended it). */
static void
recording_stopped_cb (TksWindow    *self,
                      const GError *error)
{
  g_autoptr(TksRecording) r = g_steal_pointer (&self->recording);
  g_autoptr(GFile) file = NULL;
  g_autofree char *address = NULL;
  g_autofree char *message = NULL;
  g_autofree char *name = NULL;
  TksCapture *shown_stretch;
  TksRecorderStats st;

  g_signal_handlers_disconnect_by_data (r, self);
  if (self->rec.close_after)
    {
      /* the file is complete: the window asked to close can go */
      gtk_window_destroy (GTK_WINDOW (self));
      return;
    }
  shown_stretch = self->rec.live && !isnan (self->rec.wraps) ? self->capture : NULL;
  self->rec.live = FALSE;
  tks_record_panel_set_recording (self->record_panel, NULL);
  tks_recording_get_stats (r, &st);
  file = g_file_new_for_path (tks_recording_get_path (r));
  name = g_file_get_parse_name (file);
  address = g_strdup (tks_recording_get_address (r));
  set_record_state (self, FALSE);

  if (error != NULL && st.bytes == 0)
    {
      /* nothing was recorded: no file to show (the recording left none) */
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
          load->shift = self->rec.wraps * tks_recording_get_tick_wrap (r);
        }
      /* the recording as a capture like any other, then what became of it */
      tks_capture_load_file_async (file, NULL, final_load_done_cb, load);
    }
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
  GtkWidget *button;

  if (self->header == NULL)
    return;
  button = tks_header_bar_get_record_button (self->header);
  if (self->recording != NULL)
    text = _("Stop Recording");
  else if (self->session == NULL || tks_session_get_state (self->session) == TKS_SESSION_DISCONNECTED)
    text = _("Record continuously: connect to a board first");
  else if (commands != NULL && !g_strv_contains (commands, "threads_record"))
    text = _("This board cannot record: its library needs THREADS_TIMESTAMPS_RECORD = true");
  else
    text = _("Record continuously: the board streams its log into a file");
  tks_widget_set_tooltip (button, text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
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
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *dir = tks_session_get_history_dir ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *file_name = g_strdup_printf ("record-%s.txt", stamp);
  g_autofree char *path = NULL;
  g_autoptr(GVariant) state = NULL;
  TksTransportOptions options = { 0 };

  if (!_tks_window_can_record (self) || self->recording != NULL)
    return;
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      g_autofree char *message = g_strdup_printf (_("Could not record: cannot create “%s”"), dir);

      tks_window_show_error (self, message);
      return;
    }
  options.baud = tks_session_get_baud (self->session);
  options.flow_control = tks_board_popover_get_flow_control (self->board_popover);
  path = g_build_filename (dir, file_name, NULL);
  state = g_action_group_get_action_state (G_ACTION_GROUP (self), "record-events");
  self->recording = tks_recording_new (tks_session_get_address (self->session), &options, path,
                                       state != NULL && g_variant_get_boolean (state));
  g_signal_connect_swapped (self->recording, "stopped", G_CALLBACK (recording_stopped_cb), self);
  self->rec.origin = NAN;
  self->rec.wraps = NAN;

  /* the board's shell is the recording's alone until it ends */
  tks_session_disconnect (self->session);
  self->rec.live = FALSE;
  _tks_window_clear_error (self);
  tks_record_panel_set_recording (self->record_panel, self->recording);
  /* (after the panel's: each second's load and view are shown in the same frame) */
  g_signal_connect_swapped (self->recording, "live-stretch",
                            G_CALLBACK (recording_live_stretch_cb), self);
  /* (the file's end is no capture yet: why, as reading the file would say) */
  g_signal_connect_swapped (self->recording, "live-failed",
                            G_CALLBACK (record_read_failed_cb), self);
  set_record_state (self, TRUE);
  tks_recording_start (self->recording);
}

void
_tks_window_record (TksWindow *self,
                    gboolean   start)
{
  if (start)
    start_recording (self);
  else if (self->recording != NULL)
    tks_recording_stop (self->recording);
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
  self->rec.close_after = TRUE;
  tks_recording_stop (self->recording);
  return TRUE;
}

/* The window going stops the recording (closing it waits for the file to be complete, see
 * above): its worker goes on to the board's end of the stream. */
void
_tks_window_record_dispose (TksWindow *self)
{
  if (self->recording != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->recording, self);
      tks_recording_stop (self->recording);
      g_clear_object (&self->recording);
    }
}

void
_tks_window_record_init (TksWindow *self)
{
  g_signal_connect_swapped (self->record_panel, "stretch-read",
                            G_CALLBACK (record_stretch_read_cb), self);
  g_signal_connect_swapped (self->record_panel, "read-failed",
                            G_CALLBACK (record_read_failed_cb), self);
  g_signal_connect_swapped (self->record_panel, "notify::back", G_CALLBACK (record_back_cb), self);
  set_record_state (self, FALSE);
}
