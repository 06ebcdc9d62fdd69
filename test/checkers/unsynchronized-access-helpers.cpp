// RUN: %check_streamsafe %s 'streamsafe-unsynchronized-access,streamsafe-unrecorded-event-wait' %t

// Helpers defined in the same file run in place at their call sites, with
// their parameters bound to the arguments.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cstdint>
#include <cuda_runtime_api.h>

namespace kernels {
void scale(float *out, const float *in, int64_t n, cudaStream_t stream);
} // namespace kernels

// Launches on the stream it is given.
static void scale_on(at::Tensor &out, const at::Tensor &in,
                     c10::cuda::CUDAStream stream) {
  kernels::scale(out.data_ptr<float>(), in.data_ptr<float>(), in.numel(),
                 stream.stream());
}

// Computes under a guard on the stream it is given.
static at::Tensor double_on(const at::Tensor &in,
                            c10::cuda::CUDAStream stream) {
  at::cuda::CUDAStreamGuard guard(stream);
  return in * 2;
}

// Records for its caller.
static void mark_done(at::cuda::CUDAEvent &done, c10::cuda::CUDAStream stream) {
  done.record(stream);
}

// The helper writes `out` on the side stream; the caller reads it on its
// own stream with no wait.
at::Tensor helper_without_wait(const at::Tensor &in) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor out = at::empty_like(in);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(side);
  scale_on(out, in, side);
  return out.sum();
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'out' is read on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-27]]:18: note: 'out' is written on pool stream 'side' here
}

// The fixed twin: the caller waits for the side stream.
at::Tensor helper_with_wait(const at::Tensor &in) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor out = at::empty_like(in);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(side);
  scale_on(out, in, side);
  at::cuda::CUDAEvent done;
  done.record(side);
  done.block(at::cuda::getCurrentCUDAStream());
  return out.sum();
}

// The helper records the event the caller waits on: silent.
at::Tensor helper_records_for_the_caller(const at::Tensor &in) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor out = at::empty_like(in);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(side);
  scale_on(out, in, side);
  at::cuda::CUDAEvent done;
  mark_done(done, side);
  done.block(at::cuda::getCurrentCUDAStream());
  return out.sum();
}

// The helper returns a tensor still being written on the side stream.
at::Tensor returned_while_pending(const at::Tensor &in) {
  auto side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(side);
  at::Tensor twice = double_on(in, side);
  return twice + 1;
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'twice' is read on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-59]]:15: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-60]]:10: note: 'twice' is written on pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-62]]:29: note: the current stream was set to pool stream 'side' here
}

// A callee defined after its caller runs in place too.
static void late_helper(at::Tensor &t, c10::cuda::CUDAStream s);

at::Tensor calls_a_later_helper(const at::Tensor &in) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor t = in.clone();
  late_helper(t, side);
  return t.sum();
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 't' is read on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE+12]]:1: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE+6]]:3: note: 't' is written on pool stream 'side' here
  // CHECK-NOTES: :[[@LINE+4]]:29: note: the current stream was set to pool stream 'side' here
}

static void late_helper(at::Tensor &t, c10::cuda::CUDAStream s) {
  at::cuda::CUDAStreamGuard guard(s);
  t.mul_(2);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 't' is written on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: the current stream is set to pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-14]]:18: note: 't' is written on the caller's current stream here
  // CHECK-NOTES: :[[@LINE-14]]:3: note: in 'late_helper', called here from 'calls_a_later_helper'
}

// Recursion is bounded and stays silent on correct code.
static void recurse(at::Tensor &t, int depth) {
  at::cuda::CUDAStreamGuard guard(at::cuda::getCurrentCUDAStream());
  t.add_(1);
  if (depth > 0)
    recurse(t, depth - 1);
}

void calls_recursion(at::Tensor &t) { recurse(t, 8); }

// A helper in another file, with no stream argument: unknown, silent.
void external_helper(at::Tensor &t);
void calls_an_external_helper(const at::Tensor &in) {
  at::Tensor t = in.clone();
  external_helper(t);
  at::Tensor u = t.sum();
}
