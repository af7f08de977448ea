#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# A picture that holds still, in the real window through AT-SPI in Xvfb, on a real board's
# capture: sorted by load, the lanes keep their order while the view zooms and pans (the panel's
# shares follow the range, the order does not) until "Sort again" takes the order anew from the
# shares shown; a pinned lane stays at the top of the lanes when they scroll.
# Usage (through run-gui-tests.sh): test-picture.py TICKSCOPE DATA_DIR
import os
import re
import sys
import time

import pyatspi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tksgui import (PLUS, check, click, find, find_all, finish, get_app, main_window, press,  # noqa: E402
                    role_name, screenshot, start, stop, view_range, wait_for)

TICKSCOPE, DATA = sys.argv[1], os.path.abspath(sys.argv[2])
CAPTURE = os.path.join(DATA, "board-trigger-exits.raw.txt")
SETTLE = 0.6                       # the panel follows the visible range after 120 ms
SORTS = ["Priority", "Load", "Name"]
UP, DOWN, RETURN, RIGHT, PAGE_DOWN = 0xFF52, 0xFF54, 0xFF0D, 0xFF53, 0xFF56
ROW = r"(.+), priority \d+, ([\d.]+) % CPU(, hidden)?"


def timeline(app):
    return find(main_window(app), role_name("panel", "Timeline"))


def headers(app):
    """The timeline's lane headers shown, as (y, name), top to bottom."""
    tl = timeline(app)
    if tl is None:
        return []
    found = []
    box = tl.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    for n in find_all(tl, lambda n: n.getRoleName() == "label"):
        try:
            ext = n.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        except Exception:
            continue
        if ext.height > 0 and box.y <= ext.y < box.y + box.height:
            found.append((ext.y, n.name or ""))
    return sorted(found)


def lanes(app):
    return [name for _, name in headers(app)]


def panel(app):
    return find(main_window(app), role_name("panel", "Threads"))


def shares(app):
    """The panel's rows: label -> CPU share."""
    p = panel(app)
    out = {}
    for n in find_all(p, lambda n: re.fullmatch(ROW, n.name or "") is not None) if p else []:
        m = re.fullmatch(ROW, n.name)
        out[m.group(1)] = float(m.group(2))
    return out


def control(app, roles, name):
    return find(panel(app), lambda n: n.getRoleName() in roles and n.name == name)


def choose_sort(app, label, current):
    box = control(app, ("combo box",), "Sort threads by")
    toggle = find(box, lambda n: n.getRoleName() in ("push button", "toggle button"))
    click(toggle)
    time.sleep(1.5)   # the popover opens (a busy machine takes its time)
    steps = SORTS.index(label) - SORTS.index(current)
    for _ in range(abs(steps)):
        press(DOWN if steps > 0 else UP)
    press(RETURN)
    return wait_for(lambda: (lambda shown: shown is not None and shown.name == label)(
        find(toggle, lambda n: n.getRoleName() == "label" and n.name in SORTS)), 30)


def by_load(app, order):
    """@order (lane names) as the panel's shares now sort it, busiest first (ties kept)."""
    now = shares(app)
    return sorted(order, key=lambda name: -now.get(name, -1))


def main():
    proc, log = start(TICKSCOPE, CAPTURE)
    app = wait_for(get_app, 60)
    if not check(app is not None and wait_for(lambda: len(lanes(app)) > 0, 60), "the capture is shown"):
        return finish(log)
    button = wait_for(lambda: find(main_window(app), lambda n: n.getRoleName() in ("push button", "toggle button")
                                   and n.name == "Threads"), 60)
    click(button)
    check(wait_for(lambda: len(shares(app)) > 5, 60), "the Threads panel shows its rows", shares(app))

    # sorted by load: the busiest of the whole view first
    check(control(app, ("push button",), "Sort again") is None, "Sort again is for the load sort only")
    if not check(choose_sort(app, "Load", "Priority"), "the sort choice offers Load"):
        stop(proc)
        return finish(log)
    taken = wait_for(lambda: lanes(app) if lanes(app) == by_load(app, lanes(app)) else None, 30)
    check(taken is not None, "sorted by load, the busiest lanes come first", lanes(app))
    taken = lanes(app)
    before = dict(shares(app))

    # zoom in and pan: the shares change, the lanes hold still
    tl = timeline(app)
    ext = tl.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    pyatspi.Registry.generateMouseEvent(ext.x + int(ext.width * 0.3), ext.y + 12, "b1c")
    time.sleep(0.3)
    start_range = view_range(app)
    for _ in range(5):
        press(PLUS)
    for _ in range(3):
        press(RIGHT)
    moved = wait_for(lambda: view_range(app) if view_range(app) != start_range else None, 30)
    time.sleep(SETTLE)
    wait_for(lambda: shares(app) != before, 30)
    after = shares(app)
    changed = [k for k in after if abs(after[k] - before.get(k, -1)) > 0.05]
    check(moved is not None and changed, "the zoom and the pan change the range and the shares",
          (start_range, moved, changed))
    check(lanes(app) == taken, "the lanes keep the order the sort took", (taken, lanes(app)))

    # Sort again: the order of the shares shown
    again = control(app, ("push button",), "Sort again")
    if check(again is not None, "with the load sort, the panel has Sort again"):
        click(again)
        check(wait_for(lambda: lanes(app) == by_load(app, lanes(app)) and lanes(app) != taken, 30),
              "Sort again orders the lanes by the shares shown", (lanes(app), shares(app)))
    screenshot("picture-sort-again.png")
    choose_sort(app, "Priority", "Load")
    press(ord("f"))
    time.sleep(SETTLE)

    # a pinned lane stays at the top while the lanes scroll (the groups expanded: more lanes
    # than the window shows)
    buttons = ("toggle button", "push button")
    for name in [n.name for n in find_all(panel(app), lambda n: n.getRoleName() in buttons
                                          and (n.name or "").startswith("Expand "))]:
        node = wait_for(lambda: control(app, buttons, name), 30)
        if node is not None:
            click(node)
            time.sleep(SETTLE)
    time.sleep(SETTLE)
    order = lanes(app)
    last = order[-1]
    pin = control(app, ("toggle button", "push button"), "Pin " + last)
    if check(pin is not None, "the last lane's row has a pin", last):
        click(pin)
        check(wait_for(lambda: lanes(app)[:1] == [last], 30), "pinned, it comes first", lanes(app)[:3])
        top = headers(app)[0][0]
        tl_ext = timeline(app).queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        pyatspi.Registry.generateMouseEvent(tl_ext.x + 60, tl_ext.y + tl_ext.height // 2, "b1c")
        time.sleep(0.3)
        for _ in range(3):
            press(PAGE_DOWN)
        time.sleep(SETTLE)
        shown = headers(app)
        check(shown and shown[0][1] == last and abs(shown[0][0] - top) <= 1,
              "the lanes scrolled, the pinned one is still at the top", shown[:3])
        check(len(shown) > 1 and shown[1][1] not in order[:3], "the others scrolled below it",
              (shown[:3], order[:3]))
        screenshot("picture-pinned.png")
    stop(proc)
    return finish(log)


sys.exit(main())
