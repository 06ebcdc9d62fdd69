// RUN: true
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
__global__ void fill(float *out) {}
void launch(float *out) {
  fill<<<1, 32>>>(out);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream
  // CHECK-FIXES: fill<<<1, 32, 0, someOtherStream()>>>(out);
}
