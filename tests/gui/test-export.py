#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The view exported from the window stands alone: Export… (Ctrl+E) to an SVG writes the
# capture's name, the range shown (from the trigger, as the ruler counts) and a legend with
# every lane the window shows, all as <text> elements, never glyph outlines; to a PNG, an
# image taller than the timeline, whose band above it is not blank.
# Usage (through run-gui-tests.sh): test-export.py TICKSCOPE DATA_DIR
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pyatspi  # noqa: E402
from tksgui import (WORK, check, click, count_colours, file_dialog_save, find, finish,  # noqa: E402
                    get_app, lane_names, main_window, menu_item, role_name, start, status,
                    stop, wait_for)

TICKSCOPE, DATA = sys.argv[1], os.path.abspath(sys.argv[2])
NAME = "board-trigger-exits.saved.txt"
CAPTURE = os.path.join(DATA, NAME)
SVG = "{http://www.w3.org/2000/svg}"
RANGE = re.compile(r"^-?[0-9.]+ (s|ms|µs) to -?[0-9.]+ (s|ms|µs), from the trigger$")


def extents(node):
    return node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)


def export(app, path):
    if os.path.exists(path):
        os.remove(path)
    item = menu_item(app, "Export…")
    if item is None:
        return False
    click(item)
    file_dialog_save(app, "Export", path)
    return wait_for(lambda: os.path.exists(path) and os.path.getsize(path) > 0, 20) is not None


def main():
    proc, log = start(TICKSCOPE, CAPTURE)
    try:
        app = wait_for(get_app, 30)
        if not check(app is not None, "the application appears on the accessibility bus"):
            return finish(log)
        check(wait_for(lambda: status(app), 30), "the capture opens", status(app))
        shown = wait_for(lambda: lane_names(app), 10) or []
        check(len(shown) > 5, "the window shows lanes", shown)

        svg = os.path.join(WORK, "export-view.svg")
        if check(export(app, svg), "Export… writes an SVG of the view"):
            root = ET.parse(svg).getroot()
            texts = ["".join(t.itertext()) for t in root.iter(SVG + "text")]
            outlines = [e.tag for e in root.iter() if e.tag in (SVG + "symbol", SVG + "use")]
            check(not outlines and len(texts) > 2 * len(shown),
                  "the SVG's text is text: %d <text> elements, no glyph outlines" % len(texts),
                  outlines[:5])
            check(NAME in texts, "the SVG names the capture", texts[:3])
            ranges = [t for t in texts if RANGE.match(t)]
            check(len(ranges) == 1, "the SVG tells the range, from the trigger", texts[:3])
            # every lane the window shows is in the legend (and in its header)
            missing = [n for n in shown if sum(1 for t in texts if t == n or t.startswith(n + "  ")) < 2]
            check(not missing, "every lane name the window shows is in the SVG's legend",
                  (missing, texts[:40]))
            check("trigger" in texts, "the legend has the trigger", texts[:40])

        png = os.path.join(WORK, "export-view.png")
        timeline = find(main_window(app), role_name("panel", "Timeline"))
        height = extents(timeline).height if timeline is not None else 0
        if check(export(app, png), "Export… writes a PNG of the view"):
            size = count_colours(png, {}, size=True)["size"]
            check(size[1] > height + 40, "the PNG is taller than the timeline: a band above it",
                  (size, height))
            band = count_colours(png, {"ink": lambda r, g, b: r < 160 and g < 160 and b < 160},
                                 box=(0, 0, size[0], 30))
            check(band["ink"] > 100, "the PNG's title line is not blank", band)
    finally:
        stop(proc)
    return finish(log)


if __name__ == "__main__":
    sys.exit(main())
