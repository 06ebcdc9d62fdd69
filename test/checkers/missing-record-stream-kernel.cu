// RUN: %check_streamsafe %s streamsafe-missing-record-stream %t

// CUDA extension code: a kernel on a side stream reads a tensor allocated
// on the current stream, which then dies.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAStream.h>

__global__ void sum_kernel(const float *in, float *out, int n) {}

void kernel_on_side_stream(at::Tensor &out) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor in = at::ones({256}, at::kCUDA);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(side);
  sum_kernel<<<1, 256, 0, side>>>(in.data_ptr<float>(), out.data_ptr<float>(), 256);
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: tensor 'in' is used on pool stream 'side' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 'side' is still using it [streamsafe-missing-record-stream]
  // CHECK-NOTES: :[[@LINE-6]]:19: note: 'in' is allocated on the caller's current stream here
  // CHECK-NOTES: :[[@LINE+1]]:1: note: the last reference to 'in' dies here, with no record_stream on pool stream 'side' and no synchronization with the caller's current stream
}

void kernel_on_side_stream_recorded(at::Tensor &out) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor in = at::ones({256}, at::kCUDA);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(side);
  sum_kernel<<<1, 256, 0, side>>>(in.data_ptr<float>(), out.data_ptr<float>(), 256);
  in.record_stream(side);
}
