#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The first frame of a whole capture, Tickscope against GTKWave, in a private X server
# (Xvfb 1200x720, openbox, a private session bus as on a desktop).
# The same 1,000,000-switch synthetic capture (bench-capture) is opened by Tickscope as a
# capture file and by GTKWave as its VCD export (tickscope-cli export) and, when vcd2fst is
# installed, as FST; GTKWave is given every signal (a save file listing them) and fits the
# whole time span to its window on start (do_initial_zoom_fit), as Tickscope does.
# Method, the same for both programs: bench/first-frame-watch starts the program and watches
# the screen through the X DAMAGE extension, reading the screen back after each burst of
# drawing; the first frame is the earliest moment the screen showed the picture it still
# shows once nothing has been drawn for 3 s. Time 0 is the program's start (fork and exec).
# Runs alternate between the programs (RUNS each); the medians, their ratio and the goal
# (Tickscope <= 0.6x GTKWave's) are printed, then each program's peak resident memory
# (VmHWM, and Pss) once its picture is final, on the 1M capture and on a 3,000-switch one;
# last, a line "figure:" for each figure with its goal, met or not.
# Tickscope runs with the renderer it chooses itself unless GSK_RENDERER is set.
# FIRST_FRAME_WATCH=PROGRAM times with another build's first-frame-watch (to measure a build
# that has none). FIRST_FRAME_SHOTS=DIR keeps each program's final picture (PPM) there, to check by eye.
# Usage: bench/first-frame.sh BUILD_DIR [RUNS (default 5) [SWITCHES (default 1000000)]]
set -eu
build=${1:?usage: $0 BUILD_DIR [RUNS [SWITCHES]]}
runs=${2:-5}
size=${3:-1000000}
small=3000
build=$(cd "$build" && pwd)
watch=${FIRST_FRAME_WATCH:-$build/bench/first-frame-watch}
# Under a private session bus, as on a desktop (without one, GApplication would start a bus
# through dbus-launch at each run).
# The bus daemon's own messages go to /dev/null; the script's, to fd 3 and back to stderr.
if [ -z "${FIRST_FRAME_BUS:-}" ] && command -v dbus-run-session >/dev/null 2>&1; then
  FIRST_FRAME_BUS=1 exec dbus-run-session -- sh "$0" "$@" 3>&2 2>/dev/null
fi
[ "${FIRST_FRAME_BUS:-}" = 1 ] && exec 2>&3 3>&-

tmp=$(mktemp -d)
. "$(dirname "$0")/private-desktop.sh"
cleanup() {
  private_desktop_stop
  rm -rf "$tmp"
}
trap cleanup EXIT

gtkwave=""
if [ -x /usr/bin/gtkwave ] || command -v gtkwave >/dev/null 2>&1; then
  gtkwave=$(command -v gtkwave || echo /usr/bin/gtkwave)
fi

# the captures, their VCD and FST exports, and GTKWave's save files listing every signal
"$build/bench/bench-capture" --sizes "$small,$size" --repeat 1 --keep "$tmp" >/dev/null
for n in $small $size; do
  "$build/app/cli/tickscope-cli" export "$tmp/bench-$n.txt" --format vcd -o "$tmp/bench-$n.vcd"
  awk '/\$scope/ { s[++d] = $3 } /\$upscope/ { d-- } /\$enddefinitions/ { exit }
       /\$var/ { p = ""; for (i = 1; i <= d; i++) p = p s[i] "."; print p $5 }' \
    "$tmp/bench-$n.vcd" >"$tmp/bench-$n.gtkw"
  if command -v vcd2fst >/dev/null 2>&1; then
    vcd2fst "$tmp/bench-$n.vcd" "$tmp/bench-$n.fst" >/dev/null 2>&1 || rm -f "$tmp/bench-$n.fst"
  fi
done

private_desktop "$build" "$tmp" 1200x720

# run PROGRAM N: one timed start of PROGRAM (tickscope, gtkwave-vcd, gtkwave-fst) on the
# N-switch capture; appends "PROGRAM N ms hwm_kb pss_kb" to $tmp/results
run() {
  prog=$1 n=$2
  shot=""
  if [ -n "${FIRST_FRAME_SHOTS:-}" ]; then
    mkdir -p "$FIRST_FRAME_SHOTS"
    shot="--shot $FIRST_FRAME_SHOTS/$prog-$n.ppm"
  fi
  case $prog in
    tickscope)
      set -- "$build/app/tickscope" "$tmp/bench-$n.txt" ;;
    gtkwave-*)
      set -- "$gtkwave" --rcvar 'splash_disable 1' --rcvar 'do_initial_zoom_fit 1' \
             --rcvar 'initial_window_x 1200' --rcvar 'initial_window_y 720' \
             "$tmp/bench-$n.${prog#gtkwave-}" "$tmp/bench-$n.gtkw" ;;
  esac
  # shellcheck disable=SC2086
  line=$("$watch" --quiet 3000 --timeout 120 $shot -- "$@" 2>"$tmp/run.log" | grep '^first-frame:') || {
    echo "  $prog did not settle on a picture:" >&2
    cat "$tmp/run.log" >&2
    return 0
  }
  echo "$line" | sed 's/[a-z_]*=//g' | awk -v p="$prog" -v n="$n" '{ print p, n, $2, $4, $6 }' >>"$tmp/results"
}

