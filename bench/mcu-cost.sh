#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Cost figures of the board library (mcu-lib):
#  - instructions per context-switch hook with 4, 16 and 60 threads (callgrind on the host
#    build of bench-mcu-switch; goal <= 40 per logged switch, flat in thread count), and per
#    thread exit (a static thread's, and a heap thread's whose name is copied);
#  - the same with every event option (bench-mcu-events: the switch carries the cycle
#    counter; goal <= 40), and per interrupt handler's enter and leave hooks (goal <= 25).
#    bench-mcu-events is built with CH_HOST_PORT_RELEASE: the stand-in's port lock is then
#    what a port's lock is without debug checks, one store to take it and one to release it
#    (on Cortex-M each is two instructions, a move and a write of BASEPRI), instead of the
#    stand-in's checked lock that the tests use (about 5 instructions more a handler);
#  - flash and RAM of a Cortex-M4 build (arm-none-eabi-gcc -Os), compiled against the host
#    stand-in of the ChibiOS headers (ChibiOS/RT 18.2 layout).
# Usage: bench/mcu-cost.sh BUILD_DIR
set -eu
build=${1:?usage: $0 BUILD_DIR}
src=$(cd "$(dirname "$0")/.." && pwd)
bench="$build/bench/bench-mcu-switch"
events="$build/bench/bench-mcu-events"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$bench" ]; then
  echo "build $bench first: meson compile -C $build bench-mcu-switch" >&2
  exit 1
fi

switches=200000
if command -v valgrind >/dev/null 2>&1; then
  echo "Instructions per context-switch hook (callgrind, $switches switches, 8 per tick):"
  for mode in logged mixed unlogged frozen; do
    for n in 4 16 60; do
      valgrind --tool=callgrind --toggle-collect=tuContextSwitchHook \
        --callgrind-out-file="$tmp/cg.out" "$bench" "$n" "$switches" "$mode" >/dev/null 2>&1
      ir=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$tmp/cg.out")
      awk -v ir="$ir" -v s="$switches" -v n="$n" -v m="$mode" \
        'BEGIN { printf "  %-8s %2d threads: %5.1f instructions per switch\n", m, n, ir / s }'
    done
  done
  for mode in exit-static exit-heap; do
    valgrind --tool=callgrind --toggle-collect=tuThreadExitHook \
      --callgrind-out-file="$tmp/cg.out" "$bench" 16 100000 "$mode" >/dev/null 2>&1
    ir=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$tmp/cg.out")
    awk -v ir="$ir" -v m="$mode" \
      'BEGIN { printf "  %-11s thread exit hook: %5.1f instructions per exit (heap: its name copied)\n", m, ir / 100000 }'
  done
  echo "With every event option (cycle counter, interrupts, sleep, wake-ups, user events, conditions):"
  for n in 4 16 60; do
    valgrind --tool=callgrind --toggle-collect=tuContextSwitchHook \
      --callgrind-out-file="$tmp/cg.out" "$events" "$n" "$switches" logged >/dev/null 2>&1
    ir=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$tmp/cg.out")
    awk -v ir="$ir" -v s="$switches" -v n="$n" \
      'BEGIN { printf "  switch + counter %2d threads: %5.1f instructions per switch\n", n, ir / s }'
  done
  for hook in tuIrqEnterHook tuIrqLeaveHook; do
    valgrind --tool=callgrind --toggle-collect=$hook \
      --callgrind-out-file="$tmp/cg.out" "$events" 4 "$switches" irq >/dev/null 2>&1
    ir=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$tmp/cg.out")
    awk -v ir="$ir" -v s="$switches" -v h="$hook" \
      'BEGIN { printf "  %-16s %5.1f instructions per handler (the port lock as a release port takes it: a store each way)\n", h, ir / s }'
  done
else
  echo "valgrind not found: no instruction counts"
fi

if command -v arm-none-eabi-gcc >/dev/null 2>&1; then
  echo "Cortex-M4 build (arm-none-eabi-gcc -Os -mcpu=cortex-m4 -mthumb), 3000-record log:"
  everything="-DTHREADS_TIMESTAMPS_CYCLES=1 -DTHREADS_TIMESTAMPS_COUNTER_HZ=168000000 -DTHREADS_TIMESTAMPS_IRQ=1 -DTHREADS_TIMESTAMPS_SLEEP=1 -DTHREADS_TIMESTAMPS_READY=1 -DTHREADS_TIMESTAMPS_USER=1 -DTHREADS_TIMESTAMPS_CONDITIONS=1"
  for variant in "timestamps:-DENABLE_THREADS_TIMESTAMPS -DTHREADS_TIMESTAMPS_LOG_SIZE=3000 -DTHREADS_TIMESTAMPS_DEFAULT_LOG=true" \
                 "events:-DENABLE_THREADS_TIMESTAMPS -DTHREADS_TIMESTAMPS_LOG_SIZE=3000 -DTHREADS_TIMESTAMPS_DEFAULT_LOG=true $everything" \
                 "disabled:"; do
    name=${variant%%:*}
    defs=${variant#*:}
    for c in "$src"/mcu-lib/*.c; do
      # shellcheck disable=SC2086
      arm-none-eabi-gcc -Os -mcpu=cortex-m4 -mthumb -std=c99 -ffunction-sections -fdata-sections \
        -I"$src/mcu-lib" -I"$src/app/chibios-host" -I"$src/app/chibios-host/config" $defs \
        -c "$c" -o "$tmp/tu-$name-$(basename "$c" .c).o"
    done
    arm-none-eabi-size -t "$tmp"/tu-"$name"-*.o | awk -v n="$name" '$6 == "(TOTALS)" {
      printf "  %-10s text (flash) %5d B, data %d B, bss %6d B (RAM %d B)\n", n, $1, $2, $3, $2 + $3 }'
  done
  arm-none-eabi-gcc -Os -mcpu=cortex-m4 -mthumb -std=c99 -I"$src/mcu-lib" \
    -I"$src/app/chibios-host" -I"$src/app/chibios-host/config" \
    -DENABLE_THREADS_TIMESTAMPS -DTHREADS_TIMESTAMPS_LOG_SIZE=3000 -DTHREADS_TIMESTAMPS_DEFAULT_LOG=true \
    -c "$src/mcu-lib/threads_utilities.c" -o "$tmp/tu.o"
  arm-none-eabi-nm -S --size-sort "$tmp/tu.o" | while read -r _ size _ sym; do
    if [ "$sym" = tuContextSwitchHook ]; then
      echo "  tuContextSwitchHook: $((0x$size)) B of code"
    fi
  done
else
  echo "arm-none-eabi-gcc not found: no Cortex-M4 figures"
fi
