#!/bin/bash
# Builds the wheel of streamsafe-py and streamsafe-ci,
# build/wheel/streamsafe-<version>-py3-none-<platform>.whl, from the build
# tree (it does not build: scripts/build.sh, or
# `cmake --build build --target streamsafe-py`), with Python's standard
# library only (zipfile, hashlib, base64) and binutils (readelf, objdump,
# strip): no pip, no network. README "Python" says how to install it.
#
# The wheel holds
#   streamsafe-<v>.data/scripts/streamsafe-py   the native binary, stripped;
#                                               pip puts it on PATH as it is
#   streamsafe_ci/                              streamsafe-ci's package, with
#                                               the check pages its SARIF help
#                                               quotes (docs/checks)
#   streamsafe-<v>.dist-info/                   METADATA, WHEEL, RECORD, the
#                                               console script streamsafe-ci
#                                               and packaging/copyright
#
# The binary must need nothing beyond the C and C++ runtimes (libc, libm,
# libstdc++, libgcc_s; tree-sitter and zlib linked statically, see
# tools/py/CMakeLists.txt); the script refuses it otherwise. The platform
# tag is read from the binary: manylinux_2_X_<arch>, X the highest
# GLIBC_2.X symbol version it needs, raised if its libstdc++ symbol versions
# (GLIBCXX_, CXXABI_, GCC_) exceed what manylinux_2_X guarantees (the
# ceilings of auditwheel's manylinux policy, below). The version is the
# project's (CMakeLists.txt), checked against `streamsafe-py --version` and
# streamsafe_ci.__version__. The entries are in a fixed order and dated
# SOURCE_DATE_EPOCH (default 1980-01-01): the same build gives the same bytes.
#
# Usage: scripts/wheel.sh [--build-dir DIR] [--out-dir DIR]
# (defaults build/ and DIR/wheel). Prints the symbol versions and the tag;
# the last line is the wheel's path.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
out=
while (($#)); do
  case $1 in
    --build-dir) build=$(cd "${2:?--build-dir needs a directory}" && pwd); shift 2 ;;
    --out-dir) out=${2:?--out-dir needs a directory}; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "wheel: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
out=${out:-$build/wheel}
for tool in python3 readelf objdump; do
  command -v "$tool" >/dev/null ||
    { echo "wheel: $tool is missing (binutils, python3)" >&2; exit 1; }
done
binary=$build/bin/streamsafe-py
if [[ ! -x $binary ]]; then
  echo "wheel: $binary is missing: build it first (scripts/build.sh, or" \
    "cmake --build $build --target streamsafe-py)" >&2
  exit 1
fi
mkdir -p "$out"
exec python3 - "$root" "$binary" "$out" <<'PYTHON'
import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

root, binary, out = sys.argv[1:4]


def fail(msg):
    sys.stderr.write(f"wheel: {msg}\n")
    sys.exit(1)


def run(*argv):
    return subprocess.run(argv, check=True, capture_output=True,
                          text=True).stdout


def vkey(v):
    return tuple(int(p) for p in v.split("."))


# The version: CMake's project version, which --version prints
# (STREAMSAFE_VERSION) and streamsafe_ci.__version__ must repeat.
with open(os.path.join(root, "CMakeLists.txt")) as f:
    m = re.search(r"^project\(StreamSafe VERSION ([0-9.]+)", f.read(), re.M)
if not m:
    fail("no project(StreamSafe VERSION ...) in CMakeLists.txt")
version = m.group(1)
printed = run(binary, "--version").strip()
if printed != f"streamsafe-py {version}":
    fail(f"{binary} --version prints '{printed}', not 'streamsafe-py "
         f"{version}': rebuild it")
pkg = os.path.join(root, "tools", "streamsafe_ci")
with open(os.path.join(pkg, "__init__.py")) as f:
    m = re.search(r'^__version__ = "([^"]+)"', f.read(), re.M)
if not m or m.group(1) != version:
    fail(f"tools/streamsafe_ci/__init__.py says __version__ "
         f"{m.group(1) if m else '(none)'}, the project {version}")

