// RUN: %check_streamsafe %s streamsafe-default-stream-launch %t

// The notes: where a default-stream variable got its value, and where the
// function stored PyTorch's current stream but then did not use it.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void fill(float *out) {}

void streamFetchedButNotPassed(float *out) {
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  fill<<<1, 32>>>(out);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (no stream argument), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :[[@LINE-3]]:16: note: PyTorch's current stream was stored in 'stream' here
  (void)stream;
}

void defaultStreamInVariable(float *out) {
  auto def = c10::cuda::getDefaultCUDAStream();
  auto copy = def;
  fill<<<1, 32, 0, copy>>>(out);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (stream 'copy'), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :[[@LINE-3]]:8: note: 'copy' is initialized with 'getDefaultCUDAStream()' here
  cudaStream_t legacy = cudaStreamLegacy;
  cudaMemsetAsync(out, 0, 4, legacy);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cudaMemsetAsync' runs on the legacy default stream (stream 'legacy'), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :[[@LINE-3]]:16: note: 'legacy' is initialized with 'cudaStreamLegacy' here
}

// A stream stored after the launch is not one the launch could have used.
void streamFetchedAfterwards(float *out) {
  fill<<<1, 32>>>(out);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (no stream argument), not on PyTorch's current stream [streamsafe-default-stream-launch]
  auto later = at::cuda::getCurrentCUDAStream();
  fill<<<1, 32, 0, later>>>(out);
}

// The CUDAStream's conversion written as a cast (TransformerEngine's
// userbuffers before their fix: `(cudaStream_t)stream_main` with
// `stream_main = at::cuda::getDefaultCUDAStream()`).
void defaultStreamCast(float *dst, const float *src, size_t bytes) {
  at::cuda::CUDAStream stream_main = at::cuda::getDefaultCUDAStream();
  cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice,
                  (cudaStream_t)stream_main);
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: 'cudaMemcpyAsync' runs on the legacy default stream (stream 'stream_main'), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :[[@LINE-4]]:24: note: 'stream_main' is initialized with 'getDefaultCUDAStream()' here
  cudaMemsetAsync(dst, 0, bytes, static_cast<cudaStream_t>(stream_main));
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cudaMemsetAsync' runs on the legacy default stream (stream 'stream_main'), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :[[@LINE-7]]:24: note: 'stream_main' is initialized with 'getDefaultCUDAStream()' here
  at::cuda::CUDAStream current = at::cuda::getCurrentCUDAStream();
  cudaMemsetAsync(dst, 0, bytes, (cudaStream_t)current);
}
