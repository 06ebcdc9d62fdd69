#!/usr/bin/env python3
"""Copies a test project and fills in its templates.

usage: instantiate.py [--no-git] SRC DEST [NAME=VALUE ...] [--flags FLAGS...]

Every file of SRC is copied to DEST; in files ending in `.in` (the suffix is
dropped) @NAME@ is replaced. Always defined: @ROOT@ (DEST, absolute),
@FLAGS@ (the LibTorch flags, shell-quoted, for "command"), @FLAGS_JSON@
(the same as JSON strings, for "arguments"), @NVCC_FLAGS@ (the flags as
CMake writes them for nvcc: -isystem=<dir>), @CUDA@ (the CUDA toolkit whose
include directory is among the flags). DEST becomes a git repository (so
that it is the project root streamsafe-ci reports paths against) unless
--no-git is given.
"""
import json
import os
import shlex
import shutil
import subprocess
import sys


def main(argv):
    flags = []
    if "--flags" in argv:
        i = argv.index("--flags")
        argv, flags = argv[:i], argv[i + 1:]
    git = "--no-git" not in argv
    argv = [a for a in argv if a != "--no-git"]
    src, dest = argv[0], os.path.abspath(argv[1])
    values = dict(a.split("=", 1) for a in argv[2:])
    nvcc = []
    cuda = "/usr/local/cuda"
    i = 0
    while i < len(flags):
        if flags[i] == "-isystem":
            d = flags[i + 1]
            if os.path.isfile(os.path.join(d, "cuda_runtime.h")):
                cuda = os.path.dirname(d)
            nvcc.append("-isystem=" + d)
            i += 2
            continue
        nvcc.append(flags[i])
        i += 1
    values.setdefault("ROOT", dest)
    values.setdefault("FLAGS", " ".join(shlex.quote(f) for f in flags))
    values.setdefault("FLAGS_JSON", ", ".join(json.dumps(f) for f in flags))
    values.setdefault("NVCC_FLAGS", " ".join(shlex.quote(f) for f in nvcc))
    values.setdefault("CUDA", cuda)
    for base, _, files in os.walk(src):
        rel = os.path.relpath(base, src)
        os.makedirs(os.path.join(dest, rel), exist_ok=True)
        for name in files:
            source = os.path.join(base, name)
            if name.endswith(".in"):
                with open(source, encoding="utf-8") as f:
                    text = f.read()
                for k, v in values.items():
                    text = text.replace(f"@{k}@", v)
                with open(os.path.join(dest, rel, name[:-3]), "w",
                          encoding="utf-8") as f:
                    f.write(text)
            else:
                shutil.copy(source, os.path.join(dest, rel, name))
    if git and not os.path.isdir(os.path.join(dest, ".git")):
        subprocess.run(["git", "init", "-q", dest], check=True)


if __name__ == "__main__":
    main(sys.argv[1:])
