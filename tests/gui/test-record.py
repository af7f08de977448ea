#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Recording in the real window, through AT-SPI in Xvfb, on the built-in simulated board
# (tickscope --demo): Record streams the board's log into a file of the history folder; while
# it runs the "Live load" table lists the threads with their CPU share of the last second
# (together about 100 %: one thread always runs), switches per second and longest run, and the
# timeline rolls with the newest data; the same button stops; the recording then opens as a
# capture whose record count is what `tickscope-cli info` reads in the file, the message says
# nothing was dropped, and the board can be used again (Get new data). Then a board over TCP
# (tickscope-simboard) killed in the middle of a recording: the recording ends with a message
# and the file, complete up to then, opens as a capture. Then a recording whose live view keeps only
# a few seconds (TICKSCOPE_LIVE_BYTES): the "Recording position" scale brings back its first
# seconds, read from the file, and "Back to Live" follows the newest data again.
# Usage (through run-gui-tests.sh): test-record.py TICKSCOPE DATA_DIR
import glob
import os
import re
import subprocess
import sys
import time

import pyatspi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tksgui import (check, click, find, finish, free_port, get_app, label_text, labels,  # noqa: E402
                    listening, main_window, screenshot, sensitive, start, status, stop, wait_for)

TICKSCOPE = sys.argv[1]
CLI = os.path.join(os.path.dirname(TICKSCOPE), "cli", "tickscope-cli")
HISTORY = os.path.join(os.environ["XDG_DATA_HOME"], "tickscope", "captures")
SIMBOARD = os.environ.get("TKS_SIMBOARD")


def record_button(app):
    return find(main_window(app), lambda n: n.name == "Record"
                and n.getRoleName() in ("push button", "toggle button"))


def live_load(app):
    """The rows of the Live load table: [(thread, cpu, switches per second, longest run)]."""
    table = find(main_window(app), lambda n: n.name == "Live load")
    if table is None:
        return []
    cells = [t for t in labels(table)]
    if cells[:4] != ["Thread", "CPU %", "Switches/s", "Longest run"]:
        return []
    rows = [cells[i:i + 4] for i in range(4, len(cells) - 3, 4)]
    return [(r[0], float(r[1]), float(r[2]), r[3]) for r in rows]


def view_end(app):
    text = label_text(app, lambda s: s.startswith("View "))
    m = re.match(r"View ([\d.]+) – ([\d.]+)", text or "")
    return float(m.group(2)) if m else None


def recording_line(app):
    # the lane headers are made anew each second while recording: a read may meet one gone
    return wait_for(lambda: label_text(app, lambda s: s.startswith("Recording to ")), 3)


def main():
    proc, log = start(TICKSCOPE, "--demo")
    app = wait_for(get_app, 30)
    if not check(app is not None and wait_for(lambda: status(app), 30), "the demo board's capture is shown"):
        return finish(log)
    button = wait_for(lambda: record_button(app) if sensitive(record_button(app)) else None, 20)
    if not check(button is not None, "connected to a board that has threads_record, Record is enabled"):
        return finish(log)

    click(button)
    line = wait_for(lambda: recording_line(app), 5)
    check(line is not None, "Record starts a recording into a file", line)
    rows = wait_for(lambda: live_load(app) if len(live_load(app)) >= 5 else None, 10) or []
    names = [r[0] for r in rows]
    total = sum(r[1] for r in rows)
    check({"idle", "sensor", "filter"} <= set(names), "the Live load table lists the threads", names)
    check(abs(total - 100) <= 2, "their CPU shares of the last second add up to 100 %% (%.1f)" % total, rows)
    check(rows == sorted(rows, key=lambda r: -r[1]), "busiest first", rows)
    check(all(r[2] >= 0 for r in rows) and any(r[2] > 100 for r in rows),
          "with switches per second (the sensor thread runs every 2 ticks)", rows)
    first_end = wait_for(lambda: view_end(app), 5)
    time.sleep(2.5)
    later_end = wait_for(lambda: view_end(app), 5)
    check(first_end is not None and later_end is not None and later_end > first_end + 1000,
          "the timeline rolls with the newest data (view ends at %s, then %s)" % (first_end, later_end))
    events = [int(m.group(1)) for m in [re.search(r": (\d+) events", recording_line(app) or "")] if m]
    check(events and events[0] > 1000, "the recording counts what arrived", recording_line(app))
    screenshot("recording.png")

    click(record_button(app))
    title = wait_for(lambda: main_window(app).name if "record-" in (main_window(app).name or "") else None, 15)
    check(title is not None and recording_line(app) is None or recording_line(app) == "",
          "Record again stops, and the recording opens as a capture", title)
    files = glob.glob(os.path.join(HISTORY, "record-*.txt"))
    check(len(files) == 1, "the recording is a file of the history folder", files)
    if files:
        info = subprocess.run([CLI, "info", files[0]], capture_output=True, text=True).stdout
        records = re.search(r"Records:\s+(\d+)", info)
        shown = wait_for(lambda: status(app) if "records" in status(app) else None, 10) or ""
        check(records is not None and (" %s records" % records.group(1)) in shown,
              "the window shows every record the file has (%s)" % (records.group(1) if records else "?"), shown)
    done = label_text(app, lambda s: s.startswith("Recorded "))
    check(done is not None and " 0 dropped" in done, "the message sums the recording up, nothing dropped", done)
    fetch = wait_for(lambda: find(main_window(app), lambda n: n.name == "Get new data" and sensitive(n)), 15)
    check(fetch is not None, "the board is connected again: Get new data is enabled")
    check(proc.poll() is None, "the viewer is still running")
    stop(proc)
    closed_while_recording()
    scrolled_back()
    if SIMBOARD:
        pulled_cable(glob.glob(os.path.join(HISTORY, "record-*.txt")))
    return finish(log)


