#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# A picture that holds still, in the real window through AT-SPI in Xvfb:
# - a thread's colour follows from what it is: on a real board's capture, each thread's lane
#   is drawn in its colour (the commonest saturated colour of the lane's band in a screenshot);
#   it is the same after the threads panel sorts the lanes by load, and when a later capture
#   of the same board (two threads more, the threads listed in another order) is opened in
#   the same window; and on the viewer's simulated board (--demo), when Get new data brings the
#   board's next log, the lanes sorted by load;
# - Zoom to fit shows the data: a capture whose last thread exits were recorded 12 s after its
#   log's last switch (made from the same capture) is fitted to its log, not to the "log
#   ended" band after it.
# Usage (through run-gui-tests.sh): test-fit-colours.py TICKSCOPE DATA_DIR
import collections
import colorsys
import os
import re
import subprocess
import sys

import pyatspi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tksgui import (PATIENCE, RETURN, WORK, check, click, file_dialog_open, find,  # noqa: E402
                    find_all, finish, get_app, history, main_window, press, role_name,
                    screenshot, sensitive_button, start, stop, view_range, wait_for, wait_until)

TICKSCOPE, DATA = sys.argv[1], os.path.abspath(sys.argv[2])
MINUS, DOWN = 0x2D, 0xFF54
LANE_HEADERS = 200          # the lane headers' width, left of the time area


def extents(node):
    return node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)


def timeline(app):
    return find(main_window(app), role_name("panel", "Timeline"))


def thread_lanes(app):
    """The threads' lane headers in view, name -> extents (not handlers', sleep's, markers')."""
    tl = extents(timeline(app))
    out = {}
    for n in find_all(timeline(app), lambda n: n.getRoleName() == "label"):
        try:
            name, e = n.name or "", extents(n)
        except Exception:
            continue
        if (name and name not in out and not name.startswith("IRQ ") and "(" not in name
                and name != "CPU sleep" and e.height > 0 and tl.y + 20 < e.y
                and e.y + e.height < tl.y + tl.height):
            out[name] = e
    return out


def lane_colours(app, shot):
    """Each thread's colour in view: the commonest saturated colour of its lane's band right
    of the headers (None when the lane shows too little of it)."""
    tl = extents(timeline(app))
    heads = thread_lanes(app)
    path = screenshot(shot)
    out = {}
    for name, e in heads.items():
        box = (tl.x + LANE_HEADERS, e.y + 1, tl.width - LANE_HEADERS - 20, max(1, e.height - 2))
        data = subprocess.run(["convert", path, "-crop", "%dx%d+%d+%d" % (box[2], box[3], box[0], box[1]),
                               "+repage", "-depth", "8", "ppm:-"], check=True, capture_output=True).stdout
        body = data.split(maxsplit=4)[4]
        counts = collections.Counter()
        for i in range(0, len(body) - 2, 3):
            r, g, b = body[i], body[i + 1], body[i + 2]
            if max(r, g, b) - min(r, g, b) > 40:
                counts[(r, g, b)] += 1
        top = counts.most_common(1)
        out[name] = top[0][0] if top and top[0][1] >= 30 else None
    return out


def hue(c):
    return colorsys.rgb_to_hsv(*(v / 255 for v in c))[0] * 360


def hue_distance(a, b):
    d = abs(hue(a) - hue(b)) % 360
    return min(d, 360 - d)


def differing(before, after):
    """The threads coloured in both whose colour is not theirs, and how many were compared. A
    lane drawn narrower or over other data blends its runs with the background otherwise (a
    lighter shade of one hue): a thread's colour is its own when, of the first colours, its
    own is the nearest in hue and within 10 degrees."""
    both = [n for n in before if before[n] is not None and after.get(n) is not None]
    wrong = []
    for n in both:
        nearest = min((u for u in before if before[u] is not None),
                      key=lambda u: hue_distance(before[u], after[n]))
        if hue_distance(before[nearest], before[n]) > 0.5 or hue_distance(before[n], after[n]) > 10:
            wrong.append((n, before[n], after[n], "nearest: " + nearest))
    return wrong, len(both)


