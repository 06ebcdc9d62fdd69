// RUN: %check_streamsafe %s 'streamsafe-unsynchronized-access,streamsafe-missing-record-stream' %t
// RUN: %check_streamsafe -check-suffix=ONE %s streamsafe-unsynchronized-access %t-one

// The engine checks (checks/EngineCheck.cpp, docs/checks/engine.md): one
// class, one instance per check, all reading the one analysis of each
// function. Each reports only its own kind; a finding reached through a
// helper run in place is reported once.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

// One function with two kinds of bug: each engine check reports its own
// kind, from the one analysis of the function. The side stream waits for w
// but not for y, which is made after the event; w's block is not recorded
// on the side stream, y's is.
at::Tensor two_kinds(const at::Tensor &x) {
  at::Tensor w = x + 1;
  c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(c10::cuda::getCurrentCUDAStream());
  ready.block(side);
  at::Tensor y = x * 2;
  at::Tensor z;
  {
    c10::cuda::CUDAStreamGuard g(side);
    z = w * 2;
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'w' is used on pool stream 'side' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 'side' is still using it [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-3]]:32: note: the current stream is set to pool stream 'side' here
    // CHECK-NOTES: :[[@LINE-12]]:18: note: 'w' is allocated on the caller's current stream here
    // CHECK-NOTES: :[[@LINE+8]]:10: note: the last reference to 'w' dies here, with no record_stream on pool stream 'side' and no synchronization with the caller's current stream
    y.record_stream(side);
    z.add_(y);
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'y' is read on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-9]]:32: note: the current stream is set to pool stream 'side' here
    // CHECK-NOTES: :[[@LINE-13]]:18: note: 'y' is written on the caller's current stream here
    // CHECK-MESSAGES-ONE: :[[@LINE-4]]:12: warning: tensor 'y' is read on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  }
  return z;
}

// The correct twin: the side stream waits for y, and y's block is
// recorded on it.
at::Tensor two_kinds_fixed(const at::Tensor &x) {
  at::Tensor y = x * 2;
  c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(c10::cuda::getCurrentCUDAStream());
  ready.block(side);
  at::Tensor z;
  {
    c10::cuda::CUDAStreamGuard g(side);
    z = y + 1;
    y.record_stream(side);
  }
  return z;
}

// A helper with a race, run in place by two callers: reported once, at
// the first caller to find it, not again at the second nor in the helper.
static at::Tensor sum_on(const at::Tensor &y, c10::cuda::CUDAStream side) {
  c10::cuda::CUDAStreamGuard g(side);
  at::Tensor s = y.sum();
  y.record_stream(side);
  return s;
}

at::Tensor first_caller(const at::Tensor &x) {
  at::Tensor y = x * 2;
  return sum_on(y, c10::cuda::getStreamFromPool());
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'y' is read on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-9]]:18: note: 'y' is read on pool stream 'side' here, in 'sum_on'
  // CHECK-NOTES: :[[@LINE-11]]:30: note: the current stream is set to pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-5]]:18: note: 'y' is written on the caller's current stream here
  // CHECK-MESSAGES-ONE: :[[@LINE-5]]:10: warning: tensor 'y' is read on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
}

at::Tensor second_caller(const at::Tensor &x) {
  at::Tensor y = x * 3;
  return sum_on(y, c10::cuda::getStreamFromPool());
}

// The fix-it of missing-record-stream (with both checks on):
// CHECK-FIXES: {{^}}    z = w * 2;{{$}}
// CHECK-FIXES-NEXT: {{^}}    w.record_stream(side);{{$}}
