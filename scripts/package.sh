#!/bin/bash
# Builds the Debian package build/package/streamsafe_<version>_<arch>.deb with
# CPack (cmake/Packaging.cmake): the driver, the clang-tidy plugin,
# streamsafe-py (the Python front end, its grammar compiled in),
# streamsafe-ci, the pre-commit hook file, the docs and man pages made from
# --help with help2man. Depends: the packages that hold the libraries the
# driver and streamsafe-py link (LLVM 22's libclang-cpp22 and libllvm22,
# the C and C++ runtimes; streamsafe-py has tree-sitter and zlib linked in),
# libclang-common-22-dev (clang's built-in headers, which the driver parses
# with) and python3 (streamsafe-ci). Builds first (scripts/build.sh); needs
# help2man and dpkg. The last line names the .deb.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in help2man dpkg-query readelf gzip; do
  if ! command -v "$tool" >/dev/null; then
    echo "package: $tool is missing (scripts/setup.sh installs it)" >&2
    exit 1
  fi
done
scripts/build.sh

version=$(sed -n 's/^project(StreamSafe VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
driver=build/bin/streamsafe
py_driver=build/bin/streamsafe-py
if [[ ! -x $py_driver ]]; then
  echo "package: $py_driver is missing: scripts/setup.sh installs" \
    "libtree-sitter-dev and fetches the Python grammar; then build again" >&2
  exit 1
fi
llvm_major=$("$driver" --version | sed -n 's/.*LLVM version \([0-9]*\)\..*/\1/p')
if [[ -z $version || -z $llvm_major ]]; then
  echo "package: cannot read the version ($version) or the LLVM release" \
    "($llvm_major) of $driver" >&2
  exit 1
fi

# Depends: for each library the binaries need, the installed package holding
# the file (not a symlink to it: /usr/lib/llvm-22/lib/libLLVM.so.22.1
# belongs to llvm-22-dev, the file it points to to libllvm22), at least the
# version it was built against (without the Debian revision).
declare -A seen=()
depends=()
add_depend() {
  local pkg=$1 version
  [[ -n ${seen[$pkg]:-} ]] && return 0
  seen[$pkg]=1
  version=$(dpkg-query -W -f='${Version}' "$pkg")
  depends+=("$pkg (>= ${version%%-*})")
}
for binary in "$driver" "$py_driver"; do
for lib in $(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
  # "lib => /path (addr)", or "/path (addr)" for the dynamic loader.
  path=$(ldd "$binary" | awk -v lib="$lib" '
    $1 == lib && $2 == "=>" { print $3 }
    $1 ~ /^\// { n = split($1, part, "/"); if (part[n] == lib) print $1 }')
  if [[ -z $path ]]; then
    echo "package: ldd does not find $lib of $binary" >&2
    exit 1
  fi
  # dpkg knows a file by the path its package installed: try the path ldd
  # found, the file it points to, and that file without /usr (usrmerge).
  real=$(readlink -f "$path")
  owner=""
  for candidate in "$real" "$path" "${real#/usr}"; do
    owner=$(dpkg-query -S "$candidate" 2>/dev/null | head -n 1) && break
  done
  if [[ -z $owner ]]; then
    echo "package: no installed package holds $(readlink -f "$path")" \
      "($lib of $binary)" >&2
    exit 1
  fi
  add_depend "${owner%%:*}"
done
done
add_depend "libclang-common-$llvm_major-dev"
depends+=("python3 (>= 3.8)")
depends_field=$(IFS=,; echo "${depends[*]}" | sed 's/,/, /g')

# Man pages and the changelog, which the install rules pick up.
mkdir -p build/package/man
help2man --no-info --no-discard-stderr --version-string="$version" \
  --name="clang-tidy with the StreamSafe checks for CUDA stream-safety bugs in LibTorch C++ code" \
  --output=build/package/man/streamsafe.1 "$driver"
help2man --no-info --no-discard-stderr --version-string="$version" \
  --name="CI gate that runs the StreamSafe checks over a compile database" \
  --output=build/package/man/streamsafe-ci.1 build/bin/streamsafe-ci
help2man --no-info --no-discard-stderr --version-string="$version" \
  --name="the StreamSafe checks for CUDA stream-safety bugs in PyTorch Python code" \
  --output=build/package/man/streamsafe-py.1 "$py_driver"
gzip -9nf build/package/man/streamsafe.1 build/package/man/streamsafe-ci.1 \
  build/package/man/streamsafe-py.1
when=$(git log -1 --format=%cD 2>/dev/null || date -R)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
maintainer=$(sed -n 's/^Upstream-Contact: //p' packaging/copyright)
printf '%s\n' "streamsafe ($version) unstable; urgency=medium" "" \
  "  * Built from commit $commit." "" " -- $maintainer  $when" |
  gzip -9n >build/package/changelog.gz

cmake -S . -B build -DSTREAMSAFE_DEB_DEPENDS="$depends_field" \
  -DSTREAMSAFE_DEB_MAINTAINER="$maintainer" >/dev/null
rm -f build/package/streamsafe_*.deb
(cd build && cpack -G DEB >/dev/null)
deb=$(ls build/package/streamsafe_"$version"_*.deb)
echo "package: Depends: $depends_field"
echo "package: $deb ($(du -k "$deb" | cut -f1) KiB)"
