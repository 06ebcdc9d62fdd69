// RUN: %check_streamsafe %s streamsafe-default-stream-launch %t

// NOLINT comments silence our checks: clang-tidy handles them, in both
// front ends.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void fill(float *out) {}

void suppressed(float *out) {
  fill<<<1, 32>>>(out); // NOLINT
  fill<<<1, 32>>>(out); // NOLINT(streamsafe-default-stream-launch)
  // NOLINTNEXTLINE(streamsafe-*)
  fill<<<1, 32>>>(out);
  // NOLINTBEGIN(streamsafe-default-stream-launch)
  fill<<<1, 32>>>(out);
  cudaMemset(out, 0, 4);
  // NOLINTEND(streamsafe-default-stream-launch)
}

void notSuppressed(float *out) {
  fill<<<1, 32>>>(out); // NOLINT(streamsafe-unsynchronized-access)
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (no stream argument), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-FIXES: fill<<<1, 32, 0, at::cuda::getCurrentCUDAStream()>>>(out); // NOLINT(streamsafe-unsynchronized-access)
}
