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
# With BASE (another build directory, or a git revision built here in a temporary worktree),
# every figure is printed for BASE and BUILD side by side with the difference: the hooks'
# instruction counts against the goal "unchanged", the Cortex-M4 flash against "at most
# 1 KB more" (1024 B).
# Usage: bench/mcu-cost.sh BUILD_DIR [BASE_BUILD_DIR | BASE_REVISION]
set -eu
build=${1:?usage: $0 BUILD_DIR [BASE_BUILD_DIR | BASE_REVISION]}
base=${2:-}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
base_tree=""
cleanup() {
  if [ -n "$base_tree" ]; then
    git -C "$src" worktree remove --force "$base_tree" >/dev/null 2>&1 || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

if [ ! -x "$build/bench/bench-mcu-switch" ] || [ ! -x "$build/bench/bench-mcu-events" ]; then
  echo "build them first: meson compile -C $build bench-mcu-switch bench-mcu-events" >&2
  exit 1
fi

# BASE: its build directory and its source tree
base_build="" base_src=""
if [ -n "$base" ]; then
  if [ -d "$base" ]; then
    base_build=$(cd "$base" && pwd)
    base_src=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["directories"]["source"])' \
      "$base_build/meson-info/meson-info.json")
    base_name=$base
  else
    rev=$(git -C "$src" rev-parse --short "$base^{commit}")
    base_tree="$tmp/base"
    base_name="revision $rev"
    echo "building $base_name in a temporary worktree (bench-mcu-switch, bench-mcu-events)..."
    git -C "$src" worktree add --detach "$base_tree" "$rev" >/dev/null 2>&1
    if ! { meson setup "$base_tree/_build" -Dreal_kernel_tests=disabled -Dgui_tests=false &&
           nice ninja -C "$base_tree/_build" bench/bench-mcu-switch bench/bench-mcu-events; } \
         >"$tmp/base-build.log" 2>&1; then
      tail -n 30 "$tmp/base-build.log" >&2
      exit 1
    fi
    base_build="$base_tree/_build" base_src=$base_tree
  fi
fi

switches=200000
# count BUILD PROGRAM HOOK THREADS SWITCHES MODE: instructions in HOOK per switch (or call)
count() {
  valgrind --tool=callgrind --toggle-collect="$3" --callgrind-out-file="$tmp/cg.out" \
    "$1/bench/$2" "$4" "$5" "$6" >/dev/null 2>&1
  ir=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$tmp/cg.out")
  awk -v ir="${ir:-0}" -v s="$5" 'BEGIN { printf "%.1f\n", ir / s }'
}

# figure LABEL PROGRAM HOOK THREADS SWITCHES MODE GOAL: one line, this build's count (and
# BASE's, the difference) with its goal against BASE: no count higher ("unchanged", or "fewer"
# when the hook got cheaper; "MORE" misses the goal)
changed=0 fewer=0 compared=0 worst=0
figure() {
  label=$1 goal=$7
  now=$(count "$build" "$2" "$3" "$4" "$5" "$6")
  if [ -z "$base_build" ]; then
    printf '  %-40s %5.1f instructions (goal %s)\n' "$label" "$now" "$goal"
  else
    was=$(count "$base_build" "$2" "$3" "$4" "$5" "$6")
    verdict=$(awk -v a="$now" -v b="$was" 'BEGIN { print (a == b) ? "unchanged" : (a < b) ? "fewer" : "MORE" }')
    compared=$((compared + 1))
    [ "$verdict" != MORE ] || changed=$((changed + 1))
    [ "$verdict" != fewer ] || fewer=$((fewer + 1))
    printf '  %-40s %7.1f %7.1f %+7.1f  %s\n' "$label" "$was" "$now" \
      "$(awk -v a="$now" -v b="$was" 'BEGIN { print a - b }')" "$verdict"
  fi
  case $label in
    "logged "*|"switch + counter"*)
      worst=$(awk -v a="$now" -v w="$worst" 'BEGIN { print (a > w) ? a : w }') ;;
  esac
}

