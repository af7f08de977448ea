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
from tksgui import choose_filter, entry_text, labels, window_named  # noqa: E402

TICKSCOPE, DATA = sys.argv[1], os.path.abspath(sys.argv[2])
WORK = os.environ.get("TKS_GUI_WORK", "/tmp")
SHOTS = os.environ.get("TKS_GUI_SHOTS", WORK)
CAPTURE = os.path.join(DATA, "board-trigger-exits.saved.txt")

results = []


def check(ok, what, detail=""):
    results.append(bool(ok))
    line = "%s %d - %s" % ("ok" if ok else "not ok", len(results), what)
    print(line + ("" if ok or not detail else "\n# " + str(detail).replace("\n", "\n# ")), flush=True)
    return ok


def wait_for(fn, timeout=15.0, step=0.1):
    end = time.time() + timeout
    while True:
        try:
            value = fn()
        except Exception:
            value = None
        if value or time.time() > end:
            return value
        time.sleep(step)


def find(node, pred, depth=0):
    if node is None or depth > 40:
        return None
    try:
        if pred(node):
            return node
        children = list(node)
    except Exception:
        return None
    for child in children:
        found = find(child, pred, depth + 1)
        if found is not None:
            return found
    return None


def find_all(node, pred, out=None, depth=0):
    out = [] if out is None else out
    if node is None or depth > 40:
        return out
    try:
        if pred(node):
            out.append(node)
        children = list(node)
    except Exception:
        return out
    for child in children:
        find_all(child, pred, out, depth + 1)
    return out


def role_name(role, name):
    return lambda n: n.getRoleName() == role and n.name == name


def get_app():
    for a in pyatspi.Registry.getDesktop(0):
        if a is not None and a.name == "tickscope":
            return a
    return None


def main_window(app):
    for w in app:
        if w is not None and w.getRoleName() == "frame":
            return w
    return None


def press(keysym):
    pyatspi.Registry.generateKeyboardEvent(keysym, None, pyatspi.KEY_SYM)
    time.sleep(0.15)


def type_text(text):
    pyatspi.Registry.generateKeyboardEvent(0, text, pyatspi.KEY_STRING)
    time.sleep(0.3)


RETURN, PLUS = 0xFF0D, 0x2B


def click(node):
    node.queryAction().doAction(0)
    time.sleep(0.3)


def label_text(app, pred):
    node = find(main_window(app), lambda n: n.getRoleName() == "label" and pred(n.name or ""))
    return node.name if node is not None else None


def status(app):
    return label_text(app, lambda s: " threads," in s) or ""


def view_range(app):
    text = label_text(app, lambda s: s.startswith("View "))
    m = re.match(r"View ([0-9.]+) – ([0-9.]+)", text or "")
    return (float(m.group(1)), float(m.group(2))) if m else None


def dialog(app, title):
    return find(app, lambda n: n.getRoleName() in ("dialog", "filler", "frame") and n.name == title)


def file_dialog_open(app, path):
    """Types a path into the open dialog, as a user does ('/' opens the location entry)."""
    dlg = wait_for(lambda: dialog(app, "Open Capture"))
    time.sleep(0.8)
    type_text(path[0])
    time.sleep(0.8)
    type_text(path[1:])
    time.sleep(0.5)
    press(RETURN)
    wait_for(lambda: dialog(app, "Open Capture") is None, 5)


def file_dialog_save(app, title, path):
    dlg = wait_for(lambda: dialog(app, title))
    time.sleep(0.5)
    entry = find(dlg, lambda n: n.getRoleName() == "text" or (n.getRoleName() == "entry" and "Search" not in (n.name or "")))
    entry.queryEditableText().setTextContents(path)
    time.sleep(0.3)
    press(RETURN)
    wait_for(lambda: dialog(app, title) is None, 5)


def menu_item(app, label):
    # a GtkMenuButton shows as a button holding the button that takes the click
    for button in reversed(find_all(main_window(app), role_name("push button", "Main Menu"))):
        try:
            click(button)
            break
        except Exception:
            continue
    item = wait_for(lambda: find(app, lambda n: n.getRoleName() in ("menu item", "push button") and n.name == label), 5)
    return item


def screenshot(name):
    path = os.path.join(SHOTS, name)
    subprocess.run(["import", "-window", "root", path], check=True)
    return path


