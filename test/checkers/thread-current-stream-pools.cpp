// RUN: %check_streamsafe %s streamsafe-thread-current-stream %t

// Tasks of thread pools and async tasks as real code hands them over: a
// shared_ptr capture, a pool reached through a getter, one pool per expert.
// Each task starts on its thread's default stream.

#include <ATen/ATen.h>
#include <c10/core/thread_pool.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <future>
#include <memory>

// The tensor lives behind a shared_ptr the task captures.
void async_shared_ptr() {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard g(s);
  auto Buf = std::make_shared<at::Tensor>(at::ones({4}, at::kCUDA));
  auto F = std::async(std::launch::async, [Buf] { Buf->mul_(2); });
  // CHECK-NOTES: :[[@LINE-1]]:51: warning: this work runs on the default stream, not on pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
  // CHECK-NOTES: :[[@LINE-2]]:12: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
  // CHECK-NOTES: :[[@LINE-5]]:29: note: the spawning thread's current stream is set to pool stream 's' here
  F.get();
}

// A pool reached through a getter.
c10::ThreadPool &workers() {
  static c10::ThreadPool P(2);
  return P;
}
void pool_getter(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard g(s);
  at::Tensor Y = X * 2;
  workers().run([Y] { auto Z = Y.relu(); });
  // CHECK-NOTES: :[[@LINE-1]]:32: warning: this work runs on the default stream, not on pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
  // CHECK-NOTES: :[[@LINE-5]]:29: note: the spawning thread's current stream is set to pool stream 's' here
}

// One pool per expert, each handed a task.
struct Experts {
  std::vector<std::unique_ptr<c10::ThreadPool>> Pools;
  void dispatch(const at::Tensor &X) {
    auto s = at::cuda::getStreamFromPool();
    at::cuda::CUDAStreamGuard g(s);
    at::Tensor Y = X * 2;
    for (auto &P : Pools)
      P->run([Y] { auto Z = Y.relu(); });
      // CHECK-NOTES: :[[@LINE-1]]:29: warning: this work runs on the default stream, not on pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
      // CHECK-NOTES: :[[@LINE-2]]:7: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
      // CHECK-NOTES: :[[@LINE-6]]:31: note: the spawning thread's current stream is set to pool stream 's' here
  }
};

// The fix: the task is handed the stream and guards it.
void pool_task_sets_the_stream(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard g(s);
  at::Tensor Y = X * 2;
  workers().run([Y, s] {
    at::cuda::CUDAStreamGuard inner(s);
    auto Z = Y.relu();
  });
}
