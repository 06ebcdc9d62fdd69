// RUN: %check_streamsafe %s streamsafe-unrestored-current-stream %t

// Correlated branches: a set and its restore guarded by the same
// never-changing flag. The path that sets and does not restore does not
// exist, so nothing is reported; a different flag, or a flag the function
// changes in between, leaves a real path out with the stream still set.

#include <ATen/ATen.h>
#include <c10/cuda/CUDAStream.h>

// The shape of expert-parallel communication code: switch to the
// communication stream only when asked, switch back under the same test.
void flag_guarded(const at::Tensor &x, bool async_op) {
  auto saved = at::cuda::getCurrentCUDAStream();
  auto comm = at::cuda::getStreamFromPool();
  if (async_op)
    at::cuda::setCurrentCUDAStream(comm);
  at::Tensor y = x.exp();
  if (async_op)
    at::cuda::setCurrentCUDAStream(saved);
}

// The same with the test negated and with a pointer test.
void negated_and_pointer(const at::Tensor &x, bool sync, const int *opts) {
  auto saved = at::cuda::getCurrentCUDAStream();
  if (!sync)
    at::cuda::setCurrentCUDAStream(at::cuda::getStreamFromPool());
  if (opts != nullptr)
    at::cuda::setCurrentCUDAStream(at::cuda::getStreamFromPool());
  at::Tensor y = x.exp();
  if (sync == false)
    at::cuda::setCurrentCUDAStream(saved);
  if (opts)
    at::cuda::setCurrentCUDAStream(saved);
}

// A local flag computed once works as well.
void local_flag(const at::Tensor &x) {
  const bool side = x.numel() > 1024;
  auto saved = at::cuda::getCurrentCUDAStream();
  if (side)
    at::cuda::setCurrentCUDAStream(at::cuda::getStreamFromPool());
  at::Tensor y = x.exp();
  if (side)
    at::cuda::setCurrentCUDAStream(saved);
}

// Restored under another flag: the path (async_op, !restore) leaves the
// stream set.
void other_flag(const at::Tensor &x, bool async_op, bool restore) {
  auto saved = at::cuda::getCurrentCUDAStream();
  if (async_op)
    at::cuda::setCurrentCUDAStream(at::cuda::getStreamFromPool());
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: the current stream set here is not restored on every path out of 'other_flag'; the caller's later work silently runs on it (use a c10::cuda::CUDAStreamGuard to set the stream for a scope) [streamsafe-unrestored-current-stream]
  // CHECK-NOTES: :[[@LINE+4]]:1: note: 'other_flag' can return here with the stream still set
  at::Tensor y = x.exp();
  if (restore)
    at::cuda::setCurrentCUDAStream(saved);
}

// The flag changes between the two tests: no longer the same condition.
void flag_changed(const at::Tensor &x, bool async_op) {
  auto saved = at::cuda::getCurrentCUDAStream();
  if (async_op)
    at::cuda::setCurrentCUDAStream(at::cuda::getStreamFromPool());
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: the current stream set here is not restored on every path out of 'flag_changed'; the caller's later work silently runs on it (use a c10::cuda::CUDAStreamGuard to set the stream for a scope) [streamsafe-unrestored-current-stream]
  // CHECK-NOTES: :[[@LINE+5]]:1: note: 'flag_changed' can return here with the stream still set
  at::Tensor y = x.exp();
  async_op = x.numel() > 0;
  if (async_op)
    at::cuda::setCurrentCUDAStream(saved);
}

// A flag declared in a loop takes a new value each iteration; each
// iteration's own tests still pair the set with the restore.
void flag_in_loop(const at::Tensor &x, int n) {
  auto saved = at::cuda::getCurrentCUDAStream();
  for (int i = 0; i < n; ++i) {
    bool side = i % 2 == 0;
    if (side)
      at::cuda::setCurrentCUDAStream(at::cuda::getStreamFromPool());
    at::Tensor y = x.exp();
    if (side)
      at::cuda::setCurrentCUDAStream(saved);
  }
}

// ... but what the previous iteration's test told does not carry over: an
// iteration that sets the stream is followed by one that returns.
void flag_from_previous_iteration(const at::Tensor &x) {
  while (true) {
    bool more = x.sum().item<float>() > 0;
    if (more)
      at::cuda::setCurrentCUDAStream(at::cuda::getStreamFromPool());
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: the current stream set here is not restored on every path out of 'flag_from_previous_iteration'; the caller's later work silently runs on it (use a c10::cuda::CUDAStreamGuard to set the stream for a scope) [streamsafe-unrestored-current-stream]
    // CHECK-NOTES: :[[@LINE+3]]:7: note: 'flag_from_previous_iteration' can return here with the stream still set
    x.add_(1);
    if (!more)
      return;
  }
}
