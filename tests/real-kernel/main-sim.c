/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * @file    main-sim.c
 * @brief   The workload on the RT-Posix simulator: its shell on SD1, a TCP port.
 * @details SD1 listens on a port the system chooses (built with SIM_SD1_PORT 0); the
 *          first line on standard output names it: "rk: SD1 listening on port N". Each
 *          connection gets the shell (one at a time); SD2 is not started.
 */

#include <stdio.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "ch.h"
#include "hal.h"
#include "shell.h"

#include "workload.h"

#define SHELL_WA_SIZE       THD_WORKING_AREA_SIZE(4096)

static thread_t *shelltp;
static ShellConfig shell_cfg;

/**
 * @brief   Kernel halt: says why, then ends the process.
 *
 * @param[in] reason    the kernel's halt message
 */
void rk_halted(const char *reason) {

  printf("rk: kernel halted: %s\n", reason != NULL ? reason : "(no reason)");
  fflush(stdout);
  _exit(3);
}

/**
 * @brief   Prints the port the system gave SD1.
 */
static void print_port(void) {
  struct sockaddr_in addr;
  socklen_t len = sizeof(addr);

  if (getsockname(SD1.com_listen, (struct sockaddr *)&addr, &len) != 0) {
    printf("rk: SD1 has no port\n");
    fflush(stdout);
    _exit(2);
  }
  printf("rk: SD1 listening on port %u\n", (unsigned)ntohs(addr.sin_port));
  fflush(stdout);
}

/**
 * @brief   SD1 connected or disconnected.
 *
 * @param[in] el        the listener on SD1's events
 */
/* A shell for the connected host, unless one runs. A host that connects again at once may
   be connected before the shell of its last connection has ended: the shell for the new
   connection is then started once that one is reaped. */
static void start_shell(void) {

  if ((shelltp == NULL) && (SD1.com_data != -1)) {
    shelltp = chThdCreateFromHeap(NULL, SHELL_WA_SIZE, "shell", NORMALPRIO + 10,
                                  shellThread, (void *)&shell_cfg);
  }
}

static void sd1_event(event_listener_t *el) {
  eventflags_t flags = chEvtGetAndClearFlags(el);

  if ((flags & CHN_CONNECTED) != 0U) {
    start_shell();
  }
  if ((flags & CHN_DISCONNECTED) != 0U) {
    chSysLock();
    iqResetI(&SD1.iqueue);
    chSchRescheduleS();
    chSysUnlock();
  }
}

/*
 * Simulator main.
 */
int main(void) {
  event_listener_t sd1el, shellel;

  setvbuf(stdout, NULL, _IOLBF, 0);
  halInit();
  chSysInit();

  sdStart(&SD1, NULL);
  print_port();

  shell_cfg.sc_channel = (BaseSequentialStream *)&SD1;
  shell_cfg.sc_commands = wlCommands;
  shellInit();
  chEvtRegister(&shell_terminated, &shellel, 0);
  chEvtRegister(chnGetEventSource(&SD1), &sd1el, 1);

  wlStart();

  while (true) {
    eventmask_t events = chEvtWaitAny(ALL_EVENTS);

    if ((events & EVENT_MASK(1)) != 0U) {
      sd1_event(&sd1el);
    }
    if (((events & EVENT_MASK(0)) != 0U) && (shelltp != NULL) && chThdTerminatedX(shelltp)) {
      (void)chThdWait(shelltp);
      shelltp = NULL;
      start_shell();
    }
  }
}
