#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The threads panel in the real window, through AT-SPI in Xvfb, on a real board's capture with
# sixteen exited threads: the "Threads" button opens it; the exited threads of one name and
# priority are one lane ("Exited dynamic thread ×N", counts from the command line's lane
# table) that expands into its members; each row's CPU share is what `tickscope-cli stats`
# says of the visible range, before and after a zoom; a lane is hidden and shown again, pinned
# to the top and unpinned; the sort choice orders the lanes by name and by load; Ctrl+Shift+F goes
# to "Search threads", whose text filters the panel's rows and leaves the timeline alone.
# Usage (through run-gui-tests.sh): test-threads.py TICKSCOPE DATA_DIR
import collections
import os
import re
import subprocess
import sys
import time

import pyatspi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tksgui import (PATIENCE, PLUS, SHIFT_KEYCODE, check, click, find, find_all, finish,  # noqa: E402
                    get_app, label_text, main_window, press, role_name, screenshot, start, stop,
                    type_text, wait_for, wait_until)

TICKSCOPE, DATA = sys.argv[1], os.path.abspath(sys.argv[2])
CLI = os.path.join(os.path.dirname(TICKSCOPE), "cli", "tickscope-cli")
CAPTURE = os.path.join(DATA, "board-trigger-exits.raw.txt")
EXITED = "Exited dynamic thread"
CTRL_KEYCODE, F_KEYCODE, M_KEYCODE = 37, 41, 58   # Control_L, f and m in the X server's default keymap
ESCAPE = 0xFF1B


def cli(*args):
    return subprocess.run([CLI, *args], check=True, capture_output=True, text=True).stdout


def lane_table():
    """(priority, name) of each lane of `tickscope-cli info`, highest priority first."""
    lanes, inside = [], False
    for line in cli("info", CAPTURE).splitlines():
        if line.strip().startswith("prio  name"):
            inside = True
            continue
        if inside:
            m = re.match(r"\s+(\d+)\s+(.+?)\s{2,}\d+\s+(yes|no)", line)
            if not m:
                break
            lanes.append((int(m.group(1)), m.group(2)))
    return lanes


def stats_shares(*args):
    """Share % of each thread row of `tickscope-cli stats`, as (name, priority) -> [share]."""
    shares = collections.defaultdict(list)
    for line in cli("stats", CAPTURE, *args).splitlines():
        m = re.match(r"(.+?)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+\d+", line)
        if m and not line.startswith("Thread"):
            shares[(m.group(1).strip(), int(m.group(2)))].append(float(m.group(4)))
    return shares


def timeline(app):
    return find(main_window(app), role_name("panel", "Timeline"))


def lanes(app):
    """The timeline's lane headers, top to bottom (the ones in view)."""
    tl = timeline(app)
    if tl is None:
        return []
    found = []
    for n in find_all(tl, lambda n: n.getRoleName() == "label"):
        try:
            ext = n.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        except Exception:
            continue
        found.append((ext.y, n.name or ""))
    return [name for _, name in sorted(found)]


def panel(app):
    return find(main_window(app), role_name("panel", "Threads"))


def panel_open(app):
    """Whether the panel takes room: the timeline starts right of it."""
    tl = timeline(app)
    return tl is not None and tl.queryComponent().getExtents(pyatspi.WINDOW_COORDS).x > 200


def rows(app):
    """The panel's rows: their accessible labels ("NAME, priority P, S % CPU[, hidden]")."""
    p = panel(app)
    return [n.name for n in find_all(p, lambda n: re.fullmatch(ROW, n.name or "") is not None)] if p else []


ROW = r".+, priority \d+, [\d.]+ % CPU(, hidden)?"


def row_share(app, label):
    for r in rows(app):
        m = re.match(re.escape(label) + r", priority (\d+), ([\d.]+) % CPU", r)
        if m:
            return float(m.group(2))
    return None


