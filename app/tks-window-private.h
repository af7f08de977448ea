/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the parts of the main window share: its fields and the functions one part calls in
 * another. The parts: tks-window.c (status, the capture shown, settings, construction),
 * tks-window-actions.c, tks-window-board.c, tks-window-chrome.c (empty state, a window that
 * opens narrow), tks-window-dnd.c, tks-window-export.c, tks-window-files.c,
 * tks-window-history.c, tks-window-messages.c (what the message bar and the warnings say),
 * tks-window-record.c (Record and the live view, over a TksRecording and the TksRecordPanel
 * under the timeline), tks-window-trigger.c (condition triggers, TksTriggerPopover). Widgets of their own: TksHeaderBar (the buttons, the main menu, the
 * title), TksMessageBar, TksProgress, TksWarningsButton, TksLegend, TksBoardPopover,
 * TksThreadsPanel, TksRecordPanel. */
#pragma once

#include <gtk/gtk.h>

#include "tks-board-popover.h"
#include "tks-capture.h"
#include "tks-events-panel.h"
#include "tks-find-bar.h"
#include "tks-header-bar.h"
#include "tks-message-bar.h"
#include "tks-overview.h"
#include "tks-progress.h"
#include "tks-record-panel.h"
#include "tks-recording.h"
#include "tks-session.h"
#include "tks-threads-panel.h"
#include "tks-timeline-view.h"
#include "tks-viewport.h"
#include "tks-warnings-button.h"
#include "tks-window.h"

G_BEGIN_DECLS

struct _TksWindow
{
  GtkApplicationWindow parent_instance;

  /* template widgets */
  TksMessageBar    *message_bar;      /* one message at a time (tks-window-messages.c) */
  TksProgress      *progress;
  TksTimelineView  *timeline;
  GtkRevealer      *threads_revealer;
  TksThreadsPanel  *threads_panel;
  GtkScrollbar     *vscrollbar;
  TksOverview      *overview;
  GtkWidget        *status_label;
  GtkLabel         *info_label;
  GtkWidget        *range_label;
  TksHeaderBar     *header;           /* its buttons, the main menu, the title */
  TksBoardPopover  *board_popover;

  TksViewport      *viewport;
  GtkAdjustment    *vadjustment;
  gboolean          syncing_vadjustment;

  TksCapture       *capture;
  GFile            *file;            /* where the capture was read from or saved to */
  gboolean          file_is_capture; /* the file is in the capture format (Save may write it) */
  char             *fetch_warning;  /* what two fetches in a row show missing in the log */

  GCancellable     *load_cancellable;

  GtkRecentManager *recent;
  GtkWidget        *stats_window;
  GtkNativeDialog  *chooser;

  TksSession       *session;
  GCancellable     *session_cancellable;
  gboolean          fetching;
  char             *board_state;     /* what the board's log is doing, when known */
  gboolean          skip_fetch_on_connect; /* connecting again after a recording */
  gboolean          record_on_connect;     /* tickscope --record: record once connected */

  /* tks-window-record.c */
  TksRecording     *recording;       /* while recording */
  struct
  {
    gboolean        live;            /* the capture shown is the recording's, read back */
    gboolean        close_after;     /* closed while recording: closes once it has stopped */
    double          origin;          /* the recording's first tick, in the whole recording's times */
    double          wraps;           /* the tick's wraps before the stretch shown; NAN: none shown */
  } rec;
  GtkRevealer      *record_revealer;
  TksRecordPanel   *record_panel;    /* its line, its position, its live load */

  /* tks-window-messages.c */
  TksWarningsButton *warnings_button; /* the status line's count, and the list's window */

  /* tks-window-trigger.c */
  struct
  {
    GtkWidget      *popover;          /* TksTriggerPopover: the Trigger button's menu */
    guint           poll_id;          /* while a condition is armed: is the log frozen? */
    gboolean        poll_pending;
    gboolean        fetch;            /* the fetch after the freeze: the trigger into view */
  } trigger;

  /* the events list under the timeline, find above it (tks-window-actions.c), each in a
   * revealer */
  TksEventsPanel   *events_panel;
  TksFindBar       *find_bar;

  /* tks-window-chrome.c */
  GtkStack         *content_stack;
  GtkWidget        *empty_demo_button;
};


/* tks-window.c */
GSettings *_tks_window_get_settings        (TksWindow      *self);
/* A schema compiled before a key was added lacks it: such a setting is not kept. */
gboolean   _tks_window_settings_has_key    (GSettings      *settings,
                                            const char     *key);
void       _tks_window_show_message        (TksWindow      *self,
                                            const char     *message);
