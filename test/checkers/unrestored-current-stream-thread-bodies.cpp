// RUN: %check_streamsafe %s streamsafe-unrestored-current-stream %t

// A function the unit runs as a thread's body may set a stream for its
// thread and leave it set: the current stream is thread-local, and no
// caller of this thread sees it.

#include <ATen/ATen.h>
#include <c10/core/thread_pool.h>
#include <c10/cuda/CUDAStream.h>
#include <future>
#include <thread>

void stage_worker(at::Tensor t, c10::cuda::CUDAStream s) {
  at::cuda::setCurrentCUDAStream(s);
  t.mul_(2);
}

void start_stage_worker() {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor t = at::ones({4}, at::kCUDA);
  std::thread th(stage_worker, t, s);
  th.join();
}

void binds_its_own_stream() {
  at::cuda::setCurrentCUDAStream(at::cuda::getStreamFromPool());
}

void start_async_binder() {
  auto f = std::async(std::launch::async, &binds_its_own_stream);
  f.get();
}

// The same setter, not a thread's body, forwards the stream it is given
// (lib/lower/LeavesStreamSet.h): its caller chose it, and is judged where
// it runs the setter in place.
void leaks_into_caller(c10::cuda::CUDAStream s) {
  at::cuda::setCurrentCUDAStream(s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the current stream set here is not restored on every path out of 'runs_the_setter'; the caller's later work silently runs on it (use a c10::cuda::CUDAStreamGuard to set the stream for a scope) [streamsafe-unrestored-current-stream]
  // CHECK-NOTES: :[[@LINE+5]]:1: note: 'runs_the_setter' can return here with the stream still set
}

void runs_the_setter() {
  leaks_into_caller(at::cuda::getStreamFromPool());
}
