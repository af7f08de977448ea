#!/bin/sh
# Builds the Debian package from a clean copy of the committed tree and checks it with lintian.
# Usage: tools/build-deb.sh OUTDIR   (as root on Debian 12; tools/install-deps.sh first)
# DEB_BUILD_OPTIONS=nocheck skips the package's own run of the tests.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:?usage: $0 OUTDIR}" && cd "$1" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tickscope-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/tickscope"
git -C "$top" archive HEAD | tar -x -C "$work/tickscope"
(cd "$work/tickscope" && dpkg-buildpackage -us -uc -b >"$work/build.log" 2>&1) ||
  { tail -n 60 "$work/build.log"; exit 1; }
cp "$work"/*.deb "$work"/*.buildinfo "$work"/*.changes "$out"/
lintian --fail-on error,warning "$out"/tickscope_*.changes
ls "$out"/*.deb
