#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The selection's details in the real window, through AT-SPI in Xvfb: a click on a run fills
# the "Selection" panel (thread, begin, end, duration, activation, wait before) with what the
# command line's CSV export says of that run; two Shift+clicks set the cursors A and B, the
# panel tells Δt and the timeline draws it between them; a Shift+click a few pixels off a run
# edge puts the cursor on the edge. An exported PNG is drawn in the window's font (not Pango's
# serif default) with a long thread name whole.
# Usage (through run-gui-tests.sh): test-selection.py TICKSCOPE DATA_DIR
import csv
import io
import os
import re
import subprocess
import sys
import time

import pyatspi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tksgui import (SHOTS, WORK, check, click, count_colours, file_dialog_save, find,  # noqa: E402
                    finish, get_app, main_window, mouse, open_main_menu,
                    panel_fields, role_name, lane_names, screenshot, shown_now, start, status, stop,
                    view_range, wait_for)

TICKSCOPE, DATA = sys.argv[1], os.path.abspath(sys.argv[2])
CLI = os.path.join(os.path.dirname(TICKSCOPE), "cli", "tickscope-cli")
LONG = "housekeeping_watchdog_and_flash_wear_levelling"
HEADER = 190           # the lane headers' width on screen (TKS_TIMELINE_HEADER_WIDTH)
MARKER = lambda r, g, b: abs(r - 242) < 12 and abs(g - 140) < 14 and b < 40  # noqa: E731

# A real board's capture with one thread renamed to a long name.
CAPTURE = os.path.join(WORK, "long-name.txt")
with open(os.path.join(DATA, "board-trigger-exits.saved.txt")) as src, open(CAPTURE, "w") as dst:
    dst.write(re.sub(r"Name = sensor$", "Name = " + LONG, src.read(), flags=re.M))


def csv_runs():
    out = subprocess.run([CLI, "export", CAPTURE, "--format", "csv"], check=True,
                         capture_output=True, text=True).stdout
    runs = {}
    for row in csv.DictReader(io.StringIO(out)):
        if row["kind"] == "run":
            runs.setdefault(row["thread"], []).append((float(row["begin"]), float(row["end"])))
    return runs


def extents(node):
    return node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)


def timeline(app):
    return find(main_window(app), role_name("panel", "Timeline"))


def header(app, name):
    tl = timeline(app)
    return find(tl, lambda n: n.getRoleName() == "label" and n.name == name) if tl else None


def number(text):
    m = re.match(r"\s*(-?[0-9.]+)", text or "")
    return float(m.group(1)) if m else None


def tick_of(text):
    """The tick a time names: "tick 7904" alone, or after its time, "1.250 ms (tick 7904)"."""
    m = re.search(r"\btick (-?[0-9.]+)\)?$", text or "")
    return float(m.group(1)) if m else None


def wheel_zoom_in(x, y):
    pyatspi.Registry.generateMouseEvent(int(round(x)), int(round(y)), "b4c")
    time.sleep(0.15)


def menu_check_item(app, label):
    open_main_menu(app)
    return wait_for(lambda: find(app, lambda n: "menu item" in n.getRoleName() and n.name == label), 5)


