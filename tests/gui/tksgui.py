# SPDX-License-Identifier: GPL-3.0-or-later
# What the GUI tests share: TAP output, waiting, walking the accessibility tree (AT-SPI) of
# the viewer, clicks and keys as a user gives them, screenshots and their pixels.
import os
import re
import socket
import subprocess
import time

import pyatspi

WORK = os.environ.get("TKS_GUI_WORK", "/tmp")
SHOTS = os.environ.get("TKS_GUI_SHOTS", WORK)
RETURN, PLUS = 0xFF0D, 0x2B

results = []


def check(ok, what, detail=""):
    results.append(bool(ok))
    line = "%s %d - %s" % ("ok" if ok else "not ok", len(results), what)
    print(line + ("" if ok or not detail else "\n# " + str(detail).replace("\n", "\n# ")), flush=True)
    return ok


def finish(log=None):
    print("1..%d" % len(results), flush=True)
    if not all(results) and log and os.path.exists(log):
        print("# tickscope stderr:\n# " + open(log).read().replace("\n", "\n# "))
    return 0 if results and all(results) else 1


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


# How long a condition may take to show on a busy machine (four builds beside the test, or a
# sanitized viewer): waits end as soon as the condition holds, so only a failure waits this long.
PATIENCE = 60.0


def wait_until(pred, timeout=PATIENCE, step=0.1):
    """Whether pred() holds (an exception counts as not yet) within @timeout seconds."""
    return bool(wait_for(pred, timeout, step))


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
        if w is not None and w.getRoleName() == "frame" and (w.name or "").endswith("Tickscope"):
            return w
    return None


def window_named(app, title):
    for w in app:
        if w is not None and w.name == title:
            return w
    return None


def button(app, name):
    return find(main_window(app), lambda n: n.getRoleName() in ("push button", "button") and n.name == name)


def sensitive(node):
    return node is not None and node.getState().contains(pyatspi.STATE_SENSITIVE)


def sensitive_button(app, name, timeout=15.0):
    return wait_for(lambda: button(app, name) if sensitive(button(app, name)) else None, timeout)


def press(keysym):
    pyatspi.Registry.generateKeyboardEvent(keysym, None, pyatspi.KEY_SYM)
    time.sleep(0.15)


SHIFT_KEYCODE = 50     # Shift_L in the X server's default keymap


def mouse(x, y, shift=False):
    """A click of the first button at (@x, @y) on the screen, Shift held if @shift."""
    if shift:
        pyatspi.Registry.generateKeyboardEvent(SHIFT_KEYCODE, None, pyatspi.KEY_PRESS)
        time.sleep(0.1)
    pyatspi.Registry.generateMouseEvent(int(round(x)), int(round(y)), "b1c")
    time.sleep(0.2)
    if shift:
        pyatspi.Registry.generateKeyboardEvent(SHIFT_KEYCODE, None, pyatspi.KEY_RELEASE)
        time.sleep(0.1)


def type_text(text):
    pyatspi.Registry.generateKeyboardEvent(0, text, pyatspi.KEY_STRING)
    time.sleep(0.3)


def click(node):
    node.queryAction().doAction(0)
    time.sleep(0.3)


def labels(node):
    """The labels' texts under node; a label gone while the tree is read (the viewer makes
    some anew each second while recording) is left out."""
    out = []
    for n in find_all(node, lambda n: n.getRoleName() == "label"):
        try:
            out.append(n.name or "")
        except Exception:
            pass
    return out


def label_text(app, pred):
    for text in labels(main_window(app)):
        if pred(text):
            return text
    return None


def shown_now(node):
    e = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    return e.width > 0 and e.height > 0


def panel_fields(app):
    """The Selection panel's captions and their values, as AT-SPI reads them."""
    panel = find(main_window(app), role_name("panel", "Selection"))
    if panel is None:
        return None
    shown = find_all(panel, lambda n: n.getRoleName() == "label" and shown_now(n))
    texts = [n.name or "" for n in shown]
    return {texts[i]: texts[i + 1] for i in range(0, len(texts) - 1, 2)}


def view_range(app):
    """The timeline's visible range in ticks, as its "View … ticks a – b" line tells it, or None."""
    text = label_text(app, lambda s: s.startswith("View "))
    m = re.search(r"ticks (-?[0-9.]+) – (-?[0-9.]+)", text or "")
    return (float(m.group(1)), float(m.group(2))) if m else None


def status(app, words=(" threads,", " thread,")):
    """The status line: the first label holding one of words, or ""."""
    return label_text(app, lambda s: any(w in s for w in words)) or ""


def dialog(app, title):
    return find(app, lambda n: n.getRoleName() in ("dialog", "filler", "frame") and n.name == title)


