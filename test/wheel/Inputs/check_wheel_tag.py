"""usage: check_wheel_tag.py WHEEL BINARY

Checks that the platform tag of WHEEL (its file name and its WHEEL file)
is what BINARY, the streamsafe-py it installed, needs, as read here from
the binary itself with readelf (scripts/wheel.sh reads objdump -T):

- it loads only the C and C++ runtimes (tree-sitter and zlib are linked
  in) and has no RPATH/RUNPATH;
- the tag is manylinux_2_X_<arch> with X the highest GLIBC_2.X symbol
  version among the symbols it imports, unless its libstdc++ symbol
  versions (GLIBCXX_, CXXABI_, GCC_) exceed what manylinux_2_X guarantees,
  and then X is the first policy that has them.

Prints the versions it found and the tag; exits 1 on a mismatch.
Standard library only.
"""

import re
import subprocess
import sys
import zipfile

# The highest GLIBCXX_, CXXABI_ and GCC_ versions of auditwheel's manylinux
# policies (src/auditwheel/policy/manylinux-policy.json, x86_64).
CEILINGS = [
    (17, "3.4.19", "1.3.7", "4.8.0"),
    (24, "3.4.22", "1.3.10", "4.8.0"),
    (27, "3.4.24", "1.3.11", "7.0.0"),
    (31, "3.4.28", "1.3.12", "7.0.0"),
    (34, "3.4.29", "1.3.13", "7.0.0"),
    (35, "3.4.30", "1.3.13", "12.0.0"),
    (39, "3.4.33", "1.3.15", "14.0.0"),
]
RUNTIME = {"libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1",
           "libpthread.so.0", "libdl.so.2", "librt.so.1",
           "ld-linux-x86-64.so.2"}


def vkey(v):
    return tuple(int(p) for p in v.split("."))


def readelf(*args):
    return subprocess.run(["readelf", "-W", *args], check=True,
                          capture_output=True, text=True).stdout


def main():
    wheel, binary = sys.argv[1:3]
    problems = []
    name_tag = re.search(r"-py3-none-([a-z0-9_]+)\.whl$", wheel)
    with zipfile.ZipFile(wheel) as z:
        info = next(n for n in z.namelist()
                    if n.endswith(".dist-info/WHEEL"))
        tags = re.findall(r"^Tag: (\S+)$", z.read(info).decode(), re.M)
    if not name_tag or tags != ["py3-none-" + name_tag.group(1)]:
        problems.append(f"the file name's tag and WHEEL's Tag {tags} differ")
    tag = name_tag.group(1) if name_tag else ""

    dynamic = readelf("-d", binary)
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)
    print("NEEDED: " + " ".join(needed))
    if set(needed) - RUNTIME:
        problems.append(f"it loads {sorted(set(needed) - RUNTIME)} beyond "
                        "the C and C++ runtimes")
    if re.search(r"\((RPATH|RUNPATH)\)", dynamic):
        problems.append("it has an RPATH/RUNPATH")

    highest = {}
    for line in readelf("--dyn-syms", binary).splitlines():
        fields = line.split()
        # Num: Value Size Type Bind Vis Ndx Name@VERSION (n)
        if len(fields) < 8 or fields[6] != "UND":
            continue
        m = re.search(r"@(GLIBC|GLIBCXX|CXXABI|GCC)_([0-9][0-9.]*)$",
                      fields[7])
        if m and (m.group(1) not in highest or
                  vkey(m.group(2)) > vkey(highest[m.group(1)][0])):
            highest[m.group(1)] = (m.group(2), fields[7].split("@")[0])
    for kind in ("GLIBC", "GLIBCXX", "CXXABI", "GCC"):
        if kind in highest:
            print(f"highest {kind}_{highest[kind][0]} ({highest[kind][1]})")

    minor = max(vkey(highest["GLIBC"][0])[1], 17)

    def admits(row):
        return all(kind not in highest or
                   vkey(highest[kind][0]) <= vkey(limit)
                   for kind, limit in zip(("GLIBCXX", "CXXABI", "GCC"),
                                          row[1:]))

    if not admits([r for r in CEILINGS if r[0] <= minor][-1]):
        minor = next(r[0] for r in CEILINGS if r[0] > minor and admits(r))
    expected = f"manylinux_2_{minor}_x86_64"
    print(f"expected tag {expected}, wheel tag {tag}")
    if tag != expected:
        problems.append(f"the wheel says {tag}, the binary needs {expected}")
    for p in problems:
        print("error: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
