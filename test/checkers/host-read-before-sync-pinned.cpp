// RUN: %check_streamsafe %s streamsafe-host-read-before-sync,streamsafe-unsynchronized-access,streamsafe-missing-record-stream %t

// Where memory lives: options that say the CPU (or say no device: ATen's
// default is the CPU) give host memory, which has no allocation stream;
// pinned_memory(true) gives pinned host memory, which asynchronous copies
// and the host race on. A copy with pageable host memory returns when the
// host may touch it.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <algorithm>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cstring>
#include <cuda_runtime_api.h>

// Right: a pinned buffer filled on a side stream that waited for the input,
// read after that stream is synchronised. The buffer has no allocation
// stream, so nothing is pending on it.
float pinned_round_trip(const at::Tensor &d) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor h =
      at::empty(d.sizes(), d.options().device(at::kCPU).pinned_memory(true));
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(s);
  cudaMemcpyAsync(h.data_ptr(), d.data_ptr(), d.nbytes(),
                  cudaMemcpyDeviceToHost, s.stream());
  s.synchronize();
  return h.data_ptr<float>()[0];
}

// Wrong: the stream synchronised is not the one that copies.
float sync_of_the_wrong_stream(const at::Tensor &d) {
  auto s = at::cuda::getStreamFromPool();
  auto cur = at::cuda::getCurrentCUDAStream();
  at::cuda::CUDAEvent ready;
  ready.record(cur);
  ready.block(s);
  at::Tensor h = at::empty({16}, at::TensorOptions().pinned_memory(true));
  cudaMemcpyAsync(h.data_ptr(), d.data_ptr(), 16 * sizeof(float),
                  cudaMemcpyDeviceToHost, s.stream());
  cur.synchronize();
  return h.data_ptr<float>()[0];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: the host reads tensor 'h' while a non_blocking copy into it on pool stream 's' may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
  // CHECK-NOTES: :[[@LINE-5]]:19: note: the non_blocking copy is enqueued on pool stream 's' here
}

// Right: pageable host memory (kCPU, no pin): the copy is complete when
// copy_ returns, whatever non_blocking says.
float pageable_copy(const at::Tensor &d) {
  at::Tensor h = at::empty({16}, at::kCPU);
  h.copy_(d, /*non_blocking=*/true);
  return h.data_ptr<float>()[0];
}

// Right: a factory with no device makes a CPU tensor; using it on a side
// stream has no allocation to wait for (and none to record).
void default_device_is_cpu(at::Tensor &out) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor table = at::zeros({16}, at::dtype(at::kFloat));
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(s);
  at::cuda::CUDAStreamGuard g(s);
  out.copy_(table, /*non_blocking=*/true);
  s.synchronize();
}

// Right: options kept in a variable.
float pinned_options_variable(const at::Tensor &d) {
  auto opts = at::TensorOptions().dtype(at::kFloat).pinned_memory(true);
  at::Tensor h = at::empty({16}, opts);
  h.copy_(d, /*non_blocking=*/true);
  at::cuda::getCurrentCUDAStream().synchronize();
  return h.data_ptr<float>()[0];
}

// Wrong: the same without the synchronisation; the pointer read is after
// the copy.
float pinned_read_through_pointer(const at::Tensor &d) {
  auto opts = at::TensorOptions().dtype(at::kFloat).pinned_memory(true);
  at::Tensor h = at::empty({16}, opts);
  float *p = h.data_ptr<float>();
  h.copy_(d, /*non_blocking=*/true);
  return p[3];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the non_blocking copy is enqueued on the caller's current stream here
}

// Wrong: the staging buffer is refilled through a pointer, in a loop, while
// the previous iteration's copy may still read it.
void refill_staging_in_loop(at::Tensor &dev, const float *src, int n) {
  at::Tensor staging = at::empty({16}, at::TensorOptions().pinned_memory(true));
  float *p = staging.data_ptr<float>();
  for (int i = 0; i < n; ++i) {
    std::copy(src + 16 * i, src + 16 * (i + 1), p);
    // CHECK-NOTES: :[[@LINE-1]]:49: warning: the host writes tensor 'staging' while a non_blocking copy from it on the caller's current stream may still be reading it; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    // CHECK-NOTES: :[[@LINE+1]]:15: note: the non_blocking copy is enqueued on the caller's current stream here
    dev.copy_(staging, /*non_blocking=*/true);
  }
}

