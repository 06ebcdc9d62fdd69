// Extension code: a custom kernel launched with <<<grid, block>>> goes to the
// legacy default stream, not to PyTorch's current stream. Here the current
// stream is a pool stream (set by the caller's guard), which is non-blocking,
// so the kernel reads its input before the pool stream has produced it.
#include "../harness.h"

__global__ void scaleKernel(const float *In, float *Out, float S, int64_t N) {
  int64_t I = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (I < N)
    Out[I] = In[I] * S;
}

at::Tensor scale(const at::Tensor &X, float S) {
  at::Tensor Y = at::empty_like(X);
  const float *In = X.data_ptr<float>();
  float *Out = Y.data_ptr<float>();
  int64_t N = X.numel();
  int Threads = 256;
  int Blocks = int((N + Threads - 1) / Threads);
  scaleKernel<<<Blocks, Threads>>>(In, Out, S, N); // EXPECT: streamsafe-default-stream-launch // EXPECT: streamsafe-unsynchronized-access (Y is allocated on the pool stream and written on the legacy one)
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return Y;
}

float produceAndScale(float V) {
  at::cuda::CUDAStreamGuard Guard(at::cuda::getStreamFromPool());
  at::cuda::sleep(it::spin());                      // the pool stream is busy with earlier work
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on the pool
  return at::sum(scale(A, 2.0f)).item<float>(); // EXPECT: streamsafe-unsynchronized-access (scale() runs in place: it reads A on the legacy stream before the pool stream wrote it)
}

int main(int argc, char **argv) {
  return it::run("default_stream_launch", "bug", argc, argv,
                 [](float V) { return it::differs(produceAndScale(V), it::kN * 2.0 * V); });
}
