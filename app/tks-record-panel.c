/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The recording's panel (tks-record-panel.h): its line, its position, its live load. */
#include "config.h"

#include <glib/gi18n.h>

#include "tks-live-load-table.h"
#include "tks-record-panel.h"
#include "tks-widget-text.h"

struct _TksRecordPanel
{
  GtkWidget           parent_instance;

  /* template widgets */
  GtkWidget          *record_label;
  GtkAdjustment      *position;
  GtkWidget          *position_scale;
  GtkEventController *position_motion;
  GtkWidget          *position_label;
  GtkWidget          *live_button;
  GtkLabel           *state_label;   /* drops and silences of the stream, when there are */
  TksLiveLoadTable   *load_table;    /* rows (role row, named by their cells) of cells */

  TksRecording       *recording;
  GCancellable       *cancellable;   /* the stretches read back for this recording */
  double              length;        /* seconds the recording holds, as of the last second */
  gboolean            back;          /* an earlier stretch is shown, not the live end */
  gboolean            back_loading;
  double              back_wanted;   /* seconds into the recording, -1: none pending */
  gboolean            position_setting;
};

G_DEFINE_FINAL_TYPE (TksRecordPanel, tks_record_panel, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_BACK,
  PROP_RECORDING,
  N_PROPS
};

enum {
  STRETCH_READ,
  READ_FAILED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
set_back (TksRecordPanel *self,
          gboolean        back)
{
  if (self->back == back)
    return;
  self->back = back;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BACK]);
}

/* The board sends a line at least every 250 ms while it streams: a second without a byte
 * (the first second's update that finds none) is a stalled stream, said at once. */
#define STALLED 0.9

/* What the Live load's numbers are worth: the records the board dropped (in the last second
 * and in all), lines damaged on the link, and a stream fallen silent (the table then keeps
 * the last second received, greyed out). Shown above the table and given as its description
 * to screen readers; hidden while everything arrives. */
static void
update_live_state (TksRecordPanel *self)
{
  TksRecording *r = self->recording;
  TksRecorderStats st;
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *text = NULL;
  double silent = tks_recording_get_silence (r);

  tks_recording_get_stats (r, &st);
  if (st.dropped > 0)
    {
      g_autofree char *last = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                               tks_recording_get_dropped_last_second (r));
      g_autofree char *all = g_strdup_printf ("%" G_GUINT64_FORMAT, st.dropped);

      /* Translators: records the board could not send: in the last second, then in all */
      g_ptr_array_add (parts, g_strdup_printf (_("Dropped by the board: %s records in the last "
                                                 "second, %s in all."), last, all));
    }
  if (st.damaged > 0)
    g_ptr_array_add (parts, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u line damaged on the link.",
                                                          "%u lines damaged on the link.", st.damaged),
                                             st.damaged));
  if (silent >= STALLED)
    g_ptr_array_add (parts, g_strdup_printf (_("No data from the board for %.0f s: the load "
                                               "shown is of the last second received."), silent));
  g_ptr_array_add (parts, NULL);
  text = g_strjoinv (" ", (char **) parts->pdata);

  gtk_label_set_text (self->state_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->state_label), *text != '\0');
  tks_live_load_table_set_state (self->load_table, text, silent >= STALLED);
}

/* A second of the recording: its line and what its numbers are worth. */
static void
update_record_label (TksRecordPanel *self)
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
  update_live_state (self);
  /* once stopped, the line says so until the board's stream has ended */
  if (tks_recording_get_stopping (r))
    return;
  tks_recording_get_stats (r, &st);
  name = g_path_get_basename (tks_recording_get_path (r));
  entries = g_strdup_printf ("%" G_GUINT64_FORMAT, st.entries);
  dropped = g_strdup_printf ("%" G_GUINT64_FORMAT, st.dropped);
  bytes = g_strdup_printf ("%" G_GUINT64_FORMAT, st.bytes);
  /* Translators: while recording: the file, events, seconds, records dropped, bytes */
  text = g_strdup_printf (_("Recording to %s: %s events in %.0f s, %s dropped, %s bytes"),
                          name, entries, st.seconds, dropped, bytes);
  tks_inscription_set_text (self->record_label, text);
}