programs="tickscope"
if [ -n "$gtkwave" ]; then
  programs="$programs gtkwave-vcd"
  [ -f "$tmp/bench-$size.fst" ] && programs="$programs gtkwave-fst"
fi
echo "first-frame: $size switches, $runs runs each, alternating: $programs" \
     "(Xvfb 1200x720, $wm_name, GSK_RENDERER=${GSK_RENDERER:-the viewer's choice})"
: >"$tmp/results"
r=0
while [ $r -lt "$runs" ]; do
  # each run starts with the next program in turn, so none always runs first
  set -- $programs
  k=0
  while [ $k -lt $((r % $#)) ]; do first=$1; shift; set -- "$@" "$first"; k=$((k + 1)); done
  for prog in "$@"; do run "$prog" "$size"; done
  r=$((r + 1))
done
for prog in $programs; do run "$prog" "$small"; done

median() { # PROGRAM N COLUMN
  awk -v p="$1" -v n="$2" -v c="$3" '$1 == p && $2 == n { print $c }' "$tmp/results" | sort -n |
    awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
all() { awk -v p="$1" -v n="$2" '$1 == p && $2 == n { printf "%s%.0f", s, $3; s = " " }' "$tmp/results"; }

ts=$(median tickscope "$size" 3)
echo "  first frame of the whole capture, median of $runs (ms; each run):"
for prog in $programs; do
  printf '    %-12s %7.0f ms  (%s)\n' "$prog" "$(median "$prog" "$size" 3)" "$(all "$prog" "$size")"
done
for prog in $programs; do
  [ "$prog" = tickscope ] && continue
  awk -v a="$ts" -v b="$(median "$prog" "$size" 3)" -v p="$prog" 'BEGIN {
    printf "  Tickscope / %s: %.2fx (goal <= 0.6x)\n", p, a / b }'
done
[ -n "$gtkwave" ] || echo "  GTKWave is not installed: no ratio (goal <= 0.6x GTKWave's)"
echo "  peak resident memory (VmHWM, MiB) once the picture is final (Pss in brackets):"
for prog in $programs; do
  for n in $size $small; do
    awk -v p="$prog" -v n="$n" -v h="$(median "$prog" "$n" 4)" -v s="$(median "$prog" "$n" 5)" 'BEGIN {
      printf "    %-12s %8d switches: %4.0f MiB (%.0f)\n", p, n, h / 1024, s / 1024 }'
  done
done
for prog in $programs; do
  [ "$prog" = tickscope ] && continue
  awk -v a="$(median tickscope "$size" 4)" -v b="$(median "$prog" "$size" 4)" -v p="$prog" -v n="$size" 'BEGIN {
    printf "  Tickscope / %s memory at %d switches: %.2fx (goal <= 1.1x)\n", p, n, a / b }'
done
awk -v a="$(median tickscope "$small" 4)" -v n="$small" 'BEGIN {
  printf "  Tickscope at %d switches: %.0f MiB (goal <= 70 MiB)\n", n, a / 1024 }'
# the figures, one line each: name, value, goal, met or not
load=$(cut -d' ' -f1-3 /proc/loadavg)
for prog in $programs; do
  [ "$prog" = tickscope ] && continue
  awk -v a="$ts" -v b="$(median "$prog" "$size" 3)" -v p="$prog" -v n="$size" -v r="$runs" -v l="$load" 'BEGIN {
    printf "figure: first frame of %d switches, Tickscope / %s: %.2fx (%.1f s against %.1f s, median of %d, load %s) " \
           "(goal <= 0.6x): %s\n", n, p, a / b, a / 1000, b / 1000, r, l, a / b <= 0.6 ? "met" : "NOT met" }'
  awk -v a="$(median tickscope "$size" 4)" -v b="$(median "$prog" "$size" 4)" -v p="$prog" -v n="$size" 'BEGIN {
    printf "figure: resident memory at %d switches, Tickscope / %s: %.2fx (%.0f MiB against %.0f MiB) " \
           "(goal <= 1.1x): %s\n", n, p, a / b, a / 1024, b / 1024, a / b <= 1.1 ? "met" : "NOT met" }'
done
awk -v a="$(median tickscope "$small" 4)" -v n="$small" 'BEGIN {
  printf "figure: resident memory at %d switches: %.0f MiB (goal <= 70 MiB): %s\n", n, a / 1024,
         a / 1024 <= 70 ? "met" : "NOT met" }'
