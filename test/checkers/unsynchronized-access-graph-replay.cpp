// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// Work captured into a CUDA graph is recorded, not run: it runs at each
// replay, on the replay's stream (docs/checks/graph-capture.md). The graph's
// accesses race with nothing at capture time; at a replay they are checked
// against the work pending on the replay stream, and then pending there.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime.h>

// The decode step of a server: fill the static input on the current stream,
// replay on it, read the static output on it. The capture on its own stream
// does not wait for the caller's pending work on 'in': nothing of it runs
// then.
void decode_step(at::cuda::CUDAGraph &g, at::Tensor &in, at::Tensor &out,
                 const at::Tensor &x) {
  in.copy_(x);
  auto cap = at::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard on_cap(cap);
    g.capture_begin();
    out.copy_(in.mul(2));
    g.capture_end();
  }
  in.copy_(x);
  g.replay();
  at::Tensor y = out.sum();
}

// The replay on a stream that does not wait for the fill.
void replay_unordered(at::cuda::CUDAGraph &g, at::Tensor &in, at::Tensor &out,
                      const at::Tensor &x) {
  auto cap = at::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard on_cap(cap);
    g.capture_begin();
    out.copy_(in.mul(2));
    g.capture_end();
  }
  in.copy_(x);
  auto side = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_side(side);
  g.replay();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the replay of CUDA graph 'g' reads tensor 'in' on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-8]]:15: note: 'in' is read here, in the capture of 'g': the work is recorded, and each replay runs it on the replay's stream
  // CHECK-NOTES: :[[@LINE-4]]:30: note: the current stream is set to pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-7]]:3: note: 'in' is written on the caller's current stream here
  // CHECK-NOTES: :[[@LINE-9]]:3: note: the current stream was restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-6]]:3: warning: the replay of CUDA graph 'g' writes tensor 'out' on pool stream 'side', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-13]]:5: note: 'out' is written here, in the capture of 'g': the work is recorded, and each replay runs it on the replay's stream
  // CHECK-NOTES: :[[@LINE-9]]:30: note: the current stream is set to pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-21]]:75: note: 'out' is assumed ready on the caller's current stream at function entry
}

// The replay waits for the fill; the output is read before the current
// stream waits for the replay.
void read_before_wait(at::cuda::CUDAGraph &g, at::Tensor &in, at::Tensor &out,
                      const at::Tensor &x) {
  auto cap = at::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard on_cap(cap);
    g.capture_begin();
    out.copy_(in.mul(2));
    g.capture_end();
  }
  in.copy_(x);
  at::cuda::CUDAEvent ready;
  ready.record();
  auto side = at::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard on_side(side);
    ready.block(side);
    g.replay();
  }
  at::Tensor y = out.sum();
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: tensor 'out' is read on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-5]]:5: note: 'out' is written on pool stream 'side' here, by the replay of CUDA graph 'g'
  // CHECK-NOTES: :[[@LINE-16]]:5: note: 'out' is written here, in the capture of 'g': the work is recorded, and each replay runs it on the replay's stream
  // CHECK-NOTES: :[[@LINE-9]]:32: note: the current stream was set to pool stream 'side' here
}

// Both waits: silent.
void replay_on_side_ordered(at::cuda::CUDAGraph &g, at::Tensor &in,
                            at::Tensor &out, const at::Tensor &x) {
  auto cap = at::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard on_cap(cap);
    g.capture_begin();
    out.copy_(in.mul(2));
    g.capture_end();
  }
  in.copy_(x);
  at::cuda::CUDAEvent ready, done;
  ready.record();
  auto side = at::cuda::getStreamFromPool();
  {
    c10::cuda::CUDAStreamGuard on_side(side);
    ready.block(side);
    g.replay();
    done.record(side);
  }
  done.block(c10::cuda::getCurrentCUDAStream());
  at::Tensor y = out.sum();
}

// The runtime's API: the graph the capture ends into, its executable, and
// its launch on a stream that does not wait for the fill.
void raw_launch(at::Tensor &in, at::Tensor &out, const at::Tensor &x,
                size_t n) {
  auto side = at::cuda::getStreamFromPool();
  cudaStream_t s = side.stream();
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(out.data_ptr<float>(), in.data_ptr<float>(), n,
                  cudaMemcpyDeviceToDevice, s);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  in.copy_(x);
  cudaGraphLaunch(exec, s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: the replay of CUDA graph 'graph' reads tensor 'in' on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-7]]:42: note: 'in' is read here, in the capture of 'graph': the work is recorded, and each replay runs it on the replay's stream
  // CHECK-NOTES: :[[@LINE-4]]:3: note: 'in' is written on the caller's current stream here
  // CHECK-NOTES: :[[@LINE-4]]:3: warning: the replay of CUDA graph 'graph' writes tensor 'out' on pool stream 'side', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-10]]:19: note: 'out' is written here, in the capture of 'graph': the work is recorded, and each replay runs it on the replay's stream
  // CHECK-NOTES: :[[@LINE-18]]:45: note: 'out' is assumed ready on the caller's current stream at function entry
}

// A graph captured elsewhere: what it does is not known, so its replay on
// another stream is not reported.
void replay_unknown(at::cuda::CUDAGraph &g, at::Tensor &in,
                    const at::Tensor &x) {
  in.copy_(x);
  auto side = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_side(side);
  g.replay();
}

// A runner keeps the graph and its static buffers in members; one method
// captures, another fills and replays.
struct Runner {
  at::cuda::CUDAGraph graph;
  at::Tensor in, out;
  c10::cuda::CUDAStream side;

  Runner() : side(at::cuda::getStreamFromPool()) {}
  void capture() {
    c10::cuda::CUDAStreamGuard on_side(side);
    graph.capture_begin();
    out.copy_(in.mul(2));
    graph.capture_end();
  }
  at::Tensor step(const at::Tensor &x) {
    capture();
    in.copy_(x);
    graph.replay();
    return out.clone();
  }
  at::Tensor step_on_side(const at::Tensor &x) {
    capture();
    in.copy_(x);
    c10::cuda::CUDAStreamGuard on_side(side);
    graph.replay();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: the replay of CUDA graph 'graph' reads tensor 'in' on stream member 'side' while its write on the caller's current stream may still be pending; nothing makes stream member 'side' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-15]]:15: note: 'in' is read here, in the capture of 'graph': the work is recorded, and each replay runs it on the replay's stream
    // CHECK-NOTES: :[[@LINE-4]]:32: note: the current stream is set to stream member 'side' here
    // CHECK-NOTES: :[[@LINE-6]]:5: note: 'in' is written on the caller's current stream here
    // CHECK-NOTES: :[[@LINE-16]]:3: note: the current stream was restored to the caller's current stream here, when the guard goes out of scope
    // CHECK-NOTES: :[[@LINE-23]]:19: note: 'side' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
    return out;
  }
};
