#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every figure of the viewer's and the board's cost against its goal, one line each: runs the
# benchmarks that hold them and prints, for each figure, its name, the value measured, the goal
# and whether it is met. Each benchmark's own output is kept in BUILD_DIR/figures/ (NAME.txt).
#   frames    bench/view-frames.sh: 1M switches zoomed out, each zoom/pan/fit step's frames
#   render    render-bench: the full view's image and the first image after a load
#   first     bench/first-frame.sh: first frame and memory against GTKWave (if installed)
#   bytes     bench/transfer.sh: bytes per switch and per entry on the wire
#   mcu       bench/mcu-cost.sh: the hooks' instructions (against BASE), the library's flash
#   firmware  bench/firmware-size.sh: a whole firmware's flash (against BASE; needs
#             arm-none-eabi-gcc and ChibiOS 21.11)
#   reopen    bench-record-reopen: an hour's recording reopened
#   record    bench/record-viewer.sh: the viewer's frames while it records
# --quick: the short forms (first-frame 1 run, recording 30 s, no firmware); --only
# NAME[,NAME...]: those benchmarks alone; --base REV: the board's figures also against REV
# (a git revision, built in a temporary worktree), for the goals "unchanged" and "+1 KB";
# --kept: no benchmark run, the outputs kept in BUILD_DIR/figures/ summarised again.
# Usage: bench/figures.sh [--quick] [--only NAMES] [--base REV] [--kept] BUILD_DIR
# Build first: meson compile -C BUILD_DIR (the viewer, tickscope-cli, the simulated board and
# the programs of bench/). The machine's load is printed: on a shared machine, wall times are
# mostly waits for a processor, and the benchmarks print processor time beside them.
set -eu
quick="" only="" base="" kept=""
while [ $# -gt 1 ]; do
  case $1 in
    --quick) quick=1; shift ;;
    --kept) kept=1; shift ;;
    --only) only=",$2,"; shift 2 ;;
    --base) base=$2; shift 2 ;;
    *) break ;;
  esac
done
build=${1:?usage: $0 [--quick] [--only NAMES] [--base REV] BUILD_DIR}
build=$(cd "$build" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
out="$build/figures"
mkdir -p "$out"
: >"$out/figures.txt"
[ -n "$kept" ] || rm -f "$out/load.txt"

wanted() { [ -z "$only" ] || case $only in *",$1,"*) return 0 ;; *) return 1 ;; esac; }
# run NAME COMMAND...: COMMAND's output into $out/NAME.txt; says so if it failed (with
# --kept, the output kept from the last run is summarised again)
run() {
  name=$1
  shift
  [ -z "$kept" ] || return 0
  echo "running $name: $*" >&2
  if ! "$@" >"$out/$name.txt" 2>&1; then
    echo "  $name failed (see $out/$name.txt)" >&2
  fi
}
# figure NAME VALUE GOAL VERDICT: one line of the summary
figure() {
  printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$out/figures.txt"
}
# missing NAME GOAL WHY: a figure not measured
missing() { figure "$1" "not measured: $3" "$2" "-"; }
# figures_of NAME [PREFIX [SUFFIX]]: the lines "figure: NAME: VALUE (goal GOAL): VERDICT" of
# NAME's output, each a line of the summary
figures_of() {
  sed -n 's/^figure: \(.*\): \(.*\) (goal \(.*\)): \(.*\)$/\1|\2|\3|\4/p' "$out/$1.txt" |
    while IFS='|' read -r n v g m; do figure "${2:-}$n${3:-}" "$v" "$g" "$m"; done
}
# verdict VALUE OP LIMIT: met or NOT met
verdict() { awk -v v="$1" -v l="$3" -v op="$2" 'BEGIN {
  ok = (op == "<=") ? (v + 0 <= l + 0) : (v + 0 == l + 0); print ok ? "met" : "NOT met" }'; }

[ -n "$kept" ] ||
  echo "figures: $(nproc) processors, load $(cut -d' ' -f1-3 /proc/loadavg) at the start, $(date -u '+%Y-%m-%d %H:%M UTC')" \
    >"$out/load.txt"

if wanted frames; then
  run frames sh "$here/view-frames.sh" "$build"
  line=$(grep '^  [0-9]* steps, [0-9]* frames' "$out/frames.txt" || true)
  if [ -n "$line" ]; then
    # steps, frames, median, worst, over 8 ms
    # shellcheck disable=SC2046
    set -- $(echo "$line" | sed 's/^ *\([0-9]*\) steps, \([0-9]*\) frames, wall time: median \([0-9.]*\) ms, worst \([0-9.]*\) ms, \([0-9]*\) over 8 ms.*/\1 \2 \3 \4 \5/')
    cpu=$(sed -n 's/.*on a processor in them: median \([0-9.]*\) ms, worst \([0-9.]*\) ms, \([0-9]*\) over 8 ms.*/\1 \2 \3/p' "$out/frames.txt")
    figure "frames at 1M switches, zoom/pan/fit ($1 steps)" \
      "$5 of $2 over 8 ms (median $3 ms, worst $4 ms); on a processor: ${cpu:+$(echo "$cpu" | awk '{ printf "%s over 8 ms, median %s ms", $3, $1 }')}" \
      "0 over 8 ms" "$(verdict "$5" == 0)"
  else
    missing "frames at 1M switches, zoom/pan/fit" "0 over 8 ms" "view-frames.sh printed no steps"
  fi
fi

