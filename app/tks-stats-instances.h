/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tks-capture.h"
#include "tks-stats-worst.h"
#include "tks-timeline-view.h"

G_BEGIN_DECLS

/*
 * The statistics window's way to the timeline (tks-stats-instances.c): a row of its tables (a
 * TksStatsRow or a TksStatsLine) leads to its worst instance, and offers its ten worst in a
 * list beside the tables. The timeline moves through the action win.show-instance of the window @widget is
 * transient for.
 */

typedef struct
{
  TksCapture      *capture;
  TksTimelineView *timeline;  /* for times in the ruler's units; NULL: ticks */
  double           from;      /* the range of the statistics (ticks) */
  double           to;
  double           tick_hz;
} TksStatsContext;

/* The @n worst instances of @item over the context's range, and their kind and key; NULL when
 * the row has none. */
GArray    *tks_stats_item_worst        (const TksStatsContext *context,
                                        gpointer               item,
                                        guint                  n,
                                        TksWorstKind          *kind,
                                        guint                 *key);
/* Shows @worst (of @kind, @key) in the timeline of the window @widget belongs to or is
 * transient for. */
void       tks_stats_show_instance     (GtkWidget             *widget,
                                        const TksStatsContext *context,
                                        const TksWorst        *worst,
                                        TksWorstKind           kind,
                                        guint                  key);
/* Shows the worst instance of @item; FALSE when it has none. */
gboolean   tks_stats_show_worst        (GtkWidget             *widget,
                                        const TksStatsContext *context,
                                        gpointer               item);
/* @worst in words: "682.345 µs at 1.234 s". */
char      *tks_stats_describe_instance (const TksStatsContext *context,
                                        const TksWorst        *worst,
                                        TksWorstKind           kind);
/* Fills @list (a GtkListBox) with the ten worst instances of @item, each row leading to its
 * instance when activated; FALSE when it has none (@list then says so). */
gboolean   tks_stats_fill_instances    (GtkListBox            *list,
                                        const TksStatsContext *context,
                                        gpointer               item);

/* The Menu key, Shift+F10 or a right click on a row of @view puts the focus on the first entry
 * of @list, the row's ten worst (a right click selects its row first). */
void       tks_stats_attach_instances  (GtkColumnView         *view,
                                        GtkListBox            *list);
/* The timeline's keys for the next and previous moment (] [ . ,) typed in @window act on the
 * window it is transient for, so that after a row showed its worst instance ] shows the next;
 * keys typed in a text field stay there. */
void       tks_stats_forward_moves     (GtkWindow             *window);
/* Asks where to save the table shown (the file named after @page), then writes it with
 * @export, a gboolean (*) (GtkWindow *window, const char *path, GError **error); a failure
 * is told in @summary. */
void       tks_stats_export_table      (GtkWindow             *window,
                                        GtkLabel              *summary,
                                        const char            *page,
                                        GCallback              export);

G_END_DECLS
