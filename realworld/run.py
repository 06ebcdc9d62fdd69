#!/usr/bin/env python3
"""Runs StreamSafe on the real-code corpus of realworld/manifest.json.

The corpus is public LibTorch/CUDA code, pinned by commit; no third-party
source is committed. Each run extracts the files from git snapshots of the
projects into a temporary folder, checks that every translation unit parses
(a parse error is a bug of the corpus, reported and counted as a failure,
never skipped), runs build/bin/streamsafe with all checks and prints the
findings per check. docs/realworld.md triages every finding.

Modes:
  run.py                 the corpus: findings per check, exit 1 on a parse error
  run.py --pairs         fixed-bug pairs: the buggy side must be flagged on a
                         line its fix changed, the fixed side must be silent
  run.py --profile       adds --enable-check-profile: time per check, the
                         analysis share of total time, peak memory per TU,
                         the slowest functions (DebugTimeFunctions), the
                         functions given up on (budget)

What it needs (it says so when something is missing):
  - PyTorch 2.x headers (torch/include of a pip-installed torch), found at
    realworld/.cache/torch-include or --torch-include. Get them with
      python3 -c 'import torch,os;print(os.path.dirname(torch.__file__))'
    and copy (or untar) its include/ folder there.
  - the git snapshots: a bare clone per repository under
    realworld/.cache/repos/<owner>+<name>.git (or --mirrors DIR, which may
    hold <owner>+<name>/repo as well); the message names the clone command.
  - CUDA headers at /usr/local/cuda (or --cuda-path).
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WARNING = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): "
    r"(?P<sev>warning|error|note): (?P<msg>.*?)(?: \[(?P<check>[\w\-.,]+)\])?$"
)
SKIPPED = re.compile(r"^streamsafe: skipped '(?P<fn>[^']+)': (?P<why>.*)$")
TIMED = re.compile(r"^streamsafe: analysed '(?P<fn>[^']+)' in (?P<ms>[\d.]+) ms"
                   r" \((?P<what>.*)\)$")
# In --profile mode, functions whose analysis takes at least this long are
# timed by the analyzer (its hidden DebugTimeFunctions option).
TIME_FUNCTIONS_MS = 20
# The stream APIs counted for the corpus size: stream getters and guards,
# events, stream-ordered runtime calls, launches with a stream argument.
STREAM_API = re.compile(
    r"getCurrentCUDAStream|getDefaultCUDAStream|getStreamFromPool|"
    r"CUDAStreamGuard|setCurrentCUDAStream|record_stream|recordStream|"
    r"CUDAEvent|cudaEventRecord|cudaStreamWaitEvent|cudaStreamSynchronize|"
    r"cudaMemcpy\w*|cudaMemset\w*|<<<[^>]*,[^>]*,[^>]*,[^>]*>>>|"
    r"aoti_torch_get_current_cuda_stream"
)


def fail(msg):
    print("realworld: " + msg, file=sys.stderr)
    sys.exit(2)


def find_torch_include(arg):
    for d in [arg, os.path.join(HERE, ".cache", "torch-include")]:
        if d and os.path.isfile(os.path.join(d, "ATen", "ATen.h")):
            return d
    fail(
        "no PyTorch 2.x headers. Put torch/include of a pip-installed torch "
        "(2.11 was used) at realworld/.cache/torch-include, e.g.\n"
        "  d=$(python3 -c 'import torch,os;print(os.path.dirname(torch.__file__))')\n"
        "  cp -r $d/include realworld/.cache/torch-include\n"
        "or pass --torch-include DIR."
    )


def find_snapshot(repo, mirrors):
    key = repo.replace("/", "+")
    for m in mirrors:
        for d in [os.path.join(m, key + ".git"), os.path.join(m, key, "repo"),
                  os.path.join(m, key)]:
            if os.path.isfile(os.path.join(d, "HEAD")):
                return d
    fail(
        "no git snapshot of {r}. Clone it:\n  git clone --bare "
        "https://github.com/{r} realworld/.cache/repos/{k}.git".format(
            r=repo, k=key)
    )


def extract(snapshot, commit, paths, into):
    """Extracts `paths` of `commit` into `into` (git archive | tar)."""
    os.makedirs(into, exist_ok=True)
    archive = subprocess.Popen(
        ["git", "--git-dir", snapshot, "archive", "--format=tar", commit,
         "--"] + paths, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    tar = subprocess.run(["tar", "-x", "-C", into], stdin=archive.stdout,
                         stderr=subprocess.PIPE)
    archive.stdout.close()
    err = archive.stderr.read().decode()
    if archive.wait() != 0 or tar.returncode != 0:
        fail("cannot extract {} {} {}: {}".format(snapshot, commit, paths, err))


def python_include():
    for d in [sysconfig.get_paths().get("include", "")] + sorted(
            glob.glob("/usr/include/python3*"), reverse=True):
        if d and os.path.isfile(os.path.join(d, "Python.h")):
            return d
    fail("no Python.h (apt-get install python3-dev): torch/extension.h "
         "needs it")


def compile_flags(unit, src_root, torch_inc, cuda, stubs):
    # The flags torch.utils.cpp_extension gives every extension.
    flags = ["-std=" + unit.get("std", "c++17"), "-w",
             "-DTORCH_EXTENSION_NAME=streamsafe_corpus",
             "-DTORCH_API_INCLUDE_EXTENSION_H"]
    if unit["file"].endswith((".cu", ".cuh")):
        flags += ["-x", "cuda", "--cuda-host-only", "--cuda-path=" + cuda,
                  "-I" + cuda + "/include/cccl", "-Wno-unknown-cuda-version",
                  "-D__CUDA_NO_HALF_OPERATORS__",
                  "-D__CUDA_NO_HALF_CONVERSIONS__",
                  "-D__CUDA_NO_BFLOAT16_CONVERSIONS__",
                  "-D__CUDA_NO_HALF2_OPERATORS__",
                  "-include", os.path.join(stubs, "cuda-host-minmax",
                                           "streamsafe_host_minmax.h")]
    # LibTorch and CUDA are system headers: their macros' bodies are not
    # the project's code (default-stream-launch's macro rule).
    flags += ["-isystem", torch_inc,
              "-isystem", os.path.join(torch_inc, "torch", "csrc", "api",
                                       "include"),
              "-isystem", cuda + "/include"]
    # torch/extension.h includes Python.h.
    flags += ["-isystem", python_include()]
    for s in unit.get("stubs", []):
        flags += ["-isystem", os.path.join(stubs, s)]
    for inc in unit.get("include", []):
        flags += ["-I", os.path.join(src_root, inc)]
    flags += ["-D" + d for d in unit.get("defines", [])]
    flags += unit.get("flags", [])
    return flags


def parse_output(text, main_file):
    findings, errors, notes = [], [], []
    for line in text.splitlines():
        m = WARNING.match(line)
        if not m:
            continue
        rec = dict(file=m["file"], line=int(m["line"]), col=int(m["col"]),
                   msg=m["msg"], check=m["check"] or "")
        if m["sev"] == "error":
            errors.append(rec)
        elif m["sev"] == "warning" and rec["check"].startswith("streamsafe-"):
            findings.append(rec)
        elif m["sev"] == "note":
            notes.append(rec)
    return findings, errors, notes


PROFILE_ROW = re.compile(
    r"^\s*(?P<user>[\d.]+)\s*\(\s*[\d.]+%\)\s+(?P<sys>[\d.]+)\s*\(\s*[\d.]+%\)"
    r"\s+(?P<us>[\d.]+)\s*\(\s*[\d.]+%\)\s+(?P<wall>[\d.]+)\s*\(\s*[\d.]+%\)"
    r"\s+(?P<name>\S+)")


def check_time(text):
    """Seconds of our checks in clang-tidy's --enable-check-profile table."""
    total = 0.0
    per = {}
    for line in text.splitlines():
        m = PROFILE_ROW.match(line)
        if m and m["name"].startswith("streamsafe-"):
            per[m["name"]] = float(m["wall"])
            total += float(m["wall"])
    return total, per


