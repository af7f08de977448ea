/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A thread's colour follows from what it is, not from where it stands: its name and priority
 * choose one of TKS_THREAD_N_COLORS, so that a sort, a new fetch of the same board or the
 * next stretch of a recording draws it alike. Two identities that choose the same colour are
 * told apart: the one of higher priority (then the smaller name) keeps it, the other takes
 * the next free one on a path of its own, so a capture of up to TKS_THREAD_N_COLORS
 * identities has no two alike, and a new thread seldom moves another's colour.
 * Threads of one identity (jobs created again under the same name) share their colour. The
 * idle thread is drawn quiet.
 */
#include "config.h"

#include <string.h>

#include "tks-capture-private.h"

typedef struct
{
  const char *name;
  int         priority;
  guint32     hash;
  guint       color;
} Identity;

/* FNV-1a over the name and the priority: the same on every machine and in every release. */
static guint32
identity_hash (const char *name,
               int         priority)
{
  guint32 h = 2166136261u;

  for (const unsigned char *p = (const unsigned char *) name; *p != '\0'; p++)
    h = (h ^ *p) * 16777619u;
  for (guint i = 0; i < 4; i++)
    h = (h ^ ((guint32) priority >> (8 * i) & 0xffu)) * 16777619u;
  return h;
}

/* Higher priority first, then by name: the order in which identities choose. */
static int
compare_identities (gconstpointer a,
                    gconstpointer b)
{
  const Identity *ia = a, *ib = b;

  if (ia->priority != ib->priority)
    return ia->priority > ib->priority ? -1 : 1;
  return strcmp (ia->name, ib->name);
}

static gboolean
is_idle (const TksThread *thread,
         const char      *name)
{
  return strcmp (name, "idle") == 0 && !(thread->flags & TKS_THREAD_NOT_LISTED);
}

void
tks_capture_assign_colors (TksCapture *self)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (Identity));
  gboolean taken[TKS_THREAD_N_COLORS] = { FALSE };
  guint n_taken = 0;

  /* the distinct identities, in order */
  for (guint t = 0; t < self->n_threads; t++)
    {
      const char *name = self->names[t] != NULL ? self->names[t] : "";
      Identity id = { name, self->threads[t].priority, 0, 0 };

      if (!is_idle (&self->threads[t], name))
        g_array_append_val (ids, id);
    }
  g_array_sort (ids, compare_identities);
  {
    guint n = 0;

    for (guint i = 0; i < ids->len; i++)
      if (n == 0 || compare_identities (&g_array_index (ids, Identity, n - 1),
                                        &g_array_index (ids, Identity, i)) != 0)
        {
          g_array_index (ids, Identity, n) = g_array_index (ids, Identity, i);
          g_array_index (ids, Identity, n).hash = identity_hash (g_array_index (ids, Identity, n).name,
                                                                 g_array_index (ids, Identity, n).priority);
          n++;
        }
    g_array_set_size (ids, n);
  }

  for (guint i = 0; i < ids->len; i++)
    {
      /* steps prime to the palette's size, so that each visits every colour */
      static const guint steps[] = { 1, 5, 7, 11, 13, 17, 19, 23 };
      Identity *id = &g_array_index (ids, Identity, i);
      guint color = id->hash % TKS_THREAD_N_COLORS;
      guint step = steps[id->hash / TKS_THREAD_N_COLORS % G_N_ELEMENTS (steps)];

      /* the next free colour on its own path, while there is one (paths of their own keep a
       * newcomer from moving a run of others) */
      for (guint k = 0; k < TKS_THREAD_N_COLORS && n_taken < TKS_THREAD_N_COLORS && taken[color]; k++)
        color = (color + step) % TKS_THREAD_N_COLORS;
      n_taken += !taken[color];
      taken[color] = TRUE;
      id->color = color;
    }

  for (guint t = 0; t < self->n_threads; t++)
    {
      const char *name = self->names[t] != NULL ? self->names[t] : "";
      Identity key = { name, self->threads[t].priority, 0, 0 };
      const Identity *found;

      if (is_idle (&self->threads[t], name))
        {
          self->threads[t].color = TKS_THREAD_COLOR_IDLE;
          continue;
        }
      found = bsearch (&key, ids->data, ids->len, sizeof (Identity), compare_identities);
      self->threads[t].color = found != NULL ? found->color : 0;
    }
}
