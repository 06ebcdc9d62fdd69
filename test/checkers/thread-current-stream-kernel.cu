// RUN: %check_streamsafe %s streamsafe-thread-current-stream %t

// A kernel launched in a worker thread on "the current stream" gets the
// default stream, not the stream its spawner had set.

#include <ATen/ATen.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <thread>

__global__ void fill_kernel(float *out, int n) {}

void launch_in_worker(at::Tensor &out) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard guard(side);
  std::thread worker([&out] {
    fill_kernel<<<1, 32, 0, at::cuda::getCurrentCUDAStream()>>>(
    // CHECK-NOTES: :[[@LINE-1]]:29: warning: getCurrentCUDAStream() in this thread returns the default stream, not pool stream 'side' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
    // CHECK-NOTES: :[[@LINE-3]]:15: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
    // CHECK-NOTES: :[[@LINE-5]]:29: note: the spawning thread's current stream is set to pool stream 'side' here
        out.data_ptr<float>(), 32);
  });
  worker.join();
}

void launch_in_worker_with_its_guard(at::Tensor &out) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard guard(side);
  std::thread worker([&out, side] {
    at::cuda::CUDAStreamGuard inner(side);
    fill_kernel<<<1, 32, 0, at::cuda::getCurrentCUDAStream()>>>(
        out.data_ptr<float>(), 32);
  });
  worker.join();
}
