// RUN: %check_streamsafe -no-pch %s streamsafe-default-stream-launch %t

// A LibTorch translation unit in which at::cuda::getCurrentCUDAStream is not
// declared: the launch is reported, but no fix-it spells a name the file
// cannot use. (No PCH: it would declare everything.)

#include <c10/macros/Macros.h>

__global__ void fill(float *out) {}

void launch(float *out) {
  fill<<<1, 32>>>(out);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (no stream argument), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-FIXES: fill<<<1, 32>>>(out);
}
