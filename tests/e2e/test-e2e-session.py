#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The viewer against the simulated board program, as a user drives it through the
# accessibility tree of a real window in Xvfb: connect (over TCP, then over a pty), Run,
# Trigger, Get new data, lanes shown, the fetch kept in the history; then the board is killed
# and Get new data must fail with a message while the shown capture stays. On a slow line: the
# progress of a fetch, Cancel, and the next fetch after it.
# Usage (through tests/gui/run-gui-tests.sh): test-e2e-session.py TICKSCOPE DATA_DIR
# with TKS_SIMBOARD naming tickscope-simboard.
import os
import re
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "gui"))
from tksgui import (button, check, click, find, find_all, finish, get_app, history, label_text,  # noqa: E402
                    labels, main_window, sensitive, sensitive_button, status, stop, wait_for)

TICKSCOPE = sys.argv[1]
SIMBOARD = os.environ.get("TKS_SIMBOARD")
# Deadlines guard against hangs and end as soon as what they wait for happens: generous, as on
# a busy machine (a first start of the accessibility bus and the viewer can take half a minute).
TIMEOUT = 60.0   # how long a step of the session may take unless said otherwise
THREADS = (" threads,",)   # the status line of a capture with more than one thread


def any_label(app, words):
    return label_text(app, lambda text: any(w in text for w in words))


def start_board(how):
    if how == "tcp":
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        proc = subprocess.Popen([SIMBOARD, "--tcp", str(port), "--speed", "4", "--no-events"],
                                stdout=subprocess.PIPE, text=True)
        proc.stdout.readline()
        return proc, "tcp:127.0.0.1:%d" % port
    proc = subprocess.Popen([SIMBOARD, "--pty", "--speed", "4", "--no-events"], stdout=subprocess.PIPE, text=True)
    return proc, proc.stdout.readline().strip()


def stop_all(viewer, board):
    stop(viewer)
    if board.poll() is None:
        board.kill()
        board.wait()


def session(how):
    board, address = start_board(how)
    viewer = subprocess.Popen([TICKSCOPE, address])
    try:
        app = wait_for(get_app, 2 * TIMEOUT)
        check(app is not None, "%s: the viewer is on the accessibility bus" % how)
        if app is None:
            return
        fetch = sensitive_button(app, "Get new data", TIMEOUT)
        check(fetch is not None, "%s: connected to %s (Get new data enabled)" % (how, address),
              "; ".join(labels(main_window(app))))
        if fetch is None:
            return
        click(button(app, "Run"))
        time.sleep(1.0)
        click(sensitive_button(app, "Trigger", TIMEOUT))
        shown = wait_for(lambda: any_label(app, ["Trigger set by"]), TIMEOUT)
        check(shown, "%s: the board's trigger reply is shown" % how, "; ".join(labels(main_window(app))))
        before = len(history())
        click(sensitive_button(app, "Get new data", TIMEOUT))
        text = wait_for(lambda: status(app, THREADS), TIMEOUT)
        check(text, "%s: Get new data shows threads and records" % how, "; ".join(labels(main_window(app))))
        lanes = find_all(main_window(app), lambda n: n.getRoleName() in ("row header", "table row header", "label")
                         and (n.name or "") in ("main", "idle", "console", "control"))
        check(len(lanes) >= 2, "%s: thread lanes are shown" % how, [n.name for n in lanes])
        check(wait_for(lambda: len(history()) > before, TIMEOUT), "%s: the fetch is kept in the history" % how)

        # The board dies: a message, no hang, and the capture stays on screen.
        board.kill()
        board.wait()
        t0 = time.time()
        fetch = button(app, "Get new data")
        if sensitive(fetch):
            click(fetch)
        msg = wait_for(lambda: any_label(app, ["closed", "went away", "No reply", "Not connected",
                                               "Disconnected", "failed"]), TIMEOUT)
        check(msg, "%s: a message when the board is gone (%.1f s): %s" % (how, time.time() - t0, msg),
              "; ".join(labels(main_window(app))))
        check(status(app, THREADS) == text, "%s: the shown capture stays" % how, status(app, THREADS))
    finally:
        stop_all(viewer, board)


