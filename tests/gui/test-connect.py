#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The board popover as a user drives it through the accessibility tree of a real window in
# Xvfb: it lists the serial ports present (none are required) and the simulated board "demo";
# choosing a listed port fills the port entry; a pty served by tickscope-simboard is typed in,
# RTS/CTS flow control chosen, Connect shows the board's lanes, and the pty is really set to
# RTS/CTS. The flow-control choice is kept in GSettings (a keyfile here, so that it outlives
# the process) and shown again when the viewer starts anew. Then a board over TCP that goes
# away mid-session while nothing is asked of it: the viewer says so by itself, with a Reconnect
# button in the message bar, the "Connected" message gone and the capture still shown; the
# board back, Reconnect reaches it again; Disconnect takes the "Connected" message away too.
# Usage (through run-gui-tests.sh): test-connect.py TICKSCOPE DATA_DIR
# with TKS_SIMBOARD naming tickscope-simboard.
import os
import subprocess
import sys
import termios
import time

import pyatspi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tksgui import (WORK, check, click, count_colours, finish, free_port, get_app, labels, lane_names,  # noqa: E402
                    listening, main_window, press, screenshot, sensitive_button, start, stop,
                    wait_for)

TICKSCOPE = sys.argv[1]
SIMBOARD = os.environ.get("TKS_SIMBOARD")
FLOW_ITEMS = ["None", "XON/XOFF", "RTS/CTS"]
HOME_KEY, DOWN_KEY, RETURN = 0xFF50, 0xFF54, 0xFF0D
TIMEOUT = 30.0

# Settings in a keyfile in a folder of this test, so that they outlive a viewer process.
CONFIG = os.path.join(WORK, "connect-config")
KEYFILE = os.path.join(CONFIG, "glib-2.0", "settings", "keyfile")
os.makedirs(CONFIG, exist_ok=True)
os.environ["XDG_CONFIG_HOME"] = CONFIG
os.environ["GSETTINGS_BACKEND"] = "keyfile"


def children(node):
    """A node's children by index (steadier than iterating a node whose children change)."""
    out = []
    try:
        for i in range(node.childCount):
            child = node.getChildAtIndex(i)
            if child is not None:
                out.append(child)
    except Exception:
        pass
    return out


def walk(node, pred, out, depth=0):
    if node is None or depth > 40:
        return out
    try:
        if pred(node):
            out.append(node)
    except Exception:
        return out
    for child in children(node):
        walk(child, pred, out, depth + 1)
    return out


def popover(app):
    """The board popover's content, found through its Connect button."""
    connect = walk(app, lambda n: n.getRoleName() == "push button" and "Connect" in (n.name or "")
                   and "Disconnect" not in (n.name or "") and "…" not in (n.name or ""), [])
    return connect[0].parent.parent if connect else None


def open_popover(app):
    if popover(app) is not None:
        return popover(app)
    # a GtkMenuButton shows as a button holding the button that takes the click
    for b in reversed(walk(main_window(app), lambda n: n.getRoleName() == "push button"
                           and n.name == "Board", [])):
        try:
            click(b)
            break
        except Exception:
            continue
    return wait_for(lambda: popover(app), 10)


def close_popover(app):
    press(0xFF1B)  # Escape
    wait_for(lambda: popover(app) is None, 5)


def port_rows(pop):
    return walk(pop, lambda n: n.getRoleName() == "list item", [])


def port_entry(pop):
    found = walk(pop, lambda n: n.getRoleName() in ("text", "entry") and n.name == "Port", [])
    return found[0] if found else None


def entry_text(node):
    text = node.queryText()
    return text.getText(0, text.characterCount)


def flow_combo(pop):
    found = walk(pop, lambda n: n.getRoleName() == "combo box" and n.name == "Flow control", [])
    return found[0] if found else None


def flow_shown(pop):
    """The flow control the dropdown shows (the label of its selected item)."""
    combo = flow_combo(pop)
    shown = [n.name for n in walk(combo, lambda n: n.getRoleName() == "label", [])]
    return [s for s in shown if s in FLOW_ITEMS]


def choose_flow(app, label):
    """Opens the flow-control dropdown and picks an item with the keyboard, as a user does."""
    combo = flow_combo(popover(app))
    toggle = walk(combo, lambda n: n.getRoleName() in ("push button", "toggle button"), [])
    click(toggle[0])
    time.sleep(0.5)
    press(HOME_KEY)
    for _ in range(FLOW_ITEMS.index(label)):
        press(DOWN_KEY)
    press(RETURN)
    time.sleep(0.3)
    return wait_for(lambda: flow_shown(popover(app)) == [label], 5)


def keyfile_flow():
    try:
        for line in open(KEYFILE):
            if line.startswith("flow-control="):
                return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return None


def start_board():
    proc = subprocess.Popen([SIMBOARD, "--pty", "--speed", "4", "--uptime", "3000", "--no-events"],
                            stdout=subprocess.PIPE, text=True)
    return proc, proc.stdout.readline().strip()


