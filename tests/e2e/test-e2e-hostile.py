#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# A hostile board, with the real viewer in Xvfb driven through AT-SPI. The board (the
# hostile-board test program over TCP) answers the first fetch well, then turns hostile:
# 1. an endless stream of valid records: Get new data ends with a message naming the command
#    and the bytes read, within seconds, the viewer's peak memory grows by little, and the
#    capture on screen stays;
# 2. a prompt "ch> " in the middle of the log: the fetch is reported damaged, not shown as a
#    shorter log, and the capture on screen stays;
# 3. NUL bytes in 20 records: the capture comes with a warning per unreadable line, and the
#    bytes as received are kept next to it in the history.
# Usage (through tests/gui/run-gui-tests.sh, with TKS_HOSTILE_BOARD set): test-e2e-hostile.py TICKSCOPE
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gui"))
from tksgui import (check, click, finish, free_port, get_app, history, label_text,  # noqa: E402
                    listening, sensitive_button, start, status, stop, wait_for, WORK)

TICKSCOPE = sys.argv[1]
BOARD = os.environ["TKS_HOSTILE_BOARD"]


def peak_rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def hostile(mode, wanted, log_name):
    port = free_port()
    board = subprocess.Popen([BOARD, "--tcp", str(port), "--mode", mode, "--good", "1",
                              "--max-mb", "512"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not check(listening(port), "%s: the hostile board listens on TCP" % mode):
        board.kill()
        return None
    proc, log = start(TICKSCOPE, "tcp:127.0.0.1:%d" % port, log_name=log_name)
    try:
        app = wait_for(get_app, 30)
        if not check(app is not None, "%s: the application appears on the accessibility bus" % mode):
            return log
        before = wait_for(lambda: status(app), 30)
        check(before and "3000 records" in before, "%s: the first fetch shows a capture" % mode, before)
        get = sensitive_button(app, "Get new data", 10)
        if not check(get is not None, "%s: Get new data can be pressed" % mode):
            return log
        rss_before = peak_rss_kb(proc.pid)
        started = time.time()
        click(get)
        message = wait_for(lambda: label_text(app, lambda s: s.startswith("Could not get new data")), 30)
        elapsed = time.time() - started
        rss_after = peak_rss_kb(proc.pid)
        print("# %s (after %.1f s; peak memory %d -> %d KiB)" % (message, elapsed, rss_before, rss_after),
              flush=True)
        check(message is not None and all(w in message for w in wanted),
              "%s: the fetch ends with a message that says what happened" % mode, message)
        check(elapsed < 15, "%s: within seconds (%.1f s)" % (mode, elapsed))
        check(rss_after - rss_before < 64 * 1024,
              "%s: the viewer's peak memory grows by less than 64 MiB (%d KiB)" % (mode, rss_after - rss_before))
        check(status(app) == before, "%s: the capture on screen stays" % mode, status(app))
        check(sensitive_button(app, "Get new data", 10) is not None,
              "%s: the board can be asked again" % mode)
    finally:
        stop(proc)
        board.kill()
        board.wait()
    return log


def damaged():
    """NUL bytes in 20 records of the second fetch: the capture is shown with its warnings, from
    the bytes as received, and those bytes are kept in the history next to it."""
    port = free_port()
    board = subprocess.Popen([BOARD, "--tcp", str(port), "--mode", "nul-damage", "--good", "1"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not check(listening(port), "nul-damage: the hostile board listens on TCP"):
        board.kill()
        return None
    proc, log = start(TICKSCOPE, "tcp:127.0.0.1:%d" % port, log_name="tickscope-nul.log")
    try:
        app = wait_for(get_app, 30)
        if not check(app is not None, "nul-damage: the application appears on the accessibility bus"):
            return log
        before = wait_for(lambda: status(app), 30)
        check(before and "3000 records" in before, "nul-damage: the first fetch shows a capture", before)
        click(sensitive_button(app, "Get new data", 10))
        after = wait_for(lambda: "2980 records" in (status(app) or "") and status(app), 15)
        check(after, "nul-damage: the damaged fetch is shown without its 20 unreadable records", status(app))
        warning = wait_for(lambda: label_text(app, lambda s: "unreadable log line skipped" in s), 10)
        print("# %s" % warning, flush=True)
        check(warning is not None, "nul-damage: the window warns of the unreadable lines", warning)
        files = history()
        kept = [f for f in files if f.endswith(".raw.txt") and f[:-len(".raw.txt")] + ".txt" in files]
        check(len(kept) == 1, "nul-damage: the bytes as received are kept next to the capture", files)
    finally:
        stop(proc)
        board.kill()
        board.wait()
    return log


logs = [hostile("endless", ["“threads_timestamps”", "passed", "bytes read", "stopped reading"],
                "tickscope-endless.log"),
        hostile("mid-prompt", ["arrived damaged", "prompt", "“threads_timestamps”", "kept in"],
                "tickscope-mid-prompt.log"),
        damaged()]
sys.exit(finish(os.path.join(WORK, "tickscope-endless.log")))
