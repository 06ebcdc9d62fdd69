#!/usr/bin/env python3
"""The CPU half of the integration suite: runs the analyzer on every case.

  check_analyzer.py --driver build/bin/streamsafe --flags "..." \
      --cuda-flags "..." [--json analyzer.json] integration/cases

--flags are the compiler flags of .cpp files, --cuda-flags the complete
flags of .cu files.

Each `<case>_bug` source marks the lines the analyzer must flag with a
trailing `// EXPECT: streamsafe-<check>`; each `<case>_fixed` source must
produce no warning at all. A bug file must produce exactly its expected
(line, check) pairs among the checks the driver has; an expectation of a
check the driver does not have yet is listed as pending, not failed.
Writes {"<case>": {"flags_bug": bool, "silent_on_fixed": bool}} for
make_table.py.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys

EXPECT_RE = re.compile(r"//\s*EXPECT:\s*(streamsafe-[a-z-]+)")
# A finding that needs analysis the engine does not have yet (named in the
# parentheses): listed as pending until the annotation becomes EXPECT.
PENDING_RE = re.compile(r"//\s*EXPECT-PENDING\(([^)]*)\):\s*(streamsafe-[a-z-]+)")
WARN_RE = re.compile(r"^(.*?):(\d+):\d+: warning: .*\[(streamsafe-[a-z-]+)(?:,[^\]]*)?\]$")


def expectations(path):
    found, pending = set(), []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            for m in EXPECT_RE.finditer(line):
                found.add((n, m.group(1)))
            for m in PENDING_RE.finditer(line):
                pending.append(f"{os.path.basename(path)}:{n}: {m.group(2)} (needs {m.group(1)})")
    return found, pending


def run(driver, path, flags):
    cmd = [driver, "--checks=-*,streamsafe-*", "--quiet", path, "--"] + flags
    p = subprocess.run(cmd, capture_output=True, text=True)
    warnings = set()
    for line in p.stdout.splitlines():
        m = WARN_RE.match(line)
        if m and os.path.samefile(m.group(1), path):
            warnings.add((int(m.group(2)), m.group(3)))
    return p.returncode, warnings, p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--driver", required=True)
    ap.add_argument("--flags", default="")
    ap.add_argument("--cuda-flags", default="")
    ap.add_argument("--json")
    ap.add_argument("cases")
    a = ap.parse_args()

    listed = subprocess.run([a.driver, "--checks=-*,streamsafe-*", "--list-checks"],
                            capture_output=True, text=True).stdout
    have = set(re.findall(r"streamsafe-[a-z-]+", listed))
    if not have:
        sys.exit("check_analyzer: the driver lists no streamsafe-* check")

    files = sorted(f for f in os.listdir(a.cases) if f.endswith((".cpp", ".cu")))
    def flags_for(f):
        flags = shlex.split(a.cuda_flags if f.endswith(".cu") else a.flags)
        # A case built with OpenMP (`// BUILD: openmp`, see CMakeLists.txt) is
        # parsed as such: _OPENMP, and the OpenMP declarations ATen needs
        # where this compiler ships no omp.h.
        with open(os.path.join(a.cases, f)) as src:
            if any(line.startswith("// BUILD: openmp") for line in src):
                shim = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "..", "test", "shim", "openmp")
                flags += ["-D_OPENMP=201511", "-isystem", shim]
        return flags
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = dict(zip(files, pool.map(
            lambda f: run(a.driver, os.path.join(a.cases, f), flags_for(f)), files)))

    failures, pending, table = [], [], {}
    for f in files:
        case, variant = re.match(r"(.*)_(bug|fixed)\.\w+$", f).groups()
        rc, got, log = results[f]
        want, later = expectations(os.path.join(a.cases, f))
        pending += later
        entry = table.setdefault(case, {})
        if variant == "fixed":
            entry["silent_on_fixed"] = not got
            if got:
                failures.append(f"{f}: expected no warning, got {sorted(got)}")
            continue
        due = {w for w in want if w[1] in have}
        pending += [f"{f}:{n}: {c} (check not implemented yet)" for n, c in sorted(want - due)]
        entry["flags_bug"] = bool(due) and due == got and not later
        if due != got:
            failures.append(f"{f}: expected {sorted(due)}, got {sorted(got)}\n{log}")
        if not want and not later:
            failures.append(f"{f}: has no EXPECT annotation")

    for p in pending:
        print("pending:", p)
    for f in failures:
        print("FAIL:", f)
    if a.json:
        with open(a.json, "w") as out:
            json.dump(table, out, indent=2, sort_keys=True)
    print(f"{len(files)} sources, {len(failures)} failures, {len(pending)} pending")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
