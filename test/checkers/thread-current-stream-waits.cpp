// RUN: %check_streamsafe %s streamsafe-thread-current-stream %t

// A thread that makes its own (default) stream wait for its spawner's
// stream orders its work itself: it does not rely on the spawner's stream,
// and getCurrentCUDAStream() asked only to be made to wait is not reported.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#include <thread>

void thread_waits_for_the_producer() {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard guard(s);
  at::Tensor t = at::randn({100}, at::kCUDA);
  at::cuda::CUDAEvent ready;
  ready.record(s);
  std::thread worker([&] {
    ready.block(at::cuda::getCurrentCUDAStream());
    at::Tensor t2 = t * 2;
  });
  worker.join();
}

void thread_waits_through_the_runtime() {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard guard(s);
  at::Tensor t = at::randn({100}, at::kCUDA);
  cudaEvent_t ready;
  cudaEventCreate(&ready);
  cudaEventRecord(ready, s.stream());
  std::thread worker([&] {
    cudaStreamWaitEvent(at::cuda::getCurrentCUDAStream().stream(), ready, 0);
    at::Tensor t2 = t * 2;
  });
  worker.join();
}

// The stream is asked for its id, not made to wait: reported.
void thread_asks_for_the_stream() {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard guard(s);
  std::thread worker([] { auto id = at::cuda::getCurrentCUDAStream().id(); });
  // CHECK-NOTES: :[[@LINE-1]]:37: warning: getCurrentCUDAStream() in this thread returns the default stream, not pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
  // CHECK-NOTES: :[[@LINE-2]]:15: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
  // CHECK-NOTES: :[[@LINE-4]]:29: note: the spawning thread's current stream is set to pool stream 's' here
  worker.join();
}
