#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Condition triggers from the viewer on the built-in simulated board (tickscope --demo), driven
# as a user does through the accessibility tree of a real window in Xvfb: the Trigger button's
# menu offers the board's conditions and the capture's threads as names, writes the condition
# as the form is filled, refuses a bad one before anything is sent, arms a latency condition;
# the header says Armed, then Triggered; the viewer fetches by itself and shows the trigger in
# the middle of the view. A board without conditions offers no menu.
# Usage (through run-gui-tests.sh): test-trigger.py TICKSCOPE DATA_DIR
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pyatspi  # noqa: E402
from tksgui import (RETURN, WORK, button, check, click, find, find_all, finish, get_app, labels,  # noqa: E402
                    label_text, lane_names, main_window, mouse, press, role_name, screenshot,
                    sensitive, start, stop, type_text, view_range, wait_for)

TICKSCOPE = sys.argv[1]
ESCAPE = 0xFF1B
ARROW = "Trigger on a Condition"


def shown(node):
    try:
        e = node.queryComponent().getExtents(0)
        return e.width > 0 and e.height > 0
    except Exception:
        return False


def field(app, role, name):
    return find(app, lambda n: n.getRoleName() == role and n.name == name and shown(n))


def entry_text(node):
    t = node.queryText()
    return t.getText(0, t.characterCount)


def press_button(node):
    """Clicks @node, or the part of it that clicks (a menu button's inner button); with the
    pointer where AT-SPI offers no action (a check button)."""
    for b in [node] + find_all(node, lambda n: n.getRoleName() in ("push button", "toggle button")):
        try:
            click(b)
            return True
        except Exception:
            continue
    e = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    mouse(e.x + min(12, e.width / 2), e.y + e.height / 2)
    return True


def board_state(app, word):
    """The header's line under the title, when it says @word about the board's log."""
    return label_text(app, lambda s: s.startswith("ChibiOS shell on the simulated board — " + word))


def conditions():
    proc, log = start(TICKSCOPE, "--demo")
    try:
        app = wait_for(get_app, 30)
        if not check(app is not None, "the application appears on the accessibility bus"):
            return log
        check(wait_for(lambda: "sensor" in lane_names(app), 30), "the demo board's capture is shown",
              lane_names(app))
        arrow = wait_for(lambda: button(app, ARROW) if sensitive(button(app, ARROW)) else None, 15)
        if not check(arrow is not None, "Trigger has a menu of conditions on a board that offers them"):
            return log
        check(sensitive(button(app, "Trigger")), "Trigger itself still sets the trigger now")
        press_button(arrow)
        kinds = ["A wake-up later than a limit", "A thread running longer than a limit",
                 "A handler running longer than a limit", "A marker with a value"]
        radios = wait_for(lambda: [field(app, "push button", k) for k in kinds]
                          if all(field(app, "push button", k) for k in kinds) else None, 5)
        if not check(radios is not None, "the menu offers what the board accepts",
                     [(n.getRoleName(), n.name) for n in find_all(app, lambda n: n.name in kinds)]):
            return log
        condition = wait_for(lambda: field(app, "text", "Condition") or field(app, "entry", "Condition"), 5)
        if not check(condition is not None, "the menu writes the condition"):
            return log
        check(entry_text(condition) == "latency > 1000us", "a wake-up of any thread, 1000 µs, at first",
              entry_text(condition))

        # the form: a thread running longer than 2500 µs
        press_button(radios[1])
        limit = wait_for(lambda: find(app, lambda n: n.getRoleName() == "spin button"
                                      and n.name == "Limit in µs" and shown(n)), 5)
        if check(limit is not None, "the limit is asked in µs"):
            limit.queryValue().currentValue = 2500.0
            time.sleep(0.3)
        check(wait_for(lambda: entry_text(condition) == "run > 2500us", 5),
              "the condition follows the form", entry_text(condition))

        # the names offered: the capture's threads (and, for handlers, its handlers)
        names = field(app, "combo box", "Name")
        if check(names is not None, "the menu has a Name choice"):
            if press_button(names):
                offered = wait_for(lambda: {"sensor", "control", "any thread"} <= set(labels(app)), 5)
                check(offered, "the capture's threads are offered as names", sorted(set(labels(app)))[:40])
                press(ESCAPE)
                time.sleep(0.3)
        press_button(radios[2])
        check(wait_for(lambda: entry_text(condition).startswith("irq > "), 5),
              "a handler: irq", entry_text(condition))

        # a bad condition is refused in the menu: Arm stays insensitive
        arm = wait_for(lambda: find(app, lambda n: n.getRoleName() == "push button" and n.name == "Arm"
                                    and shown(n)), 5)
        if not check(arm is not None, "the menu has Arm"):
            return log
        condition.queryEditableText().setTextContents("latency sensor > 12 parsecs")
        problem = wait_for(lambda: label_text(app, lambda s: "“parsecs” is not a unit of time" in s)
                           or find(app, lambda n: n.getRoleName() == "label"
                                   and "is not a unit of time" in (n.name or "")), 5)
        check(problem is not None, "a bad condition says what is wrong and where")
        check(not sensitive(arm), "a bad condition cannot be armed")
        screenshot("trigger-bad.png")

        # armed: a wake-up of sensor later than 12 µs, which the demo's workload meets
        condition.queryEditableText().setTextContents("latency sensor > 12us")
        check(wait_for(lambda: sensitive(arm), 5), "a good condition can be armed")
        screenshot("trigger-menu.png")
        # the line under the title, read as it changes: Armed, then Triggered
        subtitle = find(app, lambda n: n.getRoleName() == "label"
                        and (n.name or "").startswith("ChibiOS shell on the simulated board — "))
        t0 = time.time()
        click(arm)
        states = []
        said = None
        while subtitle is not None and time.time() - t0 < 120:
            text = subtitle.name or ""
            if not states or states[-1] != text:
                states.append(text)
                if said is None and " — Armed: " in text:
                    # the message bar says it too, at once
                    said = label_text(app, lambda s: s.startswith("Armed: the first wake-up of sensor"))
            if " at tick " in text:
                break
            time.sleep(0.05)
        prefix = "ChibiOS shell on the simulated board — "
        words = [s[len(prefix):] for s in states if s.startswith(prefix)]
        armed = [i for i, s in enumerate(words) if s.startswith("Armed: ")]
        triggered = [i for i, s in enumerate(words) if s.startswith("Triggered: ")]
        check(armed and words[armed[0]] == "Armed: the first wake-up of sensor later than 12 µs sets "
              "the trigger", "the header says Armed, in words", words)
        check(armed and triggered and armed[0] < triggered[0], "then the header says Triggered", words)
        check(said is not None, "the board's reply is shown in words", said)
        done = words[-1] if words else None
        m = re.search(r"Triggered: the first wake-up of sensor later than 12 µs, at tick ([0-9.]+) "
                      r"\(measured ([0-9]+) µs\)", done or "")
        check(m is not None and int(m.group(2)) > 12,
              "the fetch arrives by itself and the header says where the condition was met", done)
        screenshot("trigger-fetched.png")
        if m is not None:
            tick = float(m.group(1))
            view = wait_for(lambda: view_range(app), 5)
            ok = view is not None and view[0] < tick < view[1] and view[1] - view[0] <= 25 \
                and abs((view[0] + view[1]) / 2 - tick) < 0.1 * (view[1] - view[0]) + 0.01
            check(ok, "the trigger is in the middle of the view", (tick, view))
        check("sensor" in lane_names(app), "the fetched capture shows its lanes", lane_names(app))
        if m is not None:
            why_late(app, int(m.group(2)))
        check(time.time() - t0 < 120, "the freeze came and was fetched within two minutes", time.time() - t0)
    finally:
        stop(proc)
    return log


