#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# `meson install` gives a working application: everything lands under a DESTDIR, the installed
# tickscope-cli and tickscope-simboard run, and the installed viewer comes up in a real window
# (Xvfb, through AT-SPI) with its settings schema and its French translation found in the
# installed tree, as a package's post-install step (glib-compile-schemas) leaves it.
# Usage (through run-gui-tests.sh): test-installed.py BUILD_DIR DATA_DIR
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gui"))
from tksgui import WORK, check, finish, get_app, sensitive_button, start, stop, wait_for  # noqa: E402

BUILD, DATA = sys.argv[1], sys.argv[2]
APP_ID = "io.github.tickscope.Tickscope"


def options():
    out = subprocess.run(["meson", "introspect", "--buildoptions", BUILD],
                         capture_output=True, text=True, check=True).stdout
    return {o["name"]: o["value"] for o in json.loads(out)}


def installed():
    opts = options()
    dest = os.path.join(WORK, "destdir")
    run = subprocess.run(["meson", "install", "-C", BUILD, "--destdir", dest, "--no-rebuild",
                          "--quiet"], capture_output=True, text=True)
    if not check(run.returncode == 0, "meson install into a DESTDIR succeeds", run.stderr):
        return None
    root = dest + opts["prefix"]

    def at(key, *parts):
        return os.path.join(root, opts[key], *parts)
    expected = [
        at("bindir", "tickscope"), at("bindir", "tickscope-cli"), at("bindir", "tickscope-simboard"),
        at("datadir", "applications", APP_ID + ".desktop"),
        at("datadir", "metainfo", APP_ID + ".metainfo.xml"),
        at("datadir", "glib-2.0", "schemas", APP_ID + ".gschema.xml"),
        at("datadir", "icons", "hicolor", "scalable", "apps", APP_ID + ".svg"),
        at("datadir", "icons", "hicolor", "symbolic", "apps", APP_ID + "-symbolic.svg"),
        at("localedir", "fr", "LC_MESSAGES", "tickscope.mo"),
        at("datadir", "tickscope", "mcu-lib", "threads_utilities.c"),
        at("datadir", "tickscope", "mcu-lib", "threads_utilities.mk"),
        at("datadir", "tickscope", "mcu-lib", "LICENSE"),
        at("mandir", "man1", "tickscope.1"), at("mandir", "man1", "tickscope-cli.1"),
        at("mandir", "man1", "tickscope-simboard.1"),
    ]
    missing = [p for p in expected if not os.path.isfile(p)]
    check(not missing, "every file of the application is installed", missing)
    check(not os.path.exists(at("datadir", "tickscope", "mcu-lib", "meson.build")),
          "the board library is installed without its host build file")
    return opts, root, at


def cli(at):
    english = dict(os.environ, LC_ALL="C.UTF-8")
    english.pop("LANGUAGE", None)
    run = subprocess.run([at("bindir", "tickscope-cli"), "info",
                          os.path.join(DATA, "board-trigger-exits.raw.txt")],
                         capture_output=True, text=True, env=english)
    check(run.returncode == 0 and "Records:           3000" in run.stdout,
          "the installed tickscope-cli reads a real board's capture", run.stdout + run.stderr)
    run = subprocess.run([at("bindir", "tickscope-simboard"), "--help"], capture_output=True, text=True)
    check(run.returncode == 0 and "--tcp" in run.stdout,
          "the installed tickscope-simboard runs", run.stdout + run.stderr)
    french = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="fr")
    run = subprocess.run([at("bindir", "tickscope-cli"), "info", os.path.join(WORK, "missing.txt")],
                         capture_output=True, text=True, env=french)
    check(run.returncode == 1 and "Impossible d’ouvrir" in run.stderr,
          "the installed tickscope-cli finds its French translation", run.stderr)


def viewer(at):
    schemas = at("datadir", "glib-2.0", "schemas")
    run = subprocess.run(["glib-compile-schemas", "--strict", schemas], capture_output=True, text=True)
    check(run.returncode == 0, "the installed schema compiles", run.stderr)
    saved = dict(os.environ)
    # LANGUAGE counts only outside the plain C locale; C.UTF-8 is on every Debian system
    os.environ.update(LANGUAGE="fr", LC_ALL="C.UTF-8", GSETTINGS_SCHEMA_DIR=schemas,
                      XDG_DATA_DIRS=at("datadir") + ":/usr/share")
    try:
        proc, log = start(at("bindir", "tickscope"), "--demo", log_name="tickscope-installed.log")
    finally:
        os.environ.clear()
        os.environ.update(saved)
    try:
        app = wait_for(get_app, 30)
        if check(app is not None, "the installed viewer appears on the accessibility bus"):
            check(sensitive_button(app, "Récupérer les données") is not None,
                  "the installed viewer finds its French translation (Get new data)")
    finally:
        stop(proc)
    return log


result = installed()
log = None
if result is not None:
    _, _, at = result
    cli(at)
    log = viewer(at)
sys.exit(finish(log))
