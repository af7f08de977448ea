#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The statistics window on the real viewer, through AT-SPI in Xvfb: its figures are those of
# tickscope-cli stats for the same range (the whole capture, then the range between the marks
# A and B set with Shift+click); a capture with events has the wake-up latency, interrupt
# handler, marker and CPU share pages; Zoom to A–B shows that range in the timeline; the
# marks of threads that are not logged are counted; a capture without events has only the
# threads' table. A row leads to its worst instance (double-click, Enter): the Selection panel
# tells the run of the thread's longest run or worst wake-up, as tickscope-cli reads the
# capture; a row's ten worst are listed, each leading to its own (the Menu key reaches them); the keys ] and [
# go to the selected thread's next and previous activation, . and , to the next and previous
# event of the kind shown, also with the focus in the events list, never from the find entry;
# the table shown exports as CSV with the columns and figures shown.
# Usage (through run-gui-tests.sh): test-stats.py TICKSCOPE DATA_DIR
import csv
import os
import re
import subprocess
import sys
import time

import pyatspi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tksgui import (RETURN, WORK, check, click, file_dialog_save, find, find_all, finish,  # noqa: E402
                    get_app, main_window, menu_item, mouse, panel_fields, role_name, screenshot,
                    sensitive, start, status, stop, view_range, wait_for, window_named)

TICKSCOPE, DATA = sys.argv[1], os.path.abspath(sys.argv[2])
CLI = os.path.join(os.path.dirname(os.path.abspath(TICKSCOPE)), "cli", "tickscope-cli")
EVENTS = os.path.join(DATA, "board-events-v2.raw.txt")
PARTLY = os.path.join(DATA, "board-partly-logged-trigger.raw.txt")
RECORDED = os.path.join(DATA, "simboard-record-events.raw.txt")
ESCAPE, MENU, F8, DOWN = 0xFF1B, 0xFF67, 0xFFC5, 0xFF54
NEXT_ACTIVATION, PREVIOUS_ACTIVATION, NEXT_OF_KIND, PREVIOUS_OF_KIND, ZOOM_IN = 0x5D, 0x5B, 0x2E, 0x2C, 0x77
CTRL_KEYCODE, F_KEYCODE = 37, 41   # Control_L, f in the default keymap
UNITS = {"s": 1e6, "ms": 1e3, "µs": 1.0, "us": 1.0, "ns": 1e-3}


def cli_stats(path, *args):
    """tickscope-cli stats: its tables, by the first word of the line that heads them, as lines."""
    out = subprocess.run([CLI, "stats", path, *args], check=True, capture_output=True,
                         text=True, env=dict(os.environ, LC_ALL="C.UTF-8")).stdout
    tables, current = {}, None
    for line in out.splitlines():
        if not line.strip():
            current = None
        elif current is None:
            current = tables.setdefault(line.split()[0].rstrip(":"), [line])
        else:
            current.append(line)
    return out, tables


def fields(lines, n=None):
    """The fields of the lines of a table: split on runs of two spaces, or the last n - 1
    fields split off on any space (the events' tables: names may hold a space)."""
    if n is None:
        return [re.split(r"\s{2,}", line.strip()) for line in lines]
    return [line.rsplit(None, n - 1) for line in lines]


def rows(window, table_name):
    """The cells of each row of a table of the statistics window, as shown."""
    table = find(window, role_name("tree table", table_name))
    if table is None:
        return []
    out = []
    for row in find_all(table, lambda n: n.getRoleName() == "table row"):
        cells = [c for c in row if c.getRoleName() == "table cell"]
        if cells:
            out.append([(c[0].name or "") if c.childCount else "" for c in cells])
    return out


def histogram_names(window):
    table = find(window, role_name("tree table", "Wake-up latency"))
    return [n.name for n in find_all(table, lambda n: (n.name or "").startswith("Wake-up latency in buckets"))]


def plain(text):
    """A figure of the window as the command line writes it."""
    return "-" if text == "—" else text.replace(" %", "")


