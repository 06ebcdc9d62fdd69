// RUN: %check_streamsafe %s streamsafe-unrestored-current-stream %t

#include <ATen/ATen.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

// The real PyTorch bug: an op switched the current stream and never
// switched back; the caller's later work silently ran on the side stream.
void run_op_on_side_stream(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::setCurrentCUDAStream(s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the current stream set here is not restored on every path out of 'run_op_on_side_stream'; the caller's later work silently runs on it (use a c10::cuda::CUDAStreamGuard to set the stream for a scope) [streamsafe-unrestored-current-stream]
  // CHECK-NOTES: :[[@LINE+2]]:1: note: 'run_op_on_side_stream' can return here with the stream still set
  at::Tensor Y = X.exp();
}

// Restored on the normal path, not on the early return.
void restored_on_one_path(const at::Tensor &X, bool fast) {
  auto original = at::cuda::getCurrentCUDAStream();
  at::cuda::setCurrentCUDAStream(at::cuda::getStreamFromPool());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the current stream set here is not restored on every path out of 'restored_on_one_path'; the caller's later work silently runs on it (use a c10::cuda::CUDAStreamGuard to set the stream for a scope) [streamsafe-unrestored-current-stream]
  // CHECK-NOTES: :[[@LINE+2]]:5: note: 'restored_on_one_path' can return here with the stream still set
  if (fast)
    return;
  at::Tensor Y = X.exp();
  at::cuda::setCurrentCUDAStream(original);
}

// Restored on every path.
void restored(const at::Tensor &X) {
  auto original = at::cuda::getCurrentCUDAStream();
  at::cuda::setCurrentCUDAStream(at::cuda::getStreamFromPool());
  at::Tensor Y = X.exp();
  at::cuda::setCurrentCUDAStream(original);
}

// A guard: set for a scope, restored by its destructor.
void guarded(const at::Tensor &X) {
  at::cuda::CUDAStreamGuard guard(at::cuda::getStreamFromPool());
  at::Tensor Y = X.exp();
}

// A set inside a guard's scope is undone when the guard restores.
void set_inside_guard(const at::Tensor &X) {
  at::cuda::CUDAStreamGuard guard(at::cuda::getStreamFromPool());
  at::cuda::setCurrentCUDAStream(at::cuda::getStreamFromPool());
  at::Tensor Y = X.exp();
}

// Setting the default stream "back" is no restore: the caller's stream
// need not be the default stream.
void reset_to_default(const at::Tensor &X) {
  at::cuda::setCurrentCUDAStream(at::cuda::getStreamFromPool());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the current stream set here is not restored on every path out of 'reset_to_default': the default stream is set in its place, and the caller's stream need not be the default stream; the caller's later work silently runs on the default stream (use a c10::cuda::CUDAStreamGuard to set the stream for a scope) [streamsafe-unrestored-current-stream]
  // CHECK-NOTES: :[[@LINE+3]]:3: note: the default stream is set here, not the stream that was current when 'reset_to_default' was entered
  // CHECK-NOTES: :[[@LINE+3]]:1: note: 'reset_to_default' can return here with the default stream set
  at::Tensor Y = X.exp();
  at::cuda::setCurrentCUDAStream(at::cuda::getDefaultCUDAStream());
}

// The correct twin: the stream current at entry is saved and set back.
void set_back_saved(const at::Tensor &X) {
  auto Saved = at::cuda::getCurrentCUDAStream();
  at::cuda::setCurrentCUDAStream(at::cuda::getStreamFromPool());
  at::Tensor Y = X.exp();
  at::cuda::setCurrentCUDAStream(Saved);
}

// A reset while the caller's stream is current changes the caller's
// stream on purpose (a "reset" idiom): not reported.
void reset_first(const at::Tensor &X) {
  at::cuda::setCurrentCUDAStream(at::cuda::getDefaultCUDAStream());
  at::Tensor Y = X.exp();
}
