// RUN: %check_streamsafe -no-pch %s streamsafe-default-stream-launch %t -- -- -fgpu-rdc

// Device-side launches (dynamic parallelism) run on device streams, not on
// the host's: the check looks at host code only. Without a PCH, because the
// PCH is built without -fgpu-rdc; c10/macros/Macros.h is enough to make this
// a LibTorch translation unit.

#include <c10/macros/Macros.h>

__global__ void child(float *out) {}

__global__ void parent(float *out) { child<<<1, 32>>>(out); }

__device__ void helper(float *out) { child<<<1, 32>>>(out); }

__host__ __device__ void both(float *out) {
  child<<<1, 32>>>(out);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (no stream argument), not on PyTorch's current stream [streamsafe-default-stream-launch]
}
