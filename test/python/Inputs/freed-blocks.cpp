// The C++ rendering of Inputs/freed-blocks.py (cross-language.test): a
// freed block is judged at the next allocation on its stream, or at the
// exit (TensorState::Freed, docs/checks/missing-record-stream.md).
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

at::Tensor waits_too_late(const at::Tensor &x) {
  auto side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready, done;
  {
    at::Tensor tmp = x + 1;
    ready.record(c10::cuda::getCurrentCUDAStream());
    ready.block(side);
    c10::cuda::CUDAStreamGuard guard(side);
    tmp.mul_(2);
    done.record(side);
  }
  at::Tensor out = at::empty_like(x);
  done.block(c10::cuda::getCurrentCUDAStream());
  return out;
}

at::Tensor waits_first(const at::Tensor &x) {
  auto side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready, done;
  {
    at::Tensor tmp = x + 1;
    ready.record(c10::cuda::getCurrentCUDAStream());
    ready.block(side);
    c10::cuda::CUDAStreamGuard guard(side);
    tmp.mul_(2);
    done.record(side);
  }
  done.block(c10::cuda::getCurrentCUDAStream());
  return at::empty_like(x);
}
