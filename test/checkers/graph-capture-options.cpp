// RUN: %check_streamsafe %s streamsafe-graph-capture %t -- -config="{CheckOptions: { \
// RUN:   GraphCaptureBeginFunctions: 'serve::GraphRunner::BeginCapture', \
// RUN:   GraphCaptureEndFunctions: 'serve::GraphRunner::EndCapture'}}"
// RUN: %check_streamsafe -check-suffix=NONE %s streamsafe-graph-capture %t-none

// A framework that wraps the capture in methods defined in another file,
// described with GraphCaptureBeginFunctions / GraphCaptureEndFunctions.
// Without the options, its captures are not seen.

#include <ATen/ATen.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

namespace serve {
class GraphRunner {
public:
  void BeginCapture();
  void EndCapture();
};
} // namespace serve

void capture_step(serve::GraphRunner &R, const at::Tensor &X, at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  R.BeginCapture();
  Y.copy_(X * X.max().item<float>());
  R.EndCapture();
}
