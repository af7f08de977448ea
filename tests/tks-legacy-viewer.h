/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * An independent model of the original Python viewer: what it parses, and which rectangles it
 * draws (docs/rebuild.md: creation order by inserting the deleted threads back at their number,
 * replay with renumbering, positional IN/OUT pairing; a run ends at the integer tick of the
 * record that ended it, and a run shorter than a tick is widened to 1/k of its tick).
 * It does not unwrap the tick, and like the original it fails (IndexError) when a record names
 * a thread number its working list does not have.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

typedef struct
{
  double begin;
  double width;
  int    begin_tick;   /* the ticks of its IN and OUT records */
  int    end_tick;
} LegacyRun;

typedef struct
{
  int  tick;
  int  kind; /* 0 in, 1 out, 2 exit */
  int  step;
  int  steps;
} LegacyEvent;

typedef struct
{
  int        number;
  int        priority;
  char      *name;
  gboolean   deleted;
  gboolean   logged;
  GArray    *events; /* LegacyEvent */
  GArray    *runs;   /* LegacyRun */
} LegacyThread;

static inline void
legacy_thread_free (gpointer data)
{
  LegacyThread *t = data;

  g_array_unref (t->events);
  g_array_unref (t->runs);
  g_free (t->name);
  g_free (t);
}

static inline LegacyThread *
legacy_parse_thread (const char *line, gboolean deleted)
{
  LegacyThread *t;
  const char *name;
  int nb, prio;
  char log[4] = "";

  if (sscanf (line, "Thread number %d : Prio = %d, Log = %3[ YesNo]", &nb, &prio, log) != 3)
    return NULL;
  name = strstr (line, ", Name = ");
  t = g_new0 (LegacyThread, 1);
  t->number = nb;
  t->priority = prio;
  t->name = g_strdup (name != NULL ? name + strlen (", Name = ") : "");
  t->deleted = deleted;
  t->logged = strstr (log, "Yes") != NULL;
  t->events = g_array_new (FALSE, FALSE, sizeof (LegacyEvent));
  t->runs = g_array_new (FALSE, FALSE, sizeof (LegacyRun));
  return t;
}

/* Positional pairing, as the original does. */
static inline void
legacy_pair_runs (LegacyThread *th)
{
  GArray *ev = th->events;

  if (!th->logged || ev->len == 0)
    return;
  if (g_array_index (ev, LegacyEvent, 0).kind == 1)
    {
      if (g_array_index (ev, LegacyEvent, 0).tick == 0)
        {
          LegacyEvent in = { 0, 0, 0, 1 };

          g_array_prepend_val (ev, in);
        }
      else
        g_array_remove_index (ev, 0);
    }
  if (ev->len % 2)
    g_array_set_size (ev, ev->len - 1);
  for (guint i = 0; i + 1 < ev->len; i += 2)
    {
      LegacyEvent *a = &g_array_index (ev, LegacyEvent, i);
      LegacyEvent *b = &g_array_index (ev, LegacyEvent, i + 1);
      double step = 1.0 / a->steps;
      double shift = a->step * step;
      LegacyRun run = { a->tick + shift, b->tick - a->tick - shift, a->tick, b->tick };

      if (run.width < 1)
        run.width = step;
      g_array_append_val (th->runs, run);
    }
}

/* Reads the last threads_list and the threads_timestamps after it in @contents, with sscanf
 * the way a reader of the format would, and rebuilds the original's rectangles. Returns the
 * threads in creation order, or NULL with *@failed set when the original would stop on the
 * input (a record names a thread it does not have). */