def profile(path, box=None):
    """The number of dark (text) pixels in each column of path (or of box in it), from the
    first column that has one."""
    args = ["convert", path] + (["-crop", "%dx%d+%d+%d" % (box[2], box[3], box[0], box[1]), "+repage"]
                                if box else [])
    data = subprocess.run(args + ["-depth", "8", "ppm:-"], check=True, capture_output=True).stdout
    parts = data.split(maxsplit=4)
    w, h, body = int(parts[1]), int(parts[2]), parts[4]
    cols = [0] * w
    for i in range(0, w * h * 3, 3):
        if max(body[i], body[i + 1], body[i + 2]) < 110:
            cols[i // 3 % w] += 1
    while cols and cols[0] == 0:
        cols.pop(0)
    while cols and cols[-1] == 0:
        cols.pop()
    return cols


def pango_profile(text, font):
    """The column profile of text drawn by Pango and cairo (pango-view) in font at 96 dpi."""
    out = os.path.join(WORK, "pango-view.png")
    subprocess.run(["pango-view", "-q", "--dpi=96", "--margin=4", "--font=" + font, "--text=" + text,
                    "-o", out], check=True)
    return profile(out)


def first_word(cols):
    """The columns up to the first gap of 4 empty ones (a word)."""
    for i in range(len(cols)):
        if cols[i:i + 4] == [0, 0, 0, 0]:
            return cols[:i]
    return cols


def distance(a, b):
    n = max(len(a), len(b))
    a, b = a + [0] * (n - len(a)), b + [0] * (n - len(b))
    return sum(abs(x - y) for x, y in zip(a, b))


runs = csv_runs()
proc, log = start(TICKSCOPE, CAPTURE)
try:
    app = wait_for(get_app, 30)
    check(app is not None, "the application appears on the accessibility bus")
    text = wait_for(lambda: status(app, (" threads,",)), 30)
    check(text, "the capture opens", text)
    check(panel_fields(app) == {}, "the Selection panel is there and empty before a click", panel_fields(app))

    # The ruler in board ticks: the panel then tells ticks, as the CSV export does.
    item = menu_check_item(app, "Board Ticks on the Ruler")
    check(item is not None, "the main menu has Board Ticks on the Ruler")
    click(item)
    time.sleep(0.5)

    tl = extents(timeline(app))
    x0, x1 = wait_for(lambda: view_range(app), 5) or (0, 1)
    px = (tl.width - HEADER) / (x1 - x0)      # pixels per tick

    frame = 0

    def x_of(t):
        return tl.x + frame + HEADER + (t - x0) * px

    # The longest run of a thread whose lane is in view: click its middle.
    best = None
    for name, rs in runs.items():
        h = header(app, name) if name != "Exited dynamic thread" else None   # one lane each
        if h is None or not shown_now(h):
            continue
        e = extents(h)
        if e.y < tl.y + 36 or e.y + e.height > tl.y + tl.height:
            continue
        for i, (b, en) in enumerate(rs):
            if x0 + (x1 - x0) * 0.3 <= b and en <= x0 + (x1 - x0) * 0.7 and i > 0 \
                    and (best is None or en - b > best[3] - best[2]):
                best = (name, i, b, en, e.y + e.height // 2)
    check(best is not None, "a run is in view", ((x0, x1), tl, lane_names(app)[:5]))
    name, index, begin, end, lane_y = best
    # zoom in around it (the wheel, the pointer over it) until it is 40 pixels wide
    for _ in range(60):
        if (end - begin) * px >= 40:
            break
        wheel_zoom_in(x_of((begin + end) / 2), lane_y)
        x0, x1 = wait_for(lambda: view_range(app), 5)
        px = (tl.width - HEADER) / (x1 - x0)
    time.sleep(0.5)      # the last wheel step is taken
    x0, x1 = view_range(app)
    px = (tl.width - HEADER) / (x1 - x0)
    check((end - begin) * px >= 40 and x0 <= begin and end <= x1, "zoomed in on the run",
          ((begin, end), (x0, x1), px))
    mouse(x_of((begin + end) / 2), lane_y)
    fields = wait_for(lambda: panel_fields(app) if "Begin" in (panel_fields(app) or {}) else None, 5) or {}
    screenshot("selection-run.png")
    check(fields.get("Thread", "").startswith(name + " (priority "), "the panel names the run's thread",
          (fields, name))
    # a run's begin and end are entries' ticks: whole (records that share a tick are told
    # apart by fractions that are no precision)
    check(re.match(r"^tick [0-9]+$", fields.get("Begin", "")) and abs(tick_of(fields["Begin"]) - begin) <= 0.5,
          "the panel's begin is the CSV's, a whole tick", (fields.get("Begin"), begin))
    check(re.match(r"^tick [0-9]+$", fields.get("End", "")) and abs(tick_of(fields["End"]) - end) <= 0.5,
          "the panel's end is the CSV's, a whole tick", (fields.get("End"), end))
    shown = view_range(app)
    check(re.match(r"^View ticks [0-9]+(\.[0-9]*[1-9])? – [0-9]+(\.[0-9]*[1-9])? \([0-9.]+ ticks\)$",
                   status(app, ("View ",))) and shown and abs(shown[0] - x0) < 1e-6,
          "the status line tells the view's range in ticks, without zeros that say nothing",
          status(app, ("View ",)))
    check(number(fields.get("Duration")) is not None and abs(number(fields["Duration"]) - (end - begin)) < 0.0006
          and "ticks" in fields["Duration"], "the panel's duration is end − begin, in ticks", fields.get("Duration"))
    check(fields.get("Activation") == "%d of %d" % (index + 1, len(runs[name])),
          "the panel tells the activation number", (fields.get("Activation"), index + 1, len(runs[name])))
    wait = begin - runs[name][index - 1][1] if index > 0 else None
    check(wait is not None and number(fields.get("Wait before")) is not None
          and abs(number(fields["Wait before"]) - wait) < 0.0006,
          "the panel tells the wait since the thread's previous run", (fields.get("Wait before"), wait))
    check("Wake-up latency" not in fields, "a capture without events shows no wake-up latency", fields)

    # Back to real time: the same run in the ruler's units (µs, ms or s).
    click(menu_check_item(app, "Board Ticks on the Ruler"))
    timed = wait_for(lambda: panel_fields(app) if "ticks" not in panel_fields(app).get("Duration", "ticks")
                     else None, 5) or {}
    check(re.search(r"(µs|ms|s)$", timed.get("Duration", ""))
          and re.match(r"^-?[0-9.]+ (µs|ms|s) \(tick [0-9]+\)$", timed.get("Begin", ""))
          and tick_of(timed["Begin"]) == tick_of(fields.get("Begin")),
          "with the time ruler the panel tells times in s, ms or µs from the ruler's 0, then their tick",
          (timed, fields.get("Begin")))
    line = status(app, ("View ",))
    check(re.match(r"^View -?[0-9.]+ (µs|ms|s) – -?[0-9.]+ (µs|ms|s) \([0-9.]+ (µs|ms|s)\), "
                   r"ticks [0-9]+(\.[0-9]*[1-9])? – [0-9]+(\.[0-9]*[1-9])?$", line)
          and view_range(app) == shown,
          "with the time ruler the status line tells the view's range in time, then in ticks", line)
    click(menu_check_item(app, "Board Ticks on the Ruler"))
    wait_for(lambda: "ticks" in panel_fields(app).get("Duration", ""), 5)

    # Two cursors set in the ruler (no lane, so no snapping): Δt in the panel and drawn.
    ya = tl.y + 20
    xa, xb = tl.x + HEADER + 200.3, tl.x + HEADER + 520.7
    mouse(xa, ya, shift=True)
    fields = wait_for(lambda: panel_fields(app) if "Cursor A" in panel_fields(app) else None, 5) or {}
    check("Cursor A" in fields and "Cursor B" not in fields, "a Shift+click sets cursor A",
          fields)
    # AT-SPI gives window coordinates, the pointer is in the screen's: the window's frame
    # shifts one from the other by a few pixels, measured here from where cursor A fell.
    frame = (x0 + (round(xa) - tl.x - HEADER) / px - (tick_of(fields.get("Cursor A")) or 0)) * px
    check(abs(frame) < 20, "the window's frame offset is small", frame)
    band = (int(xa) + 8, tl.y + 36, int(xb - xa) - 16, 24)
    before = count_colours(screenshot("cursor-a.png"), {"m": MARKER}, band)["m"]
    mouse(xb, ya, shift=True)
    fields = wait_for(lambda: panel_fields(app) if "Δt (B − A)" in panel_fields(app) else None, 5) or {}
    a, b, d = tick_of(fields.get("Cursor A")), tick_of(fields.get("Cursor B")), number(fields.get("Δt (B − A)"))
    check(None not in (a, b, d) and abs(d - (b - a)) < 0.002, "the panel's Δt is B − A", fields)
    check(d is not None and abs(d - (int(round(xb)) - int(round(xa))) / px) < 2 / px,
          "Δt is the distance between the two clicks", (d, (xb - xa) / px))
    after = count_colours(screenshot("cursors-ab.png"), {"m": MARKER}, band)["m"]
    check(after > before + (xb - xa) * 0.8, "Δt is drawn between the cursors near the top of the lanes",
          (before, after))

    # A Shift+click 3 pixels right of the selected run's end: cursor A is on the end.
    mouse(x_of(end) + 3, lane_y, shift=True)
    fields = wait_for(lambda: panel_fields(app) if "Cursor B" not in panel_fields(app) else None, 5) or {}
    check(tick_of(fields.get("Cursor A")) is not None and abs(tick_of(fields["Cursor A"]) - end) < 0.0006,
          "a cursor set 3 px off a run's end snaps to it", (fields.get("Cursor A"), end, 3 / px))
    mouse(x_of(begin) - 3, lane_y, shift=True)
    fields = wait_for(lambda: panel_fields(app) if "Cursor B" in panel_fields(app) else None, 5) or {}
    check(tick_of(fields.get("Cursor B")) is not None and abs(tick_of(fields["Cursor B"]) - begin) < 0.0006,
          "a cursor set 3 px before a run's begin snaps to it", (fields.get("Cursor B"), begin))
    check(number(fields.get("Δt (B − A)")) is not None
          and abs(number(fields["Δt (B − A)"]) - (begin - end)) < 0.0006,
          "Δt between snapped cursors is the run's length, negative", fields.get("Δt (B − A)"))
    mouse(x_of(begin) - 40, tl.y + 20, shift=True)
    fields = wait_for(lambda: panel_fields(app) if "Cursor B" not in panel_fields(app) else None, 5) or {}
    check(tick_of(fields.get("Cursor A")) is not None and abs(tick_of(fields["Cursor A"]) - begin) > 10 / px,
          "a cursor far from any edge stays where it was set", (fields.get("Cursor A"), begin))

    # Export the view as PNG: the long name whole, in the window's font.
    lane = header(app, LONG)
    check(lane is not None and shown_now(lane), "the long-named lane is in view")
    family = "Sans"
    # where the lanes are before the export's message moves them
    e, f = extents(lane), extents(header(app, "filter"))
    shot = screenshot("export-window.png")
    png = os.path.join(SHOTS, "export-long-name.png")
    if os.path.exists(png):
        os.remove(png)
    tl = extents(timeline(app))
    open_main_menu(app)
    item = wait_for(lambda: find(app, lambda n: n.getRoleName() in ("menu item", "push button")
                                 and n.name == "Export…"), 5)
    click(item)
    file_dialog_save(app, "Export", png)
    wait_for(lambda: os.path.exists(png) and os.path.getsize(png) > 0, 10)
    if check(os.path.exists(png), "Export writes a PNG of the view") and lane is not None:
        size = count_colours(png, {}, size=True)["size"]
        # the view under a band of the capture's name, range and legend
        band = size[1] - tl.height
        check(size[0] > tl.width and band > 0,
              "the exported headers are widened for the long name", (size, tl.width, tl.height))
        row = (8, band + e.y - tl.y + 4, size[0] - tl.width + HEADER - 8, e.height - 8)
        drawn = profile(png, row)
        # the window's own drawing of a lane name, and the same name in the export
        on_screen = first_word(profile(shot, (tl.x + int(frame) + 8, f.y + 2, 150, f.height + 8)))
        exported = first_word(profile(png, (8, band + f.y - tl.y + 4, 150, f.height - 8)))
        # the size of the window's font: where Pango's drawing of the word is as wide
        size = min((abs(len(first_word(pango_profile("filter", "%s %g" % (family, z)))) - len(on_screen)), z)
                   for z in (8, 8.5, 9, 9.5, 10, 10.5, 11, 11.5, 12, 13))[1]
        serif = first_word(pango_profile("filter", "Serif %g" % size))
        fc = subprocess.run(["fc-match", family], capture_output=True, text=True).stdout.strip()
        check(on_screen and distance(exported, on_screen) * 2 < distance(serif, on_screen),
              "the export draws names in the window's font (%s %g: %s), not a serif one" % (family, size, fc),
              (distance(exported, on_screen), distance(serif, on_screen), on_screen, exported, serif))
        whole = pango_profile(LONG + "  148", "%s %g" % (family, size))
        # (the size is known to half a point: a few per cent)
        check(abs(len(drawn) - len(whole)) <= 0.04 * len(whole),
              "the long name is drawn whole (%d px, as Pango draws it: %d px)" % (len(drawn), len(whole)),
              (len(drawn), len(whole)))
finally:
    stop(proc)

# A capture with events: the panel tells the wake-up latency of a woken thread's run.
proc, log = start(TICKSCOPE, os.path.join(DATA, "board-events-v2.raw.txt"))
try:
    app = wait_for(get_app, 30)
    wait_for(lambda: status(app), 30)
    sensor = wait_for(lambda: header(app, "sensor"), 10)
    if check(sensor is not None, "the capture with events opens"):
        s, t = extents(sensor), extents(timeline(app))
        # the first run of sensor sits at the start of the view, right of the headers
        mouse(t.x + frame + HEADER + 1, s.y + s.height // 2)
        fields = wait_for(lambda: panel_fields(app) if "Begin" in panel_fields(app) else None, 5) or {}
        screenshot("selection-wakeup.png")
        check(fields.get("Thread", "").startswith("sensor ")
              and re.match(r"^[0-9.]+ (µs|ms|s)$", fields.get("Wake-up latency", "")),
              "the panel tells a woken run's wake-up latency", fields)
finally:
    stop(proc)
finish(log)
