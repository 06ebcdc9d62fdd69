// RUN: %check_streamsafe %s streamsafe-graph-capture %t

// Captures spread over helpers defined in the same file (run in place at
// their calls), and captures in a loop over batch sizes, as LLM servers
// capture one graph per batch size.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <memory>
#include <vector>

struct Runner {
  at::cuda::CUDAStream side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent fork, join;
};

void begin_capture(at::cuda::CUDAGraph &G) { G.capture_begin(); }

void end_capture(at::cuda::CUDAGraph &G) { G.capture_end(); }
// CHECK-NOTES: :[[@LINE-1]]:44: warning: the CUDA graph capture ends with work on pool stream 'side' not joined back: the end of the capture fails with cudaErrorStreamCaptureUnjoined and no graph is made; record an event on pool stream 'side' after its last work and make pool stream 'cap' wait on it before the capture ends [streamsafe-graph-capture]
// CHECK-NOTES: :[[@LINE+28]]:3: note: pool stream 'side' joins the capture here, by waiting on an event recorded on a capturing stream
// CHECK-NOTES: :[[@LINE+5]]:3: note: the last work on pool stream 'side', which pool stream 'cap' does not wait for
// CHECK-NOTES: :[[@LINE+28]]:3: note: in 'end_capture', called here from 'unjoined_work_in_helper'

void side_work(at::cuda::CUDAStream side, const at::Tensor &X, at::Tensor &Y) {
  c10::cuda::CUDAStreamGuard on_side(side);
  Y.add_(X);
}

void host_sync_between_helpers(at::cuda::CUDAGraph &G, const at::Tensor &X) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  begin_capture(G);
  float m = X.max().item<float>();
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: 'item' makes the host wait for pool stream 'cap', which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE-19]]:46: note: the capture begins here, on pool stream 'cap'
  (void)m;
  end_capture(G);
}

void unjoined_work_in_helper(at::cuda::CUDAGraph &G, const at::Tensor &X,
                             at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  auto side = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  begin_capture(G);
  at::cuda::CUDAEvent fork;
  fork.record(cap);
  fork.block(side);
  side_work(side, X, Y);
  end_capture(G);
}

void joined_work_in_helper(at::cuda::CUDAGraph &G, const at::Tensor &X,
                           at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  auto side = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  begin_capture(G);
  at::cuda::CUDAEvent fork;
  fork.record(cap);
  fork.block(side);
  side_work(side, X, Y);
  at::cuda::CUDAEvent join;
  join.record(side);
  join.block(cap);
  end_capture(G);
}

void capture_per_batch_size(std::vector<std::unique_ptr<at::cuda::CUDAGraph>> &graphs,
                            const at::Tensor &X, at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  auto side = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  for (int64_t bs : {1, 2, 4, 8, 16}) {
    auto G = std::make_unique<at::cuda::CUDAGraph>();
    G->capture_begin();
    at::cuda::CUDAEvent fork;
    fork.record(cap);
    fork.block(side);
    {
      c10::cuda::CUDAStreamGuard on_side(side);
      Y.narrow(0, 0, bs).add_(X.narrow(0, 0, bs));
    }
    at::cuda::CUDAEvent join;
    join.record(side);
    join.block(cap);
    G->capture_end();
    graphs.push_back(std::move(G));
  }
  float total = Y.sum().item<float>();
  (void)total;
}

