// RUN: %check_streamsafe %s streamsafe-graph-capture %t

// The rules of CUDA graph capture through PyTorch's CUDAGraph and the CUDA
// runtime: forks joined back, no host waits, no work outside the capture or
// on the legacy stream, no capture on the legacy stream.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

void unjoined_fork(at::cuda::CUDAGraph &G, const at::Tensor &X, at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  auto side = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  at::cuda::CUDAEvent fork;
  fork.record(cap);
  fork.block(side);
  {
    c10::cuda::CUDAStreamGuard on_side(side);
    Y.add_(X);
  }
  G.capture_end();
}

void joined_fork(at::cuda::CUDAGraph &G, const at::Tensor &X, at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  auto side = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  at::cuda::CUDAEvent fork;
  fork.record(cap);
  fork.block(side);
  {
    c10::cuda::CUDAStreamGuard on_side(side);
    Y.add_(X);
  }
  at::cuda::CUDAEvent join;
  join.record(side);
  join.block(cap);
  G.capture_end();
}

void joined_on_one_path(at::cuda::CUDAGraph &G, const at::Tensor &X,
                        at::Tensor &Y, bool wait) {
  auto cap = at::cuda::getStreamFromPool();
  auto side = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  at::cuda::CUDAEvent fork;
  fork.record(cap);
  fork.block(side);
  {
    c10::cuda::CUDAStreamGuard on_side(side);
    Y.add_(X);
  }
  at::cuda::CUDAEvent join;
  join.record(side);
  if (wait)
    join.block(cap);
  G.capture_end();
}

// Two forked streams, the second joined through the first.
void joined_through_another_fork(at::cuda::CUDAGraph &G, const at::Tensor &X,
                                 at::Tensor &Y, at::Tensor &Z) {
  auto cap = at::cuda::getStreamFromPool();
  auto a = at::cuda::getStreamFromPool();
  auto b = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  at::cuda::CUDAEvent fork;
  fork.record(cap);
  fork.block(a);
  fork.block(b);
  {
    c10::cuda::CUDAStreamGuard on_b(b);
    Z.add_(X);
  }
  at::cuda::CUDAEvent b_done;
  b_done.record(b);
  b_done.block(a);
  {
    c10::cuda::CUDAStreamGuard on_a(a);
    Y.add_(X);
  }
  at::cuda::CUDAEvent a_done;
  a_done.record(a);
  a_done.block(cap);
  G.capture_end();
}

// A wait on an event the analysis does not follow may join anything.
void joined_by_unknown_event(at::cuda::CUDAGraph &G, const at::Tensor &X,
                             at::Tensor &Y, at::cuda::CUDAEvent &done) {
  auto cap = at::cuda::getStreamFromPool();
  auto side = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  at::cuda::CUDAEvent fork;
  fork.record(cap);
  fork.block(side);
  {
    c10::cuda::CUDAStreamGuard on_side(side);
    Y.add_(X);
  }
  done.block(cap);
  G.capture_end();
}

void item_inside_capture(at::cuda::CUDAGraph &G, const at::Tensor &X,
                         at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  float scale = X.max().item<float>();
  Y.mul_(scale);
  G.capture_end();
}

void item_after_capture(at::cuda::CUDAGraph &G, const at::Tensor &X,
                        at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  Y.mul_(X);
  G.capture_end();
  G.replay();
  float first = Y[0].item<float>();
  (void)first;
}

void host_copies_inside_capture(at::cuda::CUDAGraph &G, const at::Tensor &X,
                                at::Tensor &Host) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  at::Tensor A = X.cpu();
  at::Tensor B = X.to(at::kCPU);
  at::Tensor C = X.to(at::kCPU, /*non_blocking=*/true);
  at::Tensor D = at::empty({4}, at::TensorOptions().device(at::kCPU));
  D.copy_(X);
  G.capture_end();
}

void syncs_inside_capture(at::cuda::CUDAGraph &G, at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  auto other = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  Y.add_(1);
  cap.synchronize();
  other.synchronize();
  c10::cuda::device_synchronize();
  cudaDeviceSynchronize();
  at::cuda::CUDAEvent done;
  done.record(cap);
  done.synchronize();
  G.capture_end();
}

void runtime_api_capture(cudaStream_t s, float *p, size_t n) {
  cudaGraph_t graph;
  cudaEvent_t ev;
  void *buf = nullptr;
  cudaEventCreate(&ev);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(p, 0, n, s);
  cudaStreamSynchronize(s);
  cudaStreamQuery(s);
  cudaMalloc(&buf, n);
  cudaFree(buf);
  cudaEventRecord(ev, s);
  cudaEventQuery(ev);
  cudaEventSynchronize(ev);
  cudaStreamEndCapture(s, &graph);
}

