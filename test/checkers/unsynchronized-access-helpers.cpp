// RUN: %check_streamsafe %s 'streamsafe-unsynchronized-access,streamsafe-unrecorded-event-wait' %t

// Helpers defined in the same file run in place at their call sites, with
// their parameters bound to the arguments.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cstdint>
#include <cuda_runtime_api.h>
#include <functional>

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
  // CHECK-NOTES: :[[@LINE-4]]:3: note: in 'scale_on', called here
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
  // CHECK-NOTES: :[[@LINE-60]]:15: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-61]]:10: note: 'twice' is written on pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-5]]:22: note: in 'double_on', called here
  // CHECK-NOTES: :[[@LINE-64]]:29: note: the current stream was set to pool stream 'side' here
}

// A callee defined after its caller runs in place too. The race between
// the caller's write and the helper's is reported at the call, where the
// wait belongs, with a note at the helper's access.
static void late_helper(at::Tensor &t, c10::cuda::CUDAStream s);

at::Tensor calls_a_later_helper(const at::Tensor &in) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor t = in.clone();
  late_helper(t, side);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 't' is written on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE+16]]:3: note: 't' is written on pool stream 'side' here, in 'late_helper'
  // CHECK-NOTES: :[[@LINE+14]]:29: note: the current stream is set to pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-5]]:18: note: 't' is written on the caller's current stream here
  return t.sum();
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 't' is read on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE+12]]:1: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE+10]]:3: note: 't' is written on pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-9]]:3: note: in 'late_helper', called here
  // CHECK-NOTES: :[[@LINE+7]]:29: note: the current stream was set to pool stream 'side' here
}

// The fixed twin: the stream the helper is given waits for the caller's.
at::Tensor calls_a_later_helper_after_a_wait(const at::Tensor &in);

static void late_helper(at::Tensor &t, c10::cuda::CUDAStream s) {
  at::cuda::CUDAStreamGuard guard(s);
  t.mul_(2);
}

at::Tensor calls_a_later_helper_after_a_wait(const at::Tensor &in) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor t = in.clone();
  at::cuda::CUDAEvent cloned;
  cloned.record();
  cloned.block(side);
  late_helper(t, side);
  at::cuda::CUDAEvent done;
  done.record(side);
  done.block(at::cuda::getCurrentCUDAStream());
  return t.sum();
}

// A race inside one helper is reported in the helper, once: its callers
// do not repeat it at their calls.
static void races_inside(at::Tensor &t) {
  auto side = at::cuda::getStreamFromPool();
  t.add_(1);
  at::cuda::CUDAStreamGuard guard(side);
  t.mul_(2);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 't' is written on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: the current stream is set to pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-5]]:3: note: 't' is written on the caller's current stream here
}

void calls_a_racy_helper(at::Tensor &t) {
  races_inside(t);
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

// A lambda handed to a helper runs where the helper calls it: here under
// the helper's guard on the stream it was given.
static void run_on(c10::cuda::CUDAStream s, const std::function<void()> &fn) {
  at::cuda::CUDAStreamGuard guard(s);
  fn();
}

at::Tensor lambda_run_by_a_helper(const at::Tensor &in) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor out = at::empty_like(in);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(side);
  run_on(side, [&] { out.copy_(in); });
  return out.sum();
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'out' is read on the caller's current stream while its write on pool stream 'side' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-11]]:1: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-4]]:22: note: 'out' is written on pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-15]]:29: note: the current stream was set to pool stream 'side' here
}

// Through a template parameter, with the wait: silent.
template <typename Fn>
static void run_on_template(c10::cuda::CUDAStream s, Fn &&fn) {
  at::cuda::CUDAStreamGuard guard(s);
  fn();
}

at::Tensor lambda_run_by_a_template_with_wait(const at::Tensor &in) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor out = at::empty_like(in);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(side);
  run_on_template(side, [&] { out.copy_(in); });
  at::cuda::CUDAEvent done;
  done.record(side);
  done.block(at::cuda::getCurrentCUDAStream());
  return out.sum();
}

// The same template without the first wait: the lambda's write races with
// the allocation.
at::Tensor lambda_run_by_a_template_without_wait(const at::Tensor &in) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor out = at::empty_like(in);
  run_on_template(side, [&] { out.zero_(); });
  // CHECK-NOTES: :[[@LINE-1]]:31: warning: tensor 'out' is written on pool stream 'side' while its allocation on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-24]]:29: note: the current stream is set to pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-4]]:20: note: 'out' is allocated on the caller's current stream here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: in 'run_on_template', called here from 'lambda_run_by_a_template_without_wait'
  at::cuda::CUDAEvent done;
  done.record(side);
  done.block(at::cuda::getCurrentCUDAStream());
  return out.sum();
}

// A function template run in place at its instantiation.
template <typename T>
static void scale_in_place(T &t, c10::cuda::CUDAStream s) {
  at::cuda::CUDAStreamGuard guard(s);
  t.mul_(2);
}

at::Tensor template_helper_without_wait(const at::Tensor &in) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor t = in.clone();
  scale_in_place(t, side);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 't' is written on pool stream 'side' while its write on the caller's current stream may still be pending; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-8]]:3: note: 't' is written on pool stream 'side' here, in 'scale_in_place'
  // CHECK-NOTES: :[[@LINE-10]]:29: note: the current stream is set to pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-5]]:18: note: 't' is written on the caller's current stream here
  at::cuda::CUDAEvent done;
  done.record(side);
  done.block(at::cuda::getCurrentCUDAStream());
  return t.sum();
}
