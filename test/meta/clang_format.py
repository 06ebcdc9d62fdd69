#!/usr/bin/env python3
"""Runs clang-format --dry-run -Werror on StreamSafe's C++ sources (lib,
checks, tools, test/unit) with the project's .clang-format and names every
file that is not formatted."""
import os
import subprocess
import sys

DIRS = ("lib", "checks", "tools", os.path.join("test", "unit"))
EXTENSIONS = (".cpp", ".h")


def sources(root):
    for d in DIRS:
        for dirpath, _, files in os.walk(os.path.join(root, d)):
            for f in sorted(files):
                if f.endswith(EXTENSIONS):
                    yield os.path.join(dirpath, f)


def main():
    clang_format, root = sys.argv[1], sys.argv[2]
    if not os.path.isfile(clang_format):
        sys.exit("clang-format of LLVM 22 not found (%s): install clang-format-22 "
                 "(scripts/setup.sh does)" % clang_format)
    files = sorted(sources(root))
    bad = [f for f in files if subprocess.run(
        [clang_format, "--dry-run", "-Werror", "--ferror-limit=1", f],
        stderr=subprocess.DEVNULL).returncode != 0]
    print("%d files checked, %d not formatted" % (len(files), len(bad)))
    for f in bad:
        print("error: not clang-formatted: " + os.path.relpath(f, root))
    if bad:
        print("fix with: %s -i %s" % (clang_format, " ".join(
            os.path.relpath(f, root) for f in bad)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
