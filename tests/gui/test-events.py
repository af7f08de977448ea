#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# A capture with events (dump version 2) in the real window, through AT-SPI in Xvfb: the
# interrupt handlers, the CPU's sleep and the markers have their own lanes, named, above the
# threads'; the handlers' runs are drawn in their lane; selecting a woken thread's run draws
# its wake-up latency, and the Selection panel names what made it ready and why it was late. A
# capture without events has none of these lanes.
# Usage (through run-gui-tests.sh): test-events.py TICKSCOPE DATA_DIR
import os
import sys

import pyatspi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tksgui import (check, click, count_colours, find, finish, get_app,  # noqa: E402
                    lane_names, main_window, open_main_menu, role_name, screenshot,
                    start, status, stop, wait_for)

TICKSCOPE, DATA = sys.argv[1], os.path.abspath(sys.argv[2])
EVENTS = os.path.join(DATA, "board-events-v2.raw.txt")
PLAIN = os.path.join(DATA, "board-trigger-exits.saved.txt")
# the handlers' red (app/tks-timeline-events.c), at any shade of load, and the wake-up's orange
IRQ_RED = lambda r, g, b: r - g > 40 and r - b > 30  # noqa: E731
WAKE_ORANGE = lambda r, g, b: abs(r - 0xE6) < 8 and abs(g - 0x61) < 8 and b < 8  # noqa: E731


def extents(node):
    return node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)


def header(app, name):
    timeline = find(main_window(app), role_name("panel", "Timeline"))
    return find(timeline, lambda n: n.getRoleName() == "label" and n.name == name) if timeline else None


def toggle_item(app, name):
    """A toggle of the main menu, the menu opened."""
    open_main_menu(app)
    return wait_for(lambda: find(app, lambda n: n.getRoleName() in ("check menu item", "menu item",
                                                                     "check box", "push button")
                                 and n.name == name), 5)


proc, log = start(TICKSCOPE, EVENTS)
try:
    app = wait_for(get_app, 30)
    check(app is not None, "the application appears on the accessibility bus")
    text = wait_for(lambda: status(app), 30)
    check(text is not None and "3 threads" in text, "the capture with events opens", text)
    names = wait_for(lambda: lane_names(app) if "CPU sleep" in lane_names(app) else None, 10) or lane_names(app)
    for name in ("IRQ USART1_IRQHandler", "CPU sleep", "tick (marker)", "main", "sensor", "idle"):
        check(name in names, "a lane is named %s" % name, names)
    irq, main = header(app, "IRQ USART1_IRQHandler"), header(app, "main")
    if irq is not None and main is not None:
        check(extents(irq).y < extents(main).y, "the event lanes are above the threads'",
              (extents(irq).y, extents(main).y))
        lane = extents(irq)
        px = count_colours(screenshot("events.png"), {"irq": IRQ_RED},
                           (lane.x + lane.width, lane.y, 1000, lane.height))
        check(px["irq"] >= 4, "the handler's runs are drawn in its lane", px)

        # Select a run of sensor (woken up by the handler): its latency is drawn.
        sensor = header(app, "sensor")
        if sensor is not None:
            s = extents(sensor)
            timeline = find(main_window(app), role_name("panel", "Timeline"))
            t = extents(timeline)
            before = count_colours(screenshot("before-select.png"), {"wake": WAKE_ORANGE},
                                   (s.x + 190, s.y, t.width - 200, s.height))["wake"]
            # the first run of sensor sits at the start of the view, right of the headers
            pyatspi.Registry.generateMouseEvent(t.x + 196, s.y + s.height // 2, "b1c")
            after = wait_for(lambda: count_colours(screenshot("selected.png"), {"wake": WAKE_ORANGE},
                                                   (t.x + 190, s.y - s.height, t.width - 200, 2 * s.height))["wake"] > before + 3,
                             5)
            check(after, "selecting a woken thread's run draws its wake-up latency", before)
            # The Selection panel says what made it ready, and why it was late.
            panel = find(main_window(app), role_name("panel", "Selection"))
            waker = wait_for(lambda: find(panel, lambda n: n.getRoleName() == "label" and
                                          (n.name or "").startswith("handler USART1_IRQHandler at ")), 5) if panel else None
            check(waker is not None, "the Selection panel says the handler made sensor ready")
            caption = find(panel, lambda n: n.getRoleName() == "label" and n.name == "Why late") if panel else None
            check(caption is not None, "the Selection panel explains the wake-up's latency")

    # Wake-up arrows, from the main menu: an arrow from each waker's lane to the run.
    timeline = find(main_window(app), role_name("panel", "Timeline"))
    if timeline is not None:
        t = extents(timeline)
        area = (t.x + 190, t.y, t.width - 200, t.height)
        before = count_colours(screenshot("before-arrows.png"), {"wake": WAKE_ORANGE}, area)["wake"]
        item = toggle_item(app, "Wake-up Arrows")
        check(item is not None, "the main menu has the wake-up arrows")
        if item is not None:
            click(item)
            shown = []
            drawn = wait_for(lambda: shown.append(count_colours(screenshot("arrows.png"),
                                                                {"wake": WAKE_ORANGE}, area)["wake"])
                             or shown[-1] > before + 20, 5)
            check(drawn, "the wake-up arrows are drawn", (before, shown[-1:]))
            again = toggle_item(app, "Wake-up Arrows")
            if again is not None and shown:
                click(again)
                left = []
                gone = wait_for(lambda: left.append(count_colours(screenshot("no-arrows.png"),
                                                                  {"wake": WAKE_ORANGE}, area)["wake"])
                                or (left[-1] <= before + 20 and left[-1] < shown[-1] - 20), 5)
                check(gone, "turned off, they are gone", (before, shown[-1], left[-1:]))

    # The CPU load graph, from the main menu: a lane above the others, its threads stacked.
    open_main_menu(app)
    item = wait_for(lambda: find(app, lambda n: n.getRoleName() in ("check menu item", "menu item",
                                                                     "check box", "push button")
                                 and n.name == "CPU Load Graph"), 5)
    check(item is not None, "the main menu has the CPU load graph")
    if item is not None:
        click(item)
        shown = wait_for(lambda: "CPU load" in lane_names(app), 5)
        check(shown, "the CPU load graph has its lane", lane_names(app))
        load = header(app, "CPU load")
        irq = header(app, "IRQ USART1_IRQHandler")
        if load is not None and irq is not None:
            check(extents(load).y < extents(irq).y, "the load graph is the first lane")
            lane = extents(load)
            # main's green (#62da80) and sensor's teal (#62dabc), from their names and priorities
            px = count_colours(screenshot("load.png"), {"main": lambda r, g, b: g > 180 and r < 130 and 100 < b < 160,
                                                       "sensor": lambda r, g, b: g > 180 and r < 130 and b > 166},
                               (lane.x + lane.width, lane.y, 1000, lane.height))
            check(px["main"] > 50 and px["sensor"] > 0, "the load of main and sensor are stacked in it", px)
finally:
    stop(proc)

proc, log = start(TICKSCOPE, PLAIN)
try:
    app = wait_for(get_app, 30)
    wait_for(lambda: status(app, (" threads,",)), 30)
    names = lane_names(app)
    check(names and not any(n.startswith("IRQ ") or n == "CPU sleep" for n in names),
          "a capture without events has no event lanes", names)
finally:
    stop(proc)
finish(log)