// Wrong: an element written through the pointer while the copy may still
// read the buffer.
void write_element_after_async_copy(at::Tensor &dev) {
  at::Tensor staging = at::empty({16}, at::TensorOptions().pinned_memory(true));
  float *p = staging.data_ptr<float>();
  dev.copy_(staging, /*non_blocking=*/true);
  p[0] += 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the host writes tensor 'staging' while a non_blocking copy from it on the caller's current stream may still be reading it; synchronize the stream or an event first [streamsafe-host-read-before-sync]
  // CHECK-NOTES: :[[@LINE-3]]:13: note: the non_blocking copy is enqueued on the caller's current stream here
}

// Right: the same, with the copying stream synchronised before each refill.
void refill_staging_in_loop_synchronized(at::Tensor &dev, const float *src,
                                         int n) {
  at::Tensor staging = at::empty({16}, at::TensorOptions().pinned_memory(true));
  float *p = staging.data_ptr<float>();
  for (int i = 0; i < n; ++i) {
    at::cuda::getCurrentCUDAStream().synchronize();
    std::copy(src + 16 * i, src + 16 * (i + 1), p);
    p[0] += 1.0f;
    dev.copy_(staging, /*non_blocking=*/true);
  }
}

// Right: empty_like of a host tensor is host memory too; the side stream
// has no allocation to wait for.
void like_of_host_tensor(at::Tensor &out) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor h = at::zeros({16}, at::kCPU);
  at::Tensor h2 = at::empty_like(h);
  h2.fill_(1);
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(s);
  at::cuda::CUDAStreamGuard g(s);
  out.copy_(h2);
}

// Wrong: empty_like of a device tensor is device memory, allocated on the
// current stream after more work there; the side stream uses it with no
// wait for that work.
void like_of_device_tensor(const at::Tensor &d) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(at::cuda::getCurrentCUDAStream());
  ready.block(s);
  at::Tensor norm = d.abs();
  at::Tensor d2 = at::empty_like(d);
  at::cuda::CUDAStreamGuard g(s);
  d2.copy_(d);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 'd2' is written on pool stream 's' while its allocation on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: the current stream is set to pool stream 's' here
  // CHECK-NOTES: :[[@LINE-5]]:19: note: 'd2' is allocated on the caller's current stream here
  d2.record_stream(s);
}

// Right: an event synchronized at the loop's head and recorded after the
// copy. The first iteration's synchronize has nothing to wait for; the
// next ones wait for the previous copy.
void refill_event_synchronized_at_loop_head(at::Tensor &dev, const float *src,
                                            int n) {
  at::Tensor staging = at::empty({16}, at::TensorOptions().pinned_memory(true));
  float *p = staging.data_ptr<float>();
  at::cuda::CUDAEvent copied;
  for (int i = 0; i < n; ++i) {
    copied.synchronize();
    std::copy(src + 16 * i, src + 16 * (i + 1), p);
    dev.copy_(staging, /*non_blocking=*/true);
    copied.record();
  }
}

// Wrong: the event is recorded before the copy it should cover.
void refill_event_recorded_before_copy(at::Tensor &dev, const float *src,
                                       int n) {
  at::Tensor staging = at::empty({16}, at::TensorOptions().pinned_memory(true));
  float *p = staging.data_ptr<float>();
  at::cuda::CUDAEvent copied;
  for (int i = 0; i < n; ++i) {
    copied.synchronize();
    std::copy(src + 16 * i, src + 16 * (i + 1), p);
    // CHECK-NOTES: :[[@LINE-1]]:49: warning: the host writes tensor 'staging' while a non_blocking copy from it on the caller's current stream may still be reading it; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    // CHECK-NOTES: :[[@LINE+2]]:15: note: the non_blocking copy is enqueued on the caller's current stream here
    copied.record();
    dev.copy_(staging, /*non_blocking=*/true);
  }
}

// Wrong: a temporary no name holds is named by the call that made it (the
// same wording as streamsafe-py's, test/python/data-index-put.py).
float firstOfTemporary(const at::Tensor &dev) {
  return dev.to(at::kCPU, /*non_blocking=*/true).data_ptr<float>()[0];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: the host reads the result of 'dev.to(at::kCPU, /*non_blocking=*/true)' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
  // CHECK-NOTES: :[[@LINE-2]]:10: note: the non_blocking copy is enqueued on the caller's current stream here
}

// Right: the same temporary from a blocking copy.
float firstOfBlockingTemporary(const at::Tensor &dev) {
  return dev.to(at::kCPU).data_ptr<float>()[0];
}
