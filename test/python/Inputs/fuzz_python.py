#!/usr/bin/env python3
"""Fuzzes streamsafe-py (the Python front end) for crashes and hangs.

usage: fuzz_python.py --binary streamsafe-py [--seed N] [--count N]
           [--duration SECONDS] [--timeout SECONDS] [--seeds DIR ...]
           [--manifest realworld/python/manifest.json --mirror /work/.mirror]
           [--mirror-extra N] [--out DIR] [--only INDEX]

Each input is made either by mutating a seed file (lines and blocks
deleted, duplicated, swapped, shuffled, re-indented, spliced from another
seed; random tokens and stream-API calls inserted; truncated at a random
byte; wrapped in deep if/for/with/def nesting; very long functions, huge
expressions, odd bytes and non-UTF-8, an empty file, CRLF, a BOM), or by a
grammar-based generator of random valid PyTorch stream programs (classes
with self.* streams, torch.cuda.stream blocks, wait_stream, record_stream,
events, threads, loops, try/finally, closures, comprehensions, lambdas,
async defs, decorators, match statements, walrus, starred expressions).
Every input is analysed by streamsafe-py with a bounded time (--timeout).

Failures:
  crash     a signal, or an exit code other than 0, 1 and 2
  hang      the run took longer than --timeout (it is killed)
  abort     stderr holds "Stack dump", "Assertion", "LLVM ERROR",
            "terminate called", "UNREACHABLE" or a sanitizer report
  rejected  exit 2 on a file that CPython's ast.parse accepts: valid Python
            the grammar does not parse (may be a known grammar limit,
            docs/python.md "Limits"); reported apart and fails the run only
            with --fail-on-rejected
Each failing input is saved under --out with the command that reproduces
it (failures.txt). "skipped ... budget" lines (a scope given up on) are
counted, not failures.

The run is deterministic for a given --seed, seed set and --count: input
number I is made from random.Random("SEED:I") alone, so `--only I`
regenerates it. --duration stops early (the inputs made are the same
prefix). Seeds: --seeds directories (*.py, sorted), and with --manifest
the real files of realworld/python/manifest.json extracted from the git
snapshots under --mirror (`git show COMMIT:PATH`), plus --mirror-extra
random *.py files of each snapshot's HEAD; a missing mirror is skipped
(the fuzz runs offline on the repository's own seeds). Standard library
only. Exit status: 0 no failure, 1 failures, 2 misuse.
"""

import argparse
import ast
import json
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
import time
import warnings

ABORT = re.compile(r"Stack dump|Assertion|LLVM ERROR|terminate called|"
                   r"UNREACHABLE|AddressSanitizer|UndefinedBehaviorSanitizer|"
                   r"runtime error:")
SKIPPED = re.compile(r"skipped.*budget")

# ---------------------------------------------------------------- seeds


def load_seed_dirs(dirs):
    seeds = []
    for d in dirs:
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            full = os.path.join(d, name)
            # Not this script: the seed set stays the same when it changes.
            if name.endswith(".py") and not os.path.samefile(full, __file__):
                with open(os.path.join(d, name), "rb") as f:
                    seeds.append((os.path.join(d, name), f.read()))
    return seeds


def git_dir(mirror, repo):
    base = os.path.join(mirror, repo.replace("/", "+"))
    inner = os.path.join(base, "repo")
    return inner if os.path.isdir(inner) else base


def git(gdir, *args):
    r = subprocess.run(["git", "--git-dir", gdir] + list(args),
                       capture_output=True)
    return r.stdout if r.returncode == 0 else None


def load_mirror_seeds(manifest, mirror, extra, seed):
    """The manifest's real files, and `extra` random *.py files of each
    snapshot's HEAD; what is missing is skipped."""
    seeds = []
    if not manifest or not os.path.exists(manifest) or not os.path.isdir(mirror):
        return seeds
    with open(manifest) as f:
        projects = json.load(f)["projects"]
    for proj in projects:
        gdir = git_dir(mirror, proj["repo"])
        if not os.path.isdir(gdir):
            continue
        for path in proj["files"]:
            data = git(gdir, "show", "%s:%s" % (proj["commit"], path))
            if data is not None:
                seeds.append(("%s@%s:%s" % (proj["repo"], proj["commit"][:12], path), data))
        if extra:
            listing = git(gdir, "ls-tree", "-r", "--name-only", "HEAD")
            if not listing:
                continue
            names = sorted(n for n in listing.decode("utf-8", "replace").splitlines()
                           if n.endswith(".py"))
            rng = random.Random("%s:%s" % (seed, proj["repo"]))
            for path in rng.sample(names, min(extra, len(names))):
                data = git(gdir, "show", "HEAD:" + path)
                if data is not None and len(data) < 400000:
                    seeds.append(("%s@HEAD:%s" % (proj["repo"], path), data))
    return seeds