def lane_order(app):
    return [n for n, _ in sorted(thread_lanes(app).items(), key=lambda kv: kv[1].y)]


def sort_by_load(app):
    """Opens the threads panel and sorts its lanes by load (its choices: Priority, Load, Name)."""
    click(wait_for(lambda: find(main_window(app), lambda n: n.getRoleName() in ("push button", "toggle button")
                                and n.name == "Threads"), PATIENCE))
    panel = wait_for(lambda: find(main_window(app), role_name("panel", "Threads")), PATIENCE)
    box = wait_for(lambda: find(panel, lambda n: n.getRoleName() == "combo box" and n.name == "Sort threads by"),
                   PATIENCE)
    toggle = find(box, lambda n: n.getRoleName() in ("push button", "toggle button"))
    click(toggle)
    wait_for(lambda: None, 1.0)       # the popover's list is a surface of its own
    press(DOWN)
    press(RETURN)
    return wait_until(lambda: find(toggle, lambda n: n.getRoleName() == "label" and n.name == "Load"))


def listed_otherwise():
    """The board's later capture (two threads more) with its threads listed in the reverse
    order, as a board's registry may list them after threads came and went: a colour taken
    from a thread's place in the list would change."""
    text = open(os.path.join(DATA, "board-trigger-exits.saved.txt")).read()

    def reverse(m):
        lines = m.group(2).splitlines(keepends=True)
        return m.group(1) + "".join(reversed(lines))
    text = re.sub(r"^((?:ch> )?threads_list\n)((?:Thread number .*\n)+)", reverse, text, count=1, flags=re.M)
    path = os.path.join(WORK, "later-capture.raw.txt")
    with open(path, "w") as f:
        f.write(text)
    return path


def colours():
    proc, log = start(TICKSCOPE, os.path.join(DATA, "board-trigger-exits.raw.txt"))
    try:
        app = wait_for(get_app, PATIENCE)
        check(app is not None and wait_until(lambda: len(thread_lanes(app)) >= 6), "the capture's lanes are shown")
        first = lane_colours(app, "colours-first.png")
        coloured = [c for c in first.values() if c is not None]
        check(len(coloured) >= 5 and len(set(coloured)) == len(coloured),
              "the threads' lanes have colours of their own", first)
        order = lane_order(app)
        if check(sort_by_load(app), "the threads panel sorts the lanes by load"):
            wait_until(lambda: lane_order(app) != order)
            moved, n = differing(first, lane_colours(app, "colours-sorted.png"))
            check(not moved and n >= 5 and lane_order(app) != order,
                  "sorted by load, the lanes move and every thread keeps its colour (%d compared)" % n,
                  (moved, order, lane_order(app)))
        # a later capture of the same board, opened in the same window (Ctrl+O)
        later = listed_otherwise()
        for code, kind in ((37, pyatspi.KEY_PRESS), (32, pyatspi.KEY_PRESSRELEASE), (37, pyatspi.KEY_RELEASE)):
            pyatspi.Registry.generateKeyboardEvent(code, None, kind)
        file_dialog_open(app, later)
        opened = wait_until(lambda: os.path.basename(later) in (main_window(app).name or "")
                            and len(thread_lanes(app)) >= 6)
        if check(opened, "the later capture opens in the window"):
            wait_for(lambda: None, 1.0)
            moved, n = differing(first, lane_colours(app, "colours-later.png"))
            check(not moved and n >= 4, "in the later capture, every thread keeps its colour (%d compared)" % n, moved)
    finally:
        stop(proc)
    return log


def threads_only(colours):
    return {name: c for name, c in colours.items() if "×" not in name}