def is_progress(text):
    return text.startswith("Reading from the board: ") and " s left" in text


def progress_text(app):
    return label_text(app, is_progress)


def progress_label(app):
    """The label of the fetch's progress, found once: it stays in the tree, hidden between
    fetches with the last fetch's text."""
    return find(main_window(app), lambda n: n.getRoleName() == "label"
                and (n.name or "").startswith("Reading from the board"))


def shown_progress(node, old):
    """The label's text when it shows a fetch's progress other than @old, else None."""
    text = node.name or ""
    return text if text != old and is_progress(text) else None


def slow_link():
    """A board on a 19200-baud line (a pty): a fetch shows its progress; Cancel ends it at once
    and the capture on screen stays; the next fetch waits for the board to finish the reply it
    was sending, then gets a whole capture."""
    board = subprocess.Popen([SIMBOARD, "--pty", "--speed", "4", "--no-events", "--baud", "19200", "--log-size", "12000",
                              "--uptime", "5000"], stdout=subprocess.PIPE, text=True)
    address = board.stdout.readline().strip()
    viewer = subprocess.Popen([TICKSCOPE, "--baud", "19200", address])
    try:
        app = wait_for(get_app, 2 * TIMEOUT)
        if not check(app is not None, "slow: the viewer is on the accessibility bus"):
            return
        # Connecting fetches at once: 12,000 records in the compact encoding, about 17 KB, take
        # 9 s at 19200 baud.
        shown = wait_for(lambda: progress_text(app), TIMEOUT)
        check(shown is not None and re.search(r": \d+ records \(\d+([.,]\d+)?\s(bytes|kB)\), about \d+ s left", shown),
              "slow: a fetch shows its records, bytes and the time left", shown)
        text = wait_for(lambda: status(app, THREADS), TIMEOUT)
        check(text and "12000 records" in text, "slow: the fetch completes", text)

        # While a fetch runs, every call to the viewer through the accessibility bus waits for its
        # busy main loop: a walk through the whole tree can take longer than the fetch (9 s). So
        # the progress label and Cancel are found before, and only they are asked during it.
        label = progress_label(app)
        cancel = button(app, "Cancel")
        if not check(label is not None and cancel is not None,
                     "slow: the progress label and Cancel are in the window",
                     "; ".join(labels(main_window(app)))):
            return
        old = label.name
        before = len(history())
        click(sensitive_button(app, "Get new data", TIMEOUT))
        shown = wait_for(lambda: shown_progress(label, old), TIMEOUT, step=0.05)
        check(shown is not None, "slow: Get new data shows its progress", label.name)
        click(cancel)
        # The board is held mid-reply: a note that comes now did not wait for the reply's end.
        os.kill(board.pid, signal.SIGSTOP)
        try:
            note = wait_for(lambda: label_text(app, lambda s: s.startswith("Cancelled.")), TIMEOUT)
            check(note is not None, "slow: Cancel ends the fetch at once, while the board is still "
                  "sending, and says so", "; ".join(labels(main_window(app))))
            check(status(app, THREADS) == text, "slow: the capture on screen stays", status(app, THREADS))
            check(len(history()) == before, "slow: a cancelled fetch keeps nothing", history())
        finally:
            os.kill(board.pid, signal.SIGCONT)

        click(sensitive_button(app, "Get new data", TIMEOUT))
        check(wait_for(lambda: len(history()) > before, TIMEOUT),
              "slow: the next fetch waits for the unfinished reply, then gets a whole capture")
        check(not any_label(app, ["Could not get new data"]), "slow: without an error",
              any_label(app, ["Could not get new data"]))
        # (the file is kept first, then read and shown)
        check(wait_for(lambda: "12000 records" in (status(app, THREADS) or ""), TIMEOUT),
              "slow: the new capture is shown", status(app, THREADS))
    finally:
        stop_all(viewer, board)


if SIMBOARD is None:
    print("1..0 # SKIP TKS_SIMBOARD names no simulated board program")
    sys.exit(77)
session("tcp")
session("pty")
slow_link()
sys.exit(finish())