class Measured:
    """Runs one command and keeps its wall time and peak RSS (wait4)."""

    @staticmethod
    def run(cmd):
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        return (proc.returncode, out.decode(errors="replace"),
                time.monotonic() - start, usage.ru_maxrss / 1024.0,
                usage.ru_utime + usage.ru_stime)


def analyse_unit(task):
    (binary, path, flags, profile, config) = task
    cmd = [binary, "--checks=-*,streamsafe-*", "--quiet"]
    if profile and not config:
        config = "{CheckOptions: {DebugTimeFunctions: %d}}" % TIME_FUNCTIONS_MS
    if config:
        cmd.append("--config=" + config)
    if profile:
        cmd.append("--enable-check-profile")
    cmd += [path, "--"] + flags
    rc, out, wall, rss_mb, cpu = Measured.run(cmd)
    return dict(rc=rc, out=out, wall=wall, rss_mb=rss_mb, cpu=cpu)


def prepare(manifest, args):
    torch_inc = find_torch_include(args.torch_include)
    mirrors = args.mirrors or [os.path.join(HERE, ".cache", "repos"),
                               "/work/.mirror"]
    return torch_inc, mirrors


def corpus(manifest, args):
    torch_inc, mirrors = prepare(manifest, args)
    stubs = os.path.join(HERE, "stubs")
    tmp = tempfile.mkdtemp(prefix="streamsafe-realworld-")
    tasks, units = [], []
    for proj in manifest["projects"]:
        snap = find_snapshot(proj["repo"], mirrors)
        root = os.path.join(tmp, proj["name"])
        extract(snap, proj["commit"], proj["extract"], root)
        for f in proj["files"]:
            unit = dict(proj, **f) if isinstance(f, dict) else dict(proj, file=f)
            if args.only and args.only not in proj["name"] + "/" + unit["file"]:
                continue
            path = os.path.join(root, unit["file"])
            with open(path, errors="replace") as fh:
                api_calls = len(STREAM_API.findall(fh.read()))
            flags = compile_flags(unit, root, torch_inc, args.cuda_path, stubs)
            units.append(dict(project=proj["name"], file=unit["file"],
                              path=path, root=root, api_calls=api_calls))
            tasks.append((args.streamsafe, path, flags, args.profile,
                          args.config))
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(analyse_unit, tasks))

    per_check = Counter()
    parse_errors = 0
    total_wall = total_check = 0.0
    prof_rows, skipped, report, timed = [], [], [], []
    for u, r in zip(units, results):
        findings, errors, notes = parse_output(r["out"], u["path"])
        rel = lambda p: os.path.relpath(p, u["root"]) if p.startswith(
            u["root"]) else p
        if errors or r["rc"] not in (0, 1):
            parse_errors += 1
            print("PARSE ERROR {}/{} (rc {}):".format(u["project"], u["file"],
                                                      r["rc"]))
            for e in errors[:5]:
                print("    {}:{}: {}".format(rel(e["file"]), e["line"],
                                             e["msg"]))
        for f in findings:
            per_check[f["check"]] += 1
            report.append("{}/{}:{}:{}: {} [{}]".format(
                u["project"], rel(f["file"]), f["line"], f["col"], f["msg"],
                f["check"]))
        for line in r["out"].splitlines():
            m = SKIPPED.match(line)
            if m:
                skipped.append("{}/{}: {}: {}".format(
                    u["project"], u["file"], m["fn"], m["why"]))
            m = TIMED.match(line)
            if m:
                timed.append((float(m["ms"]), "{}/{}: {} ({})".format(
                    u["project"], u["file"], m["fn"], m["what"])))
        t, _ = check_time(r["out"])
        total_wall += r["wall"]
        total_check += t
        prof_rows.append((r["wall"], t, r["rss_mb"], u))
    print("\n== findings ({} TUs, {} projects, {} stream API calls) ==".format(
        len(units), len({u["project"] for u in units}),
        sum(u["api_calls"] for u in units)))
    for line in sorted(report):
        print(line)
    print("\n== findings per check ==")
    for check, n in sorted(per_check.items()):
        print("{:45} {}".format(check, n))
    print("{:45} {}".format("total", sum(per_check.values())))
    if args.profile:
        print("\n== profile ==")
        print("total wall {:.1f} s, our checks {:.2f} s: analysis share "
              "{:.2f} %".format(total_wall, total_check,
                                100 * total_check / max(total_wall, 1e-9)))
        print("slowest TUs (wall s, checks s, checks/total, peak MiB):")
        for wall, t, rss, u in sorted(prof_rows, key=lambda x: -x[0])[:5]:
            print("  {:6.1f} {:6.2f} {:6.2f}% {:7.0f}  {}/{}".format(
                wall, t, 100 * t / wall, rss, u["project"], u["file"]))
        print("worst analysis/total ratio:")
        for wall, t, rss, u in sorted(prof_rows,
                                      key=lambda x: -x[1] / x[0])[:5]:
            print("  {:6.2f}%  {}/{}".format(100 * t / wall, u["project"],
                                             u["file"]))
        print("slowest functions (analysis ms; those over {} ms: {}):".format(
            TIME_FUNCTIONS_MS, len(timed)))
        for ms, what in sorted(timed, reverse=True)[:10]:
            print("  {:8.1f}  {}".format(ms, what))
        print("peak memory: {:.0f} MiB ({})".format(
            *max(((x[2], x[3]["project"] + "/" + x[3]["file"])
                  for x in prof_rows), default=(0, "-"))))
        print("functions given up on (budget): {}".format(len(skipped)))
        for s in skipped:
            print("  " + s)
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        print("sources kept in " + tmp)
    if parse_errors:
        print("\n{} TU(s) do not parse: fix the manifest".format(parse_errors))
        return 1
    return 0


