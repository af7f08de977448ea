/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Kernel configuration of the simulated board: the tick frequency and the log size chosen
 * when the board starts; the rest, the library wired in as on a real board, is the host
 * builds' configuration. */
#ifndef TKS_SIMBOARD_CHCONF_H
#define TKS_SIMBOARD_CHCONF_H

extern unsigned long tks_simboard_tick_hz;
extern unsigned long tks_simboard_log_size;

#define CH_CFG_ST_FREQUENCY   tks_simboard_tick_hz

#include "config/chconf.h"

#endif /* TKS_SIMBOARD_CHCONF_H */
