/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The simulated board carries two builds of the board library: with every event option
 * (dump version 2) and with none (dump version 1, byte for byte the library a board without
 * the options runs). Each build is compiled with this file included first and its own
 * TKS_MCU_PREFIX, so that the public names of the library get a prefix of their own; the
 * board then reaches the build it runs through tks-simboard-mcu.c, which keeps the names a
 * kernel and an application call. A name missing here makes the link fail (defined twice).
 */
#ifndef TKS_SIMBOARD_MCU_NAMES_H
#define TKS_SIMBOARD_MCU_NAMES_H

#ifndef TKS_MCU_PREFIX
#error "TKS_MCU_PREFIX names the build of the library"
#endif

#define TKS_MCU_CAT_(a, b) a##b
#define TKS_MCU_CAT(a, b) TKS_MCU_CAT_ (a, b)
#define TKS_MCU_NAME(name) TKS_MCU_CAT (TKS_MCU_PREFIX, name)
/* The names the library's files share (mcu-lib/tu_internal_names.h). */
#define TU_INTERNAL_PREFIX TKS_MCU_PREFIX

#define tuCmdThreadsDump                 TKS_MCU_NAME (tuCmdThreadsDump)
#define tuCmdThreadsDumpCompact          TKS_MCU_NAME (tuCmdThreadsDumpCompact)
#define tuCmdThreadsList                 TKS_MCU_NAME (tuCmdThreadsList)
#define tuCmdThreadsRecord               TKS_MCU_NAME (tuCmdThreadsRecord)
#define tuCmdThreadsStat                 TKS_MCU_NAME (tuCmdThreadsStat)
#define tuCmdThreadsTimestamps           TKS_MCU_NAME (tuCmdThreadsTimestamps)
#define tuCmdThreadsTimestampsRun        TKS_MCU_NAME (tuCmdThreadsTimestampsRun)
#define tuCmdThreadsTimestampsTrigger    TKS_MCU_NAME (tuCmdThreadsTimestampsTrigger)
#define tuCmdThreadsTriggerWhen          TKS_MCU_NAME (tuCmdThreadsTriggerWhen)
#define tuCmdThreadsUc                   TKS_MCU_NAME (tuCmdThreadsUc)
#define tuContextSwitchHook              TKS_MCU_NAME (tuContextSwitchHook)
#define tuDontLogNextCreatedThreads      TKS_MCU_NAME (tuDontLogNextCreatedThreads)
#define tuDontLogThisThread              TKS_MCU_NAME (tuDontLogThisThread)
#define tuIdleEnterHook                  TKS_MCU_NAME (tuIdleEnterHook)
#define tuIdleLeaveHook                  TKS_MCU_NAME (tuIdleLeaveHook)
#define tuIrqEnterHook                   TKS_MCU_NAME (tuIrqEnterHook)
#define tuIrqIgnore                      TKS_MCU_NAME (tuIrqIgnore)
#define tuIrqLeaveHook                   TKS_MCU_NAME (tuIrqLeaveHook)
#define tuLogNextCreatedThreads          TKS_MCU_NAME (tuLogNextCreatedThreads)
#define tuLogThisThread                  TKS_MCU_NAME (tuLogThisThread)
#define tuMarker                         TKS_MCU_NAME (tuMarker)
#define tuMarkerI                        TKS_MCU_NAME (tuMarkerI)
#define tuPrintDump                      TKS_MCU_NAME (tuPrintDump)
#define tuPrintDumpCompact               TKS_MCU_NAME (tuPrintDumpCompact)
#define tuPrintListThreads               TKS_MCU_NAME (tuPrintListThreads)
#define tuPrintStatThreads               TKS_MCU_NAME (tuPrintStatThreads)
#define tuPrintTimestamps                TKS_MCU_NAME (tuPrintTimestamps)
#define tuPrintUcUsage                   TKS_MCU_NAME (tuPrintUcUsage)
#define tuRecordBegin                    TKS_MCU_NAME (tuRecordBegin)
#define tuRecordPoll                     TKS_MCU_NAME (tuRecordPoll)
#define tuRecordPollMs                   TKS_MCU_NAME (tuRecordPollMs)
#define tuRegisterChannel                TKS_MCU_NAME (tuRegisterChannel)
#define tuReplayEntry                    TKS_MCU_NAME (tuReplayEntry)
#define tuRegisterChannelI               TKS_MCU_NAME (tuRegisterChannelI)
#define tuRegisterMarker                 TKS_MCU_NAME (tuRegisterMarker)
#define tuRegisterMarkerI                TKS_MCU_NAME (tuRegisterMarkerI)
#define tuRegisterState                  TKS_MCU_NAME (tuRegisterState)
#define tuRegisterStateI                 TKS_MCU_NAME (tuRegisterStateI)
#define tuResetState                     TKS_MCU_NAME (tuResetState)
#define tuResetTrigger                   TKS_MCU_NAME (tuResetTrigger)
#define tuResetTriggerI                  TKS_MCU_NAME (tuResetTriggerI)
#define tuSetTrigger                     TKS_MCU_NAME (tuSetTrigger)
#define tuSetTriggerI                    TKS_MCU_NAME (tuSetTriggerI)
#define tuStateBegin                     TKS_MCU_NAME (tuStateBegin)
#define tuStateBeginI                    TKS_MCU_NAME (tuStateBeginI)
#define tuStateEnd                       TKS_MCU_NAME (tuStateEnd)
#define tuStateEndI                      TKS_MCU_NAME (tuStateEndI)
#define tuThreadExitHook                 TKS_MCU_NAME (tuThreadExitHook)
#define tuThreadInitHook                 TKS_MCU_NAME (tuThreadInitHook)
#define tuThreadLogSetting               TKS_MCU_NAME (tuThreadLogSetting)
#define tuThreadReadyHook                TKS_MCU_NAME (tuThreadReadyHook)
#define tuTriggerWhen                    TKS_MCU_NAME (tuTriggerWhen)

#endif /* TKS_SIMBOARD_MCU_NAMES_H */