# ------------------------------------------------------------ mutations

STREAM_SNIPPETS = [
    "s = torch.cuda.Stream()",
    "s2 = torch.cuda.Stream(priority=-1)",
    "torch.cuda.current_stream().wait_stream(s)",
    "s.wait_stream(torch.cuda.current_stream())",
    "x.record_stream(s)",
    "x.record_stream(torch.cuda.current_stream())",
    "e = torch.cuda.Event()",
    "e = torch.cuda.Event(enable_timing=True, blocking=False)",
    "e.record(s)",
    "e.record()",
    "s.wait_event(e)",
    "torch.cuda.current_stream().wait_event(e)",
    "e.synchronize()",
    "s.synchronize()",
    "torch.cuda.synchronize()",
    "torch.cuda.set_stream(s)",
    "x = torch.empty(4, device='cuda')",
    "x = torch.zeros(8, device='cuda', pin_memory=False)",
    "h = torch.empty(4, pin_memory=True)",
    "y = x.to('cpu', non_blocking=True)",
    "x.add_(1)",
    "y = x * 2",
    "x.copy_(y, non_blocking=True)",
    "print(x.item())",
    "with torch.cuda.stream(s): x.mul_(2)",
    "threading.Thread(target=lambda: x.add_(1)).start()",
    "g = torch.cuda.CUDAGraph()",
    "torch.cuda.default_stream().synchronize()",
    "s = torch.Stream()",
    "torch.accelerator.synchronize()",
    "# NOLINT(streamsafe-unsynchronized-access)",
    "# NOLINTBEGIN(streamsafe-unsynchronized-access)",
    "# NOLINTEND(streamsafe-unsynchronized-access)",
]

TOKENS = ["(", ")", "[", "]", "{", "}", ":", ",", ".", "=", "==", "+", "-",
          "*", "**", "/", "//", "%", "@", "->", ":=", "lambda", "def", "class",
          "if", "else", "elif", "for", "while", "in", "not", "and", "or",
          "with", "as", "try", "except", "finally", "return", "yield",
          "await", "async", "import", "from", "global", "nonlocal", "pass",
          "break", "continue", "raise", "del", "assert", "match", "case",
          "None", "True", "False", "self", "torch", "x", "s", "e", "0",
          "1.5", "0x1f", "'str'", '"""doc"""', "f'{x}'", "b'\\x00'", "\\",
          "\t", "#", "...", "_", "*args", "**kw", "type", "print"]

ODD_BYTES = [b"\x00", b"\xff", b"\xfe\xff", b"\xef\xbb\xbf", b"\x0c", b"\r",
             b"\x1a", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98\x80", b"\t",
             b"\\\n", b"\xed\xa0\x80", b"\x80\x80", b"\x85", b"\u2028".decode("unicode_escape").encode("utf-8", "surrogatepass")]


def indent_of(line):
    return line[:len(line) - len(line.lstrip(b" \t"))]


def m_delete(rng, lines, other):
    if lines:
        i = rng.randrange(len(lines))
        del lines[i:i + rng.choice([1, 1, 2, 5, 20])]
    return lines


def m_duplicate(rng, lines, other):
    if lines:
        i = rng.randrange(len(lines))
        n = rng.choice([1, 1, 3, 10])
        lines[i:i] = lines[i:i + n] * rng.choice([1, 2, 5])
    return lines


def m_swap(rng, lines, other):
    if len(lines) > 1:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    return lines


def m_shuffle(rng, lines, other):
    if len(lines) > 2:
        i = rng.randrange(len(lines))
        block = lines[i:i + rng.randint(2, 12)]
        rng.shuffle(block)
        lines[i:i + len(block)] = block
    return lines


