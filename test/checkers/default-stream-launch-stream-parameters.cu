// RUN: %check_streamsafe %s streamsafe-default-stream-launch %t

// A function of the project whose CUDA work runs on its cudaStream_t
// parameter, as given (lib/frontend/StreamParameters.h): a call that leaves
// the parameter to a null default, or passes a default stream, runs that
// work on the legacy default stream. The shape of header-only kernel
// libraries' launchers (flashinfer before its fix #111: the PyTorch
// bindings called `BatchDecodeWithPaddedKVCache<...>(...)` without a
// stream). A function that tests its stream (`if (!stream)`) may read null
// as "the current stream" and is not judged.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>

__global__ void scaleKernel(float *out, const float *in, int n);

namespace lib {

template <typename T>
cudaError_t launchScale(T *out, const T *in, int n,
                        cudaStream_t stream = nullptr) {
  scaleKernel<<<(n + 255) / 256, 256, 0, stream>>>(out, in, n);
  return cudaGetLastError();
}

// Passes the stream on, two functions deep.
template <typename T>
cudaError_t dispatchScale(T *out, const T *in, int n,
                          cudaStream_t stream = nullptr) {
  if (n == 0)
    return cudaSuccess;
  return launchScale<T>(out, in, n, stream);
}

// The work in a lambda, as in a dispatch macro.
inline void copyOn(void *dst, const void *src, size_t bytes,
                   cudaStream_t stream) {
  auto go = [&] {
    cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream);
  };
  go();
}

struct Planner {
  cudaError_t plan(void *workspace, size_t bytes,
                   cudaStream_t stream = nullptr) {
    return cudaMemsetAsync(workspace, 0, bytes, stream);
  }
};

// Null means "the current stream" here.
inline void scaleOrCurrent(float *out, const float *in, int n,
                           cudaStream_t stream = nullptr) {
  if (!stream)
    stream = at::cuda::getCurrentCUDAStream();
  scaleKernel<<<1, 256, 0, stream>>>(out, in, n);
}

inline void scaleTested(float *out, const float *in, int n,
                        cudaStream_t stream = nullptr) {
  cudaStream_t s = stream == nullptr ? at::cuda::getCurrentCUDAStream().stream()
                                     : stream;
  scaleKernel<<<1, 256, 0, s>>>(out, in, n);
}

// The default is the current stream.
inline void scaleOnCurrent(
    float *out, const float *in, int n,
    cudaStream_t stream = at::cuda::getCurrentCUDAStream()) {
  scaleKernel<<<1, 256, 0, stream>>>(out, in, n);
}

} // namespace lib

at::Tensor omitted(const at::Tensor &in) {
  at::Tensor out = at::empty_like(in);
  lib::launchScale<float>(out.data_ptr<float>(), in.data_ptr<float>(),
                          in.numel());
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: 'launchScale' runs its CUDA work on the legacy default stream (its stream parameter 'stream' is left to its default, a null stream), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :23:3: note: 'stream' of 'launchScale' is the stream of this kernel launch
  // CHECK-FIXES: lib::launchScale<float>(out.data_ptr<float>(), in.data_ptr<float>(),
  // CHECK-FIXES-NEXT: in.numel(), at::cuda::getCurrentCUDAStream());
  return out;
}

at::Tensor nullThroughTwo(const at::Tensor &in) {
  at::Tensor out = at::empty_like(in);
  lib::dispatchScale<float>(out.data_ptr<float>(), in.data_ptr<float>(),
                            in.numel(), /*stream=*/nullptr);
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: 'dispatchScale' runs its CUDA work on the legacy default stream (its stream parameter 'stream' is given a null stream), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :33:10: note: 'stream' of 'dispatchScale' is passed on to 'launchScale' here
  // CHECK-NOTES: :23:3: note: 'stream' of 'launchScale' is the stream of this kernel launch
  // CHECK-FIXES: in.numel(), /*stream=*/at::cuda::getCurrentCUDAStream());
  return out;
}

void legacyInLambda(at::Tensor &dst, const at::Tensor &src) {
  lib::copyOn(dst.data_ptr(), src.data_ptr(), src.nbytes(), cudaStreamLegacy);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'copyOn' runs its CUDA work on the legacy default stream (its stream parameter 'stream' is given 'cudaStreamLegacy'), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :40:5: note: 'stream' of 'copyOn' is the stream of 'cudaMemcpyAsync' here
}

