/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Host stand-in for the part of the ChibiOS shell (os/various/shell/shell.h) used by mcu-lib:
 * the line end and the usage message, with the same values as in ChibiOS 18.2 to 21.11. */
#ifndef SHELL_H
#define SHELL_H

#include "chprintf.h"

#if !defined(SHELL_NEWLINE_STR)
#define SHELL_NEWLINE_STR "\r\n"
#endif

#define shellUsage(stream, message) chprintf (stream, "Usage: %s" SHELL_NEWLINE_STR, message)

#endif /* SHELL_H */