static void
recording_stopping_cb (TksRecordPanel *self)
{
  tks_inscription_set_text (self->record_label, _("Stopping the recording…"));
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
update_position_label (TksRecordPanel *self)
{
  g_autofree char *at = NULL;
  g_autofree char *length = NULL;
  g_autofree char *text = NULL;

  if (!self->back)
    {
      tks_inscription_set_text (self->position_label, _("Live"));
      gtk_widget_set_sensitive (self->live_button, FALSE);
      return;
    }
  at = format_position (gtk_adjustment_get_value (self->position));
  length = format_position (self->length);
  /* Translators: where the view is in a recording under way: "At 1:05 of 12:40" */
  text = g_strdup_printf (_("At %s of %s"), at, length);
  tks_inscription_set_text (self->position_label, text);
  gtk_widget_set_sensitive (self->live_button, TRUE);
}

/* The scale's end follows the recording's length; while live, its value too. */
static void
sync_position (TksRecordPanel *self)
{
  double length = MAX (self->length, 1);

  self->position_setting = TRUE;
  gtk_adjustment_set_upper (self->position, length);
  if (!self->back)
    gtk_adjustment_set_value (self->position, length);
  self->position_setting = FALSE;
}

/* Whether the user may move the scale: the view is back, or the pointer or the focus is on
 * the scale. */
static gboolean
position_in_use (TksRecordPanel *self)
{
  return self->back || gtk_widget_has_focus (self->position_scale) ||
         gtk_event_controller_motion_contains_pointer (GTK_EVENT_CONTROLLER_MOTION (self->position_motion));
}

/* The recording is @seconds long. While the view is live and the scale is left alone, its
 * knob stays at the end whatever the length: the scale is brought up to date when the
 * pointer or the focus comes to it. A scale's new range lays the window out again, and on
 * X11 each layout of a window asks the X server for the work area and the window's place,
 * round trips that a frame of the rolling timeline would wait for every second. */
static void
recording_length_cb (TksRecordPanel *self)
{
  self->length = tks_recording_get_length (self->recording);
  if (position_in_use (self))
    sync_position (self);
  update_position_label (self);
}

static void
position_approached_cb (TksRecordPanel *self)
{
  if (self->recording != NULL)
    sync_position (self);
}

static void start_back_load (TksRecordPanel *self);

static void
back_load_done_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(TksRecordPanel) self = user_data;
  g_autoptr(GError) error = NULL;
  double wraps = 0, before = 0;
  g_autoptr(TksCapture) capture = tks_recording_read_back_finish (TKS_RECORDING (source), result,
                                                                  &wraps, &before, &error);

  /* (cancelled: the recording has stopped, or the panel is going) */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self->back_loading = FALSE;
  if (self->recording != TKS_RECORDING (source) || !self->back)
    return;
  if (self->back_wanted >= 0)
    /* the position moved on meanwhile */
    start_back_load (self);
  else if (capture != NULL)
    g_signal_emit (self, signals[STRETCH_READ], 0, capture, wraps, before);
  else if (error != NULL)
    g_signal_emit (self, signals[READ_FAILED], 0, error);
}

/* Reads the stretch around the position asked for from the file, in a worker: the view keeps
 * about as much as the live view does, ending half of it after the position. */
static void
start_back_load (TksRecordPanel *self)
{
  double wanted = self->back_wanted;

  self->back_wanted = -1;
  self->back_loading = TRUE;
  tks_recording_read_back_async (self->recording, wanted, self->cancellable, back_load_done_cb,
                                 g_object_ref (self));
}

/* Back to the recording's end: the next second's update shows it, rolling. */
static void
go_live (TksRecordPanel *self)
{
  if (!self->back)
    return;
  self->back_wanted = -1;
  set_back (self, FALSE);
  sync_position (self);
  update_position_label (self);
}

static void
position_changed_cb (TksRecordPanel *self)
{
  double value = gtk_adjustment_get_value (self->position);

  if (self->position_setting || self->recording == NULL ||
      !tks_recording_can_read_back (self->recording))
    return;
  if (value >= gtk_adjustment_get_upper (self->position) - 1)
    {
      go_live (self);
      return;
    }
  set_back (self, TRUE);
  self->back_wanted = value;
  update_position_label (self);
  if (!self->back_loading)
    start_back_load (self);
}

static void
live_clicked_cb (TksRecordPanel *self)
{
  go_live (self);
}

/* The recording's end, read this second: the load is the board's present, whether the view
 * shows it or an earlier stretch. */
static void
recording_live_stretch_cb (TksRecordPanel *self,
                           TksCapture     *capture)
{
  tks_live_load_table_update (self->load_table, capture);
}

