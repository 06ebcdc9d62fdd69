#!/usr/bin/env python3
"""Scores StreamSafe on real fixed stream bugs (bugs.json), in their trees.

For each entry, the repository's tree is laid out at the buggy and at the
fixed commit from a local git snapshot (Python: every .py file of the
project; C++: the entry's `compile.extract` folders, or the whole tree), and
the file is analysed inside it: `streamsafe-py --project-root TREE` for
Python, `streamsafe FILE -- <flags>` with the project's own include folders
and the PyTorch 2.x headers for C++ (the flags of realworld/run.py).

A bug is found when the buggy side has a finding of its check in its span or
an alternative span, found elsewhere when the finding of its check is on
another line of the file, and missed otherwise. It is cleared when the fixed
side has fewer findings of that check in the file than the buggy side. Every
finding that is not a marked bug (buggy side) and every finding on the fixed
side is listed with its verdict from verdicts.json, or as unjudged.

Prints recall per check, per language and per blocker category, and writes
results.json (the whole record; --out). Exit status: 0, or 2 when something
it needs is missing (it says what), or 1 when an analysis crashed.

It is a benchmark, not a test: it needs the git snapshots (--mirrors, as in
realworld/run.py: <owner>+<name>.git or <owner>+<name>/repo), and the C++
entries need realworld/.cache/torch-include.
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
REALWORLD = os.path.dirname(HERE)
ROOT = os.path.dirname(REALWORLD)
sys.path.insert(0, REALWORLD)
import run as corpus  # noqa: E402  (realworld/run.py: snapshots, C++ flags)

PY_WARNING = re.compile(
    r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): warning: (?P<msg>.*) "
    r"\[(?P<check>streamsafe-[\w-]+)\]$")
PY_ERROR = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): error: "
                      r"(?P<msg>.*)$")


def load_bugs(path):
    entries = json.load(open(path))
    for e in entries:
        for key in ("repo", "buggy_commit", "fix_commit", "path", "lang",
                    "bugs"):
            if key not in e:
                corpus.fail("%s: an entry of %s has no '%s'" %
                            (path, e.get("repo", "?"), key))
        for b in e["bugs"]:
            for key in ("check", "line", "span"):
                if key not in b:
                    corpus.fail("%s: a bug of %s %s has no '%s'" %
                                (path, e["repo"], e["path"], key))
    return entries


def submodule_commit(snapshot, commit, path):
    """The commit the superproject's tree pins for the submodule at path."""
    out = subprocess.run(["git", "--git-dir", snapshot, "ls-tree", commit,
                          path], capture_output=True, text=True).stdout.split()
    if len(out) < 3 or out[1] != "commit":
        corpus.fail("%s: no submodule at %s in %s" % (snapshot, path, commit))
    return out[2]


def tree_for(snapshot, commit, entry, trees, mirrors):
    """Lays out (once per repository and commit) the tree the file needs,
    with the submodules its entry names (`compile.submodules`: `path`,
    `repo`, `extract`) at the commits the superproject pins."""
    key = (snapshot, commit, entry["lang"])
    if key in trees:
        return trees[key]
    into = tempfile.mkdtemp(prefix="t-", dir=trees["_root"])
    if entry["lang"] == "py":
        paths = ["*.py"]
    else:
        paths = entry.get("compile", {}).get("extract") or ["."]
    corpus.extract(snapshot, commit, paths, into)
    for sub in entry.get("compile", {}).get("submodules", []):
        pinned = submodule_commit(snapshot, commit, sub["path"])
        corpus.extract(corpus.find_snapshot(sub["repo"], mirrors), pinned,
                       sub.get("extract") or ["."],
                       os.path.join(into, sub["path"]))
    trees[key] = into
    return into


def analyse_py(binary, tree, path):
    r = subprocess.run([binary, "--quiet", "--project-root=" + tree,
                        os.path.join(tree, path)],
                       capture_output=True, text=True)
    findings, errors = [], []
    for line in (r.stdout + r.stderr).splitlines():
        m = PY_WARNING.match(line)
        if m:
            findings.append(dict(line=int(m["line"]), col=int(m["col"]),
                                 check=m["check"], msg=m["msg"]))
            continue
        m = PY_ERROR.match(line)
        if m:
            errors.append(line)
    crashed = r.returncode not in (0, 1)
    return findings, errors, crashed, r.returncode


