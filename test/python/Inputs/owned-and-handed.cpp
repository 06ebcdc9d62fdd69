// The C++ rendering of Inputs/owned-and-handed.py (cross-language.test):
// a gradient hook that replaces its gradient owns it
// (lib/model/GradientHooks.h), and the fields of an object the caller
// hands in are the caller's data, ready at entry.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/torch.h>

void install(torch::Tensor param) {
  param.register_hook([](torch::Tensor grad) {
    auto side = c10::cuda::getStreamFromPool();
    at::cuda::CUDAEvent ready;
    ready.record(c10::cuda::getCurrentCUDAStream());
    ready.block(side);
    {
      c10::cuda::CUDAStreamGuard g(side);
      grad.mul(2);
    }
    return at::empty_like(grad);
  });
}

struct Bucket {
  at::Tensor grad_data;
};

void reduce_one(Bucket &bucket) {
  auto side = c10::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard g(side);
  bucket.grad_data.div_(8);
}
