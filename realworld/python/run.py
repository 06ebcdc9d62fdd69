#!/usr/bin/env python3
"""Runs streamsafe-py on the Python real-code corpus (manifest.json).

Each file is extracted at its pinned commit from a bare git snapshot of
its repository (`git show COMMIT:PATH`) into a temporary tree and analysed
on its own. With --imports, every .py file of each project is extracted
too, so that helpers imported from the project's other modules run in
place (docs/python.md, "Helpers in other modules"). Records per file: exit code, wall time, lines, stream API uses
and the findings per check. Exits 1 when streamsafe-py crashed (a signal or
an exit code other than 0/1/2) or exited 2 on a file that Python itself
parses (a syntax error on valid Python); findings alone do not fail it.
Standard library only.
"""

import argparse
import ast
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
WARNING = re.compile(r"^(.*?):(\d+):(\d+): warning: (.*) \[(streamsafe-[\w-]+)\]$")
ERROR = re.compile(r"^(.*?):(\d+):(\d+): error: (.*)$")
# The stream API a file uses: what makes a module "stream-heavy".
STREAM_API = re.compile(
    r"wait_stream\(|record_stream\(|wait_event\(|cuda\.stream\(|"
    r"cuda\.Stream\(|cuda\.Event\(|\.record\(|set_stream\(|"
    r"current_stream\(|default_stream\(|\.synchronize\(|"
    r"non_blocking\s*=\s*True")


def git_dir(mirror, repo):
    base = os.path.join(mirror, repo.replace("/", "+"))
    inner = os.path.join(base, "repo")
    return inner if os.path.isdir(inner) else base


def extract(gdir, commit, path, dest):
    data = subprocess.run(["git", "--git-dir", gdir, "show",
                           "%s:%s" % (commit, path)],
                          check=True, capture_output=True).stdout
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, "wb") as f:
        f.write(data)
    return data.decode("utf-8", "replace")


def valid_python(text):
    try:
        ast.parse(text)
        return True
    except SyntaxError:
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--binary", default="/work/wt-py/build/bin/streamsafe-py")
    ap.add_argument("--mirror", default="/work/.mirror")
    ap.add_argument("--manifest", default=os.path.join(HERE, "manifest.json"))
    ap.add_argument("--out", default=os.path.join(HERE, "results.json"))
    ap.add_argument("--findings", default=os.path.join(HERE, "findings.txt"))
    ap.add_argument("--imports", action="store_true",
                    help="extract each project's .py files, so that "
                    "imports of its modules resolve")
    args = ap.parse_args()

    manifest = json.load(open(args.manifest))
    files, failures = [], []
    per_check = collections.Counter()
    total_time = 0.0
    with tempfile.TemporaryDirectory(prefix="streamsafe-py-rw-") as tmp:
        for proj in manifest["projects"]:
            gdir = git_dir(args.mirror, proj["repo"])
            if args.imports:
                tree = os.path.join(tmp, proj["name"])
                os.makedirs(tree, exist_ok=True)
                archive = subprocess.run(
                    ["git", "--git-dir", gdir, "archive", proj["commit"],
                     "--", "*.py"], check=True, capture_output=True).stdout
                subprocess.run(["tar", "-x", "-C", tree], input=archive,
                               check=True)
            for path in proj["files"]:
                rel = os.path.join(proj["name"], path)
                dest = os.path.join(tmp, rel)
                text = extract(gdir, proj["commit"], path, dest)
                t0 = time.monotonic()
                r = subprocess.run([args.binary, "--quiet", rel], cwd=tmp,
                                   capture_output=True, text=True)
                dt = time.monotonic() - t0
                total_time += dt
                findings, errors = [], []
                for line in (r.stdout + r.stderr).splitlines():
                    m = WARNING.match(line)
                    if m:
                        findings.append({"line": int(m.group(2)),
                                         "col": int(m.group(3)),
                                         "check": m.group(5),
                                         "message": m.group(4)})
                        per_check[m.group(5)] += 1
                        continue
                    m = ERROR.match(line)
                    if m:
                        errors.append(line)
                rec = {"project": proj["name"], "path": path,
                       "exit": r.returncode, "seconds": round(dt, 3),
                       "lines": text.count("\n"),
                       "stream_api_uses": len(STREAM_API.findall(text)),
                       "findings": findings, "errors": errors,
                       "output": r.stdout}
                crashed = r.returncode not in (0, 1, 2)
                bad_syntax = r.returncode == 2 and valid_python(text)
                if crashed or bad_syntax:
                    rec["failure"] = "crash" if crashed else \
                        "exit 2 on valid Python"
                    rec["stderr"] = r.stderr[-2000:]
                    failures.append(rec)
                files.append(rec)
                print("%-4s %6.3fs %3d findings  %s" % (
                    r.returncode, dt, len(findings), rel), file=sys.stderr)

    summary = {
        "files": len(files),
        "projects": len(manifest["projects"]),
        "lines": sum(f["lines"] for f in files),
        "stream_api_uses": sum(f["stream_api_uses"] for f in files),
        "findings": sum(len(f["findings"]) for f in files),
        "findings_per_check": dict(sorted(per_check.items())),
        "exit_codes": dict(collections.Counter(
            str(f["exit"]) for f in files)),
        "failures": [{"path": f["project"] + "/" + f["path"],
                      "failure": f["failure"]} for f in failures],
        "total_seconds": round(total_time, 2),
        "max_seconds": max((f["seconds"] for f in files), default=0),
    }
    with open(args.out, "w") as f:
        json.dump({"summary": summary, "files": files}, f, indent=1)
        f.write("\n")
    with open(args.findings, "w") as f:
        for rec in files:
            f.write(rec["output"])
    print(json.dumps(summary, indent=1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