def m_reindent(rng, lines, other):
    if lines:
        i = rng.randrange(len(lines))
        for k in range(i, min(len(lines), i + rng.choice([1, 1, 4, 30]))):
            how = rng.random()
            if how < 0.4:
                lines[k] = b"    " + lines[k]
            elif how < 0.7:
                lines[k] = lines[k].lstrip(b" \t")
            elif how < 0.85:
                lines[k] = lines[k].replace(b"    ", b"\t")
            else:
                lines[k] = b" " + lines[k]
    return lines


def m_splice(rng, lines, other):
    if other:
        j = rng.randrange(len(other))
        block = other[j:j + rng.choice([1, 3, 10, 40])]
        lines[rng.randint(0, len(lines)):0] = block
    return lines


def m_tokens(rng, lines, other):
    if not lines:
        return [rng.choice(TOKENS).encode() + b"\n"]
    i = rng.randrange(len(lines))
    line = lines[i]
    for _ in range(rng.randint(1, 4)):
        p = rng.randint(0, max(0, len(line) - 1))
        tok = rng.choice(TOKENS).encode()
        line = line[:p] + rng.choice([b"", b" "]) + tok + rng.choice([b"", b" "]) + line[p:]
    lines[i] = line
    return lines


def m_stream_call(rng, lines, other):
    i = rng.randint(0, len(lines))
    ref = lines[i] if i < len(lines) else (lines[i - 1] if lines else b"")
    ind = indent_of(ref)
    for _ in range(rng.randint(1, 3)):
        lines.insert(i, ind + rng.choice(STREAM_SNIPPETS).encode() + b"\n")
    return lines


def m_truncate(rng, lines, other):
    data = b"".join(lines)
    if data:
        data = data[:rng.randrange(len(data))]
    return data.splitlines(keepends=True)


NEST_HEADS = ["if x:", "for i in range(3):", "while c:", "with torch.cuda.stream(s):",
              "def f{d}(x, s=None):", "try:", "async def g{d}():",
              "class C{d}:", "with torch.no_grad(), open(p) as fh:",
              "for a, *b in zip(xs, ys):", "match v:\n{ind}    case [a, *rest]:",
              "if (n := len(x)) > 1:", "lambda_{d} = lambda: 0\n{ind}if lambda_{d}:"]


def m_nest(rng, lines, other):
    if not lines:
        lines = [b"pass\n"]
    i = rng.randrange(len(lines))
    block = lines[i:i + rng.randint(1, 10)]
    base = indent_of(block[0]) if block else b""
    depth = rng.choice([3, 10, 30, 60, 95, 150, 400])
    heads = []
    ind = base.decode("latin-1")
    trailers = []
    for d in range(depth):
        h = rng.choice(NEST_HEADS)
        heads.append(ind + h.format(d=d, ind=ind) + "\n")
        extra = "    " if "case" in h else ""
        if h == "try:":
            trailers.append((ind, "finally:\n", ind + "    pass\n"))
        else:
            trailers.append(None)
        ind += "    " + extra
    body = []
    for ln in block:
        s = ln.lstrip(b" \t")
        body.append(ind.encode("latin-1") + (s if s.strip() else b"pass\n"))
    if not body:
        body = [ind.encode("latin-1") + b"pass\n"]
    tail = []
    for t in reversed(trailers):
        if t:
            tail.append((t[0] + t[1]).encode("latin-1"))
            tail.append(t[2].encode("latin-1"))
    lines[i:i + len(block)] = [h.encode("latin-1") for h in heads] + body + tail
    return lines


def m_long_function(rng, lines, other):
    n = rng.choice(LONG_FUNCTION_LINES)
    body = [b"def very_long(x, s):\n", b"    s = torch.cuda.Stream()\n"]
    for k in range(n):
        body.append(b"    " + rng.choice(STREAM_SNIPPETS[2:26]).encode() + b"\n")
        if k % 7 == 0:
            body.append(b"    if x%d:\n        x = x + %d\n" % (k, k))
    lines[rng.randint(0, len(lines)):0] = body
    return lines


