// RUN: %check_streamsafe %s streamsafe-host-read-before-sync %t

// A host accessor (`auto acc = t.accessor<float, 1>()`) is a view of the
// tensor's memory: `acc[i]` and `acc[i][j]` read it on the host, and an
// assignment through it writes it, as through `t.data_ptr<float>()`.

#include <ATen/ATen.h>
#include <c10/cuda/CUDAStream.h>

float read_through_accessor(const at::Tensor &X) {
  at::Tensor H = at::empty({4}, at::TensorOptions().pinned_memory(true));
  H.copy_(X, /*non_blocking=*/true);
  auto Acc = H.accessor<float, 1>();
  return Acc[0];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: the host reads tensor 'H' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the non_blocking copy is enqueued on the caller's current stream here
}

// The correct twin: the stream is synchronized before the read.
float read_after_sync(const at::Tensor &X) {
  at::Tensor H = at::empty({4}, at::TensorOptions().pinned_memory(true));
  H.copy_(X, /*non_blocking=*/true);
  c10::cuda::getCurrentCUDAStream().synchronize();
  auto Acc = H.accessor<float, 1>();
  return Acc[0];
}

// Two dimensions; the host writes the staging buffer a copy to the device
// may still be reading.
void write_through_accessor(at::Tensor &Dev) {
  at::Tensor H = at::ones({2, 2}, at::TensorOptions().pinned_memory(true));
  Dev.copy_(H, /*non_blocking=*/true);
  auto Acc = H.accessor<float, 2>();
  Acc[1][1] = 0.f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the host writes tensor 'H' while a non_blocking copy from it on the caller's current stream may still be reading it; synchronize the stream or an event first [streamsafe-host-read-before-sync]
  // CHECK-NOTES: :[[@LINE-4]]:13: note: the non_blocking copy is enqueued on the caller's current stream here
}
