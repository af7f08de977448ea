#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# tickscope-cli check, diff and top as a CI job runs them, against the simulated board: budgets
# that hold and budgets that do not, the JUnit report against the structure CI servers read,
# mistakes in budgets files, two recordings of different loads compared, top's JSON lines
# from the built-in board and from the board program over TCP, and Ctrl+C.
# Usage: test-cli-ci.py TICKSCOPE_CLI TICKSCOPE_SIMBOARD DATA_DIR
import csv
import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

cli, simboard, data = sys.argv[1], sys.argv[2], sys.argv[3]
tmp = tempfile.mkdtemp(prefix="tks-test-cli-ci-")
env = dict(os.environ, LC_ALL="C.UTF-8")
env.pop("LANGUAGE", None)
results = []
EVENTS = os.path.join(data, "simboard-record-events.raw.txt")
# generous: a busy 2-core machine under the sanitizers
DEADLINE = 120


def check(ok, what, detail=""):
    results.append(bool(ok))
    print("%s %d - %s%s" % ("ok" if ok else "not ok", len(results), what,
                            "" if ok or not detail else "\n# " + str(detail).replace("\n", "\n# ")),
          flush=True)
    return ok


def run(*args, timeout=DEADLINE):
    p = subprocess.run([cli] + list(args), capture_output=True, text=True, env=env,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def write(name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Board:
    """The board program on a TCP port (its first line says it listens)."""

    def __init__(self, *extra):
        self.port = free_port()
        self.proc = subprocess.Popen([simboard, "--tcp", str(self.port)] + list(extra),
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.proc.stdout.readline()
        self.address = "tcp:127.0.0.1:%d" % self.port

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def record(board, name, seconds, *extra):
    path = os.path.join(tmp, name)
    status, out, err = run("record", board.address, "-o", path, "--duration", str(seconds),
                           *extra)
    check(status == 0, "record %s from the board program" % name, out + err)
    return path


def stats_table(path):
    """tickscope-cli stats' thread rows: name -> (share %, max ms), threads of one name left out."""
    status, out, _ = run("stats", path)
    rows, seen = {}, set()
    lines = out.split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith("Thread "))
    for line in lines[start + 1:]:
        if not line.strip():
            break
        cells = line.split()
        name = cells[0]
        if name in seen:
            rows.pop(name, None)
            continue
        seen.add(name)
        if cells[2] != "-" and cells[7] != "-":
            rows[name] = (float(cells[3]), float(cells[7]))
    return rows


# --- check -----------------------------------------------------------------------------

HOLDS = """# the simulated board's sensor thread: every 2 ms
[sensor]
max-latency = 100us
max-share = 10%
max-run = 1ms
period = 2ms
max-jitter = 1ms

[logger]
max-run = 500us

[USART2_IRQHandler]
max-duration = 100us
max-share = 5%

[capture]
max-dropped = 0
"""

FAILS = """[sensor]
max-latency = 20us
[logger]
max-run = 50us
[idle]
max-share = 50%
[job_a]
max-latency = 1ms
"""


def validate_junit(path, n_tests, n_failures, n_errors):
    """The elements and attributes the JUnit schema requires, as GitLab and Jenkins read them."""
    problems = []
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        return ["not XML: %s" % e]
    if root.tag != "testsuites":
        problems.append("root is <%s>, not <testsuites>" % root.tag)
    for attr in ("tests", "failures", "errors", "time"):
        if attr not in root.attrib:
            problems.append("<testsuites> lacks %s" % attr)
    suites = root.findall("testsuite")
    if len(suites) != 1:
        problems.append("%d <testsuite>, not 1" % len(suites))
    for suite in suites:
        for attr in ("name", "tests", "failures", "errors", "time"):
            if attr not in suite.attrib:
                problems.append("<testsuite> lacks %s" % attr)
        cases = suite.findall("testcase")
        failures = [c for c in cases if c.find("failure") is not None]
        errors = [c for c in cases if c.find("error") is not None]
        counted = (len(cases), len(failures), len(errors))
        if counted != (n_tests, n_failures, n_errors):
            problems.append("testcases, failures, errors: %s, not %s"
                            % (counted, (n_tests, n_failures, n_errors)))
        for key, value in (("tests", n_tests), ("failures", n_failures), ("errors", n_errors)):
            if suite.get(key) != str(value) or root.get(key) != str(value):
                problems.append("%s=%s/%s, not %d" % (key, suite.get(key), root.get(key), value))
        float(suite.get("time", "0"))
        for case in cases:
            for attr in ("classname", "name"):
                if not case.get(attr):
                    problems.append("a <testcase> lacks %s" % attr)
            for bad in case.findall("failure") + case.findall("error"):
                for attr in ("message", "type"):
                    if not bad.get(attr):
                        problems.append("<%s> lacks %s" % (bad.tag, attr))
        for child in suite:
            if child.tag not in ("testcase", "properties", "system-out", "system-err"):
                problems.append("unexpected <%s> in <testsuite>" % child.tag)
    return problems


holds = write("holds.ini", HOLDS)
junit = os.path.join(tmp, "holds.xml")
status, out, err = run("check", EVENTS, "--budgets", holds, "--junit", junit)
check(status == 0, "check: budgets that hold exit 0", out + err)
check("9 of 9 budgets hold" in out and "FAIL" not in out, "check: the table says they hold", out)
check(re.search(r"^sensor\s+max-latency\s+100us\s+30\.000us\s+ok$", out, re.M),
      "check: sensor's longest latency is stats' (30 us)", out)
check(re.search(r"^sensor\s+max-run\s+1ms\s+0\.124ms\s+ok$", out, re.M),
      "check: sensor's longest run is stats' (0.124 ms)", out)
check(re.search(r"^sensor\s+period\s+2ms\s+2\.000ms\s+ok$", out, re.M),
      "check: sensor's period is the board's 2 ms", out)
problems = validate_junit(junit, 9, 0, 0)
check(not problems, "check: the JUnit report of budgets that hold", problems)

fails = write("fails.ini", FAILS)
junit = os.path.join(tmp, "fails.xml")
status, out, err = run("check", EVENTS, "--budgets", fails, "--junit", junit)
check(status == 1, "check: a broken budget exits 1", "%d\n%s%s" % (status, out, err))
check("1 of 4 budgets hold" in out, "check: 3 of 4 budgets broken", out)
problems = validate_junit(junit, 4, 3, 0)
check(not problems, "check: the JUnit report of broken budgets", problems)
root = ET.parse(junit).getroot()
case = root.find("testsuite/testcase[@classname='thread.sensor']")
check(case is not None and case.get("name") == "max-latency <= 20us"
      and "30.000us measured" in case.find("failure").get("message"),
      "check: the failure names the budget, the measure and the limit")
m = re.search(r"^FAIL \[sensor\] max-latency: .* worst at ([0-9.]+) s: tickscope (\S+) --at=([0-9.]+)s$",
              out, re.M)
check(m and m.group(1) == m.group(3) and m.group(2).strip("'") == EVENTS,
      "check: a broken budget names its moment and the viewer's command", out)
check(re.search(r"^sensor\s+max-latency\s+20us\s+30\.000us\s+FAIL\s+0\.358004$", out, re.M),
      "check: the moment in the table, in seconds from the ruler's origin", out)
check(re.search(r"^job_a\s+max-latency\s+1ms\s+0\.159ms\s+ok$", out, re.M),
      "check: threads of one name: the worst of them", out)

# The JUnit file is replaced whole: an existing one is overwritten, nothing else is left.
before = set(os.listdir(tmp))
run("check", EVENTS, "--budgets", fails, "--junit", junit)
check(set(os.listdir(tmp)) == before and not validate_junit(junit, 4, 3, 0),
      "check: the JUnit file is written again in place, no temporary file left")

# A capture without events: latency cannot be measured; it is an error in the report.
junit = os.path.join(tmp, "nodata.xml")
status, out, err = run("check", os.path.join(data, "simboard-record-5s.raw.txt"), "--budgets",
                       write("nodata.ini", "[sensor]\nmax-latency = 1ms\nmax-run = 1ms\n"),
                       "--junit", junit)
check(status == 1 and "no data" in out and "record with --events" in out,
      "check: a budget the capture cannot measure exits 1 and says why", out + err)
check(not validate_junit(junit, 2, 0, 1), "check: ... and is an <error> in the JUnit report",
      validate_junit(junit, 2, 0, 1))

BAD = [
    ("unknown key", "[sensor]\nmax-lat = 3ms\n", r":2: unknown key “max-lat” in \[sensor\]"),
    ("unknown thread", "[capture]\nmax-dropped = 0\n[sensr]\nmax-run = 1ms\n",
     r":3: \[sensr\]: no thread or handler of that name in the capture \(threads: main, idle"),
    ("no unit", "[sensor]\nmax-run = 3\n", r":2: max-run: “3” needs a unit"),
    ("wrong unit", "[sensor]\n\nmax-share = 3ms\n", r":3: max-share: “3ms”: a share is a percentage"),
    ("unknown unit", "[sensor]\nmax-run = 3 parsecs\n", r":2: max-run: .*not “parsecs”"),
    ("negative", "[sensor]\nmax-run = -3ms\n", r":2: max-run: “-3ms”: a budget cannot be negative"),
    ("not a number", "[sensor]\nmax-run = soon\n", r":2: max-run: “soon” is not a number"),
    ("a handler's key on a thread", "[sensor]\nmax-duration = 1ms\n",
     r":2: max-duration is not a budget of a thread"),
    ("not a key file line", "[sensor]\nmax-run 1ms\n", r":2: “max-run 1ms” is not a \[group\]"),
    ("no budget", "# nothing\n", r": no budget in it"),
]
for what, text, says in BAD:
    path = write("bad.ini", text)
    status, out, err = run("check", EVENTS, "--budgets", path, "--junit",
                           os.path.join(tmp, "bad.xml"))
    check(status == 2 and re.search(re.escape(path) + says, err) and out == ""
          and not os.path.exists(os.path.join(tmp, "bad.xml")),
          "check: budgets file with %s: exit 2, its line named" % what,
          "%d %r %r" % (status, out, err))

status, out, err = run("check", os.path.join(data, "board-shell-help.raw.txt"), "--budgets", holds)
check(status == 2 and "not a thread capture" in err, "check: a file that is not a capture: exit 2",
      "%d %r" % (status, err))
status, out, err = run("check", EVENTS, "--budgets", os.path.join(tmp, "missing.ini"))
check(status == 2 and "missing.ini" in err and "No such file" in err,
      "check: a missing budgets file: exit 2", "%d %r" % (status, err))
status, out, err = run("check", EVENTS, "--budgets", "/dev/zero")
check(status == 2 and "not a budgets file" in err,
      "check: an endless budgets file is refused in bounded memory", "%d %r" % (status, err))
with open(os.path.join(tmp, "binary.ini"), "wb") as f:
    f.write(b"[sensor]\nmax-run = 1ms\n\x00\xff\xfe")
status, out, err = run("check", EVENTS, "--budgets", os.path.join(tmp, "binary.ini"))
check(status == 2 and "not a text file" in err, "check: a binary budgets file is refused",
      "%d %r" % (status, err))
status, out, err = run("check", EVENTS)
check(status == 2 and "--budgets" in err, "check: without --budgets: exit 2", err)

# --- a live recording against the board's truth -------------------------------------------

truth_path = os.path.join(tmp, "truth.csv")
board = Board("--truth", truth_path)
live = record(board, "live.txt", 3, "--events")
board.stop()
status, out, err = run("info", live)
span = re.search(r"^Span:\s+ticks ([0-9.]+) to ([0-9.]+)", out, re.M)
first, last = float(span.group(1)), float(span.group(2))
runs = []
with open(truth_path) as f:
    for row in csv.DictReader(f):
        if row["kind"] == "wakeup" and row["thread"] == "sensor":
            end = float(row["end"])
            if first <= end <= last:
                runs.append(end)
intervals = [b - a for a, b in zip(runs, runs[1:])]
mean = sum(intervals) / len(intervals)
jitter = max(abs(i - 2.0) for i in intervals)
status, out, err = run("check", live, "--budgets",
                       write("live.ini", "[sensor]\nperiod = 2ms\nmax-jitter = 5ms\n"))
m = re.search(r"^sensor\s+period\s+2ms\s+([0-9.]+)ms\s+ok$", out, re.M)
j = re.search(r"^sensor\s+max-jitter\s+5ms\s+([0-9.]+)ms\s+ok$", out, re.M)
check(status == 0 and m and abs(float(m.group(1)) - mean) < 0.002,
      "check: sensor's period is the board's truth (%.4f ms)" % mean, out + err)
check(j and abs(float(j.group(1)) - jitter) < 0.003,
      "check: sensor's jitter is the board's truth (%.4f ms)" % jitter, out)

# --- diff ---------------------------------------------------------------------------------

light = Board()
heavy = Board("--workers=10")
a = record(light, "light.txt", 3)
b = record(heavy, "heavy.txt", 3)
light.stop()
heavy.stop()
status, out, err = run("diff", a, b)
check(status == 0, "diff: two recordings", err)
lines = out.split("\n")
head = next(i for i, l in enumerate(lines) if l.startswith("Subject"))
rows = [l.split() for l in lines[head + 1:] if l.strip()]
only = [r for r in rows if r[-3:] == ["only", "in", "B"] or r[-3:] == ["only", "in", "A"]]
# (the boards' short-lived jobs come and go as they please: some are on one side only too)
check({"worker%d" % i for i in range(1, 11)} <= {r[0] for r in only if r[-1] == "B"}
      and not any(r[0].startswith("worker") for r in only if r[-1] == "A"),
      "diff: the ten workers of the busier board are only in B", out)
check(rows[:len(only)] == only, "diff: threads on one side only come first", out)
changes = []
for r in rows[len(only):]:
    if r[-1] in ("-", "new"):
        continue
    changes.append(abs(float(r[-1])))
check(changes == sorted(changes, reverse=True) and len(changes) > 10,
      "diff: the largest relative changes first", out)
sa, sb = stats_table(a), stats_table(b)
shares = {}
for r in rows:
    if len(r) >= 7 and r[1] == "thread" and r[2] == "share" and "-" not in r[4:6]:
        shares[r[0]] = (float(r[4]), float(r[5]))
common = [n for n in sa if n in sb and n in shares]
bad = [(n, shares[n], sa[n], sb[n]) for n in common
       if abs(shares[n][0] - sa[n][0]) > 0.0051 or abs(shares[n][1] - sb[n][0]) > 0.0051]
check(len(common) > 5 and not bad, "diff: shares are stats' of each capture", bad or common)
runs_ = {}
for r in rows:
    if len(r) >= 8 and r[1] == "thread" and r[2:5] == ["max", "run", "us"] and "-" not in r[5:7]:
        runs_[r[0]] = (float(r[5]), float(r[6]))
bad = [(n, runs_[n], sa[n], sb[n]) for n in common if n in runs_ and
       (abs(runs_[n][0] - 1000 * sa[n][1]) > 0.51 or abs(runs_[n][1] - 1000 * sb[n][1]) > 0.51)]
check(len(runs_) > 5 and not bad, "diff: longest runs are stats' of each capture", bad)
idle = [r for r in rows if r[0] == "idle" and r[2] == "share"]
check(idle and float(idle[0][-2]) < 0, "diff: the busier board leaves idle less of the CPU", idle)

status, out, err = run("diff", "--format", "csv", a, b)
table = list(csv.DictReader(io.StringIO(out)))
check(status == 0 and table and list(table[0].keys()) ==
      ["subject", "kind", "metric", "a", "b", "change", "change_percent"],
      "diff --format csv: its columns", out[:200])
present = [r["subject"] for r in table if r["metric"] == "present"]
check(sorted(present) == sorted(r[0] for r in only) and
      [r["subject"] for r in table[:len(present)]] == present,
      "diff --format csv: the same subjects on one side only, first", present)
status, out, err = run("diff", a)
check(status == 2 and "two captures" in err, "diff: one capture is misuse", err)
status, out, err = run("diff", a, os.path.join(data, "board-shell-help.raw.txt"))
check(status == 1 and "not a thread capture" in err, "diff: a file that is not a capture", err)
status, out, err = run("diff", "--format", "xml", a, b)
check(status == 2 and "unknown format" in err, "diff: an unknown format", err)

# --- top ----------------------------------------------------------------------------------


def top_lines(out):
    objs = []
    for line in out.splitlines():
        objs.append(json.loads(line))
    return objs


def created_threads(truth_path):
    """Every thread the board program created, from its truth."""
    with open(truth_path) as f:
        return {row["thread"] for row in csv.DictReader(f) if row["kind"] == "create"}


def check_top(label, address, *extra):
    status, out, err = run("top", address, "--json", "--interval", "0.5", "--count", "2", *extra)
    check(status == 0, "top %s: --count 2 ends with 0" % label, err)
    try:
        objs = top_lines(out)
    except ValueError as e:
        check(False, "top %s: every line is JSON" % label, "%s\n%s" % (e, out))
        return []
    check(len(objs) == 2, "top %s: one JSON object per interval" % label, out)
    for o in objs:
        total = sum(t["cpu_percent"] for t in o["threads"])
        check(0 < total <= 100.001, "top %s: thread shares sum to %.3f %%, at most 100"
              % (label, total), o)
        check(all(t["max_share_percent"] + 1e-9 >= t["cpu_percent"] for t in o["threads"])
              and all(0 <= h["share_percent"] <= 100 for h in o["handlers"]),
              "top %s: highest share so far at least this interval's" % label, o)
        check("dropped" in o and "dropped_interval" in o and o["entries"] > 0,
              "top %s: entries and dropped counted" % label, o)
    return objs


demo = check_top("demo", "demo", "--events")
names = {t["name"] for o in demo for t in o["threads"]}
check({"sensor", "filter", "logger", "control", "idle"} <= names,
      "top demo: the board's threads", names)
check(demo and {"SysTick_Handler", "EXTI0_IRQHandler"} <= {h["name"] for h in demo[-1]["handlers"]},
      "top demo --events: the board's handlers", demo[-1:] if demo else None)

truth_path = os.path.join(tmp, "top-truth.csv")
board = Board("--workers=3", "--truth", truth_path)
objs = check_top("tcp", board.address)
names = {t["name"] for o in objs for t in o["threads"]}
known = created_threads(truth_path)
check(names and names <= known and {"worker1", "worker2", "worker3"} <= names,
      "top tcp: the threads are those the board created, its workers among them",
      (names, known))

# Ctrl+C: ends with 0, stops the board's recording (the board answers a fetch right after).
proc = subprocess.Popen([cli, "top", board.address, "--interval", "0.5"], stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True, env=env)
first_line = proc.stdout.readline()
proc.send_signal(signal.SIGINT)
try:
    proc.wait(timeout=DEADLINE)
except subprocess.TimeoutExpired:
    proc.kill()
    proc.wait()
# (what readline() buffered is read through the same stream)
out, err = proc.stdout.read(), proc.stderr.read()
check(proc.returncode == 0 and first_line.startswith("tickscope-cli top:"),
      "top: Ctrl+C ends it with 0", "%s %r %r" % (proc.returncode, first_line, err))
check("Thread" in out and "CPU %" in out and "\033[" not in out,
      "top: not on a terminal, a table per interval without escapes", out[:300])
status, out, err = run("fetch", board.address, "-o", os.path.join(tmp, "after.txt"), "-q")
check(status == 0, "top: after Ctrl+C the board's shell answers again", err)
board.stop()

# On a terminal: the table is redrawn in place, each interval from the top of a cleared screen.
import pty  # noqa: E402
master, slave = pty.openpty()
proc = subprocess.Popen([cli, "top", "demo", "--interval", "0.5", "--count", "2"], stdout=slave,
                        stderr=subprocess.PIPE, env=env)
os.close(slave)
shown = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    shown += chunk
proc.wait(timeout=DEADLINE)
os.close(master)
check(proc.returncode == 0 and shown.count(b"\033[H\033[2J") == 2 and shown.count(b"CPU %") == 2,
      "top on a terminal: two tables, each drawn over the last", shown[:300])

status, out, err = run("top", "demo", "--interval", "0")
check(status == 2 and "--interval" in err, "top: an interval of 0 is misuse", err)

print("1..%d" % len(results))
for name in os.listdir(tmp):
    os.unlink(os.path.join(tmp, name))
os.rmdir(tmp)
sys.exit(0 if all(results) else 1)
