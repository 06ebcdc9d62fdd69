// Side-stream mistakes (see docs/api-model.md, section 5): a tensor made on
// the current stream is read on a pool stream without a wait, and dies
// without record_stream; the result is cloned back on the current stream
// while the side stream may still be computing it.
//
//   scripts/demo.sh   runs streamsafe on this file (flags: build/examples).

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

at::Tensor sideSum(const at::Tensor &like) {
  c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
  // Allocated and filled on the current stream.
  at::Tensor a = at::empty({100, 100}, like.options()).normal_(0.0, 1.0);
  at::Tensor b;
  {
    c10::cuda::CUDAStreamGuard guard(side);
    // Missing: side.wait(event recorded after normal_) — sum() may read a
    // before normal_() has written it.
    b = at::sum(a);
  }
  // Missing: the current stream waiting for `side` — clone() may copy b
  // before sum() has produced it.
  return b.clone();
  // `a` dies here without a.record_stream(side): the allocator may hand its
  // memory out again while `side` still reads it.
}
