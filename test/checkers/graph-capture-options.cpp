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
  // CHECK-NOTES: :[[@LINE-1]]:15: warning: 'item' makes the host wait for pool stream 'cap', which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the capture begins here, on pool stream 'cap'
  R.EndCapture();
}
