#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The real ChibiOS kernel against tickscope-cli: one variant (a release and a configuration
of the board library) built into the RT-Posix simulator with the workload of this folder, run,
and checked through the command-line tool. TAP on standard output.

    run-variant.py --list
    run-variant.py VARIANT --cli PATH --build-dir DIR [--require] [--record-seconds S]
                   [--skip-exit N]

ChibiOS is found in CHIBIOS_DIR (a release's tree, or a folder of releases named 18.2, 20.3,
21.11), else in ../shared/chibios next to the checkout. Without it the variant is skipped
(exit 77, or N: meson reads the skip from the TAP plan and wants 0), unless --require. The simulator is a 32-bit x86 program: where the kernel does not
run those, it runs under qemu-i386 (qemu-user).
"""
import argparse
import errno
import json
import os
import re
import resource
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))
MCU_LIB = os.path.join(SOURCE_ROOT, "mcu-lib")

# ---------------------------------------------------------------------------------------------
# Variants: a release, a board library and its makefile variables, defines of the kernel
# configuration (given before the demo's chconf.h, which keeps a value already defined).

DROP_IN = {  # the variables of the original library's README, nothing more
    "USE_THREADS_TIMESTAMPS": "true",
    "THREADS_TIMESTAMPS_LOG_SIZE": "3000",
    "THREADS_TIMESTAMPS_DEFAULT_LOG": "true",
}
# Every option of mcu-lib. The simulator's serial poll runs as an interrupt handler at every
# turn of the idle loop: a larger log than a board's (mcu-lib/README.md).
EVERY_OPTION = dict(DROP_IN, **{
    "THREADS_TIMESTAMPS_LOG_SIZE": "5000",
    "THREADS_TIMESTAMPS_CYCLES": "true",
    "THREADS_TIMESTAMPS_COUNTER_HZ": "1000000",
    "THREADS_TIMESTAMPS_IRQ": "true",
    "THREADS_TIMESTAMPS_SLEEP": "true",
    "THREADS_TIMESTAMPS_READY": "true",
    "THREADS_TIMESTAMPS_USER": "true",
    "THREADS_TIMESTAMPS_CONDITIONS": "true",
    "THREADS_TIMESTAMPS_RECORD": "true",
})
# RT 5 and 6 have no hook when a thread is made ready: READY stays off there.
EVERY_OPTION_NO_READY = dict(EVERY_OPTION, THREADS_TIMESTAMPS_READY="false")
# The events that do not depend on handlers or idle: what the tick variants record.
NO_HANDLERS = dict(EVERY_OPTION, THREADS_TIMESTAMPS_IRQ="false", THREADS_TIMESTAMPS_SLEEP="false")
# The kernel's own checks, with every option: a hook that breaks the kernel's rules halts it.
KERNEL_CHECKS = ["-DCH_DBG_SYSTEM_STATE_CHECK=TRUE", "-DCH_DBG_ENABLE_CHECKS=TRUE",
                 "-DCH_DBG_ENABLE_ASSERTS=TRUE"]

# The serial driver's output queue of a board that records: a recording sends what the queue
# takes without waiting (mcu-lib/README.md, "Continuous recording"), so the queue should hold
# what the link carries between two polls; the demos' 32 bytes hold a tenth of what the
# simulator's link carries in a millisecond.
RECORDING_QUEUE = ["-DSERIAL_BUFFERS_SIZE=256"]

VARIANTS = {
    "chibios-18.2-original": {
        "release": "18.2", "library": "original", "make": DROP_IN,
        "about": "the original threads_utilities_ChibiOS (compatibility)"},
    "chibios-18.2-dropin": {
        "release": "18.2", "library": "mcu-lib", "make": DROP_IN,
        "about": "mcu-lib as a drop-in"},
    "chibios-18.2-all": {
        "release": "18.2", "library": "mcu-lib", "make": EVERY_OPTION_NO_READY,
        "defs": KERNEL_CHECKS + RECORDING_QUEUE,
        "about": "mcu-lib, every option (no ready hook on RT 5)"},
    "chibios-20.3-dropin": {
        "release": "20.3", "library": "mcu-lib", "make": DROP_IN,
        "about": "mcu-lib as a drop-in"},
    "chibios-20.3-all": {
        "release": "20.3", "library": "mcu-lib", "make": EVERY_OPTION_NO_READY,
        "defs": KERNEL_CHECKS + RECORDING_QUEUE,
        "about": "mcu-lib, every option (no ready hook on RT 6)"},
    "chibios-21.11-dropin": {
        "release": "21.11", "library": "mcu-lib", "make": DROP_IN,
        "about": "mcu-lib as a drop-in"},
    "chibios-21.11-all": {
        "release": "21.11", "library": "mcu-lib", "make": EVERY_OPTION,
        "defs": KERNEL_CHECKS + RECORDING_QUEUE, "about": "mcu-lib, every option"},
    "chibios-21.11-systime16": {
        "release": "21.11", "library": "mcu-lib", "make": NO_HANDLERS,
        "defs": ["-DCH_CFG_ST_RESOLUTION=16"] + RECORDING_QUEUE,
        "about": "16-bit system time (it wraps every 65.5 s: the first recording is made "
                 "across a wrap), events but handlers"},
    "chibios-21.11-10khz": {
        "release": "21.11", "library": "mcu-lib", "make": NO_HANDLERS,
        "defs": ["-DCH_CFG_ST_FREQUENCY=10000"] + RECORDING_QUEUE,
        "about": "a 10 kHz tick, events but handlers"},
    # Built only: the real ARMv7-M port, the STM32F4 HAL, the demo's flags (with LTO).
    "chibios-21.11-stm32f407": {
        "release": "21.11", "library": "mcu-lib", "target": "stm32f407",
        "make": dict(EVERY_OPTION, THREADS_TIMESTAMPS_LOG_SIZE="3000",
                     THREADS_TIMESTAMPS_COUNTER_HZ="168000000"),
        "about": "mcu-lib, every option, in the RT-STM32F407-DISCOVERY demo (arm-none-eabi)"},
}

DEMOS = {"simulator": os.path.join("demos", "various", "RT-Posix-Simulator"),
         "stm32f407": os.path.join("demos", "STM32", "RT-STM32F407-DISCOVERY")}

# Kernel major version of each release folder (the tree's ch.h says which one it holds).
RT_OF_RELEASE = {"18.2": 5, "20.3": 6, "21.11": 7}

# Defects known and not yet fixed: a check they make fail is reported as TODO (an expected
# failure); once fixed, the check passes and the test reports an unexpected pass, which says
# to remove the entry here. A defect whose effect depends on the machine's load (LENIENT)
# lets its checks pass plainly, saying so.
LENIENT = {"irq-flood"}
KNOWN_DEFECTS = {
    "irq-flood": "with handlers and sleep logged, the emulated board's idle loop (which also "
                 "sends the bytes) shares a busy machine's processor: a recording may drop "
                 "entries when the machine is loaded",
}


def known_defect(variant, check):
    """The known defect that makes @check fail on @variant, or None. Checks: exited-names,
    and record-dropped, record-warnings, record-span for the switches' recording, the same
    with "events-" for the recording of every event."""
    make = variant["make"]
    if check.startswith("record-") and make.get("THREADS_TIMESTAMPS_IRQ") == "true":
        return "irq-flood"
    return None


def tick_bits(variant):
    return 16 if "-DCH_CFG_ST_RESOLUTION=16" in variant.get("defs", []) else 32


def tick_hz(variant):
    for d in variant.get("defs", []):
        m = re.match(r"-DCH_CFG_ST_FREQUENCY=(\d+)", d)
        if m:
            return int(m.group(1))
    return 1000


# ---------------------------------------------------------------------------------------------
# TAP

class Tap:
    def __init__(self, variant_name, variant):
        self.name = variant_name
        self.variant = variant
        self.n = 0
        self.failed = 0

    def diag(self, text):
        for line in str(text).rstrip("\n").split("\n"):
            print("# " + line)
        sys.stdout.flush()

    def check(self, ok, what, detail="", defect_check=None):
        self.n += 1
        defect = known_defect(self.variant, defect_check) if defect_check else None
        line = "%s %d - %s" % ("ok" if ok else "not ok", self.n, what)
        if defect and ok and defect in LENIENT:
            print(line)
            self.diag("passed despite the known defect (it depends on the load): "
                      + KNOWN_DEFECTS[defect])
            return ok
        if defect:
            line += " # TODO known defect: " + KNOWN_DEFECTS[defect]
        elif not ok:
            self.failed += 1
        print(line)
        if detail and (not ok or defect):
            self.diag(detail)
        sys.stdout.flush()
        return ok

    def bail(self, why):
        print("Bail out! " + why)
        sys.stdout.flush()
        sys.exit(1)

    def finish(self):
        print("1..%d" % self.n)
        sys.stdout.flush()
        return 1 if self.failed else 0


SKIP_EXIT = 77


def skip_all(why):
    print("1..0 # SKIP " + why)
    sys.stdout.flush()
    sys.exit(SKIP_EXIT)


# ---------------------------------------------------------------------------------------------
# ChibiOS and the build

def kernel_major(tree):
    try:
        with open(os.path.join(tree, "os", "rt", "include", "ch.h")) as f:
            m = re.search(r"#define\s+CH_KERNEL_MAJOR\s+(\d+)", f.read())
            return int(m.group(1)) if m else None
    except OSError:
        return None


def find_chibios(release, target="simulator"):
    """(tree, None) or (None, why it is not there)."""
    user = os.environ.get("CHIBIOS_DIR")
    roots = [user] if user else [os.path.join(os.path.dirname(SOURCE_ROOT), "shared", "chibios")]
    where = "CHIBIOS_DIR=" + user if user else "../shared/chibios next to the checkout"
    for root in roots:
        if not os.path.isdir(root):
            return None, "no ChibiOS tree (%s does not exist)" % where
        candidates = [os.path.join(root, release), root]
        for tree in candidates:
            demo = os.path.join(tree, DEMOS[target])
            if os.path.isdir(demo) and kernel_major(tree) == RT_OF_RELEASE[release]:
                return tree, None
    return None, "no ChibiOS %s (RT %d) with its %s demo in %s" % (
        release, RT_OF_RELEASE[release], os.path.basename(DEMOS[target]), where)


def make_command(variant, tree, build):
    library = MCU_LIB if variant["library"] == "mcu-lib" else find_original()
    makefile = "%s.mk" % variant.get("target", "simulator")
    cmd = ["make", "-j2", "--no-print-directory", "-f", os.path.join(HERE, makefile),
           "CHIBIOS=" + tree, "BUILDDIR=" + build, "THDULIB=" + library]
    cmd += ["%s=%s" % kv for kv in sorted(variant["make"].items())]
    cmd.append("RK_DEFS=" + " ".join(variant.get("defs", [])))
    return cmd


def find_original():
    """The original library: ORIGINAL_THDULIB, else ../shared/threads_utilities_ChibiOS."""
    return os.environ.get("ORIGINAL_THDULIB") or os.path.join(
        os.path.dirname(SOURCE_ROOT), "shared", "threads_utilities_ChibiOS")


BUILD_CPU = [0.0]


def cpu_seconds():
    """CPU time of the children waited for so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def build(tap, variant, tree, build_dir):
    """Builds the variant (incrementally); returns the program's path."""
    cmd = make_command(variant, tree, build_dir)
    stamp = os.path.join(build_dir, "make-command.txt")
    line = " ".join(shlex.quote(c) for c in cmd)
    try:
        with open(stamp) as f:
            if f.read() != line:
                shutil.rmtree(build_dir)
    except OSError:
        pass
    os.makedirs(build_dir, exist_ok=True)
    with open(stamp, "w") as f:
        f.write(line)
    log_path = os.path.join(build_dir, "build.log")
    started = time.monotonic()
    cpu = cpu_seconds()
    with open(log_path, "w") as log:
        rc = subprocess.call(cmd, cwd=build_dir, stdout=log, stderr=subprocess.STDOUT)
    with open(log_path, errors="replace") as f:
        log_text = f.read()
    BUILD_CPU[0] = cpu_seconds() - cpu
    tap.diag("build: %.1f s (%.1f s of CPU), %s" % (time.monotonic() - started, BUILD_CPU[0],
                                                     log_path))
    if not tap.check(rc == 0, "the simulator builds with the workload and the library",
                     "make exited with %d:\n%s\n%s" % (rc, line, log_text[-3000:])):
        tap.bail("no program to run")
    warnings = [l for l in log_text.split("\n") if "warning:" in l]
    own = [l for l in warnings if HERE in l or MCU_LIB in l]
    if variant.get("target") == "stm32f407":
        tap.check(not warnings, "no compiler warning in the whole firmware (the demo's flags)",
                  "\n".join(warnings))
        return os.path.join(build_dir, "rk.elf")
    if variant["library"] == "mcu-lib":
        tap.check(not own, "no compiler warning in the workload or mcu-lib (the demo's flags)",
                  "\n".join(own))
    if warnings:
        tap.diag("%d warnings in the build (kernel or library):\n%s" % (
            len(warnings), "\n".join(warnings[:20])))
    return os.path.join(build_dir, "rk")