void capture_per_batch_size_unjoined(
    std::vector<std::unique_ptr<at::cuda::CUDAGraph>> &graphs,
    const at::Tensor &X, at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  auto side = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  for (int64_t bs : {1, 2, 4, 8, 16}) {
    auto G = std::make_unique<at::cuda::CUDAGraph>();
    G->capture_begin();
    at::cuda::CUDAEvent fork;
    fork.record(cap);
    fork.block(side);
    {
      c10::cuda::CUDAStreamGuard on_side(side);
      Y.narrow(0, 0, bs).add_(X.narrow(0, 0, bs));
    }
    G->capture_end();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: the CUDA graph capture ends with work on pool stream 'side' not joined back: the end of the capture fails with cudaErrorStreamCaptureUnjoined and no graph is made; record an event on pool stream 'side' after its last work and make pool stream 'cap' wait on it before the capture ends [streamsafe-graph-capture]
    // CHECK-NOTES: :[[@LINE-7]]:5: note: pool stream 'side' joins the capture here, by waiting on an event recorded on a capturing stream
    // CHECK-NOTES: :[[@LINE-5]]:7: note: the last work on pool stream 'side', which pool stream 'cap' does not wait for
    graphs.push_back(std::move(G));
  }
}

// Members of a runner object: the fork and join events are fields.
void runner_capture(Runner &R, at::cuda::CUDAGraph &G, const at::Tensor &X,
                    at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  R.fork.record(cap);
  R.fork.block(R.side);
  side_work(R.side, X, Y);
  R.join.record(R.side);
  R.join.block(cap);
  G.capture_end();
}

// A capture begun and ended on some paths only is not followed.
void capture_if_requested(at::cuda::CUDAGraph &G, const at::Tensor &X,
                          bool &capture) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  if (capture)
    G.capture_begin();
  capture = !capture;
  float m = X.max().item<float>();
  (void)m;
  if (!capture)
    G.capture_end();
}

// A helper that reads a value on the host runs in place too (it calls no
// stream API, but item() waits for the capturing stream).
float read_scale(const at::Tensor &X) { return X.max().item<float>(); }
// CHECK-NOTES: :[[@LINE-1]]:48: warning: 'item' makes the host wait for pool stream 'cap', which is capturing into a CUDA graph: its work is only being recorded, and the runtime refuses the wait with cudaErrorStreamCaptureUnsupported (PyTorch raises it) and invalidates the capture; read results on the host after the capture ends, from a replay [streamsafe-graph-capture]
// CHECK-NOTES: :[[@LINE+7]]:3: note: the capture begins here, on pool stream 'cap'
// CHECK-NOTES: :[[@LINE+7]]:13: note: in 'read_scale', called here from 'host_read_in_helper'

void host_read_in_helper(at::cuda::CUDAGraph &G, const at::Tensor &X,
                         at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  float s = read_scale(X);
  Y.mul_(s);
  G.capture_end();
}

void host_read_before_capture(at::cuda::CUDAGraph &G, const at::Tensor &X,
                              at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  float s = read_scale(X);
  G.capture_begin();
  Y.mul_(s);
  G.capture_end();
}

// An RAII timer of the file: its constructor and destructor run in place
// where it is made and where its scope ends.
struct Timer {
  Timer() { c10::cuda::device_synchronize(); }
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: 'device_synchronize' waits for the whole device while pool stream 'cap' captures into a CUDA graph: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; synchronise after the capture ends [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE+13]]:3: note: the capture begins here, on pool stream 'cap'
  // CHECK-NOTES: :[[@LINE+14]]:11: note: in 'Timer', called here from 'timer_inside_capture'
  ~Timer() { c10::cuda::device_synchronize(); }
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: 'device_synchronize' waits for the whole device while pool stream 'cap' captures into a CUDA graph: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; synchronise after the capture ends [streamsafe-graph-capture]
  // CHECK-NOTES: :[[@LINE+9]]:3: note: the capture begins here, on pool stream 'cap'
  // CHECK-NOTES: :[[@LINE+12]]:3: note: in '~Timer', called here from 'timer_inside_capture'
};

// Wrong: the timer synchronises the device inside the capture, when it
// is made and when it goes.
void timer_inside_capture(at::cuda::CUDAGraph &G, at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  {
    Timer t;
    Y.mul_(2);
  }
  G.capture_end();
}

// Right: the timer is around the capture.
void timer_around_capture(at::cuda::CUDAGraph &G, at::Tensor &Y) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  Timer t;
  G.capture_begin();
  Y.mul_(2);
  G.capture_end();
}
