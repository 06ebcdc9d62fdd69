// RUN: true
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
__global__ void fill(float *out) {}
void expected(float *out) {
  fill<<<1, 32>>>(out);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream
}
void unexpected(float *out) { fill<<<1, 32>>>(out); }