def m_huge_expr(rng, lines, other):
    n = rng.choice([100, 1000, 10000, 50000])
    kind = rng.randrange(8)
    if kind == 0:
        e = " + ".join("x%d" % (k % 50) for k in range(n))
    elif kind == 1:
        d = min(n, rng.choice([50, 150, 199, 500, 3000]))
        e = "(" * d + "x" + ")" * d
    elif kind == 2:
        d = min(n, rng.choice([50, 199, 1000]))
        e = "[" * d + "x" + "]" * d
    elif kind == 3:
        e = "x" + ".a" * n
    elif kind == 4:
        e = "f" + "(x)" * min(n, 2000)
    elif kind == 5:
        e = "-" * min(n, 5000) + "x"
    elif kind == 6:
        e = "'" + "a" * n * 10 + "'"
    else:
        e = "[" + ", ".join("torch.cuda.Stream()" for _ in range(min(n, 5000))) + "]"
    ref = lines[rng.randrange(len(lines))] if lines else b""
    lines.insert(rng.randint(0, len(lines)), indent_of(ref) + b"y = " + e.encode() + b"\n")
    return lines


def m_odd_bytes(rng, lines, other):
    data = b"".join(lines)
    for _ in range(rng.randint(1, 5)):
        p = rng.randint(0, len(data))
        data = data[:p] + rng.choice(ODD_BYTES) + data[p:]
    return data.splitlines(keepends=True)


def m_crlf(rng, lines, other):
    nl = rng.choice([b"\r\n", b"\r", b"\n\r"])
    return [ln.rstrip(b"\r\n") + nl for ln in lines]


def m_empty(rng, lines, other):
    return rng.choice([[], [b"\n"], [b" "], [b"\xef\xbb\xbf"], [b"#"],
                       [b"\\"], [b"\n" * 10000], [b"import torch"]])


def m_no_final_newline(rng, lines, other):
    if lines:
        lines[-1] = lines[-1].rstrip(b"\r\n")
    return lines


def m_rename(rng, lines, other):
    """Renames a common identifier everywhere (streams become events...)."""
    names = [b"s", b"x", b"e", b"self", b"torch", b"stream", b"cuda", b"Stream",
             b"Event", b"wait_stream", b"record_stream", b"record", b"current_stream"]
    a, b = rng.choice(names), rng.choice(names + [b"_", b"xx", b"\xc3\xa9t\xc3\xa9"])
    pat = re.compile(rb"\b" + re.escape(a) + rb"\b")
    return [pat.sub(b, ln) for ln in lines]


# --quick (the suite's short fuzz) keeps the long functions to what runs in
# well under a second when nothing is wrong.
LONG_FUNCTION_LINES = [500, 2000, 8000]

MUTATORS = [(m_delete, 10), (m_duplicate, 8), (m_swap, 6), (m_shuffle, 5),
            (m_reindent, 8), (m_splice, 8), (m_tokens, 8), (m_stream_call, 12),
            (m_truncate, 4), (m_nest, 5), (m_long_function, 1), (m_huge_expr, 3),
            (m_odd_bytes, 3), (m_crlf, 2), (m_empty, 1), (m_no_final_newline, 2),
            (m_rename, 4)]


def mutate(rng, seeds):
    name, data = rng.choice(seeds)
    _, other = rng.choice(seeds)
    lines = data.splitlines(keepends=True)
    other = other.splitlines(keepends=True)
    funcs = [m for m, _ in MUTATORS]
    weights = [w for _, w in MUTATORS]
    applied = []
    for _ in range(rng.choice([1, 1, 2, 2, 3, 4, 6])):
        m = rng.choices(funcs, weights)[0]
        lines = m(rng, lines, other)
        applied.append(m.__name__[2:])
        if sum(len(ln) for ln in lines) > 4000000:
            break
    return b"".join(lines), "mutated %s [%s]" % (name, ", ".join(applied))

# ------------------------------------------------------------ generator


