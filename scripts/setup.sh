#!/bin/bash
# Installs what StreamSafe needs on Debian 12 with apt-get. Quick and quiet
# when everything is already there (no apt-get update then); run as root or
# with sudo available. CUDA is not installed: its headers must already be in
# $CUDA_HOME (default /usr/local/cuda).
set -euo pipefail

PACKAGES=(
  clang-22 clang-tidy-22 clang-format-22 libclang-22-dev llvm-22-dev
  llvm-22-tools          # lit, FileCheck, not
  libtorch-dev           # the real LibTorch headers the tests parse
  libgtest-dev ninja-build pre-commit
)
# Packages that a command of the same name from elsewhere also satisfies.
COMMANDS=(
  cmake python3 git
  npm                    # the SARIF validator of the streamsafe-ci tests
)

installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

missing=()
for p in "${PACKAGES[@]}"; do
  installed "$p" || missing+=("$p")
done
for c in "${COMMANDS[@]}"; do
  command -v "$c" >/dev/null || installed "$c" || missing+=("$c")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=()
  if [[ $(id -u) != 0 ]]; then
    command -v sudo >/dev/null || { echo "setup: run as root or install sudo" >&2; exit 1; }
    sudo=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -q
  if ! "${sudo[@]}" apt-get install -y -q "${missing[@]}" </dev/null; then
    echo "setup: apt-get could not install ${missing[*]}." >&2
    echo "setup: LLVM 22 comes from Debian 12's security/backports archives" \
      "or from https://apt.llvm.org (llvm-toolchain-bookworm-22)." >&2
    exit 1
  fi
fi

CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
if [[ ! -f $CUDA_HOME/include/cuda_runtime.h ]]; then
  echo "setup: no CUDA headers in $CUDA_HOME/include (cuda_runtime.h)." >&2
  echo "setup: install the CUDA toolkit (13.x) or set CUDA_HOME to it." >&2
  exit 1
fi
echo "setup: ok (LLVM 22, LibTorch headers, CUDA headers in $CUDA_HOME)"
