// RUN: %check_streamsafe %s streamsafe-default-stream-launch %t
// RUN: %check_streamsafe -check-suffixes=,ALL %s streamsafe-default-stream-launch %t \
// RUN:   -- -config="{CheckOptions: {streamsafe-default-stream-launch.ReportSynchronousRuntimeCalls: all}}"

// CUDA runtime calls that take a stream, and the synchronous copies and sets
// that have none, in LibTorch code. The synchronous calls here touch raw
// pointers: reported with ReportSynchronousRuntimeCalls: all only
// (default-stream-launch-sync-memory.cu has the default).

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>

__global__ void fill(float *out) {}

void streamOrderedCalls(float *dst, const float *src, size_t bytes) {
  cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' runs on the legacy default stream (no stream argument), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-FIXES: cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, at::cuda::getCurrentCUDAStream());
  cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' runs on the legacy default stream (stream argument is null), not on PyTorch's current stream
  // CHECK-FIXES: cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, at::cuda::getCurrentCUDAStream());
  cudaMemsetAsync(dst, 0, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemsetAsync' runs on the legacy default stream (no stream argument)
  // CHECK-FIXES: cudaMemsetAsync(dst, 0, bytes, at::cuda::getCurrentCUDAStream());
  cudaMemcpy2DAsync(dst, 16, src, 16, 16, 4, cudaMemcpyDeviceToDevice, nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy2DAsync' runs on the legacy default stream (stream argument is null)
  cudaMemcpyPeerAsync(dst, 1, src, 0, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyPeerAsync' runs on the legacy default stream (no stream argument)
  cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, cudaStreamLegacy);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpyAsync' runs on the legacy default stream (stream argument is 'cudaStreamLegacy')
  cudaMemsetAsync(dst, 0, bytes, at::cuda::getDefaultCUDAStream());
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemsetAsync' runs on the legacy default stream (stream argument is 'getDefaultCUDAStream()')
}

void launchApis(float *out) {
  void *args[] = {&out};
  cudaLaunchKernel((const void *)fill, dim3(1), dim3(32), args);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaLaunchKernel' runs on the legacy default stream (no stream argument)
  cudaLaunchKernel((const void *)fill, dim3(1), dim3(32), args, 0, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaLaunchKernel' runs on the legacy default stream (stream argument is null)
  cudaLaunchCooperativeKernel((const void *)fill, dim3(1), dim3(32), args);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaLaunchCooperativeKernel' runs on the legacy default stream (no stream argument)
  cudaLaunchKernel((const void *)fill, dim3(1), dim3(32), args, 0,
                   at::cuda::getCurrentCUDAStream());
}

void synchronousCalls(float *dst, const float *src, float *host, size_t bytes) {
  cudaMemcpy(host, src, bytes, cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:3: warning: 'cudaMemcpy' runs on the legacy default stream: it blocks the host but is not ordered with work on PyTorch's non-blocking streams; use 'cudaMemcpyAsync' on the current stream [streamsafe-default-stream-launch]
  cudaMemset(dst, 0, bytes);
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:3: warning: 'cudaMemset' runs on the legacy default stream, which is not ordered with work on PyTorch's non-blocking streams; use 'cudaMemsetAsync' on the current stream [streamsafe-default-stream-launch]
  cudaMemcpy2D(dst, 16, src, 16, 16, 4, cudaMemcpyDeviceToDevice);
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:3: warning: 'cudaMemcpy2D' runs on the legacy default stream: it blocks the host but is not ordered with work on PyTorch's non-blocking streams; use 'cudaMemcpy2DAsync' on the current stream
}

// Calls written in a macro's argument are the user's: reported where written.
void inMacroArguments(float *dst, const float *src, size_t bytes) {
  C10_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice));
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'cudaMemcpyAsync' runs on the legacy default stream (no stream argument)
  // CHECK-FIXES: C10_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, at::cuda::getCurrentCUDAStream()));
  C10_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:18: warning: 'cudaMemcpy' runs on the legacy default stream
}

// ---- Safe twins: by default nothing is reported below this line. ----

void onStreams(float *dst, const float *src, size_t bytes, cudaStream_t stream) {
  cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream);
  cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice,
                  at::cuda::getCurrentCUDAStream());
  auto current = at::cuda::getCurrentCUDAStream();
  cudaMemsetAsync(dst, 0, bytes, current);
  cudaMemsetAsync(dst, 0, bytes, at::cuda::getStreamFromPool());
  // Not work on a stream: stream management and device-wide calls.
  cudaStreamSynchronize(stream);
  cudaDeviceSynchronize();
}

// The body of the project's macro is judged at the macro's use: a raw
// buffer, so only with `all`.
#define ZERO_DEVICE_BUFFER(p, n) cudaMemset(p, 0, n)
void inMacroBody(float *dst, size_t bytes) { ZERO_DEVICE_BUFFER(dst, bytes); }
// CHECK-MESSAGES-ALL: :[[@LINE-1]]:46: warning: 'cudaMemset' runs on the legacy default stream
