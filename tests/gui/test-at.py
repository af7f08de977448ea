#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# tickscope FILE --at=TIME, the command tickscope-cli check prints for a broken budget: the
# capture opens with the timeline centred TIME after the time ruler's origin (the trigger,
# else the start), about 20 ms wide. A time that is not one is refused on the command line.
# Usage (through run-gui-tests.sh): test-at.py TICKSCOPE DATA_DIR
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tksgui import check, finish, get_app, label_text, start, stop, wait_for  # noqa: E402

TICKSCOPE, DATA = sys.argv[1], os.path.abspath(sys.argv[2])
# a capture with a trigger at tick 17154, at 1000 Hz (tickscope-cli info says so)
CAPTURE = os.path.join(DATA, "board-trigger-exits.saved.txt")
TRIGGER, TICK_HZ = 17154.0, 1000.0


def view_range(app):
    text = label_text(app, lambda s: s.startswith("View "))
    m = re.search(r"ticks (-?[0-9.]+) – (-?[0-9.]+)", text or "")
    return (float(m.group(1)), float(m.group(2))) if m else None


def main():
    # a time that is not one: refused, with the forms it takes
    p = subprocess.run([TICKSCOPE, CAPTURE, "--at=soon"], capture_output=True, text=True,
                       timeout=60)
    check(p.returncode != 0 and "“soon” is not a time" in p.stderr,
          "--at=soon is refused with a message", (p.returncode, p.stderr))

    for at, seconds in (("--at=0.358004s", 0.358004), ("--at=-250ms", -0.25)):
        proc, log = start(TICKSCOPE, CAPTURE, at)
        try:
            app = wait_for(get_app, 30)
            if not check(app is not None, "the application appears on the accessibility bus"):
                return finish(log)
            want = TRIGGER + seconds * TICK_HZ
            shown = wait_for(lambda: view_range(app)
                             if view_range(app) and abs(sum(view_range(app)) / 2 - want) < 0.01
                             else None, 30)
            check(shown is not None, "%s: the timeline is centred on tick %.3f" % (at, want),
                  view_range(app))
            check(shown is not None and abs(shown[1] - shown[0] - 0.02 * TICK_HZ) < 0.01,
                  "%s: about 20 ms are shown" % at, shown)
        finally:
            stop(proc)
    return finish(log)


if __name__ == "__main__":
    sys.exit(main())