class Gen:
    """Random valid PyTorch stream programs. Every construct is valid
    Python 3.8+ (match statements 3.10+); ast.parse checks the result."""

    def __init__(self, rng):
        self.rng = rng
        self.n = 0
        self.out = []

    def fresh(self, p="t"):
        self.n += 1
        return "%s%d" % (p, self.n)

    def emit(self, ind, text):
        for ln in text.split("\n"):
            self.out.append("    " * ind + ln)

    def tensor_expr(self, ts):
        r = self.rng
        a, b = r.choice(ts), r.choice(ts)
        return r.choice([
            "torch.empty(%d, device='cuda')" % r.randint(1, 64),
            "torch.zeros_like(%s)" % a, "%s * 2" % a, "%s + %s" % (a, b),
            "%s.clone()" % a, "torch.matmul(%s, %s)" % (a, b),
            "%s.to('cuda', non_blocking=True)" % a,
            "%s.cpu()" % a, "%s[1:]" % a, "%s.view(-1)" % a,
            "(lambda v: v + 1)(%s)" % a,
            "[u * 2 for u in (%s, %s)][0]" % (a, b),
            "%s if %s.sum() > 0 else %s" % (a, a, b),
            "torch.cat([%s, *[%s]])" % (a, b),
            "torch.stack((%s, *(%s,)))" % (a, b),
            "{k: v for k, v in zip('ab', (%s, %s))}['a']" % (a, b),
        ])

    def stmts(self, ind, ts, ss, es, depth, budget):
        r = self.rng
        for _ in range(r.randint(1, 5 if depth < 3 else 2)):
            if budget[0] <= 0:
                return
            budget[0] -= 1
            k = r.random()
            s, e = r.choice(ss), r.choice(es)
            if k < 0.2:
                t = self.fresh()
                self.emit(ind, "%s = %s" % (t, self.tensor_expr(ts)))
                ts.append(t)
            elif k < 0.3:
                self.emit(ind, "%s.%s(%s)" % (r.choice(ts), r.choice(["add_", "mul_", "copy_", "sub_"]), r.choice(ts)))
            elif k < 0.36:
                self.emit(ind, r.choice(["%s.wait_stream(torch.cuda.current_stream())" % s,
                                         "torch.cuda.current_stream().wait_stream(%s)" % s,
                                         "%s.wait_stream(%s)" % (s, r.choice(ss))]))
            elif k < 0.41:
                self.emit(ind, "%s.record_stream(%s)" % (r.choice(ts), r.choice(ss + ["torch.cuda.current_stream()"])))
            elif k < 0.47:
                self.emit(ind, r.choice(["%s.record(%s)" % (e, s), "%s.record()" % e,
                                         "%s.wait_event(%s)" % (s, e), "%s.synchronize()" % e,
                                         "torch.cuda.current_stream().wait_event(%s)" % e,
                                         "%s.synchronize()" % s, "torch.cuda.synchronize()"]))
            elif k < 0.5:
                self.emit(ind, r.choice(["print(%s.item())" % r.choice(ts),
                                         "if %s.sum() > 0:\n    pass" % r.choice(ts),
                                         "assert %s is not None, 'msg'" % r.choice(ts),
                                         "del %s" % self.fresh("unused_") if False else "pass"]))
            elif depth >= 5:
                self.emit(ind, "pass")
            elif k < 0.58:
                self.emit(ind, "with torch.cuda.stream(%s):" % s)
                self.stmts(ind + 1, list(ts), ss, es, depth + 1, budget)
            elif k < 0.63:
                self.emit(ind, r.choice(["if %s:" % r.choice(["c", "n > 2", "not c", "c and n"]),
                                         "if (m := n % 3) == 1:"]))
                self.stmts(ind + 1, list(ts), ss, es, depth + 1, budget)
                if r.random() < 0.5:
                    self.emit(ind, r.choice(["else:", "elif n:"]))
                    self.stmts(ind + 1, list(ts), ss, es, depth + 1, budget)
            elif k < 0.68:
                self.emit(ind, r.choice(["for i in range(n):", "for i, u in enumerate(%s):" % r.choice(ts),
                                         "while n > 0:", "for a, *rest in [(1, 2, 3)]:",
                                         "async for q in aiter_(n):" if self.in_async else "for q in [1]:"]))
                self.stmts(ind + 1, list(ts), ss, es, depth + 1, budget)
                if r.random() < 0.3:
                    self.emit(ind + 1, r.choice(["break", "continue", "n -= 1"]))
            elif k < 0.72:
                self.emit(ind, "try:")
                self.stmts(ind + 1, list(ts), ss, es, depth + 1, budget)
                if r.random() < 0.6:
                    self.emit(ind, r.choice(["except Exception as exc:", "except (ValueError, KeyError):", "except:"]))
                    self.stmts(ind + 1, list(ts), ss, es, depth + 1, budget)
                    if r.random() < 0.3:
                        self.emit(ind + 1, "raise")
                self.emit(ind, "finally:")
                self.stmts(ind + 1, list(ts), ss, es, depth + 1, budget)
            elif k < 0.76:
                f = self.fresh("inner")
                self.emit(ind, "def %s(%s):" % (f, r.choice(["", "v", "v, *a, **kw", "v=None, /, w=1, *, z=2"])))
                self.emit(ind + 1, r.choice(["nonlocal %s" % ts[-1] if depth > 0 and False else "pass", "pass"]))
                self.stmts(ind + 1, list(ts), ss, es, depth + 1, budget)
                self.emit(ind + 1, "return %s" % r.choice(ts))
                self.emit(ind, r.choice(["%s()" % f, "threading.Thread(target=%s).start()" % f,
                                         "th = threading.Thread(target=%s, args=())\nth.start()\nth.join()" % f,
                                         "ex.submit(%s)" % f if False else "%s()" % f]))
            elif k < 0.79:
                self.emit(ind, "match %s:" % r.choice(["n", "c", "(n, c)", "[n, *xs]"]))
                self.emit(ind + 1, r.choice(["case 0 | 1:", "case [a, *rest]:", "case {'k': v}:",
                                             "case Point(x=0):", "case int(v) if v > 2:", "case (1, 2):"]))
                self.stmts(ind + 2, list(ts), ss, es, depth + 1, budget)
                self.emit(ind + 1, "case _:")
                self.stmts(ind + 2, list(ts), ss, es, depth + 1, budget)
            elif k < 0.82:
                self.emit(ind, r.choice(["with torch.no_grad():", "with torch.cuda.stream(%s), torch.no_grad():" % s,
                                         "with torch.cuda.device(0):", "with ctx() as (a, b):",
                                         "with (torch.cuda.stream(%s) as cur, torch.no_grad()):" % s]))
                self.stmts(ind + 1, list(ts), ss, es, depth + 1, budget)
            elif k < 0.86:
                t = self.fresh()
                self.emit(ind, r.choice([
                    "%s = [v.clone() for v in (%s,) if v is not None]" % (t, ", ".join(ts[:4])),
                    "%s = {i: v for i, v in enumerate([%s])}" % (t, ", ".join(ts[:3])),
                    "%s = (v * 2 for v in [%s])" % (t, ts[0]),
                    "%s, *_ = %s, %s" % (t, r.choice(ts), r.choice(ts)),
                    "*%s, = [%s]" % (t, r.choice(ts)),
                    "%s = (lambda *a, **k: a[0])(%s)" % (t, r.choice(ts)),
                    "%s = f'{%s!r:>10}' + 'x'" % (t, r.choice(ts)),
                    "%s = %s @ %s" % (t, r.choice(ts), r.choice(ts)),
                    "%s: torch.Tensor = %s" % (t, r.choice(ts)),
                ]))
            elif k < 0.9:
                if self.in_async:
                    self.emit(ind, r.choice(["await asyncio.sleep(0)", "async with lock:",
                                             "x_%d = await fut" % self.n]))
                    if self.out[-1].endswith(":"):
                        self.stmts(ind + 1, list(ts), ss, es, depth + 1, budget)
                else:
                    self.emit(ind, "global GLOBAL_STREAM" if ind == 1 and False else "pass")
            elif k < 0.94:
                s2 = self.fresh("s")
                self.emit(ind, "%s = torch.cuda.Stream(%s)" % (s2, r.choice(["", "priority=-1", "device=0"])))
                ss.append(s2)
            else:
                e2 = self.fresh("e")
                self.emit(ind, "%s = torch.cuda.Event(%s)" % (e2, r.choice(["", "enable_timing=True", "blocking=True, interprocess=False"])))
                es.append(e2)

    def function(self, ind, name, method):
        r = self.rng
        self.in_async = r.random() < 0.15
        for _ in range(r.choice([0, 0, 0, 1, 2])):
            self.emit(ind, r.choice(["@torch.no_grad()", "@staticmethod" if not method else "@torch.inference_mode()",
                                     "@functools.lru_cache(maxsize=None)", "@decorator(1, k=2)",
                                     "@property" if method else "@torch.enable_grad()", "@(lambda f: f)"]))
        params = ["self"] if method else []
        params += ["x", "y", "c=True", "n=3"]
        if r.random() < 0.3:
            params += ["*xs", "**kw"]
        ann = r.choice(["", " -> torch.Tensor", " -> None"])
        self.emit(ind, "%sdef %s(%s)%s:" % ("async " if self.in_async else "", name, ", ".join(params), ann))
        if r.random() < 0.3:
            self.emit(ind + 1, '"""Docstring."""')
        ts, es = ["x", "y"], ["e0"]
        ss = ["s0"]
        self.emit(ind + 1, "s0 = torch.cuda.Stream()")
        self.emit(ind + 1, "e0 = torch.cuda.Event()")
        if method:
            ss += ["self.stream", "self.side"]
            ts += ["self.buf"]
            es += ["self.event"]
        self.stmts(ind + 1, ts, ss, es, 0, [r.randint(4, 40)])
        self.emit(ind + 1, r.choice(["return %s" % r.choice(ts), "return", "yield %s" % r.choice(ts),
                                     "return %s, *[%s]" % (r.choice(ts), r.choice(ts)), "pass"]))

    def program(self):
        r = self.rng
        self.emit(0, r.choice(['"""Generated."""', "# generated", "from __future__ import annotations"]))
        self.emit(0, "import asyncio\nimport functools\nimport threading\nimport torch")
        if r.random() < 0.3:
            self.emit(0, "from torch.cuda import Stream, Event\nimport torch.cuda as tc")
        self.emit(0, "GLOBAL_STREAM = torch.cuda.Stream()")
        for _ in range(r.randint(1, 5)):
            k = r.random()
            if k < 0.4:
                cls = self.fresh("Model")
                self.emit(0, "\n\nclass %s%s:" % (cls, r.choice(["", "(torch.nn.Module)", "(object, metaclass=type)"])))
                self.emit(1, "def __init__(self):")
                self.emit(2, "self.stream = torch.cuda.Stream()\nself.side = torch.cuda.Stream(priority=-1)")
                self.emit(2, "self.event = torch.cuda.Event()\nself.buf = torch.empty(8, device='cuda')")
                for _ in range(r.randint(1, 3)):
                    self.emit(0, "")
                    self.function(1, self.fresh("method"), True)
                if r.random() < 0.3:
                    self.emit(1, "\n    def __enter__(self):\n        return self\n\n    def __exit__(self, *exc):\n        return False")
            else:
                self.emit(0, "\n")
                self.function(0, self.fresh("func"), False)
        if r.random() < 0.5:
            self.emit(0, "\n\nif __name__ == '__main__':")
            self.emit(1, "x = torch.ones(4, device='cuda')")
            self.emit(1, "with torch.cuda.stream(GLOBAL_STREAM):\n    x.add_(1)")
            self.emit(1, "print(x.sum().item())")
        return "\n".join(self.out) + "\n"


