// The C++ rendering of Inputs/data-model.py (cross-language.test): regions,
// lists of pieces, pinned memory, devices and lifetimes in loops, the same
// functions in the same order with the same names.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <vector>

at::Tensor overlapping_rows(const at::Tensor &x, const at::Tensor &out) {
  auto s1 = c10::cuda::getStreamFromPool();
  auto s2 = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s1);
  ready.block(s2);
  {
    c10::cuda::CUDAStreamGuard g(s1);
    out.narrow(0, 0, 2).copy_(x);
  }
  {
    c10::cuda::CUDAStreamGuard g(s2);
    out.select(0, 1).zero_();
  }
  return x;
}

at::Tensor disjoint_rows(const at::Tensor &x, const at::Tensor &out) {
  auto s1 = c10::cuda::getStreamFromPool();
  auto s2 = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s1);
  ready.block(s2);
  {
    c10::cuda::CUDAStreamGuard g(s1);
    out.narrow(0, 0, 2).copy_(x);
  }
  {
    c10::cuda::CUDAStreamGuard g(s2);
    out.select(0, 2).zero_();
  }
  return x;
}

at::Tensor chunks_stacked_without_join(const at::Tensor &x) {
  auto s = c10::cuda::getStreamFromPool();
  std::vector<at::Tensor> parts = x.chunk(4);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  {
    c10::cuda::CUDAStreamGuard g(s);
    for (auto &p : parts)
      p.mul_(2);
  }
  return at::stack(parts);
}

float pinned_sync_of_the_wrong_stream(const at::Tensor &d) {
  auto s = c10::cuda::getStreamFromPool();
  auto cur = c10::cuda::getCurrentCUDAStream();
  at::Tensor h = at::empty({16}, at::TensorOptions().pinned_memory(true));
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  {
    c10::cuda::CUDAStreamGuard g(s);
    h.copy_(d, /*non_blocking=*/true);
  }
  cur.synchronize();
  return h.item<float>();
}

void loop_reassign(const std::vector<at::Tensor> &batches, at::Tensor &acc) {
  auto side = c10::cuda::getStreamFromPool();
  at::Tensor staging;
  for (const auto &b : batches) {
    staging = at::mul(b, 2);
    at::cuda::CUDAEvent ready;
    ready.record();
    ready.block(side);
    c10::cuda::CUDAStreamGuard g(side);
    acc.add_(staging);
  }
}

at::Tensor other_device_side_stream() {
  at::Tensor out = at::empty({16}, at::TensorOptions().device("cuda:1"));
  c10::cuda::CUDAGuard device(1);
  auto s = c10::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard g(s);
    out.fill_(1);
  }
  c10::cuda::getCurrentCUDAStream(1).synchronize();
  return out;
}
