#!/bin/sh
# Builds Tickscope from scratch and runs every test (unit, data validation, mcu-lib on the
# host, sanitizers, fuzzing for a bounded time, the real viewer under Xvfb).
# Ends with one line: "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
"$top/tools/install-deps.sh" || { echo "0 passed, 1 failed"; exit 1; }

status=0
summary() {
  python3 - "$@" <<'PY'
import json, sys
passed = failed = skipped = 0
for path in sys.argv[1:]:
    try:
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if r.get("result") in ("OK", "EXPECTEDFAIL"):
                    passed += 1
                elif r.get("result") == "SKIP":
                    skipped += 1
                else:
                    failed += 1
    except FileNotFoundError:
        # That build did not get as far as its tests.
        failed += 1
if skipped:
    print(f"({skipped} skipped)")
print(f"{passed} passed, {failed} failed")
PY
}

run_suite() {
  dir=$1; shift
  rm -rf "$dir"
  if ! meson setup "$dir" -Dwerror=true "$@" >"$dir.setup.log" 2>&1; then
    cat "$dir.setup.log"; status=1; return
  fi
  if ! meson compile -C "$dir" >"$dir.build.log" 2>&1; then
    tail -n 60 "$dir.build.log"; status=1; return
  fi
  meson test -C "$dir" --print-errorlogs --num-processes 2 || status=1
}

# The real-kernel suite (ChibiOS's simulator built with mcu-lib: tests/real-kernel/) runs in
# the first build only; it tests the board library and the CLI, not the sanitizers' findings.
run_suite _build-ci
run_suite _build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dgui_tests=false \
  -Dfuzzing=true -Dreal_kernel_tests=disabled --native-file "$top/tools/clang.ini"

# The Debian package, built from the committed tree and checked by lintian (its own run of the
# tests is skipped: the same tests ran in both builds above).
mkdir -p _build-deb
if DEB_BUILD_OPTIONS=nocheck "$top/tools/build-deb.sh" _build-deb >_build-deb/log.txt 2>&1; then
  echo '{"name": "debian-package", "result": "OK"}' >_build-deb/testlog.json
else
  tail -n 40 _build-deb/log.txt
  echo '{"name": "debian-package", "result": "FAIL"}' >_build-deb/testlog.json
  status=1
fi

summary _build-ci/meson-logs/testlog.json _build-asan/meson-logs/testlog.json \
  _build-deb/testlog.json
exit $status
