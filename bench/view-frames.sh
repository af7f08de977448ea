#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The timeline's frames at 1,000,000 switches, zoomed out and at each zoom, pan and fit step,
# in the real window: a private X server of 1200x720, the cairo renderer by default (as the
# README's figures), the capture bench-capture writes (or FILE), and TICKSCOPE_BENCH_VIEW
# taking STEPS steps (zoom in and out, pan, fit) a third of a second apart once the capture has
# been shown for two seconds. Each step's frames are timed as TICKSCOPE_FRAME_STATS times them
# (from the frame clock's before-paint to its after-paint: updates, layout, snapshots and
# GSK's drawing), printed in ms after the step's name: each frame's wall time and, in brackets,
# the main thread's time on a processor in it (the figure a machine shared with other work
# leaves trustworthy); then the median, worst and how many took more than 8 ms of each (the
# goal: none), and the main thread's page faults (the goal: none in a frame).
# LOAD_GRAPH=1 in the environment shows the CPU load graph. VIEWER_WRAP runs the viewer under a
# command, e.g. VIEWER_WRAP="perf record -k CLOCK_MONOTONIC -g -o /tmp/view.data --" (each
# slow frame's line gives its times on that clock).
# Usage: bench/view-frames.sh BUILD_DIR [STEPS (default 24) [FILE]]
set -eu
build=${1:?usage: $0 BUILD_DIR [STEPS [FILE]]}
steps=${2:-24}
file=${3:-}
tmp=$(mktemp -d)
. "$(dirname "$0")/private-desktop.sh"
cleanup() {
  private_desktop_stop
  rm -rf "$tmp"
}
trap cleanup EXIT

if [ -z "$file" ]; then
  "$build/bench/bench-capture" --sizes 1000000 --repeat 1 --keep "$tmp" >/dev/null
  file="$tmp/bench-1000000.txt"
fi
export GSK_RENDERER="${GSK_RENDERER:-cairo}"
private_desktop "$build" "$tmp" 1200x720
if [ "${LOAD_GRAPH:-0}" = 1 ]; then
  export GSETTINGS_BACKEND=keyfile
  mkdir -p "$XDG_CONFIG_HOME/glib-2.0/settings"
  printf '[io/github/tickscope/Tickscope]\nload-graph=true\n' >"$XDG_CONFIG_HOME/glib-2.0/settings/keyfile"
fi

echo "view-frames: $(basename "$file"), $steps zoom/pan/fit steps, load graph ${LOAD_GRAPH:-0}, Xvfb 1200x720, GSK_RENDERER=$GSK_RENDERER, $(nproc) processors, load $(cut -d' ' -f1-3 /proc/loadavg)"
TICKSCOPE_FRAME_STATS="$tmp/frames.txt" TICKSCOPE_BENCH_VIEW="$steps" \
  timeout 300 ${VIEWER_WRAP:-} "$build/app/tickscope" "$file" >"$tmp/viewer.log" 2>&1 || true
grep '^bench:' "$tmp/viewer.log" | sed 's/^bench: /  /' || true
grep -q '^bench: .* frames, wall time: median' "$tmp/viewer.log" || { echo "the viewer took no steps:"; cat "$tmp/viewer.log"; exit 1; }
# each frame over 8 ms, with what the main thread did meanwhile (see app/tks-frame-stats.c)
grep '^slow frame:' "$tmp/frames.txt" 2>/dev/null | sed 's/^/  /' || true
