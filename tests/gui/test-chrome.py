#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The window's frame at every width, through AT-SPI in Xvfb: at 1200 px the threads panel
# opens beside the timeline; made 640 px wide (the window resized as a window manager would)
# the panel folds: it is closed, the Threads button still there opens it over the timeline's
# left side, and every button of the header bar is inside the window, none over another, with
# Trigger and Record drawn differently (the narrow header shows icons). The window's minimum
# width is 640 px or less, the panel open or not. Open Recent names a file with underscores as it is written.
# Usage (through run-gui-tests.sh): test-chrome.py TICKSCOPE DATA_DIR
import ctypes
import os
import shutil
import subprocess
import sys
import time

import pyatspi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tksgui import (WORK, check, click, find, find_all, finish, get_app,  # noqa: E402
                    main_window, menu_item, press, role_name, screenshot, start, status, stop,
                    wait_for)

ESCAPE_KEY = 0xFF1B
TICKSCOPE = sys.argv[1]
DATA = sys.argv[2]
# a name with underscores, as captures saved by the viewer have ("cap10_pty_….txt")
CAPTURE = os.path.join(WORK, "cap10_pty_trigger_exits.txt")


def x_window():
    """The X window of the viewer's main window (titled after its capture): its id, read from
    xwininfo's tree."""
    tree = subprocess.run(["xwininfo", "-root", "-tree"], capture_output=True, text=True).stdout
    for line in tree.splitlines():
        words = line.split()
        if words and words[0].startswith("0x") and os.path.basename(CAPTURE) + " — Tickscope" in line:
            return int(words[0], 16)
    return None


def resize(width, height):
    """Resizes the viewer's window as a window manager does (there is none in Xvfb): the X
    window is given its new size, the toolkit lays the window out for it."""
    xlib = ctypes.CDLL("libX11.so.6")
    xlib.XOpenDisplay.restype = ctypes.c_void_p
    xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    xlib.XResizeWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_uint, ctypes.c_uint]
    xlib.XFlush.argtypes = [ctypes.c_void_p]
    xlib.XCloseDisplay.argtypes = [ctypes.c_void_p]
    wid = x_window()
    if wid is None:
        return False
    display = xlib.XOpenDisplay(None)
    xlib.XResizeWindow(display, wid, width, height)
    xlib.XFlush(display)
    xlib.XCloseDisplay(display)
    return True


def min_width_hint():
    """The minimum width the viewer asks the window manager to keep (WM_NORMAL_HINTS), or
    None."""
    wid = x_window()
    if wid is None:
        return None
    hints = subprocess.run(["xprop", "-id", str(wid), "WM_NORMAL_HINTS"], capture_output=True,
                           text=True).stdout
    for line in hints.splitlines():
        if "minimum size:" in line:
            return int(line.split("minimum size:")[1].split()[0])
    return None


def extents(node):
    e = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return (e.x, e.y, e.width, e.height)


def window_width(app):
    """The window's width, its shadow's margins (5 px each side) included."""
    return extents(main_window(app))[2] + 10


def timeline(app):
    return find(main_window(app), role_name("panel", "Timeline"))


def panel(app):
    """The threads panel, when it is shown (a closed panel leaves the tree)."""
    p = find(main_window(app), role_name("panel", "Threads"))
    return p if p is not None and extents(p)[2] > 0 else None


def threads_button(app):
    return find(main_window(app), lambda n: n.getRoleName() in ("push button", "toggle button")
                and n.name == "Threads")


def layout(app):
    """Where the panel and the timeline are: 'beside' (the timeline starts right of the panel),
    'over' (the panel covers the timeline's left side), 'closed', or None while neither reads."""
    tl, p = timeline(app), panel(app)
    if tl is None:
        return None
    if p is None:
        return "closed"
    px, _, pw, _ = extents(p)
    tx, _, tw, _ = extents(tl)
    if px + pw <= tx + 2:
        return "beside"
    if px < tx + tw and px + pw > tx:
        return "over"
    return None


def header_buttons(app):
    """The header bar's buttons in view: (name, extents); a menu button's inner button stands
    for it."""
    win = main_window(app)
    wy = extents(win)[1]
    found = []
    for n in find_all(win, lambda n: n.getRoleName() in ("push button", "toggle button")):
        try:
            x, y, w, h = extents(n)
            if w > 0 and h > 0 and y < wy + 60:
                found.append((n.name or "", (x, y, w, h)))
        except Exception:
            pass
    return found


def overlapping(buttons):
    """Pairs of buttons that cover each other (one inside another is a menu button's own
    button, not an overlap)."""
    out = []
    for i, (a, (ax, ay, aw, ah)) in enumerate(buttons):
        for b, (bx, by, bw, bh) in buttons[i + 1:]:
            inside = (ax <= bx and bx + bw <= ax + aw) or (bx <= ax and ax + aw <= bx + bw)
            if not inside and ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah:
                out.append((a, b))
    return out


