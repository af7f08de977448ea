#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Garbage on the line, with the real viewer in Xvfb driven through AT-SPI:
# 1. the viewer reads the simulated board (tickscope-simboard over TCP) through a relay; then the
#    relay turns every byte from the board into noise, as a wrong baud rate or a bad cable does:
#    Get new data fails with a clear message within its timeout, the window keeps answering,
#    and the capture on screen stays;
# 2. a device that sends only noise from the start: connecting fails with a clear message.
# Usage (through tests/gui/run-gui-tests.sh, with TKS_SIMBOARD set): test-e2e-faults.py TICKSCOPE
import os
import random
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gui"))
from tksgui import (check, click, finish, free_port, get_app, label_text, lane_names,  # noqa: E402
                    sensitive_button, start, status, stop, wait_for, WORK)

TICKSCOPE = sys.argv[1]
SIMBOARD = os.environ["TKS_SIMBOARD"]


def noise(n, rng):
    # What a UART at the wrong speed delivers: mostly high bytes, no prompt, few line ends.
    return bytes(rng.choice((0x80, 0x86, 0x98, 0xE0, 0xF8, 0xFE, 0x00, 0x1E)) for _ in range(n))


class Relay:
    """Forwards one TCP connection to the board; garble=True replaces what the board sends."""

    def __init__(self, board_port):
        self.board_port = board_port
        self.garble = False
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(1)
        self.port = self.listener.getsockname()[1]
        self.rng = random.Random(7)
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        viewer, _ = self.listener.accept()
        board = socket.create_connection(("127.0.0.1", self.board_port))
        for sock in (viewer, board):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=self.pump, args=(viewer, board, False), daemon=True).start()
        self.pump(board, viewer, True)

    def pump(self, src, dst, from_board):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if from_board and self.garble:
                    data = noise(len(data), self.rng)
                dst.sendall(data)
        except OSError:
            pass
        for sock in (src, dst):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def start_board():
    port = free_port()
    board = subprocess.Popen([SIMBOARD, "--tcp", str(port), "--uptime", "5000", "--no-events"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ok = wait_for(lambda: socket.create_connection(("127.0.0.1", port), 0.2).close() or True, 10)
    return board if ok else None, port


def garbled_line():
    board, board_port = start_board()
    if not check(board is not None, "the simulated board listens on TCP"):
        return None
    relay = Relay(board_port)
    proc, log = start(TICKSCOPE, "tcp:127.0.0.1:%d" % relay.port, log_name="tickscope-faults.log")
    try:
        app = wait_for(get_app, 30)
        if not check(app is not None, "the application appears on the accessibility bus"):
            return log
        before = wait_for(lambda: status(app), 30)
        check(before and "records" in before, "the first fetch through the relay shows a capture",
              before)
        lanes = wait_for(lambda: lane_names(app), 10) or []
        check("idle" in lanes and "sensor" in lanes, "its lanes are shown", lanes)

        relay.garble = True
        get = sensitive_button(app, "Get new data", 10)
        if not check(get is not None, "Get new data can be pressed"):
            return log
        started = time.time()
        click(get)
        message = wait_for(lambda: label_text(app, lambda s: s.startswith("Could not get new data")), 20)
        elapsed = time.time() - started
        print("# %s" % message, flush=True)
        check(message is not None, "noise on the line ends the fetch with a message", message)
        check(message is not None and any(w in message for w in ("baud", "garbled", "unreadable",
                                                                    "no prompt", "not answer")),
              "the message says what to check", message)
        check(elapsed < 15, "within the fetch's timeout (%.1f s)" % elapsed)
        check(status(app) == before, "the capture on screen stays", status(app))
        check(set(lane_names(app)) == set(lanes), "with its lanes")
    finally:
        stop(proc)
        board.kill()
        board.wait()
    return log


def noise_from_the_start():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    rng = random.Random(3)

    def serve():
        try:
            conn, _ = listener.accept()
            end = time.time() + 20
            while time.time() < end:
                conn.sendall(noise(64, rng))
                time.sleep(0.01)
            conn.close()
        except OSError:
            pass

    threading.Thread(target=serve, daemon=True).start()
    proc, log = start(TICKSCOPE, "tcp:127.0.0.1:%d" % port, log_name="tickscope-noise.log")
    try:
        app = wait_for(get_app, 30)
        if not check(app is not None, "noise: the application appears on the accessibility bus"):
            return log
        started = time.time()
        message = wait_for(lambda: label_text(app, lambda s: s.startswith("Could not connect")), 20)
        print("# %s" % message, flush=True)
        check(message is not None, "a device that sends only noise: connecting fails with a message",
              message)
        check(time.time() - started < 15, "within the connection's timeout")
        check(sensitive_button(app, "Get new data", 0.5) is None,
              "the board buttons are off while no board is connected")
    finally:
        stop(proc)
        listener.close()
    return log


garbled_line()
noise_from_the_start()
sys.exit(finish(os.path.join(WORK, "tickscope-faults.log")))
