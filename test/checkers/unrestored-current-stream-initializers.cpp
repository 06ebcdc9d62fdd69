// RUN: %check_streamsafe %s streamsafe-unrestored-current-stream %t \
// RUN:   -- -config="{CheckOptions: {StreamBindingInitializers: 'dtorch::Worker::InitInAsyncThread'}}"

// A worker thread's initialiser binds a stream for the thread's life (a
// framework that runs each worker on its own stream): legal when listed in
// StreamBindingInitializers. Other functions are still checked.

#include <c10/cuda/CUDAStream.h>

namespace dtorch {
struct Worker {
  void InitInAsyncThread() {
    at::cuda::setCurrentCUDAStream(at::cuda::getStreamFromPool());
  }
  void Rebind() {
    at::cuda::setCurrentCUDAStream(at::cuda::getStreamFromPool());
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: the current stream set here is not restored on every path out of 'Rebind'; the caller's later work silently runs on it (use a c10::cuda::CUDAStreamGuard to set the stream for a scope) [streamsafe-unrestored-current-stream]
    // CHECK-NOTES: :[[@LINE+1]]:3: note: 'Rebind' can return here with the stream still set
  }
};
} // namespace dtorch
