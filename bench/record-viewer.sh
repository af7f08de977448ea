#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The viewer recording the simulated board over TCP at 115200 baud (tickscope --record), in a
# private X server: its resident memory and its frames of the last 10 seconds (count, median,
# 90th percentile, worst: TICKSCOPE_FRAME_STATS) every 10 seconds, then the frames over the
# whole run and how many took over 8 ms (the goal: none), what the recording holds (events
# per second, dropped, bytes per event) and how long the file takes to open again (wall and
# processor time). The viewer's main thread's processor time and page faults a second, after the
# first 10 s, tell the work that arrives with each second's data (inside frames or not) whatever
# the machine's load.
# Usage: bench/record-viewer.sh BUILD_DIR [SECONDS (default 120) [WORKERS (default 0)]]
# WORKERS: the simulated board's extra threads (--workers; 10 switch about 3,500 times a second).
# A window manager runs in that X server when openbox is installed, as on a desktop (see
# private-desktop.sh).
# The viewer draws with cairo unless GSK_RENDERER names another: GSK_RENDERER=gl measures it
# with the GL renderer's own memory (under Xvfb, Mesa's software GL holds about 80 MB more).
set -eu
build=${1:?usage: $0 BUILD_DIR [SECONDS]}
seconds=${2:-120}
workers=${3:-0}
tmp=$(mktemp -d)
board="" viewer=""
. "$(dirname "$0")/private-desktop.sh"
cleanup() {
  for p in $viewer $board; do kill "$p" 2>/dev/null || true; done
  private_desktop_stop
  rm -rf "$tmp"
}
trap cleanup EXIT

private_desktop "$build" "$tmp" 1280x900

port=$((20000 + $$ % 20000))
"$build/app/simboard/tickscope-simboard" --tcp "$port" --baud 115200 --workers "$workers" --no-banner \
  >/dev/null 2>&1 &
board=$!
sleep 0.5
TICKSCOPE_FRAME_STATS="$tmp/frames.txt" \
  "$build/app/tickscope" --record "tcp:127.0.0.1:$port" >"$tmp/viewer.log" 2>&1 &
viewer=$!

# the main thread's processor time (ticks) and minor page faults so far
main_usage() {
  awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.3f %d\n", ($12 + $13) / hz, $8 }' \
    "/proc/$viewer/task/$viewer/stat" 2>/dev/null || echo "nan 0"
}
usage0=""
echo "record-viewer: tickscope --record on the simulated board ($workers more threads) at 115200 baud, $seconds s" \
     "(GSK_RENDERER=${GSK_RENDERER:-default}, $wm_name)"
t=0
while [ "$t" -lt "$seconds" ]; do
  sleep 10
  t=$((t + 10))
  [ "$t" -eq 10 ] && usage0=$(main_usage)
  rss=$(awk '/^VmRSS/ { print int($2 / 1024) }' "/proc/$viewer/status" 2>/dev/null || echo "gone")
  echo "  after ${t} s: viewer resident memory ${rss} MB; $(grep '^frames:' "$tmp/frames.txt" 2>/dev/null | tail -n 1 | sed 's/^frames: [0-9.]* s //')"
done
# the first ten seconds hold the window's start and the first capture
awk '/^frames:/ && ++k > 1 { n += $4; w = $13 + 0 > w ? $13 + 0 : w; if ($13 + 0 > 8) over++; p++; pre += $19
                              long += $21; faults += $25 }
     END { if (p) printf "  frames after the first 10 s: %d (%d preempted, %d over 5 ms, %.0f page faults a frame), " \
                         "the worst of each 10 s over 8 ms in %d of %d, worst %.2f ms\n", n, pre, long, faults / n, over, p, w }' \
  "$tmp/frames.txt" 2>/dev/null || true
# each frame over 8 ms, with what the main thread did meanwhile (see app/tks-frame-stats.c)
grep '^slow frame:' "$tmp/frames.txt" 2>/dev/null | sed 's/^/  /' || true
# the figure: frames over 8 ms after the first 10 s (after the first line "frames:"), and of those, how many the main thread
# spent over 8 ms of on a processor (the others mostly waited for one on a busy machine)
awk '/^frames:/ && ++k > 1 { n += $4 }
     /^slow frame:/ && k >= 1 { over++; if ($17 == "processor," && $13 + 0 > 8) cpu++ }
     END { printf "figure: frames over 8 ms while recording: %d of %d, %d of them over 8 ms on a processor " \
                  "(goal 0): %s\n", over, n, cpu, over == 0 ? "met" : cpu == 0 ? "NOT met in wall time (met on a processor)" : "NOT met" }' \
  "$tmp/frames.txt" 2>/dev/null || echo "figure: frames over 8 ms while recording: no frame timed (goal 0): NOT met"
usage1=$(main_usage)
echo "$usage0 $usage1" | awk -v s="$((seconds - 10))" 's > 0 && $1 != "nan" && $3 != "nan" {
  printf "  main thread after the first 10 s: %.1f ms of processor time a second, %.0f page faults a second\n",
         ($3 - $1) * 1000 / s, ($4 - $2) / s }'
kill "$viewer"
wait "$viewer" 2>/dev/null || true
viewer=""

file=$(ls "$XDG_DATA_HOME"/tickscope/captures/record-*.txt 2>/dev/null | head -n 1)
if [ -z "$file" ]; then
  echo "no recording was written" >&2
  cat "$tmp/viewer.log" >&2
  exit 1
fi
bytes=$(wc -c <"$file")
if [ -x /usr/bin/time ]; then
  info=$(/usr/bin/time -f '%e %U %S' -o "$tmp/time" "$build/app/cli/tickscope-cli" info "$file")
else
  start=$(date +%s.%N)
  info=$("$build/app/cli/tickscope-cli" info "$file")
  echo "$start $(date +%s.%N)" | awk '{ print $2 - $1, "nan", "nan" }' >"$tmp/time"
fi
records=$(echo "$info" | awk '/^Records:/ { print $2 }')
span=$(echo "$info" | awk '/^Span:/ { gsub(/\(/, "", $6); print $6 }')
lost=$(grep -c '^Lost:' "$file" || true)
echo "  recording: $records events over $span ticks, $bytes bytes, $lost Lost: lines (drops)"
awk -v r="$records" -v s="$span" -v b="$bytes" 'BEGIN {
  printf "  %.0f events/s (1000 Hz tick), %.2f bytes/event\n", r / (s / 1000), b / r }'
awk '{ printf "  tickscope-cli info of the file: %.2f s, %.2f s of processor time\n", $1, $2 + $3 }' "$tmp/time"
