// RUN: %check_streamsafe %s streamsafe-default-stream-launch %t

// A stream named as the default one (getDefaultCUDAStream(),
// cudaStreamLegacy) passed to a library or project function that takes a
// cudaStream_t: the work runs on the legacy default stream. Null or omitted
// streams are not judged for such functions (many read null as "the current
// stream"); the CUDA runtime's C API has rows of its own.

#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/cuda/CUDAContext.h>
#include <cub/device/device_scan.cuh>

namespace mylib {
void launchScale(float *out, int n, cudaStream_t stream);
} // namespace mylib

void cumsum(const at::Tensor &in, at::Tensor &out, at::Tensor &temp) {
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "cumsum", [&] {
    size_t bytes = temp.numel();
    auto stream = at::cuda::getDefaultCUDAStream();
    cub::DeviceScan::InclusiveSum(temp.data_ptr(), bytes,
                                  in.data_ptr<scalar_t>(),
                                  out.data_ptr<scalar_t>(), in.numel(), stream);
    // CHECK-NOTES: :[[@LINE-3]]:5: warning: 'InclusiveSum' runs on the legacy default stream (stream 'stream'), not on PyTorch's current stream [streamsafe-default-stream-launch]
    // CHECK-NOTES: :[[@LINE-5]]:10: note: 'stream' is initialized with 'getDefaultCUDAStream()' here
  });
}

// A variable of the enclosing function, captured by the lambda.
void captured(at::Tensor &out) {
  cudaStream_t legacy = cudaStreamLegacy;
  AT_DISPATCH_FLOATING_TYPES(out.scalar_type(), "scale", [&] {
    mylib::launchScale(out.data_ptr<float>(), 4, legacy);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'launchScale' runs on the legacy default stream (stream 'legacy'), not on PyTorch's current stream [streamsafe-default-stream-launch]
    // CHECK-NOTES: :[[@LINE-4]]:16: note: 'legacy' is initialized with 'cudaStreamLegacy' here
  });
}

// cub's device-wide algorithms run on the stream as given, 0 being the
// legacy stream: an omitted or null stream is judged for them, as for the
// runtime's calls (and fixed the same way).
void cubOmitted(const at::Tensor &in, at::Tensor &out, at::Tensor &temp) {
  size_t bytes = temp.numel();
  cub::DeviceScan::InclusiveSum(temp.data_ptr(), bytes, in.data_ptr<float>(),
                                out.data_ptr<float>(), in.numel());
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: 'InclusiveSum' runs on the legacy default stream (no stream argument), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-FIXES: out.data_ptr<float>(), in.numel(), at::cuda::getCurrentCUDAStream());
  cub::DeviceScan::ExclusiveSum(temp.data_ptr(), bytes, in.data_ptr<float>(),
                                out.data_ptr<float>(), in.numel(), nullptr);
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: 'ExclusiveSum' runs on the legacy default stream (stream argument is null), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-FIXES: out.data_ptr<float>(), in.numel(), at::cuda::getCurrentCUDAStream());
}

// ---- Not reported. ----

// The size query (a null d_temp_storage) does no work; the call that runs
// is given the current stream.
void cubCurrent(const at::Tensor &in, at::Tensor &out) {
  size_t bytes = 0;
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  cub::DeviceScan::InclusiveSum(nullptr, bytes, in.data_ptr<float>(),
                                out.data_ptr<float>(), in.numel());
  at::Tensor temp = at::empty({int64_t(bytes)}, in.options().dtype(at::kByte));
  cub::DeviceScan::InclusiveSum(temp.data_ptr(), bytes, in.data_ptr<float>(),
                                out.data_ptr<float>(), in.numel(), stream);
}

void nullStream(at::Tensor &out) {
  mylib::launchScale(out.data_ptr<float>(), 4, nullptr);
  mylib::launchScale(out.data_ptr<float>(), 4,
                     at::cuda::getCurrentCUDAStream());
}

// The enclosing function changes the captured variable: not judged.
void capturedThenChanged(at::Tensor &out, bool side) {
  cudaStream_t stream = at::cuda::getDefaultCUDAStream();
  if (side)
    stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(out.scalar_type(), "scale", [&] {
    mylib::launchScale(out.data_ptr<float>(), 4, stream);
  });
}
