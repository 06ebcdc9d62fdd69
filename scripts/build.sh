#!/bin/bash
# Configures and builds StreamSafe into build/: build/bin/streamsafe (the
# driver), build/lib/libStreamSafe.so (the clang-tidy plugin), the unit tests
# and the precompiled LibTorch headers of the tests. Extra arguments go to
# CMake's configure step (e.g. -DCMAKE_BUILD_TYPE=Debug).
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -n ${CUDA_HOME:-} ]]; then
  set -- -DSTREAMSAFE_CUDA_HOME="$CUDA_HOME" "$@"
fi
start=$(date +%s)
cmake -S . -B build -G Ninja -DCMAKE_CXX_COMPILER=clang++-22 "$@" >/dev/null
cmake --build build
echo "build: done in $(($(date +%s) - start)) s"
