#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Recording in the real window, through AT-SPI in Xvfb, on the built-in simulated board
# (tickscope --demo): Record streams the board's log into a file of the history folder; while
# it runs the "Live load" table lists the threads with their CPU share of the last second
# (together about 100 %: one thread always runs), switches per second and longest run (a
# GtkColumnView: a table of named rows and cells for screen readers), and the
# timeline rolls with the newest data; the same button stops; the recording then opens as a
# capture whose record count is what `tickscope-cli info` reads in the file, the message says
# nothing was dropped, and the board can be used again (Get new data). While recording the
# Record button is a red "Stop Recording" button. Then a board over TCP
# (tickscope-simboard) killed in the middle of a recording: the recording ends with a message
# and the file, complete up to then, opens as a capture. Then a recording whose live view keeps only
# a few seconds (TICKSCOPE_LIVE_BYTES): the "Recording position" scale brings back its first
# seconds, read from the file, and "Back to Live" follows the newest data again. Then the Threads
# panel while recording: open, its rows follow; closed and opened again, they are brought up to date.
# The events list opened while recording counts the view's rows and follows the next stretches.
# Usage (through run-gui-tests.sh): test-record.py TICKSCOPE DATA_DIR
import glob
import os
import re
import signal
import subprocess
import sys
import time

import pyatspi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tksgui import (PATIENCE, check, click, count_colours, find, find_all, finish,  # noqa: E402
                    free_port, get_app, label_text, lane_names, listening, main_window, mouse,
                    open_main_menu, panel_fields, press, role_name, screenshot, sensitive, start,
                    status, stop, view_range, wait_for)

TICKSCOPE = sys.argv[1]
CLI = os.path.join(os.path.dirname(TICKSCOPE), "cli", "tickscope-cli")
HISTORY = os.path.join(os.environ["XDG_DATA_HOME"], "tickscope", "captures")
SIMBOARD = os.environ.get("TKS_SIMBOARD")


def record_button(app):
    return find(main_window(app), lambda n: n.name == "Record"
                and n.getRoleName() in ("push button", "toggle button"))


def stop_button(app):
    """Record while recording: a red Stop button named "Stop Recording"."""
    return find(main_window(app), lambda n: n.name == "Stop Recording"
                and n.getRoleName() in ("push button", "toggle button"))


def red_pixels(app, node, name):
    """The pixels of @node's box, in a screenshot, of the red of a destructive button."""
    e = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    path = screenshot(name)
    return count_colours(path, {"red": lambda r, g, b: r > 150 and g < 90 and b < 90},
                         (e.x, e.y, e.width, e.height))["red"]