def firmware_size(elf):
    """text, data and bss of an ARM firmware, the heap (the RAM left over) not counted."""
    out = subprocess.run(["arm-none-eabi-size", "-A", elf], capture_output=True, text=True,
                         check=True).stdout
    sections = {}
    for line in out.split("\n"):
        m = re.match(r"^(\.\S+)\s+(\d+)\s+\d+", line)
        if m:
            sections[m.group(1)] = int(m.group(2))
    text = sum(sections.get(k, 0) for k in (".vectors", ".text", ".rodata", ".ARM.exidx"))
    return {"text": text, "data": sections.get(".data", 0), "bss": sections.get(".bss", 0)}


# ---------------------------------------------------------------------------------------------
# The board: the simulator process and its shell

class Board:
    def __init__(self, program, work):
        self.program = program
        self.work = work
        self.proc = None
        self.port = None
        self.started = None
        self.emulated = False
        self.out_path = os.path.join(work, "simulator.out")

    def start(self):
        out = open(self.out_path, "w")
        try:
            self.proc = subprocess.Popen([self.program], stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL)
        except OSError as e:
            if e.errno != errno.ENOEXEC or shutil.which("qemu-i386") is None:
                raise
            self.emulated = True
            self.proc = subprocess.Popen(["qemu-i386", self.program], stdout=out,
                                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.started = time.monotonic()
        deadline = self.started + 60
        while time.monotonic() < deadline:
            text = self.output()
            m = re.search(r"rk: SD1 listening on port (\d+)", text)
            if m:
                self.port = int(m.group(1))
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError("the simulator did not say its port:\n" + self.output())

    def output(self):
        with open(self.out_path, errors="replace") as f:
            return f.read()

    def uptime(self):
        return time.monotonic() - self.started

    def address(self):
        return "tcp:127.0.0.1:%d" % self.port

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


PROMPT = b"ch> "


class Shell:
    """A raw connection to the board's shell, for what tickscope-cli does not send."""

    def __init__(self, port, silence=20.0):
        self.silence = silence
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.settimeout(0.2)
        self.sock.sendall(b"\r\n")
        self.read_to_prompt()

    def read_to_prompt(self, echo=None):
        """Bytes up to a prompt at the end of a line (after @echo, when given: prompts of
        lines sent before are skipped)."""
        buf = b""
        last = time.monotonic()
        while not ((buf.endswith(b"\n" + PROMPT) or buf == PROMPT)
                   and (echo is None or echo in buf)):
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                if time.monotonic() - last > self.silence:
                    raise RuntimeError("no prompt within %.0f s of silence (%d bytes: %r)" % (
                        self.silence, len(buf), buf[-200:]))
                continue
            if not data:
                raise RuntimeError("the board closed the connection (%r)" % buf[-200:])
            buf += data
            last = time.monotonic()
        return buf

    def command(self, command):
        """The reply to @command: its echo, the lines, the prompt after them."""
        self.sock.sendall(command.encode() + b"\r\n")
        reply = self.read_to_prompt(command.encode() + b"\r\n")
        return reply[reply.index(command.encode() + b"\r\n"):]

    def close(self):
        self.sock.close()


# ---------------------------------------------------------------------------------------------
# tickscope-cli

class Cli:
    def __init__(self, path, work):
        self.path = path
        self.env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="C",
                        XDG_DATA_HOME=os.path.join(work, "data"),
                        XDG_CONFIG_HOME=os.path.join(work, "config"))
        self.env.pop("G_DEBUG", None)

    def run(self, *args, timeout=120):
        started = time.monotonic()
        p = subprocess.run([self.path] + list(args), capture_output=True, text=True,
                           env=self.env, timeout=timeout, errors="replace")
        return p.returncode, p.stdout, p.stderr, time.monotonic() - started

    def info(self, path):
        rc, out, err, _ = self.run("info", path)
        return Info(rc, out, err)


