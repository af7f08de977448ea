/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * @file    workload.c
 * @brief   The threads the real-kernel tests record.
 * @details Built into ChibiOS/RT 5, 6 and 7, with Tickscope's mcu-lib (any options), with
 *          the original threads_utilities_ChibiOS, which has no event API, or with no library
 *          (RK_NO_LIBRARY: the firmware's size without one).
 */

#include "workload.h"
#if !defined(RK_NO_LIBRARY)
#include "threads_utilities.h"
#endif

/* mcu-lib's configuration header defines TU_EVENTS, the original's does not. */
#if defined(TU_EVENTS)
#define WL_EVENT_API    TRUE
#else
#define WL_EVENT_API    FALSE
#endif

/**
 * @brief   The board library's shell commands (none in a firmware without it).
 */
const ShellCommand wlCommands[] = {
#if !defined(RK_NO_LIBRARY)
  THREADS_UTILITIES_SHELL_CMD
#endif
  {NULL, NULL}
};

#if WL_EVENT_API
static tuname_t wl_sample, wl_beat, wl_control, wl_compute, wl_filter;
#endif

static semaphore_t wl_data;

/**
 * @brief   Keeps the CPU busy for @p us microseconds of the realtime counter.
 * @note    Bounded in iterations too: a counter that does not run (an emulator without
 *          one) does not hang the thread.
 *
 * @param[in] us        microseconds
 *
 * @notapi
 */
static void wl_busy_us(uint32_t us) {
  rtcnt_t start = chSysGetRealtimeCounterX();
  rtcnt_t span = (rtcnt_t)(((uint64_t)WL_COUNTER_HZ * us) / 1000000U);
  uint32_t guard = 0U;

  while (((rtcnt_t)(chSysGetRealtimeCounterX() - start) < span) && (guard < 2000000U)) {
    guard++;
  }
}

/*===========================================================================*/
/* Periodic threads.                                                         */
/*===========================================================================*/

/*
 * "sensor": every 5 ms a sample (a marker with its number); every fifth sample wakes
 * "consumer" through a semaphore (a wake-up from another thread).
 */
static THD_WORKING_AREA(wa_sensor, 1024);
static THD_FUNCTION(wl_sensor, arg) {
  systime_t t;
  uint32_t n = 0U;

  (void)arg;
  chRegSetThreadName("sensor");
  t = chVTGetSystemTimeX();
  while (true) {
    t = chThdSleepUntilWindowed(t, chTimeAddX(t, TIME_MS2I(WL_SENSOR_PERIOD_MS)));
    wl_busy_us(30U);
#if WL_EVENT_API
    tuMarker(wl_sample, n);
#endif
    n++;
    if ((n % 5U) == 0U) {
      chSemSignal(&wl_data);
    }
  }
}

/*
 * "consumer": waits for the sensor's data.
 */
static THD_WORKING_AREA(wa_consumer, 1024);
static THD_FUNCTION(wl_consumer, arg) {

  (void)arg;
  chRegSetThreadName("consumer");
  while (true) {
    (void)chSemWait(&wl_data);
    wl_busy_us(20U);
  }
}

/*
 * "control": every 10 ms a computation of 200 us (state "compute" on channel "control"),
 * every fourth one with a filter step nested in it.
 */
static THD_WORKING_AREA(wa_control, 1024);
static THD_FUNCTION(wl_control_thread, arg) {
  systime_t t;
  uint32_t n = 0U;

  (void)arg;
  chRegSetThreadName("control");
  t = chVTGetSystemTimeX();
  while (true) {
    t = chThdSleepUntilWindowed(t, chTimeAddX(t, TIME_MS2I(WL_CONTROL_PERIOD_MS)));
#if WL_EVENT_API
    tuStateBegin(wl_control, wl_compute);
#endif
    wl_busy_us(150U);
    if ((n++ % 4U) == 0U) {
#if WL_EVENT_API
      tuStateBegin(wl_control, wl_filter);
#endif
      wl_busy_us(50U);
#if WL_EVENT_API
      tuStateEnd(wl_control);
#endif
    }
#if WL_EVENT_API
    tuStateEnd(wl_control);
#endif
  }
}

/*
 * "beat": every 50 ms a marker "beat" counting 0..9.
 */
static THD_WORKING_AREA(wa_beat, 1024);
static THD_FUNCTION(wl_beat_thread, arg) {
  uint32_t n = 0U;

  (void)arg;
  chRegSetThreadName("beat");
  while (true) {
    chThdSleepMilliseconds(WL_BEAT_PERIOD_MS);
#if WL_EVENT_API
    tuMarker(wl_beat, n % 10U);
#endif
    n++;
  }
}

/*===========================================================================*/
/* Threads that exit.                                                        */
/*===========================================================================*/

#define WL_JOB_STACK    1024
#define WL_POOL_JOBS    2

typedef struct {
  THD_WORKING_AREA(wa, WL_JOB_STACK);
} wl_pool_wa_t;

static memory_pool_t wl_pool;
static wl_pool_wa_t wl_pool_was[WL_POOL_JOBS];
static THD_WORKING_AREA(wa_job_static, WL_JOB_STACK);

/*
 * A job: sleeps the milliseconds it is given, works a little, exits.
 */
static THD_FUNCTION(wl_job, arg) {
  uint32_t ms = (uint32_t)(uintptr_t)arg;

  chThdSleepMilliseconds(ms);
  wl_busy_us(20U);
  chThdExit((msg_t)ms);
}

/*
 * "spawner": every 20 ms a job that lives 1 to 9 ms, in turn from the heap ("job-heap",
 * above the spawner), from the memory pool ("job-pool", below it) and from a static working
 * area ("job-static"); waits for it to end.
 */
static THD_WORKING_AREA(wa_spawner, 1024);
static THD_FUNCTION(wl_spawner, arg) {
  uint32_t n = 0U;

  (void)arg;
  chRegSetThreadName("spawner");
  while (true) {
    thread_t *tp = NULL;
    void *ms = (void *)(uintptr_t)(1U + (n * 7U) % 9U);

    chThdSleepMilliseconds(WL_SPAWN_PERIOD_MS);
    switch (n++ % 3U) {
    case 0:
      tp = chThdCreateFromHeap(NULL, THD_WORKING_AREA_SIZE(WL_JOB_STACK), "job-heap",
                               NORMALPRIO + 5, wl_job, ms);
      break;
    case 1:
      tp = chThdCreateFromMemoryPool(&wl_pool, "job-pool", NORMALPRIO + 1, wl_job, ms);
      break;
    default: {
      thread_descriptor_t td = {
        .name = "job-static",
        .wbase = wa_job_static,
        .wend = THD_WORKING_AREA_END(wa_job_static),
        .prio = NORMALPRIO + 4,
        .funcp = wl_job,
        .arg = ms
      };
      tp = chThdCreate(&td);
      break;
    }
    }
    if (tp != NULL) {
      (void)chThdWait(tp);
    }
  }
}

/**
 * @brief   Registers the event names and starts the threads.
 * @note    Called from the main thread after chSysInit().
 */
void wlStart(void) {

#if WL_EVENT_API
  wl_sample = tuRegisterMarker("sample");
  wl_beat = tuRegisterMarker("beat");
  wl_control = tuRegisterChannel("control");
  wl_compute = tuRegisterState("compute");
  wl_filter = tuRegisterState("filter");
#endif
  chSemObjectInit(&wl_data, 0);
  chPoolObjectInit(&wl_pool, sizeof(wl_pool_wa_t), NULL);
  chPoolLoadArray(&wl_pool, wl_pool_was, WL_POOL_JOBS);

  (void)chThdCreateStatic(wa_sensor, sizeof(wa_sensor), NORMALPRIO + 6, wl_sensor, NULL);
  (void)chThdCreateStatic(wa_control, sizeof(wa_control), NORMALPRIO + 3, wl_control_thread,
                          NULL);
  (void)chThdCreateStatic(wa_consumer, sizeof(wa_consumer), NORMALPRIO + 2, wl_consumer, NULL);
  (void)chThdCreateStatic(wa_beat, sizeof(wa_beat), NORMALPRIO + 1, wl_beat_thread, NULL);
  (void)chThdCreateStatic(wa_spawner, sizeof(wa_spawner), NORMALPRIO + 2, wl_spawner, NULL);
}