def analyse_cpp(binary, tree, entry, torch_inc, cuda):
    comp = dict(entry.get("compile", {}))
    comp["file"] = entry["path"]
    # A header analysed as the unit is C++ (clang takes .h for C).
    if entry["path"].endswith((".h", ".hpp", ".hh")) and \
            "-x" not in comp.get("flags", []):
        comp["flags"] = ["-x", "c++"] + comp.get("flags", [])
    flags = corpus.compile_flags(comp, tree, torch_inc, cuda,
                                 os.path.join(REALWORLD, "stubs"))
    # Code written for nvcc gives clang errors of its own, repeated in every
    # template instance; at clang's default limit (20) it stops parsing, and
    # later functions and instantiations are never seen.
    flags.append("-ferror-limit=0")
    main = os.path.join(tree, entry["path"])
    r = subprocess.run([binary, "--quiet", main, "--"] + flags,
                       capture_output=True, text=True)
    findings, errs, _ = corpus.parse_output(r.stdout + r.stderr, main)
    findings = [dict(line=f["line"], col=f["col"], check=f["check"],
                     msg=f["msg"]) for f in findings
                if os.path.abspath(f["file"]) == os.path.abspath(main)]
    errors = ["%s:%d: %s" % (e["file"], e["line"], e["msg"]) for e in errs]
    crashed = r.returncode not in (0, 1) or r.returncode < 0
    return findings, errors, crashed, r.returncode


def in_spans(line, bug):
    spans = [bug["span"]] + bug.get("alt_spans", [])
    return any(lo <= line <= hi for lo, hi in spans)


def score_entry(entry, buggy, fixed):
    """The verdict of each bug and the findings left over on either side."""
    marked = set()
    bugs = []
    for b in entry["bugs"]:
        hits = [f for f in buggy if f["check"] == b["check"]]
        inside = [f for f in hits if in_spans(f["line"], b)]
        n_fixed = sum(f["check"] == b["check"] for f in fixed)
        status = "found" if inside else ("elsewhere" if hits else "missed")
        for f in inside:
            marked.add((f["line"], f["check"], f["msg"]))
        bugs.append(dict(check=b["check"], line=b["line"], status=status,
                         cleared=len(hits) > n_fixed,
                         blockers=b.get("blockers", []),
                         found_at=[f["line"] for f in inside] or
                         [f["line"] for f in hits]))
    extra_buggy = [f for f in buggy
                   if (f["line"], f["check"], f["msg"]) not in marked]
    return bugs, extra_buggy


def verdict_of(verdicts, entry, side, f):
    key = "%s %s %s:%d %s" % (entry["repo"], side, entry["path"], f["line"],
                              f["check"])
    return verdicts.get(key, "unjudged"), key


def recall_table(rows, key):
    """rows: (groups, status); prints found/total per group."""
    tot, found = collections.Counter(), collections.Counter()
    for groups, status in rows:
        for g in groups:
            tot[g] += 1
            found[g] += status == "found"
    return {g: (found[g], tot[g]) for g in sorted(tot)}


