/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tks-recording.h"

G_BEGIN_DECLS

/*
 * What the window shows of a recording under way, under the timeline: its line (the file and
 * the counts), the "Recording position" scale with "Back to Live", what the stream's drops and
 * silences are worth, and the "Live load" table. Moving the scale back reads an earlier stretch
 * from the file (TksRecordPanel::stretch-read); the view is back (TksRecordPanel:back) until
 * the scale is at the end again or Back to Live is pressed.
 */

#define TKS_TYPE_RECORD_PANEL (tks_record_panel_get_type ())

G_DECLARE_FINAL_TYPE (TksRecordPanel, tks_record_panel, TKS, RECORD_PANEL, GtkWidget)

/* The recording shown, or NULL once it has stopped (the panel keeps what it showed last). */
void      tks_record_panel_set_recording (TksRecordPanel *self,
                                          TksRecording   *recording);
/* Whether an earlier stretch is shown rather than the live end. */
gboolean  tks_record_panel_get_back      (TksRecordPanel *self);

G_END_DECLS