# The libraries it loads: the C and C++ runtimes only, found by the loader
# (no RPATH/RUNPATH).
dynamic = run("readelf", "-d", "-W", binary)
needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)
runtime = {"libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1",
           "libpthread.so.0", "libdl.so.2", "librt.so.1",
           "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1"}
extra = [n for n in needed if n not in runtime]
if extra:
    fail(f"{binary} needs {', '.join(extra)} beyond the C and C++ runtimes: "
         "link them statically (install libtree-sitter-dev and zlib1g-dev "
         "with scripts/setup.sh, configure again, build streamsafe-py)")
if re.search(r"\((RPATH|RUNPATH)\)", dynamic):
    fail(f"{binary} has an RPATH/RUNPATH")
header = run("readelf", "-h", binary)
machine = re.search(r"Machine:\s+(.*)", header).group(1)
arch = {"Advanced Micro Devices X86-64": "x86_64",
        "AArch64": "aarch64"}.get(machine.strip())
if not arch:
    fail(f"no wheel tag for machine '{machine.strip()}'")

# The symbol versions it needs, with one symbol for each.
needs = {}
for line in run("objdump", "-T", binary).splitlines():
    m = re.search(r"\*UND\*\s+\S+\s+(?:\()?(GLIBC|GLIBCXX|CXXABI|GCC)_"
                  r"([0-9][0-9.]*)\)?\s+(\S+)", line)
    if m:
        needs.setdefault(m.group(1), {}).setdefault(m.group(2), m.group(3))
highest = {k: max(v, key=vkey) for k, v in needs.items()}
if "GLIBC" not in highest:
    fail(f"objdump -T {binary} shows no GLIBC_ symbol version")
glibc = vkey(highest["GLIBC"])
if "ABI_DT_RELR" in run("readelf", "-V", "-W", binary):
    glibc = max(glibc, (2, 36))
for kind in ("GLIBC", "GLIBCXX", "CXXABI", "GCC"):
    if kind in highest:
        v = highest[kind]
        print(f"wheel: needs {kind}_{v} ({needs[kind][v]})")

# What manylinux_2_X guarantees of libstdc++ and libgcc_s (x86_64 and
# aarch64 alike): the highest GLIBCXX_, CXXABI_ and GCC_ versions of
# auditwheel's manylinux policy (src/auditwheel/policy/manylinux-policy.json)
# for the policies it defines. A glibc between two rows gets the lower one.
CEILINGS = [  # (glibc minor, GLIBCXX, CXXABI, GCC)
    (17, "3.4.19", "1.3.7", "4.8.0"),
    (24, "3.4.22", "1.3.10", "4.8.0"),
    (27, "3.4.24", "1.3.11", "7.0.0"),
    (31, "3.4.28", "1.3.12", "7.0.0"),
    (34, "3.4.29", "1.3.13", "7.0.0"),
    (35, "3.4.30", "1.3.13", "12.0.0"),
    (39, "3.4.33", "1.3.15", "14.0.0"),
]


def admits(row):
    _, cxx, abi, gcc = row
    return all(kind not in highest or vkey(highest[kind]) <= vkey(limit)
               for kind, limit in (("GLIBCXX", cxx), ("CXXABI", abi),
                                   ("GCC", gcc)))


minor = max(glibc[1], 17)
rows = [r for r in CEILINGS if r[0] <= minor]
if not admits(rows[-1]):
    higher = [r for r in CEILINGS if r[0] > minor and admits(r)]
    if not higher:
        fail(f"its C++ runtime symbol versions ({highest}) exceed every "
             "manylinux policy known here")
    print(f"wheel: libstdc++ symbol versions raise manylinux_2_{minor} to "
          f"manylinux_2_{higher[0][0]}")
    minor = higher[0][0]
platform = f"manylinux_2_{minor}_{arch}"
print(f"wheel: platform tag {platform} (GLIBC_2.{glibc[1]} is the highest "
      "glibc version it needs)")

# The files: (name in the wheel, bytes, executable).
name = "streamsafe"
data = f"{name}-{version}.data"
info = f"{name}-{version}.dist-info"
files = []
with tempfile.TemporaryDirectory() as tmp:
    stripped = os.path.join(tmp, "streamsafe-py")
    if shutil.which("strip"):
        subprocess.run(["strip", "--strip-all", "-o", stripped, binary],
                       check=True)
    else:
        print("wheel: no strip (binutils): the binary is shipped unstripped")
        shutil.copy(binary, stripped)
    with open(stripped, "rb") as f:
        files.append((f"{data}/scripts/streamsafe-py", f.read(), True))
