// RUN: %check_streamsafe %s streamsafe-graph-capture %t

// The capture mode of the capturing stream and the mode of the calling
// thread together decide what the runtime refuses: a potentially unsafe call
// (cudaMalloc, a query of or wait for another stream or an event recorded
// outside the capture) is refused only when both are global or thread-local.
// A wait of a capturing stream on an event recorded outside the capture is
// refused in every mode (cudaErrorStreamCaptureIsolation).

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

void query_other_stream_global(cudaStream_t s, cudaStream_t other) {
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamQuery(other);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cudaStreamQuery' queries stream 'other' while stream 's' captures into a CUDA graph in cudaStreamCaptureModeGlobal, which forbids querying or waiting on any stream or event: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; make the call before the capture begins or after it ends, or make the call under c10::cuda::CUDAStreamCaptureModeGuard guard{cudaStreamCaptureModeRelaxed} [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the capture begins here, on stream 's'
  cudaStreamEndCapture(s, &graph);
}

void query_other_stream_relaxed(cudaStream_t s, cudaStream_t other) {
  cudaGraph_t graph;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  cudaStreamQuery(other);
  cudaStreamEndCapture(s, &graph);
}

void query_outside_event_global(cudaStream_t s, cudaStream_t other) {
  cudaGraph_t graph;
  cudaEvent_t ev;
  cudaEventCreate(&ev);
  cudaEventRecord(ev, other);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaEventQuery(ev);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cudaEventQuery' queries event 'ev' while stream 's' captures into a CUDA graph in cudaStreamCaptureModeGlobal, which forbids querying or waiting on any stream or event: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; make the call before the capture begins or after it ends, or make the call under c10::cuda::CUDAStreamCaptureModeGuard guard{cudaStreamCaptureModeRelaxed} [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the capture begins here, on stream 's'
  cudaEventSynchronize(ev);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cudaEventSynchronize' makes the host wait on event 'ev' while stream 's' captures into a CUDA graph in cudaStreamCaptureModeGlobal, which forbids querying or waiting on any stream or event: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; make the call before the capture begins or after it ends, or make the call under c10::cuda::CUDAStreamCaptureModeGuard guard{cudaStreamCaptureModeRelaxed} [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-6]]:3: note: the capture begins here, on stream 's'
  cudaStreamEndCapture(s, &graph);
}

void query_outside_event_relaxed(cudaStream_t s, cudaStream_t other) {
  cudaGraph_t graph;
  cudaEvent_t ev;
  cudaEventCreate(&ev);
  cudaEventRecord(ev, other);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  cudaEventQuery(ev);
  cudaEventSynchronize(ev);
  cudaStreamEndCapture(s, &graph);
}

// The guard makes this thread relaxed for its scope: the calls it covers
// are allowed even though the capture is global.
void guard_relaxes_thread(cudaStream_t s, cudaStream_t other) {
  cudaGraph_t graph;
  void *buf = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  {
    c10::cuda::CUDAStreamCaptureModeGuard relaxed{cudaStreamCaptureModeRelaxed};
    cudaMalloc(&buf, 64);
    cudaStreamQuery(other);
    cudaFree(buf);
  }
  cudaStreamEndCapture(s, &graph);
}

// Once the guard is gone the thread is global again.
void guard_scope_ends(cudaStream_t s) {
  cudaGraph_t graph;
  void *buf = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  {
    c10::cuda::CUDAStreamCaptureModeGuard relaxed{cudaStreamCaptureModeRelaxed};
    cudaMalloc(&buf, 64);
  }
  cudaFree(buf);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cudaFree' while stream 's' captures into a CUDA graph in cudaStreamCaptureModeGlobal, which forbids it: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; allocate before the capture, use the stream-ordered cudaMallocAsync/cudaFreeAsync on the capturing stream, or make the call under c10::cuda::CUDAStreamCaptureModeGuard guard{cudaStreamCaptureModeRelaxed} (the relaxed mode allows it) [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-7]]:3: note: the capture begins here, on stream 's'
  cudaStreamEndCapture(s, &graph);
}

// The runtime's own exchange: relaxed, then the old mode back.
void thread_exchange(cudaStream_t s) {
  cudaGraph_t graph;
  void *a = nullptr;
  void *b = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  cudaThreadExchangeStreamCaptureMode(&mode);
  cudaMalloc(&a, 64);
  cudaThreadExchangeStreamCaptureMode(&mode);
  cudaMalloc(&b, 64);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cudaMalloc' while stream 's' captures into a CUDA graph in cudaStreamCaptureModeGlobal, which forbids it: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; allocate before the capture, use the stream-ordered cudaMallocAsync/cudaFreeAsync on the capturing stream, or make the call under c10::cuda::CUDAStreamCaptureModeGuard guard{cudaStreamCaptureModeRelaxed} (the relaxed mode allows it) [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-7]]:3: note: the capture begins here, on stream 's'
  cudaStreamEndCapture(s, &graph);
}