def closed_while_recording():
    """Ctrl+W while recording: the window waits for the board to end its stream, then
    closes; the file is complete (its end line), not cut."""
    before = set(glob.glob(os.path.join(HISTORY, "record-*.txt")))
    proc, log = start(TICKSCOPE, "--demo", "--record", log_name="tickscope-close.log")
    app = wait_for(get_app, 30)
    wait_for(lambda: app and len(live_load(app)) >= 5, 20)
    pyatspi.Registry.generateKeyboardEvent(37, None, pyatspi.KEY_PRESS)        # Control_L
    pyatspi.Registry.generateKeyboardEvent(25, None, pyatspi.KEY_PRESSRELEASE)  # w
    pyatspi.Registry.generateKeyboardEvent(37, None, pyatspi.KEY_RELEASE)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        pass
    check(proc.poll() is not None, "Ctrl+W while recording closes the window once the recording ended")
    files = sorted(set(glob.glob(os.path.join(HISTORY, "record-*.txt"))) - before)
    text = open(files[-1], errors="replace").read() if files else ""
    info = subprocess.run([CLI, "info", files[-1]], capture_output=True, text=True) if files else None
    check("End of dump:" in text and info is not None and "was cut" not in info.stdout,
          "its file is complete: the board's end line is in it", (files, text[-200:]))
    if proc.poll() is None:
        stop(proc)


def position_label(app):
    return label_text(app, lambda s: s == "Live" or re.match(r"At \d+:\d\d of \d+:\d\d$", s) is not None)


def scrolled_back():
    """While recording, the view goes back to a stretch older than the live view holds."""
    os.environ["TICKSCOPE_LIVE_BYTES"] = "12000"   # a live view of about four seconds
    proc, log = start(TICKSCOPE, "--demo", "--record", log_name="tickscope-back.log")
    del os.environ["TICKSCOPE_LIVE_BYTES"]
    app = wait_for(get_app, 30)
    scale = wait_for(lambda: find(main_window(app), lambda n: n.name == "Recording position"
                                  and n.getRoleName() == "slider") if app else None, 20)
    if not check(scale is not None, "while recording, a Recording position scale"):
        stop(proc)
        return
    check(wait_for(lambda: position_label(app) == "Live", 5), "it says the view is live", position_label(app))
    time.sleep(14)
    live_end = wait_for(lambda: view_end(app), 5)
    value = scale.queryValue()
    check(value.maximumValue >= 12, "its end is the recording's length in seconds", value.maximumValue)
    value.currentValue = 1.0
    back = wait_for(lambda: position_label(app) if (position_label(app) or "").startswith("At 0:01 of") else None, 5)
    check(back is not None, "moved back, it says where the view is", position_label(app))
    back_end = wait_for(lambda: view_end(app) if view_end(app) is not None and live_end is not None
                        and view_end(app) < live_end - 8000 else None, 10)
    check(back_end is not None, "the view shows the recording's first seconds, older than the live view "
          "holds: read back from the file (view ends at %s, live at %s)" % (view_end(app), live_end))
    shown = status(app) or ""
    records = re.search(r"(\d+) records", shown)
    check(records is not None and int(records.group(1)) > 100, "with their records", shown)
    time.sleep(2)
    check(view_end(app) == back_end, "it stays there while the recording goes on", (view_end(app), back_end))
    screenshot("recording-back.png")
    live = find(main_window(app), lambda n: n.name == "Back to Live" and n.getRoleName() == "push button")
    check(sensitive(live), "Back to Live is enabled")
    if live is not None:
        click(live)
    again = wait_for(lambda: view_end(app) if position_label(app) == "Live" and (view_end(app) or 0) > live_end
                     else None, 10)
    check(again is not None, "Back to Live follows the newest data again", (position_label(app), view_end(app)))
    stop(proc)


def pulled_cable(before):
    port = free_port()
    board = subprocess.Popen([SIMBOARD, "--tcp", str(port)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    try:
        if not check(listening(port), "a board listens on TCP"):
            return
        proc, log = start(TICKSCOPE, "tcp:127.0.0.1:%d" % port, log_name="tickscope-tcp.log")
        app = wait_for(get_app, 30)
        button = wait_for(lambda: record_button(app) if app and sensitive(record_button(app)) else None, 30)
        if not check(button is not None, "over TCP, Record is enabled"):
            stop(proc)
            return
        click(button)
        wait_for(lambda: len(live_load(app)) >= 5, 10)
        board.kill()
        board.wait()
        ended = wait_for(lambda: label_text(app, lambda s: s.startswith("The recording ended: ")), 15)
        check(ended is not None and "record-" in ended, "a board gone mid-recording ends it with a message "
              "naming the file", ended)
        title = wait_for(lambda: main_window(app).name if "record-" in (main_window(app).name or "") else None, 10)
        check(title is not None, "the recording up to then opens as a capture", title)
        files = sorted(set(glob.glob(os.path.join(HISTORY, "record-*.txt"))) - set(before))
        info = subprocess.run([CLI, "info", files[-1]], capture_output=True, text=True) if files else None
        records = re.search(r"Records:\s+(\d+)", info.stdout) if info else None
        check(info is not None and info.returncode == 0 and records and int(records.group(1)) > 100,
              "its file reads whole with tickscope-cli info", info.stdout[:200] if info else files)
        check(proc.poll() is None, "the viewer is still running")
        stop(proc)
    finally:
        board.kill()
        board.wait()


sys.exit(main())
