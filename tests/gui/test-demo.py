#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The viewer started on the built-in simulated board (tickscope --demo), driven as a user does
# through the accessibility tree of a real window in Xvfb: the lanes appear without a click,
# the connection message is shown as information (not as a failure), Trigger shows the
# board's reply in words, Get new data shows lanes and keeps the fetch in the history, Save writes a
# file that reopens with the same lanes. Then a refused connection shows a red error bar.
# Usage (through run-gui-tests.sh): test-demo.py TICKSCOPE DATA_DIR
import os
import re
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tksgui import (WORK, check, click, count_colours, file_dialog_save, find, find_all,  # noqa: E402
                    finish, get_app, history, label_text, lane_names, main_window, menu_item, press,
                    screenshot, sensitive_button, start, status, stop, wait_for)

TICKSCOPE = sys.argv[1]
DEMO_THREADS = {"idle", "main", "sensor", "filter", "control", "console", "logger"}
# the message bars' backgrounds (data/style.css)
ERROR_RED, INFO_BLUE = (0xC0, 0x1C, 0x28), (0xDB, 0xE7, 0xF7)
BAR_BOX = (0, 40, 1100, 60)   # where the message bars sit, under the header bar
ESCAPE = 0xFF1B


def demo():
    proc, log = start(TICKSCOPE, "--demo")
    try:
        app = wait_for(get_app, 30)
        if not check(app is not None, "the application appears on the accessibility bus"):
            return log
        # No click: connecting to the board fetches its log at once.
        text = wait_for(lambda: status(app), 30)
        check(text and "simulated board" in text, "--demo shows a capture without a click", text)
        title = main_window(app).name
        check(title == "Unsaved capture from demo — Tickscope",
              "the title says the capture is not saved yet, and where it comes from", title)
        names = set(wait_for(lambda: lane_names(app) if DEMO_THREADS <= set(lane_names(app)) else None, 10)
                    or lane_names(app))
        check(DEMO_THREADS <= names, "the demo board's threads are shown as lanes", sorted(names))
        check({"IRQ SysTick_Handler", "CPU sleep", "sample (marker)"} <= names,
              "the demo board's interrupts, sleep and markers have lanes", sorted(names))

        connected = label_text(app, lambda s: s.startswith("Connected: "))
        check(connected is not None, "the connection is announced", connected)
        state = wait_for(lambda: label_text(app, lambda s: s.startswith("ChibiOS shell on the simulated board — ")), 5)
        check(state is not None and (state.endswith("— logging") or " — triggered by " in state),
              "the header shows the board and what its log is doing", state)
        time.sleep(0.5)
        px = count_colours(screenshot("demo.png"), {"red": ERROR_RED, "blue": INFO_BLUE}, BAR_BOX)
        check(px["blue"] > 5000 and px["red"] < 100,
              "the connection message looks like information, not like an error", px)

        # Trigger: the board's reply is shown
        trigger = sensitive_button(app, "Trigger")
        check(trigger is not None, "Trigger is enabled once connected")
        if trigger is not None:
            click(trigger)
            reply = wait_for(lambda: label_text(app, lambda s: s.startswith("Trigger set by")), 10)
            check(reply is not None and re.match(r"Trigger set by Shell command at tick \d+: the board "
                                                 r"records the rest of its log, then holds it$", reply),
                  "Trigger shows the board's reply, in words", reply)
            state = wait_for(lambda: label_text(app, lambda s: s.endswith("— %s" % reply)), 5)
            check(state is not None, "the header says the trigger is set, and by what", state)

        # Get new data: a new fetch, kept in the history, lanes shown
        before = len(history())
        fetch = sensitive_button(app, "Get new data")
        check(fetch is not None, "Get new data is enabled once connected")
        if fetch is not None:
            click(fetch)
            check(wait_for(lambda: len(history()) > before, 20), "Get new data keeps the fetch in the history",
                  (before, history()))
            names = set(wait_for(lambda: lane_names(app), 10) or [])
            check(DEMO_THREADS <= names, "Get new data shows the lanes", sorted(names))

        # Save (a fetch has no file yet: the dialog asks where), then reopen the file
        saved = os.path.join(WORK, "demo-saved.txt")
        save = sensitive_button(app, "Save", 5)
        check(save is not None, "Save is enabled with a fetched capture")
        if save is not None:
            click(save)
            file_dialog_save(app, "Save Capture", saved)
            check(wait_for(lambda: os.path.exists(saved) and os.path.getsize(saved) > 200, 10),
                  "Save writes the capture", saved)
            check(wait_for(lambda: label_text(app, lambda s: s.startswith("Saved ")), 5),
                  "Save says so in the window")
        shown = set(lane_names(app))
        stop(proc)

        # a fresh viewer opens the saved file with the same lanes
        proc, log = start(TICKSCOPE, saved)
        app = wait_for(get_app, 30)
        reopened = wait_for(lambda: "demo-saved.txt" in (main_window(app).name or "") and status(app), 20)
        check(reopened, "the saved file reopens", reopened)
        names = set(wait_for(lambda: lane_names(app), 10) or [])
        check(names and names == shown, "the reopened file shows the same lanes",
              (sorted(names), sorted(shown)))

        # Open Recent lists the saved file; History lists every fetch and reopens one
        check(wait_for(lambda: menu_item(app, "Open Recent") and find(
            app, lambda n: n.getRoleName() == "menu item" and n.name == "demo-saved.txt"), 10),
            "Open Recent lists the saved file")
        press(ESCAPE)
        press(ESCAPE)
        fetches = history()
        click(menu_item(app, "History"))
        items = wait_for(lambda: find_all(app, lambda n: n.getRoleName() == "menu item"
                                          and re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d  demo", n.name or "")), 5)
        listed = [i.name for i in items or []]
        check(items and len(items) == len(fetches) >= 2 and listed == sorted(listed, reverse=True),
              "History lists every fetch, newest first", (listed, fetches))
        screenshot("history-menu.png")
        if items:
            click(items[-1])
            oldest = fetches[0]
            check(wait_for(lambda: oldest in (main_window(app).name or ""), 20),
                  "a fetch reopens from the History menu", (oldest, main_window(app).name))
            names = set(wait_for(lambda: lane_names(app), 10) or [])
            check(DEMO_THREADS <= names, "the reopened fetch shows the demo's lanes", sorted(names))
    finally:
        stop(proc)
    return log


def refused():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    proc, log = start(TICKSCOPE, "tcp:127.0.0.1:%d" % port, log_name="tickscope-refused.log")
    try:
        app = wait_for(get_app, 30)
        if not check(app is not None, "refused: the application appears on the accessibility bus"):
            return log
        message = wait_for(lambda: label_text(app, lambda s: s.startswith("Could not connect")), 15)
        check(message is not None and "refused" in message, "a refused connection is explained", message)
        time.sleep(0.5)
        px = count_colours(screenshot("refused.png"), {"red": ERROR_RED, "blue": INFO_BLUE}, BAR_BOX)
        check(px["red"] > 5000 and px["blue"] < 100, "the failure is shown in a red error bar", px)
    finally:
        stop(proc)
    return log


def french():
    """Run from its build tree, the viewer speaks the user's language (here French)."""
    saved = dict(os.environ)
    # LANGUAGE counts only outside the plain C locale; C.UTF-8 is on every Debian system
    os.environ.update(LANGUAGE="fr", LC_ALL="C.UTF-8")
    try:
        proc, log = start(TICKSCOPE, "--demo", log_name="tickscope-fr.log")
    finally:
        os.environ.clear()
        os.environ.update(saved)
    try:
        app = wait_for(get_app, 30)
        if not check(app is not None, "fr: the application appears on the accessibility bus"):
            return log
        check(sensitive_button(app, "Récupérer les données") is not None,
              "uninstalled, the viewer is in French when asked (Get new data)")
        state = wait_for(lambda: label_text(app, lambda s: s.startswith("Shell ChibiOS sur la carte simulée — ")), 10)
        check(state is not None and ("journal en cours" in state or "déclenché par" in state),
              "the header's board and its state are in French too", state)
    finally:
        stop(proc)
    return log


demo()
refused()
french()
sys.exit(finish(os.path.join(WORK, "tickscope.log")))
