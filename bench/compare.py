#!/usr/bin/env python3
"""Compares two streamsafe drivers on the same files, in one run.

  bench/compare.py --before OLD/bin/streamsafe --after build/bin/streamsafe \\
      [--rounds 7] [--json out.json] FILE...

Runs the two drivers in turn on each file (A B A B ..., one uncounted pair
first), all streamsafe-* checks, with the LibTorch flags of the benchmark
(bench.py) and the test PCH for .cpp files when it exists. Reports, per file,
the median whole-process CPU seconds of each driver, the after/before ratio
of each pair (min / median / max), the median time the streamsafe checks
themselves took (clang-tidy's check profile), and the peak RSS. Both drivers
must report the same diagnostics on every file, or the comparison fails.
Used for the "cost on code without capture" of docs/performance.md.
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


def check_seconds(run):
    """CPU seconds spent in the streamsafe checks (clang-tidy's profile)."""
    return sum(t["cpu"] for name, t in (run["profile"] or {}).items()
               if name.startswith("streamsafe-"))


def diagnostics(run):
    return sorted(line for line in run["stdout"].splitlines()
                  if ": warning: " in line or ": note: " in line)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--before", required=True)
    p.add_argument("--after", required=True)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--json")
    p.add_argument("--pch", default=os.path.join(
        bench.ROOT, "build", "test", "pch", "libtorch-cxx.pch"))
    p.add_argument("--torch-include", default="/usr/include/torch/csrc/api/include")
    p.add_argument("--cuda-home", default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    p.add_argument("files", nargs="+")
    a = p.parse_args()
    pch = a.pch if os.path.exists(a.pch) else None
    drivers = {name: bench.Driver(os.path.abspath(path), a.torch_include,
                                  a.cuda_home, 600, pch)
               for name, path in (("before", a.before), ("after", a.after))}
    checks = "-*,streamsafe-*"
    results = []
    print("| file | before (CPU s) | after (CPU s) | after/before | checks before → after (ms) | peak MiB before → after |")
    print("|---|---|---|---|---|---|")
    for f in a.files:
        runs = {"before": [], "after": []}
        for i in range(a.rounds + 1):
            for name in ("before", "after"):
                r = drivers[name].run(checks, f, profile=True)
                if i:
                    runs[name].append(r)
        if diagnostics(runs["before"][0]) != diagnostics(runs["after"][0]):
            sys.exit(f"compare: {f}: the drivers report different diagnostics")
        cpu = {n: [r["cpu"] for r in rs] for n, rs in runs.items()}
        ratios = sorted(x / y for x, y in zip(cpu["after"], cpu["before"]))
        chk = {n: statistics.median(check_seconds(r) for r in rs) * 1000
               for n, rs in runs.items()}
        rss = {n: max(r["rss_kib"] for r in rs) / 1024 for n, rs in runs.items()}
        row = {
            "file": os.path.relpath(f, bench.ROOT),
            "before_cpu": statistics.median(cpu["before"]),
            "after_cpu": statistics.median(cpu["after"]),
            "ratio": [ratios[0], statistics.median(ratios), ratios[-1]],
            "checks_ms": [chk["before"], chk["after"]],
            "rss_mib": [rss["before"], rss["after"]],
            "runs": {n: [bench.strip(r) for r in rs] for n, rs in runs.items()},
        }
        results.append(row)
        print(f"| `{row['file']}` | {row['before_cpu']:.3f} | {row['after_cpu']:.3f} "
              f"| {ratios[0]:.2f} / {statistics.median(ratios):.2f} / {ratios[-1]:.2f} "
              f"| {chk['before']:.1f} → {chk['after']:.1f} "
              f"| {rss['before']:.0f} → {rss['after']:.0f} |", flush=True)
    if a.json:
        with open(a.json, "w") as out:
            json.dump({"before": a.before, "after": a.after, "rounds": a.rounds,
                       "pch": pch, "environment": bench.environment(drivers["after"]),
                       "files": results}, out, indent=1)
    for d in drivers.values():
        d.cleanup()


if __name__ == "__main__":
    main()
