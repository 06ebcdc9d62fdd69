// RUN: %check_streamsafe %s streamsafe-thread-current-stream %t

// The current stream is thread-local (docs/api-model.md, section 7): a new
// thread starts on the default stream whatever guard its spawner had set.

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <future>
#include <thread>

__attribute__((noinline)) void consume(float);

void work_in_thread_under_spawner_guard(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard guard(s);
  std::thread worker([&] {
    at::Tensor Y = X.exp();
    // CHECK-NOTES: :[[@LINE-1]]:20: warning: this work runs on the default stream, not on pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
    // CHECK-NOTES: :[[@LINE-3]]:15: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
    // CHECK-NOTES: :[[@LINE-5]]:29: note: the spawning thread's current stream is set to pool stream 's' here
    consume(Y.sum().item<float>());
  });
  worker.join();
}

void current_stream_queried_in_thread() {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::setCurrentCUDAStream(s);
  auto task = std::async(std::launch::async, [] {
    auto stream = at::cuda::getCurrentCUDAStream();
    // CHECK-NOTES: :[[@LINE-1]]:19: warning: getCurrentCUDAStream() in this thread returns the default stream, not pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
    // CHECK-NOTES: :[[@LINE-3]]:15: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
    // CHECK-NOTES: :[[@LINE-5]]:3: note: the spawning thread's current stream is set to pool stream 's' here
    return stream.id();
  });
  task.get();
  at::cuda::setCurrentCUDAStream(at::cuda::getDefaultCUDAStream());
}

// t.to("cuda:1") in a second thread (at::launch), t made on the first
// thread's stream.
void to_other_device_in_thread() {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard guard(s);
  at::Tensor t = at::randn({100}, at::kCUDA);
  at::launch([t] { at::Tensor t2 = t.to(at::Device(at::kCUDA, 1)); });
  // CHECK-NOTES: :[[@LINE-1]]:36: warning: this work runs on the default stream, not on pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
  // CHECK-NOTES: :[[@LINE-5]]:29: note: the spawning thread's current stream is set to pool stream 's' here
}

// The correct pattern: pass the stream in and guard inside the thread.
void thread_sets_its_own_guard(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard guard(s);
  std::thread worker([&X, s] {
    at::cuda::CUDAStreamGuard inner(s);
    at::Tensor Y = X.exp();
  });
  worker.join();
}

// No stream was set by the spawner: the thread's default stream is what the
// code expects.
void spawner_on_default_stream(const at::Tensor &X) {
  std::thread worker([&X] { at::Tensor Y = X.exp(); });
  worker.join();
}

// Work outside the guard's scope does not rely on it.
void guard_closed_before_spawn(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  {
    at::cuda::CUDAStreamGuard guard(s);
    at::Tensor Y = X.exp();
  }
  std::thread worker([&X] { at::Tensor Z = X.sin(); });
  worker.join();
}

// std::launch::deferred runs the task on the caller, at get().
void deferred_task(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard guard(s);
  auto task = std::async(std::launch::deferred, [&X] { return X.exp(); });
  task.get();
}

// PyTorch's stable C ABI asks for the current stream through an
// out-parameter; in a new thread it is the default stream as well.
extern "C" int32_t aoti_torch_get_current_cuda_stream(int32_t device,
                                                     void **ret_stream);
void stable_abi_current_stream_in_thread() {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard guard(s);
  std::thread worker([] {
    void *stream = nullptr;
    aoti_torch_get_current_cuda_stream(0, &stream);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: aoti_torch_get_current_cuda_stream() in this thread returns the default stream, not pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
    // CHECK-NOTES: :[[@LINE-4]]:15: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
    // CHECK-NOTES: :[[@LINE-6]]:29: note: the spawning thread's current stream is set to pool stream 's' here
    consume(stream != nullptr);
  });
  worker.join();
}

// The spawner's guard sets a stream the analysis cannot name (the result of
// a function defined elsewhere): it may be the caller's stream or the
// default stream, so the thread's work is not reported.
c10::cuda::CUDAStream pick_stream();
void spawner_on_an_unknown_stream(const at::Tensor &X) {
  at::cuda::CUDAStreamGuard guard(pick_stream());
  std::thread worker([&X] {
    at::Tensor Y = X.exp();
    consume(Y.sum().item<float>());
  });
  worker.join();
}

// Nothing inside a CUDAMultiStreamGuard's scope is reported: which stream it
// made current on the spawner's device is not known.
void spawner_under_a_multi_stream_guard(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAMultiStreamGuard guard(s);
  std::thread worker([&X] {
    at::Tensor Y = X.exp();
    auto stream = at::cuda::getCurrentCUDAStream();
    consume(Y.sum().item<float>() + stream.id());
  });
  worker.join();
}
