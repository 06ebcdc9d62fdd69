// RUN: %check_streamsafe %s streamsafe-unrestored-current-stream %t

// main() has no caller: a stream it sets for the rest of the program is
// not left set for anyone's later work (silent), unlike a function's.

#include <ATen/ATen.h>
#include <c10/cuda/CUDAStream.h>

void helper_sets(at::Tensor &Y) {
  c10::cuda::setCurrentCUDAStream(c10::cuda::getStreamFromPool());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the current stream set here is not restored on every path out of 'helper_sets'; the caller's later work silently runs on it (use a c10::cuda::CUDAStreamGuard to set the stream for a scope) [streamsafe-unrestored-current-stream]
  // CHECK-NOTES: :[[@LINE+2]]:1: note: 'helper_sets' can return here with the stream still set
  Y.add_(1);
}

int main() {
  c10::cuda::setCurrentCUDAStream(c10::cuda::getStreamFromPool());
  at::Tensor Y = at::ones({4}, at::kCUDA);
  Y.add_(1);
  return 0;
}