def file_dialog_open(app, path, title="Open Capture"):
    """Types a path into the open dialog, as a user does ('/' opens the location entry)."""
    wait_for(lambda: dialog(app, title))
    time.sleep(0.8)
    type_text(path[0])
    time.sleep(0.8)
    type_text(path[1:])
    time.sleep(0.5)
    press(RETURN)
    wait_for(lambda: dialog(app, title) is None, 5)


def file_dialog_save(app, title, path):
    dlg = wait_for(lambda: dialog(app, title))
    time.sleep(0.5)
    entry = find(dlg, lambda n: n.getRoleName() == "text"
                 or (n.getRoleName() == "entry" and "Search" not in (n.name or "")))
    entry.queryEditableText().setTextContents(path)
    time.sleep(0.3)
    press(RETURN)
    wait_for(lambda: dialog(app, title) is None, 5)


def open_main_menu(app):
    # a GtkMenuButton shows as a button holding the button that takes the click
    for b in reversed(find_all(main_window(app), role_name("push button", "Main Menu"))):
        try:
            click(b)
            return True
        except Exception:
            continue
    return False


def menu_item(app, label, timeout=5):
    open_main_menu(app)
    return wait_for(lambda: find(app, lambda n: n.getRoleName() in ("menu item", "push button")
                                 and n.name == label), timeout)


def lane_names(app):
    """The thread names the timeline's lane headers show (accessible labels in the timeline)."""
    timeline = find(main_window(app), role_name("panel", "Timeline"))
    return labels(timeline) if timeline is not None else []


def screenshot(name):
    path = os.path.join(SHOTS, name)
    subprocess.run(["import", "-window", "root", path], check=True)
    return path


def count_colours(path, colours, box=None, tolerance=6, size=False):
    """Counts the pixels near each named (r, g, b) colour, or for which a named test(r, g, b)
    holds, in the whole image or in box (x, y, width, height), reading the image as PPM through
    ImageMagick. With size, the counts also hold the image's "size" (width, height)."""
    args = ["convert", path]
    if box is not None:
        args += ["-crop", "%dx%d+%d+%d" % (box[2], box[3], box[0], box[1]), "+repage"]
    data = subprocess.run(args + ["-depth", "8", "ppm:-"], check=True, capture_output=True).stdout
    parts = data.split(maxsplit=4)
    body = parts[4]
    counts = {name: 0 for name in colours}
    items = [(name, c) for name, c in colours.items() if not callable(c)]
    tests = [(name, c) for name, c in colours.items() if callable(c)]
    for i in range(0, len(body) - 2, 3):
        r, g, b = body[i], body[i + 1], body[i + 2]
        for name, (cr, cg, cb) in items:
            if abs(r - cr) <= tolerance and abs(g - cg) <= tolerance and abs(b - cb) <= tolerance:
                counts[name] += 1
        for name, test in tests:
            if test(r, g, b):
                counts[name] += 1
    if size:
        counts["size"] = (int(parts[1]), int(parts[2]))
    return counts


def start(tickscope, *args, log_name="tickscope.log"):
    log = os.path.join(WORK, log_name)
    proc = subprocess.Popen([tickscope, *args], stdout=subprocess.DEVNULL, stderr=open(log, "a"))
    return proc, log


def stop(proc):
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    # the accessibility registry forgets the application before the next one starts
    wait_for(lambda: get_app() is None, 5)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def listening(port, timeout=10):
    """Whether something accepts connections on 127.0.0.1:PORT within TIMEOUT seconds."""
    return wait_for(lambda: socket.create_connection(("127.0.0.1", port), 0.2).close() or True, timeout)


def history_dir():
    return os.path.join(os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share")),
                        "tickscope", "captures")


def history():
    d = history_dir()
    return sorted(os.listdir(d)) if os.path.isdir(d) else []


EXPORT_FILTERS = ["View as PNG image (*.png)", "View as SVG image (*.svg)", "View as PDF document (*.pdf)",
                  "Capture as Perfetto trace (*.json)", "Capture as CSV table (*.csv)",
                  "Capture as ftrace text (*.ftrace)", "Capture as Paraver trace (*.prv, .pcf, .row)",
                  "Capture as VCD waveform (*.vcd)"]
HOME_KEY, DOWN_KEY = 0xFF50, 0xFF54


def entry_text(node):
    text = node.queryText()
    return text.getText(0, text.characterCount)


def choose_filter(dlg, label, filters=EXPORT_FILTERS):
    """Picks a file type in a file dialog's filter list with the keyboard, as a user does."""
    combo = find(dlg, lambda n: n.getRoleName() == "combo box")
    click(find(combo, lambda n: n.getRoleName() == "push button"))
    time.sleep(0.5)
    press(HOME_KEY)
    for _ in range(filters.index(label)):
        press(DOWN_KEY)
    press(RETURN)
    time.sleep(0.3)
    return label in [n.name for n in find_all(combo, lambda n: n.getRoleName() == "label")]
