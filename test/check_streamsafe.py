#!/usr/bin/env python3
"""Runs one streamsafe check on one test file, the way upstream's
check_clang_tidy.py does, through the clang-tidy plugin (clang-tidy
--load=libStreamSafe.so), the streamsafe driver, or both, compared:
--front-ends=both (the default), plugin (lit's --param front_ends=plugin, CI's
LLVM 19 leg) or auto (lit's default: both for the tests --compare matches,
each check's main test and the tests of options and configuration, the
driver alone for the rest; the two share every line of analysis).

A test file says, in a RUN line:

  // RUN: %check_streamsafe %s streamsafe-<check> %t
  // RUN: %check_streamsafe -check-suffix=OPT %s streamsafe-<check> %t \\
  // RUN:   -- -config="{CheckOptions: {streamsafe-<check>.Opt: 1}}" -- -DX=1

Arguments after the first `--` go to clang-tidy, after the second `--` to the
compiler (after the LibTorch flags that lit passes in). Each front end runs
with -fix on its own copy of the file, with the CHECK lines blanked out. The
test fails when
  * the two front ends disagree (diagnostics, exit status or fixed file);
  * `CHECK-MESSAGES[-SUFFIX]:` lines do not match the warnings and errors, or
    any other warning or error appears;
  * `CHECK-NOTES[-SUFFIX]:` lines do not match warnings, errors and notes;
  * `CHECK-FIXES[-SUFFIX]:` lines do not match the fixed file (full lines);
  * the file has no CHECK lines of a prefix and a diagnostic appears.

Files that include LibTorch headers (<ATen/...>, <c10/...>, <torch/...>)
are parsed with the precompiled LibTorch headers when lit passes them;
-no-pch turns that off for one test.
"""

import argparse
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys

DIAG_RE = re.compile(r"^(.*?):(\d+):(\d+): (warning|error|note): (.*)$")
CHECK_LINE_RE = re.compile(r"// *CHECK-[A-Z0-9\-]*:[^\r\n]*")
LIBTORCH_INCLUDE_RE = re.compile(
    r"^\s*#\s*include\s*[<\"](ATen|c10|torch)/", re.MULTILINE
)


def fail(message):
    sys.exit("check_streamsafe: FAIL: " + message)


def parse_args(argv):
    # Split off `-- tidy args [-- compiler args]` ourselves: argparse would
    # take the compiler's flags for its own.
    tidy_args, compiler_args = [], []
    if "--" in argv:
        i = argv.index("--")
        argv, rest = argv[:i], argv[i + 1 :]
        if "--" in rest:
            j = rest.index("--")
            tidy_args, compiler_args = rest[:j], rest[j + 1 :]
        else:
            tidy_args = rest
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # Set by lit.cfg.py.
    p.add_argument("--clang-tidy", required=True)
    p.add_argument("--plugin", required=True)
    p.add_argument("--driver", required=True)
    p.add_argument("--filecheck", default="FileCheck")
    p.add_argument("--flags", default="", help="compiler flags for every file")
    p.add_argument("--cuda-flags", default="", help="extra flags for .cu files")
    p.add_argument("--pch-cxx", default=None)
    p.add_argument("--pch-cuda", default=None)
    p.add_argument("--front-ends", choices=["both", "plugin", "auto"],
                   default="both",
                   help="plugin: run the plugin only (CI's LLVM 19 leg, "
                   "where the driver shares every line of analysis with "
                   "the plugin); auto: both for the tests --compare "
                   "matches, the driver only for the others (the suite of "
                   "LLVM 22)")
    p.add_argument("--compare", default=None,
                   help="with --front-ends=auto: a regular expression; the "
                   "tests whose file name it matches run through both "
                   "front ends and compare them")
    # Set by a test.
    p.add_argument(
        "-check-suffix", "-check-suffixes", default=[""],
        type=lambda s: s.split(","), help="comma-separated FileCheck suffixes",
    )
    p.add_argument("-expect-clang-tidy-error", action="store_true")
    p.add_argument("-no-pch", action="store_true")
    p.add_argument("input")
    p.add_argument("check")
    p.add_argument("temp")
    args = p.parse_args(argv)
    return args, tidy_args, compiler_args


class Prefixes:
    """Which CHECK-MESSAGES/NOTES/FIXES prefixes the test file uses."""

    def __init__(self, text, suffixes):
        self.messages, self.notes, self.fixes = [], [], []
        self.expect_nothing = False
        for suffix in suffixes:
            if suffix and not re.match(r"^[A-Z0-9\-]+$", suffix):
                fail('check suffixes may hold A-Z, 0-9 and "-": %r' % suffix)
            tail = "-" + suffix if suffix else ""
            found = False
            for label, into in (("CHECK-MESSAGES", self.messages),
                                ("CHECK-NOTES", self.notes),
                                ("CHECK-FIXES", self.fixes)):
                if re.search(r"\b%s%s:" % (label, re.escape(tail)), text):
                    into.append(label + tail)
                    found = True
            if label_conflict(self.messages, self.notes, tail):
                fail("use CHECK-MESSAGES%s or CHECK-NOTES%s, not both"
                     % (tail, tail))
            if not found:
                self.expect_nothing = True
        if self.expect_nothing and (self.messages or self.notes or self.fixes):
            fail("some check suffixes have no CHECK lines in the file")


