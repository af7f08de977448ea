# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the bench scripts that run the viewer: a private desktop for it, as a user's
# would be. private_desktop BUILD_DIR DIR WIDTHxHEIGHT starts a private X server (Xvfb, 24-bit,
# no TCP) of that size and, when openbox is installed (tools/install-deps.sh installs it), a
# window manager in it: without one, GDK asks the X server at every frame whether a window
# manager supports frame timing, a round trip that waits for the server's drawing. It exports
# DISPLAY and an environment of the viewer's own (X11 backend, no accessibility bus, settings
# in memory with BUILD_DIR's compiled schemas, HOME and the XDG folders under DIR/home), and
# sets xvfb and wm (the servers' process ids, for the caller's clean-up: private_desktop_stop)
# and wm_name (openbox, or "no window manager").

# shellcheck disable=SC2034
xvfb="" wm="" wm_name="no window manager"

private_desktop() {
  Xvfb -displayfd 3 -screen 0 "${3}x24" -nolisten tcp 3>"$2/display" >/dev/null 2>&1 &
  xvfb=$!
  _pd_i=0
  while [ ! -s "$2/display" ] && [ $_pd_i -lt 100 ]; do sleep 0.1; _pd_i=$((_pd_i + 1)); done
  if [ ! -s "$2/display" ]; then
    echo "Xvfb did not start" >&2
    return 1
  fi
  export DISPLAY=":$(head -n 1 "$2/display")" GDK_BACKEND=x11 NO_AT_BRIDGE=1
  export GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$1/data"
  export HOME="$2/home" XDG_DATA_HOME="$2/home/.local/share" XDG_CONFIG_HOME="$2/home/.config"
  mkdir -p "$HOME"
  if command -v openbox >/dev/null 2>&1; then
    openbox >/dev/null 2>&1 &
    # shellcheck disable=SC2034
    wm=$! wm_name=openbox
    sleep 1
  fi
}

# private_desktop_stop: stops the window manager and the X server private_desktop started
private_desktop_stop() {
  for _pd_p in $wm $xvfb; do kill "$_pd_p" 2>/dev/null || true; done
  wm="" xvfb=""
}