for entry in sorted(os.listdir(pkg)):
    if entry.endswith(".py"):
        with open(os.path.join(pkg, entry), "rb") as f:
            files.append((f"streamsafe_ci/{entry}", f.read(), False))
checks = os.path.join(root, "docs", "checks")
for entry in sorted(os.listdir(checks)):
    if entry.endswith(".md"):
        with open(os.path.join(checks, entry), "rb") as f:
            files.append((f"streamsafe_ci/docs/checks/{entry}", f.read(),
                          False))
with open(os.path.join(root, "packaging", "copyright"), "rb") as f:
    files.append((f"{info}/copyright", f.read(), False))

metadata = f"""\
Metadata-Version: 2.1
Name: {name}
Version: {version}
Summary: Static checks for CUDA stream-safety bugs in PyTorch Python code: streamsafe-py and the CI gate streamsafe-ci
Home-page: https://github.com/streamsafe/streamsafe
License: no license chosen yet; see copyright in this directory
Keywords: cuda,pytorch,streams,linter,static-analysis
Classifier: Environment :: Console
Classifier: Operating System :: POSIX :: Linux
Classifier: Programming Language :: Python :: 3
Classifier: Topic :: Software Development :: Quality Assurance
Requires-Python: >=3.8
Description-Content-Type: text/markdown

StreamSafe finds CUDA stream-safety bugs in PyTorch code before it runs on a
GPU: tensors used on a side stream without a wait, tensors that die without
`record_stream`, `non_blocking` copies read before a sync, events waited on
before they are recorded, collectives read before `work.wait()`.

- `streamsafe-py FILE...` analyses Python files (exit 0 clean, 1 findings,
  2 a file could not be analysed); `streamsafe-py --lsp` is a language
  server on stdio for editors.
- `streamsafe-ci 'src/**/*.py' -f sarif -o streamsafe.sarif` is the CI gate:
  SARIF, JSON lines, baselines, `--diff`, a result cache. Its C++ mode needs
  StreamSafe's C++ tools (the Debian package or a build from source).

`streamsafe-py` is a native binary with its parser linked in; it needs only
the C and C++ runtimes ({platform}).
"""
wheel = f"""\
Wheel-Version: 1.0
Generator: streamsafe scripts/wheel.sh
Root-Is-Purelib: false
Tag: py3-none-{platform}
"""
entry_points = """\
[console_scripts]
streamsafe-ci = streamsafe_ci.cli:console_main
"""
files += [(f"{info}/METADATA", metadata.encode(), False),
          (f"{info}/WHEEL", wheel.encode(), False),
          (f"{info}/entry_points.txt", entry_points.encode(), False),
          (f"{info}/top_level.txt", b"streamsafe_ci\n", False)]


def digest(blob):
    h = base64.urlsafe_b64encode(hashlib.sha256(blob).digest())
    return "sha256=" + h.rstrip(b"=").decode()


record = "".join(f"{n},{digest(b)},{len(b)}\n" for n, b, _ in files)
record += f"{info}/RECORD,,\n"
files.append((f"{info}/RECORD", record.encode(), False))

epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))
stamp = time.gmtime(max(epoch, 315532800))[:6]
path = os.path.join(out, f"{name}-{version}-py3-none-{platform}.whl")
tmp_path = path + ".part"
with zipfile.ZipFile(tmp_path, "w", zipfile.ZIP_DEFLATED,
                     compresslevel=9) as z:
    for n, blob, executable in files:
        zi = zipfile.ZipInfo(n, stamp)
        zi.compress_type = zipfile.ZIP_DEFLATED
        zi.external_attr = (0o100755 if executable else 0o100644) << 16
        z.writestr(zi, blob)
os.replace(tmp_path, path)
print(f"wheel: {len(files)} files, {os.path.getsize(path) // 1024} KiB "
      f"(streamsafe-py {len(files[0][1]) // 1024} KiB stripped)")
print(path)
PYTHON
