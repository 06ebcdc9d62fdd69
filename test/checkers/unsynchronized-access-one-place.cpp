// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// Which findings are shown is one policy for both front ends
// (lib/report/ShownFindings.h; the Python twin is
// test/python/shown-findings.py): one per place, check and wording, so two
// tensors racing at one place are two findings; a race wholly inside a
// helper run in place is shown once, by the helper's own analysis.
#include <ATen/ATen.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

// Wrong: both operands are written on the current stream and read on s.
at::Tensor both_operands(const at::Tensor &x) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor a = x * 2;
  at::Tensor b = x * 3;
  c10::cuda::CUDAStreamGuard g(s);
  return at::cat({a, b});
}

// Wrong, twice at one place: the helper's accesses race with the caller's
// writes, and each race is reported at the call, where the wait belongs.
static void add_on(at::Tensor &p, at::Tensor &q, c10::cuda::CUDAStream s) {
  c10::cuda::CUDAStreamGuard g(s);
  p.add_(1);
  q.add_(1);
}

void two_at_the_call(const at::Tensor &x) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor a = x * 2;
  at::Tensor b = x * 3;
  add_on(a, b, s);
}

// Wrong, once: the helper races on its own, whoever calls it.
static at::Tensor helper(const at::Tensor &x) {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor y = x * 2;
  c10::cuda::CUDAStreamGuard g(s);
  return y + 1;
}

at::Tensor first_caller(const at::Tensor &x) { return helper(x); }
at::Tensor second_caller(const at::Tensor &x) { return helper(x * 4); }

// The findings, in order (lines above are not shifted by these):
// CHECK-NOTES: :18:19: warning: tensor 'a' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
// CHECK-NOTES: :17:30: note: the current stream is set to pool stream 's' here
// CHECK-NOTES: :15:18: note: 'a' is written on the caller's current stream here
// CHECK-NOTES: :18:22: warning: tensor 'b' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
// CHECK-NOTES: :17:30: note: the current stream is set to pool stream 's' here
// CHECK-NOTES: :16:18: note: 'b' is written on the caller's current stream here
// CHECK-NOTES: :33:3: warning: tensor 'p' (a view of 'a') is written on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
// CHECK-NOTES: :25:3: note: 'p' is written on pool stream 's' here, in 'add_on'
// CHECK-NOTES: :24:30: note: the current stream is set to pool stream 's' here
// CHECK-NOTES: :31:18: note: 'a' is written on the caller's current stream here
// CHECK-NOTES: :33:3: warning: tensor 'q' (a view of 'b') is written on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
// CHECK-NOTES: :26:3: note: 'q' is written on pool stream 's' here, in 'add_on'
// CHECK-NOTES: :24:30: note: the current stream is set to pool stream 's' here
// CHECK-NOTES: :32:18: note: 'b' is written on the caller's current stream here
// CHECK-NOTES: :41:10: warning: tensor 'y' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
// CHECK-NOTES: :40:30: note: the current stream is set to pool stream 's' here
// CHECK-NOTES: :39:18: note: 'y' is written on the caller's current stream here
