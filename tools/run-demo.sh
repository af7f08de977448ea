#!/bin/sh
# Installs what Tickscope needs (Debian 12, as root), builds it, and opens the viewer
# connected to its built-in simulated board. Extra arguments go to the viewer.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
"$top/tools/install-deps.sh"
if [ -f _build/build.ninja ]; then
  meson setup --reconfigure _build >/dev/null
else
  meson setup _build >/dev/null
fi
meson compile -C _build
exec "$top/_build/app/tickscope" --demo "$@"
