#!/bin/sh
# Runs a GUI test script against the real viewer in a private X server (Xvfb) and a private
# D-Bus session with the accessibility bus, as a user's desktop would.
# Usage: run-gui-tests.sh TICKSCOPE SCRIPT DATA_DIR SCHEMA_DIR (SCRIPT: a Python script or a
# test program)
# Exits 77 (skipped) only when Xvfb is not installed.
set -u
tickscope=$1
script=$2
data_dir=$3
schema_dir=$4

if ! command -v Xvfb >/dev/null 2>&1; then
  echo "1..0 # SKIP Xvfb is not installed"
  exit 77
fi
if ! command -v dbus-run-session >/dev/null 2>&1; then
  echo "Bail out! dbus-run-session is missing (install dbus)"
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tickscope-gui.XXXXXX")
# Xvfb picks a free display and writes its number once it accepts connections.
Xvfb -displayfd 3 -screen 0 1280x900x24 -nolisten tcp -noreset 3>"$work/display" >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
cleanup() {
  kill "$xvfb_pid" 2>/dev/null
  wait "$xvfb_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

i=0
while [ ! -s "$work/display" ] && [ $i -lt 100 ]; do
  sleep 0.1
  i=$((i + 1))
done
n=$(head -n 1 "$work/display")
if [ -z "$n" ]; then
  echo "Bail out! Xvfb did not start:"
  sed 's/^/# /' "$work/xvfb.log"
  exit 1
fi

export DISPLAY=":$n"
export GDK_BACKEND=x11
export GTK_A11Y=atspi
export NO_AT_BRIDGE=0
export GSETTINGS_BACKEND=memory
export GSETTINGS_SCHEMA_DIR="$schema_dir"
export HOME="$work/home"
export XDG_CONFIG_HOME="$work/home/.config"
export XDG_DATA_HOME="$work/home/.local/share"
export XDG_CACHE_HOME="$work/home/.cache"
export XDG_RUNTIME_DIR="$work/run"
export LC_ALL=C.UTF-8
export LANGUAGE=C
unset G_DEBUG
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME"
chmod 700 "$XDG_RUNTIME_DIR"
export TKS_GUI_WORK="$work"
export TKS_GUI_SHOTS="${TKS_GUI_SHOTS:-$work/shots}"
mkdir -p "$TKS_GUI_SHOTS"

# The system python has pyatspi (python3-pyatspi); another python3 on PATH may not. A
# SCRIPT that is not Python is a test program, run as it is.
# Only the script writes to standard output (TAP); the bus and the accessibility registry
# it starts write their chatter to standard error.
case $script in
  *.py) runner=/usr/bin/python3 ;;
  *) runner="" ;;
esac
dbus-run-session -- sh -c 'exec "$0" "$@" 1>&3 3>&-' \
  "${runner:-$script}" ${runner:+"$script"} "$tickscope" "$data_dir" 3>&1 1>&2
status=$?
exit $status
