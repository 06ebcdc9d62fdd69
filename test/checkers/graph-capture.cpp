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
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the CUDA graph capture ends with work on pool stream 'side' not joined back: the end of the capture fails with cudaErrorStreamCaptureUnjoined and no graph is made; record an event on pool stream 'side' after its last work and make pool stream 'cap' wait on it before the capture ends [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-7]]:3: note: pool stream 'side' joins the capture here, by waiting on an event recorded on a capturing stream
  // CHECK-NOTES: :[[@LINE-5]]:5: note: the last work on pool stream 'side', which pool stream 'cap' does not wait for
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
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the CUDA graph capture ends with work on pool stream 'side' not joined back: the end of the capture fails with cudaErrorStreamCaptureUnjoined and no graph is made; record an event on pool stream 'side' after its last work and make pool stream 'cap' wait on it before the capture ends [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-11]]:3: note: pool stream 'side' joins the capture here, by waiting on an event recorded on a capturing stream
  // CHECK-NOTES: :[[@LINE-9]]:5: note: the last work on pool stream 'side', which pool stream 'cap' does not wait for
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
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: 'item' makes the host wait for pool stream 'cap', which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the capture begins here, on pool stream 'cap'
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
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: 'cpu' makes the host wait for pool stream 'cap', which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the capture begins here, on pool stream 'cap'
  at::Tensor B = X.to(at::kCPU);
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: 'to' makes the host wait for pool stream 'cap', which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-6]]:3: note: the capture begins here, on pool stream 'cap'
  at::Tensor C = X.to(at::kCPU, /*non_blocking=*/true);
  at::Tensor D = at::empty({4}, at::TensorOptions().device(at::kCPU));
  D.copy_(X);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'copy_' makes the host wait for pool stream 'cap', which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-11]]:3: note: the capture begins here, on pool stream 'cap'
  G.capture_end();
}

void syncs_inside_capture(at::cuda::CUDAGraph &G, at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  auto other = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  Y.add_(1);
  cap.synchronize();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'synchronize' makes the host wait for pool stream 'cap', which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the capture begins here, on pool stream 'cap'
  other.synchronize();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'synchronize' makes the host wait for pool stream 'other' while pool stream 'cap' captures into a CUDA graph in cudaStreamCaptureModeGlobal, which forbids waiting for any stream: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; wait before the capture begins or after it ends [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-7]]:3: note: the capture begins here, on pool stream 'cap'
  c10::cuda::device_synchronize();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'device_synchronize' waits for the whole device while pool stream 'cap' captures into a CUDA graph: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; synchronise after the capture ends [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-10]]:3: note: the capture begins here, on pool stream 'cap'
  cudaDeviceSynchronize();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cudaDeviceSynchronize' waits for the whole device while pool stream 'cap' captures into a CUDA graph: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; synchronise after the capture ends [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-13]]:3: note: the capture begins here, on pool stream 'cap'
  at::cuda::CUDAEvent done;
  done.record(cap);
  done.synchronize();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'synchronize' on event 'done', which is recorded inside the CUDA graph capture: the record is a node of the graph, not work that has run, and the runtime refuses the call with cudaErrorCapturedEvent; make a stream wait on the event instead, or query it after the capture ends [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'done' is recorded here, inside the capture
  // CHECK-NOTES: :[[@LINE-19]]:3: note: the capture begins here, on pool stream 'cap'
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
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' makes the host wait for stream 's', which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the capture begins here, on stream 's'
  cudaStreamQuery(s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cudaStreamQuery' queries stream 's' while it captures into a CUDA graph: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; query after the capture ends [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-7]]:3: note: the capture begins here, on stream 's'
  cudaMalloc(&buf, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cudaMalloc' while stream 's' captures into a CUDA graph in cudaStreamCaptureModeGlobal, which forbids it: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; allocate before the capture, use the stream-ordered cudaMallocAsync/cudaFreeAsync on the capturing stream, or make the call under c10::cuda::CUDAStreamCaptureModeGuard guard{cudaStreamCaptureModeRelaxed} (the relaxed mode allows it) [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-10]]:3: note: the capture begins here, on stream 's'
  cudaFree(buf);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cudaFree' while stream 's' captures into a CUDA graph in cudaStreamCaptureModeGlobal, which forbids it: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; allocate before the capture, use the stream-ordered cudaMallocAsync/cudaFreeAsync on the capturing stream, or make the call under c10::cuda::CUDAStreamCaptureModeGuard guard{cudaStreamCaptureModeRelaxed} (the relaxed mode allows it) [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-13]]:3: note: the capture begins here, on stream 's'
  cudaEventRecord(ev, s);
  cudaEventQuery(ev);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cudaEventQuery' on event 'ev', which is recorded inside the CUDA graph capture: the record is a node of the graph, not work that has run, and the runtime refuses the call with cudaErrorCapturedEvent; make a stream wait on the event instead, or query it after the capture ends [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'ev' is recorded here, inside the capture
  // CHECK-NOTES: :[[@LINE-18]]:3: note: the capture begins here, on stream 's'
  cudaEventSynchronize(ev);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cudaEventSynchronize' on event 'ev', which is recorded inside the CUDA graph capture: the record is a node of the graph, not work that has run, and the runtime refuses the call with cudaErrorCapturedEvent; make a stream wait on the event instead, or query it after the capture ends [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-7]]:3: note: 'ev' is recorded here, inside the capture
  // CHECK-NOTES: :[[@LINE-22]]:3: note: the capture begins here, on stream 's'
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
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' makes the host wait for stream 's', which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the capture begins here, on stream 's'
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
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: work on pool stream 'side', which is not part of the CUDA graph capture on pool stream 'cap': it is not recorded in the graph, so it runs once, now, and a replay does not repeat it (in the global mode, a caching-allocator block it needs is refused with cudaErrorStreamCaptureUnsupported); fork pool stream 'side' into the capture (make it wait on an event recorded on pool stream 'cap' after the capture begins) and join it back before the capture ends, or issue the work on pool stream 'cap' [streamsafe-graph-capture]
    // CHECK-NOTES: :[[@LINE-3]]:32: note: the current stream is set to pool stream 'side' here
    // CHECK-NOTES: :[[@LINE-6]]:3: note: the capture begins here, on pool stream 'cap'
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
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: work on pool stream 'side', which is not part of the CUDA graph capture on pool stream 'cap': it is not recorded in the graph, so it runs once, now, and a replay does not repeat it (in the global mode, a caching-allocator block it needs is refused with cudaErrorStreamCaptureUnsupported); fork pool stream 'side' into the capture (make it wait on an event recorded on pool stream 'cap' after the capture begins) and join it back before the capture ends, or issue the work on pool stream 'cap' [streamsafe-graph-capture]
    // CHECK-NOTES: :[[@LINE-3]]:32: note: the current stream is set to pool stream 'side' here
    // CHECK-NOTES: :[[@LINE-10]]:3: note: the capture begins here, on pool stream 'cap'
  }
  G.capture_end();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the CUDA graph capture ends with work on pool stream 'side' not joined back: the end of the capture fails with cudaErrorStreamCaptureUnjoined and no graph is made; record an event on pool stream 'side' after its last work and make pool stream 'cap' wait on it before the capture ends [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-10]]:5: note: pool stream 'side' joins the capture here, by waiting on an event recorded on a capturing stream
  // CHECK-NOTES: :[[@LINE-8]]:5: note: the last work on pool stream 'side', which pool stream 'cap' does not wait for
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
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: work on pool stream 'side', which is not part of the CUDA graph capture on pool stream 'cap': it is not recorded in the graph, so it runs once, now, and a replay does not repeat it (in the global mode, a caching-allocator block it needs is refused with cudaErrorStreamCaptureUnsupported); fork pool stream 'side' into the capture (make it wait on an event recorded on pool stream 'cap' after the capture begins) and join it back before the capture ends, or issue the work on pool stream 'cap' [streamsafe-graph-capture]
    // CHECK-NOTES: :[[@LINE-3]]:32: note: the current stream is set to pool stream 'side' here
    // CHECK-NOTES: :[[@LINE-7]]:3: note: the capture begins here, on pool stream 'cap'
  }
  G.capture_end();
}

