/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tks-application.h"
#include "tks-capture.h"

G_BEGIN_DECLS

#define TKS_TYPE_WINDOW (tks_window_get_type ())
G_DECLARE_FINAL_TYPE (TksWindow, tks_window, TKS, WINDOW, GtkApplicationWindow)

TksWindow  *tks_window_new          (TksApplication *application);
/* Loads @file in a worker thread; on failure the message is shown and the current capture
 * stays. */
void        tks_window_open_file    (TksWindow      *self,
                                     GFile          *file);
/* As tks_window_open_file(), then the timeline centred on @seconds from the time ruler's
 * origin (the trigger, else the start; NAN: as tks_window_open_file()). */
void        tks_window_open_file_at (TksWindow      *self,
                                     GFile          *file,
                                     double          seconds);
/* The line of the next connection: @baud (300 to 4000000; 0 keeps the one set) and @flow
 * ("none", "xonxoff" or "rtscts"; NULL keeps it). FALSE, changing nothing, for a value out
 * of range. */
gboolean    tks_window_set_line     (TksWindow      *self,
                                     guint           baud,
                                     const char     *flow);
/* Connects to a board: a serial device, a pty, "tcp:HOST:PORT" or "demo". */
void        tks_window_connect      (TksWindow      *self,
                                     const char     *address);
/* Connects to a board as tks_window_connect() does, then records continuously (Record)
 * rather than getting its log once; with @events, the board's interrupts, wake-ups and
 * markers too (the menu's Record Interrupts, Wake-ups and Markers is turned on). */
void        tks_window_connect_and_record (TksWindow  *self,
                                           const char *address,
                                           gboolean    events);
TksCapture *tks_window_get_capture  (TksWindow      *self);
void        tks_window_set_capture  (TksWindow      *self,
                                     TksCapture     *capture,
                                     GFile          *file);
void        tks_window_show_error   (TksWindow      *self,
                                     const char     *message);

G_END_DECLS