void method(lib::Planner &planner, at::Tensor &workspace) {
  planner.plan(workspace.data_ptr(), workspace.nbytes());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'plan' runs its CUDA work on the legacy default stream (its stream parameter 'stream' is left to its default, a null stream), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :48:12: note: 'stream' of 'plan' is the stream of 'cudaMemsetAsync' here
  // CHECK-FIXES: planner.plan(workspace.data_ptr(), workspace.nbytes(), at::cuda::getCurrentCUDAStream());
}

void nullVariable(at::Tensor &dst, const at::Tensor &src) {
  cudaStream_t none = 0;
  lib::copyOn(dst.data_ptr(), src.data_ptr(), src.nbytes(), none);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'copyOn' runs its CUDA work on the legacy default stream (its stream parameter 'stream' is given stream 'none'), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :40:5: note: 'stream' of 'copyOn' is the stream of 'cudaMemcpyAsync' here
  // CHECK-NOTES: :[[@LINE-4]]:16: note: 'none' is initialized with a null stream here
}

// Silent: the current stream, a parameter of the caller, and functions
// that test their stream or default it to the current one.
at::Tensor correct(const at::Tensor &in, cudaStream_t callers) {
  at::Tensor out = at::empty_like(in);
  float *o = out.data_ptr<float>();
  const float *i = in.data_ptr<float>();
  int n = in.numel();
  lib::launchScale<float>(o, i, n, at::cuda::getCurrentCUDAStream());
  lib::dispatchScale<float>(o, i, n, at::cuda::getCurrentCUDAStream());
  lib::launchScale<float>(o, i, n, callers);
  lib::scaleOrCurrent(o, i, n);
  lib::scaleOrCurrent(o, i, n, nullptr);
  lib::scaleTested(o, i, n);
  lib::scaleOnCurrent(o, i, n);
  return out;
}

// A handler whose work runs on its `stream_` member, null until
// SetCUDAStream; the binding's wrapper keeps it private (flashinfer's
// BatchDecodeHandler before #111: nothing called SetCUDAStream, so
// BeginForward's copies ran on the legacy default stream).
namespace lib {
class Handler {
public:
  Handler() : stream_(nullptr) {}
  void SetCUDAStream(cudaStream_t stream) { stream_ = stream; }
  cudaError_t BeginForward(void *workspace, size_t bytes) {
    return cudaMemsetAsync(workspace, 0, bytes, stream_);
  }

private:
  cudaStream_t stream_;
};
} // namespace lib

class DecodeWrapper {
public:
  void BeginForward(at::Tensor workspace);

private:
  lib::Handler handler_;
};

