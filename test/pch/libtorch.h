// The LibTorch headers the tests include, precompiled once per build (see
// CMakeLists.txt here). Add a header when several tests need it.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
