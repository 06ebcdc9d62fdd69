// RUN: %check_streamsafe %s streamsafe-host-read-before-sync %t

// A non_blocking device-to-host copy into pinned memory returns at once;
// the host must synchronise before reading the result. A non_blocking
// host-to-device copy reads its pinned source later; the host must not
// refill it before then.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAStream.h>
#include <cstring>
#include <cuda_runtime_api.h>

float read_after_async_to_cpu(const at::Tensor &D) {
  at::Tensor H = D.to(at::kCPU, /*non_blocking=*/true);
  return H.data_ptr<float>()[0];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: the host reads tensor 'H' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
  // CHECK-NOTES: :[[@LINE-3]]:18: note: the non_blocking copy is enqueued on the caller's current stream here
}

float item_after_async_copy(const at::Tensor &D) {
  at::Tensor H = at::empty({D.numel()}, at::TensorOptions()
                                            .dtype(at::kFloat)
                                            .device(at::kCPU)
                                            .pinned_memory(true));
  H.copy_(D, /*non_blocking=*/true);
  return H.sum().item<float>();
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: the host reads tensor 'H' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the non_blocking copy is enqueued on the caller's current stream here
}

float read_after_cuda_memcpy_async(const at::Tensor &D, cudaStream_t s) {
  at::Tensor H = at::empty({16}, at::TensorOptions().pinned_memory(true));
  cudaMemcpyAsync(H.data_ptr<float>(), D.data_ptr<float>(), 16 * sizeof(float),
                  cudaMemcpyDeviceToHost, s);
  return H.data_ptr<float>()[3];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: the host reads tensor 'H' while a non_blocking copy into it on stream 's' may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
  // CHECK-NOTES: :[[@LINE-4]]:19: note: the non_blocking copy is enqueued on stream 's' here
}

// The staging-buffer bug: refilled before the DMA of the last copy ran.
void refill_staging_before_copy_ran(at::Tensor &D, const float *next) {
  at::Tensor staging =
      at::empty({16}, at::TensorOptions().pinned_memory(true));
  D.copy_(staging, /*non_blocking=*/true);
  std::memcpy(staging.data_ptr<float>(), next, 16 * sizeof(float));
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: the host writes tensor 'staging' while a non_blocking copy from it on the caller's current stream may still be reading it; synchronize the stream or an event first [streamsafe-host-read-before-sync]
  // CHECK-NOTES: :[[@LINE-3]]:11: note: the non_blocking copy is enqueued on the caller's current stream here
}

// Correct: synchronise the copying stream, an event, or the device first.
float read_after_stream_sync(const at::Tensor &D) {
  at::Tensor H = D.to(at::kCPU, /*non_blocking=*/true);
  at::cuda::getCurrentCUDAStream().synchronize();
  return H.data_ptr<float>()[0];
}

float read_after_event_sync(const at::Tensor &D) {
  at::Tensor H = D.to(at::kCPU, /*non_blocking=*/true);
  at::cuda::CUDAEvent copied;
  copied.record();
  copied.synchronize();
  return H.data_ptr<float>()[0];
}

float read_after_device_sync(const at::Tensor &D) {
  at::Tensor H = D.to(at::kCPU, /*non_blocking=*/true);
  cudaDeviceSynchronize();
  return H.data_ptr<float>()[0];
}

// A blocking copy waits for the stream itself.
float read_after_blocking_copy(const at::Tensor &D) {
  at::Tensor H = D.to(at::kCPU);
  return H.data_ptr<float>()[0];
}

void refill_after_sync(at::Tensor &D, const float *next) {
  at::Tensor staging =
      at::empty({16}, at::TensorOptions().pinned_memory(true));
  D.copy_(staging, /*non_blocking=*/true);
  at::cuda::getCurrentCUDAStream().synchronize();
  std::memcpy(staging.data_ptr<float>(), next, 16 * sizeof(float));
}

// Taking the address is not a read; the read after the sync is safe.
float pointer_taken_then_synchronized(const at::Tensor &D) {
  at::Tensor H = D.to(at::kCPU, /*non_blocking=*/true);
  float *p = H.data_ptr<float>();
  at::cuda::getCurrentCUDAStream().synchronize();
  return p[0];
}
