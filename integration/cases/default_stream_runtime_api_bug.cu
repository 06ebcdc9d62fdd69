// Extension code: stream-ordered runtime calls without a stream argument, a
// kernel launched on stream 0 and a synchronous cudaMemcpy all use the legacy
// default stream, not PyTorch's current stream. Here the current stream is a
// pool stream (set by the caller's guard), which is non-blocking, so the
// kernel counts its input before the pool stream has produced it.
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
  // Meant to be passed to the calls below:
  cudaStream_t Stream = at::cuda::getCurrentCUDAStream();
  C10_CUDA_CHECK(cudaMemsetAsync(Count, 0, // EXPECT: streamsafe-default-stream-launch // EXPECT: streamsafe-unsynchronized-access (run in place under the caller's pool stream guard)
                                 sizeof(int)));
  countKernel<<<Blocks, 256, 0, 0>>>(Data, Want, // EXPECT: streamsafe-default-stream-launch
                                     Count, N);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  int Host = 0;
  C10_CUDA_CHECK(cudaMemcpy(&Host, Count, sizeof(int), // EXPECT: streamsafe-default-stream-launch
                            cudaMemcpyDeviceToHost));
  (void)Stream;
  return Host;
}

int64_t produceAndCount(float V) {
  at::cuda::CUDAStreamGuard Guard(at::cuda::getStreamFromPool());
  at::cuda::sleep(it::spin());                      // the pool stream is busy with earlier work
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on the pool
  return countEqual(A, V); // EXPECT: streamsafe-unsynchronized-access (countEqual() runs in place: its kernel reads A on the legacy stream before the pool stream wrote it)
}

int main(int argc, char **argv) {
  return it::run("default_stream_runtime_api", "bug", argc, argv,
                 [](float V) { return it::differs(double(produceAndCount(V)), double(it::kN)); });
}