class Info:
    """What `tickscope-cli info FILE` says, line by line."""

    def __init__(self, rc, out, err):
        self.rc, self.text, self.err = rc, out, err
        self.fields = {}
        self.lanes = []
        key = None
        in_lanes = False
        for line in out.split("\n"):
            m = re.match(r"^([A-Z][A-Za-z ]+):\s+(.*)$", line)
            if m and not line.startswith(" "):
                key = m.group(1)
                self.fields[key] = m.group(2)
                in_lanes = False
            elif line.startswith("Lanes"):
                in_lanes = True
            elif in_lanes:
                m = re.match(r"^\s+(\d+)\s+(.+?)\s+(\d+)\s+(yes|no)\s+(\d+)\s*(.*)$", line)
                if m:
                    self.lanes.append({"prio": int(m.group(1)), "name": m.group(2),
                                       "runs": int(m.group(5)), "state": m.group(6).strip()})
            elif key and line.startswith(" ") and line.strip():
                self.fields[key] += "\n" + line.strip()

    def number(self, key):
        m = re.match(r"\s*(\d+)", self.fields.get(key, ""))
        return int(m.group(1)) if m else None

    def span_seconds(self):
        m = re.search(r"\(\d+ ticks, ([0-9.]+) s at", self.fields.get("Span", ""))
        return float(m.group(1)) if m else None

    def events(self):
        """Counts of each event kind ("switch", "irq enter", "marker", ...)."""
        text = self.fields.get("Events", "")
        counts = {}
        for m in re.finditer(r"(\d+) ([a-z][a-z ]*?)(?=,|$)", text.split("\n")[-1]):
            counts[m.group(2).strip()] = int(m.group(1))
        return counts

    def warnings(self):
        return self.number("Warnings")


