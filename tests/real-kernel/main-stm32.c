/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * @file    main-stm32.c
 * @brief   The workload on the STM32F4-Discovery: its shell on SD2 (USART2, PA2/PA3).
 */

#include "ch.h"
#include "hal.h"
#include "shell.h"

#include "workload.h"

#define SHELL_WA_SIZE       THD_WORKING_AREA_SIZE(2048)

static const ShellConfig shell_cfg = {
  (BaseSequentialStream *)&SD2,
  wlCommands
};

/*
 * Application entry point.
 */
int main(void) {

  halInit();
  chSysInit();

  sdStart(&SD2, NULL);
  palSetPadMode(GPIOA, 2, PAL_MODE_ALTERNATE(7));
  palSetPadMode(GPIOA, 3, PAL_MODE_ALTERNATE(7));

  shellInit();
  wlStart();

  /* The shell again whenever it ends. */
  while (true) {
    thread_t *shelltp = chThdCreateFromHeap(NULL, SHELL_WA_SIZE, "shell", NORMALPRIO + 10,
                                            shellThread, (void *)&shell_cfg);
    if (shelltp != NULL) {
      (void)chThdWait(shelltp);
    }
    chThdSleepMilliseconds(100);
  }
}
