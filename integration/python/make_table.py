#!/usr/bin/env python3
"""Markdown table of a Python-twins run plus the analyzer's results.
  integration/python/make_table.py results/<run>.json [results/analyzer.json]"""
import json
import os
import sys

run = json.load(open(sys.argv[1]))
ana_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(sys.argv[1]), "analyzer.json")
ana = json.load(open(ana_path)) if os.path.exists(ana_path) else {}
print("Python twins on %s, torch %s, %s, %d runs each (spin 1e8 cycles, 33 warm-up calls).\n"
      % (run["gpu"], run["torch"], run["cuda"], run["runs"]))
print("| case | variant | wrong/N plain | CSAN reports? | CSAN slowdown (process) | CSAN slowdown (timed loop) | streamsafe-py flags? |")
print("|---|---|---|---|---|---|---|")
for case in sorted(run["cases"]):
    for v in ("bug", "fixed"):
        r = run["cases"][case].get(v, {})
        p, c = r.get("plain", {}), r.get("csan", {})
        wrong = "%s/%s" % (p["wrong"], p["runs"]) if "wrong" in p else "error: " + p.get("error", "not run")
        if "csan_errors" in c:
            rep = "yes (%d/%d runs)" % (c["csan_errors"], c["runs"]) if c["csan_errors"] else "no"
        else:
            rep = "error: " + c.get("error", "not run")
        slow_p = "%.2fx" % (c["process_seconds"] / p["process_seconds"]) if "process_seconds" in c and "process_seconds" in p else "-"
        slow_l = "%.2fx" % (c["seconds"] / p["seconds"]) if "seconds" in c and "seconds" in p else "-"
        a = ana.get(case, {}).get(v)
        if a is None:
            flags = "not run"
        else:
            flags = "yes: " + ", ".join("line %s %s" % tuple(f.split(":")) for f in a["findings"]) if a["findings"] else "no"
            if not a["match"]:
                flags += " (MISMATCH with EXPECT)"
        print("| %s | %s | %s | %s | %s | %s | %s |" % (case, v, wrong, rep, slow_p, slow_l, flags))
