// A PyTorch CUDA extension written the way many are: its kernels and copies
// go to the legacy default stream instead of PyTorch's current stream. When
// Python calls these ops under a side stream (`with torch.cuda.stream(s):`),
// they are not ordered with the work the caller queued on that stream.
//
//   scripts/demo.sh   runs streamsafe on this file (flags: build/examples).

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

namespace myext {

template <typename scalar_t>
__global__ void scaleKernel(scalar_t *out, const scalar_t *in, scalar_t alpha,
                            int64_t n) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n)
    out[i] = alpha * in[i];
}

__global__ void countNonzeroKernel(const float *in, int64_t n, int *count) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n && in[i] != 0.0f)
    atomicAdd(count, 1);
}

constexpr int kThreads = 256;

inline int blocksFor(int64_t n) {
  return static_cast<int>((n + kThreads - 1) / kThreads);
}

// out = alpha * input. The launch has no stream: legacy default stream.
at::Tensor scale(const at::Tensor &input, double alpha) {
  TORCH_CHECK(input.is_cuda(), "scale: input must be a CUDA tensor");
  const c10::cuda::CUDAGuard guard(input.device());
  at::Tensor in = input.contiguous();
  at::Tensor out = at::empty_like(in);
  const int64_t n = in.numel();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "myext::scale", [&] {
    scaleKernel<scalar_t><<<blocksFor(n), kThreads>>>(
        out.data_ptr<scalar_t>(), in.data_ptr<scalar_t>(),
        static_cast<scalar_t>(alpha), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

// The current stream is fetched, then not passed on: the memset, the launch
// and the read-back all use the legacy default stream.
int64_t countNonzero(const at::Tensor &input) {
  TORCH_CHECK(input.is_cuda() && input.scalar_type() == at::kFloat,
              "countNonzero: input must be a float CUDA tensor");
  const c10::cuda::CUDAGuard guard(input.device());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  at::Tensor in = input.contiguous();
  at::Tensor count = at::empty({1}, in.options().dtype(at::kInt));
  C10_CUDA_CHECK(cudaMemsetAsync(count.data_ptr<int>(), 0, sizeof(int)));
  countNonzeroKernel<<<blocksFor(in.numel()), kThreads, 0>>>(
      in.data_ptr<float>(), in.numel(), count.data_ptr<int>());
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  int host = 0;
  C10_CUDA_CHECK(cudaMemcpy(&host, count.data_ptr<int>(), sizeof(int),
                            cudaMemcpyDeviceToHost));
  return host;
}

} // namespace myext