def fetch_colours():
    """On the built-in simulated board: each thread's colour before and after Get new data."""
    proc, log = start(TICKSCOPE, "--demo", log_name="fetch-colours.log")
    try:
        app = wait_for(get_app, PATIENCE)
        check(app is not None and wait_until(lambda: len(thread_lanes(app)) >= 6),
              "the demo board's first log shows its threads' lanes")
        if app is None:
            return
        check(sort_by_load(app), "the threads panel sorts the lanes by load")
        wait_for(lambda: None, 1.0)
        # threads, not groups (their members come and go between logs); a log whose threads
        # mostly run too briefly to show a colour at fit is followed by the board's next one
        for _ in range(4):
            first = threads_only(lane_colours(app, "colours-demo-first.png"))
            coloured = [c for c in first.values() if c is not None]
            fetch = sensitive_button(app, "Get new data") if len(coloured) < 4 else None
            if fetch is None:
                break
            before = len(history())
            click(fetch)
            wait_until(lambda: len(history()) > before and len(thread_lanes(app)) >= 6)
            wait_for(lambda: None, 1.0)
        check(len(coloured) >= 4 and len(set(coloured)) == len(coloured),
              "the demo board's threads have colours of their own", first)
        for round_ in (1, 2):
            before = len(history())
            fetch = sensitive_button(app, "Get new data")
            if not check(fetch is not None, "Get new data is enabled (fetch %d)" % round_):
                break
            click(fetch)
            fetched = wait_until(lambda: len(history()) > before and len(thread_lanes(app)) >= 6)
            if not check(fetched, "Get new data brings the board's next log (fetch %d)" % round_,
                         (before, history())):
                break
            wait_for(lambda: None, 1.0)
            after = threads_only(lane_colours(app, "colours-demo-fetch%d.png" % round_))
            # (at fit, the busiest threads' runs are thinner than a pixel, too pale to tell)
            moved, n = differing(first, after)
            check(not moved and n >= 3,
                  "after Get new data (fetch %d), every thread keeps its colour (%d compared)" % (round_, n),
                  (moved, first, after))
    finally:
        stop(proc)
    return log


def cap09_like():
    """A real board's capture whose thread exits come 12 s (12,000 ticks) after its log's last
    switch, as when a board is read long after its log froze; and the log's first and last
    switch ticks."""
    text = open(os.path.join(DATA, "board-trigger-exits.raw.txt")).read()
    switches = [(m.start(), int(m.group(1)), int(m.group(2)), int(m.group(3)))
                for m in re.finditer(r"^From +(\d+) to +(\d+) at +(\d+)$", text, re.M)]
    last = max(i for i, (_, a, b, _) in enumerate(switches) if a != b)
    first_tick, last_tick = switches[0][3], switches[last][3]

    def later(m):
        if m.start() <= switches[last][0] or m.group(1) != m.group(2):
            return m.group(0)
        return "From %2d to %2d at %7d" % (int(m.group(1)), int(m.group(2)), int(m.group(3)) + 12000)
    path = os.path.join(WORK, "exits-long-after.raw.txt")
    with open(path, "w") as f:
        f.write(re.sub(r"^From +(\d+) to +(\d+) at +(\d+)$", later, text, flags=re.M))
    return path, first_tick, last_tick


def view_ticks(app):
    """The visible range's span in ticks, as the "View … ticks a – b" line tells it."""
    r = view_range(app)
    return r[1] - r[0] if r else None


def fit():
    path, first_tick, last_tick = cap09_like()
    data = last_tick - first_tick
    proc, log = start(TICKSCOPE, path)
    try:
        app = wait_for(get_app, PATIENCE)
        check(app is not None and wait_until(lambda: view_ticks(app) is not None),
              "the capture with exits long after its log opens")
        # zoomed out to the whole capture: its log and the 12 s after
        try:
            find(main_window(app), role_name("panel", "Timeline")).queryComponent().grabFocus()
        except Exception:
            pass
        for _ in range(6):
            press(MINUS)
        wide = wait_for(lambda: view_ticks(app) if view_ticks(app) > 10000 else None, PATIENCE)
        check(wide is not None, "zoomed out, the view holds the time after the log (%s ticks)" % wide)
        click(find(main_window(app), lambda n: n.name == "Zoom to fit" and "button" in n.getRoleName()))
        span = wait_for(lambda: view_ticks(app) if view_ticks(app) < (wide or 0) else None, PATIENCE)
        screenshot("fit.png")
        check(span is not None and 0.9 * data <= span <= 1.2 * data,
              "Zoom to fit shows the log's %d ticks, not the 12,000 after it" % data, span)
    finally:
        stop(proc)
    return log


colours()
fetch_colours()
sys.exit(finish(fit()))
