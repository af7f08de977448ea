#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The viewer's GNOME conventions and messages, through the accessibility tree (AT-SPI) of a
# real window in Xvfb, with screenshots:
# - the empty window offers Demo, Open… and Connect…, each doing what it says;
# - one message bar at a time (a failure replaces the capture's warnings), the warnings listed
#   with their lines on demand and copied to the clipboard, a board's reply with its spacing
#   normalised;
# - the system's dark preference (the desktop's settings) darkens the window and the
#   timeline, live; the menu's Dark Style too, with the system light;
# - an 800-pixel window in French keeps its title and buttons apart;
# - the board popover offers the standard baud rates (and one given on the command line);
# - the shortcuts window shows what the mouse really does; the legend of the colours; the
#   about window.
# Usage (through run-gui-tests.sh): test-gnome.py TICKSCOPE DATA_DIR
import contextlib
import ctypes
import os
import re
import subprocess
import sys
import time

import pyatspi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tksgui import (RETURN, WORK, check, click, count_colours, dialog, file_dialog_open,  # noqa: E402
                    find, find_all, finish, get_app, label_text, labels, lane_names, main_window,
                    menu_item, open_main_menu, press, role_name, screenshot, status, stop, wait_for, window_named)

TICKSCOPE, DATA = sys.argv[1], os.path.abspath(sys.argv[2])
CLI = os.environ.get("TKS_CLI")
DAMAGED = os.path.join(DATA, "simboard-dump-damaged.raw.txt")
ESCAPE = 0xFF1B
CONFIG = os.path.join(WORK, "gnome-config")
KEYFILE = os.path.join(CONFIG, "glib-2.0", "settings", "keyfile")
# the timeline's backgrounds (data/style.css, data/style-dark.css) and the message bars'
LIGHT_BG, DARK_BG = (0xFF, 0xFF, 0xFF), (0x1E, 0x1E, 0x1E)
ERROR_RED, WARNING_YELLOW = (0xC0, 0x1C, 0x28), (0xFD, 0xF0, 0xC0)
BAR_BOX = (0, 40, 1100, 70)   # where the message bar sits, under the header bar
LOGS = []
BAUDS = ["9600", "19200", "38400", "57600", "115200", "230400", "460800", "921600"]


def write_keyfile(width=1200, scheme=None):
    os.makedirs(os.path.dirname(KEYFILE), exist_ok=True)
    text = "[io/github/tickscope/Tickscope]\nwindow-width=%d\nwindow-height=640\n" % width
    if scheme is not None:
        text += "\n[org/gnome/desktop/interface]\ncolor-scheme='%s'\n" % scheme
    with open(KEYFILE + ".new", "w") as f:
        f.write(text)
    os.replace(KEYFILE + ".new", KEYFILE)


def launch(*args, lang="C", log_name="tickscope-gnome.log"):
    """The viewer with its settings (and the desktop's) in a key file, as on a desktop."""
    env = dict(os.environ, GSETTINGS_BACKEND="keyfile", XDG_CONFIG_HOME=CONFIG, LANGUAGE=lang)
    log = os.path.join(WORK, log_name)
    proc = subprocess.Popen([TICKSCOPE, *args], stdout=subprocess.DEVNULL, stderr=open(log, "a"), env=env)
    return proc, log


@contextlib.contextmanager
def viewer(part, *args, lang="C", width=1200, scheme=None):
    """The viewer for one part of the test, with its settings (and the desktop's) in a key
    file: (application, main window), both None if it does not show; stopped afterwards."""
    write_keyfile(width, scheme)
    proc, log = launch(*args, lang=lang, log_name="tickscope-%s.log" % part)
    LOGS.append(log)
    try:
        app = wait_for(get_app, 30)
        if not check(app is not None, "%s: the application appears on the accessibility bus" % part):
            yield None, None
        else:
            yield app, wait_for(lambda: main_window(app), 10)
    finally:
        stop(proc)


