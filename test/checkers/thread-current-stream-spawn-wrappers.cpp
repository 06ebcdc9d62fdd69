// RUN: %check_streamsafe %s streamsafe-thread-current-stream %t

// A project's own thread spawner, recognised from its code
// (lib/frontend/SpawnWrappers.h): a function that hands its callable
// parameter to at::launch, c10::ThreadPool::run or another such wrapper.
// The task still starts on its thread's default stream.

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/thread_pool.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <functional>
#include <utility>

void runAsync(std::function<void()> f) { at::launch(std::move(f)); }

c10::ThreadPool &workers() {
  static c10::ThreadPool P(2);
  return P;
}

template <class F> void submit(F &&f) { workers().run(std::forward<F>(f)); }

// A wrapper of a wrapper.
void submitLogged(std::function<void()> f) { runAsync(std::move(f)); }

void viaFunctionWrapper(at::Tensor &out, const at::Tensor &in) {
  auto side = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard g(side);
  runAsync([&] { out.copy_(in * 2); });
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: this work runs on the default stream, not on pool stream 'side' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
  // CHECK-NOTES: :[[@LINE-4]]:30: note: the spawning thread's current stream is set to pool stream 'side' here
}

void viaTemplateWrapper(at::Tensor &out, const at::Tensor &in) {
  auto side = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard g(side);
  submit([&] { out.copy_(in * 2); });
  // CHECK-NOTES: :[[@LINE-1]]:16: warning: this work runs on the default stream, not on pool stream 'side' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
  // CHECK-NOTES: :[[@LINE-4]]:30: note: the spawning thread's current stream is set to pool stream 'side' here
}

void viaTwoWrappers(at::Tensor &out, const at::Tensor &in) {
  auto side = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard g(side);
  submitLogged([&] { out.copy_(in * 2); });
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: this work runs on the default stream, not on pool stream 'side' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
  // CHECK-NOTES: :[[@LINE-4]]:30: note: the spawning thread's current stream is set to pool stream 'side' here
}

// Right: the task installs the stream it is handed.
void guardInside(at::Tensor &out, const at::Tensor &in) {
  auto side = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard g(side);
  runAsync([&, side] {
    c10::cuda::CUDAStreamGuard inner(side);
    out.copy_(in * 2);
  });
}

// Right: a function that calls its callable here is no spawner.
void runHere(const std::function<void()> &f) { f(); }

void inline_call(at::Tensor &out, const at::Tensor &in) {
  auto side = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard g(side);
  runHere([&] { out.copy_(in * 2); });
}

// Right: no stream is set where the task is handed over.
void noStreamSet(at::Tensor &out, const at::Tensor &in) {
  runAsync([&] { out.copy_(in * 2); });
}
