#!/bin/sh
# Installs everything Tickscope needs to build, run and test on Debian 12 (run as root).
set -eu
export DEBIAN_FRONTEND=noninteractive
# gcc-multilib and qemu-user: the real-kernel tests build ChibiOS's simulator, a 32-bit x86
# program, and run it through qemu-i386 where the kernel runs no 32-bit programs.
# gtkwave: its vcd2fst and fst2vcd read the VCD export back in test-export-traces.
packages="
  build-essential clang meson ninja-build pkg-config gettext
  libglib2.0-dev libgtk-4-dev libadwaita-1-dev libserialport-dev
  desktop-file-utils appstream libglib2.0-bin
  xvfb xauth openbox dbus dbus-x11 at-spi2-core python3 python3-pyatspi python3-gi gir1.2-gtk-4.0
  imagemagick pango1.0-tools fontconfig valgrind libclang-rt-14-dev libjson-glib-dev
  gcc-arm-none-eabi libnewlib-arm-none-eabi
  make gcc-multilib qemu-user pmccabe
  g++ debhelper dpkg-dev lintian flatpak-builder
  gtkwave
"
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  apt-get update -qq
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing
fi
