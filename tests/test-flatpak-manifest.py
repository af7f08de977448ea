#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The Flatpak manifest as far as this machine can check it without the GNOME runtime: valid
# JSON that flatpak-builder reads without a warning, the application's id and command as the
# desktop file and metainfo give them, serial ports reachable, every dependency pinned, the
# runtime's libadwaita new enough.
# Usage: test-flatpak-manifest.py SOURCE_DIR
import json
import os
import re
import shutil
import subprocess
import sys

src = sys.argv[1]
path = os.path.join(src, "io.github.tickscope.Tickscope.json")
results = []


def check(ok, what, detail=""):
    results.append(bool(ok))
    print("%s %d - %s%s" % ("ok" if ok else "not ok", len(results), what,
                            "" if ok or not detail else "\n# " + str(detail).replace("\n", "\n# ")))


with open(path) as f:
    manifest = json.load(f)
app_id = manifest.get("id")
check(os.path.basename(path) == app_id + ".json", "the manifest is named after the application id")
desktop = os.path.join(src, "data", app_id + ".desktop.in")
metainfo = open(os.path.join(src, "data", app_id + ".metainfo.xml.in")).read()
check(os.path.exists(desktop), "the desktop file has the manifest's id")
check("<id>%s</id>" % app_id in metainfo, "the metainfo has the manifest's id")
binaries = re.findall(r"<binary>([^<]+)</binary>", metainfo)
check(manifest.get("command") in binaries, "the command is the binary the metainfo provides",
      (manifest.get("command"), binaries))
check(manifest.get("runtime") == "org.gnome.Platform" and manifest.get("sdk") == "org.gnome.Sdk",
      "GNOME runtime and SDK")
args = manifest.get("finish-args", [])
check("--device=all" in args, "serial ports are reachable (--device=all)", args)
check("--share=network" in args, "TCP boards are reachable (--share=network)", args)

modules = manifest.get("modules", [])
names = [m.get("name") for m in modules]
# the viewer needs libadwaita 1.2 or later: the GNOME runtime has it from version 43 on
version = str(manifest.get("runtime-version", ""))
check(version.isdigit() and int(version) >= 43 and "libadwaita" not in names,
      "libadwaita 1.2 or later comes with the GNOME runtime (43 or later), not built here",
      (version, names))
check(names[-1:] == ["tickscope"] and "libserialport" in names,
      "libserialport is built before the application", names)
unpinned = []
for m in modules[:-1]:
    for s in m.get("sources", []):
        if not ((s.get("type") == "git" and re.fullmatch(r"[0-9a-f]{40}", s.get("commit", "")))
                or (s.get("type") in ("archive", "file") and s.get("sha256"))):
            unpinned.append((m.get("name"), s))
check(not unpinned, "every dependency is pinned to a commit or a checksum", unpinned)
own = modules[-1].get("sources", [])
check(own and own[0].get("type") == "dir" and own[0].get("path") == "."
      and modules[-1].get("buildsystem") == "meson",
      "the application builds from this tree with meson", own)

builder = shutil.which("flatpak-builder")
if builder is None:
    print("ok %d - # SKIP flatpak-builder is not installed" % (len(results) + 1))
    results.append(True)
else:
    run = subprocess.run([builder, "--show-manifest", path], capture_output=True, text=True)
    check(run.returncode == 0 and "WARNING" not in run.stderr and json.loads(run.stdout)["id"] == app_id,
          "flatpak-builder reads the manifest without a warning", run.stderr)

print("1..%d" % len(results))
sys.exit(0 if all(results) else 1)