static inline GPtrArray *
legacy_viewer_rebuild (const char *contents,
                       gboolean   *failed)
{
  g_auto(GStrv) lines = g_strsplit (contents, "\n", -1);
  g_autoptr(GPtrArray) live = g_ptr_array_new ();
  g_autoptr(GPtrArray) deleted = g_ptr_array_new ();
  g_autoptr(GPtrArray) threads = g_ptr_array_new_with_free_func (legacy_thread_free);
  g_autoptr(GArray) records = g_array_new (FALSE, FALSE, sizeof (int) * 3);
  g_autoptr(GPtrArray) working = NULL;
  int last_list = -1, last_log = -1;
  gboolean in_deleted = FALSE;

  *failed = FALSE;
  /* The last threads_list, and the first threads_timestamps after it. */
  for (int i = 0; lines[i] != NULL; i++)
    {
      g_strchomp (lines[i]);
      if (g_str_has_suffix (lines[i], "threads_list"))
        last_list = i;
    }
  for (int i = MAX (last_list, 0); last_list >= 0 && lines[i] != NULL; i++)
    if (g_str_has_suffix (lines[i], "threads_timestamps") && i > last_list)
      {
        last_log = i;
        break;
      }
  if (last_list < 0 || last_log < 0)
    {
      *failed = TRUE;
      return NULL;
    }

  for (int i = last_list + 1; i < last_log && !g_str_has_prefix (lines[i], "ch>"); i++)
    {
      LegacyThread *t;

      if (g_str_has_prefix (lines[i], "Deleted threads:"))
        {
          in_deleted = TRUE;
          continue;
        }
      t = legacy_parse_thread (lines[i], in_deleted);
      if (t != NULL)
        {
          g_ptr_array_add (threads, t);   /* owns it */
          g_ptr_array_add (in_deleted ? deleted : live, t);
        }
    }
  for (int i = last_log + 1; lines[i] != NULL && !g_str_has_prefix (lines[i], "ch>"); i++)
    {
      int rec[3];

      if (sscanf (lines[i], "From %d to %d at %d", &rec[0], &rec[1], &rec[2]) == 3)
        g_array_append_val (records, rec);
    }

  /* Creation order: the deleted threads go back, last deleted first, at their number (a
   * Python list.insert past the end appends). */
  g_ptr_array_set_free_func (threads, NULL);
  g_ptr_array_set_size (threads, 0);
  g_ptr_array_set_free_func (threads, legacy_thread_free);
  for (guint i = 0; i < live->len; i++)
    g_ptr_array_add (threads, g_ptr_array_index (live, i));
  for (guint i = deleted->len; i > 0; i--)
    {
      LegacyThread *t = g_ptr_array_index (deleted, i - 1);

      g_ptr_array_insert (threads, CLAMP (t->number - 1, 0, (int) threads->len), t);
    }

  /* Replay with sub-tick steps. */
  working = g_ptr_array_copy (threads, NULL, NULL);
  g_ptr_array_set_free_func (working, NULL);
  for (guint i = 0; i < records->len && !*failed;)
    {
      int *r = &g_array_index (records, int, i * 3);
      guint j = i, k;

      while (j < records->len && g_array_index (records, int, j * 3 + 2) == r[2])
        j++;
      k = j - i;
      for (guint s = 0; s < k && !*failed; s++, i++)
        {
          int *rec = &g_array_index (records, int, i * 3);
          LegacyEvent ev = { rec[2], 0, (int) s, (int) k };

          if (rec[0] > (int) working->len || rec[1] > (int) working->len || rec[1] < 1)
            {
              *failed = TRUE;
              break;
            }
          if (rec[0] == rec[1])
            {
              LegacyThread *t = g_ptr_array_steal_index (working, rec[0] - 1);

              ev.kind = 2;
              g_array_append_val (t->events, ev);
              continue;
            }
          if (rec[0] != 0)
            {
              ev.kind = 1;
              g_array_append_val (((LegacyThread *) g_ptr_array_index (working, rec[0] - 1))->events, ev);
            }
          ev.kind = 0;
          g_array_append_val (((LegacyThread *) g_ptr_array_index (working, rec[1] - 1))->events, ev);
        }
    }
  if (*failed)
    return NULL;

  for (guint t = 0; t < threads->len; t++)
    legacy_pair_runs (g_ptr_array_index (threads, t));
  return g_steal_pointer (&threads);
}
