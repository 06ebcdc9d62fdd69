// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// A thread body starts on the default stream; captured tensors carry their
// pending accesses into it.

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <thread>

// t made on the first thread's stream, copied to another device in a thread.
void to_other_device_in_thread() {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard guard(s);
  at::Tensor t = at::randn({100}, at::kCUDA);
  at::launch([t] { at::Tensor t2 = t.to(at::Device(at::kCUDA, 1)); });
  // CHECK-NOTES: :[[@LINE-1]]:36: warning: tensor 't' is read on the default stream while its write on pool stream 's' may still be pending; nothing makes the default stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the current stream is thread-local: the thread started here runs on the default stream
  // CHECK-NOTES: :[[@LINE-4]]:18: note: 't' is written on pool stream 's' here
  // CHECK-NOTES: :[[@LINE-6]]:29: note: the current stream was set to pool stream 's' here
}

// The fix: the thread waits for the producing stream's event first.
void thread_waits_for_event() {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard guard(s);
  at::Tensor t = at::randn({100}, at::kCUDA);
  at::cuda::CUDAEvent produced;
  produced.record(s);
  std::thread worker([&] {
    produced.block(at::cuda::getCurrentCUDAStream());
    at::Tensor t2 = t * 2;
  });
  worker.join();
}

// The fix: the thread runs on the producing stream.
void thread_uses_producing_stream() {
  auto s = at::cuda::getStreamFromPool();
  at::Tensor t;
  {
    at::cuda::CUDAStreamGuard guard(s);
    t = at::randn({100}, at::kCUDA);
  }
  std::thread worker([&t, s] {
    at::cuda::CUDAStreamGuard inner(s);
    at::Tensor t2 = t * 2;
  });
  worker.join();
}

// Made on the spawner's current (possibly default) stream: the thread's
// default stream may be the same stream — silent.
void made_on_callers_stream(const at::Tensor &X) {
  at::Tensor t = X * 2;
  std::thread worker([&t] { at::Tensor t2 = t + 1; });
  worker.join();
}
