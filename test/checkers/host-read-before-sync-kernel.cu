// RUN: %check_streamsafe %s streamsafe-host-read-before-sync %t

// A kernel's result copied back with cudaMemcpyAsync into pinned memory,
// read by the host before the stream is synchronised.

#include <ATen/ATen.h>
#include <c10/cuda/CUDAStream.h>

__global__ void count_kernel(int *out) {}

int count_without_sync(const at::Tensor &d) {
  auto stream = at::cuda::getCurrentCUDAStream();
  at::Tensor h = at::empty({1}, at::TensorOptions().dtype(at::kInt).pinned_memory(true));
  count_kernel<<<1, 1, 0, stream>>>(d.data_ptr<int>());
  cudaMemcpyAsync(h.data_ptr<int>(), d.data_ptr<int>(), sizeof(int),
                  cudaMemcpyDeviceToHost, stream);
  return h.data_ptr<int>()[0];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
  // CHECK-NOTES: :[[@LINE-4]]:19: note: the non_blocking copy is enqueued on the caller's current stream here
}

int count_with_sync(const at::Tensor &d) {
  auto stream = at::cuda::getCurrentCUDAStream();
  at::Tensor h = at::empty({1}, at::TensorOptions().dtype(at::kInt).pinned_memory(true));
  count_kernel<<<1, 1, 0, stream>>>(d.data_ptr<int>());
  cudaMemcpyAsync(h.data_ptr<int>(), d.data_ptr<int>(), sizeof(int),
                  cudaMemcpyDeviceToHost, stream);
  stream.synchronize();
  return h.data_ptr<int>()[0];
}