void legacy_stream_inside_capture(at::cuda::CUDAGraph &G, float *p, size_t n) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  cudaMemsetAsync(p, 0, n);
  // CHECK-NOTES: :[[@LINE-1]]:19: warning: work on the legacy default stream while pool stream 'cap' captures into a CUDA graph: the legacy stream does not wait for a non-blocking capturing stream, so the work is not recorded in the graph; it runs once, now, and a replay does not repeat it (a blocking capturing stream would make the runtime refuse it with cudaErrorStreamCaptureImplicit); issue the work on pool stream 'cap' [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the capture begins here, on pool stream 'cap'
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
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: work on the legacy default stream while pool stream 'cap' captures into a CUDA graph: the legacy stream does not wait for a non-blocking capturing stream, so the work is not recorded in the graph; it runs once, now, and a replay does not repeat it (a blocking capturing stream would make the runtime refuse it with cudaErrorStreamCaptureImplicit); issue the work on pool stream 'cap' [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the capture begins here, on pool stream 'cap'
  G.capture_end();
}

void capture_on_default_stream(at::cuda::CUDAGraph &G, at::Tensor &Y) {
  c10::cuda::CUDAStreamGuard on_default(c10::cuda::getDefaultCUDAStream());
  G.capture_begin();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: CUDA graph capture begun on the legacy default stream: CUDAGraph::capture_begin refuses it ('CUDA graphs must be captured on a non-default stream') and cudaStreamBeginCapture fails with cudaErrorStreamCaptureUnsupported; capture on a side stream (getStreamFromPool() under a CUDAStreamGuard) [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-3]]:30: note: the current stream is set to the default stream here
  Y.add_(1);
  G.capture_end();
}

void runtime_capture_on_default_stream(float *p, size_t n) {
  cudaGraph_t graph;
  cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: CUDA graph capture begun on the legacy default stream: CUDAGraph::capture_begin refuses it ('CUDA graphs must be captured on a non-default stream') and cudaStreamBeginCapture fails with cudaErrorStreamCaptureUnsupported; capture on a side stream (getStreamFromPool() under a CUDAStreamGuard) [streamsafe-graph-capture]
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

// The program starts on the legacy default stream, and so does main(): a
// capture begun after the warm-up guard's scope has ended runs on it.
int main() {
  at::cuda::CUDAGraph G;
  at::Tensor Y = at::ones({4}, at::kCUDA);
  {
    c10::cuda::CUDAStreamGuard warm(at::cuda::getStreamFromPool());
    Y.add_(1);
  }
  G.capture_begin();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: CUDA graph capture begun on the legacy default stream: CUDAGraph::capture_begin refuses it ('CUDA graphs must be captured on a non-default stream') and cudaStreamBeginCapture fails with cudaErrorStreamCaptureUnsupported; capture on a side stream (getStreamFromPool() under a CUDAStreamGuard) [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the current stream is restored to the default stream here, when the guard goes out of scope
  Y.add_(1);
  G.capture_end();
  return 0;
}