def pixels(path):
    """Counts pixels of a few colours in an image, reading it as PPM through ImageMagick."""
    data = subprocess.run(["convert", path, "-depth", "8", "ppm:-"], check=True, capture_output=True).stdout
    parts = data.split(maxsplit=4)
    width, height, body = int(parts[1]), int(parts[2]), parts[4]
    counts = {"trigger": 0, "idle": 0, "nonwhite": 0}
    for i in range(0, len(body) - 2, 3):
        r, g, b = body[i], body[i + 1], body[i + 2]
        if r > 200 and g < 60 and b < 70:
            counts["trigger"] += 1
        if abs(r - 0xE6) < 6 and abs(g - 0x61) < 6 and b < 8:
            counts["idle"] += 1
        if r < 240 or g < 240 or b < 240:
            counts["nonwhite"] += 1
    counts["size"] = (width, height)
    return counts


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
    loaded = wait_for(lambda: "29 threads" in status(app), 20)
    check(loaded, "the capture opens through the Open dialog", status(app))
    check("board-trigger-exits.saved.txt" in (main_window(app).name or ""), "the title names the file",
          main_window(app).name)
    lanes = [n.name for n in find_all(main_window(app), lambda n: n.getRoleName() == "label")]
    check("idle" in lanes and "sensor" in lanes and "Exited dynamic thread" in lanes,
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
    px = pixels(shot)
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
        epx = pixels(png_path)
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
    check(choose_filter(dlg, "Capture as CSV table (*.csv)") and entry_text(name) == base + ".csv",
          "choosing CSV changes .svg to .csv", entry_text(name))
    name.queryEditableText().setTextContents(base)
    time.sleep(0.3)
    click(find(dlg, lambda n: n.getRoleName() == "push button" and (n.name or "").endswith("Export")))
    wait_for(lambda: dialog(app, "Export") is None, 5)
    wait_for(lambda: os.path.exists(base) and os.path.getsize(base) > 0, 10)
    head = open(base).readline().strip() if os.path.exists(base) else ""
    check(head.startswith("kind,thread"), "a name without extension is written in the chosen format (CSV)",
          head)

    # A broken file: a message in the window, and the capture stays
    broken = os.path.join(WORK, "broken.txt")
    with open(broken, "w") as f:
        f.write("this is not a capture\n\x00\x01 garbage\n")
    before = status(app)
    click(buttons["Open"])
    file_dialog_open(app, broken)
    message = wait_for(lambda: label_text(app, lambda s: s.startswith("Could not open")), 20)
    check(message is not None and "broken.txt" in message, "a broken file shows a clear message", message)
    check(status(app) == before and "29 threads" in before, "the current capture stays", (before, status(app)))
    time.sleep(0.5)
    px = pixels(screenshot("broken.png"))
    check(px["idle"] > 200, "the timeline still shows the capture after the error", px)

    # Statistics: a window listing every thread of the capture
    item = menu_item(app, "Statistics")
    check(item is not None, "the main menu has Statistics")
    if item is not None:
        click(item)
        stats = wait_for(lambda: window_named(app, "Statistics"), 10)
        check(stats is not None, "the Statistics window opens")
        names = set(wait_for(lambda: [t for t in labels(stats) if t in lanes], 10) or [])
        check({"idle", "sensor", "main", "Exited dynamic thread"} <= names,
              "the Statistics window lists the threads", sorted(names))
        header = [t for t in labels(stats) if t in ("Thread", "Priority", "Activations", "Share")]
        check(len(header) == 4, "with their priority, activations and share", labels(stats)[:20])
        shares = [t for t in labels(stats) if t.endswith("%")]
        check(len(shares) >= 20, "every listed thread has its share of the time", shares[:5])
        press(0xFF1B)   # Escape closes it
        check(wait_for(lambda: window_named(app, "Statistics") is None, 5), "Escape closes the Statistics window")

    check(proc.poll() is None, "the viewer is still running")
finally:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    print("1..%d" % len(results), flush=True)
    if not all(results):
        log = os.path.join(WORK, "tickscope.log")
        if os.path.exists(log):
            print("# tickscope stderr:\n# " + open(log).read().replace("\n", "\n# "))

sys.exit(0 if results and all(results) else 1)