def changed_lines(snap, buggy, fixed, path):
    """Lines of the buggy file that the fix removed or changed."""
    diff = subprocess.run(
        ["git", "--git-dir", snap, "diff", "-U0", buggy, fixed, "--", path],
        stdout=subprocess.PIPE, check=True).stdout.decode(errors="replace")
    lines = set()
    for m in re.finditer(r"^@@ -(\d+)(?:,(\d+))? \+", diff, re.M):
        start, count = int(m[1]), int(m[2] or 1)
        # A pure insertion (count 0) changes the code around line `start`.
        lines.update(range(start, start + max(count, 1)))
    return lines


def pairs(manifest, args):
    torch_inc, mirrors = prepare(manifest, args)
    stubs = os.path.join(HERE, "stubs")
    tmp = tempfile.mkdtemp(prefix="streamsafe-pairs-")
    hits = Counter()
    total = Counter()
    failures = 0
    for p in manifest["pairs"]:
        if args.only and args.only not in p["name"]:
            continue
        snap = find_snapshot(p["repo"], mirrors)
        check = p["check"]
        total[check] += 1
        sides = {}
        for side in ("buggy", "fixed"):
            root = os.path.join(tmp, p["name"], side)
            extract(snap, p[side], p["extract"], root)
            path = os.path.join(root, p["file"] if side == "buggy" else
                                p.get("fixed_file", p["file"]))
            flags = compile_flags(p, root, torch_inc, args.cuda_path, stubs)
            r = analyse_unit((args.streamsafe, path, flags, False,
                              args.config))
            findings, errors, notes = parse_output(r["out"], path)
            if errors:
                print("PARSE ERROR {} ({}): {}".format(p["name"], side,
                                                       errors[0]["msg"]))
                failures += 1
            main = [f for f in findings + notes
                    if os.path.realpath(f["file"]) == os.path.realpath(path)]
            sides[side] = (findings, main)
        changed = changed_lines(snap, p["buggy"], p["fixed"], p["file"])
        buggy_f, buggy_lines = sides["buggy"]
        # A warning (or its note, e.g. the macro body) on a changed line.
        flagged = any(f["line"] in changed for f in buggy_lines
                      if f.get("check", check) in (check, ""))
        fixed_silent = not [f for f in sides["fixed"][0]
                            if f["check"] == check]
        ok = flagged and fixed_silent
        hits[check] += flagged
        print("{:4} {}: buggy {} ({} findings), fixed {}".format(
            "ok" if ok else "MISS", p["name"],
            "flagged" if flagged else "not flagged", len(buggy_f),
            "silent" if fixed_silent else "still flagged"))
        if not fixed_silent:
            failures += 1
    print("\n== recall per check ==")
    for check in sorted(total):
        print("{:45} {}/{}".format(check, hits[check], total[check]))
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--manifest", default=os.path.join(HERE, "manifest.json"))
    ap.add_argument("--streamsafe",
                    default=os.path.join(ROOT, "build", "bin", "streamsafe"))
    ap.add_argument("--torch-include")
    ap.add_argument("--cuda-path", default="/usr/local/cuda")
    ap.add_argument("--mirrors", action="append",
                    help="folder of git snapshots (repeatable)")
    ap.add_argument("--pairs", action="store_true",
                    help="check the fixed-bug pairs instead of the corpus")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--config", help="--config for streamsafe")
    ap.add_argument("--only", help="TUs (project/file) or pairs (name) that "
                    "contain this")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--keep", action="store_true",
                    help="keep the extracted sources")
    args = ap.parse_args()
    if not os.access(args.streamsafe, os.X_OK):
        fail("no analyzer at {} (scripts/build.sh)".format(args.streamsafe))
    with open(args.manifest) as fh:
        manifest = json.load(fh)
    sys.exit(pairs(manifest, args) if args.pairs else corpus(manifest, args))


if __name__ == "__main__":
    main()
