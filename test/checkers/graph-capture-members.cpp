// RUN: %check_streamsafe %s streamsafe-graph-capture %t

// A runner that keeps its streams and events in members (an aggregate of
// this file, streams from the pool): forks, joins and outside records are
// followed through the members, as through locals.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>


struct Runner {
  at::cuda::CUDAGraph graph;
  at::cuda::CUDAStream cap = at::cuda::getStreamFromPool();
  at::cuda::CUDAStream side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent fork, join;
  at::Tensor x, y;

  void capture_unjoined() {
    at::cuda::CUDAStreamGuard onCap(cap);
    graph.capture_begin();
    fork.record(cap);
    fork.block(side);
    {
      at::cuda::CUDAStreamGuard onSide(side);
      y.add_(x);
    }
    graph.capture_end();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: the CUDA graph capture ends with work on stream member 'side' not joined back: the end of the capture fails with cudaErrorStreamCaptureUnjoined and no graph is made; record an event on stream member 'side' after its last work and make stream member 'cap' wait on it before the capture ends [streamsafe-graph-capture]
    // CHECK-NOTES: :[[@LINE-7]]:5: note: stream member 'side' joins the capture here, by waiting on an event recorded on a capturing stream
    // CHECK-NOTES: :[[@LINE-5]]:7: note: the last work on stream member 'side', which stream member 'cap' does not wait for
  }
  void capture_joined() {
    at::cuda::CUDAStreamGuard onCap(cap);
    graph.capture_begin();
    fork.record(cap);
    fork.block(side);
    {
      at::cuda::CUDAStreamGuard onSide(side);
      y.add_(x);
    }
    join.record(side);
    join.block(cap);
    graph.capture_end();
  }
  // The join after the end of the capture comes too late.
  void capture_joined_after_end() {
    at::cuda::CUDAStreamGuard onCap(cap);
    graph.capture_begin();
    fork.record(cap);
    fork.block(side);
    {
      at::cuda::CUDAStreamGuard onSide(side);
      y.add_(x);
    }
    graph.capture_end();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: the CUDA graph capture ends with work on stream member 'side' not joined back: the end of the capture fails with cudaErrorStreamCaptureUnjoined and no graph is made; record an event on stream member 'side' after its last work and make stream member 'cap' wait on it before the capture ends [streamsafe-graph-capture]
    // CHECK-NOTES: :[[@LINE-7]]:5: note: stream member 'side' joins the capture here, by waiting on an event recorded on a capturing stream
    // CHECK-NOTES: :[[@LINE-5]]:7: note: the last work on stream member 'side', which stream member 'cap' does not wait for
    join.record(side);
    join.block(cap);
  }
  // The fill is ordered before the capture by a wait inside it: refused.
  void wait_outside_member_event() {
    {
      at::cuda::CUDAStreamGuard onSide(side);
      x.fill_(1);
      join.record(side);
    }
    at::cuda::CUDAStreamGuard onCap(cap);
    graph.capture_begin();
    join.block(cap);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: stream member 'cap' waits on event 'join', which was recorded outside the CUDA graph capture: a graph cannot depend on work outside it, so the runtime refuses the wait with cudaErrorStreamCaptureIsolation and invalidates the capture; make the capturing stream wait before the capture begins (and the replay's stream before each replay) [streamsafe-graph-capture]
    // CHECK-NOTES: :[[@LINE-6]]:7: note: 'join' is recorded here, outside the capture
    // CHECK-NOTES: :[[@LINE-4]]:5: note: the capture begins here, on stream member 'cap'
    y.add_(x);
    graph.capture_end();
  }
};

// The record and the wait before the capture begins: silent.
struct SharedRunner {
  at::cuda::CUDAGraph graph;
  at::cuda::CUDAStream cap = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent filled;
  at::Tensor x, y;

  void wait_before_capture() {
    filled.record(cap);
    filled.block(cap);
    at::cuda::CUDAStreamGuard onCap(cap);
    graph.capture_begin();
    y.add_(x);
    graph.capture_end();
  }
};