def summary_number(text, pattern):
    m = re.search(pattern, text)
    return float(m.group(1)) if m else None


# ---------------------------------------------------------------------------------------------
# The checks

JOB_NAMES = {"job-heap", "job-pool", "job-static"}
# The threads that exit on a board: the workload's jobs, and the shell of each connection the
# host closed (started from the heap by main-sim.c).
EXITING_NAMES = JOB_NAMES | {"shell"}


def fnv1a(words):
    h = 2166136261
    for w in words:
        for b in range(4):
            h = ((h ^ ((w >> (8 * b)) & 0xFF)) * 16777619) & 0xFFFFFFFF
    return h


def dump_v1_checksum(text):
    """(checksum printed, checksum of the records, records) of a threads_dump version 1."""
    words = []
    for m in re.finditer(r"^From\s+(\d+) to\s+(\d+) at\s+(\d+)\s*$", text, re.M):
        words.append(((int(m.group(3)) & 0xFFFFF) << 12) | (int(m.group(1)) << 6)
                     | int(m.group(2)))
    end = re.search(r"End of dump: (\d+) records, checksum ([0-9A-Fa-f]{8})", text)
    printed = int(end.group(2), 16) if end else None
    return printed, fnv1a(words), len(words)


class Run:
    def __init__(self, tap, variant, board, cli, work, record_seconds):
        self.tap = tap
        self.variant = variant
        self.board = board
        self.cli = cli
        self.work = work
        self.record_seconds = record_seconds
        self.make = variant["make"]
        self.mcu = variant["library"] == "mcu-lib"
        self.results = {"variant": tap.name, "about": variant["about"]}
        self.n_files = 0

    def option(self, name):
        return self.make.get("THREADS_TIMESTAMPS_" + name) == "true"

    def path(self, what):
        self.n_files += 1
        return os.path.join(self.work, "%02d-%s" % (self.n_files, what))

    def fetch(self, what):
        """tickscope-cli fetch; returns (rc, stderr, info, file)."""
        out = self.path(what + ".txt")
        rc, _, err, _ = self.cli.run("fetch", self.board.address(), "-o", out, "--no-history",
                                     "--timeout", "20")
        info = self.cli.info(out) if rc == 0 else None
        return rc, err, info, out

    def shell(self):
        return Shell(self.board.port)

    def raw(self, *commands):
        """The replies to @commands, as a transcript (prompt, echo, reply, prompt...)."""
        sh = self.shell()
        try:
            text = PROMPT
            for c in commands:
                text += sh.command(c)
            return text
        finally:
            sh.close()

    # -- fetch ------------------------------------------------------------------------------
    def check_fetch(self):
        t = self.tap
        rc, err, info, path = self.fetch("fetch")
        kind = "compact dump" if self.mcu else "legacy commands"
        if not t.check(rc == 0 and info is not None and info.rc == 0,
                       "fetch (%s): the capture is written and opens" % kind, err):
            return
        warnings = [l for l in err.split("\n") if "warning" in l]
        records = info.number("Records") or 0
        per = summary_number(err, r"\(([0-9.]+) bytes/record\)")
        self.results["fetch_records"] = records
        self.results["fetch_bytes_per_record"] = per
        self.results["fetch_warnings"] = info.warnings()
        t.diag("fetch: %s" % err.strip().split("\n")[-1])
        t.check(records > 0, "fetch: the capture has records (%d)" % records)
        if self.mcu:
            t.check(not warnings and info.warnings() == 0,
                    "fetch: no warning (checksum matched)", err + info.text[-2000:])
        else:
            t.diag("the original library's capture: %s warnings" % info.warnings())
        span = info.span_seconds()
        up = self.board.uptime()
        if tick_bits(self.variant) == 16:
            t.diag("fetch span %.3f s (a 16-bit tick: checked by the recordings)" % (span or 0))
        else:
            t.check(span is not None and 0 < span <= up + 0.5,
                    "fetch: the span (%.3f s) is within the board's uptime (%.1f s)" % (
                        span or 0, up), info.fields.get("Span"))
        exited = [l for l in info.lanes if l["state"].startswith("exited")]
        if self.mcu:
            unnamed = sorted({l["name"] for l in exited} - EXITING_NAMES)
            t.check(exited and not unnamed and JOB_NAMES & {l["name"] for l in exited},
                    "fetch: exited threads keep their names (%d exited)" % len(exited),
                    "names seen: %s" % ", ".join(unnamed), defect_check="exited-names")
        if self.option("READY"):
            events = info.events()
            t.check(events.get("ready", 0) > 0 and "wake-ups" in info.fields.get("Tracks", ""),
                    "fetch: wake-ups recorded (%d)" % events.get("ready", 0), info.text[:1500])

    def check_dump_and_legacy(self):
        """The two other ways a board gives its log, read as tickscope-cli reads raw bytes."""
        t = self.tap
        for what, commands in (("dump", ["threads_dump"]),
                               ("legacy", ["threads_list", "threads_timestamps"])):
            try:
                transcript = self.raw(*commands)
            except (OSError, RuntimeError) as e:
                t.check(False, "%s: the board answers %s" % (what, " and ".join(commands)), e)
                continue
            raw_path = self.path(what + ".raw")
            with open(raw_path, "wb") as f:
                f.write(transcript)
            text = transcript.decode("latin-1")
            if what == "dump" and "Dump version: 1" in text:
                printed, computed, n = dump_v1_checksum(text)
                t.check(printed is not None and printed == computed,
                        "dump: the checksum of its %d records is right" % n,
                        "printed %s, computed %08X" % (printed and "%08X" % printed, computed))
            out = self.path(what + ".txt")
            rc, _, err, _ = self.cli.run("convert", raw_path, "-o", out)
            info = self.cli.info(out) if rc == 0 else None
            records = info.number("Records") if info else None
            if what == "dump":
                t.check(rc == 0 and info.warnings() == 0 and records,
                        "dump (threads_dump): read without a warning (%s records)" % records,
                        err + (info.text[-2000:] if info else ""))
            else:
                # Two replies taken apart: threads that exit between them, and the numbers
                # given back then, make the list and the log disagree, which the reader says.
                t.check(rc == 0 and records,
                        "legacy (threads_list + threads_timestamps): read (%s records, %s "
                        "warnings about the list and the log)" % (
                            records, info.warnings() if info else "no"), err)
            self.results[what + "_warnings"] = info.warnings() if info else None
            self.results[what + "_bytes_per_record"] = (
                round(len(transcript) / info.number("Records"), 2)
                if info and info.number("Records") else None)

    # -- recording --------------------------------------------------------------------------
    def check_record(self, events):
        t = self.tap
        what = "record --events" if events else "record"
        out = self.path("record-events.txt" if events else "record.txt")
        args = ["record", self.board.address(), "-o", out, "--duration",
                str(self.record_seconds)]
        if events:
            args.append("--events")
        # The stream begins with what the log holds: after a long reply, from before it
        # (printing pauses the log). A second lets the log fill with the present.
        time.sleep(1.0)
        bits, hz = tick_bits(self.variant), tick_hz(self.variant)
        if bits == 16 and not events:
            self.wait_for_systime(hz * 48, hz * 58)
        # The board's own clock around the recording (the shell's systime): the truth of
        # the span, the tick wrapped or not.
        before, at_before = self.systime(), time.monotonic()
        rc, out_text, err, wall = self.cli.run(*args, timeout=self.record_seconds + 120)
        after, at_after = self.systime(), time.monotonic()
        line = ([l for l in out_text.split("\n") if re.search(r"\d+ events? in ", l)]
                or [""])[-1]
        defect = "record-events-" if events else "record-"
        t.diag("%s: %s (%.1f s)" % (what, line, wall))
        if not t.check(rc == 0, "%s: %g s recorded" % (what, self.record_seconds), err):
            return
        n = summary_number(line, r"(\d+) events? in")
        dropped = summary_number(line, r"(\d+) dropped")
        per = summary_number(line, r"\(([0-9.]+) bytes/event\)")
        key = "record_events" if events else "record"
        self.results[key] = {"events": n, "dropped": dropped, "bytes_per_event": per}
        info = self.cli.info(out)
        self.results[key]["warnings"] = info.warnings()
        # The board's clock during the recording.
        between = at_after - at_before
        elapsed = (after - before) % (1 << bits)
        if bits == 16:  # the 16-bit clock wrapped some times: as many as the wall time says
            elapsed += (1 << 16) * round((between * hz - elapsed) / (1 << 16))
        crossed = bits == 16 and after < before
        rate = elapsed / hz / between
        self.results[key]["clock_rate"] = round(rate, 3)
        # Emulated on a busy machine, a simulator whose clock fell behind was short of the
        # CPU (its idle loop counts the ticks and sends the bytes): what it could not send,
        # it drops and counts, as a board on a slow link does. Reported, not asserted.
        starved = self.board.emulated and rate < 0.9
        if starved and not (dropped == 0 and info.warnings() == 0):
            t.diag("%s: %s dropped, %s warnings: the emulated board was short of the CPU "
                   "(its clock ran at %.2f of wall time)" % (what, dropped, info.warnings(),
                                                             rate))
        else:
            t.check(n is not None and n > 0 and dropped == 0,
                    "%s: 0 dropped (%s events, %s dropped)" % (what, n, dropped), line,
                    defect_check=defect + "dropped")
            if not crossed:
                t.check(info.rc == 0 and info.warnings() == 0,
                        "%s: the file opens without a warning" % what,
                        info.err + info.text[-2000:], defect_check=defect + "warnings")
        # The span: the time the CLI recorded, on the board's clock (at most the second of
        # log before it more).
        expected = self.record_seconds * rate
        span = info.span_seconds()
        t.diag("%s: the board's clock ran %.3f s in %.3f s of wall time%s" % (
            what, elapsed / hz, between, ", across a wrap of its 16-bit tick" if crossed else ""))
        if crossed:
            t.check(info.warnings() == 0, "%s: across the wrap, no warning" % what,
                    info.text[-1500:], defect_check="wrap-warnings")
        t.check(span is not None and abs(span - expected) <= 1.0 + 0.05 * expected,
                "%s: the span (%s s) matches the %g s recorded (%.2f s on the board's clock)"
                % (what, span, self.record_seconds, expected), info.fields.get("Span"),
                defect_check="wrap-span" if crossed else defect + "span")
        if not self.board.emulated:
            t.check(0.95 <= rate <= 1.03, "%s: the board's clock keeps wall time (%.3f)" % (
                what, rate))
        else:
            # The simulator counts a tick per turn of its idle loop: emulated on a busy
            # machine, it may turn fewer times a second than its tick's frequency.
            t.diag("%s: the board's clock ran at %.3f of wall time (emulated)" % (what, rate))
        if events:
            self.check_event_kinds(info)

    def check_event_kinds(self, info):
        t = self.tap
        counts = info.events()
        expect = {"switch": True, "marker": self.option("USER"),
                  "state begin": self.option("USER"), "state end": self.option("USER"),
                  "irq enter": self.option("IRQ"), "irq leave": self.option("IRQ"),
                  "sleep": self.option("SLEEP"), "wake": self.option("SLEEP"),
                  "ready": self.option("READY")}
        wrong = ["%s: %d" % (k, counts.get(k, 0)) for k, on in expect.items()
                 if (counts.get(k, 0) > 0) != on]
        t.check(not wrong, "record --events: the kinds recorded are the options built in",
                "; ".join(wrong) + "\n" + info.fields.get("Events", ""))
        if self.option("READY"):
            t.check("wake-ups" in info.fields.get("Tracks", ""),
                    "record --events: wake-ups (%d)" % counts.get("ready", 0))

    def check_record_refused(self):
        t = self.tap
        out = self.path("record-refused.txt")
        rc, _, err, _ = self.cli.run("record", self.board.address(), "-o", out, "--duration",
                                     "2", "--quiet", timeout=60)
        t.check(rc == 1 and "threads_record" in err,
                "record: refused with a message naming threads_record (rc %d)" % rc, err)

    def systime(self):
        """The board's system time (the shell's own command)."""
        reply = self.raw("systime").decode("latin-1")
        m = re.search(r"systime\r\n(\d+)\r\n", reply)
        if not m:
            raise RuntimeError("no systime in %r" % reply)
        return int(m.group(1))

    def wait_for_systime(self, low, high):
        """Waits until the board's clock is between @low and @high (ticks), for a recording
        across the 16-bit wrap."""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            now = self.systime()
            if low <= now < high:
                return
            time.sleep(1.0 if now < low - 2000 else 0.2)
        self.tap.diag("the board's clock did not reach %d" % low)

    # -- trigger and run --------------------------------------------------------------------
    def check_trigger_run(self):
        t = self.tap
        rc, out, err, _ = self.cli.run("trigger", self.board.address(), "--timeout", "20")
        t.check(rc == 0 and out.startswith("Trigger set by"), "trigger: %s" % out.strip(),
                err)
        time.sleep(1.0)  # the log freezes half a log after the trigger
        rc1, err1, info1, _ = self.fetch("triggered")
        rc2, err2, info2, _ = self.fetch("triggered-again")
        ok = rc1 == 0 and rc2 == 0 and info1 and info2
        t.check(ok and info1.fields.get("Trigger", "none") != "none",
                "trigger: the capture has the trigger (%s)" % (
                    info1.fields.get("Trigger") if ok else "no capture"), err1 + err2)
        frozen = (ok and info1.fields.get("Span") == info2.fields.get("Span")
                  and info1.number("Records") == info2.number("Records"))
        spans = "%s\n%s" % (info1 and info1.fields.get("Span"),
                            info2 and info2.fields.get("Span"))
        if self.mcu:
            t.check(frozen, "trigger: the log is frozen (two fetches alike)", spans)
        else:
            # The original library writes the exits that follow a trigger into the frozen
            # log (one of the defects mcu-lib fixes): two fetches may differ.
            t.diag("trigger: two fetches %s (the original library)\n%s" % (
                "alike" if frozen else "differ", spans))
        rc, out, err, _ = self.cli.run("run", self.board.address(), "--timeout", "20")
        t.check(rc == 0 and out.strip() == "Run mode", "run: %s" % out.strip(), err)
        time.sleep(0.5)
        rc3, err3, info3, _ = self.fetch("run")
        t.check(rc3 == 0 and info3 and info3.fields.get("Trigger") == "none"
                and info3.number("Records") > 0,
                "run: the log records again, without a trigger", err3)

    def check_trigger_when(self):
        t = self.tap
        conditions = [("marker beat 7", "marker beat"), ("run 100 control", "run above")]
        if self.option("READY"):
            conditions.append(("latency 1 consumer", "latency above"))
        for condition, expect in conditions:
            try:
                reply = self.raw("threads_trigger_when " + condition).decode("latin-1")
            except (OSError, RuntimeError) as e:
                t.check(False, "trigger_when %s: the board answers" % condition, e)
                continue
            t.check("Condition: " in reply and expect in reply,
                    "trigger_when %s: %s" % (condition, " ".join(
                        l for l in reply.split("\r\n") if l.startswith("Condition"))), reply)
            time.sleep(1.5)
            rc, err, info, _ = self.fetch("when-" + condition.split()[0])
            trigger = info.fields.get("Trigger", "none") if info else "none"
            met = info.fields.get("Condition", "") if info else ""
            t.check(rc == 0 and trigger != "none" and expect in met and "met" in met
                    and info.warnings() == 0,
                    "trigger_when %s: the capture has its trigger (%s, %s)" % (
                        condition, trigger, met), err + (info.text[:1500] if info else ""))
            self.raw("threads_trigger_when off", "threads_timestamps_run")


