/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The original threads_utilities library's recording, as the simulated board's
 * --legacy-defects mode shows it, with the defects a reader of its replies must live with:
 *  - an exit still writes its record after a trigger has frozen the log (overwriting the
 *    oldest record), so a log read late ends with lone exit records;
 *  - the deleted-thread history keeps the last 64 exits whatever the log still holds, so it
 *    lists threads that exited before the log begins;
 *  - the thread list and the log are two commands, read at different moments.
 * Records are the original's 32-bit words: 20 bits of tick, 6 bits per thread number.
 */
#include "config.h"

#include <string.h>

#include "chprintf.h"

#include "tks-simboard-legacy.h"

#define LEGACY_MAX_DELETED 64
#define LEGACY_DYNAMIC_NAME "Exited dynamic thread"
#define LEGACY_LIST_FORMAT "Thread number %2d : Prio = %3d, Log = %3s, Name = %s\r\n"

typedef struct
{
  const thread_t *tp;
  const char     *name;
  int             number;
  int             priority;
  gboolean        logged;
  gboolean        dynamic;
} LegacyThread;

struct _TksLegacyBoard
{
  GArray       *live;          /* LegacyThread, creation order: number = index + 1 */
  LegacyThread  deleted[LEGACY_MAX_DELETED];
  guint         deleted_first;
  guint         deleted_count;
  guint32      *log;
  guint         log_size;
  guint         head;
  guint         count;
  gboolean      triggered;
  gboolean      frozen;
  guint         fill_remaining;
  guint32       trigger_time;
  const char   *trigger_name;
};

static TksLegacyBoard *the_board;

TksLegacyBoard *
tks_legacy_new (guint log_size)
{
  TksLegacyBoard *legacy = g_new0 (TksLegacyBoard, 1);

  legacy->live = g_array_new (FALSE, FALSE, sizeof (LegacyThread));
  legacy->log_size = log_size;
  legacy->log = g_new0 (guint32, log_size);
  the_board = legacy;
  return legacy;
}

void
tks_legacy_free (TksLegacyBoard *legacy)
{
  if (legacy == NULL)
    return;
  if (the_board == legacy)
    the_board = NULL;
  g_array_unref (legacy->live);
  g_free (legacy->log);
  g_free (legacy);
}

static void
legacy_write (TksLegacyBoard *legacy, guint32 tick, int out, int in)
{
  legacy->log[legacy->head] = (tick & 0xFFFFFU) << 12 | ((guint32) out & 0x3FU) << 6
                              | ((guint32) in & 0x3FU);
  legacy->head = (legacy->head + 1) % legacy->log_size;
  if (legacy->count < legacy->log_size)
    legacy->count++;
  if (legacy->triggered && !legacy->frozen)
    {
      if (legacy->fill_remaining <= 1)
        legacy->frozen = TRUE;
      else
        legacy->fill_remaining--;
    }
}

static int
legacy_index (TksLegacyBoard *legacy, const thread_t *tp)
{
  for (guint i = 0; tp != NULL && i < legacy->live->len; i++)
    if (g_array_index (legacy->live, LegacyThread, i).tp == tp)
      return (int) i;
  return -1;
}

void
tks_legacy_created (TksLegacyBoard *legacy, const thread_t *tp, const char *name,
                    int priority, gboolean logged, gboolean dynamic)
{
  LegacyThread t = { tp, name, 0, priority, logged, dynamic };

  g_array_append_val (legacy->live, t);
}

void
tks_legacy_exited (TksLegacyBoard *legacy, const thread_t *tp, guint32 tick)
{
  int index = legacy_index (legacy, tp);
  LegacyThread *entry;
  guint slot;

  if (index < 0)
    return;
  /* Written whether or not the trigger froze the log. */
  legacy_write (legacy, tick, index + 1, index + 1);

  /* The last 64 exits, whatever the log still holds. */
  if (legacy->deleted_count == LEGACY_MAX_DELETED)
    {
      legacy->deleted_first = (legacy->deleted_first + 1) % LEGACY_MAX_DELETED;
      legacy->deleted_count--;
    }
  slot = (legacy->deleted_first + legacy->deleted_count) % LEGACY_MAX_DELETED;
  entry = &legacy->deleted[slot];
  *entry = g_array_index (legacy->live, LegacyThread, index);
  entry->number = index + 1;
  entry->tp = NULL;
  if (entry->dynamic)
    entry->name = LEGACY_DYNAMIC_NAME;
  legacy->deleted_count++;
  g_array_remove_index (legacy->live, (guint) index);
}