if command -v valgrind >/dev/null 2>&1; then
  echo "Instructions per hook (callgrind, $switches switches, 8 per tick):"
  if [ -n "$base_build" ]; then
    printf '  %-40s %7s %7s %7s  %s\n' "hook, threads" "base" "this" "diff" "goal: none more"
    echo "  (base: $base_name; this: $build)"
  fi
  for mode in logged mixed unlogged frozen; do
    for n in 4 16 60; do
      figure "$(printf '%-8s switch, %2d threads' "$mode" "$n")" bench-mcu-switch tuContextSwitchHook \
        "$n" "$switches" "$mode" "<= 40 logged, flat in threads"
    done
  done
  for mode in exit-static exit-heap; do
    figure "$mode thread exit" bench-mcu-switch tuThreadExitHook 16 100000 "$mode" "none set"
  done
  echo "  with every event option (cycle counter, interrupts, sleep, wake-ups, user events, conditions):"
  for n in 4 16 60; do
    figure "$(printf 'switch + counter, %2d threads' "$n")" bench-mcu-events tuContextSwitchHook \
      "$n" "$switches" logged "<= 40"
  done
  for hook in tuIrqEnterHook tuIrqLeaveHook; do
    figure "$hook (a store each way to lock)" bench-mcu-events "$hook" 4 "$switches" irq "<= 25"
  done
  verdict=$(awk -v w="$worst" 'BEGIN { print (w <= 40) ? "met" : "NOT met" }')
  echo "figure: hook instructions per logged switch, worst: $worst (goal <= 40): $verdict"
  if [ -n "$base_build" ]; then
    verdict="met"
    [ "$changed" -eq 0 ] || verdict="NOT met"
    echo "figure: hook instruction counts against $base_name: $changed of $compared more, $fewer fewer (goal none more): $verdict"
  fi
else
  echo "valgrind not found: no instruction counts"
fi

# flash TREE NAME DEFS: "text data bss" of the board library's objects built from TREE
flash() {
  mkdir -p "$tmp/o"
  rm -f "$tmp"/o/*.o
  for c in "$1"/mcu-lib/*.c; do
    # shellcheck disable=SC2086
    arm-none-eabi-gcc -Os -mcpu=cortex-m4 -mthumb -std=c99 -ffunction-sections -fdata-sections \
      -I"$1/mcu-lib" -I"$1/app/chibios-host" -I"$1/app/chibios-host/config" $3 \
      -c "$c" -o "$tmp/o/tu-$2-$(basename "$c" .c).o"
  done
  arm-none-eabi-size -t "$tmp"/o/tu-"$2"-*.o | awk '$6 == "(TOTALS)" { print $1, $2, $3 }'
}

if command -v arm-none-eabi-gcc >/dev/null 2>&1; then
  echo "Cortex-M4 build (arm-none-eabi-gcc -Os -mcpu=cortex-m4 -mthumb), 3000-record log:"
  [ -z "$base_src" ] || echo "  (base: $base_name against this tree; goal: at most 1024 B more flash)"
  everything="-DTHREADS_TIMESTAMPS_CYCLES=1 -DTHREADS_TIMESTAMPS_COUNTER_HZ=168000000 -DTHREADS_TIMESTAMPS_IRQ=1 -DTHREADS_TIMESTAMPS_SLEEP=1 -DTHREADS_TIMESTAMPS_READY=1 -DTHREADS_TIMESTAMPS_USER=1 -DTHREADS_TIMESTAMPS_CONDITIONS=1"
  over=0
  for variant in "timestamps:-DENABLE_THREADS_TIMESTAMPS -DTHREADS_TIMESTAMPS_LOG_SIZE=3000 -DTHREADS_TIMESTAMPS_DEFAULT_LOG=true" \
                 "events:-DENABLE_THREADS_TIMESTAMPS -DTHREADS_TIMESTAMPS_LOG_SIZE=3000 -DTHREADS_TIMESTAMPS_DEFAULT_LOG=true $everything" \
                 "disabled:"; do
    name=${variant%%:*}
    defs=${variant#*:}
    # shellcheck disable=SC2046
    set -- $(flash "$src" "$name" "$defs")
    printf '  %-10s text (flash) %5d B, data %d B, bss %6d B (RAM %d B)\n' "$name" "$1" "$2" "$3" $(($2 + $3))
    if [ -n "$base_src" ]; then
      now=$1
      # shellcheck disable=SC2046
      set -- $(flash "$base_src" "$name" "$defs")
      printf '  %-10s base: text (flash) %5d B, this %+d B\n' "" "$1" $((now - $1))
      [ $((now - $1)) -le 1024 ] || over=$((over + 1))
    fi
  done
  if [ -n "$base_src" ]; then
    verdict="met"
    [ "$over" -eq 0 ] || verdict="NOT met"
    echo "figure: board library's flash against $base_name: $over of 3 builds over +1024 B (goal <= +1 KB): $verdict"
  fi
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
