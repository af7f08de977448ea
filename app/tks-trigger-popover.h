/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * The Trigger button's menu: what the board can set its trigger on (a wake-up of a thread
 * later than a limit, a thread or a handler running longer than one, a marker with a value),
 * the threads, handlers and markers of the capture shown offered as names, the condition in
 * the language of tks-condition.h (which may be typed too), what is wrong with it, and what
 * the board last said, in words.
 *
 * Signals: "arm" (const char *condition: a condition that reads and that the board can
 * hold), "disarm" (remove the condition).
 */

#define TKS_TYPE_TRIGGER_POPOVER (tks_trigger_popover_get_type ())
G_DECLARE_FINAL_TYPE (TksTriggerPopover, tks_trigger_popover, TKS, TRIGGER_POPOVER, GtkPopover)

GtkWidget *tks_trigger_popover_new         (void);
/* The names offered (NULL-terminated; NULL for none). */
void       tks_trigger_popover_set_choices (TksTriggerPopover  *self,
                                            const char * const *threads,
                                            const char * const *handlers,
                                            const char * const *markers);
/* The board's counter frequency (0: not known), to refuse limits it cannot measure. */
void       tks_trigger_popover_set_counter_hz (TksTriggerPopover *self,
                                               guint64            counter_hz);
/* What the board last said about its condition, in words (NULL: nothing). */
void       tks_trigger_popover_set_status  (TksTriggerPopover  *self,
                                            const char         *status);
/* The condition's text, as the form or the user wrote it. */
const char *tks_trigger_popover_get_condition (TksTriggerPopover *self);

G_END_DECLS
