// RUN: %check_streamsafe %s streamsafe-default-stream-launch %t
// RUN: %check_streamsafe -check-suffix=LEGACY %s streamsafe-default-stream-launch %t -- --config="{CheckOptions: {}}" -- -DSTREAM=cudaStreamLegacy

// Check suffixes: the same file checked under several configurations, each
// with its own CHECK-MESSAGES-<SUFFIX> lines; clang-tidy and compiler
// arguments after `--` and `-- --`.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>

#ifndef STREAM
#define STREAM at::cuda::getCurrentCUDAStream()
#endif

__global__ void fill(float *out) {}

void launch(float *out) {
  fill<<<1, 32, 0, STREAM>>>(out);
  // CHECK-MESSAGES-LEGACY: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (stream argument is 'cudaStreamLegacy')
  fill<<<1, 32>>>(out);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (no stream argument)
  // CHECK-MESSAGES-LEGACY: :[[@LINE-2]]:3: warning: kernel launch runs on the legacy default stream (no stream argument)
}
