# SPDX-License-Identifier: Apache-2.0
#
# Makefile fragment of the threads utilities library (drop-in replacement of
# threads_utilities_ChibiOS). Set these before including this file:
#   THDULIB                         path of this folder, relative to the makefile
#   USE_THREADS_TIMESTAMPS          true or false (default false)
#   THREADS_TIMESTAMPS_LOG_SIZE     records kept in the log, 4 bytes each (default 3000)
#   THREADS_TIMESTAMPS_DEFAULT_LOG  true or false: are new threads logged by default
# Then add $(ALLCSRC) to CSRC, $(ALLINC) to INCDIR and $(ALLDEFS) to UDEFS.

# Source files for the Threads utilities library
THDUSRC = $(THDULIB)/threads_utilities.c

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
endif

ALLCSRC += $(THDUSRC)
ALLINC  += $(THDUINC)
