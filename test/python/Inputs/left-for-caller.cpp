// The C++ rendering of Inputs/left-for-caller.py (cross-language.test): a
// write into the caller's tensor left in flight at the return, on a stream
// the caller cannot wait for (docs/checks/unsynchronized-access.md).
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

void upload(at::Tensor dst, const at::Tensor &src) {
  auto s = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(c10::cuda::getCurrentCUDAStream());
  ready.block(s);
  c10::cuda::CUDAStreamGuard guard(s);
  dst.copy_(src, /*non_blocking=*/true);
}

void upload_synced(at::Tensor dst, const at::Tensor &src) {
  auto s = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(c10::cuda::getCurrentCUDAStream());
  ready.block(s);
  {
    c10::cuda::CUDAStreamGuard guard(s);
    dst.copy_(src, /*non_blocking=*/true);
  }
  s.synchronize();
}

void upload_on(at::Tensor dst, const at::Tensor &src, c10::cuda::CUDAStream s) {
  at::cuda::CUDAEvent ready;
  ready.record(c10::cuda::getCurrentCUDAStream());
  ready.block(s);
  c10::cuda::CUDAStreamGuard guard(s);
  dst.copy_(src, /*non_blocking=*/true);
}
