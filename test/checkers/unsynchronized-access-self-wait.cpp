// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// A wait made while the waiting stream is already current waits for itself:
// an event recorded on the current stream and blocked on by that same
// stream orders nothing. The race it leaves says so (the C++ twin of
// test/python/self-wait.py; FBGEMM's enrichment_query_id in Python).

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

// Wrong: the wait is made under the guard that makes s current.
at::Tensor wait_inside(const at::Tensor &ids) {
  auto s = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard g(s);
  at::cuda::CUDAEvent ev;
  ev.record(at::cuda::getCurrentCUDAStream());
  ev.block(s);
  return ids.cumsum(0);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'ids' is read on pool stream 's', but it is only known to be ready on the caller's current stream; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-6]]:30: note: the current stream is set to pool stream 's' here
  // CHECK-NOTES: :[[@LINE-9]]:42: note: 'ids' is assumed ready on the caller's current stream at function entry
  // CHECK-NOTES: :[[@LINE-5]]:3: note: pool stream 's' waits here for the current stream, which is pool stream 's' itself: the wait orders nothing (make it wait before it is made current)
}

// Right: the wait comes before s is made current.
at::Tensor wait_before(const at::Tensor &ids) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ev;
  ev.record(at::cuda::getCurrentCUDAStream());
  ev.block(s);
  c10::cuda::CUDAStreamGuard g(s);
  return ids.cumsum(0);
}
