/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A BaseSequentialStream that collects what the library prints (host tests only). */
#pragma once

#include <glib.h>

#include "ch.h"
#include "hal.h"

typedef struct
{
  BaseSequentialStream base;
  GString *text;
  /* Called after each write, outside the system lock, like code running between two
   * chprintf() calls while a shell command prints. */
  void (*on_write) (gpointer data);
  gpointer on_write_data;
} HostStream;

static inline size_t
host_stream_write (void *ip, const uint8_t *bp, size_t n)
{
  HostStream *self = ip;

  g_string_append_len (self->text, (const char *) bp, (gssize) n);
  if (self->on_write != NULL)
    self->on_write (self->on_write_data);
  return n;
}

static const struct BaseSequentialStreamVMT host_stream_vmt = { host_stream_write, NULL };

static inline void
host_stream_init (HostStream *self)
{
  self->base.vmt = &host_stream_vmt;
  self->text = g_string_new (NULL);
  self->on_write = NULL;
  self->on_write_data = NULL;
}

static inline char *
host_stream_steal (HostStream *self)
{
  return g_string_free (g_steal_pointer (&self->text), FALSE);
}

/* Runs a shell command function and returns what it printed. */
static inline char *
host_run (void (*cmd) (BaseSequentialStream *, int, char *[]), int argc, char *argv[])
{
  HostStream stream;

  host_stream_init (&stream);
  cmd (&stream.base, argc, argv);
  return host_stream_steal (&stream);
}
