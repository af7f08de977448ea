#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The viewer as a user drives it, through the accessibility tree (AT-SPI) of a real window in
# Xvfb: open a capture with the Open dialog, zoom, go back, save, reopen, export, open a
# broken file. Checks what is shown: accessible names, labels, and screenshot pixels.
# Usage (through run-gui-tests.sh): test-viewer.py TICKSCOPE DATA_DIR
import os
import re
import subprocess
import sys
import time

import pyatspi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tksgui import (PLUS, WORK, check, choose_filter, click, count_colours, dialog,  # noqa: E402
                    entry_text, file_dialog_open, file_dialog_save, find, find_all, finish, get_app,
                    label_text, labels, lane_names, main_window, menu_item, open_main_menu, press,
                    role_name, screenshot, status, wait_for, window_named)

TICKSCOPE, DATA = sys.argv[1], os.path.abspath(sys.argv[2])
CAPTURE = os.path.join(DATA, "board-trigger-exits.saved.txt")
THREADS = (" threads,",)   # the status line of a capture with more than one thread
def idle_shade(r, g, b, colour=(0x8E, 0x99, 0xA8)):
    """Whether (r, g, b) is the idle thread's slate grey over white at some opacity (never the
    neutral grey of a hole): zoomed out, a pixel column of runs is drawn at the share of it the
    thread ran."""
    a = (255 - b) / (255 - colour[2])
    return (a > 0.2 and abs(a * colour[0] + (1 - a) * 255 - r) < 9
            and abs(a * colour[1] + (1 - a) * 255 - g) < 9)


# the pixels counted in screenshots and exported images: the trigger line's red, the idle
# thread's lane colour, and whatever is not white
PIXELS = {"trigger": lambda r, g, b: r > 200 and g < 60 and b < 70,
          "idle": lambda r, g, b: idle_shade(r, g, b),
          "nonwhite": lambda r, g, b: r < 240 or g < 240 or b < 240}


def view_range(app):
    text = label_text(app, lambda s: s.startswith("View "))
    m = re.search(r"ticks (-?[0-9.]+) – (-?[0-9.]+)", text or "")
    return (float(m.group(1)), float(m.group(2))) if m else None


