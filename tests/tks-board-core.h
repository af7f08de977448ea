/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * What the scripted test boards share (tks-test-board.c, tks-hostile-board.c): a thread that
 * serves one end of a socket or a pty master, reads what the host sends, gathers it into the
 * command lines a ChibiOS shell reads (printable bytes up to a CR), and hands each line to the
 * board's script. A board embeds a TksBoardCore first in its own struct, sets its fd and its
 * functions, then calls tks_board_core_start().
 */

typedef struct _TksBoardCore TksBoardCore;

struct _TksBoardCore
{
  int          fd;
  gsize        max_line;      /* bytes of a line kept (the rest is dropped), 0: all */
  gboolean     wait_on_eio;   /* a pty master whose other side is not open (yet, or any
                                 more) reads EIO: wait for it rather than end */
  gboolean     close_at_end;  /* close the fd when the link ends, not at the stop */
  /* Before the first read (a banner): FALSE ends the link. */
  gboolean   (*greet) (TksBoardCore *core);
  /* Each read as it comes, before it is cut into lines: TRUE when the board took it (it is
   * not read as lines). */
  gboolean   (*bytes) (TksBoardCore *core,
                       const char   *buf,
                       gsize         n);
  /* A line the host ended with CR (without it): FALSE ends the link. */
  gboolean   (*line)  (TksBoardCore *core,
                       const char   *line);
  gint         stop;          /* atomic */
  GThread     *thread;
};

void      tks_board_core_start    (TksBoardCore *core,
                                   const char   *name);
/* Whether tks_board_core_stop() was called: endless replies look at it. */
gboolean  tks_board_core_stopping (TksBoardCore *core);
/* Stops the thread and waits for it; closes the fd unless the link's end did. */
void      tks_board_core_stop     (TksBoardCore *core);

G_END_DECLS
