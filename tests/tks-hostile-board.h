/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * A board that turns hostile on one command: a ChibiOS shell with the legacy library (four
 * threads, a 3000-record log) serving one end of a TCP connection or a pty master through a
 * thread. It answers every command as a real board does, except @target, which, after
 * @good_replies good answers, gets the reply of @mode. Its help lists threads_dump only when
 * that is @target. The endless replies go on until the
 * other side sends something (the shell's "\r\n" that asks for a fresh prompt), the board is
 * stopped, or they pass @max_bytes.
 */

typedef enum
{
  TKS_HOSTILE_NONE,             /* a good reply */
  TKS_HOSTILE_NO_PROMPT,        /* the reply without its prompt, then silence */
  TKS_HOSTILE_ENDLESS_LINE,     /* one line that never ends */
  TKS_HOSTILE_ENDLESS,          /* the reply's lines over and over: valid records (after the
                                 * head of a dump announcing 10 records for threads_dump), help
                                 * lines */
  TKS_HOSTILE_MID_PROMPT,       /* "ch> " at the start of a line in the middle of the reply,
                                 * the rest in a write of its own */
  TKS_HOSTILE_NUL_DAMAGE,       /* 20 lines of the reply with a NUL byte in them */
  TKS_HOSTILE_TRICKLE,          /* the reply's lines over and over, one byte every 100 ms */
  TKS_HOSTILE_MID_PROMPT_PAUSE, /* as TKS_HOSTILE_MID_PROMPT, the rest 0.5 s after the prompt:
                                 * the prompt looks like the reply's end */
  TKS_HOSTILE_STEADY,           /* as TKS_HOSTILE_ENDLESS, 4 KiB a millisecond: never silent,
                                 * never faster than memory can follow for seconds */
} TksHostileMode;

typedef struct _TksHostileBoard TksHostileBoard;

/* Takes @fd. */
TksHostileBoard *tks_hostile_board_start     (int              fd,
                                              TksHostileMode   mode,
                                              const char      *target,
                                              guint            good_replies,
                                              guint64          max_bytes);
/* Bytes sent so far. */
guint64          tks_hostile_board_get_sent  (TksHostileBoard *board);
/* The good reply to @command (without echo and prompt), as this board sends it. */
char            *tks_hostile_board_reply     (const char      *command);
/* Closes the board's end and waits for its thread. */
void             tks_hostile_board_stop      (TksHostileBoard *board);

TksHostileMode   tks_hostile_mode_from_string (const char     *name);

G_END_DECLS