def icon_pixels(path, box):
    """The pixels of the 16x16 icon at the centre of a button's box (x, y, width, height)."""
    x, y, w, h = box
    crop = (x + w // 2 - 8, y + h // 2 - 8, 16, 16)
    return subprocess.run(["convert", path, "-crop", "%dx%d+%d+%d" % (crop[2], crop[3], crop[0], crop[1]),
                           "+repage", "-colorspace", "gray", "-depth", "8", "gray:-"],
                          capture_output=True, check=True).stdout


def differing(a, b):
    return sum(1 for p, q in zip(a, b) if abs(p - q) > 40)


def wide(app):
    resize(1200, 720)
    check(wait_for(lambda: abs(window_width(app) - 1200) <= 2, 10), "the window is 1200 px wide",
          window_width(app))
    if layout(app) != "closed":
        click(threads_button(app))
    click(threads_button(app))
    beside = wait_for(lambda: layout(app) == "beside", 10)
    check(beside, "at 1200 px the threads panel opens beside the timeline", layout(app))
    screenshot("window-1200.png")
    # a window manager keeps the window at least this wide: the open panel must not count,
    # or the window could not be made narrow while it is open
    hint = wait_for(lambda: (min_width_hint() or 10000) <= 640, 10)
    check(hint, "with the panel open beside it the window may still be made 640 px wide "
          "(minimum %s)" % min_width_hint())


def narrow(app):
    resize(640, 720)
    check(wait_for(lambda: abs(window_width(app) - 640) <= 2, 10), "the window can be 640 px wide",
          window_width(app))
    check(wait_for(lambda: layout(app) == "closed", 10), "made narrow, the panel folds away and the "
          "timeline keeps the window's width", layout(app))
    tl = timeline(app)
    check(tl is not None and extents(tl)[2] >= 500, "the timeline takes the window's width",
          extents(tl) if tl else None)
    button = threads_button(app)
    check(button is not None and extents(button)[2] > 0, "the Threads button is still in the header")

    # every button of the header inside the window, none over another
    time.sleep(0.5)
    wx, _, ww, _ = extents(main_window(app))
    buttons = header_buttons(app)
    names = [n for n, _ in buttons]
    outside = [(n, e) for n, e in buttons if e[0] < wx or e[0] + e[2] > wx + ww]
    check(not outside and len(buttons) >= 10, "at 640 px every header button is inside the window "
          "(%d: %s)" % (len(buttons), ", ".join(names)), outside)
    check(not overlapping(buttons), "and none covers another", overlapping(buttons))
    for name in ("Threads", "Open", "Save", "Board", "Trigger", "Run", "Get new data", "Record",
                 "Main Menu", "Zoom to fit", "Back", "Forward"):
        check(name in names, "the narrow header offers %s" % name, names)

    # Trigger and Record: distinct names, distinct icons
    path = screenshot("header-640.png")
    trigger = [e for n, e in buttons if n == "Trigger"]
    record = [e for n, e in buttons if n == "Record"]
    if check(trigger and record, "Trigger and Record are both in view"):
        a, b = icon_pixels(path, trigger[0]), icon_pixels(path, record[0])
        check(differing(a, b) > 20, "Trigger and Record are drawn with different icons "
              "(%d of 256 pixels differ)" % differing(a, b))

    click(threads_button(app))
    over = wait_for(lambda: layout(app) == "over", 10)
    check(over, "the Threads button opens the panel over the timeline", layout(app))
    p = panel(app)
    check(p is not None and extents(p)[0] + extents(p)[2] <= wx + ww,
          "the panel is inside the window", extents(p) if p else None)
    screenshot("window-640-panel.png")
    click(threads_button(app))
    check(wait_for(lambda: layout(app) == "closed", 10), "and closes it again", layout(app))

    # smaller than the minimum: the window stays at its minimum, at most 640 px
    resize(500, 720)
    time.sleep(1.5)
    check(window_width(app) <= 640, "the window's minimum width is at most 640 px (%d)" % window_width(app))
    resize(1200, 720)
    check(wait_for(lambda: abs(window_width(app) - 1200) <= 2, 10), "and it widens again")
    click(threads_button(app))
    check(wait_for(lambda: layout(app) == "beside", 10), "wide again, the panel opens beside the timeline",
          layout(app))


def recent(app):
    name = os.path.basename(CAPTURE)
    item = wait_for(lambda: menu_item(app, "Open Recent") and find(
        app, lambda n: n.getRoleName() == "menu item" and n.name == name), 10)
    shown = [n.name for n in find_all(app, lambda n: n.getRoleName() == "menu item" and "cap10" in (n.name or ""))]
    check(item is not None, "Open Recent names %s with its underscores" % name, shown)
    screenshot("recent-menu.png")
    press(ESCAPE_KEY)
    press(ESCAPE_KEY)


def main():
    shutil.copy(os.path.join(DATA, "board-trigger-exits.raw.txt"), CAPTURE)
    proc, log = start(TICKSCOPE, CAPTURE)
    try:
        app = wait_for(get_app, 30)
        if not check(app is not None and wait_for(lambda: status(app), 30), "the capture is shown"):
            return finish(log)
        wide(app)
        narrow(app)
        recent(app)
        check(proc.poll() is None, "the viewer is still running")
    finally:
        stop(proc)
    return finish(log)


sys.exit(main())