def pty_flow(path):
    """Whether the pty the viewer holds is set to RTS/CTS, read from its termios; None when
    it cannot be opened a second time (the viewer locks it; root may still open it)."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        return bool(termios.tcgetattr(fd)[2] & termios.CRTSCTS)
    finally:
        os.close(fd)


def first_run(board_path):
    proc, log = start(TICKSCOPE, log_name="connect.log")
    try:
        app = wait_for(get_app, TIMEOUT)
        if not check(app is not None, "the viewer is on the accessibility bus"):
            return log
        pop = open_popover(app)
        if not check(pop is not None, "the Board button opens the board popover"):
            return log

        rows = wait_for(lambda: port_rows(popover(app)), 10) or []
        names = [r.name or "" for r in rows]
        check(any(n == "demo" or n.startswith("demo, ") for n in names),
              "the port list offers the simulated board: %s" % "; ".join(names), names)
        # Real ports are listed when present (CI machines have none): each row is a port's
        # name, with its description and USB ids when it has them.
        real = [n for n in names if n.startswith("/dev/") or n.upper().startswith("COM")]
        check(all(not n.startswith("demo") for n in real), "%d serial port(s) listed" % len(real), names)
        check("8 data bits, no parity, 1 stop bit" in [n.name for n in walk(pop, lambda n: n.getRoleName() == "label", [])],
              "the popover says the link is 8N1")
        check(flow_shown(pop) == ["None"], "flow control starts as None", flow_shown(pop))

        # Choosing a listed port fills the entry.
        entry = port_entry(pop)
        check(entry is not None, "the popover has a port entry")
        demo = [i for i, n in enumerate(names) if n.startswith("demo")]
        lst = rows[0].parent if rows else None
        if entry is not None and demo and lst is not None:
            lst.querySelection().selectChild(demo[0])
            filled = wait_for(lambda: entry_text(port_entry(popover(app))) == "demo", 5)
            check(filled, "choosing demo in the list fills the entry", entry_text(port_entry(popover(app))))

        # Refresh lists the ports again.
        refresh = walk(pop, lambda n: n.getRoleName() == "push button" and n.name == "Refresh", [])
        if check(refresh, "the popover has a Refresh button"):
            click(refresh[0])
            again = wait_for(lambda: [r.name for r in port_rows(popover(app))], 5) or []
            check(again == names, "Refresh lists the same ports", (again, names))

        # A pty is typed in; RTS/CTS chosen; Connect.
        entry = port_entry(popover(app))
        entry.queryEditableText().setTextContents(board_path)
        check(wait_for(lambda: entry_text(port_entry(popover(app))) == board_path, 5),
              "the entry takes a pty path", board_path)
        selected = walk(popover(app), lambda n: n.getRoleName() == "list item"
                        and n.getState().contains(pyatspi.STATE_SELECTED), [])
        check(not selected, "a typed path that is not listed selects no row", [n.name for n in selected])
        check(choose_flow(app, "RTS/CTS"), "RTS/CTS can be chosen", flow_shown(popover(app)))
        check(wait_for(lambda: keyfile_flow() == "'rtscts'", 5), "the choice is kept in the settings",
              keyfile_flow())
        screenshot("connect-popover.png")
        connect = walk(popover(app), lambda n: n.getRoleName() == "push button" and "Connect" in (n.name or "")
                       and "Disconnect" not in (n.name or ""), [])
        click(connect[0])

        fetch = sensitive_button(app, "Get new data", TIMEOUT)
        check(fetch is not None, "Connect reaches the board on %s" % board_path, "; ".join(labels(main_window(app))))
        lanes = wait_for(lambda: lane_names(app) if {"main", "idle"} <= set(lane_names(app)) else None, TIMEOUT)
        check(lanes, "the board's threads are shown as lanes", lane_names(app))
        applied = pty_flow(board_path)
        if applied is None:
            check(True, "the pty is set to RTS/CTS # SKIP the viewer holds it exclusively")
        else:
            check(applied, "the pty is set to RTS/CTS (termios CRTSCTS)")
        screenshot("connect-lanes.png")
    finally:
        stop(proc)
    return log


def second_run(board_path):
    proc, log = start(TICKSCOPE, log_name="connect.log")
    try:
        app = wait_for(get_app, TIMEOUT)
        if not check(app is not None, "the viewer starts again"):
            return log
        pop = open_popover(app)
        if not check(pop is not None, "the board popover opens again"):
            return log
        check(wait_for(lambda: flow_shown(popover(app)) == ["RTS/CTS"], 5),
              "RTS/CTS is still chosen after a restart", flow_shown(popover(app)))
        entry = port_entry(popover(app))
        check(entry is not None and entry_text(entry) == board_path, "the last port is kept too",
              entry_text(entry) if entry is not None else None)
        check(choose_flow(app, "None"), "flow control can be set back to None")
        check(wait_for(lambda: keyfile_flow() == "'none'", 5), "None is kept in the settings", keyfile_flow())
        close_popover(app)
    finally:
        stop(proc)
    return log


def shown_labels(app, prefix):
    """The labels of the main window in view whose text starts with @prefix."""
    out = []
    for n in walk(main_window(app), lambda n: n.getRoleName() == "label"
                  and (n.name or "").startswith(prefix), []):
        try:
            e = n.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
            if e.width > 0 and e.height > 0 and n.getState().contains(pyatspi.STATE_VISIBLE):
                out.append(n.name)
        except Exception:
            pass
    return out


def info_bar_pixels(name):
    """The pixels of an information message's blue (data/style.css) where the message bar sits,
    under the header bar, in a screenshot."""
    return count_colours(screenshot(name), {"blue": (0xDB, 0xE7, 0xF7)}, (0, 40, 1100, 60))["blue"]


def reconnect_button(app):
    found = walk(main_window(app), lambda n: n.getRoleName() == "push button" and n.name == "Reconnect"
                 and n.getState().contains(pyatspi.STATE_VISIBLE), [])
    return found[0] if found else None


def tcp_board(port):
    board = subprocess.Popen([SIMBOARD, "--tcp", str(port), "--speed", "4", "--no-events"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return board if listening(port) else None


def board_gone(port):
    """The board over TCP killed while the viewer is connected to it."""
    board = tcp_board(port)
    if not check(board is not None, "a board listens on TCP"):
        return None
    proc, log = start(TICKSCOPE, "tcp:127.0.0.1:%d" % port, log_name="connect-gone.log")
    try:
        app = wait_for(get_app, TIMEOUT)
        fetch = sensitive_button(app, "Get new data", TIMEOUT) if app else None
        if not check(fetch is not None, "the viewer connects to the board over TCP"):
            return log
        check(wait_for(lambda: shown_labels(app, "Connected: "), 10), "it says Connected")
        check(reconnect_button(app) is None, "no Reconnect while connected")

        # Disconnect: the Connected message (the blue bar) leaves with the connection
        before = wait_for(lambda: info_bar_pixels("connect-connected.png") > 5000, 10)
        check(before, "Connected is shown in the message bar", shown_labels(app, "Connected: "))
        open_popover(app)
        # (GTK 4.8 names a button with a mnemonic "_Disconnect Disconnect")
        disconnect = walk(app, lambda n: n.getRoleName() == "push button"
                          and (n.name or "").endswith("Disconnect"), [])
        if check(disconnect, "the board popover has Disconnect"):
            click(disconnect[0])
            gone = wait_for(lambda: info_bar_pixels("connect-disconnected.png") < 100, 10)
            check(gone, "after Disconnect the Connected message has left")
            connect = walk(popover(app), lambda n: n.getRoleName() == "push button"
                           and (n.name or "").endswith("Connect") and not (n.name or "").endswith("Disconnect"), [])
            if connect:
                click(connect[0])
        close_popover(app)
        fetch = sensitive_button(app, "Get new data", TIMEOUT)
        if not check(fetch is not None, "Connect reaches the board again"):
            return log
        check(wait_for(lambda: {"main", "idle"} <= set(lane_names(app)), TIMEOUT),
              "the board's threads are shown", lane_names(app))
        board.kill()
        board.wait()
        # nothing is asked of the board: the viewer notices by itself
        button = wait_for(lambda: reconnect_button(app), TIMEOUT)
        lost = shown_labels(app, "Disconnected: ")
        check(button is not None and lost, "the board gone, the viewer says so by itself with a "
              "Reconnect button", "; ".join(labels(main_window(app))))
        check(any("closed the connection" in text for text in lost),
              "the message says the board closed the connection", lost)
        check(not shown_labels(app, "Connected: "), "the Connected message has left",
              shown_labels(app, "Connected: "))
        check(not sensitive_button(app, "Get new data", 1), "Get new data waits for a connection")
        check({"main", "idle"} <= set(lane_names(app)), "the capture on screen stays",
              lane_names(app))
        screenshot("connect-reconnect.png")
        board = tcp_board(port)
        check(board is not None, "the board is back on the same port")
        if button is not None:
            click(button)
        again = wait_for(lambda: reconnect_button(app) is None and sensitive_button(app, "Get new data", 1),
                         TIMEOUT)
        check(again, "Reconnect reaches the board again", "; ".join(labels(main_window(app))))
        check(reconnect_button(app) is None, "and the Reconnect button has left")
        lanes = wait_for(lambda: lane_names(app) if {"main", "idle"} <= set(lane_names(app)) else None, TIMEOUT)
        check(lanes, "the board's threads are shown again", lane_names(app))

    finally:
        stop(proc)
        if board is not None:
            board.kill()
            board.wait()
    return log


def main():
    if not SIMBOARD:
        print("1..0 # SKIP TKS_SIMBOARD is not set")
        return 77
    board, path = start_board()
    log = None
    try:
        check(path.startswith("/dev/"), "tickscope-simboard serves a pty", path)
        log = first_run(path)
        log = second_run(path)
        log = board_gone(free_port()) or log
    finally:
        board.kill()
        board.wait()
    return finish(log)


if __name__ == "__main__":
    sys.exit(main())
