# SPDX-License-Identifier: GPL-3.0-or-later
#
# The workload built into ChibiOS's RT-STM32F407-DISCOVERY demo (arm-none-eabi, the ARMv7-M
# port, the STM32F4 HAL) with the demo's own flags and configuration files, this folder's
# conf/ in front of them. THDULIB names the board library; without it (THDULIB=none) the
# same firmware has no library at all, for its size.
#
#   make -f stm32f407.mk CHIBIOS=/path/ChibiOS BUILDDIR=/path/build THDULIB=/path/mcu-lib \
#        USE_THREADS_TIMESTAMPS=true ...
#
# tests/real-kernel/run-variant.py (variant chibios-21.11-stm32f407) and
# bench/firmware-size.sh build it.

RKDIR := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))

ifeq ($(CHIBIOS),)
  $(error CHIBIOS: the ChibiOS tree to build against)
endif
ifeq ($(BUILDDIR),)
  $(error BUILDDIR: where the objects and the firmware go)
endif
ifeq ($(THDULIB),)
  $(error THDULIB: the board library's folder, or none)
endif

# The demo's flags.
USE_OPT = -O2 -ggdb -fomit-frame-pointer -falign-functions=16
# conf/ first: the rules sort the include directories, and its chconf.h must come before
# the demo's, which it includes next.
USE_COPT = -I$(RKDIR)/conf
USE_CPPOPT = -fno-rtti
USE_LINK_GC = yes
USE_LDOPT =
USE_LTO = yes
USE_VERBOSE_COMPILE = no
# The smart build reads the configuration's text, which here is the demo's behind ours.
USE_SMART_BUILD = no
USE_PROCESS_STACKSIZE = 0x400
USE_EXCEPTIONS_STACKSIZE = 0x400
USE_FPU = no
USE_FPU_OPT = -mfloat-abi=$(USE_FPU) -mfpu=fpv4-sp-d16

PROJECT = rk
MCU  = cortex-m4
DEMO := $(CHIBIOS)/demos/STM32/RT-STM32F407-DISCOVERY
CONFDIR := $(RKDIR)/conf
DEPDIR := $(BUILDDIR)/.dep

include $(CHIBIOS)/os/license/license.mk
include $(CHIBIOS)/os/common/startup/ARMCMx/compilers/GCC/mk/startup_stm32f4xx.mk
include $(CHIBIOS)/os/hal/hal.mk
include $(CHIBIOS)/os/hal/ports/STM32/STM32F4xx/platform.mk
include $(CHIBIOS)/os/hal/boards/ST_STM32F4_DISCOVERY/board.mk
include $(CHIBIOS)/os/hal/osal/rt-nil/osal.mk
include $(CHIBIOS)/os/rt/rt.mk
include $(CHIBIOS)/os/common/ports/ARMv7-M/compilers/GCC/mk/port.mk
include $(CHIBIOS)/os/hal/lib/streams/streams.mk
include $(CHIBIOS)/os/various/shell/shell.mk

ifeq ($(THDULIB),none)
  RK_LIBRARY_DEFS = -DRK_NO_LIBRARY
else
  include $(THDULIB)/threads_utilities.mk
endif

LDSCRIPT = $(STARTUPLD)/STM32F407xG.ld

CSRC = $(ALLCSRC) $(RKDIR)/workload.c $(RKDIR)/main-stm32.c
CPPSRC = $(ALLCPPSRC)
ASMSRC = $(ALLASMSRC)
ASMXSRC = $(ALLXASMSRC)
INCDIR = $(DEMO)/cfg $(ALLINC) $(RKDIR)

CWARN = -Wall -Wextra -Wundef -Wstrict-prototypes
CPPWARN = -Wall -Wextra -Wundef

# The shell without the kernel test suite; busy loops timed with the cycle counter.
UDEFS = -DSHELL_CMD_TEST_ENABLED=FALSE -DWL_COUNTER_HZ=STM32_SYSCLK $(RK_LIBRARY_DEFS) \
        $(ALLDEFS) $(RK_DEFS)
UADEFS =
UINCDIR =
ULIBDIR =
ULIBS =

RULESPATH = $(CHIBIOS)/os/common/startup/ARMCMx/compilers/GCC/mk
include $(RULESPATH)/arm-none-eabi.mk
include $(RULESPATH)/rules.mk
