/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * One build of the board library as the simulated board reaches it: compiled once per build,
 * with tks-simboard-mcu-names.h included first and TKS_MCU_LIB naming the table.
 */
#include "threads_utilities.h"

#include "tks-simboard-mcu.h"

static const TksMcuCommand commands[] = {
  THREADS_UTILITIES_SHELL_CMD
  { NULL, NULL },
};

const TksMcuLib TKS_MCU_LIB = {
  sizeof (thread_t),
  THREADS_UTILITIES_DUMP_VERSION,
  tuThreadLogSetting,
  tuThreadInitHook,
  tuThreadExitHook,
  tuContextSwitchHook,
  tuIrqEnterHook,
  tuIrqLeaveHook,
  tuIdleEnterHook,
  tuIdleLeaveHook,
  tuThreadReadyHook,
  tuLogNextCreatedThreads,
  tuDontLogNextCreatedThreads,
  tuSetTrigger,
  tuResetState,
  tuRegisterMarker,
  tuRegisterChannel,
  tuRegisterState,
  tuMarker,
  tuStateBegin,
  tuStateEnd,
  tuCmdThreadsStat,
  tuCmdThreadsUc,
  tuRecordBegin,
  tuRecordPoll,
  commands,
};