void
tks_legacy_switch (TksLegacyBoard *legacy, const thread_t *in, gboolean in_logged,
                   const thread_t *out, gboolean out_logged, guint32 tick)
{
  if ((!in_logged && !out_logged) || legacy->frozen)
    return;
  legacy_write (legacy, tick, legacy_index (legacy, out) + 1, legacy_index (legacy, in) + 1);
}

void
tks_legacy_trigger (TksLegacyBoard *legacy, const char *name, guint32 tick)
{
  if (legacy->triggered)
    return;
  legacy->triggered = TRUE;
  legacy->trigger_name = name;
  legacy->trigger_time = tick;
  legacy->fill_remaining = legacy->count <= legacy->log_size / 2
                           ? legacy->log_size - legacy->count : legacy->log_size / 2;
  if (legacy->fill_remaining == 0)
    legacy->frozen = TRUE;
}

static gboolean
legacy_usage (BaseSequentialStream *chp, int argc, const char *name)
{
  if (argc > 0)
    chprintf (chp, "Usage: %s\r\n", name);
  return argc == 0 && the_board != NULL;
}

void
tks_legacy_cmd_threads_list (BaseSequentialStream *chp, int argc, char *argv[])
{
  TksLegacyBoard *legacy = the_board;

  (void) argv;
  if (!legacy_usage (chp, argc, "threads_list"))
    return;
  for (guint i = 0; i < legacy->live->len; i++)
    {
      const LegacyThread *t = &g_array_index (legacy->live, LegacyThread, i);

      chprintf (chp, LEGACY_LIST_FORMAT, (int) i + 1, t->priority, t->logged ? "Yes" : "No",
                t->name);
    }
  chprintf (chp, "Deleted threads: \r\n");
  for (guint i = 0; i < legacy->deleted_count; i++)
    {
      const LegacyThread *t = &legacy->deleted[(legacy->deleted_first + i) % LEGACY_MAX_DELETED];

      chprintf (chp, LEGACY_LIST_FORMAT, t->number, t->priority, t->logged ? "Yes" : "No",
                t->name);
    }
}

void
tks_legacy_cmd_threads_timestamps (BaseSequentialStream *chp, int argc, char *argv[])
{
  TksLegacyBoard *legacy = the_board;
  guint pos;

  (void) argv;
  if (!legacy_usage (chp, argc, "threads_timestamps"))
    return;
  if (legacy->triggered)
    chprintf (chp, "Triggered at %7d\r\n", (int) legacy->trigger_time);
  pos = (legacy->head + legacy->log_size - legacy->count) % legacy->log_size;
  for (guint i = 0; i < legacy->count; i++)
    {
      guint32 record = legacy->log[pos];

      chprintf (chp, "From %2d to %2d at %7d\r\n", (int) ((record >> 6) & 0x3FU),
                (int) (record & 0x3FU), (int) (record >> 12));
      pos = (pos + 1) % legacy->log_size;
    }
}

void
tks_legacy_cmd_threads_timestamps_trigger (BaseSequentialStream *chp, int argc, char *argv[])
{
  TksLegacyBoard *legacy = the_board;

  (void) argv;
  if (!legacy_usage (chp, argc, "threads_timestamps_trigger"))
    return;
  tks_legacy_trigger (legacy, "Shell command", (guint32) chVTGetSystemTimeX ());
  chprintf (chp, "Trigger set by %s at %7d\r\n", legacy->trigger_name, (int) legacy->trigger_time);
}

void
tks_legacy_cmd_threads_timestamps_run (BaseSequentialStream *chp, int argc, char *argv[])
{
  TksLegacyBoard *legacy = the_board;

  (void) argv;
  if (!legacy_usage (chp, argc, "threads_timestamps_run"))
    return;
  legacy->triggered = FALSE;
  legacy->frozen = FALSE;
  legacy->trigger_name = NULL;
  legacy->trigger_time = 0;
  legacy->head = 0;
  legacy->count = 0;
  legacy->deleted_first = 0;
  legacy->deleted_count = 0;
  chprintf (chp, "Run mode\r\n");
}
