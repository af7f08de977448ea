# SPDX-License-Identifier: GPL-3.0-or-later
#
# The workload built into ChibiOS's RT-Posix simulator (an x86 -m32 Linux program running
# the real RT kernel) with a board library, the way a board's makefile adds it. The same
# makefile serves ChibiOS 18.2, 20.3 and 21.11: it includes the release's own .mk files
# and uses the demo's configuration files, with this folder's conf/ in front of them.
#
#   make -f simulator.mk CHIBIOS=/path/ChibiOS BUILDDIR=/path/build THDULIB=/path/mcu-lib \
#        USE_THREADS_TIMESTAMPS=true ... RK_DEFS="-DCH_CFG_ST_FREQUENCY=10000"
#
# tests/real-kernel/run-variant.py gives the variables of each variant.

RKDIR := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))

ifeq ($(CHIBIOS),)
  $(error CHIBIOS: the ChibiOS tree to build against)
endif
ifeq ($(BUILDDIR),)
  $(error BUILDDIR: where the objects and the program go)
endif
ifeq ($(THDULIB),)
  $(error THDULIB: the board library's folder)
endif

# The demo's flags; no debug information (it only slows the build down).
USE_OPT = -O2 -m32
# conf/ first: the rules sort the include directories (21.11), and its chconf.h must come
# before the demo's, which it includes next.
USE_COPT = -I$(RKDIR)/conf
USE_CPPOPT = -fno-rtti
USE_LINK_GC = yes
USE_LDOPT = --defsym=__main_thread_stack_base__=0,--defsym=__main_thread_stack_end__=0
USE_LTO = no
USE_VERBOSE_COMPILE = no
# Every kernel source is compiled (what the configuration leaves out compiles to nothing):
# the smart build reads chconf.h's text, which here is the demo's file behind ours.
USE_SMART_BUILD = no

PROJECT = rk
DEMO := $(CHIBIOS)/demos/various/RT-Posix-Simulator
# 20.3 and later keep the configuration in cfg/, 18.2 next to the makefile.
DEMOCONF := $(firstword $(wildcard $(DEMO)/cfg) $(DEMO))
CONFDIR := $(RKDIR)/conf
DEPDIR := $(BUILDDIR)/.dep

-include $(CHIBIOS)/os/license/license.mk
include $(CHIBIOS)/os/hal/hal.mk
include $(CHIBIOS)/os/hal/boards/simulator/board.mk
include $(CHIBIOS)/os/hal/ports/simulator/posix/platform.mk
# The OSAL: os/hal/osal/rt on 18.2, rt-nil from 20.3.
include $(firstword $(wildcard $(CHIBIOS)/os/hal/osal/rt-nil/osal.mk) \
                    $(CHIBIOS)/os/hal/osal/rt/osal.mk)
include $(CHIBIOS)/os/rt/rt.mk
include $(CHIBIOS)/os/common/ports/SIMIA32/compilers/GCC/port.mk
include $(CHIBIOS)/os/hal/lib/streams/streams.mk
include $(CHIBIOS)/os/various/shell/shell.mk

# The board library, as its README says.
include $(THDULIB)/threads_utilities.mk

CSRC = $(ALLCSRC) $(RKDIR)/workload.c $(RKDIR)/main-sim.c
CPPSRC = $(ALLCPPSRC)
ASMSRC = $(ALLASMSRC)
ASMXSRC = $(ALLXASMSRC)
INCDIR = $(DEMOCONF) $(ALLINC) $(RKDIR)

# SD1 on a port the system chooses (the program prints it); the shell without the
# kernel test suite.
UDEFS = -DSIMULATOR -DSD1_PORT -DSIM_SD1_PORT=0 -DWL_COUNTER_HZ=1000000 \
        -DSHELL_CMD_TEST_ENABLED=FALSE $(ALLDEFS) $(RK_DEFS)
UADEFS =
UINCDIR =
ULIBDIR =
ULIBS =

TRGT =
CC   = $(TRGT)gcc
CPPC = $(TRGT)g++
LD   = $(TRGT)gcc
CP   = $(TRGT)objcopy
AS   = $(TRGT)gcc -x assembler-with-cpp
AR   = $(TRGT)ar
OD   = $(TRGT)objdump
SZ   = $(TRGT)size
HEX  = $(CP) -O ihex
BIN  = $(CP) -O binary
COV  = gcov

CWARN = -Wall -Wextra -Wundef -Wstrict-prototypes
CPPWARN = -Wall -Wextra -Wundef

RULESPATH = $(CHIBIOS)/os/common/startup/SIMIA32/compilers/GCC
include $(RULESPATH)/rules.mk
