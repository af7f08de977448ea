#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# An idle window draws nothing. A file that is slow to read (here a FIFO opened through the
# Open dialog, written in two halves 1.5 s apart) shows the progress bar, pulsed; once the
# capture is shown and the bar hidden, the window's frame clock must stop: a pulsed
# GtkProgressBar animates at every frame, hidden or not, until it is given a fraction. The
# frames are counted by the viewer itself (TICKSCOPE_FRAME_STATS: a line for each 10 s that had
# frames).
# Usage (through run-gui-tests.sh): test-idle.py TICKSCOPE DATA_DIR
import math
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tksgui import (WORK, button, check, click, file_dialog_open, finish, get_app,  # noqa: E402
                    lane_names, start, stop, wait_for)

TICKSCOPE = sys.argv[1]
DATA = sys.argv[2]


def spans_after(stats, seconds):
    """The lines of the 10-s spans that began @seconds or more after the first frame."""
    try:
        lines = open(stats).read().splitlines()
    except OSError:
        return []
    return [line for line in lines if line.startswith("frames:") and float(line.split()[1]) - 10 >= seconds]


def write_slowly(fifo, data):
    # (blocks until the viewer opens the FIFO)
    with open(fifo, "wb") as f:
        f.write(data[:len(data) // 2])
        f.flush()
        time.sleep(1.5)   # the progress shows after 0.2 s, pulsed
        f.write(data[len(data) // 2:])


def main():
    data = open(os.path.join(DATA, "board-trigger-exits.raw.txt"), "rb").read()
    fifo = os.path.join(WORK, "slow-capture.txt")
    stats = os.path.join(WORK, "idle-frames.txt")
    os.mkfifo(fifo)
    writer = threading.Thread(target=write_slowly, args=(fifo, data), daemon=True)
    writer.start()
    os.environ["TICKSCOPE_FRAME_STATS"] = stats
    started = time.monotonic()
    proc, log = start(TICKSCOPE)
    del os.environ["TICKSCOPE_FRAME_STATS"]
    try:
        app = wait_for(get_app, 30)
        if not check(app is not None, "the application appears on the accessibility bus"):
            return finish(log)
        click(wait_for(lambda: button(app, "Open"), 10))
        file_dialog_open(app, fifo)
        lanes = wait_for(lambda: lane_names(app), 30)
        check(lanes, "the capture read slowly from a FIFO is shown", lanes)
        shown = time.monotonic() - started
        # until a whole 10-s span that began 1.5 s after the capture showed is over (the spans
        # count from the first frame, which comes a second or two after the start)
        first_span = math.ceil((shown + 1.5) / 10)
        time.sleep(max(0.0, (first_span + 1) * 10 + 3 - (time.monotonic() - started)))
        spans = spans_after(stats, shown + 1.5)
        idle = sum(int(line.split()[3]) for line in spans)
        check(idle < 30, "then idle, the window draws no frames (%d in the 10-s spans that began "
              "1.5 s after the capture showed, at %.1f s)" % (idle, shown), spans)
    finally:
        stop(proc)
    return finish(log)


if __name__ == "__main__":
    sys.exit(main())
