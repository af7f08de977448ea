#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Bytes and seconds of one fetch at 115200 baud, for the legacy pair, threads_dump and
# threads_dump_compact: on the simulated board's log (fetched from tickscope-simboard over TCP,
# 60 simulated seconds into its life) and on the real boards' captures of tests/data, at tick
# resolution and with the cycle counter (bench-transfer, bench-transfer-cycles); then two
# recordings of the simulated board, 10 s each (threads_record, and with every event and the
# counter), in bytes per entry; then where the bits of the second go, field by field, its
# entries coded again as recorded and with a counter that steps by 1 (bench-compact-fields).
# Further captures (FILE...) are measured as the real boards' are.
# Usage: bench/transfer.sh BUILD_DIR [FILE...]
set -eu
build=${1:?usage: $0 BUILD_DIR [FILE...]}
shift
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
board=""
cleanup() {
  if [ -n "$board" ]; then kill "$board" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

port=$((20000 + $$ % 20000))
"$build/app/simboard/tickscope-simboard" --tcp "$port" --uptime 60000 --no-banner >/dev/null 2>&1 &
board=$!
i=0
until "$build/app/cli/tickscope-cli" fetch "tcp:127.0.0.1:$port" -o "$tmp/simulated-board.txt" >/dev/null 2>&1; do
  i=$((i + 1))
  if [ "$i" -ge 50 ]; then
    echo "the simulated board did not answer" >&2
    exit 1
  fi
  sleep 0.1
done

captures="$tmp/simulated-board.txt $src/tests/data/board-run-mode.raw.txt $src/tests/data/board-partly-logged-trigger.raw.txt $*"
# shellcheck disable=SC2086
"$build/bench/bench-transfer" $captures
# shellcheck disable=SC2086
"$build/bench/bench-transfer-cycles" $captures

echo "Recordings of the simulated board, 10 s each:"
"$build/app/cli/tickscope-cli" record -q -d 10 -o "$tmp/switches.txt" "tcp:127.0.0.1:$port" 2>&1 |
  sed 's/$/  (goal <= 0.8 bytes\/event)/; s/^/  switches at tick resolution: /'
"$build/app/cli/tickscope-cli" record -q -e -d 10 -o "$tmp/events.txt" "tcp:127.0.0.1:$port" 2>&1 |
  sed 's/$/  (goal <= 2.5 bytes\/event)/; s/^/  every event and the counter: /'
echo "Where the bits go (the recording's entries coded again by the board's coder):"
"$build/bench/bench-compact-fields" --fields "$tmp/events.txt" | sed "s|$tmp/||; s/^/  /"
