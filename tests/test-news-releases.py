#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The metainfo's releases follow NEWS: the same versions, newest first, with the same dates
# ("in development" in NEWS is a release of type "development" in the metainfo), and the
# newest release that is not in development is the version meson builds.
import re
import sys
import xml.etree.ElementTree as ET

news_path, metainfo_path, version = sys.argv[1:4]

news = []
with open(news_path, encoding="utf-8") as f:
    for line in f:
        m = re.match(r"^Tickscope (\S+) \((.+)\)$", line.rstrip("\n"))
        if m:
            news.append((m.group(1), m.group(2)))

releases = []
for r in ET.parse(metainfo_path).getroot().iter("release"):
    releases.append((r.get("version"), r.get("date"), r.get("type", "stable")))

problems = []
if not news:
    problems.append("NEWS has no 'Tickscope VERSION (DATE)' heading")
if [v for v, _ in news] != [v for v, _, _ in releases]:
    problems.append(f"versions differ: NEWS {[v for v, _ in news]}, "
                    f"metainfo {[v for v, _, _ in releases]}")
for (v, when), (_, date, kind) in zip(news, releases):
    if when == "in development":
        if kind != "development":
            problems.append(f"{v}: in development in NEWS, type {kind} in the metainfo")
    elif when != date or kind == "development":
        problems.append(f"{v}: NEWS says {when}, the metainfo {date} ({kind})")
released = [v for v, when in news if when != "in development"]
if released and released[0] != version:
    problems.append(f"the newest release in NEWS is {released[0]}, meson builds {version}")

for p in problems:
    print("not ok:", p)
if problems:
    sys.exit(1)
print(f"ok: {len(news)} releases agree")