def label_conflict(messages, notes, tail):
    return ("CHECK-MESSAGES" + tail) in messages and ("CHECK-NOTES" + tail) in notes


def compiler_flags(args, text, extra):
    flags = shlex.split(args.flags)
    is_cuda = args.input.endswith(".cu")
    if is_cuda:
        flags += shlex.split(args.cuda_flags)
    pch = args.pch_cuda if is_cuda else args.pch_cxx
    if pch and not args.no_pch and LIBTORCH_INCLUDE_RE.search(text):
        if not os.path.exists(pch):
            fail("precompiled header %s is missing: build the "
                 "streamsafe-test-pch target" % pch)
        flags += ["-include-pch", pch]
    return flags + extra


def run_front_end(name, tool, args, tidy_args, flags, cleaned, workdir):
    """Runs one front end with -fix on its own copy; returns (rc, output,
    fixed text), with the copy's path in the output replaced by the input's
    name so both front ends print the same text."""
    os.makedirs(workdir, exist_ok=True)
    path = os.path.join(workdir, os.path.basename(args.input))
    with open(path, "w", encoding="utf-8") as f:
        f.write(cleaned)
    if not any(re.match(r"^--?config(-file)?=", a) for a in tidy_args):
        # Do not pick up a .clang-tidy file from around the build tree.
        tidy_args = tidy_args + ["--config={}"]
    cmd = tool + [path, "-fix", "--checks=-*," + args.check] + tidy_args
    cmd += ["--"] + flags
    print("[%s] %s" % (name, " ".join(shlex.quote(c) for c in cmd)))
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = proc.stdout.decode("utf-8", errors="replace")
    print("------------------------ %s output ------------------------" % name)
    print(output)
    with open(path, encoding="utf-8") as f:
        fixed = f.read()
    return proc.returncode, output.replace(path, args.input), fixed


def diagnostics(output):
    return [line for line in output.splitlines() if DIAG_RE.match(line)]


def compare_front_ends(plugin, driver):
    (p_rc, p_out, p_fixed), (d_rc, d_out, d_fixed) = plugin, driver
    if diagnostics(p_out) != diagnostics(d_out):
        diff = difflib.unified_diff(diagnostics(p_out), diagnostics(d_out),
                                    "plugin", "driver", lineterm="")
        fail("the plugin and the driver report different findings:\n"
             + "\n".join(diff))
    if p_fixed != d_fixed:
        diff = difflib.unified_diff(p_fixed.splitlines(), d_fixed.splitlines(),
                                    "plugin", "driver", lineterm="")
        fail("the plugin and the driver fix differently:\n" + "\n".join(diff))
    if (p_rc == 0) != (d_rc == 0):
        fail("exit status: plugin %d, driver %d" % (p_rc, d_rc))


def filecheck(args, prefixes, input_text, implicit_not, extra=()):
    path = args.temp + ".filecheck-input"
    with open(path, "w", encoding="utf-8") as f:
        f.write(input_text)
    cmd = [args.filecheck, "--input-file=" + path, args.input,
           "--check-prefixes=" + ",".join(prefixes)]
    if implicit_not:
        cmd.append("--implicit-check-not=" + implicit_not)
    cmd += list(extra)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        print(proc.stdout.decode("utf-8", errors="replace"))
        fail("FileCheck %s failed" % ",".join(prefixes))


def main():
    args, tidy_args, compiler_args = parse_args(sys.argv[1:])
    with open(args.input, encoding="utf-8") as f:
        text = f.read()
    prefixes = Prefixes(text, args.check_suffix)
    # Blank the CHECK lines but keep the `//` so line numbers stay put.
    cleaned = CHECK_LINE_RE.sub("//", text)
    flags = compiler_flags(args, text, compiler_args)

    shutil.rmtree(args.temp, ignore_errors=True)
    front_ends = args.front_ends
    if front_ends == "auto":
        compare = args.compare and re.search(
            args.compare, os.path.basename(args.input))
        front_ends = "both" if compare else "driver"
    result = None
    if front_ends in ("both", "plugin"):
        result = run_front_end(
            "plugin", [args.clang_tidy, "--load=" + args.plugin], args,
            tidy_args, flags, cleaned, os.path.join(args.temp, "plugin"))
    if front_ends in ("both", "driver"):
        driver = run_front_end(
            "driver", [args.driver], args, tidy_args, flags, cleaned,
            os.path.join(args.temp, "driver"))
        if result:
            compare_front_ends(result, driver)
        result = driver

    rc, output, fixed = result
    if args.expect_clang_tidy_error and rc == 0:
        fail("clang-tidy was expected to fail but exited with 0")
    if not args.expect_clang_tidy_error and rc != 0:
        fail("clang-tidy exited with %d" % rc)

    if prefixes.expect_nothing:
        if diagnostics(output):
            fail("no diagnostics were expected, but found the ones above")
        return
    if prefixes.messages:
        filecheck(args, prefixes.messages, output, "{{warning|error}}:")
    if prefixes.notes:
        kept = [l for l in output.splitlines()
                if "note: FIX-IT applied" not in l]
        filecheck(args, prefixes.notes, "\n".join(kept) + "\n",
                  "{{note|warning|error}}:")
    if prefixes.fixes:
        filecheck(args, prefixes.fixes, fixed, None, ["--match-full-lines"])


if __name__ == "__main__":
    main()
