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
xvfb="" wm=""
cleanup() {
  for p in $wm $xvfb; do kill "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

Xvfb -displayfd 3 -screen 0 1280x900x24 -nolisten tcp 3>"$tmp/display" >/dev/null 2>&1 &
xvfb=$!
i=0
while [ ! -s "$tmp/display" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
export DISPLAY=":$(head -n 1 "$tmp/display")" GDK_BACKEND=x11 NO_AT_BRIDGE=1
export GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$build/data"
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/home/.local/share" XDG_CONFIG_HOME="$tmp/home/.config"
mkdir -p "$HOME"
# a window manager, as on a desktop (see record-viewer.sh)
if command -v openbox >/dev/null 2>&1; then
  openbox >/dev/null 2>&1 &
  wm=$!
  sleep 1
fi

start=$(date +%s)
TICKSCOPE_FRAME_STATS="$tmp/frames.txt" TICKSCOPE_BENCH_SCROLL="$frames" \
  "$build/app/tickscope" "$file" >"$tmp/viewer.log" 2>&1 || true
echo "events-list-scroll: $(basename "$file"), $frames frames scrolled (GSK_RENDERER=${GSK_RENDERER:-default}), $(($(date +%s) - start)) s with the opening"
grep '^bench:' "$tmp/viewer.log" || { echo "the viewer did not scroll:"; cat "$tmp/viewer.log"; exit 1; }
cat "$tmp/frames.txt"
