#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Closing cleans up: with the threads panel and the events list opened and closed, and the
# statistics window opened and closed twice, Ctrl+W closes the window, the viewer exits and
# no widget is finalized with children left (GTK warns of each on standard error).
# Usage (through run-gui-tests.sh): test-close.py TICKSCOPE DATA_DIR
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pyatspi  # noqa: E402
from tksgui import (check, click, find, finish, get_app, lane_names, press, role_name,  # noqa: E402
                    start, stop, wait_for, window_named)

TICKSCOPE = sys.argv[1]
DATA = sys.argv[2]
CTRL_KEYCODE, I_KEYCODE, W_KEYCODE = 37, 31, 25
F8, F9, ESCAPE = 0xFFC5, 0xFFC6, 0xFF1B


def key(*codes):
    for code in codes[:-1]:
        pyatspi.Registry.generateKeyboardEvent(code, None, pyatspi.KEY_PRESS)
    pyatspi.Registry.generateKeyboardEvent(codes[-1], None, pyatspi.KEY_PRESSRELEASE)
    for code in reversed(codes[:-1]):
        pyatspi.Registry.generateKeyboardEvent(code, None, pyatspi.KEY_RELEASE)


def main():
    proc, log = start(TICKSCOPE, os.path.join(DATA, "board-events-v2.raw.txt"))
    try:
        app = wait_for(get_app, 30)
        if not check(app is not None, "the application appears on the accessibility bus"):
            return finish(log)
        check(wait_for(lambda: "sensor" in lane_names(app), 30), "the capture is shown")
        press(F9)
        press(F8)
        for i in range(2):
            key(CTRL_KEYCODE, I_KEYCODE)
            stats = wait_for(lambda: window_named(app, "Statistics"), 15)
            if not check(stats is not None, "Ctrl+I opens the Statistics window (%d)" % (i + 1)):
                break
            for name in ("Periods", "Wake-up latency", "Threads"):
                tab = wait_for(lambda: find(stats, role_name("page tab", name)), 5)
                if tab is not None:
                    click(tab)
            press(ESCAPE)
            check(wait_for(lambda: window_named(app, "Statistics") is None, 10),
                  "Escape closes the Statistics window (%d)" % (i + 1))
        press(F9)
        press(F8)
        time.sleep(1)
        key(CTRL_KEYCODE, W_KEYCODE)
        try:
            status = proc.wait(60)
        except Exception:
            status = None
        check(status == 0, "Ctrl+W closes the window and the viewer exits with status 0", status)
        text = open(log).read()
        check("still has children left" not in text,
              "no widget is finalized with children left", text)
    finally:
        if proc.poll() is None:
            stop(proc)
    return finish(log)


sys.exit(main())
