#!/bin/sh
# Runs a libFuzzer target for a bounded time. New inputs and crash reproducers go to WORKDIR
# (in the build folder); the seed corpus in the source tree is only read.
# Usage: run-fuzzer.sh TARGET WORKDIR SEEDS DICT [libFuzzer options...]
set -eu
target=$1 work=$2 seeds=$3 dict=$4
shift 4
mkdir -p "$work/corpus" "$work/artifacts"
exec "$target" -dict="$dict" -artifact_prefix="$work/artifacts/" "$@" "$work/corpus" "$seeds"
