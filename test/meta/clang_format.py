#!/usr/bin/env python3
"""Runs clang-format --dry-run -Werror on StreamSafe's C++ sources (lib,
checks, tools, test/unit) with the project's .clang-format; fails on the
first file that is not formatted."""
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
    proc = subprocess.run([clang_format, "--dry-run", "-Werror"] + files)
    print("%d files checked" % len(files))
    sys.exit(proc.returncode)


if __name__ == "__main__":
    main()
