#!/bin/bash
# Configures and builds StreamSafe into build/: build/bin/streamsafe (the
# driver), build/lib/libStreamSafe.so (the clang-tidy plugin), the unit tests
# and the precompiled LibTorch headers of the tests. Extra arguments go to
# CMake's configure step (e.g. -DCMAKE_BUILD_TYPE=Debug).
#
# STREAMSAFE_BUILD_TARGETS in the environment: only those targets.
#
# --llvm N (first argument; default 22) builds against LLVM N from
# /usr/lib/llvm-N instead, into build-llvmN/ (tested: 22 and 19; README).
set -euo pipefail
cd "$(dirname "$0")/.."

llvm=22
if [[ ${1:-} == --llvm ]]; then
  llvm=${2:?--llvm needs a version}
  shift 2
fi
dir=build
if [[ $llvm != 22 ]]; then
  dir=build-llvm$llvm
  config=/usr/lib/llvm-$llvm/bin/llvm-config
  if [[ ! -x $config ]]; then
    echo "build: no LLVM $llvm in /usr/lib/llvm-$llvm (scripts/setup.sh --llvm $llvm)" >&2
    exit 1
  fi
  # find_package wants major.minor.
  set -- -DSTREAMSAFE_LLVM_VERSION="$("$config" --version | cut -d. -f1,2)" "$@"
fi
if [[ -n ${CUDA_HOME:-} ]]; then
  set -- -DSTREAMSAFE_CUDA_HOME="$CUDA_HOME" "$@"
fi
start=$(date +%s)
cmake -S . -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER=clang++-22 "$@" >/dev/null
# STREAMSAFE_BUILD_TARGETS (space-separated): only those targets (CI's
# LLVM 19 leg needs the plugin, the driver, the unit tests and the PCH).
read -ra targets <<<"${STREAMSAFE_BUILD_TARGETS:-}"
if ((${#targets[@]})); then
  cmake --build "$dir" --target "${targets[@]}"
else
  cmake --build "$dir"
fi
echo "build: $dir (LLVM $llvm) done in $(($(date +%s) - start)) s"
