#!/usr/bin/env python3
"""Runs streamsafe-py on one Python test file and checks its output, the way
check_streamsafe.py does for C++:

  # RUN: %check_streamsafe_py %s
  # RUN: %check_streamsafe_py -check-suffix=ONLY %s -- --checks=-*,streamsafe-x

Arguments after `--` go to streamsafe-py. The test fails when
  * `CHECK-NOTES[-SUFFIX]:` lines do not match the warnings and notes, in
    order, or any other warning, note or error appears (FileCheck with
    --implicit-check-not);
  * the exit status is not 1 with findings, 0 without (2 is never right
    here: test/python/bad-input.test covers it);
  * the file has no CHECK lines of the prefix and a diagnostic appears.
"""

import argparse
import re
import subprocess
import sys


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--driver", required=True)
    p.add_argument("--filecheck", required=True)
    p.add_argument("-check-suffix", default="")
    p.add_argument("file")
    args = p.parse_args(argv)
    prefix = "CHECK-NOTES" + ("-" + args.check_suffix if args.check_suffix else "")
    with open(args.file, encoding="utf-8") as f:
        text = f.read()
    expects = re.search(r"#\s*%s:" % re.escape(prefix), text) is not None
    run = subprocess.run([args.driver, "--quiet", args.file] + extra,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    out = run.stdout + run.stderr
    sys.stdout.write(out)
    want = 1 if expects else 0
    if run.returncode != want:
        sys.exit("check_streamsafe_py: FAIL: exit status %d, expected %d"
                 % (run.returncode, want))
    if not expects:
        if out.strip():
            sys.exit("check_streamsafe_py: FAIL: no %s lines, but output" % prefix)
        return
    fc = subprocess.run(
        [args.filecheck, args.file, "--check-prefix=" + prefix,
         "--implicit-check-not={{warning|note|error}}:",
         "--dump-input=fail"],
        input=out, text=True)
    if fc.returncode:
        sys.exit("check_streamsafe_py: FAIL: FileCheck")


if __name__ == "__main__":
    main()
