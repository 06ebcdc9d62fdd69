// RUN: %check_streamsafe %s streamsafe-thread-current-stream %t

// A thread's body may be a named function given its arguments
// (std::thread(worker, t), std::async(std::launch::async, worker, t)), or
// the body of an intra-op parallel loop: it runs on a thread of its own, on
// that thread's current stream, the default stream.

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <functional>
#include <future>
#include <thread>

void copy_to_device_one(at::Tensor t) {
  at::Tensor t2 = t.to(at::Device(at::kCUDA, 1));
  // CHECK-NOTES: :[[@LINE-1]]:19: warning: this work runs on the default stream, not on pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
  // CHECK-NOTES: :[[@LINE+10]]:15: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
  // CHECK-NOTES: :[[@LINE+7]]:29: note: the spawning thread's current stream is set to pool stream 's' here
}

// The seed's cross-thread example, with the thread's body a named function
// given its tensor as an argument.
void named_function_under_spawner_guard() {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard guard(s);
  at::Tensor t = at::randn({100}, at::kCUDA);
  std::thread th(copy_to_device_one, t);
  th.join();
}

void guarded_copy(at::Tensor t, c10::cuda::CUDAStream stream) {
  at::cuda::CUDAStreamGuard inner(stream);
  at::Tensor t2 = t.to(at::Device(at::kCUDA, 1));
}

// The fix: the thread is handed the stream and sets it first.
void named_function_sets_the_stream_it_is_given() {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard guard(s);
  at::Tensor t = at::randn({100}, at::kCUDA);
  std::thread th(guarded_copy, t, s);
  th.join();
}

float current_stream_id() {
  return static_cast<float>(at::cuda::getCurrentCUDAStream().id());
  // CHECK-NOTES: :[[@LINE-1]]:29: warning: getCurrentCUDAStream() in this thread returns the default stream, not pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
  // CHECK-NOTES: :[[@LINE+7]]:15: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
  // CHECK-NOTES: :[[@LINE+5]]:3: note: the spawning thread's current stream is set to pool stream 's' here
}

void async_named_task() {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::setCurrentCUDAStream(s);
  auto task = std::async(std::launch::async, &current_stream_id);
  task.get();
  at::cuda::setCurrentCUDAStream(at::cuda::getDefaultCUDAStream());
}

// No stream is set by the spawner: the thread's default stream is what the
// code expects.
void named_function_on_default_stream() {
  at::Tensor t = at::randn({100}, at::kCUDA);
  std::thread th(copy_to_device_one, std::ref(t));
  th.join();
}
