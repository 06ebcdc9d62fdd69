// RUN: %check_streamsafe %s streamsafe-graph-capture %t

// PyTorch 2.x's CUDAGraph::capture_begin takes the capture mode as a second
// argument (aten/src/ATen/cuda/CUDAGraph.h); Debian's LibTorch is 1.13,
// whose capture_begin takes only the pool. The declaration below is the
// 2.x one, so the same API table row is tried on both signatures.

#include <ATen/ATen.h>
#include <c10/cuda/CUDAGraphsC10Utils.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

namespace at::cuda {
struct CUDAGraph {
  CUDAGraph();
  void capture_begin(c10::cuda::MempoolId_t pool = {0, 0},
                     cudaStreamCaptureMode capture_mode =
                         cudaStreamCaptureModeGlobal);
  void capture_end();
  void replay();
};
} // namespace at::cuda

void default_mode(at::cuda::CUDAGraph &G, size_t n) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  void *buf = nullptr;
  G.capture_begin();
  cudaMalloc(&buf, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cudaMalloc' while pool stream 'cap' captures into a CUDA graph in cudaStreamCaptureModeGlobal, which forbids it: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; allocate before the capture, use the stream-ordered cudaMallocAsync/cudaFreeAsync on the capturing stream, or make the call under c10::cuda::CUDAStreamCaptureModeGuard guard{cudaStreamCaptureModeRelaxed} (the relaxed mode allows it) [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the capture begins here, on pool stream 'cap'
  G.capture_end();
}

void relaxed_mode(at::cuda::CUDAGraph &G, size_t n) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  void *buf = nullptr;
  G.capture_begin({0, 0}, cudaStreamCaptureModeRelaxed);
  cudaMalloc(&buf, n);
  G.capture_end();
}

void thread_local_mode(at::cuda::CUDAGraph &G, const at::Tensor &X) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin({0, 0}, cudaStreamCaptureModeThreadLocal);
  float m = X.max().item<float>();
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: 'item' makes the host wait for pool stream 'cap', which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the capture begins here, on pool stream 'cap'
  (void)m;
  G.capture_end();
}
