#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The events list scrolling a long recording, in a private X server: the viewer opens FILE
# (an hour's recording: bench/bench-record-reopen --keep FILE), shows every entry of it in the
# events list and scrolls the list itself for FRAMES frames (TICKSCOPE_BENCH_SCROLL: wheel
# steps, a page every tenth frame, a jump anywhere every fiftieth), its frames timed by
# TICKSCOPE_FRAME_STATS (count, median, 90th percentile, worst every 10 s, and each frame over
# 8 ms on a line of its own).
# Usage: bench/events-list-scroll.sh BUILD_DIR FILE [FRAMES (default 1200)]
set -eu
build=${1:?usage: $0 BUILD_DIR FILE [FRAMES]}
file=${2:?usage: $0 BUILD_DIR FILE [FRAMES]}
frames=${3:-1200}
tmp=$(mktemp -d)
. "$(dirname "$0")/private-desktop.sh"
cleanup() {
  private_desktop_stop
  rm -rf "$tmp"
}
trap cleanup EXIT

private_desktop "$build" "$tmp" 1280x900

start=$(date +%s)
TICKSCOPE_FRAME_STATS="$tmp/frames.txt" TICKSCOPE_BENCH_SCROLL="$frames" \
  "$build/app/tickscope" "$file" >"$tmp/viewer.log" 2>&1 || true
echo "events-list-scroll: $(basename "$file"), $frames frames scrolled (GSK_RENDERER=${GSK_RENDERER:-default}), $(($(date +%s) - start)) s with the opening"
grep '^bench:' "$tmp/viewer.log" || { echo "the viewer did not scroll:"; cat "$tmp/viewer.log"; exit 1; }
cat "$tmp/frames.txt"
