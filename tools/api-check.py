#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The core's public API, as a reader who has only the headers sees it:

  - public functions without a gtk-doc comment: the functions declared in app/core's public
    headers (app/core/*.h, not *-private.h) that no "/** name:" comment documents, in the
    header (where they are documented) or in the core's .c files (goal: 0);
  - exported functions nobody calls: the functions of the core's headers (public and private)
    whose name appears nowhere in the code of app/, tests/, bench/ or fuzz/ but in their own
    declaration and definition (goal: 0).

Usage: tools/api-check.py [--check] [--list]
  --check  exit 1 when a figure is above 0
  --list   list the functions counted
tools/code-metrics.py prints the same figures with its own.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORE = "app/core"
CALLER_DIRS = ["app", "tests", "bench", "fuzz"]  # app/ holds app/core, app/cli, app/simboard…


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8", errors="replace") as f:
        return f.read()


def strip_comments(text):
    """@text without its comments, string literals and preprocessor lines (kept line for line)."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    text = re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])+\'', blank,
                  text, flags=re.S)
    return re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", blank, text, flags=re.M)


def declared(text):
    """The names of the tks_ functions @text (a header) declares or defines (static inline)."""
    code = strip_comments(text)
    names = []
    depth = 0
    for m in re.finditer(r"[(){}]|\b(tks_\w+)\s*\(", code):
        tok = m.group(0)
        if m.group(1):
            if depth == 0:
                names.append(m.group(1))
            depth += 1
        elif tok in "({":
            depth += 1
        else:
            depth -= 1
    return names


def headers(private):
    for name in sorted(os.listdir(os.path.join(ROOT, CORE))):
        if name.endswith(".h") and name.endswith("-private.h") == private:
            yield os.path.join(CORE, name)


def sources():
    for d in CALLER_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, d)):
            dirnames[:] = sorted(n for n in dirnames if not n.startswith(("_", ".")))
            for name in sorted(filenames):
                if name.endswith((".c", ".h", ".cpp")):
                    yield os.path.relpath(os.path.join(dirpath, name), ROOT)


def documented_names():
    """Every name a gtk-doc comment of the core documents ("/**" then " * name:")."""
    names = set()
    for name in os.listdir(os.path.join(ROOT, CORE)):
        if name.endswith((".c", ".h")):
            text = read(os.path.join(CORE, name))
            names.update(re.findall(r"/\*\*\s*\n\s*\*\s*([A-Za-z_]\w*):", text))
    return names


def undocumented():
    """(header, name) of each public function without a gtk-doc comment."""
    docs = documented_names()
    return [(h, n) for h in headers(False) for n in declared(read(h)) if n not in docs]


def uncalled():
    """(header, name) of each function of the core's headers that only its declaration and its
    definition name."""
    exported = [(h, n) for private in (False, True) for h in headers(private)
                for n in declared(read(h))]
    # a macro that calls a function (#define TKS_ERROR (tks_error_quark ())) uses it when used
    aliases = {}
    for private in (False, True):
        for h in headers(private):
            defines = re.findall(r"^[ \t]*#define[ \t]+(\w+)[ \t]+([^\n]*)", read(h), re.M)
            for macro, body in defines:
                for n in re.findall(r"\b(tks_\w+)\s*\(", body):
                    aliases.setdefault(macro, []).append(n)
    uses = {}
    for rel in sources():
        for n in re.findall(r"\b(?:tks_|TKS_)\w+", strip_comments(read(rel))):
            for name in aliases.get(n, [n]):
                uses[name] = uses.get(name, 0) + 1
    # one declaration, one definition (a static inline function: one, its definition)
    return [(h, n) for h, n in exported
            if uses.get(n, 0) <= (1 if re.search(r"\b%s\s*\([^;]*?\)\s*\{" % n,
                                                 strip_comments(read(h)), re.S) else 2)]


def report(listing, out=sys.stdout):
    """Prints the two figures; returns how many of them miss their goal."""
    missing = undocumented()
    unused = uncalled()
    n_public = sum(len(declared(read(h))) for h in headers(False))
    print("Public core functions without a gtk-doc comment: %d of %d (goal: 0)"
          % (len(missing), n_public), file=out)
    if listing:
        for h, n in missing:
            print("  %s %s" % (h, n), file=out)
    print("Exported core functions nothing calls: %d (goal: 0)" % len(unused), file=out)
    for h, n in unused:
        print("  %s %s" % (h, n), file=out)
    return (len(missing) > 0) + (len(unused) > 0)


def main():
    misses = report("--list" in sys.argv)
    return 1 if "--check" in sys.argv and misses else 0


if __name__ == "__main__":
    sys.exit(main())
