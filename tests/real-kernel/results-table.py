#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The table of docs/real-kernel.md from a run's results: each variant's results.json.

    results-table.py BUILD_DIR/tests/real-kernel
"""
import json
import os
import sys


def cell(value, fmt="%s"):
    return "—" if value is None else fmt % value


def main():
    root = sys.argv[1]
    rows = []
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name, "results.json")
        if os.path.isfile(path):
            with open(path) as f:
                rows.append(json.load(f))
    print("| variant | fetch: records, B/record, warnings | threads_dump B/record "
          "| record 20 s: events, dropped, B/event, warnings "
          "| record --events: events, dropped, B/event, warnings | time (build) |")
    print("| --- | --- | ---: | --- | --- | ---: |")
    for r in rows:
        if "size" in r:
            s = r["size"]
            print("| %s | text %d B, data %d B, bss %d B | | | | %s s |" % (
                r["variant"], s["text"], s["data"], s["bss"], r["build_seconds"]))
            continue
        fetch = "%s, %s, %s" % (cell(r.get("fetch_records")),
                                cell(r.get("fetch_bytes_per_record"), "%.2f"),
                                cell(r.get("fetch_warnings")))
        rec = []
        for key in ("record", "record_events"):
            x = r.get(key)
            rec.append("%s, %s, %s, %s" % (cell(x.get("events"), "%d"), cell(x.get("dropped"), "%d"),
                                           cell(x.get("bytes_per_event"), "%.2f"),
                                           cell(x.get("warnings"))) if x else "—")
        print("| %s | %s | %s | %s | %s | %s s (%s s) |" % (
            r["variant"], fetch, cell(r.get("dump_bytes_per_record"), "%.2f"), rec[0], rec[1],
            r.get("seconds"), r.get("build_seconds")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
