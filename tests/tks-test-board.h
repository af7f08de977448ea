/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * A peer for tests: plays back the bytes a real board sent (the .raw.txt files in tests/data) on one end
 * of a socketpair or on a pty master, answering each command line with the board's recorded
 * reply, through a thread. Faults can be injected.
 */

typedef enum
{
  TKS_TEST_BOARD_NORMAL,
  TKS_TEST_BOARD_SILENT,       /* reads, never answers */
  TKS_TEST_BOARD_GARBAGE,      /* answers everything with bytes at the wrong baud rate */
  TKS_TEST_BOARD_CLOSE_AFTER,  /* closes the link after fault_after bytes of a reply */
  TKS_TEST_BOARD_RESET_AFTER,  /* prints its boot banner after fault_after bytes of a reply */
  TKS_TEST_BOARD_STALL_AFTER,  /* stops sending after fault_after bytes of a reply */
  TKS_TEST_BOARD_NOISE_FIRST,  /* sends noise (no line end) on connect, then works */
  TKS_TEST_BOARD_DEAF_AFTER,   /* after fault_after bytes of a reply, a heartbeat line every
                                * 20 ms, whatever comes (a recording that never stops) */
} TksTestBoardMode;

typedef struct _TksTestBoard TksTestBoard;

/* Takes @fd. @fixture is a file name under tests/data. */
TksTestBoard *tks_test_board_start (const char       *fixture,
                                    int               fd,
                                    TksTestBoardMode  mode,
                                    gsize             fault_after,
                                    gsize             chunk);
/* The recorded reply to the @nth (0-based) occurrence of @command, without echo and prompt. */
const char   *tks_test_board_reply (TksTestBoard     *board,
                                    const char       *command,
                                    guint             nth,
                                    gsize            *len);
/* Closes the board's end and waits for its thread. */
void          tks_test_board_stop  (TksTestBoard     *board);

G_END_DECLS