// A mode the front end cannot read: stay silent.
void thread_exchange_unknown(cudaStream_t s, cudaStreamCaptureMode *mode) {
  cudaGraph_t graph;
  void *a = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaThreadExchangeStreamCaptureMode(mode);
  cudaMalloc(&a, 64);
  cudaStreamEndCapture(s, &graph);
}

void wait_outside_event(cudaStream_t s, cudaStream_t other, float *p) {
  cudaGraph_t graph;
  cudaEvent_t ev;
  cudaEventCreate(&ev);
  cudaMemsetAsync(p, 0, 64, other);
  cudaEventRecord(ev, other);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  cudaStreamWaitEvent(s, ev, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: stream 's' waits on event 'ev', which was recorded outside the CUDA graph capture: a graph cannot depend on work outside it, so the runtime refuses the wait with cudaErrorStreamCaptureIsolation and invalidates the capture; make the capturing stream wait before the capture begins (and the replay's stream before each replay) [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: 'ev' is recorded here, outside the capture
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the capture begins here, on stream 's'
  cudaMemsetAsync(p, 1, 64, s);
  cudaStreamEndCapture(s, &graph);
}

// Waiting before the capture begins orders the capture after the fill.
void wait_before_capture(cudaStream_t s, cudaStream_t other, float *p) {
  cudaGraph_t graph;
  cudaEvent_t ev;
  cudaEventCreate(&ev);
  cudaMemsetAsync(p, 0, 64, other);
  cudaEventRecord(ev, other);
  cudaStreamWaitEvent(s, ev, 0);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemsetAsync(p, 1, 64, s);
  cudaStreamEndCapture(s, &graph);
}

// An external wait is a node of the graph that waits on the event at replay.
void wait_external(cudaStream_t s, cudaStream_t other, float *p) {
  cudaGraph_t graph;
  cudaEvent_t ev;
  cudaEventCreate(&ev);
  cudaEventRecord(ev, other);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamWaitEvent(s, ev, cudaEventWaitExternal);
  cudaMemsetAsync(p, 1, 64, s);
  cudaStreamEndCapture(s, &graph);
}

// Through PyTorch's types: the event of an earlier iteration's work.
void wait_outside_at_event(at::cuda::CUDAGraph &G, at::Tensor &X) {
  auto side = at::cuda::getStreamFromPool();
  auto cap = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent done;
  {
    c10::cuda::CUDAStreamGuard on_side(side);
    X.fill_(1);
    done.record(side);
  }
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  done.block(cap);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: pool stream 'cap' waits on event 'done', which was recorded outside the CUDA graph capture: a graph cannot depend on work outside it, so the runtime refuses the wait with cudaErrorStreamCaptureIsolation and invalidates the capture; make the capturing stream wait before the capture begins (and the replay's stream before each replay) [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-6]]:5: note: 'done' is recorded here, outside the capture
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the capture begins here, on pool stream 'cap'
  X.mul_(2);
  G.capture_end();
}

// Forked inside the capture: the record is on a capturing stream.
void fork_inside(at::cuda::CUDAGraph &G, at::Tensor &X) {
  auto side = at::cuda::getStreamFromPool();
  auto cap = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent fork;
  at::cuda::CUDAEvent join;
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  fork.record(cap);
  fork.block(side);
  {
    c10::cuda::CUDAStreamGuard on_side(side);
    X.fill_(1);
  }
  join.record(side);
  join.block(cap);
  G.capture_end();
}

// The branches agree: when early, the only record is outside the capture.
void wait_outside_when_early(at::cuda::CUDAGraph &G, at::Tensor &X, bool early) {
  auto side = at::cuda::getStreamFromPool();
  auto cap = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent done;
  if (early)
    done.record(side);
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  if (!early)
    done.record(cap);
  done.block(cap);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: pool stream 'cap' waits on event 'done', which was recorded outside the CUDA graph capture: a graph cannot depend on work outside it, so the runtime refuses the wait with cudaErrorStreamCaptureIsolation and invalidates the capture; make the capturing stream wait before the capture begins (and the replay's stream before each replay) [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-7]]:5: note: 'done' is recorded here, outside the capture
  // CHECK-NOTES: :[[@LINE-6]]:3: note: the capture begins here, on pool stream 'cap'
  X.mul_(2);
  G.capture_end();
}

bool cond();

// Recorded outside, and again in the capture on some paths only: a path
// may wait on the outside record, but the analysis cannot tell: silent.
void wait_maybe_outside(at::cuda::CUDAGraph &G, at::Tensor &X) {
  auto side = at::cuda::getStreamFromPool();
  auto cap = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent done;
  done.record(side);
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  if (cond())
    done.record(cap);
  done.block(cap);
  X.mul_(2);
  G.capture_end();
}

// The mode variable is assigned before the exchange: its initializer is not
// what the thread gets, and the analysis does not guess (silent).
void thread_exchange_assigned(cudaStream_t s) {
  cudaGraph_t graph;
  void *a = nullptr;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
  mode = cudaStreamCaptureModeRelaxed;
  cudaThreadExchangeStreamCaptureMode(&mode);
  cudaMalloc(&a, 64);
  cudaThreadExchangeStreamCaptureMode(&mode);
  cudaStreamEndCapture(s, &graph);
}
