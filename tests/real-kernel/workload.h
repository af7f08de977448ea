/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * @file    workload.h
 * @brief   The threads the real-kernel tests record, the same on every kernel and board.
 * @details Periodic threads at several priorities, a consumer woken by another thread,
 *          short jobs from the heap, from a memory pool and from a static working area that
 *          exit, and (with mcu-lib) markers and nested states. The host side checks these
 *          names and periods: tests/real-kernel/run-variant.py.
 */

#ifndef WORKLOAD_H
#define WORKLOAD_H

#include "ch.h"
#include "hal.h"
#include "shell.h"

#define WL_SENSOR_PERIOD_MS     5       /**< "sensor", marker "sample" each period */
#define WL_CONTROL_PERIOD_MS    10      /**< "control", state "compute" (200 us) */
#define WL_BEAT_PERIOD_MS       50      /**< "beat", marker "beat" (0..9) */
#define WL_SPAWN_PERIOD_MS      20      /**< "spawner": a job every period */

/**
 * @brief   Frequency of the realtime counter (busy loops are timed with it).
 */
#if !defined(WL_COUNTER_HZ)
#error "WL_COUNTER_HZ: the realtime counter's frequency (1000000 on the simulator)"
#endif

#ifdef __cplusplus
extern "C" {
#endif
  extern const ShellCommand wlCommands[];
  void wlStart(void);
#ifdef __cplusplus
}
#endif

#endif /* WORKLOAD_H */