def resize_window(title, width, height):
    """Resizes the X window titled title from another client, as a window manager would."""
    out = subprocess.run(["xwininfo", "-name", title], capture_output=True, text=True).stdout
    m = re.search(r"Window id: (0x[0-9a-f]+)", out)
    if m is None:
        return False
    x11 = ctypes.CDLL("libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XResizeWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_uint, ctypes.c_uint]
    x11.XFlush.argtypes = x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    dpy = x11.XOpenDisplay(None)
    x11.XResizeWindow(dpy, int(m.group(1), 16), width, height)
    x11.XFlush(dpy)
    x11.XCloseDisplay(dpy)
    return True


def extents(node):
    e = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return (e.x, e.y, e.width, e.height)


def showing(node):
    """On screen: GTK gives a widget that is not (a hidden stack page, a closed bar) no size."""
    try:
        return node is not None and extents(node)[2] > 0 and extents(node)[3] > 0
    except Exception:
        return False


def timeline_box(app):
    tl = find(main_window(app), role_name("panel", "Timeline"))
    x, y, w, h = extents(tl)
    # the lanes right of the names, under the ruler
    return (x + 220, y + 60, max(10, w - 240), max(10, h - 80))


def clipboard_text():
    """What the clipboard holds, read as another application would (GTK 4 through PyGObject)."""
    code = ("import gi; gi.require_version('Gtk', '4.0'); gi.require_version('Gdk', '4.0')\n"
            "from gi.repository import Gtk, Gdk, GLib\n"
            "Gtk.init(); loop = GLib.MainLoop(); out = []\n"
            "cb = Gdk.Display.get_default().get_clipboard()\n"
            "def done(c, r):\n"
            "    try: out.append(c.read_text_finish(r))\n"
            "    except Exception as e: out.append('ERROR ' + str(e))\n"
            "    loop.quit()\n"
            "cb.read_text_async(None, done); GLib.timeout_add(5000, loop.quit); loop.run()\n"
            "import sys; sys.stdout.write(out[0] or '' if out else '')\n")
    return subprocess.run(["/usr/bin/python3", "-c", code], capture_output=True, text=True, timeout=20).stdout


def empty_window():
    """No capture: a status page with Demo, Open… and Connect…, each doing what it says."""
    with viewer("empty") as (app, win):
        if app is None:
            return
        buttons = {n: wait_for(lambda n=n: find(win, role_name("push button", n)), 5)
                   for n in ("Demo", "Open…", "Connect…")}
        check(not showing(find(win, role_name("panel", "Timeline"))), "empty: no timeline without a capture")
        check(label_text(app, lambda s: s == "No Capture Yet") is not None, "empty: it says there is no capture yet")
        screenshot("gnome-empty.png")
        if not check(all(showing(b) for b in buttons.values()),
                     "empty: the window shows Demo, Open… and Connect…",
                     {n: showing(b) for n, b in buttons.items()}):
            return

        click(buttons["Open…"])
        opened = wait_for(lambda: dialog(app, "Open Capture"), 10)
        check(opened is not None, "empty: Open… opens the file chooser")
        press(ESCAPE)
        wait_for(lambda: dialog(app, "Open Capture") is None, 5)

        click(buttons["Connect…"])
        port = wait_for(lambda: find(app, lambda n: n.getRoleName() in ("text", "entry") and n.name == "Port"
                                     and showing(n)), 10)
        check(port is not None, "empty: Connect… opens the board popover")
        screenshot("gnome-empty-connect.png")
        press(ESCAPE)
        time.sleep(0.5)

        click(buttons["Demo"])
        text = wait_for(lambda: status(app) if "simulated board" in status(app) else None, 30)
        check(text is not None, "empty: Demo connects to the built-in simulated board", status(app))
        check(wait_for(lambda: "idle" in lane_names(app), 10), "empty: then the timeline shows lanes")
        check(showing(find(win, role_name("panel", "Timeline"))), "empty: the timeline takes the empty page's place")

        # A board's reply has its spacing normalised ("at    1234" on the wire)
        trigger = wait_for(lambda: find(win, role_name("push button", "Trigger"))
                           if find(win, role_name("push button", "Trigger")).getState().contains(pyatspi.STATE_SENSITIVE)
                           else None, 15)
        if check(trigger is not None, "reply: Trigger is enabled once connected"):
            click(trigger)
            reply = wait_for(lambda: label_text(app, lambda s: s.startswith("Trigger set by")), 10)
            check(reply is not None and re.fullmatch(r"Trigger set by \S+( \S+)* at tick \d+: the board "
                                                     r"records the rest of its log, then holds it", reply),
                  "reply: the board's reply is shown in words, with single spaces", repr(reply))


def messages():
    """A capture with warnings, then a failure: one bar at a time; every warning on demand."""
    with viewer("messages", DAMAGED) as (app, win):
        if app is None:
            return
        banner = wait_for(lambda: label_text(app, lambda s: s.startswith("3 warnings, the first: line ")), 15)
        check(banner is not None, "messages: the bar sums the warnings up and shows the first", banner)
        check(showing(find(win, role_name("push button", "Details…"))), "messages: the bar offers the details")
        time.sleep(0.5)
        px = count_colours(screenshot("gnome-warnings.png"), {"yellow": WARNING_YELLOW, "red": ERROR_RED}, BAR_BOX)
        check(px["yellow"] > 5000, "messages: the warning bar is yellow", px)

        # a failure next: it replaces the warnings, nothing stacks
        broken = os.path.join(WORK, "broken.txt")
        with open(broken, "wb") as f:
            f.write(b"\x00\x01\x02 not a capture \xff\xfe\n" * 4)
        click(find(win, role_name("push button", "Open")))
        file_dialog_open(app, broken)
        failed = wait_for(lambda: label_text(app, lambda s: "broken.txt" in s), 15)
        check(failed is not None, "messages: opening a broken file shows a failure", failed)
        time.sleep(0.8)
        px = count_colours(screenshot("gnome-failure.png"), {"yellow": WARNING_YELLOW, "red": ERROR_RED}, BAR_BOX)
        check(px["red"] > 5000 and px["yellow"] < 100, "messages: the failure's red bar alone, not stacked on the warnings",
              px)
        still = [s for s in labels(win) if "line 52: warning" in s]
        check(not still, "messages: the warnings are no longer in a bar", still)

        # every warning, with its line, as tickscope-cli info lists them, from the status line
        count = find(win, role_name("push button", "Warnings"))
        if not check(showing(count) and "3" in labels(count), "messages: the status line counts 3 warnings",
                     count is not None and labels(count)):
            return
        click(count)
        listed = wait_for(lambda: window_named(app, "Capture Warnings"), 10)
        view = listed and find(listed, lambda n: n.getRoleName() in ("text", "textbox") and n.name == "Warnings")
        text = ""
        if view is not None:
            t = view.queryText()
            text = t.getText(0, t.characterCount)
        cli = subprocess.run([CLI, "info", DAMAGED], capture_output=True, text=True).stdout if CLI else ""
        expected = cli.split("Warnings:", 1)[1].split("\n", 1)[1].strip().splitlines() if "Warnings:" in cli else []
        check(len(expected) == 3 and text.strip().splitlines() == expected,
              "messages: the details list every warning with its line, as tickscope-cli info does",
              (text, expected))
        screenshot("gnome-warnings-details.png")
        copy = listed and find(listed, role_name("push button", "Copy All"))
        if check(copy is not None, "messages: the details have Copy All"):
            click(copy)
            time.sleep(0.5)
            pasted = clipboard_text()
            check(pasted.strip().splitlines() == expected, "messages: Copy All puts every warning on the clipboard",
                  repr(pasted))
        if listed:
            click(find(listed, role_name("push button", "Close")))


def dark():
    """The desktop prefers dark: the timeline is dark, and follows the preference live."""
    with viewer("dark", DAMAGED, scheme="prefer-dark") as (app, win):
        if app is None:
            return
        wait_for(lambda: "threads" in status(app), 15)
        time.sleep(1.0)
        box = timeline_box(app)
        px = count_colours(screenshot("gnome-dark.png"), {"dark": DARK_BG, "light": LIGHT_BG}, box)
        check(px["dark"] > 20000 and px["light"] < 500, "dark: with the system's dark preference the timeline is dark", px)

        write_keyfile(scheme="default")
        time.sleep(2.0)
        px = count_colours(screenshot("gnome-light.png"), {"dark": DARK_BG, "light": LIGHT_BG}, box)
        check(px["light"] > 20000 and px["dark"] < 500, "dark: the system turning light turns the timeline light", px)

        open_main_menu(app)
        item = wait_for(lambda: find(app, lambda n: n.name == "Dark Style" and n.getRoleName() in (
            "check menu item", "menu item", "check box", "toggle button")), 5)
        if check(item is not None, "dark: the main menu has Dark Style"):
            click(item)
            time.sleep(1.5)
            px = count_colours(screenshot("gnome-dark-menu.png"), {"dark": DARK_BG, "light": LIGHT_BG}, box)
            check(px["dark"] > 20000, "dark: Dark Style darkens the timeline with the system light", px)


def narrow_french():
    """800 pixels wide, in French: the title keeps room and no two header buttons overlap."""
    with viewer("narrow", "--demo", lang="fr", width=800) as (app, win):
        if app is None:
            return
        win = wait_for(lambda: main_window(app) if "Tickscope" in (main_window(app).name or "") else None, 10)
        wait_for(lambda: "idle" in lane_names(app), 30)
        time.sleep(1.0)
        shot = screenshot("gnome-narrow-fr.png")
        x, y, w, h = extents(win)
        check(w <= 820, "narrow: the window opens 800 pixels wide", (w, h))
        title = find(win, lambda n: n.getRoleName() == "label" and n.name == win.name)
        tx = extents(title) if title is not None else (0, 0, 0, 0)
        check(tx[2] >= 150, "narrow: the title keeps at least 150 pixels", tx)
        header = [b for b in find_all(win, lambda n: n.getRoleName() in ("push button", "toggle button")
                                      and showing(n)) if extents(b)[1] < y + 50 and extents(b)[2] > 0]
        boxes = [(b.name, extents(b)) for b in header] + [("title", tx)]
        overlaps = [(a[0], b[0]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                    if a[1][0] < b[1][0] + b[1][2] and b[1][0] < a[1][0] + a[1][2]
                    and a[1][1] < b[1][1] + b[1][3] and b[1][1] < a[1][1] + a[1][3]
                    and a[0] != b[0] and not (a[1] == b[1])]
        # a menu button's inner button shares its box
        overlaps = [o for o in overlaps if o[0] != o[1]]
        check(len(header) >= 8 and not overlaps, "narrow: no header button overlaps another or the title",
              (len(header), overlaps))
        for name in ("Déclencher", "Lancer", "Récupérer les données"):
            b = find(win, role_name("push button", name))
            check(showing(b) and extents(b)[2] <= 48, "narrow: %s is an icon button, still named" % name,
                  b is not None and extents(b))
        px = count_colours(shot, {"text": lambda r, g, b: r < 80 and g < 80 and b < 80}, tuple(tx))
        check(px["text"] > 50, "narrow: the title's text is drawn", px)

        # resized as a window manager does: wide, the buttons show their text; narrow again, icons
        fetch = lambda: find(win, role_name("push button", "Récupérer les données"))  # noqa: E731
        resize_window(win.name, 1500, 700)
        wide = wait_for(lambda: extents(fetch())[2] > 100, 10)
        screenshot("gnome-wide-fr.png")
        check(wide, "narrow: widened, Get new data shows its text", extents(fetch()))
        for width in range(1400, 799, -100):   # step by step, as a user drags the edge
            resize_window(win.name, width, 600)
            time.sleep(0.3)
        narrow = wait_for(lambda: extents(fetch())[2] <= 48 and extents(win)[2] <= 820, 10)
        check(narrow, "narrow: narrowed again, it is an icon and the window 800 pixels wide",
              (extents(fetch()), extents(win)))


def baud_rates():
    """The board popover's baud rates: the standard ones, and one given on the command line."""
    with viewer("baud", "--baud", "250000") as (app, win):
        if app is None:
            return
        for b in reversed(find_all(win, role_name("push button", "Board"))):
            try:
                click(b)
                break
            except Exception:
                continue
        combo = wait_for(lambda: find(app, lambda n: n.getRoleName() == "combo box" and n.name == "Baud rate"
                                      and showing(n)), 10)
        if not check(combo is not None, "baud: the board popover has a Baud rate dropdown"):
            return
        check("250000" in labels(combo), "baud: the rate given with --baud is selected", labels(combo))
        toggle = find_all(combo, lambda n: n.getRoleName() in ("push button", "toggle button"))
        click(toggle[0])
        time.sleep(0.8)
        screenshot("gnome-baud.png")
        items = [s for s in labels(app) if s.isdigit()]
        check(all(b in items for b in BAUDS) and "250000" in items and "124800" not in items,
              "baud: the list holds the standard rates and the one given", items)
        press(0xFF50)  # Home
        for _ in range(BAUDS.index("9600") + 3):  # 1200, 2400, 4800 come first
            press(0xFF54)  # Down
        press(RETURN)
        time.sleep(0.5)
        check(wait_for(lambda: "9600" in labels(combo), 5), "baud: a rate is picked from the list", labels(combo))
        press(ESCAPE)


def shortcuts_and_legend():
    """The shortcuts window's mouse page, and the legend of the timeline's colours."""
    with viewer("help", DAMAGED) as (app, win):
        if app is None:
            return
        wait_for(lambda: "threads" in status(app), 15)
        legend = find(win, role_name("push button", "Legend"))
        if check(legend is not None, "legend: the status line has a Legend button"):
            for b in reversed(find_all(win, role_name("push button", "Legend"))):
                try:
                    click(b)
                    break
                except Exception:
                    continue
            text = wait_for(lambda: [s for s in labels(app) if "the trigger" in s or "each thread has its colour" in s], 5)
            check(text and len(text) == 2, "legend: it explains the lanes' colours and the trigger line", text)
            screenshot("gnome-legend.png")
            press(ESCAPE)
            time.sleep(0.3)

        item = menu_item(app, "Keyboard Shortcuts")
        if check(item is not None, "shortcuts: the main menu has Keyboard Shortcuts"):
            click(item)
            shortcuts = wait_for(lambda: next((w for w in app if w is not None and w != main_window(app)
                                               and "Open a capture" in labels(w)), None), 10)
            check(shortcuts is not None, "shortcuts: the shortcuts window opens")
            time.sleep(0.5)
            pages = [p for p in find_all(shortcuts, lambda n: n.getRoleName() in ("push button", "toggle button",
                                                                                  "radio button")
                                         and (n.name or "").isdigit())]
            seen = set(labels(shortcuts))
            screenshot("gnome-shortcuts.png")
            shots = 0
            for p in pages:
                try:
                    click(p)
                except Exception:
                    continue
                time.sleep(0.4)
                seen |= set(labels(shortcuts))
                if "Shift+click" in seen and shots == 0:
                    screenshot("gnome-shortcuts-mouse.png")
                    shots += 1
            wanted = {"Mouse", "Click", "Shift+click", "Wheel", "Drag, or Shift+wheel", "Ctrl+drag", "Touchpad", "Pinch"}
            check(wanted <= seen, "shortcuts: the mouse page says what click, Shift+click, the wheel and drags do",
                  sorted(wanted - seen))
            check("Zoom at the pointer (wheel, Ctrl+wheel)" not in seen, "shortcuts: the wheel is no touch gesture")
            press(ESCAPE)
            wait_for(lambda: shortcuts not in list(app), 5)

        # the about window is libadwaita's
        item = menu_item(app, "About Tickscope")
        if check(item is not None, "about: the main menu has About Tickscope"):
            click(item)
            about = wait_for(lambda: next((w for w in app if w is not None and w != main_window(app)
                                           and "Thread timelines of ChibiOS boards" in labels(w)), None), 10)
            check(about is not None and "Tickscope" in labels(about), "about: the about window names the application",
                  about is not None and labels(about))
            screenshot("gnome-about.png")
            press(ESCAPE)


# TKS_GUI_ONLY=name,name runs only those parts (while working on one)
parts = {"empty": empty_window, "messages": messages, "dark": dark, "narrow": narrow_french,
         "baud": baud_rates, "help": shortcuts_and_legend}
only = [p for p in os.environ.get("TKS_GUI_ONLY", "").split(",") if p]
for name, fn in parts.items():
    if not only or name in only:
        fn()
code = finish(None)
if code:
    for log in LOGS:
        if os.path.exists(log):
            print("# %s:\n# %s" % (os.path.basename(log), open(log).read().replace("\n", "\n# ")))
sys.exit(code)