def page(window, name):
    tab = find(window, role_name("page tab", name))
    if tab is None:
        return False
    e = tab.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    pyatspi.Registry.generateMouseEvent(e.x + e.width // 2, e.y + e.height // 2, "b1c")
    return wait_for(lambda: tab.getState().contains(pyatspi.STATE_SELECTED), 5)


PAGE_TABLES = {"Threads": "Per-thread statistics", "Wake-up latency": "Wake-up latency",
               "Interrupt handlers": "Interrupt handlers", "Markers": "Markers", "CPU share": "CPU share"}


def range_button(window, name):
    return find(window, lambda n: n.getRoleName() in ("push button", "toggle button") and n.name == name)


def pressed(node):
    state = node.getState() if node is not None else None
    return state is not None and (state.contains(pyatspi.STATE_PRESSED) or state.contains(pyatspi.STATE_CHECKED))


def summary(window):
    for n in find_all(window, lambda n: n.getRoleName() == "label"):
        m = re.search(r"\(ticks (-?[0-9.]+) to (-?[0-9.]+)\)", n.name or "")
        if m:
            return m.group(1), m.group(2)
    return None


def open_stats(app):
    item = menu_item(app, "Statistics")
    if item is None:
        return None
    click(item)
    return wait_for(lambda: window_named(app, "Statistics"), 10)


def close_stats(app):
    press_key(ESCAPE)
    return wait_for(lambda: window_named(app, "Statistics") is None, 5)


def press_key(keysym):
    pyatspi.Registry.generateKeyboardEvent(keysym, None, pyatspi.KEY_SYM)
    time.sleep(0.2)


def threads_match(window, tables, what):
    """The threads' table against the command line's: every figure of every thread."""
    shown = sorted([r[0], r[1], plain(r[3]), plain(r[4]), plain(r[2]), plain(r[5]), plain(r[6]),
                    plain(r[7]), plain(r[8])] for r in rows(window, "Per-thread statistics"))
    cli = sorted(r[:9] for r in fields(tables["Thread"][1:]))
    return check(shown == cli and len(shown) > 0, what, "window %s\ncli    %s" % (shown, cli))


def events_match(window, tables, what):
    """The events' pages against the command line's tables."""
    ok = True
    for name, head, n in (("Wake-up latency", "Wake-up", 8), ("Interrupt handlers", "Interrupt", 4),
                          ("Markers", "Markers", 5), ("CPU share", "CPU", 3)):
        if not page(window, name):
            ok = check(False, "%s: the page %s opens" % (what, name))
            continue
        shown = wait_for(lambda: rows(window, PAGE_TABLES[name]), 5) or []
        shown = sorted([plain(c) for c in r[:n]] for r in shown)
        cli = sorted(fields(tables[head][2:], n))
        ok = check(shown == cli and len(shown) > 0, "%s: the %s figures are the command line's"
                   % (what, name), "window %s\ncli    %s" % (shown, cli)) and ok
    page(window, "Threads")
    return ok


def shift_click(x, y):
    """A click with Shift held, as a user measures: Shift locked around the click."""
    pyatspi.Registry.generateKeyboardEvent(1, None, pyatspi.KEY_LOCKMODIFIERS)
    time.sleep(0.1)
    pyatspi.Registry.generateMouseEvent(x, y, "b1c")
    time.sleep(0.2)
    pyatspi.Registry.generateKeyboardEvent(1, None, pyatspi.KEY_UNLOCKMODIFIERS)
    time.sleep(0.2)


proc, log = start(TICKSCOPE, EVENTS)
try:
    app = wait_for(get_app, 30)
    check(app is not None, "the application appears on the accessibility bus")
    text = wait_for(lambda: status(app), 30)
    check(text is not None and "3 threads" in text, "the capture with events opens", text)
    out, whole = cli_stats(EVENTS)

    stats = open_stats(app)
    check(stats is not None, "the Statistics window opens")
    if stats is not None:
        for name in ("Whole capture", "Visible range", "A–B", "Selected run", "Zoom to A–B"):
            check(range_button(stats, name) is not None, "the Statistics window has %s" % name)
        check(not sensitive(range_button(stats, "A–B")) and not sensitive(range_button(stats, "Zoom to A–B")),
              "without marks, A–B and Zoom to A–B are unavailable")
        for name in PAGE_TABLES:
            check(find(stats, role_name("page tab", name)) is not None, "a capture with events has the page %s" % name)
        w = stats.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        table = find(stats, role_name("tree table", "Per-thread statistics"))
        t = table.queryComponent().getExtents(pyatspi.DESKTOP_COORDS) if table else None
        heads = find_all(table, lambda n: n.getRoleName() == "label")[:10]
        last = heads[-1].queryComponent().getExtents(pyatspi.DESKTOP_COORDS) if heads else None
        # the screen is 1280 pixels wide (run-gui-tests.sh)
        check(t is not None and last is not None and t.width <= w.width + 1
              and last.x + last.width <= w.x + w.width and w.x + w.width <= 1280,
              "the window opens as wide as its columns, within the screen",
              (w.x, w.width, t.width if t else None, last))
        heads = [n.name for n in heads]
        check("Shortest run" in heads and "Marks" in heads, "the threads' table has a shortest run and the marks", heads)
        threads_match(stats, whole, "the whole capture: the threads' figures are the command line's")
        screenshot("stats-threads.png")
        if page(stats, "Wake-up latency"):
            latency = rows(stats, "Wake-up latency")
            check([r[:8] for r in latency] == [["sensor", "5", "0", "10.000", "220.000", "30.000", "1000.000", "1000.000"]],
                  "the latency table has a row for sensor, woken 5 times", latency)
            hist = histogram_names(stats)
            check(len(hist) == 1 and "µs" in hist[0], "sensor's latency has its histogram, described", hist)
            screenshot("stats-latency.png")
        if page(stats, "Interrupt handlers"):
            handlers = rows(stats, "Interrupt handlers")
            check(["USART1_IRQHandler", "4", "35.000", "15.000"] in handlers,
                  "the handler row of USART1_IRQHandler: 4 runs, 35 µs in all, the longest 15 µs", handlers)
        events_match(stats, whole, "the whole capture")
        if page(stats, "Periods"):
            sensor = wait_for(lambda: find(stats, lambda n: n.getRoleName() == "label" and n.name == "sensor"), 5)
            check(sensor is not None, "the periods page has a row for sensor")
            show = find(stats, lambda n: n.getRoleName() == "push button"
                        and n.name == "Show the longest response of sensor on the timeline")
            check(show is not None, "the periods page offers to show sensor's longest response")
            page(stats, "Threads")
        check(close_stats(app), "Escape closes the Statistics window")

    # Measure: Shift+click two points of the timeline, A then B.
    timeline = find(main_window(app), role_name("panel", "Timeline"))
    e = timeline.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    y = e.y + e.height // 3
    shift_click(e.x + 200 + (e.width - 200) * 5 // 100, y)
    shift_click(e.x + 200 + (e.width - 200) * 6 // 10, y)
    measured = wait_for(lambda: status(app, ("Δt",)), 5)
    check(measured, "Shift+click twice sets A and B", status(app, ("Δt", " threads,")))
    # and select a run of main, its long one in the middle of the capture
    main = find(timeline, lambda n: n.getRoleName() == "label" and n.name == "main")
    if main is not None:
        m = main.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        pyatspi.Registry.generateMouseEvent(e.x + 200 + (e.width - 200) // 2, m.y + m.height // 2, "b1c")
        time.sleep(0.3)

    stats = open_stats(app)
    if stats is not None:
        check(wait_for(lambda: sensitive(range_button(stats, "A–B")), 5), "with A and B set, A–B is available")
        check(pressed(range_button(stats, "A–B")),
              "opened with A and B set, the window shows the A–B range")
        ab = wait_for(lambda: summary(stats), 5)
        check(ab is not None and ab != ("1", "32"), "the summary says the range of A–B", ab)
        if ab is not None:
            out_ab, ranged = cli_stats(EVENTS, "--from", ab[0], "--to", ab[1])
            check(ranged["Thread"] != whole["Thread"], "the range's figures differ from the whole capture's",
                  out_ab)
            threads_match(stats, ranged, "A–B: the threads' figures are tickscope-cli stats --from A --to B's")
            events_match(stats, ranged, "A–B")
            screenshot("stats-ab.png")

            # the selected run
            check(sensitive(range_button(stats, "Selected run")), "with a run selected, Selected run is available")
            click(range_button(stats, "Selected run"))
            run = wait_for(lambda: summary(stats) if summary(stats) != ab else None, 5)
            check(run is not None, "Selected run: the summary says the run's range", run)
            if run is not None:
                out_run, of_run = cli_stats(EVENTS, "--from", run[0], "--to", run[1])
                threads_match(stats, of_run, "Selected run: the figures are tickscope-cli stats --from --to's")
                main_row = [r for r in rows(stats, "Per-thread statistics") if r[0] == "main"]
                check(main_row and main_row[0][4] == "100.00 %", "main ran the whole of its run", main_row)

            # the whole capture again, then back to A–B
            click(range_button(stats, "Whole capture"))
            threads_match(stats, whole, "Whole capture: the figures of the whole capture again")
            click(range_button(stats, "A–B"))
            check(wait_for(lambda: summary(stats) == ab, 5), "A–B again", summary(stats))

            check(sensitive(range_button(stats, "Zoom to A–B")), "Zoom to A–B is available")
            click(range_button(stats, "Zoom to A–B"))
            want = (float(ab[0]), float(ab[1]))
            zoomed = wait_for(lambda: all(abs(a - b) < 0.0005 for a, b in zip(view_range(app) or (0, 0), want)), 5)
            check(zoomed, "Zoom to A–B shows that range in the timeline", (want, status(app, ("View ",))))
            screenshot("stats-zoomed.png")
        close_stats(app)
finally:
    stop(proc)

# A capture whose threads are partly logged: their IN and OUT marks are counted; no events.
proc, log = start(TICKSCOPE, PARTLY)
try:
    app = wait_for(get_app, 30)
    wait_for(lambda: status(app, (" threads,",)), 30)
    out, whole = cli_stats(PARTLY)
    stats = open_stats(app)
    if check(stats is not None, "the Statistics window opens on a partly logged capture"):
        wait_for(lambda: len(rows(stats, "Per-thread statistics")) >= 18, 10)
        shown = rows(stats, "Per-thread statistics")
        marks = {r[0]: r[9] for r in shown}
        check(marks.get("spawner") == "7 IN, 7 OUT" and marks.get("housekeep") == "137 IN, 171 OUT",
              "the IN and OUT marks of the threads that are not logged are counted", marks)
        check(marks.get("sensor") == "—", "a logged thread has no marks column", marks)
        threads_match(stats, whole, "a partly logged capture: the figures are the command line's")
        tabs = find(stats, lambda n: n.getRoleName() == "page tab list")
        tables = [n.name for n in find_all(stats, lambda n: n.getRoleName() == "tree table")]
        check((tabs is None or not tabs.getState().contains(pyatspi.STATE_VISIBLE))
              and tables == ["Per-thread statistics"],
              "a capture without events has only the threads' table", tables)
        screenshot("stats-partly-logged.png")
        close_stats(app)
finally:
    stop(proc)

# From a figure to its moment, on a recording with events whose rows have many instances.
def micros(text):
    """The first length in text ("1.000 ms", "15.0 µs"), in µs, or None."""
    m = re.search(r"(-?[0-9]+(?:\.[0-9]+)?)\s*(ms|µs|us|ns|s)(?![a-z])", text or "")
    return float(m.group(1)) * UNITS[m.group(2)] if m else None


def table_row(window, table_name, first):
    """The row of a table whose first cell is first: its node and its cells."""
    table = find(window, role_name("tree table", table_name))
    for row in find_all(table, lambda n: n.getRoleName() == "table row") if table else []:
        cells = [c for c in row if c.getRoleName() == "table cell"]
        if cells and cells[0].childCount and cells[0][0].name == first:
            return cells[0], [(c[0].name or "") if c.childCount else "" for c in cells]
    return None, None


def activate_row(window, table_name, first):
    """A click on the row's first cell (selected, focused), then Enter."""
    cell, cells = wait_for(lambda: table_row(window, table_name, first)[0] and table_row(window, table_name, first), 10) or (None, None)
    if cell is None:
        return None
    e = cell.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    mouse(e.x + e.width // 2, e.y + e.height // 2)
    press_key(RETURN)
    return cells


def selected(app):
    fields_now = panel_fields(app) or {}
    return fields_now if fields_now.get("Begin") else None


def moved(app, before):
    """The Selection panel once it tells another run than before."""
    return wait_for(lambda: selected(app) if selected(app) not in (None, before) else None, 5)


def worst_entries(app):
    lst = find(app, role_name("list", "Ten worst instances"))
    if lst is None:
        return []
    return [n for n in lst if n.getRoleName() == "list item" and (n.name or "")[:1].isdigit()]


def cli_latencies(path, thread):
    out = subprocess.run([CLI, "find", path, "latency " + thread], check=True, capture_output=True,
                         text=True, env=dict(os.environ, LC_ALL="C.UTF-8")).stdout
    return sorted((micros(line.split("latency", 1)[1]) for line in out.splitlines() if "latency" in line),
                  reverse=True)


def key_combo(*codes):
    for c in codes[:-1]:
        pyatspi.Registry.generateKeyboardEvent(c, None, pyatspi.KEY_PRESS)
    pyatspi.Registry.generateKeyboardEvent(codes[-1], None, pyatspi.KEY_PRESSRELEASE)
    for c in reversed(codes[:-1]):
        pyatspi.Registry.generateKeyboardEvent(c, None, pyatspi.KEY_RELEASE)
    time.sleep(0.3)


proc, log = start(TICKSCOPE, RECORDED, log_name="instances.log")
try:
    app = wait_for(get_app, 30)
    wait_for(lambda: status(app), 30)
    out, recorded = cli_stats(RECORDED)
    cli_threads = {r[0]: r for r in fields(recorded["Thread"][1:])}
    cli_latency = {r[0]: r for r in fields(recorded["Wake-up"][2:], 8)}
    stats = open_stats(app)
    check(stats is not None, "the Statistics window opens on a recording with events")

    # the threads' table: sensor's row leads to its longest run
    seen = view_range(app)
    shown = stats is not None and activate_row(stats, "Per-thread statistics", "sensor")
    got = moved(app, None) or {}
    longest = float(cli_threads["sensor"][7]) * 1000
    check(got.get("Thread", "").startswith("sensor") and micros(got.get("Duration")) is not None
          and abs(micros(got.get("Duration")) - longest) <= 1.0,
          "Enter on sensor's row selects its longest run: the Selection panel tells its duration, "
          "tickscope-cli's longest run", (shown, got, longest))
    check(wait_for(lambda: view_range(app) not in (None, seen), 5), "the timeline moves to that run",
          (seen, view_range(app)))

    # the wake-up latency table: sensor's worst wake-up, and its ten worst
    if stats is not None and page(stats, "Wake-up latency"):
        before = selected(app)
        activate_row(stats, "Wake-up latency", "sensor")
        got = moved(app, before) or {}
        worst = float(cli_latency["sensor"][7])
        check(got.get("Thread", "").startswith("sensor")
              and micros(got.get("Wake-up latency")) == worst,
              "Enter on sensor's latency row selects its worst wake-up (%.1f µs, tickscope-cli's)" % worst,
              got)
        worst_run = got
        entries = wait_for(lambda: worst_entries(app) if len(worst_entries(app)) >= 10 else None, 5) or []
        names = [n.name for n in entries]
        check(len(entries) == 10, "the selected row's ten worst instances are listed", names)
        ten = cli_latencies(RECORDED, "sensor")[:10]
        check([micros(n.split(". ", 1)[1]) for n in names] == ten,
              "they are sensor's ten longest latencies, as tickscope-cli find lists them", (names, ten))
        screenshot("stats-ten-worst.png")
        if len(entries) == 10:
            # by the keyboard: the Menu key puts the focus on the first entry, Down to the third
            press_key(MENU)
            focused = wait_for(lambda: [i for i, n in enumerate(worst_entries(app))
                                        if n.getState().contains(pyatspi.STATE_FOCUSED)], 5) or []
            check(focused == [0], "the Menu key puts the focus on the first of them", focused)
            press_key(DOWN)
            press_key(DOWN)
            focused = [i for i, n in enumerate(worst_entries(app)) if n.getState().contains(pyatspi.STATE_FOCUSED)]
            press_key(RETURN)
            got = moved(app, worst_run) or {}
            check(focused == [2], "Down reaches the third entry", focused)
            check(micros(got.get("Wake-up latency")) == micros(names[2].split(". ", 1)[1])
                  and got.get("Thread", "").startswith("sensor"),
                  "the third entry selects its wake-up", (names[2], got))
            # back to the worst, for the keys
            activate_row(stats, "Wake-up latency", "sensor")
            moved(app, got)

        # the focus still in the Statistics window after a row showed its worst instance: the
        # timeline's keys move the main window's selection from there, ] to the next activation
        activate_row(stats, "Wake-up latency", "sensor")
        wait_for(lambda: selected(app) == worst_run, 5)
        check(wait_for(lambda: stats.getState().contains(pyatspi.STATE_ACTIVE) or None, 5),
              "the Statistics window keeps the focus when a row shows its instance")
        press_key(NEXT_ACTIVATION)
        after = moved(app, worst_run) or {}
        number = lambda run: int(re.match(r"([0-9]+) of", run.get("Activation", "0 of")).group(1))  # noqa: E731
        check(after.get("Thread") == worst_run.get("Thread") and number(after) == number(worst_run) + 1,
              "] typed in the Statistics window selects the thread's next activation", (worst_run, after))
        press_key(PREVIOUS_ACTIVATION)
        check(wait_for(lambda: selected(app) == worst_run, 5), "[ typed there goes back to the worst wake-up",
              (worst_run, selected(app)))
        press_key(NEXT_OF_KIND)
        after = moved(app, worst_run) or {}
        check(after.get("Thread") == worst_run.get("Thread") and after.get("Wake-up latency")
              and after.get("Begin") != worst_run.get("Begin"),
              ". typed there selects sensor's next wake-up", (worst_run, after))
        press_key(PREVIOUS_OF_KIND)
        check(wait_for(lambda: selected(app) == worst_run, 5), ", typed there goes back to the worst wake-up",
              (worst_run, selected(app)))
        check(window_named(app, "Statistics") is not None, "the Statistics window stays open")
    close_stats(app)

    # ] and [: the selected thread's next and previous activation; . and ,: the next and
    # previous wake-up of the kind shown (sensor's)
    start_run = selected(app) or {}
    activation = re.match(r"([0-9]+) of ([0-9]+)", start_run.get("Activation", ""))
    press_key(NEXT_ACTIVATION)
    after = moved(app, start_run) or {}
    later = re.match(r"([0-9]+) of ([0-9]+)", after.get("Activation", ""))
    check(activation and later and int(later.group(1)) > int(activation.group(1))
          and after.get("Thread") == start_run.get("Thread"),
          "] selects the thread's next activation", (start_run, after))
    press_key(PREVIOUS_ACTIVATION)
    check(wait_for(lambda: selected(app) == start_run, 5), "[ goes back to the previous one",
          (start_run, selected(app)))
    press_key(NEXT_OF_KIND)
    after = moved(app, start_run) or {}
    check(after.get("Thread") == start_run.get("Thread") and after.get("Wake-up latency")
          and after.get("Begin") != start_run.get("Begin"),
          ". selects the next event of the kind shown: sensor's next wake-up", (start_run, after))
    press_key(PREVIOUS_OF_KIND)
    check(wait_for(lambda: selected(app) == start_run, 5), ", goes back to the worst wake-up",
          (start_run, selected(app)))

    # with the focus in the events list
    press_key(F8)
    table = wait_for(lambda: find(main_window(app), role_name("tree table", "Events")), 10)
    rows_now = wait_for(lambda: [r for r in find_all(table, lambda n: n.getRoleName() == "table row")
                                 if len([c for c in r if c.getRoleName() == "table cell"]) == 5], 10) or []
    check(table is not None and rows_now, "F8 opens the events list")
    if rows_now:
        cell = [c for c in rows_now[len(rows_now) // 2] if c.getRoleName() == "table cell"][0]
        e = cell.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        mouse(e.x + e.width // 2, e.y + e.height // 2)
        focused = wait_for(lambda: selected(app), 5) or {}
        time.sleep(0.5)
        focused = selected(app) or {}
        press_key(NEXT_ACTIVATION)
        after = moved(app, focused) or {}
        check(after.get("Thread") == focused.get("Thread") and after.get("Begin") != focused.get("Begin"),
              "] works with the focus in the events list", (focused, after))
        seen = view_range(app)
        press_key(ZOOM_IN)
        zoomed = wait_for(lambda: view_range(app) if view_range(app) not in (None, seen) else None, 5)
        check(zoomed and seen and zoomed[1] - zoomed[0] < seen[1] - seen[0],
              "w zooms in with the focus in the events list", (seen, zoomed))
    press_key(F8)

    # the find entry types ] rather than moving
    here = selected(app)
    key_combo(CTRL_KEYCODE, F_KEYCODE)
    time.sleep(0.5)
    entry = wait_for(lambda: find(main_window(app), lambda n: n.name == "Find"
                                  and n.getRoleName() in ("entry", "text")), 5)
    check(wait_for(lambda: entry is not None and entry.getState().contains(pyatspi.STATE_FOCUSED), 5),
          "Ctrl+F puts the focus in the find entry")
    press_key(NEXT_ACTIVATION)
    time.sleep(0.5)
    # typed into the entry, "]" is looked for as a name: find counts its matches
    bar = entry.parent if entry is not None else None
    typed = wait_for(lambda: [n.name for n in (bar or []) if n.getRoleName() == "label"
                              and re.search(r"\bmatch(es)?$", n.name or "")], 5)
    check(typed == ["0 matches"] and selected(app) == here, "in the find entry, ] is typed, the selection stays",
          (typed, here, selected(app)))
    press_key(ESCAPE)

    # CSV: the table shown, as shown
    stats = open_stats(app)
    if stats is not None:
        page(stats, "Threads")
        path = os.path.join(WORK, "statistics-threads.csv")
        if os.path.exists(path):
            os.unlink(path)
        export = wait_for(lambda: range_button(stats, "Export CSV…"), 5)
        check(export is not None and sensitive(export), "the Statistics window offers Export CSV…")
        if export is not None:
            click(export)
            file_dialog_save(app, "Export Table as CSV", path)
            check(wait_for(lambda: os.path.exists(path), 10), "the CSV file is written", path)
            with open(path, newline="", encoding="utf-8") if os.path.exists(path) else open(os.devnull) as f:
                table = list(csv.reader(f))
            heads = [n.name for n in find_all(find(stats, role_name("tree table", "Per-thread statistics")),
                                              lambda n: n.getRoleName() == "label")[:10]]
            check(table and table[0] == [h + " (%)" if h == "Share" else h for h in heads],
                  "its header is the table's columns, the share's unit said", (table[:1], heads))
            shown = [[c.replace(" %", "") if c != "—" else "" for c in r] for r in rows(stats, "Per-thread statistics")]
            check(table[1:len(shown) + 1] == shown and len(shown) > 10
                  and len(table) - 1 == len(recorded["Thread"]) - 1,
                  "its rows are the table's, in its order, as shown", (table[1:3], shown[:2]))
        close_stats(app)
finally:
    stop(proc)

# The built-in demo board, which has every kind of event: every page has its rows.
proc, log = start(TICKSCOPE, "--demo", log_name="demo.log")
try:
    app = wait_for(get_app, 30)
    demo = wait_for(lambda: status(app), 30)
    if "simulated board" not in (demo or ""):
        check(True, "# SKIP no built-in demo board in this build")
    else:
        stats = open_stats(app)
        if check(stats is not None, "the Statistics window opens on the demo"):
            for name in PAGE_TABLES:
                shown = page(stats, name) and wait_for(lambda: rows(stats, PAGE_TABLES[name]), 10)
                check(shown, "the demo: the page %s has rows" % name, shown)
                if name == "Wake-up latency" and shown:
                    check(all(r[1] != "0" or r[2] != "0" for r in shown) and histogram_names(stats),
                          "the demo: each woken thread has its wake-ups and a histogram", shown)
                    screenshot("stats-demo-latency.png")
            # the Periods page: each thread's longest response, brought into view
            if check(page(stats, "Periods"), "the demo: the Periods page opens"):
                show = wait_for(lambda: find(stats, lambda n: n.getRoleName() == "push button" and
                                             (n.name or "").startswith("Show the longest response of ")), 10)
                check(show is not None, "the demo: a thread's longest response can be shown")
                if show is not None:
                    seen = view_range(app)
                    click(show)
                    moved = wait_for(lambda: view_range(app) not in (None, seen), 5)
                    check(moved, "the demo: Show longest brings it into view", (seen, view_range(app)))
            close_stats(app)
finally:
    stop(proc)
finish(log)
