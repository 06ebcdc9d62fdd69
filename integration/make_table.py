#!/usr/bin/env python3
"""Renders the integration results table (docs/integration.md).

  make_table.py GPU.json [--analyzer ANALYZER.json] [--sanitizer-from OLD.json]
                [--doc docs/integration.md]

GPU.json is written by run_gpu.sh. ANALYZER.json comes from the CPU-side test
suite: {"<case>": {"flags_bug": bool, "silent_on_fixed": bool}, ...}. Without
it the analyzer columns read "see test suite". With --doc the table replaces
the text between <!-- results:begin --> and <!-- results:end --> in that file;
otherwise it is printed. --sanitizer-from takes the compute-sanitizer column of
cases GPU.json ran without the sanitizer from an earlier run (marked with its
date).
"""
import argparse
import json
import re


def runs(r):
    if r is None:
        return "not run"
    if "error" in r:
        return "error: " + r["error"][:60]
    return f"{r['corrupted']}/{r['runs']}"


def sanitizer(s):
    if not s:
        return "not run"

    def one(x):
        if x is None:
            return "not run"
        if x["errors"] is None:
            return f"no summary (exit {x['rc']})"
        return f"reported ({x['errors']} errors)" if x["errors"] else "clean"

    text = one(s.get("bug"))
    return text + (f"; fixed: {one(s['fixed'])}" if "fixed" in s else "")


def yes_no(v):
    return "see test suite" if v is None else ("yes" if v else "**no**")


def table(gpu, analyzer):
    out = [
        f"{gpu['gpu']}, PyTorch {gpu['torch']}, {gpu['cuda']}, {gpu['date']}; "
        f"{gpu['runs']} runs per program.",
        "",
        "| case | analyzer flags bug? | analyzer silent on fix? | bug corrupted runs "
        "| fixed corrupted runs | compute-sanitizer on bug |",
        "|---|---|---|---|---|---|",
    ]
    for name, c in sorted(gpu["cases"].items()):
        a = analyzer.get(name, {})
        out.append(
            f"| `{name}` | {yes_no(a.get('flags_bug'))} | {yes_no(a.get('silent_on_fixed'))} "
            f"| {runs(c.get('bug'))} | {runs(c.get('fixed'))} | "
            f"{sanitizer(c.get('sanitizer')) if 'sanitizer' in c else '—'}"
            f"{' (' + c['sanitizer_date'] + ')' if 'sanitizer_date' in c else ''} |"
        )
    return "\n".join(out) + "\n"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("gpu")
    p.add_argument("--analyzer")
    p.add_argument("--doc")
    p.add_argument("--sanitizer-from")
    args = p.parse_args()
    gpu = json.load(open(args.gpu))
    if args.sanitizer_from:
        old = json.load(open(args.sanitizer_from))
        for name, c in gpu["cases"].items():
            s = old["cases"].get(name, {}).get("sanitizer")
            if s and "sanitizer" not in c:
                c["sanitizer"] = s
                c["sanitizer_date"] = old["date"]
    analyzer = json.load(open(args.analyzer)) if args.analyzer else {}
    text = table(gpu, analyzer)
    if not args.doc:
        print(text, end="")
        return
    doc = open(args.doc).read()
    new, n = re.subn(
        r"(<!-- results:begin -->\n).*?(<!-- results:end -->)",
        lambda m: m.group(1) + text + m.group(2),
        doc,
        flags=re.S,
    )
    if n != 1:
        raise SystemExit(f"{args.doc}: no results markers")
    open(args.doc, "w").write(new)


if __name__ == "__main__":
    main()
