#!/usr/bin/env python3
"""Runs streamsafe-py on every Python twin (no GPU needed) and checks that each
_bug file gets exactly its `# EXPECT: streamsafe-<check>` findings (line and
check) and each _fixed file none. Writes results/analyzer.json.
  integration/python/check_analyzer.py [PATH/TO/streamsafe-py] [--out FILE]
Exit 1 when a case does not match."""
import glob
import json
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
args = sys.argv[1:]
out = os.path.join(here, "results", "analyzer.json")
if "--out" in args:
    i = args.index("--out")
    out = args[i + 1]
    del args[i:i + 2]
tool = args[0] if args else "streamsafe-py"
warning = re.compile(r"^[^:]+:(\d+):\d+: warning: .* \[(streamsafe-[a-z-]+)\]$")
expect = re.compile(r"# EXPECT: (streamsafe-[a-z-]+(?:, streamsafe-[a-z-]+)*)")
results, ok = {}, True
for path in sorted(glob.glob(os.path.join(here, "cases", "*.py"))):
    name = os.path.basename(path)[:-3]
    case, variant = name.rsplit("_", 1)
    want = set()
    for no, line in enumerate(open(path), 1):
        m = expect.search(line)
        if m:
            want |= {(no, c) for c in m.group(1).split(", ")}
    # The cases import harness (integration/python): its code is seen, as a
    # project's own modules are (--project-root).
    p = subprocess.run([tool, "--quiet", "--project-root=" + here, path],
                       capture_output=True, text=True)
    got = {(int(m.group(1)), m.group(2))
           for m in map(warning.match, p.stdout.splitlines()) if m}
    match = got == want
    ok &= match
    results.setdefault(case, {})[variant] = {
        "rc": p.returncode, "findings": sorted("%d:%s" % g for g in got),
        "expected": sorted("%d:%s" % w for w in want), "match": match}
    print("%-45s rc=%d %s %s" % (name, p.returncode, "ok" if match else "MISMATCH",
                                 " ".join(sorted("%d:%s" % g for g in got))))
json.dump(results, open(out, "w"), indent=1)
sys.exit(0 if ok else 1)