void
tks_record_panel_set_recording (TksRecordPanel *self,
                                TksRecording   *recording)
{
  g_return_if_fail (TKS_IS_RECORD_PANEL (self));
  g_return_if_fail (recording == NULL || TKS_IS_RECORDING (recording));

  if (self->recording == recording)
    return;
  if (self->recording != NULL)
    g_signal_handlers_disconnect_by_data (self->recording, self);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_set_object (&self->recording, recording);
  self->back_loading = FALSE;
  self->back_wanted = -1;
  set_back (self, FALSE);
  if (recording != NULL)
    {
      self->cancellable = g_cancellable_new ();
      self->length = 0;
      sync_position (self);
      tks_live_load_table_clear (self->load_table);
      g_signal_connect_swapped (recording, "second", G_CALLBACK (update_record_label), self);
      g_signal_connect_swapped (recording, "notify::length", G_CALLBACK (recording_length_cb),
                                self);
      g_signal_connect_swapped (recording, "notify::stopping",
                                G_CALLBACK (recording_stopping_cb), self);
      g_signal_connect_swapped (recording, "live-stretch",
                                G_CALLBACK (recording_live_stretch_cb), self);
      update_record_label (self);
    }
  update_position_label (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RECORDING]);
}

gboolean
tks_record_panel_get_back (TksRecordPanel *self)
{
  g_return_val_if_fail (TKS_IS_RECORD_PANEL (self), FALSE);

  return self->back;
}

static void
tks_record_panel_dispose (GObject *object)
{
  TksRecordPanel *self = TKS_RECORD_PANEL (object);
  GtkWidget *child;

  if (self->recording != NULL)
    g_signal_handlers_disconnect_by_data (self->recording, self);
  g_clear_object (&self->recording);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  /* (the template's children without a name of their own too) */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  gtk_widget_dispose_template (GTK_WIDGET (self), TKS_TYPE_RECORD_PANEL);

  G_OBJECT_CLASS (tks_record_panel_parent_class)->dispose (object);
}

static void
tks_record_panel_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TksRecordPanel *self = TKS_RECORD_PANEL (object);

  switch (prop_id)
    {
    case PROP_BACK:
      g_value_set_boolean (value, self->back);
      break;
    case PROP_RECORDING:
      g_value_set_object (value, self->recording);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_record_panel_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_RECORDING:
      tks_record_panel_set_recording (TKS_RECORD_PANEL (object), g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tks_record_panel_class_init (TksRecordPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tks_record_panel_dispose;
  object_class->get_property = tks_record_panel_get_property;
  object_class->set_property = tks_record_panel_set_property;

  properties[PROP_BACK] =
    g_param_spec_boolean ("back", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* the recording under way shown, or NULL */
  properties[PROP_RECORDING] =
    g_param_spec_object ("recording", NULL, NULL, TKS_TYPE_RECORDING,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TksRecordPanel::stretch-read:
   * @capture: an earlier stretch of the recording, read back from its file
   * @wraps: the tick's wraps before @capture's start
   * @before: seconds from the position asked for to @capture's end
   */
  signals[STRETCH_READ] =
    g_signal_new ("stretch-read", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 3, TKS_TYPE_CAPTURE, G_TYPE_DOUBLE, G_TYPE_DOUBLE);
  /**
   * TksRecordPanel::read-failed:
   * @error: why an earlier stretch could not be read back
   */
  signals[READ_FAILED] =
    g_signal_new ("read-failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);

  g_type_ensure (TKS_TYPE_LIVE_LOAD_TABLE);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tickscope/Tickscope/ui/tks-record-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, TksRecordPanel, record_label);
  gtk_widget_class_bind_template_child (widget_class, TksRecordPanel, position);
  gtk_widget_class_bind_template_child (widget_class, TksRecordPanel, position_scale);
  gtk_widget_class_bind_template_child (widget_class, TksRecordPanel, position_motion);
  gtk_widget_class_bind_template_child (widget_class, TksRecordPanel, position_label);
  gtk_widget_class_bind_template_child (widget_class, TksRecordPanel, live_button);
  gtk_widget_class_bind_template_child (widget_class, TksRecordPanel, state_label);
  gtk_widget_class_bind_template_child (widget_class, TksRecordPanel, load_table);
  gtk_widget_class_bind_template_callback (widget_class, position_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, position_approached_cb);
  gtk_widget_class_bind_template_callback (widget_class, live_clicked_cb);
}

static void
tks_record_panel_init (TksRecordPanel *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 4);
  self->back_wanted = -1;
  gtk_widget_init_template (GTK_WIDGET (self));
  tks_inscription_set_text (self->position_label, _("Live"));
}