if wanted render; then
  run render "$build/bench/render-bench"
  # the widget's image and first image of the whole view ("full" row)
  image=$(sed -n 's/^  full view *the widget.s image: *\([0-9.]*\) ms.image median (\([0-9.]*\) ms on a processor.*/\1 \2/p' "$out/render.txt")
  first=$(sed -n 's/^  full view *first image: *\([0-9.]*\) ms (\([0-9.]*\) ms on a processor.*/\1 \2/p' "$out/render.txt")
  if [ -n "$image" ]; then
    # shellcheck disable=SC2086
    set -- $image
    figure "render-bench: full view at 1M switches, 1920x1080" "$1 ms ($2 ms on a processor)" "<= 8 ms" \
      "$(verdict "$1" "<=" 8)$( [ "$(verdict "$1" "<=" 8)" = met ] || echo " ($(verdict "$2" "<=" 8) on a processor)")"
  fi
  if [ -n "$first" ]; then
    # shellcheck disable=SC2086
    set -- $first
    figure "render-bench: first image after a load" "$1 ms ($2 ms on a processor)" "<= 16 ms" \
      "$(verdict "$1" "<=" 16)$( [ "$(verdict "$1" "<=" 16)" = met ] || echo " ($(verdict "$2" "<=" 16) on a processor)")"
  fi
  [ -n "$image$first" ] || missing "render-bench" "<= 8 ms, first <= 16 ms" "render-bench printed nothing"
fi

if wanted first; then
  runs=5
  [ -z "$quick" ] || runs=1
  if [ -x "$build/bench/first-frame-watch" ]; then
    run first sh "$here/first-frame.sh" "$build" "$runs"
    figures_of first
    grep -q '^figure: ' "$out/first.txt" ||
      missing "first frame against GTKWave" "<= 0.6x" "first-frame.sh printed no figure"
  else
    missing "first frame against GTKWave" "<= 0.6x" "no first-frame-watch (X11 and XDamage headers)"
  fi
fi

if wanted bytes; then
  run bytes sh "$here/transfer.sh" "$build"
  # compact lines of the real boards' logs (the files of tests/data) at tick resolution, and
  # with the synthesized counter; then the recordings
  awk '/^Transfer of one fetch, records at tick/ { c = 0 } /^Transfer of one fetch, every record/ { c = 1 }
       /^[^ ].*: [0-9]+ records$/ { f = $1 }
       /its compact lines/ && f ~ /^board-/ { v = $6; if (!(c in lo) || v < lo[c]) lo[c] = v; if (v > hi[c]) hi[c] = v
                                             g[c] = $10 }
       END { for (c = 0; c <= 1; c++) if (c in lo) print c, lo[c], hi[c], g[c] }' "$out/bytes.txt" | sed 's/)//' |
    while read -r c lo hi g; do
      what="real boards' logs, compact lines, tick resolution" unit="B/switch"
      [ "$c" = 0 ] || what="real boards' logs with a synthesized counter, compact lines" unit="B/entry"
      figure "bytes: $what" "$lo-$hi $unit" "<= $g B" "$(verdict "$hi" "<=" "$g")"
    done
  for kind in "switches at tick resolution" "every event and the counter"; do
    v=$(grep "^  $kind:" "$out/bytes.txt" | grep -o '[0-9.]* bytes/event' | head -n 1 | cut -d' ' -f1)
    g=$(grep "^  $kind:" "$out/bytes.txt" | sed -n 's/.*(goal <= \([0-9.]*\).*/\1/p' | head -n 1)
    if [ -n "$v" ]; then
      figure "bytes: simulated board's recording, $kind" "$v B/entry" "<= $g B" "$(verdict "$v" "<=" "$g")"
    else
      missing "bytes: simulated board's recording, $kind" "<= ${g:-?} B" "see bytes.txt"
    fi
  done
fi

if wanted mcu; then
  # shellcheck disable=SC2086
  run mcu sh "$here/mcu-cost.sh" "$build" $base
  figures_of mcu "board: "
  grep -q '^figure: hook instruction counts against' "$out/mcu.txt" ||
    missing "board: hook instructions against the format before" "unchanged" "give --base REV"
fi

if wanted firmware && [ -z "$quick" ]; then
  if command -v arm-none-eabi-gcc >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    run firmware sh "$here/firmware-size.sh" ${base:+--base "$base"} "$build"
    [ -f "$out/firmware.txt" ] && figures_of firmware "board: "
    grep -q '^figure: ' "$out/firmware.txt" 2>/dev/null ||
      missing "board: firmware flash against the format before" "<= +1 KB" "give --base REV (see firmware.txt)"
  else
    missing "board: firmware flash" "<= +1 KB" "arm-none-eabi-gcc not installed"
  fi
fi

if wanted reopen; then
  run reopen "$build/bench/bench-record-reopen"
  figures_of reopen "" " (an hour at 3,500 switches/s)"
fi

if wanted record; then
  seconds=120
  [ -z "$quick" ] || seconds=30
  GSK_RENDERER=${GSK_RENDERER:-cairo} run record sh "$here/record-viewer.sh" "$build" "$seconds" 10
  figures_of record "" " (3,500 switches/s, $seconds s)"
fi

cat "$out/load.txt" 2>/dev/null || true
echo "load $(cut -d' ' -f1-3 /proc/loadavg) at the end; each benchmark's output in $out"
awk -F '\t' '{ printf "%-62s | %-56s | %-14s | %s\n", $1, $2, $3, $4 }' "$out/figures.txt"