def compare_shares(app, shares):
    """The rows whose share is not the statistics' (a group's: its members' sum)."""
    bad = []
    for (name, prio), values in shares.items():
        pattern = re.escape(name) + (r" ×\d+" if name == EXITED else "") + r", priority %d, ([\d.]+) %% CPU" % prio
        got = [float(m.group(1)) for r in rows(app) for m in [re.fullmatch(pattern, r)] if m]
        want = sum(values)
        if len(got) != 1 or abs(got[0] - want) > (0.1 if name == EXITED else 0.051):
            bad.append((name, prio, got, want))
    return bad


def control(app, role, name):
    roles = ("push button", "toggle button") if role == "toggle button" else (role,)
    return find(panel(app), lambda n: n.getRoleName() in roles and n.name == name)


def view_range(app):
    text = label_text(app, lambda s: s.startswith("View "))
    m = re.search(r"ticks (-?[0-9.]+) – (-?[0-9.]+)", text or "")
    return (m.group(1), m.group(2)) if m else None


def settled_range(app, timeout=PATIENCE):
    """The visible range once two readings a second apart agree (keys given in a row are
    handled one by one, each moving the range)."""
    last = view_range(app)
    end = time.time() + timeout
    while time.time() < end:
        time.sleep(1.0)
        now = view_range(app)
        if now == last:
            break
        last = now
    return last


