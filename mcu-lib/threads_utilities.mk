# SPDX-License-Identifier: Apache-2.0
#
# Makefile fragment of the threads utilities library (drop-in replacement of
# threads_utilities_ChibiOS). Set these before including this file:
#   THDULIB                         path of this folder, relative to the makefile
#   USE_THREADS_TIMESTAMPS          true or false (default false)
#   THREADS_TIMESTAMPS_LOG_SIZE     records kept in the log, 4 bytes each (default 3000)
#   THREADS_TIMESTAMPS_DEFAULT_LOG  true or false: are new threads logged by default
# Events beyond the switches (each true or false, default false; any of them makes
# threads_dump print dump version 2, see WIRE-FORMAT.md):
#   THREADS_TIMESTAMPS_CYCLES       every record carries the realtime counter (cycle counter)
#   THREADS_TIMESTAMPS_COUNTER_HZ   its frequency, required with CYCLES (e.g. 168000000)
#   THREADS_TIMESTAMPS_IRQ          enter and leave of interrupt handlers
#   THREADS_TIMESTAMPS_SLEEP        the CPU going idle and what woke it
#   THREADS_TIMESTAMPS_READY        threads made ready (wake-up latency; ChibiOS/RT 7 and later)
#   THREADS_TIMESTAMPS_USER         markers and states from application code
#   THREADS_TIMESTAMPS_CONDITIONS   condition triggers (threads_trigger_when)
# Continuous recording (true or false, default false; see WIRE-FORMAT.md):
#   THREADS_TIMESTAMPS_RECORD       the command threads_record, which streams the log as it is
#                                   written until the host stops it
# Then add $(ALLCSRC) to CSRC, $(ALLINC) to INCDIR and $(ALLDEFS) to UDEFS.

# Source files for the Threads utilities library
THDUSRC = $(THDULIB)/threads_utilities.c \
          $(THDULIB)/tu_compact.c \
          $(THDULIB)/tu_dump.c \
          $(THDULIB)/tu_events.c \
          $(THDULIB)/tu_history.c \
          $(THDULIB)/tu_record.c \
          $(THDULIB)/tu_shell.c \
          $(THDULIB)/tu_trigger.c

# Include directories
THDUINC = $(THDULIB)

# Whether to use or not the threads timestamps feature
USE_THREADS_TIMESTAMPS ?= false

# If enabled, it uses 4 bytes * THREADS_TIMESTAMPS_LOG_SIZE of RAM for the log
THREADS_TIMESTAMPS_LOG_SIZE ?= 3000

# Whether all the threads are logged by default. Can then be changed with
# logNextCreatedThreadsTimestamps() and dontLogNextCreatedThreadsTimestamps()
THREADS_TIMESTAMPS_DEFAULT_LOG ?= false

ifeq ($(USE_THREADS_TIMESTAMPS), true)
	ALLDEFS += -DENABLE_THREADS_TIMESTAMPS
	ALLDEFS += -DTHREADS_TIMESTAMPS_LOG_SIZE=$(THREADS_TIMESTAMPS_LOG_SIZE)
	ALLDEFS += -DTHREADS_TIMESTAMPS_DEFAULT_LOG=$(THREADS_TIMESTAMPS_DEFAULT_LOG)
ifeq ($(THREADS_TIMESTAMPS_CYCLES), true)
	ALLDEFS += -DTHREADS_TIMESTAMPS_CYCLES=1
	ALLDEFS += -DTHREADS_TIMESTAMPS_COUNTER_HZ=$(THREADS_TIMESTAMPS_COUNTER_HZ)
endif
ifeq ($(THREADS_TIMESTAMPS_IRQ), true)
	ALLDEFS += -DTHREADS_TIMESTAMPS_IRQ=1
endif
ifeq ($(THREADS_TIMESTAMPS_SLEEP), true)
	ALLDEFS += -DTHREADS_TIMESTAMPS_SLEEP=1
endif
ifeq ($(THREADS_TIMESTAMPS_READY), true)
	ALLDEFS += -DTHREADS_TIMESTAMPS_READY=1
endif
ifeq ($(THREADS_TIMESTAMPS_USER), true)
	ALLDEFS += -DTHREADS_TIMESTAMPS_USER=1
endif
ifeq ($(THREADS_TIMESTAMPS_CONDITIONS), true)
	ALLDEFS += -DTHREADS_TIMESTAMPS_CONDITIONS=1
endif
ifeq ($(THREADS_TIMESTAMPS_RECORD), true)
	ALLDEFS += -DTHREADS_TIMESTAMPS_RECORD=1
endif
endif

ALLCSRC += $(THDUSRC)
ALLINC  += $(THDUINC)