double     _tks_window_get_tick_hz         (TksWindow      *self);
void       _tks_window_update_status       (TksWindow      *self);
void       _tks_window_update_warnings     (TksWindow      *self);
void       _tks_window_sync_vadjustment    (TksWindow      *self);

/* tks-window-actions.c */
void       _tks_window_actions_init        (TksWindow      *self);
void       _tks_window_actions_add_settings (TksWindow     *self,
                                            GSettings     *settings);
void       _tks_window_update_actions      (TksWindow      *self);

/* tks-window-board.c */
void       _tks_window_board_class_init    (GtkWidgetClass *widget_class);
/* win.reconnect: the last board again, once the link to it is gone. */
void       _tks_window_board_init          (TksWindow      *self);
void       _tks_window_board_update_reconnect (TksWindow   *self);
/* A failure of the board or its link: with Reconnect when the link is gone with it. */
void       _tks_window_board_show_error    (TksWindow      *self,
                                            const char     *message);
void       _tks_window_board_trigger       (TksWindow      *self);
void       _tks_window_board_run           (TksWindow      *self);
void       _tks_window_board_fetch         (TksWindow      *self);
void       _tks_window_board_disconnect    (TksWindow      *self);
void       _tks_window_board_cancel        (TksWindow      *self);
void       _tks_window_board_dispose       (TksWindow      *self);
/* The board's state under the title again (after a recording). */
void       _tks_window_board_show_state    (TksWindow      *self);
/* What the board's log is doing, under the title (NULL: not known). */
void       _tks_window_board_set_state     (TksWindow      *self,
                                            const char     *state);

/* tks-window-trigger.c */
void       _tks_window_trigger_init        (TksWindow      *self);
void       _tks_window_trigger_dispose     (TksWindow      *self);
/* Connected: the menu offered when the board's help lists threads_trigger_when. */
void       _tks_window_trigger_connected   (TksWindow      *self);
/* A fetch arrived: after a freeze, the trigger is put in view and said. */
void       _tks_window_trigger_fetched     (TksWindow      *self,
                                            TksCapture     *capture);

/* tks-window-record.c */
void       _tks_window_record_init         (TksWindow      *self);
void       _tks_window_record_dispose      (TksWindow      *self);
/* Whether the Record button can start (or stop) a recording now. */
gboolean   _tks_window_can_record          (TksWindow      *self);
void       _tks_window_record              (TksWindow      *self,
                                            gboolean        start);
/* The window is asked to close: TRUE to wait, while a recording under way stops (the window
 * then closes by itself). */
gboolean   _tks_window_record_close_request (TksWindow     *self);
/* The Record button's tooltip: what it does, or why it cannot now. */
void       _tks_window_record_explain      (TksWindow      *self);
/* Connected: the recording asked for with tks_window_connect_and_record(), if it was. */
gboolean   _tks_window_record_on_connect   (TksWindow      *self);

/* tks-window-dnd.c */
void       _tks_window_dnd_init            (TksWindow      *self);

/* tks-window-export.c */
void       _tks_window_export              (TksWindow      *self);

/* tks-window-files.c */
void       _tks_window_add_filter          (GtkFileChooser *chooser,
                                            const char     *name,
                                            const char     *pattern,
                                            const char     *id);
void       _tks_window_open_chooser        (TksWindow      *self,
                                            GFile          *start_folder);
void       _tks_window_rebuild_recent      (TksWindow      *self);
/* A file's name as a menu's label: a menu reads "_" as a mnemonic, so each is doubled. */
char      *_tks_window_menu_label          (const char     *text);
void       _tks_window_save                (TksWindow      *self);
void       _tks_window_save_as             (TksWindow      *self);

/* tks-window-messages.c */
void       _tks_window_messages_class_init (GtkWidgetClass *widget_class);
void       _tks_window_messages_init       (TksWindow      *self);
/* Hides the message bar if it shows a failure. */
void       _tks_window_clear_error         (TksWindow      *self);
/* Collapses every run of blanks and line breaks of @text into one space, in place, and trims
 * it: how a board's reply is shown. */
char      *_tks_window_normalise_spacing   (char           *text);

/* tks-window-chrome.c (the empty state, a narrow window) */
void       _tks_window_chrome_class_init   (GtkWidgetClass *widget_class);
void       _tks_window_chrome_init         (TksWindow      *self);
/* The empty state when there is no capture, the timeline otherwise. */
void       _tks_window_update_empty        (TksWindow      *self);

/* tks-window-history.c */
void       _tks_window_history_init        (TksWindow      *self);
void       _tks_window_rebuild_history     (TksWindow      *self);
void       _tks_window_browse_history      (TksWindow      *self);

G_END_DECLS
