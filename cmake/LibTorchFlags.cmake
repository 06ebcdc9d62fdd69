# The compiler flags that parse user code against the real LibTorch headers.
# This is the one place they are spelled: the lit tests (via lit.site.cfg.py),
# the precompiled test headers and the examples' compile_commands.json all
# take them from here.

# Debian's libtorch-dev puts ATen/ and c10/ in /usr/include and the C++ API
# one level deeper.
set(STREAMSAFE_TORCH_API_INCLUDE "/usr/include/torch/csrc/api/include"
  CACHE PATH "LibTorch C++ API include directory (torch/torch.h lives here)")

if(DEFINED ENV{CUDA_HOME} AND NOT "$ENV{CUDA_HOME}" STREQUAL "")
  set(_streamsafe_cuda_default "$ENV{CUDA_HOME}")
else()
  set(_streamsafe_cuda_default "/usr/local/cuda")
endif()
set(STREAMSAFE_CUDA_HOME "${_streamsafe_cuda_default}"
  CACHE PATH "CUDA toolkit (headers only are needed)")
if(NOT EXISTS "${STREAMSAFE_CUDA_HOME}/include/cuda_runtime.h")
  message(WARNING "no CUDA headers in ${STREAMSAFE_CUDA_HOME}/include: set "
    "CUDA_HOME (or -DSTREAMSAFE_CUDA_HOME=) to a CUDA toolkit; the tests "
    "and examples need them")
endif()

# libtorch-dev lacks the generated c10/cuda/impl/cuda_cmake_macros.h; the
# shim directory provides the one line it holds.
set(STREAMSAFE_SHIM_INCLUDE "${CMAKE_SOURCE_DIR}/test/shim")

# Flags for every file (.cpp and .cu).
set(STREAMSAFE_LIBTORCH_FLAGS
  -std=c++17
  -isystem ${STREAMSAFE_TORCH_API_INCLUDE}
  -isystem ${STREAMSAFE_SHIM_INCLUDE}
  -isystem ${STREAMSAFE_CUDA_HOME}/include)

# Extra flags for .cu files: clang parses the host side only (no GPU
# toolchain needed); CUDA 13 is newer than clang 22 knows.
set(STREAMSAFE_CUDA_FLAGS
  -x cuda --cuda-host-only --cuda-path=${STREAMSAFE_CUDA_HOME}
  -I${STREAMSAFE_CUDA_HOME}/include/cccl -Wno-unknown-cuda-version)

# A clang whose CUDA wrapper still includes texture_fetch_functions.h (clang
# 21 and older) cannot parse CUDA 13, which dropped that header: found by
# trying, then an empty stand-in (test/shim/cuda-texture-fetch) makes it work.
set(_streamsafe_probe ${CMAKE_BINARY_DIR}/streamsafe-cuda-probe.cu)
file(WRITE ${_streamsafe_probe} "")
execute_process(
  COMMAND ${LLVM_TOOLS_BINARY_DIR}/clang ${STREAMSAFE_LIBTORCH_FLAGS}
    ${STREAMSAFE_CUDA_FLAGS} -fsyntax-only ${_streamsafe_probe}
  RESULT_VARIABLE _streamsafe_probe_status
  ERROR_VARIABLE _streamsafe_probe_errors OUTPUT_QUIET)
if(NOT _streamsafe_probe_status EQUAL 0 AND
   _streamsafe_probe_errors MATCHES "'texture_fetch_functions.h' file not found")
  list(APPEND STREAMSAFE_CUDA_FLAGS
    -isystem ${CMAKE_SOURCE_DIR}/test/shim/cuda-texture-fetch)
  message(STATUS "StreamSafe: clang ${LLVM_PACKAGE_VERSION} needs a stand-in "
    "texture_fetch_functions.h for the CUDA headers in ${STREAMSAFE_CUDA_HOME}")
endif()