void DecodeWrapper::BeginForward(at::Tensor workspace) {
  handler_.BeginForward(workspace.data_ptr(), workspace.nbytes());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'BeginForward' runs its CUDA work on the legacy default stream (its object's stream member 'stream_' is still a null stream: nothing in this translation unit sets it), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :143:15: note: 'stream_' is initialized with a null stream here
  // CHECK-NOTES: :144:8: note: 'SetCUDAStream' would set 'stream_', but nothing in this translation unit calls it
  // CHECK-NOTES: :146:12: note: 'stream_' of 'BeginForward' is the stream of 'cudaMemsetAsync' here
}

// Silent: a handler whose stream is set somewhere in the unit; a holder
// that others can reach (a public member); a holder class with a method
// defined elsewhere; a member that starts as the current stream.
namespace lib {
class SetHandler {
public:
  void SetCUDAStream(cudaStream_t stream) { stream_ = stream; }
  cudaError_t BeginForward(void *workspace, size_t bytes) {
    return cudaMemsetAsync(workspace, 0, bytes, stream_);
  }

private:
  cudaStream_t stream_ = nullptr;
};

class CurrentHandler {
public:
  CurrentHandler() : stream_(at::cuda::getCurrentCUDAStream()) {}
  cudaError_t BeginForward(void *workspace, size_t bytes) {
    return cudaMemsetAsync(workspace, 0, bytes, stream_);
  }

private:
  cudaStream_t stream_;
};
} // namespace lib

class SetWrapper {
public:
  void BeginForward(at::Tensor workspace) {
    handler_.SetCUDAStream(at::cuda::getCurrentCUDAStream());
    handler_.BeginForward(workspace.data_ptr(), workspace.nbytes());
  }

private:
  lib::SetHandler handler_;
};

class PublicWrapper {
public:
  void BeginForward(at::Tensor workspace) {
    handler_.BeginForward(workspace.data_ptr(), workspace.nbytes());
  }
  lib::Handler handler_;
};

class OpenWrapper {
public:
  void BeginForward(at::Tensor workspace) {
    handler_.BeginForward(workspace.data_ptr(), workspace.nbytes());
  }
  void Reset(); // defined in another unit: it may set the stream

private:
  lib::Handler handler_;
};

class CurrentWrapper {
public:
  void BeginForward(at::Tensor workspace) {
    handler_.BeginForward(workspace.data_ptr(), workspace.nbytes());
  }

private:
  lib::CurrentHandler handler_;
};

// Recursion: the function's own summary is not known while it is being
// made; the launch decides.
namespace lib {
inline void halve(float *out, int n, cudaStream_t stream = nullptr) {
  if (n > 1)
    halve(out, n / 2, stream);
  scaleKernel<<<1, 256, 0, stream>>>(out, out, n);
}
} // namespace lib

void recursion(at::Tensor &t) {
  lib::halve(t.data_ptr<float>(), t.numel());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'halve' runs its CUDA work on the legacy default stream (its stream parameter 'stream' is left to its default, a null stream), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :[[@LINE-7]]:3: note: 'stream' of 'halve' is the stream of this kernel launch
}

// Silent: a holder that hands its handler out (a reference returned, or its
// address given to a function defined elsewhere), so code elsewhere may set
// its stream.
class LeakingWrapper {
public:
  void BeginForward(at::Tensor workspace) {
    handler_.BeginForward(workspace.data_ptr(), workspace.nbytes());
  }
  lib::Handler &handler() { return handler_; }

private:
  lib::Handler handler_;
};

void registerHandler(lib::Handler *handler); // defined in another unit

class RegisteringWrapper {
public:
  RegisteringWrapper() { registerHandler(&handler_); }
  void BeginForward(at::Tensor workspace) {
    handler_.BeginForward(workspace.data_ptr(), workspace.nbytes());
  }

private:
  lib::Handler handler_;
};

// A launcher of the project declared at global scope is the project's too,
// not the CUDA runtime's (those are extern "C" or in a system header).
cudaError_t launchGlobal(float *out, const float *in, int n,
                         cudaStream_t stream) {
  scaleKernel<<<1, 256, 0, stream>>>(out, in, n);
  return cudaGetLastError();
}

at::Tensor globalLauncher(const at::Tensor &in) {
  at::Tensor out = at::empty_like(in);
  cudaError_t status = launchGlobal(out.data_ptr<float>(), in.data_ptr<float>(),
                                    in.numel(), nullptr);
  // CHECK-NOTES: :[[@LINE-2]]:24: warning: 'launchGlobal' runs its CUDA work on the legacy default stream (its stream parameter 'stream' is given a null stream), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :[[@LINE-9]]:3: note: 'stream' of 'launchGlobal' is the stream of this kernel launch
  // CHECK-FIXES: in.numel(), at::cuda::getCurrentCUDAStream());
  TORCH_CHECK(status == cudaSuccess, "launch failed");
  return out;
}

// Silent: the same launcher given PyTorch's current stream.
at::Tensor globalLauncherOnCurrent(const at::Tensor &in) {
  at::Tensor out = at::empty_like(in);
  cudaError_t status =
      launchGlobal(out.data_ptr<float>(), in.data_ptr<float>(), in.numel(),
                   at::cuda::getCurrentCUDAStream());
  TORCH_CHECK(status == cudaSuccess, "launch failed");
  return out;
}

#include <cub/device/device_scan.cuh>

// Silent: a project's size query. cub does no work when its storage is
// null, and whether the storage parameter is null is for the caller to say
// (kaolin's get_cub_storage_bytes, called with NULL).
inline size_t scanStorageBytes(void *temp, const int *in, int *out, int n,
                               cudaStream_t stream = nullptr) {
  size_t bytes = 0;
  cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n, stream);
  return bytes;
}

size_t storageFor(const at::Tensor &in, at::Tensor &out) {
  void *temp = nullptr;
  return scanStorageBytes(temp, in.data_ptr<int>(), out.data_ptr<int>(),
                          in.numel());
}
