// Extension code: runtime calls and a kernel consume a tensor produced on
// PyTorch's current stream (a pool stream set by the caller's guard). Fixed:
// every call gets the current stream, and the result is copied back with
// cudaMemcpyAsync on it followed by a stream synchronization.
#include "../harness.h"

__global__ void countKernel(const float *In, float Want, int *Count, int64_t N) {
  int64_t I = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (I < N && In[I] == Want)
    atomicAdd(Count, 1);
}

int64_t countEqual(const at::Tensor &In, float Want) {
  at::Tensor CountT = at::empty({1}, In.options().dtype(at::kInt));
  int *Count = CountT.data_ptr<int>();
  const float *Data = In.data_ptr<float>();
  int64_t N = In.numel();
  int Blocks = int((N + 255) / 256);
  cudaStream_t Stream = at::cuda::getCurrentCUDAStream();
  C10_CUDA_CHECK(cudaMemsetAsync(Count, 0, sizeof(int), Stream));
  countKernel<<<Blocks, 256, 0, Stream>>>(Data, Want, Count, N);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  int Host = 0;
  C10_CUDA_CHECK(cudaMemcpyAsync(&Host, Count, sizeof(int), cudaMemcpyDeviceToHost, Stream));
  C10_CUDA_CHECK(cudaStreamSynchronize(Stream));
  return Host;
}

int64_t produceAndCount(float V) {
  at::cuda::CUDAStreamGuard Guard(at::cuda::getStreamFromPool());
  at::cuda::sleep(it::spin());                      // the pool stream is busy with earlier work
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on the pool
  return countEqual(A, V);
}

int main(int argc, char **argv) {
  return it::run("default_stream_runtime_api", "fixed", argc, argv,
                 [](float V) { return it::differs(double(produceAndCount(V)), double(it::kN)); });
}