void relaxed_mode_allows_malloc(cudaStream_t s, float *p, size_t n) {
  cudaGraph_t graph;
  void *buf = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  cudaMemsetAsync(p, 0, n, s);
  cudaMalloc(&buf, n);
  cudaStreamEndCapture(s, &graph);
  cudaFree(buf);
}

// The relaxed mode does not forbid a wait for a stream outside the capture.
void relaxed_mode_other_stream_sync(cudaStream_t s, cudaStream_t other) {
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  cudaStreamSynchronize(other);
  cudaStreamSynchronize(s);
  cudaStreamEndCapture(s, &graph);
}

void unknown_mode_allows_malloc(cudaStream_t s, cudaStreamCaptureMode mode) {
  cudaGraph_t graph;
  void *buf = nullptr;
  cudaStreamBeginCapture(s, mode);
  cudaMalloc(&buf, 64);
  cudaStreamEndCapture(s, &graph);
}

void pool_stream_not_forked(at::cuda::CUDAGraph &G, const at::Tensor &X,
                            at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  auto side = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  {
    c10::cuda::CUDAStreamGuard on_side(side);
    Y.add_(X);
  }
  G.capture_end();
}

// The paths that test the flag are kept apart: forked and never joined on
// one, never forked on the other. Both are reported.
void pool_stream_forked_on_one_path(at::cuda::CUDAGraph &G,
                                    const at::Tensor &X, at::Tensor &Y,
                                    bool fork_it) {
  auto cap = at::cuda::getStreamFromPool();
  auto side = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  at::cuda::CUDAEvent fork;
  fork.record(cap);
  if (fork_it)
    fork.block(side);
  {
    c10::cuda::CUDAStreamGuard on_side(side);
    Y.add_(X);
  }
  G.capture_end();
}

// Forked on some paths only, by a condition the analysis does not follow:
// the stream may be in the capture, and its work is not reported.
void pool_stream_maybe_forked(at::cuda::CUDAGraph &G, const at::Tensor &X,
                              at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  auto side = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  at::cuda::CUDAEvent fork;
  fork.record(cap);
  if (X.numel() > 1024)
    fork.block(side);
  {
    c10::cuda::CUDAStreamGuard on_side(side);
    Y.add_(X);
  }
  G.capture_end();
}

// A function of another file given the streams may fork and join them with
// events of its own: not reported.
void fork_join_elsewhere(at::cuda::CUDAStream from, at::cuda::CUDAStream to);

void joined_by_unknown_helper(at::cuda::CUDAGraph &G, const at::Tensor &X,
                              at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  auto side = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  at::cuda::CUDAEvent fork;
  fork.record(cap);
  fork.block(side);
  {
    c10::cuda::CUDAStreamGuard on_side(side);
    Y.add_(X);
  }
  fork_join_elsewhere(side, cap);
  G.capture_end();
}

// The event was recorded before the capture: waiting on it does not fork.
void pool_stream_waited_before_capture(at::cuda::CUDAGraph &G,
                                       const at::Tensor &X, at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  auto side = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  at::cuda::CUDAEvent ready;
  ready.record(cap);
  G.capture_begin();
  ready.block(side);
  {
    c10::cuda::CUDAStreamGuard on_side(side);
    Y.add_(X);
  }
  G.capture_end();
}

void legacy_stream_inside_capture(at::cuda::CUDAGraph &G, float *p, size_t n) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  cudaMemsetAsync(p, 0, n);
  cudaMemsetAsync(p, 0, n, cap);
  G.capture_end();
}

void sync_copy_inside_capture(at::cuda::CUDAGraph &G, at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  float host = 0;
  G.capture_begin();
  Y.add_(1);
  cudaMemcpy(&host, Y.data_ptr<float>(), sizeof(float), cudaMemcpyDeviceToHost);
  G.capture_end();
}

void capture_on_default_stream(at::cuda::CUDAGraph &G, at::Tensor &Y) {
  c10::cuda::CUDAStreamGuard on_default(c10::cuda::getDefaultCUDAStream());
  G.capture_begin();
  Y.add_(1);
  G.capture_end();
}

void runtime_capture_on_default_stream(float *p, size_t n) {
  cudaGraph_t graph;
  cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(p, 0, n, 0);
  cudaStreamEndCapture(0, &graph);
}

// The per-thread default stream is an ordinary stream: it can capture.
void capture_on_per_thread_stream(float *p, size_t n) {
  cudaGraph_t graph;
  cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(p, 0, n, cudaStreamPerThread);
  cudaStreamEndCapture(cudaStreamPerThread, &graph);
}

// The caller's current stream may or may not be the default stream.
void capture_on_callers_stream(at::cuda::CUDAGraph &G, at::Tensor &Y) {
  G.capture_begin();
  Y.add_(1);
  G.capture_end();
}
