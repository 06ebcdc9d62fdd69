// RUN: %check_streamsafe %s streamsafe-default-stream-launch %t

// A CUDA file that does not use LibTorch: the legacy default stream is a
// legitimate choice there, so nothing is reported. (No LibTorch header is
// included, so the test runs without the LibTorch PCH.)

#include <cuda_runtime.h>

__global__ void kernel(float *out) {}

void plainCuda(float *out, float *host, size_t bytes) {
  kernel<<<1, 32>>>(out);
  kernel<<<1, 32, 0, 0>>>(out);
  cudaMemcpyAsync(host, out, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(host, out, bytes, cudaMemcpyDeviceToHost);
}
