// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// A wait for the default stream orders the default stream's work, and the
// caller's only where the caller's current stream is the default stream,
// which a function cannot assume (its caller may run it under a side
// stream or a capture). The race it leaves says so (the C++ twin of
// test/python/default-wait.py; Megatron's bucket groups, whose
// `comm_stream.wait_stream(torch.cuda.default_stream())` was the bug).

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

// Wrong: s waits for the default stream, not for the caller's.
at::Tensor reduce_after_default(const at::Tensor &grads) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ev;
  ev.record(at::cuda::getDefaultCUDAStream());
  ev.block(s);
  c10::cuda::CUDAStreamGuard g(s);
  return grads.sum();
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'grads' is read on pool stream 's', but it is only known to be ready on the caller's current stream; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:30: note: the current stream is set to pool stream 's' here
  // CHECK-NOTES: :[[@LINE-9]]:51: note: 'grads' is assumed ready on the caller's current stream at function entry
  // CHECK-NOTES: :[[@LINE-6]]:3: note: pool stream 's' waits here for the default stream, which need not be the caller's current stream (the wait orders only the default stream's work; make it wait for the current stream)
}

// Right: s waits for the caller's current stream.
at::Tensor reduce_after_current(const at::Tensor &grads) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ev;
  ev.record(at::cuda::getCurrentCUDAStream());
  ev.block(s);
  c10::cuda::CUDAStreamGuard g(s);
  return grads.sum();
}

// Right: the work waited for is the default stream's own (made under a
// guard that installs it), and s waits for it.
at::Tensor reduce_default_work(const at::Tensor &grads) {
  at::Tensor scaled;
  {
    c10::cuda::CUDAStreamGuard d(at::cuda::getDefaultCUDAStream());
    scaled = grads * 2;
  }
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ev;
  ev.record(at::cuda::getDefaultCUDAStream());
  ev.block(s);
  c10::cuda::CUDAStreamGuard g(s);
  return scaled.sum();
}
