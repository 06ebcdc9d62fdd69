// A small framework shared by a/ and b/. Each folder's .clang-tidy describes
// a different part of it to StreamSafe.
#pragma once
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#include <functional>

namespace fw {

class Event {
public:
  void Record(at::cuda::CUDAStream S) { cudaEventRecord(E, S.stream()); }
  void Wait(at::cuda::CUDAStream S) { cudaStreamWaitEvent(S.stream(), E, 0); }

private:
  cudaEvent_t E = nullptr;
};

// Runs tasks on a worker thread bound to a stream of its own.
class Worker {
public:
  void Launch(std::function<void()> Task);
};

// Sets the current stream for a scope. Defined in the framework's library:
// this translation unit cannot see that it is a guard unless told.
class Scope {
public:
  explicit Scope(at::cuda::CUDAStream S);
  ~Scope();

private:
  at::cuda::CUDAStream Saved;
};

} // namespace fw
