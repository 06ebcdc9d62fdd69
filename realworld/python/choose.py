#!/usr/bin/env python3
"""Lists the stream-using Python files of a repository at a commit.

The selection rule of the Python corpus (docs/realworld.md, "## Python"):
a `.py` file whose text matches run.py's STREAM_API at least MIN times
(default 2), ranked by that count, most first; library code before tests,
benchmarks and examples (a path with a component `test`, `tests`,
`testing`, `benchmark(s)`, `bench`, `example(s)`, `tutorial(s)`,
`docs` or a file name `test_*.py` / `*_test.py` is ranked after), ties
by path. Vendored copies (`third_party/`, `3rdparty/`, `_vendor/`,
`vendor/`) are left out.

  python3 realworld/python/choose.py --mirror /work/.mirror OWNER/NAME \
      [--commit SHA] [--min 2] [--max N] [--json]

prints `count path` lines (or a JSON list of paths with --json) from
`git ls-tree -r` and `git cat-file --batch` on the bare snapshot
(MIRROR/OWNER+NAME[/repo]); `--commit` defaults to the snapshot's HEAD,
whose full sha is printed first (to stderr). Standard library only.
"""

import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import STREAM_API, git_dir  # noqa: E402

SECONDARY = re.compile(
    r"(^|/)(tests?|testing|benchmarks?|bench|examples?|tutorials?|docs)/"
    r"|(^|/)test_[^/]*\.py$|_test\.py$")
VENDORED = re.compile(r"(^|/)(third_party|3rdparty|_vendor|vendor)/")


def candidates(gdir, commit, minimum):
    tree = subprocess.run(
        ["git", "--git-dir", gdir, "ls-tree", "-r", "--full-tree", commit],
        check=True, capture_output=True, text=True).stdout.splitlines()
    blobs = []
    for line in tree:
        meta, path = line.split("\t", 1)
        mode, kind, sha = meta.split()
        if kind == "blob" and path.endswith(".py") and \
                not VENDORED.search(path):
            blobs.append((sha, path))
    proc = subprocess.run(["git", "--git-dir", gdir, "cat-file", "--batch"],
                          input="".join(s + "\n" for s, _ in blobs).encode(),
                          check=True, capture_output=True).stdout
    out, pos = [], 0
    for sha, path in blobs:
        end = proc.index(b"\n", pos)
        size = int(proc[pos:end].split()[2])
        text = proc[end + 1:end + 1 + size].decode("utf-8", "replace")
        pos = end + 1 + size + 1
        n = len(STREAM_API.findall(text))
        if n >= minimum:
            out.append((bool(SECONDARY.search(path)), -n, path))
    out.sort()
    return [(-neg, path) for _, neg, path in out]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("repo")
    ap.add_argument("--mirror", default="/work/.mirror")
    ap.add_argument("--commit", default="HEAD")
    ap.add_argument("--min", type=int, default=2)
    ap.add_argument("--max", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    gdir = git_dir(args.mirror, args.repo)
    commit = subprocess.run(["git", "--git-dir", gdir, "rev-parse",
                             args.commit], check=True, capture_output=True,
                            text=True).stdout.strip()
    print(commit, file=sys.stderr)
    rows = candidates(gdir, commit, args.min)
    if args.max:
        rows = rows[:args.max]
    if args.json:
        print(json.dumps([p for _, p in rows], indent=1))
    else:
        for n, p in rows:
            print("%4d %s" % (n, p))


if __name__ == "__main__":
    main()
