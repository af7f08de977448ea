#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The events list and find in the real window, through AT-SPI in Xvfb, on a board's dump with
# events whose every figure is known (tests/data/board-events-v2.raw.txt): the Events button
# opens the list; a row clicked brings its run to the timeline (the Selection panel tells its
# thread and begin); a run clicked or found on the timeline selects its row; find (Ctrl+F) counts the
# matches of an expression, goes to the next and previous ones with Enter, Shift+Enter, F3 and
# Shift+F3, and names what is wrong with a wrong expression.
# Usage (through run-gui-tests.sh): test-events-list.py TICKSCOPE DATA_DIR
import os
import re
import sys
import time

import pyatspi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tksgui import (PATIENCE, RETURN, SHIFT_KEYCODE, check, click, find, find_all,  # noqa: E402
                    finish, get_app, label_text, main_window, mouse, press, role_name,
                    screenshot, start, stop, type_text, wait_for, wait_until)

TICKSCOPE, DATA = sys.argv[1], os.path.abspath(sys.argv[2])
CTRL_KEYCODE, F_KEYCODE, F3_KEYCODE = 37, 41, 69   # Control_L, f, F3 in the default keymap
F3 = 0xFFC0
LANE_HEADERS = 200                                  # the lane headers' width, left of the time area


NODES = {}


def node(app, key, pred):
    """A node of the window found once: walking the whole tree through AT-SPI is slow."""
    if NODES.get(key) is None:
        NODES[key] = find(main_window(app), pred)
    return NODES[key]


def rows(app):
    """The events list's rows: (node, [time, kind, who, detail, duration])."""
    table = node(app, "table", role_name("tree table", "Events"))
    out = []
    for row in find_all(table, lambda n: n.getRoleName() == "table row"):
        cells = [c for c in row if c.getRoleName() == "table cell"]
        if len(cells) == 5:
            out.append((row, [(c[0].name if c.childCount else "") for c in cells]))
    return out


def selected_row(app):
    for node, cells in rows(app):
        if node.getState().contains(pyatspi.STATE_SELECTED):
            return cells
    return None


FIND_BAR = []


def find_result(app):
    """The find bar's count of matches, or what is wrong with the expression."""
    if not FIND_BAR:
        entry = node(app, "find", lambda n: n.name == "Find" and n.getRoleName() in ("entry", "text"))
        if entry is None:
            return None
        FIND_BAR.append(entry.parent)
    for n in FIND_BAR[0]:
        if n.getRoleName() == "label" and (re.search(r"\bmatch(es)?$", n.name or "") or "column" in (n.name or "")):
            return n.name
    return None


def key(*codes):
    """Keys held together, as a user presses them (keycodes of the default keymap)."""
    for c in codes[:-1]:
        pyatspi.Registry.generateKeyboardEvent(c, None, pyatspi.KEY_PRESS)
    pyatspi.Registry.generateKeyboardEvent(codes[-1], None, pyatspi.KEY_PRESSRELEASE)
    for c in reversed(codes[:-1]):
        pyatspi.Registry.generateKeyboardEvent(c, None, pyatspi.KEY_RELEASE)
    time.sleep(0.3)


def view_range(app):
    """The timeline's visible range in ms, as its "View a – b" line tells it."""
    m = re.search(r"ticks (-?[0-9.]+) – (-?[0-9.]+)", label_text(app, lambda s: s.startswith("View ")) or "")
    return (float(m.group(1)), float(m.group(2))) if m else None


def selection(app):
    """The Selection panel's thread and begin."""
    panel = node(app, "selection", role_name("panel", "Selection"))
    texts = [n.name or "" for n in find_all(panel, lambda n: n.getRoleName() == "label")
             if n.queryComponent().getExtents(pyatspi.WINDOW_COORDS).width > 0]
    fields = {texts[i]: texts[i + 1] for i in range(0, len(texts) - 1, 2)}
    return fields.get("Thread", "").split(" (")[0], fields.get("Begin")


