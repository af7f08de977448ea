/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The simulated board's ground truth as CSV, in the columns of Tickscope's CSV export:
 *   kind,thread,priority,creation_order,begin,end,value
 * kind is create, run, exit, running (the run going on when the board stopped), or one of the
 * events beyond the switches: irq (thread: the handler's name; value: its nesting depth, 1
 * when it interrupted a thread), wakeup (begin: made ready, end: switched in), marker
 * (thread: its name, begin = end, value: its value), state (thread: "channel: state"; value:
 * its depth on the channel, from 1) and sleep (thread: the handler that ran first while the
 * CPU slept, empty when none). Those have no priority nor creation order, except wakeup.
 * After each wakeup row come what made it ready, a waker row (thread: the handler under way,
 * else the running thread; priority and creation order: the thread's, empty for a handler;
 * begin = end: made ready), then what held the CPU while it waited, a cause row each (thread:
 * the handler's or the thread's name; priority and creation order as for waker; begin, end:
 * the wake-up's; value: the CPU cycles it held, 1000 a tick, a handler's own without those of
 * the handlers nested in it), in the order each first held it.
 * Begin and end are ticks with the cycles of the tick as a fraction (three decimals). Rows
 * are written as the board runs, in the order things end (a run's row when it ends).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <gio/gio.h>

#include "tks-simboard-private.h"

#define TRUTH_FLUSH_US 50000

struct _TksTruthWriter
{
  FILE   *file;
  char   *display;
  gint64  flushed_us;
};

static const char * const truth_kinds[] = {
  "create", "run", "exit", "running", "irq", "wakeup", "marker", "state", "sleep",
};

TksTruthWriter *
tks_truth_writer_open (const char *path, GError **error)
{
  TksTruthWriter *w;
  FILE *file = fopen (path, "w");

  if (file == NULL)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "Cannot write the truth to %s: %s", path, g_strerror (saved));
      return NULL;
    }
  w = g_new0 (TksTruthWriter, 1);
  w->file = file;
  w->display = g_filename_display_name (path);
  fputs ("kind,thread,priority,creation_order,begin,end,value\r\n", file);
  fflush (file);
  w->flushed_us = g_get_monotonic_time ();
  return w;
}

static void
put_field (FILE *file, const char *text)
{
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      fputs (text, file);
      return;
    }
  fputc ('"', file);
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        fputc ('"', file);
      fputc (*p, file);
    }
  fputc ('"', file);
}

/* ",priority,creation_order" of a thread, ",," for a handler (G_MAXUINT). */
static void
put_who (FILE *file, guint thread, int priority)
{
  if (thread != G_MAXUINT)
    fprintf (file, ",%d,%u", priority, thread);
  else
    fputs (",,", file);
}

void
tks_truth_writer_write (const TksTruthEvent *event, gpointer user_data)
{
  TksTruthWriter *w = user_data;
  char begin[G_ASCII_DTOSTR_BUF_SIZE], end[G_ASCII_DTOSTR_BUF_SIZE];
  gint64 now;

  if ((guint) event->kind >= G_N_ELEMENTS (truth_kinds))
    return;
  fputs (truth_kinds[event->kind], w->file);
  fputc (',', w->file);
  put_field (w->file, event->name);
  if (event->thread != G_MAXUINT)
    fprintf (w->file, ",%d,%u", event->priority, event->thread);
  else
    fputs (",,", w->file);
  fprintf (w->file, ",%s,%s,",
           g_ascii_formatd (begin, sizeof begin, "%.3f", event->begin),
           g_ascii_formatd (end, sizeof end, "%.3f", event->end));
  if (event->kind == TKS_TRUTH_IRQ || event->kind == TKS_TRUTH_STATE)
    fprintf (w->file, "%u", event->depth);
  else if (event->kind == TKS_TRUTH_MARKER)
    fprintf (w->file, "%" G_GUINT32_FORMAT, event->value);
  fputs ("\r\n", w->file);
  if (event->kind == TKS_TRUTH_WAKEUP && event->waker != NULL)
    {
      fputs ("waker,", w->file);
      put_field (w->file, event->waker);
      put_who (w->file, event->waker_thread, event->waker_priority);
      fprintf (w->file, ",%s,%s,\r\n", begin, begin);
      for (guint i = 0; i < event->n_causes; i++)
        {
          const TksTruthCause *c = &event->causes[i];

          fputs ("cause,", w->file);
          put_field (w->file, c->name);
          put_who (w->file, c->thread, c->priority);
          fprintf (w->file, ",%s,%s,%" G_GUINT64_FORMAT "\r\n", begin, end, c->cycles);
        }
    }

  now = g_get_monotonic_time ();
  if (now - w->flushed_us >= TRUTH_FLUSH_US)
    {
      fflush (w->file);
      w->flushed_us = now;
    }
}

gboolean
tks_truth_writer_close (TksTruthWriter *w, GError **error)
{
  gboolean ok;
  int saved;

  if (w == NULL)
    return TRUE;
  ok = fflush (w->file) == 0 && !ferror (w->file);
  saved = errno;
  if (fclose (w->file) != 0 && ok)
    {
      ok = FALSE;
      saved = errno;
    }
  if (!ok)
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                 "Cannot write the truth to %s: %s", w->display, g_strerror (saved));
  g_free (w->display);
  g_free (w);
  return ok;
}