proc = subprocess.Popen([TICKSCOPE], stdout=subprocess.DEVNULL, stderr=open(os.path.join(WORK, "tickscope.log"), "w"))
try:
    app = wait_for(get_app, 30)
    check(app is not None, "the application appears on the accessibility bus")
    win = wait_for(lambda: main_window(app), 10)
    check(win is not None and win.name == "Tickscope", "the window is titled Tickscope", win and win.name)

    names = ["Open", "Save", "Trigger", "Run", "Get new data", "Zoom to fit"]
    buttons = {n: find(win, role_name("push button", n)) for n in names}
    check(all(buttons.values()), "header bar buttons have the accessible names " + ", ".join(names),
          [n for n, b in buttons.items() if b is None])
    insensitive = [n for n in ("Trigger", "Run", "Get new data")
                   if buttons[n] is not None and not buttons[n].getState().contains(pyatspi.STATE_SENSITIVE)]
    check(len(insensitive) == 3, "board buttons are insensitive without a board", insensitive)
    check(buttons["Open"] is not None and buttons["Open"].getState().contains(pyatspi.STATE_SENSITIVE),
          "Open is sensitive")

    # Open a capture through the Open dialog
    click(buttons["Open"])
    file_dialog_open(app, CAPTURE)
    loaded = wait_for(lambda: "29 threads" in status(app, THREADS), 20)
    check(loaded, "the capture opens through the Open dialog", status(app, THREADS))
    check("board-trigger-exits.saved.txt" in (main_window(app).name or ""), "the title names the file",
          main_window(app).name)
    lanes = [n.name for n in find_all(main_window(app), lambda n: n.getRoleName() == "label")]
    check("idle" in lanes and "sensor" in lanes and "Exited dynamic thread ×5" in lanes,
          "lane headers name the threads through accessibility", lanes[:40])
    # the file's saved position is the original's "nothing shown yet" (0 1 0 1): the lanes
    # are shown from the top, highest priority first
    def extents(node):
        return node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)

    timeline = find(main_window(app), role_name("panel", "Timeline"))
    first = find(timeline, lambda n: n.getRoleName() == "label" and n.name == "sensor")
    shown = extents(first) if first is not None and timeline is not None else None
    offset = shown.y - extents(timeline).y if shown is not None else None
    # a lane scrolled out of view has an empty header
    check(shown is not None and shown.height > 0 and 0 <= offset < 36 + 30,
          "the lanes are shown from the top (the first lane's header is in the first row)",
          (offset, shown and shown.height))
    time.sleep(0.5)
    shot = screenshot("opened.png")
    px = count_colours(shot, PIXELS, size=True)
    check(px["trigger"] > 200, "the trigger line is drawn in red", px)
    check(px["idle"] > 500, "the idle thread's runs are drawn in its lane colour", px)

    full = view_range(app)
    check(full is not None and full[1] > full[0], "the visible range is shown", full)

    # Zoom with the keyboard, then Back
    timeline = find(main_window(app), role_name("panel", "Timeline"))
    try:
        timeline.queryComponent().grabFocus()
    except Exception:
        pass
    time.sleep(0.2)
    for _ in range(3):
        press(PLUS)
    zoomed = wait_for(lambda: view_range(app) if view_range(app) != full else None, 5)
    check(zoomed is not None and (zoomed[1] - zoomed[0]) < 0.4 * (full[1] - full[0]),
          "+ zooms in", (full, zoomed))
    click(find(main_window(app), role_name("push button", "Back")))
    back = wait_for(lambda: view_range(app) if view_range(app) == full else None, 5)
    check(back == full, "Back returns to the previous view", (full, view_range(app)))

    # Zoom again and save the view with the capture
    try:
        timeline.queryComponent().grabFocus()
    except Exception:
        pass
    for _ in range(2):
        press(PLUS)
    zoomed = wait_for(lambda: view_range(app) if view_range(app) != full else None, 5)
    saved_path = os.path.join(WORK, "saved-capture.txt")
    item = menu_item(app, "Save As…")
    check(item is not None, "the main menu has Save As…")
    click(item)
    file_dialog_save(app, "Save Capture", saved_path)
    wait_for(lambda: os.path.exists(saved_path) and os.path.getsize(saved_path) > 1000, 10)
    ok = os.path.exists(saved_path)
    lines = open(saved_path).read().split("\n") if ok else []
    check(ok and lines[0] == "Saved position" and lines[-2].startswith("ch>"),
          "Save As writes a capture file in the original format", lines[:6])
    if ok and zoomed:
        x0, x1 = float(lines[1]), float(lines[2])
        check(abs(x0 - zoomed[0]) < 0.01 and abs(x1 - zoomed[1]) < 0.01,
              "the saved position is the visible range", ((x0, x1), zoomed))

    # Zoom to fit, then reopen: the saved view comes back
    click(buttons["Zoom to fit"])
    wait_for(lambda: view_range(app) == full, 5)
    check(view_range(app) == full, "Zoom to fit shows the whole capture", view_range(app))
    click(buttons["Open"])
    file_dialog_open(app, saved_path)
    reopened = wait_for(lambda: "saved-capture.txt" in (main_window(app).name or "") and view_range(app), 20)
    check(reopened and zoomed and abs(reopened[0] - zoomed[0]) < 0.01 and abs(reopened[1] - zoomed[1]) < 0.01,
          "reopening restores the saved view", (reopened, zoomed))

    # Export the view as PNG, and the capture as CSV
    png_path = os.path.join(WORK, "view.png")
    item = menu_item(app, "Export…")
    check(item is not None, "the main menu has Export…")
    click(item)
    file_dialog_save(app, "Export", png_path)
    wait_for(lambda: os.path.exists(png_path) and os.path.getsize(png_path) > 0, 10)
    if check(os.path.exists(png_path), "Export writes a PNG of the view"):
        epx = count_colours(png_path, PIXELS, size=True)
        check(epx["idle"] > 50 and epx["nonwhite"] > 10000, "the exported PNG shows the lanes", epx)
    csv_path = os.path.join(WORK, "capture.csv")
    click(menu_item(app, "Export…"))
    file_dialog_save(app, "Export", csv_path)
    wait_for(lambda: os.path.exists(csv_path) and os.path.getsize(csv_path) > 0, 10)
    head = open(csv_path).readline().strip() if os.path.exists(csv_path) else ""
    check(head.startswith("kind,thread"), "Export writes the capture as CSV", head)

    # Choosing a format renames the file; a name without a known extension gets that format
    click(menu_item(app, "Export…"))
    dlg = wait_for(lambda: dialog(app, "Export"))
    time.sleep(0.5)
    name = find(dlg, lambda n: n.getRoleName() == "text" and n.name == "Name:")
    base = os.path.join(WORK, "by-filter")
    name.queryEditableText().setTextContents(base)
    check(choose_filter(dlg, "View as SVG image (*.svg)") and entry_text(name) == base + ".svg",
          "choosing SVG adds .svg to the name", entry_text(name))
    check(choose_filter(dlg, "Capture as VCD waveform (*.vcd)") and entry_text(name) == base + ".vcd",
          "the formats offer VCD: choosing it changes .svg to .vcd", entry_text(name))
    check(choose_filter(dlg, "Capture as Paraver trace (*.prv, .pcf, .row)")
          and entry_text(name) == base + ".prv",
          "the formats offer Paraver: choosing it changes .vcd to .prv", entry_text(name))
    check(choose_filter(dlg, "Capture as CSV table (*.csv)") and entry_text(name) == base + ".csv",
          "choosing CSV changes .prv to .csv", entry_text(name))
    name.queryEditableText().setTextContents(base)
    time.sleep(0.3)
    click(find(dlg, lambda n: n.getRoleName() == "push button" and (n.name or "").endswith("Export")))
    wait_for(lambda: dialog(app, "Export") is None, 5)
    wait_for(lambda: os.path.exists(base + ".csv") and os.path.getsize(base + ".csv") > 0, 10)
    head = open(base + ".csv").readline().strip() if os.path.exists(base + ".csv") else ""
    check(head.startswith("kind,thread") and not os.path.exists(base),
          "a name without extension is written in the chosen format, with its extension (CSV)",
          head)

    # A Paraver trace is three files; a VCD one, named by their extensions
    prv_base = os.path.join(WORK, "trace")
    click(menu_item(app, "Export…"))
    file_dialog_save(app, "Export", prv_base + ".prv")
    wait_for(lambda: all(os.path.exists(prv_base + e) for e in (".prv", ".pcf", ".row")), 10)
    head = open(prv_base + ".prv").readline() if os.path.exists(prv_base + ".prv") else ""
    row = open(prv_base + ".row").read() if os.path.exists(prv_base + ".row") else ""
    check(head.startswith("#Paraver (") and "_ns:1(1):1:1(" in head and "\nidle\n" in row,
          "Export writes a Paraver trace: .prv, .pcf and .row", (head, row[:200]))
    vcd_path = os.path.join(WORK, "wave.vcd")
    click(menu_item(app, "Export…"))
    file_dialog_save(app, "Export", vcd_path)
    wait_for(lambda: os.path.exists(vcd_path) and os.path.getsize(vcd_path) > 0, 10)
    text = open(vcd_path).read() if os.path.exists(vcd_path) else ""
    check(text.startswith("$date") and "$timescale 100 us $end" in text and " idle $end" in text,
          "Export writes a VCD waveform", text[:300])

    # The tick rate set in the board popover is the window's: the status line, the exports
    # and a saved copy use it; the capture's own rate comes back when the file is opened again.
    check("1000 Hz tick" in status(app, THREADS), "the capture's own tick rate is shown", status(app, THREADS))
    for b in reversed(find_all(main_window(app), role_name("push button", "Board"))):
        try:
            click(b)
            break
        except Exception:
            continue
    spin = wait_for(lambda: find(app, lambda n: n.getRoleName() == "spin button"
                                        and "Tick rate" in (n.name or "")), 10)
    if check(spin is not None, "the board popover has the tick rate"):
        spin.queryValue().currentValue = 2500.0
        time.sleep(0.3)
        press(0xFF1B)   # Escape closes the popover
    rated = wait_for(lambda: "2500 Hz tick" in status(app, THREADS), 5)
    check(rated, "the status line shows the tick rate set", status(app, THREADS))
    json_path = os.path.join(WORK, "rated.json")
    click(menu_item(app, "Export…"))
    file_dialog_save(app, "Export", json_path)
    wait_for(lambda: os.path.exists(json_path) and os.path.getsize(json_path) > 0, 10)
    head = open(json_path).read(200) if os.path.exists(json_path) else ""
    check('"tick_hz":2500,' in head, "the Perfetto export uses the tick rate set", head[:80])
    rated_path = os.path.join(WORK, "rated-capture.txt")
    click(menu_item(app, "Save As…"))
    file_dialog_save(app, "Save Capture", rated_path)
    wait_for(lambda: os.path.exists(rated_path) and os.path.getsize(rated_path) > 1000, 10)
    text = open(rated_path).read() if os.path.exists(rated_path) else ""
    check("\nTickscope tick-hz 2500\n" in text, "a saved copy keeps the tick rate set",
          text.split("threads_list")[0])
    click(buttons["Open"])
    file_dialog_open(app, CAPTURE)
    back = wait_for(lambda: "1000 Hz tick" in status(app, THREADS), 20)
    check(back, "opened again, the capture has its own tick rate", status(app, THREADS))
    click(buttons["Open"])
    file_dialog_open(app, rated_path)
    back = wait_for(lambda: "2500 Hz tick" in status(app, THREADS), 20)
    check(back, "the saved copy opens at the rate it was saved with", status(app, THREADS))
    click(buttons["Open"])
    file_dialog_open(app, CAPTURE)
    wait_for(lambda: "1000 Hz tick" in status(app, THREADS), 20)

    # A broken file: a message in the window, and the capture stays
    broken = os.path.join(WORK, "broken.txt")
    with open(broken, "w") as f:
        f.write("this is not a capture\n\x00\x01 garbage\n")
    before = status(app, THREADS)
    click(buttons["Open"])
    file_dialog_open(app, broken)
    message = wait_for(lambda: label_text(app, lambda s: s.startswith("Could not open")), 20)
    check(message is not None and message.count("broken.txt") == 1, "a broken file shows a clear message, naming it once",
          message)
    check(status(app, THREADS) == before and "29 threads" in before, "the current capture stays",
          (before, status(app, THREADS)))
    time.sleep(0.5)
    px = count_colours(screenshot("broken.png"), PIXELS, size=True)
    check(px["idle"] > 200, "the timeline still shows the capture after the error", px)

    # Statistics: a window listing every thread of the capture
    item = menu_item(app, "Statistics")
    check(item is not None, "the main menu has Statistics")
    if item is not None:
        click(item)
        stats = wait_for(lambda: window_named(app, "Statistics"), 10)
        check(stats is not None, "the Statistics window opens")
        names = set(wait_for(lambda: [t for t in labels(stats) if t in lanes or t == "Exited dynamic thread"], 10) or [])
        check({"idle", "sensor", "main", "Exited dynamic thread"} <= names,
              "the Statistics window lists the threads", sorted(names))
        header = set(t for t in labels(stats) if t in ("Thread", "Priority", "Activations", "Share"))
        check(len(header) == 4, "with their priority, activations and share", labels(stats)[:20])
        shares = [t for t in labels(stats) if t.endswith("%")]
        check(len(shares) >= 20, "every listed thread has its share of the time", shares[:5])
        press(0xFF1B)   # Escape closes it
        check(wait_for(lambda: window_named(app, "Statistics") is None, 5), "Escape closes the Statistics window")

    # What a reader of a capture must see. This log was frozen by a trigger and read late: the
    # original library went on writing exits after the freeze. After the last switch (tick
    # 17991 of 16316 to 20027) a grey band says the log ended; idle no longer runs to the end.
    click(buttons["Open"])
    file_dialog_open(app, CAPTURE)
    wait_for(lambda: "board-trigger-exits.saved.txt" in (main_window(app).name or ""), 20)
    time.sleep(0.5)
    line = find(main_window(app), lambda n: n.getRoleName() == "label" and "29 threads" in (n.name or ""))
    about = line.description if line is not None else ""
    check("The log ended at tick 17991.000; 9 thread exits were recorded after it" in (about or ""),
          "the status line's description says where the log ended", about)
    # idle, the thread running when the log ended, has the lowest lane: scroll down to it
    try:
        find(main_window(app), role_name("panel", "Timeline")).queryComponent().grabFocus()
    except Exception:
        pass
    time.sleep(0.2)
    # the capture opens on its log (Zoom to fit's range); zoomed out, the time after its end
    for _ in range(8):
        press(0x2D)     # minus
    for _ in range(2):
        press(0xFF56)   # Page Down
    time.sleep(0.5)
    idle_header = find(main_window(app), lambda n: n.getRoleName() == "label" and n.name == "idle")
    check(idle_header is not None and extents(idle_header).height > 0, "the idle thread's lane is in view")
    timeline = find(main_window(app), role_name("panel", "Timeline"))
    box = extents(timeline)
    area = box.width - 190   # right of the lane headers
    left = (box.x + 190 + 5, box.y + 40, int(area * 0.4), box.height - 60)
    after = (box.x + 190 + int(area * 0.5), box.y + 40, int(area * 0.45), box.height - 60)
    grey = {"band": lambda r, g, b: abs(r - g) < 4 and abs(g - b) < 4 and 150 < r < 236}
    shot = screenshot("log-ended.png")
    right = count_colours(shot, dict(PIXELS, **grey), box=after)
    check(count_colours(shot, PIXELS, box=left)["idle"] > 100, "idle runs before the log's end")
    check(right["idle"] == 0, "after the log's end no thread is drawn running", right)
    check(right["band"] > 0.5 * after[2] * after[3], "a grey band covers every lane after the log's end", right)

    # Threads that exited before the log began (the board's history keeps up to 64): no lane
    # by default, a menu item shows them
    stale = os.path.join(WORK, "stale-history.txt")
    with open(CAPTURE) as f:
        text = f.read()
    gone = "".join("Thread number %2d : Prio = %3d, Log = Yes, Name = Exited dynamic thread\n"
                   % (1 + i % 9, 100 + i) for i in range(44))
    with open(stale, "w") as f:
        f.write(text.replace("Deleted threads: \n", "Deleted threads: \n" + gone))
    click(buttons["Open"])
    file_dialog_open(app, stale)
    hidden = wait_for(lambda: status(app, THREADS) if "stale-history.txt" in (main_window(app).name or "") else None, 20)
    check(hidden is not None and "29 threads" in hidden
          and "44 threads that exited before the log began are hidden" in hidden,
          "the status line counts the threads gone before the log, hidden", hidden)
    # 29 threads, 16 of them exited ones grouped by priority in 3 lanes ("Exited dynamic thread ×5")
    check(len(lane_names(app)) == 16, "the timeline has a lane for the 29 threads of the log only "
          "(16 lanes: the exited threads of one name and priority share one)", len(lane_names(app)))
    toggle_label = "Show Threads That Exited Before the Log"

    def toggle():
        open_main_menu(app)
        item = wait_for(lambda: find(app, lambda n: n.name == toggle_label
                                     and n.getRoleName() in ("check menu item", "menu item",
                                                             "check box", "toggle button")), 5)
        if item is not None:
            click(item)
        return item

    check(toggle() is not None, "the main menu has " + toggle_label)
    shown = wait_for(lambda: status(app, THREADS) if "73 threads" in status(app, THREADS) else None, 5)
    check(shown is not None and "44 of them exited before the log began" in shown,
          "shown, the status line counts every lane", status(app, THREADS))
    check(len(lane_names(app)) == 16 + 44 - 3, "shown, the timeline has a lane for each of the 44 more "
          "(each its own priority, three of which join the group of their priority)", len(lane_names(app)))
    toggle()
    again = wait_for(lambda: len(lane_names(app)) == 16, 5)
    check(again and "are hidden" in status(app, THREADS), "the menu item hides them again",
          (len(lane_names(app)), status(app, THREADS)))

    # The board's counters count since boot: information in the status line's description,
    # not a warning
    counters = os.path.join(WORK, "counters.txt")
    with open(os.path.join(DATA, "simboard-dump.raw.txt"), newline="") as f:
        text = f.read()
    with open(counters, "w", newline="") as f:
        f.write(text.replace("Dropped while paused: 0", "Dropped while paused: 1767258")
                .replace("Dropped for history: 0", "Dropped for history: 16066"))
    click(buttons["Open"])
    file_dialog_open(app, counters)
    wait_for(lambda: "counters.txt" in (main_window(app).name or ""), 20)
    time.sleep(0.5)
    line = find(main_window(app), lambda n: n.getRoleName() == "label" and " threads," in (n.name or ""))
    about = (line.description or "") if line is not None else ""
    check("1767258 switches dropped while paused, 16066 records dropped for the history" in about,
          "the board's counters are in the status line's description", about)
    warned = [t for t in labels(main_window(app)) if "1767258" in t or "lost data" in t]
    check(not warned, "the board's counters are not shown as warnings", warned)

    # A history of 3,000 deleted threads, all shown (they exited before the log): only the lanes
    # in view (and a margin) get a header widget, so it opens at once; scrolled to the bottom,
    # the last lane has its header.
    toggle()
    history_file = os.path.join(WORK, "history.txt")
    with open(history_file, "w") as f:
        f.write("threads_list\nThread number  1 : Prio = 128, Log = Yes, Name = main\n"
                "Thread number  2 : Prio =   1, Log = Yes, Name = lastlane\nDeleted threads: \n")
        for i in range(3000):
            f.write("Thread number  3 : Prio =  10, Log = Yes, Name = worker%d\n" % i)
        f.write("ch> \nthreads_timestamps\nFrom  1 to  2 at       5\nFrom  2 to  1 at       9\nch> \n")
    click(buttons["Open"])
    file_dialog_open(app, history_file)
    opened = wait_for(lambda: "3002 threads" in status(app, THREADS), 30)
    check(opened, "a capture with 3,000 deleted threads opens", status(app, THREADS))
    headers = lane_names(app)
    check(0 < len(headers) <= 600 and "main" in headers and "lastlane" not in headers,
          "only the lanes in view and a margin have a header widget", len(headers))
    bar = find(main_window(app), role_name("scroll bar", "Scroll lanes"))
    if bar is not None:
        # a click at the end of the trough moves the slider there
        ext = bar.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        pyatspi.Registry.generateMouseEvent(ext.x + ext.width // 2, ext.y + ext.height - 2, "b1c")
    shown = wait_for(lambda: "lastlane" in lane_names(app), 10)
    check(bar is not None and shown, "scrolled to the bottom, the last lane has its header",
          len(lane_names(app)))
    toggle()

    check(proc.poll() is None, "the viewer is still running")
finally:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    code = finish(os.path.join(WORK, "tickscope.log"))
sys.exit(code)