def selection_fields(app):
    """The Selection panel's captions and values, shown ones only."""
    panel = find(main_window(app), role_name("panel", "Selection"))
    texts = [n.name or "" for n in find_all(panel, lambda n: n.getRoleName() == "label")
             if n.queryComponent().getExtents(pyatspi.WINDOW_COORDS).width > 0] if panel else []
    return {texts[i]: texts[i + 1] for i in range(0, len(texts) - 1, 2)}


def why_late(app, measured_us):
    """The wake-up that set the trigger, found (Ctrl+F, Enter from the trigger in the middle of
    the view) and selected: the Selection panel reads its latency and where it went."""
    for code, kind in ((37, pyatspi.KEY_PRESS), (41, pyatspi.KEY_PRESSRELEASE), (37, pyatspi.KEY_RELEASE)):
        pyatspi.Registry.generateKeyboardEvent(code, None, kind)   # Ctrl+F
    time.sleep(0.5)
    type_text("latency sensor > 12us")
    time.sleep(0.5)
    press(RETURN)
    fields = wait_for(lambda: (lambda f: f if f.get("Why late") else None)(selection_fields(app)), 10) or {}
    check(fields.get("Thread", "").startswith("sensor"), "find selects a late wake-up of sensor", fields)
    latency = re.match(r"([0-9.]+) µs", fields.get("Wake-up latency", ""))
    check(latency is not None and float(latency.group(1)) > 12,
          "its latency is over the condition's limit", (fields.get("Wake-up latency"), measured_us))
    parts = [float(x) for x in re.findall(r"([0-9.]+) µs", fields.get("Why late", ""))]
    check(bool(parts) and latency is not None and abs(sum(parts) - float(latency.group(1))) < 0.6,
          "the Selection panel reads its breakdown, and the parts add up to the latency",
          (fields.get("Why late"), fields.get("Wake-up latency")))
    screenshot("trigger-why-late.png")


def no_conditions():
    """A board whose library has no conditions: Trigger works, its menu is not offered."""
    saved = dict(os.environ)
    os.environ["TICKSCOPE_DEMO_EVENTS"] = "0"
    try:
        proc, log = start(TICKSCOPE, "--demo", log_name="tickscope-no-conditions.log")
    finally:
        os.environ.clear()
        os.environ.update(saved)
    try:
        app = wait_for(get_app, 30)
        if not check(app is not None, "no conditions: the application appears"):
            return log
        wait_for(lambda: "sensor" in lane_names(app), 30)
        check(wait_for(lambda: sensitive(button(app, "Trigger")), 15), "no conditions: Trigger is enabled")
        time.sleep(1.0)
        arrow = button(app, ARROW)
        check(arrow is not None and not sensitive(arrow),
              "no conditions: the menu of conditions is not offered", arrow is not None and sensitive(arrow))
    finally:
        stop(proc)
    return log


conditions()
no_conditions()
sys.exit(finish(os.path.join(WORK, "tickscope.log")))
