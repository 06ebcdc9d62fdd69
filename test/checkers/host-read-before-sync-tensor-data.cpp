// RUN: %check_streamsafe %s streamsafe-host-read-before-sync %t

// at::tensor of host data placed on the device is built on the host and
// copied as by a blocking to(): the copy from pageable memory is followed by
// a synchronize of the current stream, which completes a non_blocking copy
// queued on it before.

#include <ATen/ATen.h>
#include <c10/cuda/CUDAStream.h>
float tensor_from_host_data_syncs(const at::Tensor &X) {
  at::Tensor H = at::empty({4}, at::TensorOptions().pinned_memory(true));
  H.copy_(X, /*non_blocking=*/true);
  at::Tensor Idx = at::tensor({0, 1}, at::TensorOptions().device(at::kCUDA));
  return H.data_ptr<float>()[0];
}
// On the host, no copy and no wait.
float tensor_on_the_host(const at::Tensor &X) {
  at::Tensor H = at::empty({4}, at::TensorOptions().pinned_memory(true));
  H.copy_(X, /*non_blocking=*/true);
  at::Tensor Idx = at::tensor({0, 1});
  return H.data_ptr<float>()[0];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: the host reads tensor 'H' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the non_blocking copy is enqueued on the caller's current stream here
}
