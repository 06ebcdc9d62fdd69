// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// Kernels and raw copies access the tensors whose data they are given,
// directly or through a local pointer, on their launch stream.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAStream.h>

__global__ void scale(const float *in, float *out, int n) {}

void launch_through_pointers(const at::Tensor &like) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor a = at::ones_like(like);
  at::Tensor out = at::empty_like(a);
  const float *in = a.data_ptr<float>();
  float *o = out.data_ptr<float>();
  scale<<<1, 32, 0, side>>>(in, o, 32);
  // CHECK-NOTES: :[[@LINE-1]]:29: warning: tensor 'a' is read on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-6]]:18: note: 'a' is written on the caller's current stream here
  // CHECK-NOTES: :[[@LINE-3]]:33: warning: tensor 'out' is read on pool stream 'side' while its allocation on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-7]]:20: note: 'out' is allocated on the caller's current stream here
}

void launch_after_wait(const at::Tensor &like) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor a = at::ones_like(like);
  at::Tensor out = at::empty_like(a);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(side);
  scale<<<1, 32, 0, side>>>(a.data_ptr<float>(), out.data_ptr<float>(), 32);
}

void copy_on_side_stream(const at::Tensor &like) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor a = at::ones_like(like);
  at::Tensor b = at::empty_like(a);
  cudaMemcpyAsync(b.data_ptr<float>(), a.data_ptr<float>(), 4 * a.numel(),
  // CHECK-NOTES: :[[@LINE-1]]:19: warning: tensor 'b' is written on pool stream 'side' while its allocation on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:18: note: 'b' is allocated on the caller's current stream here
  // CHECK-NOTES: :[[@LINE-3]]:40: warning: tensor 'a' is read on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-6]]:18: note: 'a' is written on the caller's current stream here
                  cudaMemcpyDeviceToDevice, side);
}

// On the current stream: ordered after the producer.
void launch_on_current_stream(const at::Tensor &like) {
  at::Tensor a = at::ones_like(like);
  at::Tensor out = at::empty_like(a);
  scale<<<1, 32, 0, at::cuda::getCurrentCUDAStream()>>>(
      a.data_ptr<float>(), out.data_ptr<float>(), 32);
}

// cudaStreamPerThread is one stream however often it is spelled: two
// kernels on it are in order. Whether it is the caller's current stream
// is not known (the caller may run on it too): silent.
void per_thread_stream_twice(const at::Tensor &like) {
  at::Tensor a = at::ones_like(like);
  at::Tensor out = at::empty_like(a);
  scale<<<1, 32, 0, cudaStreamPerThread>>>(a.data_ptr<float>(),
                                           out.data_ptr<float>(), 32);
  scale<<<1, 32, 0, cudaStreamPerThread>>>(out.data_ptr<float>(),
                                           out.data_ptr<float>(), 32);
}
