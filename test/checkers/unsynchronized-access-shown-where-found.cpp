// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// A race that a function's analysis finds through a helper it runs in place
// is found again by every caller of that function. It is shown once, by the
// function nearest to where it happens, whichever the file defines first
// (the Python twin is test/python/shown-where-found.py).

#include <ATen/ATen.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

void stepImpl(const at::Tensor &master);

static void broadcast(at::Tensor &t) {
  t.mul_(2);
  t.record_stream(c10::cuda::getCurrentCUDAStream());
}

// Wrong, and shown in stepImpl at its call of broadcast, not here.
void step(const at::Tensor &master) { stepImpl(master); }

void stepImpl(const at::Tensor &master) {
  at::Tensor half = at::empty_like(master);
  half.copy_(master);
  auto side = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard g(side);
  broadcast(half);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 't' (a view of 'half') is written on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-14]]:3: note: 't' is written on pool stream 'side' here, in 'broadcast'
  // CHECK-NOTES: :[[@LINE-4]]:30: note: the current stream is set to pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-7]]:3: note: 'half' is written on the caller's current stream here
}