def press_on(node):
    """A click in the middle of @node, as the mouse gives it (check boxes have no action)."""
    ext = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    pyatspi.Registry.generateMouseEvent(ext.x + ext.width // 2, ext.y + ext.height // 2, "b1c")
    time.sleep(0.3)


SORTS = ["Priority", "Load", "Name"]
UP, DOWN, RETURN = 0xFF52, 0xFF54, 0xFF0D


def choose_sort(app, label, current):
    """Opens the sort dropdown and picks @label with the keys (its popover is a surface of its
    own, where the accessibility tree's positions do not hold)."""
    box = control(app, "combo box", "Sort threads by")
    toggle = find(box, lambda n: n.getRoleName() in ("push button", "toggle button"))
    check(toggle is not None and toggle.name == "Sort threads by",
          "the sort dropdown's button has the dropdown's name", toggle.name if toggle else None)
    click(toggle)
    time.sleep(0.5)     # the popover maps; what follows waits for the choice itself
    steps = SORTS.index(label) - SORTS.index(current)
    for _ in range(abs(steps)):
        press(DOWN if steps > 0 else UP)
    press(RETURN)
    return wait_until(lambda: find(toggle, lambda n: n.getRoleName() == "label" and n.name == label))


def main():
    lane_list = lane_table()
    groups = collections.Counter(p for p, name in lane_list if name == EXITED)
    singles = [(p, name) for p, name in lane_list if name != EXITED]
    proc, log = start(TICKSCOPE, CAPTURE)
    app = wait_for(get_app, PATIENCE)
    if not check(app is not None and wait_until(lambda: len(lanes(app)) > 0), "the capture is shown"):
        return finish(log)

    button = wait_for(lambda: find(main_window(app), lambda n: n.getRoleName() in ("push button", "toggle button")
                                   and n.name == "Threads"), PATIENCE)
    check(button is not None, "the header bar has a Threads button")
    check(not panel_open(app), "the panel starts closed")
    click(button)
    check(wait_until(lambda: panel_open(app)), "the Threads button opens the panel")
    wait_until(lambda: len(rows(app)) == len(lanes(app)) > 0)

    # grouping: one lane per name and priority of exited threads
    want_groups = sorted("%s ×%d" % (EXITED, n) for n in groups.values())
    shown = lanes(app)
    check(sorted(s for s in shown if s.startswith(EXITED)) == want_groups,
          "the exited threads are grouped per priority (%s)" % ", ".join(want_groups), shown)
    check(len(shown) == len(singles) + len(groups),
          "the timeline has a lane per thread and per group (%d)" % (len(singles) + len(groups)), shown)
    check(sorted(rows(app)) == sorted(r for r in rows(app)) and len(rows(app)) == len(shown),
          "the panel has a row per lane", rows(app))

    # CPU shares: the visible range is the whole capture, as the command line's statistics
    shares = stats_shares()
    wait_until(lambda: not compare_shares(app, shares))
    bad = compare_shares(app, shares)
    check(not bad and len(shares) > 5, "each row's CPU share is the statistics' share of the range "
          "(a group's: the sum of its members')", bad)

    # the shares follow the visible range: zoom in, compare with the statistics of that range
    before = view_range(app)
    tl = timeline(app)
    ext = tl.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    # a click on the timeline (after the log's end, where nothing is selected) gives it the keys
    pyatspi.Registry.generateMouseEvent(ext.x + int(ext.width * 0.3), ext.y + 12, "b1c")
    time.sleep(0.3)
    for _ in range(6):
        press(PLUS)
    # six steps: the range is the last one once it holds still for the panel's follow-up
    after = wait_for(lambda: view_range(app) if view_range(app) != before else None, PATIENCE)
    if check(after is not None, "a zoom changes the visible range", (before, after)):
        after = settled_range(app)
        zoomed = stats_shares("--from", after[0], "--to", after[1])
        wait_until(lambda: not compare_shares(app, zoomed))
        bad = compare_shares(app, zoomed)
        moved = sum(abs(sum(zoomed[k]) - sum(shares[k])) > 0.1 for k in zoomed)
        check(not bad and moved > 0, "after a zoom, the shares are the statistics' of the new range "
              "(%d of them changed)" % moved, bad)
    press(ord("f"))   # zoom to fit again
    wait_until(lambda: view_range(app) != after, 10)

    # hide and show a lane
    press_on(control(app, "check box", "Show filter"))
    check(wait_until(lambda: "filter" not in lanes(app)), "unchecking Show filter hides its lane", lanes(app))
    check(any(r.startswith("filter,") and r.endswith("hidden") for r in rows(app)), "the row says hidden")
    press_on(control(app, "check box", "Show filter"))
    check(wait_until(lambda: "filter" in lanes(app) and lanes(app) == shown) and lanes(app) == shown,
          "checking it again puts the lane back in its place", lanes(app))

    # pin the lowest lane to the top
    click(control(app, "toggle button", "Pin idle"))
    check(wait_until(lambda: lanes(app)[:1] == ["idle"]), "Pin idle puts its lane first", lanes(app)[:3])
    check(rows(app)[0].startswith("idle,"), "and its row first in the panel", rows(app)[:2])
    click(control(app, "toggle button", "Pin idle"))
    check(wait_until(lambda: lanes(app) == shown), "unpinned, it goes back", lanes(app))

    # expand the group at the lowest priority into its members
    prio = min(groups)
    label = "%s ×%d" % (EXITED, groups[prio])
    lowest = [r for r in rows(app) if r.startswith(label + ", priority %d" % prio)]
    expanders = [n.name for n in find_all(panel(app), lambda n: n.getRoleName() in ("push button", "toggle button")
                                          and (n.name or "").startswith("Expand "))]
    check(len(expanders) == len(groups) and len(set(expanders)) == len(expanders)
          and ("Expand %s, priority %d" % (label, prio)) in expanders,
          "each group's Expand is named with its priority: groups of one name differ", expanders)
    click(control(app, "toggle button", "Expand %s, priority %d" % (label, prio)))
    members = wait_for(lambda: [s for s in lanes(app) if s.startswith("#")], PATIENCE) or []
    check(len(members) == groups[prio] and all(re.match(r"#\d+, exited (at -?[\d.]+ ms|before the log)", s)
                                              for s in members),
          "Expand shows the %d members, numbered, with their exits" % groups[prio], members)
    screenshot("threads-expanded.png")
    click(control(app, "toggle button", "Expand %s, priority %d" % (label, prio)))
    check(wait_until(lambda: lanes(app) == shown) and lowest, "collapsed again, one lane", lanes(app))

    # sort by name, then by load; then back to priority
    if check(choose_sort(app, "Name", "Priority"), "the sort choice offers Name"):
        names = [re.sub(r" ×\d+$", "", s) for s in lanes(app)]
        check(names == sorted(names), "sorted by name, the lanes are in name order", names)
    if check(choose_sort(app, "Load", "Name"), "the sort choice offers Load"):
        loads = [row_share(app, s) for s in lanes(app)]
        check(all(a is not None for a in loads) and loads == sorted(loads, reverse=True)
              and lanes(app)[:2] != shown[:2],
              "sorted by load, the busiest lanes come first", list(zip(lanes(app), loads)))
    choose_sort(app, "Priority", "Load")
    check(wait_until(lambda: lanes(app) == shown), "sorted by priority again, the first order", lanes(app))

    # Ctrl+Shift+F: the search entry; its text filters the panel only
    pyatspi.Registry.generateKeyboardEvent(CTRL_KEYCODE, None, pyatspi.KEY_PRESS)
    pyatspi.Registry.generateKeyboardEvent(SHIFT_KEYCODE, None, pyatspi.KEY_PRESS)
    pyatspi.Registry.generateKeyboardEvent(F_KEYCODE, None, pyatspi.KEY_PRESSRELEASE)
    pyatspi.Registry.generateKeyboardEvent(SHIFT_KEYCODE, None, pyatspi.KEY_RELEASE)
    pyatspi.Registry.generateKeyboardEvent(CTRL_KEYCODE, None, pyatspi.KEY_RELEASE)
    entry = control(app, "entry", "Search threads")
    check(wait_until(lambda: entry.getState().contains(pyatspi.STATE_FOCUSED)),
          "Ctrl+Shift+F focuses Search threads")
    type_text("sens")
    check(wait_until(lambda: len(rows(app)) == 1 and rows(app)[0].startswith("sensor,")),
          "typing 'sens' leaves the sensor row alone in the panel", rows(app))
    check(lanes(app) == shown, "the search leaves the timeline's lanes as they were", lanes(app))
    screenshot("threads-search.png")
    press(ESCAPE)
    check(wait_until(lambda: len(rows(app)) == len(shown)), "Escape clears the search", rows(app))

    # with the cursors A and B set (Shift+click twice), the shares are of A–B
    ext = timeline(app).queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    for fraction in (0.2, 0.45):
        pyatspi.Registry.generateKeyboardEvent(1, None, pyatspi.KEY_LOCKMODIFIERS)
        time.sleep(0.1)
        pyatspi.Registry.generateMouseEvent(ext.x + 200 + int((ext.width - 200) * fraction), ext.y + 80, "b1c")
        time.sleep(0.2)
        pyatspi.Registry.generateKeyboardEvent(1, None, pyatspi.KEY_UNLOCKMODIFIERS)
        time.sleep(0.2)
    caption = wait_for(lambda: label_text(app, lambda s: s.startswith("CPU share between the cursors")), PATIENCE)
    check(caption is not None, "with A and B set, the panel says its shares are of A–B")
    # Ctrl+M zooms to A–B: the view's range is then A–B, to the thousandth of a tick
    pyatspi.Registry.generateKeyboardEvent(CTRL_KEYCODE, None, pyatspi.KEY_PRESS)
    pyatspi.Registry.generateKeyboardEvent(M_KEYCODE, None, pyatspi.KEY_PRESSRELEASE)
    pyatspi.Registry.generateKeyboardEvent(CTRL_KEYCODE, None, pyatspi.KEY_RELEASE)
    ab = wait_for(lambda: view_range(app) if view_range(app) != before else None, PATIENCE)
    if check(ab is not None, "Ctrl+M zooms to A–B", ab):
        ab = settled_range(app)
        ranged = stats_shares("--from", ab[0], "--to", ab[1])
        wait_until(lambda: not compare_shares(app, ranged))
        bad = compare_shares(app, ranged)
        moved = sum(abs(sum(ranged[k]) - sum(shares[k])) > 0.1 for k in ranged)
        check(not bad and moved > 0, "the shares are tickscope-cli stats --from A --to B's "
              "(%d differ from the whole capture's)" % moved, bad)

    # the panel closes with its button
    click(button)
    check(wait_until(lambda: not panel_open(app)), "the Threads button closes the panel")
    stop(proc)
    return finish(log)


sys.exit(main())