def build_firmware(args, tap, name, variant, tree):
    """An ARM firmware: built, without a warning, its size."""
    if shutil.which("arm-none-eabi-gcc") is None:
        skip_all("arm-none-eabi-gcc is not installed")
    work = os.path.join(args.build_dir, name)
    started = time.monotonic()
    elf = build(tap, variant, tree, os.path.join(work, "build"))
    size = firmware_size(elf)
    tap.check(size["text"] > 0, "the firmware has code: text %(text)d B, data %(data)d B, "
              "bss %(bss)d B (the heap not counted)" % size)
    results = {"variant": name, "about": variant["about"], "size": size,
               "build_seconds": round(time.monotonic() - started, 1),
               "build_cpu_seconds": round(BUILD_CPU[0], 1)}
    with open(os.path.join(work, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    return tap.finish()


def run_variant(args, name, variant):
    tap = Tap(name, variant)
    tree, why = find_chibios(variant["release"], variant.get("target", "simulator"))
    if tree is None:
        if args.require:
            tap.bail(why)
        skip_all(why)
    if variant["library"] == "original" and not os.path.isfile(
            os.path.join(find_original(), "threads_utilities.mk")):
        why = "no original library (ORIGINAL_THDULIB, or ../shared/threads_utilities_ChibiOS)"
        if args.require:
            tap.bail(why)
        skip_all(why)
    if not shutil.which("make"):
        skip_all("make is not installed")
    tap.diag("%s: ChibiOS %s in %s, %s" % (name, variant["release"], tree, variant["about"]))
    if variant.get("target") == "stm32f407":
        return build_firmware(args, tap, name, variant, tree)

    work = os.path.join(args.build_dir, name)
    started = time.monotonic()
    program = build(tap, variant, tree, os.path.join(work, "build"))
    built = time.monotonic() - started
    run_dir = os.path.join(work, "run")
    shutil.rmtree(run_dir, ignore_errors=True)
    os.makedirs(run_dir)

    board = Board(program, run_dir)
    cli = Cli(args.cli, run_dir)
    run = Run(tap, variant, board, cli, run_dir, args.record_seconds)

    def on_term(signum, frame):
        board.stop()
        sys.exit(1)
    signal.signal(signal.SIGTERM, on_term)
    try:
        try:
            board.start()
        except (OSError, RuntimeError) as e:
            if isinstance(e, OSError) and e.errno == errno.ENOEXEC:
                skip_all("this system runs no 32-bit x86 programs and qemu-i386 "
                         "(qemu-user) is not installed")
            tap.bail("the simulator does not start: %s" % e)
        tap.diag("simulator on port %d%s" % (board.port, ", under qemu-i386" if board.emulated
                                             else ""))
        time.sleep(1.0)  # a log with something in it
        try:
            help_text = run.raw("help").decode("latin-1")
        except (OSError, RuntimeError) as e:
            tap.bail("the shell does not answer: %s\n%s" % (e, board.output()))
        commands = ["threads_list", "threads_timestamps", "threads_timestamps_trigger",
                    "threads_timestamps_run", "threads_stat", "threads_uc"]
        if run.mcu:
            commands += ["threads_dump", "threads_dump_compact"]
        if run.option("RECORD"):
            commands.append("threads_record")
        if run.option("CONDITIONS"):
            commands.append("threads_trigger_when")
        missing = [c for c in commands if not re.search(r"\b%s\b" % c, help_text)]
        tap.check(not missing, "the shell lists the library's commands", help_text)

        try:
            run_checks(run, tap)
        except (OSError, RuntimeError, subprocess.TimeoutExpired) as e:
            tap.check(False, "the checks ran to their end", "%s: %s" % (type(e).__name__, e))
        tap.check(board.alive(), "the kernel is still running", board.output()[-2000:])
    finally:
        board.stop()
    halted = re.search(r"rk: kernel halted: .*", board.output())
    if halted:
        tap.check(False, "the kernel did not halt", halted.group(0))
    run.results["build_seconds"] = round(built, 1)
    run.results["build_cpu_seconds"] = round(BUILD_CPU[0], 1)
    run.results["cpu_seconds"] = round(cpu_seconds(), 1)
    run.results["seconds"] = round(time.monotonic() - started, 1)
    run.results["emulated"] = board.emulated
    with open(os.path.join(work, "results.json"), "w") as f:
        json.dump(run.results, f, indent=1)
    tap.diag("%s: %.0f s (build %.0f s)" % (name, run.results["seconds"], built))
    return tap.finish()


def run_checks(run, tap):
    """The checks of a simulator board, in order (each leaves the board as the next wants)."""
    run.check_fetch()
    if run.mcu:
        run.check_dump_and_legacy()
    if run.option("RECORD"):
        run.check_record(events=False)
        run.check_record(events=True)
    else:
        run.check_record_refused()
    run.check_trigger_run()
    if run.option("CONDITIONS"):
        run.check_trigger_when()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", nargs="?")
    parser.add_argument("--list", action="store_true", help="print the variants' names")
    parser.add_argument("--cli", help="tickscope-cli")
    parser.add_argument("--build-dir", help="where builds and runs go")
    parser.add_argument("--require", action="store_true",
                        help="fail, not skip, when ChibiOS is not there")
    parser.add_argument("--record-seconds", type=float, default=20.0)
    parser.add_argument("--skip-exit", type=int, default=77,
                        help="exit status when skipped (default 77)")
    args = parser.parse_args()
    global SKIP_EXIT
    SKIP_EXIT = args.skip_exit
    if args.list:
        print("\n".join(VARIANTS))
        return 0
    if args.variant not in VARIANTS:
        parser.error("VARIANT is one of: " + ", ".join(VARIANTS))
    if not args.cli or not args.build_dir:
        parser.error("--cli and --build-dir are needed")
    args.build_dir = os.path.abspath(args.build_dir)
    return run_variant(args, args.variant, VARIANTS[args.variant])


if __name__ == "__main__":
    sys.exit(main())
