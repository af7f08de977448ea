#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# A picture that holds still, in the real window through AT-SPI in Xvfb: Zoom to fit shows the
# data. A capture whose last thread exits were recorded 12 s after its log's last switch (made
# from a real board's capture) is fitted to its log, not to the "log ended" band after it.
# Usage (through run-gui-tests.sh): test-picture.py TICKSCOPE DATA_DIR
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tksgui import (PATIENCE, WORK, check, click, find, finish, get_app, label_text,  # noqa: E402
                    main_window, press, role_name, screenshot, start, stop, wait_for, wait_until)

TICKSCOPE, DATA = sys.argv[1], os.path.abspath(sys.argv[2])
MINUS = 0x2D


def cap09_like():
    """A real board's capture whose thread exits come 12 s (12,000 ticks) after its log's last
    switch, as when a board is read long after its log froze; and the log's first and last
    switch ticks."""
    text = open(os.path.join(DATA, "board-trigger-exits.raw.txt")).read()
    switches = [(m.start(), int(m.group(1)), int(m.group(2)), int(m.group(3)))
                for m in re.finditer(r"^From +(\d+) to +(\d+) at +(\d+)$", text, re.M)]
    last = max(i for i, (_, a, b, _) in enumerate(switches) if a != b)
    first_tick, last_tick = switches[0][3], switches[last][3]

    def later(m):
        if m.start() <= switches[last][0] or m.group(1) != m.group(2):
            return m.group(0)
        return "From %2d to %2d at %7d" % (int(m.group(1)), int(m.group(2)), int(m.group(3)) + 12000)
    path = os.path.join(WORK, "exits-long-after.raw.txt")
    with open(path, "w") as f:
        f.write(re.sub(r"^From +(\d+) to +(\d+) at +(\d+)$", later, text, flags=re.M))
    return path, first_tick, last_tick


def view_ticks(app):
    """The visible range's span in ticks, as the "View a – b (N ticks …)" line tells it."""
    m = re.search(r"\(([\d.]+) ticks", label_text(app, lambda s: s.startswith("View ")) or "")
    return float(m.group(1)) if m else None


def fit():
    path, first_tick, last_tick = cap09_like()
    data = last_tick - first_tick
    proc, log = start(TICKSCOPE, path)
    try:
        app = wait_for(get_app, PATIENCE)
        check(app is not None and wait_until(lambda: view_ticks(app) is not None),
              "the capture with exits long after its log opens")
        # zoomed out to the whole capture: its log and the 12 s after
        try:
            find(main_window(app), role_name("panel", "Timeline")).queryComponent().grabFocus()
        except Exception:
            pass
        for _ in range(6):
            press(MINUS)
        wide = wait_for(lambda: view_ticks(app) if view_ticks(app) > 10000 else None, PATIENCE)
        check(wide is not None, "zoomed out, the view holds the time after the log (%s ticks)" % wide)
        click(find(main_window(app), lambda n: n.name == "Zoom to fit" and "button" in n.getRoleName()))
        span = wait_for(lambda: view_ticks(app) if view_ticks(app) < (wide or 0) else None, PATIENCE)
        screenshot("fit.png")
        check(span is not None and 0.9 * data <= span <= 1.2 * data,
              "Zoom to fit shows the log's %d ticks, not the 12,000 after it" % data, span)
    finally:
        stop(proc)
    return log


sys.exit(finish(fit()))
