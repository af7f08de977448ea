#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The maintainability figures of the tree, each beside its goal:

  - product .c files longer than their limit (1,000 lines; 900 for the viewer's, app/*.c);
  - the fields of struct _TksWindow (goal: 40 or fewer);
  - functions by complexity (pmccabe's modified McCabe number): those of 20 or more as a
    share of all (goal: 0.8 % or less), and those above 25, which must say why in a comment
    containing "complexity:" just above them;
  - the core's public functions without a gtk-doc comment, and the functions its headers
    export that nothing calls (goal: 0 each; tools/api-check.py counts them).

Usage: tools/code-metrics.py [--check] [--list]
  --check  exit 1 when a figure misses its goal
  --list   list every function of complexity 20 or more, and the undocumented functions
Run from anywhere; the tree is the one this script is in. pmccabe is a Debian package.
"""
import importlib.util
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRODUCT_DIRS = ["app", "app/core", "app/model", "app/cli", "app/simboard", "mcu-lib"]
LIMIT = 1000
VIEWER_LIMIT = 900
MAX_WINDOW_FIELDS = 40
HIGH = 20
MAX_HIGH_SHARE = 0.8
CEILING = 25


def product_files():
    for d in PRODUCT_DIRS:
        path = os.path.join(ROOT, d)
        for name in sorted(os.listdir(path)):
            if name.endswith(".c"):
                yield os.path.join(d, name)


def file_lengths():
    long_files = []
    for rel in product_files():
        with open(os.path.join(ROOT, rel), encoding="utf-8", errors="replace") as f:
            n = sum(1 for _ in f)
        limit = VIEWER_LIMIT if os.path.dirname(rel) == "app" else LIMIT
        if n > limit:
            long_files.append((n, limit, rel))
    return sorted(long_files, reverse=True)


def window_fields():
    with open(os.path.join(ROOT, "app", "tks-window-private.h"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"struct _TksWindow\s*\{(.*?)\n\};", text, re.S)
    if not m:
        return None
    body = re.sub(r"/\*.*?\*/", "", m.group(1), flags=re.S)
    # its own fields (a part's state grouped in a struct of its own counts once), and all
    depth, own = 0, 0
    for c in body:
        depth += (c == "{") - (c == "}")
        own += c == ";" and depth == 0
    return own, body.count(";")


def functions():
    """(complexity, file, line, name) of every function of the product files."""
    out = subprocess.run(["pmccabe"] + [os.path.join(ROOT, f) for f in product_files()],
                         capture_output=True, text=True, check=False).stdout
    result = []
    for line in out.splitlines():
        fields = line.split("\t")
        if len(fields) < 6:
            continue
        m = re.match(r"(.*)\((\d+)\): (.*)", fields[5])
        if not m:
            continue
        result.append((int(fields[0]), os.path.relpath(m.group(1), ROOT), int(m.group(2)),
                       m.group(3)))
    return result


def api_check():
    """tools/api-check.py, loaded as a module (its name is not an identifier)."""
    path = os.path.join(ROOT, "tools", "api-check.py")
    spec = importlib.util.spec_from_file_location("api_check", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def justified(path, line):
    """Whether the comment just above the function at @line of @path says why it is complex."""
    with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
        lines = f.readlines()
    above = "".join(lines[max(0, line - 16):line])
    return "complexity:" in above


def main():
    check = "--check" in sys.argv
    listing = "--list" in sys.argv
    misses = 0

    long_files = file_lengths()
    print("Product files over their limit (%d lines; %d for the viewer's): %d (goal: 0)"
          % (LIMIT, VIEWER_LIMIT, len(long_files)))
    for n, limit, rel in long_files:
        print("  %5d  %s (limit %d)" % (n, rel, limit))
    misses += len(long_files) > 0

    fields = window_fields()
    if fields is None:
        print("Fields of struct _TksWindow: not found")
        misses += 1
    else:
        print("Fields of struct _TksWindow: %d (goal: %d or fewer), %d with the members of the "
              "parts' own structs" % (fields[0], MAX_WINDOW_FIELDS, fields[1]))
        misses += fields[0] > MAX_WINDOW_FIELDS

    misses += api_check().report(listing)

    if shutil.which("pmccabe") is None:
        print("Complexity: pmccabe is not installed (apt-get install pmccabe)")
        return 1 if check else 0
    funcs = functions()
    high = [f for f in funcs if f[0] >= HIGH]
    share = 100.0 * len(high) / max(len(funcs), 1)
    over = [f for f in funcs if f[0] > CEILING and not justified(f[1], f[2])]
    print("Functions of complexity %d or more: %d of %d, %.1f %% (goal: %.1f %% or less)"
          % (HIGH, len(high), len(funcs), share, MAX_HIGH_SHARE))
    print("Functions above %d without a \"complexity:\" comment saying why: %d (goal: 0)"
          % (CEILING, len(over)))
    for c, path, line, name in sorted(over, reverse=True):
        print("  %3d  %s:%d %s" % (c, path, line, name))
    if listing:
        print("Every function of complexity %d or more:" % HIGH)
        for c, path, line, name in sorted(high, reverse=True):
            print("  %3d  %s:%d %s" % (c, path, line, name))
    misses += share > MAX_HIGH_SHARE
    misses += len(over) > 0
    return 1 if check and misses else 0


if __name__ == "__main__":
    sys.exit(main())