def recording_header(app):
    """While recording, Record is a red Stop button, named and described "Stop Recording";
    no button is named Record then."""
    stop_ = wait_for(lambda: stop_button(app), 20)
    if not check(stop_ is not None and record_button(app) is None,
                 "while recording, Record is the Stop Recording button"):
        return
    check(stop_.description == "Stop Recording", "its tooltip and description say so", stop_.description)
    red = red_pixels(app, stop_, "recording-header.png")
    e = stop_.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    check(red > e.width * e.height // 2, "and it is red (%d of %d pixels)" % (red, e.width * e.height))


def live_load_table(app):
    return find(main_window(app), lambda n: n.name == "Live load" and n.getRoleName() in ("table", "tree table"))


HEADINGS = ["Thread", "CPU %", "Switches/s", "Longest run"]


def live_load(app):
    """The rows of the Live load table, a table for assistive technologies (a GtkColumnView):
    its heading row of column titles, then a row per thread named by what its cells say, each
    cell named by its text. [(thread, cpu, switches per second, longest run)]; [] while it is
    not such a table. Blank rows (the second's threads were fewer) are left out."""
    table = live_load_table(app)
    if table is None:
        return []
    try:
        children = list(table)
        heading = [c for c in children if c.getRoleName() == "table row"]
        titles = [n.name for n in find_all(heading[0], lambda n: n.getRoleName() == "label")] if heading else []
        rows = [r for c in children if c.getRoleName() == "list" for r in c if r.getRoleName() == "table row"]
        rows = [r for r in rows if r.name]
        cells = [[c.name or "" for c in r] for r in rows]
        roles = [[c.getRoleName() for c in r] for r in rows]
        names = [r.name or "" for r in rows]
    except Exception:
        return []
    if titles != HEADINGS:
        return []
    out = []
    for name, row, role in zip(names, cells, roles):
        # each row reads as "thread, CPU %, switches/s, longest run"
        if len(row) != 4 or set(role) != {"table cell"} or \
                name != "%s, %s %% CPU, %s switches/s, longest run %s" % tuple(row):
            return []
        out.append((row[0], float(row[1]), float(row[2]), row[3]))
    return out


def live_state(app):
    """What the window says of the stream's drops and silences: the label above the table,
    and the table's description for screen readers (the same text), and whether the table is
    sensitive."""
    def read():
        try:
            table = live_load_table(app)
            text = label_text(app, lambda s: s.startswith("Dropped by the board") or s.startswith("No data "))
            return [text, table.description if table is not None else None,
                    table.getState().contains(pyatspi.STATE_SENSITIVE) if table is not None else None]
        except Exception:
            # the lane headers are made anew each second while recording: a read may meet one gone
            return None
    return wait_for(read, 3) or [None, None, None]


def view_end(app):
    r = view_range(app)
    return r[1] if r else None


def lane_colour(r, g, b):
    """Saturated, and not the blue of the frame around the visible range (0.21, 0.52, 0.89)."""
    return max(r, g, b) - min(r, g, b) > 60 and abs(r - 54) + abs(g - 133) + abs(b - 227) >= 90


def time_area_pixels(app, widget, name):
    """The time area of the widget of accessible name @widget (the timeline, the overview) in a
    screenshot: its pixels' bytes and how many are of a lane's colour (saturated), or (None, 0)
    without that widget."""
    node = find(main_window(app), lambda n: n.name == widget)
    if node is None:
        return None, 0
    ext = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    box = (ext.x + 190, ext.y, ext.width - 190, ext.height)   # right of the lane headers' room
    path = screenshot(name)
    crop = subprocess.run(["convert", path, "-crop", "%dx%d+%d+%d" % (box[2], box[3], box[0], box[1]),
                           "+repage", "-depth", "8", "ppm:-"], capture_output=True).stdout
    coloured = count_colours(path, {"lane": lane_colour}, box)["lane"]
    return crop, coloured


def dark_pixels(app, name):
    """The near-black pixels of the main window in a screenshot: the window's text alone makes
    about 5,000, a tooltip's black box of two lines adds 10,000 to 40,000."""
    ext = main_window(app).queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    path = screenshot(name)
    return count_colours(path, {"dark": lambda r, g, b: max(r, g, b) < 60},
                         (ext.x, ext.y, ext.width, ext.height))["dark"]


def point_at_timeline_bottom(app):
    """The pointer rests over the timeline's lower part, which the recording's panels take:
    the timeline gives a run's tooltip there."""
    node = find(main_window(app), lambda n: n.name == "Timeline")
    ext = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    shown = False
    # (a lane between two runs has none: the next lane down, until one has)
    for part in (0.65, 0.7, 0.75, 0.8, 0.85):
        x, y = int(ext.x + ext.width * 0.6), int(ext.y + ext.height * part)
        pyatspi.Registry.generateMouseEvent(x, y, "abs")
        time.sleep(0.2)
        pyatspi.Registry.generateMouseEvent(x + 3, y, "abs")
        shown = wait_for(lambda: dark_pixels(app, "tooltip.png") > 12000, 2)
        if shown:
            break
    check(shown, "a still pointer over the timeline gets a tooltip")


def area_follows(app, widget, shot, what):
    """@widget's time area shows the live capture in its lanes' colours, drawn again as it grows."""
    shots = []

    def coloured_area():
        shots[:] = [time_area_pixels(app, widget, shot + "-1.png")]
        return shots[0][1] > 100
    # (a worker draws each second's image: on a busy machine it may come late, never not at all)
    wait_for(coloured_area, PATIENCE, step=0.5)
    before, coloured = shots[0] if shots else (None, 0)
    check(coloured > 100, "%s draws the recording's runs in their lanes' colours (%d pixels)" % (what, coloured))
    time.sleep(2.5)
    changed = wait_for(lambda: before != time_area_pixels(app, widget, shot + "-2.png")[0], PATIENCE, step=0.5)
    check(before is not None and changed, "and is drawn again as the recording goes on")


def table_keeps_height(app):
    """Threads come and go on the demo board (its jobs start and exit), so the seconds list
    more and fewer of them; the table blanks its surplus rows rather than removes them. Its
    height never shrinks while recording (each change would lay the whole window out again),
    and a blanked row is hidden from screen readers: every sample reads as a whole table."""
    counts, heights = [], []
    for _ in range(24):
        # (a read that spans the second's update may pair old cells with new names: read again;
        # on a busy machine a walk through the table can take longer than a second, so a sample
        # may find no whole read in its time)
        rows = wait_for(lambda: live_load(app) or None, 10)
        table = live_load_table(app)
        if rows and table is not None:
            counts.append(len(rows))
            heights.append(table.queryComponent().getExtents(pyatspi.DESKTOP_COORDS).height)
        time.sleep(0.25)
    check(len(counts) >= 12 and len(set(counts)) > 1, "the seconds list more and fewer threads "
          "(%s), each read whole by a screen reader (%d of 24 samples)" % (sorted(set(counts)), len(counts)),
          counts)
    check(heights == sorted(heights), "the table's height never shrinks", heights)


def recording_line(app):
    # the lane headers are made anew each second while recording: a read may meet one gone
    return wait_for(lambda: label_text(app, lambda s: s.startswith("Recording to ")), 3)


def main():
    proc, log = start(TICKSCOPE, "--demo")
    app = wait_for(get_app, 30)
    if not check(app is not None and wait_for(lambda: status(app), 30), "the demo board's capture is shown"):
        return finish(log)
    button = wait_for(lambda: record_button(app) if sensitive(record_button(app)) else None, 20)
    if not check(button is not None, "connected to a board that has threads_record, Record is enabled"):
        return finish(log)

    point_at_timeline_bottom(app)
    click(button)
    line = wait_for(lambda: recording_line(app), PATIENCE)
    check(line is not None, "Record starts a recording into a file", line)
    recording_header(app)
    rows = wait_for(lambda: live_load(app) if len(live_load(app)) >= 5 else None, PATIENCE) or []
    names = [r[0] for r in rows]
    total = sum(r[1] for r in rows)
    check({"idle", "sensor", "filter"} <= set(names), "the Live load table lists the threads", names)
    check(abs(total - 100) <= 2, "their CPU shares of the last second add up to 100 %% (%.1f)" % total, rows)
    check(rows == sorted(rows, key=lambda r: -r[1]), "busiest first", rows)
    check(live_state(app)[0] is None and not live_state(app)[1],
          "nothing dropped, the stream flowing: no warning over the table", live_state(app))
    check(all(r[2] >= 0 for r in rows) and any(r[2] > 100 for r in rows),
          "with switches per second (the sensor thread runs every 2 ticks)", rows)
    table_keeps_height(app)
    first_end = wait_for(lambda: view_end(app), PATIENCE)
    time.sleep(2.5)
    later_end = wait_for(lambda: view_end(app), PATIENCE)
    check(first_end is not None and later_end is not None and later_end > first_end + 1000,
          "the timeline rolls with the newest data (view ends at %s, then %s)" % (first_end, later_end))
    events = [int(m.group(1)) for m in [re.search(r": (\d+) events", recording_line(app) or "")] if m]
    check(events and events[0] > 1000, "the recording counts what arrived", recording_line(app))
    # the recording's panels took the place under the pointer, which did not move
    dark = dark_pixels(app, "recording.png")
    check(dark < 12000, "the tooltip of the capture before the recording does not stay over the live view "
          "(%d dark pixels)" % dark)
    # the timeline's image of each second is drawn by a worker, the previous one shown meanwhile
    area_follows(app, "Timeline", "timeline", "the timeline")
    area_follows(app, "Overview of the whole capture", "overview", "the overview under the timeline")

    click(wait_for(lambda: stop_button(app), PATIENCE))
    title = wait_for(lambda: main_window(app).name if "record-" in (main_window(app).name or "") else None, PATIENCE)
    check(record_button(app) is not None and stop_button(app) is None, "stopped, the button is Record again")
    check(title is not None and recording_line(app) is None or recording_line(app) == "",
          "Record again stops, and the recording opens as a capture", title)
    files = glob.glob(os.path.join(HISTORY, "record-*.txt"))
    check(len(files) == 1, "the recording is a file of the history folder", files)
    if files:
        info = subprocess.run([CLI, "info", files[0]], capture_output=True, text=True).stdout
        records = re.search(r"Records:\s+(\d+)", info)
        shown = wait_for(lambda: status(app) if "records" in status(app) else None, PATIENCE) or ""
        check(records is not None and (" %s records" % records.group(1)) in shown,
              "the window shows every record the file has (%s)" % (records.group(1) if records else "?"), shown)
    done = label_text(app, lambda s: s.startswith("Recorded "))
    check(done is not None and " 0 dropped" in done, "the message sums the recording up, nothing dropped", done)
    fetch = wait_for(lambda: find(main_window(app), lambda n: n.name == "Get new data" and sensitive(n)), PATIENCE)
    check(fetch is not None, "the board is connected again: Get new data is enabled")
    check(proc.poll() is None, "the viewer is still running")
    stop(proc)
    closed_while_recording()
    scrolled_back()
    kept_while_rolling()
    threads_panel()
    recorded_events()
    if SIMBOARD:
        pulled_cable(glob.glob(os.path.join(HISTORY, "record-*.txt")))
        slow_and_stalled()
    return finish(log)


def closed_while_recording():
    """Ctrl+W while recording: the window waits for the board to end its stream, then
    closes; the file is complete (its end line), not cut."""
    before = set(glob.glob(os.path.join(HISTORY, "record-*.txt")))
    proc, log = start(TICKSCOPE, "--demo", "--record", log_name="tickscope-close.log")
    app = wait_for(get_app, 30)
    wait_for(lambda: app and len(live_load(app)) >= 5, 20)
    pyatspi.Registry.generateKeyboardEvent(37, None, pyatspi.KEY_PRESS)        # Control_L
    pyatspi.Registry.generateKeyboardEvent(25, None, pyatspi.KEY_PRESSRELEASE)  # w
    pyatspi.Registry.generateKeyboardEvent(37, None, pyatspi.KEY_RELEASE)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        pass
    check(proc.poll() is not None, "Ctrl+W while recording closes the window once the recording ended")
    files = sorted(set(glob.glob(os.path.join(HISTORY, "record-*.txt"))) - before)
    text = open(files[-1], errors="replace").read() if files else ""
    info = subprocess.run([CLI, "info", files[-1]], capture_output=True, text=True) if files else None
    check("End of dump:" in text and info is not None and "was cut" not in info.stdout,
          "its file is complete: the board's end line is in it", (files, text[-200:]))
    if proc.poll() is None:
        stop(proc)


def position_label(app):
    return label_text(app, lambda s: s == "Live" or re.match(r"At \d+:\d\d of \d+:\d\d$", s) is not None)


def scrolled_back():
    """While recording, the view goes back to a stretch older than the live view holds."""
    os.environ["TICKSCOPE_LIVE_BYTES"] = "12000"   # a live view of about four seconds
    proc, log = start(TICKSCOPE, "--demo", "--record", log_name="tickscope-back.log")
    del os.environ["TICKSCOPE_LIVE_BYTES"]
    app = wait_for(get_app, 30)
    scale = wait_for(lambda: find(main_window(app), lambda n: n.name == "Recording position"
                                  and n.getRoleName() == "slider") if app else None, 20)
    if not check(scale is not None, "while recording, a Recording position scale"):
        stop(proc)
        return
    check(wait_for(lambda: position_label(app) == "Live", PATIENCE), "it says the view is live", position_label(app))
    time.sleep(14)
    live_end = wait_for(lambda: view_end(app), PATIENCE)
    # left alone while live, the scale is brought up to date when the pointer comes to it
    x, y, w, h = scale.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    pyatspi.Registry.generateMouseEvent(x + w // 2, y + h // 2, "abs")
    value = scale.queryValue()
    check(wait_for(lambda: value.maximumValue >= 12, PATIENCE), "its end is the recording's length in seconds",
          value.maximumValue)
    check(value.currentValue == value.maximumValue, "its knob at the end while live",
          (value.currentValue, value.maximumValue))
    value.currentValue = 1.0
    back = wait_for(lambda: position_label(app) if (position_label(app) or "").startswith("At 0:01 of") else None, PATIENCE)
    check(back is not None, "moved back, it says where the view is", position_label(app))
    back_end = wait_for(lambda: view_end(app) if view_end(app) is not None and live_end is not None
                        and view_end(app) < live_end - 8000 else None, PATIENCE)
    check(back_end is not None, "the view shows the recording's first seconds, older than the live view "
          "holds: read back from the file (view ends at %s, live at %s)" % (view_end(app), live_end))
    shown = status(app) or ""
    records = re.search(r"(\d+) records", shown)
    check(records is not None and int(records.group(1)) > 100, "with their records", shown)
    time.sleep(2)
    check(view_end(app) == back_end, "it stays there while the recording goes on", (view_end(app), back_end))
    screenshot("recording-back.png")
    live = find(main_window(app), lambda n: n.name == "Back to Live" and n.getRoleName() == "push button")
    check(sensitive(live), "Back to Live is enabled")
    if live is not None:
        click(live)
    again = wait_for(lambda: view_end(app) if position_label(app) == "Live" and (view_end(app) or 0) > live_end
                     else None, 20)
    check(again is not None, "Back to Live follows the newest data again", (position_label(app), view_end(app)))
    stop(proc)


def kept_while_rolling():
    """Each second of a recording shows a new stretch of its file. What the user placed on
    the timeline stays where it was in the recording: the selected run (the Selection panel
    still tells it), the cursors A and B, and a view scrolled back a little in the live
    stretch, which stays on its time rather than jumping away; and so they stay when the
    recording stops and opens whole."""
    proc, log = start(TICKSCOPE, "--demo", "--record", log_name="tickscope-kept.log")
    app = wait_for(get_app, 30)
    tl = wait_for(lambda: find(main_window(app), role_name("panel", "Timeline")) if app else None, 20)
    if not check(tl is not None and wait_for(lambda: view_end(app), 10) is not None,
                 "recording, the timeline rolls"):
        stop(proc)
        return
    time.sleep(3)
    box = tl.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    left, width = box.x + 190, box.width - 190
    # the lanes in view, by their headers; a click in the middle of one of them selects a run
    headers = []
    for n in find_all(tl, lambda n: n.getRoleName() == "label"):
        try:
            e = n.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        except Exception:      # a header gone meanwhile (its thread exited)
            continue
        if e.height > 0 and box.y + 30 < e.y and e.y + e.height < box.y + box.height:
            headers.append(e)
    selected = None
    for lane in sorted(headers, key=lambda e: e.y):
        for k in range(4):
            mouse(left + width * (0.5 + 0.05 * k), lane.y + lane.height / 2)
            selected = wait_for(lambda: panel_fields(app) if "Begin" in (panel_fields(app) or {})
                                else None, 1)
            if selected:
                break
        if selected:
            break
    check(selected and selected.get("Thread"), "a click on a lane selects a run", (selected, len(headers)))
    check(selected and "Activation" not in selected,
          "while recording, no activation number: the stretch shown does not hold all the runs", selected)
    mouse(left + width * 0.2, box.y + 20, shift=True)
    mouse(left + width * 0.4, box.y + 20, shift=True)
    marks = wait_for(lambda: panel_fields(app) if "Δt (B − A)" in (panel_fields(app) or {}) else None, PATIENCE) or {}
    check("Cursor A" in marks and "Cursor B" in marks, "Shift+clicks set the cursors A and B", marks)
    first_end = view_end(app)
    time.sleep(2.5)
    # read again until the panel answers (on a loaded machine a read can fall between two
    # seconds' captures): a selection really lost never shows "Begin" again
    later = wait_for(lambda: panel_fields(app) if "Begin" in (panel_fields(app) or {}) else None,
                     PATIENCE) or {}
    check(first_end is not None and (view_end(app) or 0) > first_end + 1000, "the view rolls on",
          (first_end, view_end(app)))
    check(selected and all(later.get(k) == selected.get(k) for k in ("Thread", "Begin")),
          "two seconds later the same run is selected", (selected, later))
    check(marks and all(later.get(k) == marks.get(k) for k in ("Cursor A", "Cursor B", "Δt (B − A)")),
          "and the cursors are where they were", (marks, later))
    press(0xff51)    # Left, to the timeline the clicks focused: pans back
    time.sleep(1.2)  # (and the next second's stretch is shown)
    back = wait_for(lambda: view_range(app), PATIENCE)
    time.sleep(2.5)
    now = wait_for(lambda: view_range(app), PATIENCE)
    check(back is not None and now == back, "a view scrolled back in the live stretch stays "
          "on its time while the recording goes on", (back, now))
    # stopped, the whole recording opens as a capture: the view, the run and the cursors stay
    click(wait_for(lambda: stop_button(app), PATIENCE))
    title = wait_for(lambda: main_window(app).name if "record-" in (main_window(app).name or "") else None, PATIENCE)
    time.sleep(1)
    after = panel_fields(app) or {}
    check(title is not None and view_range(app) == back, "stopped, the recording is a capture shown "
          "where the view was", (title, back, view_range(app)))
    check(selected and all(after.get(k) == selected.get(k) for k in ("Thread", "Begin")) and marks
          and all(after.get(k) == marks.get(k) for k in ("Cursor A", "Cursor B")),
          "with the same run selected and the same cursors", (selected, marks, after))
    check(re.match(r"\d+ of \d+$", after.get("Activation") or "") is not None,
          "and now its activation number among the thread's runs", after)
    stop(proc)


PANEL_ROW = re.compile(r"(.+), priority \d+, ([\d.]+) % CPU(, hidden)?")


def panel_rows(app):
    """The Threads panel's rows while it is open: {name: share of the visible range}."""
    panel = find(main_window(app), lambda n: n.getRoleName() == "panel" and n.name == "Threads")
    rows = {}
    for n in find_all(panel, lambda n: PANEL_ROW.fullmatch(n.name or "") is not None) if panel else []:
        try:
            m = PANEL_ROW.fullmatch(n.name or "")
        except Exception:
            continue
        if m:
            rows[m.group(1)] = float(m.group(2))
    return rows


def busy_rows(app, other=None):
    """The panel's rows once they hold the busy sensor thread, and differ from @other."""
    rows = panel_rows(app)
    return rows if rows.get("sensor", 0) > 5 and rows != other else None


def threads_panel():
    """The Threads panel during a recording: its rows follow each second's capture while it is
    open, and are brought up to date when it opens again after the captures of its closed
    seconds (it leaves them alone while closed)."""
    proc, log = start(TICKSCOPE, "--demo", "--record", log_name="tickscope-panel.log")
    app = wait_for(get_app, 30)
    wait_for(lambda: app and len(live_load(app)) >= 5, 20)
    button = find(main_window(app), lambda n: n.getRoleName() in ("push button", "toggle button")
                  and n.name == "Threads")
    if not check(button is not None, "while recording, the Threads button is there"):
        stop(proc)
        return
    click(button)
    # a row is read through a few calls of the bus each: about 60 rows take seconds to read
    first = wait_for(lambda: busy_rows(app), 20) or {}
    check(first and all(0 <= v <= 100 for v in first.values()),
          "opened while recording, its rows give the shares of the visible range", first)
    time.sleep(2)
    later = wait_for(lambda: busy_rows(app, first), 20) or {}
    screenshot("recording-threads.png")
    check(later, "open, they follow the rolling view", (first, later))
    click(button)
    time.sleep(3.5)
    click(button)
    again = wait_for(lambda: busy_rows(app, later), 20) or {}
    check(again, "closed for three seconds and opened again, they are of the view now", (later, again))
    check(proc.poll() is None, "the viewer is still running")
    stop(proc)


def events_list_while_recording(app):
    """The events list opened while recording counts the rows of the view, and each next
    stretch's as they come (its count changes); closed, it is closed."""
    toggle = find(main_window(app), lambda n: n.name == "Events" and "button" in n.getRoleName())
    if not check(toggle is not None, "the header bar has the Events toggle while recording"):
        return
    click(toggle)
    first = wait_for(lambda: label_text(app, lambda s: re.match(r"[1-9]\d* events in view", s)), PATIENCE)
    later = wait_for(lambda: label_text(app, lambda s: re.match(r"[1-9]\d* events in view", s) and s != first),
                     PATIENCE)
    check(first is not None and later is not None,
          "the events list shown while recording counts the view's rows, then the next stretch's",
          (first, later))
    screenshot("recording-events-list.png")
    click(toggle)


def recorded_events():
    """The main menu's Record Interrupts, Wake-ups and Markers: Record then streams the board's
    events too; the live view has their lanes, and the file reads with them."""
    before = set(glob.glob(os.path.join(HISTORY, "record-*.txt")))
    proc, log = start(TICKSCOPE, "--demo", log_name="tickscope-events.log")
    app = wait_for(get_app, 30)
    button = wait_for(lambda: record_button(app) if app and sensitive(record_button(app)) else None, 20)
    open_main_menu(app)
    item = wait_for(lambda: find(app, lambda n: n.getRoleName() in ("check menu item", "menu item",
                                                                     "check box", "push button")
                                 and n.name == "Record Interrupts, Wake-ups and Markers"), PATIENCE)
    if not check(button is not None and item is not None,
                 "the main menu has Record Interrupts, Wake-ups and Markers"):
        stop(proc)
        return
    click(item)
    time.sleep(0.5)
    click(record_button(app))
    lanes = wait_for(lambda: lane_names(app) if any(n.startswith("IRQ ") for n in lane_names(app)) else None,
                     15) or []
    check(lanes and "CPU sleep" in lanes, "while recording, the live view has the interrupts' and "
          "the CPU's sleep lanes", lanes)
    screenshot("recording-events.png")
    events_list_while_recording(app)
    click(wait_for(lambda: stop_button(app), PATIENCE))
    wait_for(lambda: "record-" in (main_window(app).name or ""), PATIENCE)
    files = sorted(set(glob.glob(os.path.join(HISTORY, "record-*.txt"))) - before)
    info = subprocess.run([CLI, "info", files[-1]], capture_output=True, text=True).stdout if files else ""
    irq = re.search(r"(\d+) irq enter", info)
    check(files and open(files[-1], errors="replace").readline().startswith("threads_record events")
          and irq is not None and int(irq.group(1)) > 100,
          "the board was asked for its events, and the file holds them", info[:600])
    stop(proc)


def record_over_tcp(port, log_name, timeout, what):
    """The viewer connected to the board on @port: Record enabled within @timeout s, then
    clicked. (process, application), or (None, None) when Record stayed off."""
    proc, log = start(TICKSCOPE, "tcp:127.0.0.1:%d" % port, log_name=log_name)
    app = wait_for(get_app, 30)
    button = wait_for(lambda: record_button(app) if app and sensitive(record_button(app)) else None, timeout)
    if not check(button is not None, what, status(app) if app else None):
        stop(proc)
        return None, None
    click(button)
    return proc, app


def pulled_cable(before):
    port = free_port()
    board = subprocess.Popen([SIMBOARD, "--tcp", str(port)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    try:
        if not check(listening(port), "a board listens on TCP"):
            return
        proc, app = record_over_tcp(port, "tickscope-tcp.log", 30, "over TCP, Record is enabled")
        if proc is None:
            return
        wait_for(lambda: len(live_load(app)) >= 5, PATIENCE)
        board.kill()
        board.wait()
        ended = wait_for(lambda: label_text(app, lambda s: s.startswith("The recording ended: ")), PATIENCE)
        check(ended is not None and "record-" in ended, "a board gone mid-recording ends it with a message "
              "naming the file", ended)
        title = wait_for(lambda: main_window(app).name if "record-" in (main_window(app).name or "") else None, PATIENCE)
        check(title is not None, "the recording up to then opens as a capture", title)
        files = sorted(set(glob.glob(os.path.join(HISTORY, "record-*.txt"))) - set(before))
        info = subprocess.run([CLI, "info", files[-1]], capture_output=True, text=True) if files else None
        records = re.search(r"Records:\s+(\d+)", info.stdout) if info else None
        check(info is not None and info.returncode == 0 and records and int(records.group(1)) > 100,
              "its file reads whole with tickscope-cli info", info.stdout[:200] if info else files)
        check(proc.poll() is None, "the viewer is still running")
        stop(proc)
    finally:
        board.kill()
        board.wait()


def slow_and_stalled():
    """A board whose serial line (9600 baud) cannot carry its switches: connected, Record is
    enabled once the first fetch, slower than the viewer's baud rate says, has ended; the records it drops
    show over the Live load (in the last second and in all), to screen readers too; then the
    board stopped (SIGSTOP: the link open, nothing arriving): "No data from the board for N s"
    and the table greyed out, before the recording ends at the silence timeout."""
    port = free_port()
    board = subprocess.Popen([SIMBOARD, "--tcp", str(port), "--baud", "9600"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        if not check(listening(port), "a board listens on TCP at 9600 baud"):
            return
        # the first fetch takes longer than the baud rate the viewer assumes (115200): it
        # waits for the bytes as they come, and Record is enabled once it has ended
        proc, app = record_over_tcp(port, "tickscope-slow.log", 40, "a board at 9600 baud over TCP: the "
                                    "first fetch completes, Record is enabled")
        if proc is None:
            return
        wait_for(lambda: app and len(live_load(app)) >= 3, 30)
        state = wait_for(lambda: live_state(app) if (live_state(app)[0] or "").startswith("Dropped") else None, PATIENCE)
        m = re.match(r"Dropped by the board: (\d+) records in the last second, (\d+) in all\.",
                     state[0] if state else "")
        check(m is not None and int(m.group(2)) > 0 and int(m.group(1)) <= int(m.group(2)),
              "a link too slow for the board: its drops show over the Live load", state)
        check(state is not None and state[1] == state[0], "and are the table's description for "
              "screen readers", state)
        rec = recording_line(app) or ""
        check(re.search(r", [1-9]\d* dropped", rec) is not None, "the recording's line counts them too", rec)
        board.send_signal(signal.SIGSTOP)
        silent = wait_for(lambda: live_state(app) if "No data from the board for" in (live_state(app)[0] or "")
                          else None, 4)
        check(silent is not None and not silent[2] and "No data from the board for" in (silent[1] or ""),
              "a stalled stream says so (visibly and as the description) and greys the table out", silent)
        screenshot("recording-stalled.png")
        board.send_signal(signal.SIGCONT)
        stop(proc)
    finally:
        board.send_signal(signal.SIGCONT)
        board.kill()
        board.wait()


sys.exit(main())
