/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "ch.h"
#include "hal.h"

/*
 * The builds of the board library the simulated board can run (tks-simboard-mcu-names.h):
 * with every event option, answering dump version 2, or with none, answering version 1 byte
 * for byte. The kernel's hooks and the board's calls (under the library's usual names, see
 * tks-simboard-mcu.c) go to the build chosen by tks_simboard_mcu_use().
 */

typedef void (*TksMcuShellFunc) (BaseSequentialStream *chp, int argc, char *argv[]);

typedef struct
{
  const char     *name;
  TksMcuShellFunc func;
} TksMcuCommand;

typedef struct
{
  size_t  thread_size;          /* sizeof (thread_t) in this build: the same in every build */
  int     dump_version;
  /* Kernel hooks */
  uint8_t (*thread_log_setting) (void);
  void    (*thread_init_hook) (void *tp);
  void    (*thread_exit_hook) (void *tp);
  void    (*context_switch_hook) (void *ntp, void *otp);
  void    (*irq_enter_hook) (uint8_t *id, const char *name);
  void    (*irq_leave_hook) (void);
  void    (*idle_enter_hook) (void);
  void    (*idle_leave_hook) (void);
  void    (*thread_ready_hook) (void *tp);
  /* Calls of the board's code */
  void    (*log_next_created_threads) (void);
  void    (*dont_log_next_created_threads) (void);
  const char *(*set_trigger) (const char *name);
  void    (*reset_state) (void);
  uint8_t (*register_marker) (const char *name);
  uint8_t (*register_channel) (const char *name);
  uint8_t (*register_state) (const char *name);
  void    (*marker) (uint8_t marker, uint32_t value);
  void    (*state_begin) (uint8_t channel, uint8_t state);
  void    (*state_end) (uint8_t channel);
  TksMcuShellFunc cmd_threads_stat;
  TksMcuShellFunc cmd_threads_uc;
  /* threads_record, driven by the board's own loop (tuRecordBegin, tuRecordPoll) */
  int     (*record_begin) (BaseSequentialStream *out, int events);
  int     (*record_poll) (BaseSequentialStream *out, const uint8_t *input, size_t n);
  /* The shell commands of this build (THREADS_UTILITIES_SHELL_CMD), NULL-terminated */
  const TksMcuCommand *commands;
} TksMcuLib;

extern const TksMcuLib tks_mcu_events_lib;  /* every event option: dump version 2 */
extern const TksMcuLib tks_mcu_plain_lib;   /* no event option: dump version 1 */
/* The same two on a kernel whose system time has 16 bits (CH_CFG_ST_RESOLUTION 16) */
extern const TksMcuLib tks_mcu_events16_lib;
extern const TksMcuLib tks_mcu_plain16_lib;

/* The build the kernel hooks and the library calls reach from now on (the events build until
 * set). Only between boards: the library's state is its own in each build. */
void                 tks_simboard_mcu_use (const TksMcuLib *lib);
const TksMcuLib     *tks_simboard_mcu_get (void);
