// RUN: %check_streamsafe %s streamsafe-graph-capture %t

// Kernel launches during a capture: on the capturing stream (captured), on
// the legacy default stream, on a pool stream outside the capture.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

__global__ void scale(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2;
}

void launches(at::cuda::CUDAGraph &G, at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  auto side = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  int n = Y.numel();
  G.capture_begin();
  scale<<<1, 256, 0, cap>>>(Y.data_ptr<float>(), n);
  scale<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(Y.data_ptr<float>(),
                                                         n);
  scale<<<1, 256>>>(Y.data_ptr<float>(), n);
  scale<<<1, 256, 0, side>>>(Y.data_ptr<float>(), n);
  G.capture_end();
}

void forked_launch(at::cuda::CUDAGraph &G, at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  auto side = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  int n = Y.numel();
  G.capture_begin();
  at::cuda::CUDAEvent fork;
  fork.record(cap);
  fork.block(side);
  scale<<<1, 256, 0, side>>>(Y.data_ptr<float>(), n);
  at::cuda::CUDAEvent join;
  join.record(side);
  join.block(cap);
  G.capture_end();
}
