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
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: work on the legacy default stream while pool stream 'cap' captures into a CUDA graph: the legacy stream does not wait for a non-blocking capturing stream, so the work is not recorded in the graph; it runs once, now, and a replay does not repeat it (a blocking capturing stream would make the runtime refuse it with cudaErrorStreamCaptureImplicit); issue the work on pool stream 'cap' [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-6]]:3: note: the capture begins here, on pool stream 'cap'
  scale<<<1, 256, 0, side>>>(Y.data_ptr<float>(), n);
  // CHECK-NOTES: :[[@LINE-1]]:30: warning: work on pool stream 'side', which is not part of the CUDA graph capture on pool stream 'cap': it is not recorded in the graph, so it runs once, now, and a replay does not repeat it (in the global mode, a caching-allocator block it needs is refused with cudaErrorStreamCaptureUnsupported); fork pool stream 'side' into the capture (make it wait on an event recorded on pool stream 'cap' after the capture begins) and join it back before the capture ends, or issue the work on pool stream 'cap' [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-9]]:3: note: the capture begins here, on pool stream 'cap'
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