proc, log = start(TICKSCOPE, os.path.join(DATA, "board-events-v2.raw.txt"))
try:
    app = wait_for(get_app, PATIENCE)
    check(app is not None, "the application appears on the accessibility bus")
    check(wait_for(lambda: label_text(app, lambda s: " threads," in s), PATIENCE), "the capture opens")

    # The Events button opens the list: every entry, each kind in its words.
    events = wait_for(lambda: find(main_window(app), lambda n: n.name == "Events"
                                   and "button" in n.getRoleName()), PATIENCE)
    check(events is not None, "the header bar has the Events toggle")
    click(events)
    listed = wait_for(lambda: rows(app) if len(rows(app)) >= 20 else None, PATIENCE) or []
    kinds = {cells[1] for _, cells in listed}
    check({"switch", "handler", "wake-up", "marker", "sleep"} <= kinds,
          "the list shows switches, handlers, wake-ups, markers and sleep", sorted(kinds))
    check(label_text(app, lambda s: s == "30 events in view, of 30"), "the list counts the 30 entries",
          label_text(app, lambda s: "events in view" in s))
    check(any(cells[3] == "made ready, latency 20.0 µs" and cells[2] == "sensor" for _, cells in listed),
          "a wake-up tells its latency", [c for _, c in listed if c[1] == "wake-up"])
    check(any(cells[3] == "value 9" and cells[2] == "tick" for _, cells in listed),
          "a marker tells its value", [c for _, c in listed if c[1] == "marker"])
    screenshot("events-list.png")

    # A row clicked: its run is selected on the timeline, its moment in the middle.
    target = [(n, c) for n, c in listed if c[1] == "switch" and c[3] == "main → sensor"][0]
    e = target[0].queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    mouse(e.x + e.width // 3, e.y + e.height // 2)
    got = wait_for(lambda: selection(app) if selection(app)[1] == target[1][0] else None, PATIENCE) or ("", None)
    check(got[0] == "sensor" and got[1] == target[1][0],
          "the row's run is selected: the Selection panel tells sensor at the row's time",
          (got, target[1]))
    check((selected_row(app) or [None])[0] == target[1][0], "the row stays selected", selected_row(app))

    # A click on a run in the timeline: the list selects the switch that began it. Zoom to
    # fit first: main's long run (5.05 to 28.8 ms) then covers the middle of the lanes.
    click(find(main_window(app), lambda n: n.name == "Zoom to fit" and "button" in n.getRoleName()))
    timeline = node(app, "timeline", role_name("panel", "Timeline"))
    header = find(timeline, lambda n: n.getRoleName() == "label" and n.name == "main")
    tl, lane = (n.queryComponent().getExtents(pyatspi.DESKTOP_COORDS) for n in (timeline, header))
    wait_until(lambda: view_range(app) is not None and view_range(app)[1] - view_range(app)[0] > 25)
    mouse(tl.x + LANE_HEADERS + (tl.width - LANE_HEADERS) * 0.6, lane.y + lane.height / 2)
    got = wait_for(lambda: selection(app) if selection(app)[0] == "main" else None, PATIENCE) or ("", None)
    row = wait_for(lambda: selected_row(app) if (selected_row(app) or [None])[0] == got[1] else None, PATIENCE)
    check(got[0] == "main" and row is not None and row[1:4] == ["switch", "main", "sensor → main"],
          "a run clicked on the timeline selects the switch that began it in the list", (got, row))

    # Ctrl+F: find; a wrong expression says what is wrong and where.
    key(CTRL_KEYCODE, F_KEYCODE)
    entry = wait_for(lambda: node(app, "find", lambda n: n.name == "Find"
                                  and n.getRoleName() in ("entry", "text")), PATIENCE)
    check(entry is not None and wait_for(lambda: entry.getState().contains(pyatspi.STATE_FOCUSED), PATIENCE),
          "Ctrl+F focuses Find")
    type_text("latency > 5xs")
    check(wait_for(lambda: "Unknown unit “xs” at column 12" in (find_result(app) or ""), PATIENCE),
          "a wrong unit is named with its column", find_result(app))

    # A run selected on the timeline (here by find) selects its row in the list.
    key(CTRL_KEYCODE, F_KEYCODE)
    type_text("run main > 10ms")
    check(wait_for(lambda: find_result(app) == "1 match", PATIENCE), "find counts main's long run", find_result(app))
    press(RETURN)
    got = wait_for(lambda: selection(app) if selection(app)[0] == "main" else None, PATIENCE) or ("", None)
    row = wait_for(lambda: selected_row(app) if (selected_row(app) or [None])[2:3] == ["main"] else None, PATIENCE)
    check(got[0] == "main" and row is not None and row[0] == got[1] and row[3] == "sensor → main",
          "the run selected on the timeline selects its switch in the list", (got, row))

    # Next and previous: Enter, Shift+Enter, F3, Shift+F3.
    key(CTRL_KEYCODE, F_KEYCODE)
    type_text("latency > 15us")
    check(wait_for(lambda: find_result(app) == "4 matches", PATIENCE), "latency > 15us: 4 matches", find_result(app))
    press(RETURN)
    first = wait_for(lambda: find_result(app) if " of 4 matches" in (find_result(app) or "") else None, PATIENCE)
    check(first is not None and selection(app)[0] == "sensor", "Enter goes to a match: sensor's wake-up",
          (first, selection(app)))
    n = int(first.split()[0]) if first else 0
    begin = selection(app)[1]
    press(RETURN)
    check(wait_until(lambda: find_result(app) == "%d of 4 matches" % (n % 4 + 1) and selection(app)[1] != begin),
          "Enter again: the next match, another run",
          (find_result(app), selection(app), begin))
    key(SHIFT_KEYCODE, 36)   # Shift+Return
    check(wait_until(lambda: find_result(app) == "%d of 4 matches" % n and selection(app)[1] == begin),
          "Shift+Enter: the previous match, the run again", (find_result(app), selection(app), begin))
    key(F3_KEYCODE)
    check(wait_for(lambda: find_result(app) == "%d of 4 matches" % (n % 4 + 1), PATIENCE), "F3: the next match",
          find_result(app))
    key(SHIFT_KEYCODE, F3_KEYCODE)
    check(wait_until(lambda: find_result(app) == "%d of 4 matches" % n and selection(app)[1] == begin),
          "Shift+F3: the previous match", (find_result(app), selection(app)))
    screenshot("events-find.png")
finally:
    stop(proc)
sys.exit(finish(log))
