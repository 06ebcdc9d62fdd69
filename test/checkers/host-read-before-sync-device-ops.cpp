// RUN: %check_streamsafe %s streamsafe-host-read-before-sync,streamsafe-unsynchronized-access %t

// Code the analysis does not see reads the host memory it is handed now,
// on the host. A function of the program named as a CUDA op (`*_cuda`)
// enqueues its work on the current stream instead: it reads pinned memory in
// stream order, after a copy into it on that stream. One rule for both
// languages (lib/lower/UnknownCode.h); the Python twin is
// test/python/unknown-device-ops.py.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

void plan(const at::Tensor &indptr_host);
void set_cuda(const at::Tensor &rows_host);

// Wrong: plan() reads the indptr on the host while the copy may still run.
void host_plan(const at::Tensor &d) {
  at::Tensor h =
      at::empty(d.sizes(), d.options().device(at::kCPU).pinned_memory(true));
  h.copy_(d, /*non_blocking=*/true);
  plan(h);
  // CHECK-NOTES: :[[@LINE-1]]:8: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the non_blocking copy is enqueued on the caller's current stream here
}

// Right: set_cuda() enqueues its read after the copy on the same stream.
void device_op(const at::Tensor &d) {
  at::Tensor h =
      at::empty(d.sizes(), d.options().device(at::kCPU).pinned_memory(true));
  h.copy_(d, /*non_blocking=*/true);
  set_cuda(h);
}

// Wrong: in stream order, but on another stream than the copy's, with no
// wait.
void device_op_other_stream(const at::Tensor &d) {
  at::Tensor h =
      at::empty(d.sizes(), d.options().device(at::kCPU).pinned_memory(true));
  auto side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(c10::cuda::getCurrentCUDAStream());
  ready.block(side);
  {
    c10::cuda::CUDAStreamGuard g(side);
    h.copy_(d, /*non_blocking=*/true);
  }
  set_cuda(h);
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'h' is read on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-5]]:5: note: 'h' is written on pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-7]]:32: note: the current stream was set to pool stream 'side' here
}
