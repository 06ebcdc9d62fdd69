#!/usr/bin/env python3
"""What the stream operands of the Python corpus are (docs/realworld.md,
section Python, "Why so few findings").

For every def of the corpus files (manifest.json, at their commits, parsed
with CPython's ast), classifies the stream operand of each
`<x>.cuda.stream(X)`, `X.wait_stream(...)`,
`X.wait_event(...)` and `t.record_stream(X)`: a stream streamsafe-py
follows (a torch API call, a local assigned only from torch API calls), an
annotated parameter (a stream that may be the current one) or not (attributes, subscripts, project calls, locals
assigned from those, unannotated parameters). Standard library only.
"""

import argparse
import ast
import collections
import json
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
FOLLOWED = {"torch API call", "local from torch API"}
# A parameter annotated as a stream is a stream to streamsafe-py, but one
# that may be the caller's current stream, so no race is reported on it.
MAY_BE_CURRENT = {"parameter, annotated"}


def classify(e, params, assigns):
    if isinstance(e, ast.Name):
        if e.id in params:
            return ("parameter, annotated" if params[e.id] is not None
                    else "parameter, unannotated")
        if e.id in assigns:
            src = [ast.unparse(v) for v in assigns[e.id]]
            return ("local from torch API"
                    if all(s.startswith("torch.") for s in src)
                    else "local from attr/container/project call")
        return "other name"
    if isinstance(e, ast.Call):
        return ("torch API call" if ast.unparse(e.func).startswith("torch.")
                else "project/other call")
    if (isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name)
            and e.value.id == "self"):
        return "self.attr"
    if isinstance(e, ast.Subscript):
        return "subscript"
    return "other expr"


def operands(fn):
    params = {a.arg: a.annotation
              for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
    assigns = collections.defaultdict(list)
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Name):
                    assigns[t.id].append(n.value)
    for n in ast.walk(fn):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)):
            continue
        a = n.func.attr
        if a in ("wait_stream", "wait_event"):
            yield classify(n.func.value, params, assigns)
        elif a == "record_stream" and n.args:
            yield classify(n.args[0], params, assigns)
        elif (a == "stream" and n.args
              and ast.unparse(n.func).endswith("cuda.stream")):
            yield classify(n.args[0], params, assigns)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mirror", default="/work/.mirror")
    ap.add_argument("--manifest", default=os.path.join(HERE, "manifest.json"))
    args = ap.parse_args()
    counts = collections.Counter()
    for proj in json.load(open(args.manifest))["projects"]:
        base = os.path.join(args.mirror, proj["repo"].replace("/", "+"))
        gdir = os.path.join(base, "repo") if os.path.isdir(
            os.path.join(base, "repo")) else base
        for path in proj["files"]:
            text = subprocess.run(
                ["git", "--git-dir", gdir, "show",
                 "%s:%s" % (proj["commit"], path)],
                check=True, capture_output=True, text=True).stdout
            try:
                tree = ast.parse(text)
            except SyntaxError:
                continue
            for fn in ast.walk(tree):
                if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    counts.update(operands(fn))
    total = sum(counts.values())
    followed = sum(v for k, v in counts.items() if k in FOLLOWED)
    maybe = sum(v for k, v in counts.items() if k in MAY_BE_CURRENT)
    print("%d stream operands in defs; %d followed, %d annotated parameters"
          " (may be the current stream), %d not followed" %
          (total, followed, maybe, total - followed - maybe))
    for k, v in counts.most_common():
        print("%5d  %s%s" % (v, k, "  (followed)" if k in FOLLOWED else
                             "  (may be current)" if k in MAY_BE_CURRENT
                             else ""))


if __name__ == "__main__":
    main()
