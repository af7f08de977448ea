#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Size of a whole firmware with the board library: the real-kernel workload (its threads,
# markers and states, and the ChibiOS shell) built into ChibiOS 21.11's RT-STM32F407-DISCOVERY
# demo with arm-none-eabi, the real ARMv7-M port and the demo's flags (-O2, LTO), without a
# board library, with mcu-lib as a drop-in (3000-record log) and with every event option
# (3000-slot log with the counter). text: flash (code, constants, vectors); data and bss:
# static RAM, the heap (the RAM left over) and the two 1 KB stacks not counted.
# With --base REV, the two firmwares with mcu-lib are built again with REV's mcu-lib (a git
# revision of this repository), and the flash this tree's library adds to REV's is printed
# against the goal of at most 1 KB (1024 B) more.
# Usage: bench/firmware-size.sh [--base REV] BUILD_DIR [CHIBIOS_21.11_TREE]
# (default tree: $CHIBIOS_DIR, else ../shared/chibios/21.11 next to the checkout)
set -eu
base=""
if [ "${1:-}" = --base ]; then
  base=${2:?usage: $0 [--base REV] BUILD_DIR [CHIBIOS_TREE]}
  shift 2
fi
build=${1:?usage: $0 [--base REV] BUILD_DIR [CHIBIOS_TREE]}
src=$(cd "$(dirname "$0")/.." && pwd)
tree=${2:-${CHIBIOS_DIR:-$src/../shared/chibios/21.11}}
tree=$(cd "$tree" && pwd)
mkdir -p "$build/firmware-size"
out=$(cd "$build/firmware-size" && pwd)   # absolute: make runs in each firmware's folder

dropin="USE_THREADS_TIMESTAMPS=true THREADS_TIMESTAMPS_LOG_SIZE=3000 THREADS_TIMESTAMPS_DEFAULT_LOG=true"
every="$dropin THREADS_TIMESTAMPS_CYCLES=true THREADS_TIMESTAMPS_COUNTER_HZ=168000000
  THREADS_TIMESTAMPS_IRQ=true THREADS_TIMESTAMPS_SLEEP=true THREADS_TIMESTAMPS_READY=true
  THREADS_TIMESTAMPS_USER=true THREADS_TIMESTAMPS_CONDITIONS=true THREADS_TIMESTAMPS_RECORD=true"

size_of() {
  arm-none-eabi-size -A "$1" | awk '
    $1 == ".vectors" || $1 == ".text" || $1 == ".rodata" || $1 == ".ARM.exidx" { text += $2 }
    $1 == ".data" { data = $2 }
    $1 == ".bss" { bss = $2 }
    END { printf "%d %d %d\n", text, data, bss }'
}

names="none dropin every"
if [ -n "$base" ]; then
  rev=$(git -C "$src" rev-parse --short "$base^{commit}")
  rm -rf "$out/base-lib"
  mkdir -p "$out/base-lib"
  git -C "$src" archive "$rev" mcu-lib | tar -x -C "$out/base-lib"
  names="$names base-dropin base-every"
fi

printf '| firmware | text | data | bss |\n| --- | ---: | ---: | ---: |\n'
none=""
for name in $names; do
  case $name in
    none) lib=none; vars="" ;;
    dropin) lib="$src/mcu-lib"; vars=$dropin ;;
    every) lib="$src/mcu-lib"; vars=$every ;;
    base-dropin) lib="$out/base-lib/mcu-lib"; vars=$dropin ;;
    base-every) lib="$out/base-lib/mcu-lib"; vars=$every ;;
  esac
  dir="$out/$name"
  rm -rf "$dir"
  mkdir -p "$dir"
  # shellcheck disable=SC2086
  if ! make -j2 --no-print-directory -C "$dir" -f "$src/tests/real-kernel/stm32f407.mk" \
      CHIBIOS="$tree" BUILDDIR="$dir" THDULIB="$lib" $vars >"$dir/build.log" 2>&1; then
    tail -n 30 "$dir/build.log" >&2
    exit 1
  fi
  warnings=$(grep -c "warning:" "$dir/build.log" || true)
  set -- $(size_of "$dir/rk.elf")
  eval "text_$(echo "$name" | tr - _)=$1"
  if [ -z "$none" ]; then
    none="$1 $2 $3"
    label="without a board library"
  else
    set -- "$@" $none
    case $name in
      dropin) label="mcu-lib as a drop-in" ;;
      every) label="mcu-lib, every option" ;;
      base-dropin) label="$rev's mcu-lib as a drop-in" ;;
      base-every) label="$rev's mcu-lib, every option" ;;
    esac
    label="$label (+$(($1 - $4)) / +$(($2 - $5)) / +$(($3 - $6)))"
  fi
  printf '| %s, %s warnings | %d | %d | %d |\n' "$label" "$warnings" "$1" "$2" "$3"
done
if [ -n "$base" ]; then
  # shellcheck disable=SC2154
  d=$((text_dropin - text_base_dropin)) e=$((text_every - text_base_every))
  verdict="met"
  [ "$d" -le 1024 ] && [ "$e" -le 1024 ] || verdict="NOT met"
  printf 'figure: firmware flash against %s, drop-in / every option: %+d B / %+d B (goal <= +1024 B): %s\n' \
    "$rev" "$d" "$e" "$verdict"
fi