def write_markdown(path, records, table):
    """The recall table and one row per bug, as docs/realworld.md has them."""
    with open(path, "w") as f:
        f.write("| group | found / bugs |\n|---|---|\n")
        for g, (found, total) in table.items():
            f.write("| %s | %d / %d |\n" % (g, found, total))
        f.write("\n| project | file:line | check | result | blockers |\n"
                "|---|---|---|---|---|\n")
        for rec in records:
            for b in rec["bugs"]:
                result = {"found": "**found**", "elsewhere": "found on "
                          "another line", "missed": "missed"}[b["status"]]
                if b["status"] != "missed":
                    result += ", cleared" if b["cleared"] else ", not cleared"
                f.write("| %s | `%s`:%d | %s | %s | %s |\n" % (
                    rec["repo"], rec["path"].split("/")[-1], b["line"],
                    b["check"].replace("streamsafe-", ""), result,
                    ", ".join(b["blockers"]) or "none"))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--bugs", default=os.path.join(HERE, "bugs.json"))
    ap.add_argument("--verdicts", default=os.path.join(HERE, "verdicts.json"))
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--mirrors", action="append", default=[],
                    help="folder of git snapshots (repeatable; default "
                    "realworld/.cache/repos and /work/.mirror)")
    ap.add_argument("--torch-include")
    ap.add_argument("--cuda-path",
                    default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    ap.add_argument("--lang", choices=["py", "cpp"])
    ap.add_argument("--only", help="entries whose repo or path contain this")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--out", default=os.path.join(HERE, "results.json"))
    ap.add_argument("--markdown", help="also write the per-bug table "
                    "(docs/realworld.md's) to this file")
    args = ap.parse_args()

    entries = load_bugs(args.bugs)
    if args.lang:
        entries = [e for e in entries if e["lang"] == args.lang]
    if args.only:
        entries = [e for e in entries
                   if args.only in e["repo"] or args.only in e["path"]]
    verdicts = {}
    if os.path.exists(args.verdicts):
        verdicts = json.load(open(args.verdicts))
    mirrors = args.mirrors or [os.path.join(REALWORLD, ".cache", "repos"),
                               "/work/.mirror"]
    py_bin = os.path.join(args.build, "bin", "streamsafe-py")
    cpp_bin = os.path.join(args.build, "bin", "streamsafe")
    langs = {e["lang"] for e in entries}
    for lang, b in (("py", py_bin), ("cpp", cpp_bin)):
        if lang in langs and not os.access(b, os.X_OK):
            corpus.fail("no %s: build first (scripts/build.sh)" % b)
    torch_inc = (corpus.find_torch_include(args.torch_include)
                 if "cpp" in langs else None)
    snapshots = {e["repo"]: corpus.find_snapshot(e["repo"], mirrors)
                 for e in entries}

    tmp = tempfile.mkdtemp(prefix="streamsafe-realbugs-")
    trees = {"_root": tmp}
    # Trees are laid out serially (git archive is I/O bound and shared
    # between entries of one commit); the analyses run in parallel.
    jobs = []
    for e in entries:
        for side, commit in (("buggy", e["buggy_commit"]),
                             ("fixed", e["fix_commit"])):
            tree = tree_for(snapshots[e["repo"]], commit, e, trees, mirrors)
            if not os.path.isfile(os.path.join(tree, e["path"])):
                corpus.fail("%s has no %s at %s" % (e["repo"], e["path"],
                                                    commit))
            jobs.append((e, side, tree))

    def work(job):
        e, side, tree = job
        t0 = time.monotonic()
        if e["lang"] == "py":
            res = analyse_py(py_bin, tree, e["path"])
        else:
            res = analyse_cpp(cpp_bin, tree, e, torch_inc, args.cuda_path)
        return job, res, time.monotonic() - t0

    with ThreadPoolExecutor(args.jobs) as pool:
        done = list(pool.map(work, jobs))
    shutil.rmtree(tmp, ignore_errors=True)

    per = {}
    seconds = collections.Counter()
    crashed = []
    for (e, side, _), (findings, errors, crash, rc), dt in done:
        per[(id(e), side)] = (findings, errors)
        seconds[e["lang"]] += dt
        if crash:
            crashed.append("%s %s %s (exit %d)" % (e["repo"], e["path"], side,
                                                   rc))

    records, rows, others = [], [], []
    for e in entries:
        buggy, berr = per[(id(e), "buggy")]
        fixed, ferr = per[(id(e), "fixed")]
        bugs, extra = score_entry(e, buggy, fixed)
        rec = dict(repo=e["repo"], path=e["path"], lang=e["lang"],
                   set=e.get("set", "dev"), bugs=bugs,
                   errors=dict(buggy=berr[:5], fixed=ferr[:5]))
        rec["other_findings"] = []
        for side, fs in (("buggy", extra), ("fixed", fixed)):
            for f in fs:
                v, key = verdict_of(verdicts, e, side, f)
                rec["other_findings"].append(dict(key=key, msg=f["msg"],
                                                  verdict=v))
                others.append((key, f["msg"], v))
        records.append(rec)
        for b in bugs:
            check = b["check"].replace("streamsafe-", "")
            groups_check = [check, "lang:" + e["lang"], "all"]
            rows.append((groups_check, b["status"]))
            rows.append((["blocker:" + c for c in b["blockers"]] or
                         ["blocker:none"], b["status"]))

    projects = {e["repo"] for e in entries}
    nbugs = sum(len(e["bugs"]) for e in entries)
    print("real bugs: %d in %d files of %d projects" % (
        nbugs, len(entries), len(projects)))
    table = recall_table(rows, None)
    print("\nrecall (found in span / bugs):")
    for g, (f, t) in table.items():
        print("  %-34s %3d / %-3d" % (g, f, t))
    print("\nper bug:")
    for rec in records:
        for b in rec["bugs"]:
            print("  %-9s %-8s %s %s:%d %s%s" % (
                b["status"], "cleared" if b["cleared"] else "-",
                rec["repo"], rec["path"], b["line"],
                b["check"].replace("streamsafe-", ""),
                " (at %s)" % b["found_at"] if b["found_at"] else ""))
    print("\nother findings (%d):" % len(others))
    for key, msg, v in others:
        print("  %s: %s\n      verdict: %s" % (key, msg, v))
    broken = [(rec, side, errs) for rec in records
              for side, errs in rec["errors"].items() if errs]
    if broken:
        # A file that does not parse is analysed in part at best: say so.
        print("\nerrors (the analysis of these sides is incomplete):")
        for rec, side, errs in broken:
            print("  %s %s %s: %s" % (rec["repo"], rec["path"], side, errs[0]))
    if crashed:
        print("\ncrashed:\n  " + "\n  ".join(crashed))
    print("\nanalysis time: " + ", ".join(
        "%s %.1f s" % kv for kv in sorted(seconds.items())))
    if args.markdown:
        write_markdown(args.markdown, records, table)
    summary = dict(bugs=nbugs, files=len(entries), projects=len(projects),
                   recall={g: list(v) for g, v in table.items()},
                   seconds={k: round(v, 1) for k, v in seconds.items()},
                   crashed=crashed)
    with open(args.out, "w") as f:
        json.dump(dict(summary=summary, entries=records), f, indent=1)
        f.write("\n")
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
