// RUN: %check_streamsafe %s streamsafe-default-stream-launch %t

// A stream variable of namespace scope initialised with PyTorch's current
// stream is initialised once, while the library is loaded, before any caller
// has made a stream current: it holds the default stream for good
// (lib/frontend/LoadTimeStreams.h). DGL's cuda_filter.cu before its fix
// (#5153): `cudaStream_t cudaStream = runtime::getCurrentCUDAStream();` in an
// anonymous namespace, then every launch on it.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

__global__ void markKernel(const int *in, int *mark, int n);

namespace lib {
// The project's own getter (its body in another unit), named as PyTorch's.
cudaStream_t getCurrentCUDAStream();
} // namespace lib

namespace {

cudaStream_t loadStream = lib::getCurrentCUDAStream();

const cudaStream_t constStream = at::cuda::getCurrentCUDAStream().stream();

} // namespace

void mark(const at::Tensor &in, at::Tensor &mark) {
  int n = in.numel();
  markKernel<<<(n + 255) / 256, 256, 0, loadStream>>>(
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (stream 'loadStream', the current stream while the library was loaded), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :[[@LINE-10]]:14: note: 'loadStream' is initialized here with PyTorch's current stream, once, while the library is loaded: the default stream, whatever stream its callers make current later
      in.data_ptr<int>(), mark.data_ptr<int>(), n);
  size_t bytes = 0;
  cub::DeviceScan::ExclusiveSum(nullptr, bytes, mark.data_ptr<int>(),
                                mark.data_ptr<int>(), n, loadStream);
  void *workspace = nullptr;
  cub::DeviceScan::ExclusiveSum(workspace, bytes, mark.data_ptr<int>(),
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'ExclusiveSum' runs on the legacy default stream (stream 'loadStream', the current stream while the library was loaded), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :[[@LINE-18]]:14: note: 'loadStream' is initialized here with PyTorch's current stream, once, while the library is loaded: the default stream, whatever stream its callers make current later
                                mark.data_ptr<int>(), n, loadStream);
  cudaMemsetAsync(mark.data_ptr<int>(), 0, sizeof(int), constStream);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cudaMemsetAsync' runs on the legacy default stream (stream 'constStream', the current stream while the library was loaded), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :[[@LINE-20]]:20: note: 'constStream' is initialized here with PyTorch's current stream, once, while the library is loaded: the default stream, whatever stream its callers make current later
}

// Silent: a stream variable some function sets before the work, the
// current stream asked for at each call, and a variable of external linkage
// (another unit may set it).
namespace {
cudaStream_t resetStream = lib::getCurrentCUDAStream();
} // namespace
cudaStream_t sharedStream = lib::getCurrentCUDAStream();

void refresh() { resetStream = lib::getCurrentCUDAStream(); }

void markFresh(const at::Tensor &in, at::Tensor &mark) {
  int n = in.numel();
  markKernel<<<1, 256, 0, resetStream>>>(in.data_ptr<int>(),
                                         mark.data_ptr<int>(), n);
  markKernel<<<1, 256, 0, sharedStream>>>(in.data_ptr<int>(),
                                          mark.data_ptr<int>(), n);
  cudaStream_t stream = lib::getCurrentCUDAStream();
  markKernel<<<1, 256, 0, stream>>>(in.data_ptr<int>(), mark.data_ptr<int>(),
                                    n);
}
