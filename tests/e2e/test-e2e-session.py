#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The viewer against the simulated board program, as a user drives it through the
# accessibility tree of a real window in Xvfb: connect (over TCP, then over a pty), Run,
# Trigger, Get new data, lanes shown, the fetch kept in the history; then the board is killed
# and Get new data must fail with a message while the shown capture stays.
# Usage (through tests/gui/run-gui-tests.sh): test-e2e-session.py TICKSCOPE DATA_DIR
# with TKS_SIMBOARD naming tickscope-simboard.
import os
import socket
import subprocess
import sys
import time

import pyatspi

TICKSCOPE = sys.argv[1]
SIMBOARD = os.environ.get("TKS_SIMBOARD")
results = []


def check(ok, what, detail=""):
    results.append(bool(ok))
    print("%s %d - %s" % ("ok" if ok else "not ok", len(results), what)
          + ("" if ok or not detail else "\n# " + str(detail).replace("\n", "\n# ")), flush=True)
    return ok


def wait_for(fn, timeout=20.0, step=0.1):
    end = time.time() + timeout
    while True:
        try:
            value = fn()
        except Exception:
            value = None
        if value or time.time() > end:
            return value
        time.sleep(step)


def find_all(node, pred, out=None, depth=0):
    out = [] if out is None else out
    if node is None or depth > 40:
        return out
    try:
        if pred(node):
            out.append(node)
        children = list(node)
    except Exception:
        return out
    for child in children:
        find_all(child, pred, out, depth + 1)
    return out


def get_app():
    for a in pyatspi.Registry.getDesktop(0):
        if a is not None and a.name == "tickscope":
            return a
    return None


def window(app):
    for w in app:
        if w is not None and w.getRoleName() == "frame":
            return w
    return None


def button(app, name):
    found = find_all(window(app), lambda n: n.getRoleName() in ("push button", "button") and n.name == name)
    return found[0] if found else None


def sensitive(node):
    return node is not None and node.getState().contains(pyatspi.STATE_SENSITIVE)


def click(node):
    node.queryAction().doAction(0)
    time.sleep(0.3)


def labels(app):
    return [n.name or "" for n in find_all(window(app), lambda n: n.getRoleName() == "label")]


def status(app):
    for text in labels(app):
        if " threads," in text:
            return text
    return ""


def any_label(app, words):
    for text in labels(app):
        if any(w in text for w in words):
            return text
    return None


def start_board(how):
    if how == "tcp":
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        proc = subprocess.Popen([SIMBOARD, "--tcp", str(port), "--speed", "4"],
                                stdout=subprocess.PIPE, text=True)
        proc.stdout.readline()
        return proc, "tcp:127.0.0.1:%d" % port
    proc = subprocess.Popen([SIMBOARD, "--pty", "--speed", "4"], stdout=subprocess.PIPE, text=True)
    return proc, proc.stdout.readline().strip()


def history():
    d = os.path.join(os.environ["XDG_DATA_HOME"], "tickscope", "captures")
    return sorted(os.listdir(d)) if os.path.isdir(d) else []


def session(how):
    board, address = start_board(how)
    viewer = subprocess.Popen([TICKSCOPE, address])
    try:
        app = wait_for(get_app)
        check(app is not None, "%s: the viewer is on the accessibility bus" % how)
        if app is None:
            return
        fetch = wait_for(lambda: button(app, "Get new data") if sensitive(button(app, "Get new data")) else None)
        check(fetch is not None, "%s: connected to %s (Get new data enabled)" % (how, address),
              "; ".join(labels(app)))
        if fetch is None:
            return
        click(button(app, "Run"))
        time.sleep(1.0)
        click(wait_for(lambda: button(app, "Trigger") if sensitive(button(app, "Trigger")) else None))
        shown = wait_for(lambda: any_label(app, ["Trigger set by"]), timeout=10)
        check(shown, "%s: the board's trigger reply is shown" % how, "; ".join(labels(app)))
        before = len(history())
        click(wait_for(lambda: button(app, "Get new data") if sensitive(button(app, "Get new data")) else None))
        text = wait_for(lambda: status(app), timeout=20)
        check(text, "%s: Get new data shows threads and records" % how, "; ".join(labels(app)))
        lanes = find_all(window(app), lambda n: n.getRoleName() in ("row header", "table row header", "label")
                         and (n.name or "") in ("main", "idle", "console", "control"))
        check(len(lanes) >= 2, "%s: thread lanes are shown" % how, [n.name for n in lanes])
        check(wait_for(lambda: len(history()) > before, timeout=5), "%s: the fetch is kept in the history" % how)

        # The board dies: a message, no hang, and the capture stays on screen.
        board.kill()
        board.wait()
        t0 = time.time()
        fetch = button(app, "Get new data")
        if sensitive(fetch):
            click(fetch)
        msg = wait_for(lambda: any_label(app, ["closed", "went away", "No reply", "Not connected",
                                               "Disconnected", "failed"]), timeout=10)
        check(msg, "%s: a message when the board is gone (%.1f s): %s" % (how, time.time() - t0, msg),
              "; ".join(labels(app)))
        check(status(app) == text, "%s: the shown capture stays" % how, status(app))
    finally:
        viewer.terminate()
        try:
            viewer.wait(10)
        except subprocess.TimeoutExpired:
            viewer.kill()
        if board.poll() is None:
            board.kill()
            board.wait()
        time.sleep(0.5)


if SIMBOARD is None:
    print("1..0 # SKIP TKS_SIMBOARD names no simulated board program")
    sys.exit(77)
session("tcp")
session("pty")
print("1..%d" % len(results))
sys.exit(0 if all(results) else 1)