def generate(rng):
    for _ in range(20):
        src = Gen(rng).program()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ast.parse(src)
            return src.encode(), "generated"
        except SyntaxError:
            continue
    return src.encode(), "generated (invalid)"

# ------------------------------------------------------------- running


def make_input(seed, index, seeds):
    rng = random.Random("%s:%d" % (seed, index))
    if not seeds or rng.random() < 0.3:
        return generate(rng)
    if rng.random() < 0.5:
        # A mutant that is still valid Python reaches the analysis, not
        # only the parser: the first of a few tries that ast.parse accepts.
        for _ in range(8):
            data, how = mutate(rng, seeds)
            if len(data) < 1000000 and valid_python(data):
                return data, how + " (valid)"
    return mutate(rng, seeds)


def valid_python(data):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(data)
        return True
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False


def run_one(binary, path, timeout):
    t0 = time.monotonic()
    try:
        r = subprocess.run([binary, "--quiet", path], capture_output=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, b"", time.monotonic() - t0
    return r.returncode, r.stderr, time.monotonic() - t0


def classify(code, stderr, data):
    if code is None:
        return "hang"
    if ABORT.search(stderr.decode("utf-8", "replace")):
        return "abort"
    if code < 0 or code not in (0, 1, 2):
        return "crash"
    # Exit 2 for an unmatched NOLINTBEGIN/NOLINTEND is right on valid Python;
    # any other exit 2 on it (a syntax error, code nested or indented
    # beyond what the grammar or the analysis follows) rejects valid code.
    if code == 2 and b"NOLINT" not in stderr and valid_python(data):
        return "rejected"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--duration", type=float, default=0,
                    help="stop after this many seconds (0: no limit)")
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--seeds", action="append", default=[])
    ap.add_argument("--manifest")
    ap.add_argument("--mirror", default="/work/.mirror")
    ap.add_argument("--mirror-extra", type=int, default=0)
    ap.add_argument("--out", default="fuzz-out")
    ap.add_argument("--only", type=int, help="make and run input INDEX only")
    ap.add_argument("--write", help="with --only: write the input here and stop")
    ap.add_argument("--fail-on-rejected", action="store_true")
    ap.add_argument("--quick", action="store_true",
                    help="long functions of at most 600 lines (the suite's short fuzz)")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    if not os.access(args.binary, os.X_OK):
        print("fuzz_python.py: not an executable: %s" % args.binary, file=sys.stderr)
        return 2

    if args.quick:
        LONG_FUNCTION_LINES[:] = [150, 600]
    seeds = load_seed_dirs(args.seeds)
    seeds += load_mirror_seeds(args.manifest, args.mirror, args.mirror_extra, args.seed)
    if args.only is not None and args.write:
        data, how = make_input(args.seed, args.only, seeds)
        with open(args.write, "wb") as f:
            f.write(data)
        print("%d: %s" % (args.only, how))
        return 0
    os.makedirs(args.out, exist_ok=True)
    this = os.path.abspath(__file__)
    seed_args = ("--quick " if args.quick else "") + " ".join("--seeds %s" % shlex.quote(os.path.abspath(d)) for d in args.seeds)
    if args.manifest:
        seed_args += " --manifest %s --mirror %s --mirror-extra %d" % (
            shlex.quote(os.path.abspath(args.manifest)), shlex.quote(args.mirror), args.mirror_extra)

    indices = [args.only] if args.only is not None else range(args.count)
    counts = {"crash": 0, "hang": 0, "abort": 0, "rejected": 0}
    kinds = {"generated": 0, "mutated": 0}
    skipped = 0
    slowest = (0.0, -1)
    done = 0
    t_start = time.monotonic()
    report = open(os.path.join(args.out, "failures.txt"), "a")
    with tempfile.TemporaryDirectory(prefix="streamsafe-fuzz-") as tmp:
        path = os.path.join(tmp, "input.py")
        for i in indices:
            if args.duration and time.monotonic() - t_start > args.duration:
                break
            data, how = make_input(args.seed, i, seeds)
            kinds["generated" if how.startswith("generated") else "mutated"] += 1
            with open(path, "wb") as f:
                f.write(data)
            code, stderr, secs = run_one(args.binary, path, args.timeout)
            done += 1
            if secs > slowest[0]:
                slowest = (secs, i)
            if SKIPPED.search(stderr.decode("utf-8", "replace")):
                skipped += 1
            what = classify(code, stderr, data)
            if args.verbose:
                print("%d: %s exit=%s %.2fs %s" % (i, how, code, secs, what or ""))
            if what is None:
                continue
            counts[what] += 1
            saved = os.path.join(args.out, "%s-seed%d-%d.py" % (what, args.seed, i))
            with open(saved, "wb") as f:
                f.write(data)
            tail = stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
            msg = ("%s: input %d (%s): exit %s after %.1fs\n  saved: %s\n"
                   "  reproduce: timeout %g %s --quiet %s\n"
                   "  regenerate: %s %s --binary %s --seed %d --only %d --write %s\n"
                   "  stderr: %s\n") % (
                what, i, how, "timeout" if code is None else code, secs, saved,
                args.timeout, shlex.quote(args.binary), shlex.quote(saved),
                shlex.quote(sys.executable), shlex.quote(this), shlex.quote(args.binary),
                args.seed, i, shlex.quote(saved) + " " + seed_args, " | ".join(tail))
            report.write(msg)
            report.flush()
            print(msg, end="")
    report.close()
    elapsed = time.monotonic() - t_start
    print("fuzz seed %d: %d inputs (%d mutated, %d generated) from %d seed files "
          "in %.1fs; slowest %.2fs (input %d); budget skips %d; "
          "crash %d, hang %d, abort %d, rejected-valid %d" % (
              args.seed, done, kinds["mutated"], kinds["generated"], len(seeds),
              elapsed, slowest[0], slowest[1], skipped, counts["crash"],
              counts["hang"], counts["abort"], counts["rejected"]))
    failed = counts["crash"] + counts["hang"] + counts["abort"]
    if args.fail_on_rejected:
        failed += counts["rejected"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
