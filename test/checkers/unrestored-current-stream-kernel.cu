// RUN: %check_streamsafe %s streamsafe-unrestored-current-stream %t

// An extension op that switches the current stream for its kernel and
// leaves it switched.

#include <ATen/ATen.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

__global__ void op_kernel(float *data, int n) {}

void op_switching_stream(at::Tensor &data) {
  at::cuda::setCurrentCUDAStream(at::cuda::getStreamFromPool());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the current stream set here is not restored on every path out of 'op_switching_stream'; the caller's later work silently runs on it (use a c10::cuda::CUDAStreamGuard to set the stream for a scope) [streamsafe-unrestored-current-stream]
  // CHECK-NOTES: :[[@LINE+3]]:1: note: 'op_switching_stream' can return here with the stream still set
  op_kernel<<<1, 32, 0, at::cuda::getCurrentCUDAStream()>>>(
      data.data_ptr<float>(), 32);
}

void op_with_guard(at::Tensor &data) {
  at::cuda::CUDAStreamGuard guard(at::cuda::getStreamFromPool());
  op_kernel<<<1, 32, 0, at::cuda::getCurrentCUDAStream()>>>(
      data.data_ptr<float>(), 32);
}
