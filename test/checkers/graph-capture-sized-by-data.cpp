// RUN: %check_streamsafe %s streamsafe-graph-capture %t

// An op whose result's size the data decides (nonzero, argwhere,
// masked_select) makes the host wait for the current stream to read that
// size before it allocates the result (aten/src/ATen/native/cuda/
// Nonzero.cu): under a capture, a host wait the runtime refuses. A gather
// by an index tensor has a size known in advance and runs in the capture.
// The Python twin is test/python/api-sized-by-data.py.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

at::Tensor positive_rows(at::cuda::CUDAGraph &G, const at::Tensor &X) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  at::Tensor Idx = X.nonzero();
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: 'nonzero' makes the host wait for pool stream 'cap', which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the capture begins here, on pool stream 'cap'
  G.capture_end();
  return Idx;
}

at::Tensor positive_values(at::cuda::CUDAGraph &G, const at::Tensor &X,
                           const at::Tensor &M) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  at::Tensor V = at::masked_select(X, M);
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: 'masked_select' makes the host wait for pool stream 'cap', which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the capture begins here, on pool stream 'cap'
  G.capture_end();
  return V;
}

// Silent: the gather's size is the index's.
at::Tensor gathered(at::cuda::CUDAGraph &G, const at::Tensor &X,
                    const at::Tensor &Idx) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  at::Tensor V = X.index_select(0, Idx);
  G.capture_end();
  return V;
}

// Silent: the count is taken before the capture begins.
at::Tensor counted_before(at::cuda::CUDAGraph &G, const at::Tensor &X,
                          at::Tensor &Out) {
  at::Tensor Idx = X.nonzero();
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  Out.copy_(X.index_select(0, Idx.squeeze(1)));
  G.capture_end();
  return Idx;
}
