// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// Kernels launched by a launcher defined in another file: it receives tensor
// data pointers and a stream, so it writes (pointer to non-const) and reads
// (pointer to const) those tensors on that stream.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAStream.h>
#include <cstdint>
#include <cuda_runtime_api.h>

namespace kernels {
// Defined in a .cu file this translation unit does not see.
void dispatch(float *out, const float *in, int64_t n, cudaStream_t stream);
void fill(void *out, int64_t bytes, c10::cuda::CUDAStream stream);
void host_only(float *out, const float *in, int64_t n);
} // namespace kernels

// The communication stream waits for the compute stream, which then queues
// more work before the outputs are allocated on it: their block may be one
// that work still uses, and nothing orders it before the communication
// stream's writes.
at::Tensor outputs_allocated_after_the_wait(const at::Tensor &in) {
  auto comm = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(comm);
  at::Tensor norm = in.abs();
  at::Tensor out = at::empty_like(in);
  kernels::dispatch(out.data_ptr<float>(), in.data_ptr<float>(), in.numel(),
                    comm.stream());
  // CHECK-NOTES: :[[@LINE-2]]:21: warning: tensor 'out' is written on pool stream 'comm' while its allocation on the caller's current stream may still be pending; nothing makes pool stream 'comm' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-4]]:20: note: 'out' is allocated on the caller's current stream here
  return out;
}

// The fixed twin: the outputs are allocated before the wait, which orders
// their allocation (and the input) before the communication stream.
at::Tensor outputs_allocated_before_the_wait(const at::Tensor &in) {
  auto comm = at::cuda::getStreamFromPool();
  at::Tensor out = at::empty_like(in);
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(comm);
  kernels::dispatch(out.data_ptr<float>(), in.data_ptr<float>(), in.numel(),
                    comm.stream());
  return out;
}

// A read through a pointer to const is a read: the input, ready only on the
// caller's stream, races with the launch on the pool stream.
void input_not_waited_for(const at::Tensor &in, at::Tensor &out) {
  auto comm = at::cuda::getStreamFromPool();
  kernels::dispatch(out.data_ptr<float>(), in.data_ptr<float>(), in.numel(),
                    comm.stream());
  // CHECK-NOTES: :[[@LINE-2]]:21: warning: tensor 'out' is written on pool stream 'comm', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'comm' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-5]]:61: note: 'out' is assumed ready on the caller's current stream at function entry
  // CHECK-NOTES: :[[@LINE-4]]:44: warning: tensor 'in' is read on pool stream 'comm', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'comm' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-7]]:45: note: 'in' is assumed ready on the caller's current stream at function entry
}

// On the current stream: ordered with everything else on it.
at::Tensor launched_on_the_current_stream(const at::Tensor &in) {
  at::Tensor out = at::empty_like(in);
  kernels::fill(out.data_ptr(), out.nbytes(),
                at::cuda::getCurrentCUDAStream());
  return out;
}

// No stream argument: nothing is assumed about where the work runs.
at::Tensor no_stream_argument(const at::Tensor &in) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor out = at::empty_like(in);
  kernels::host_only(out.data_ptr<float>(), in.data_ptr<float>(), in.numel());
  return out;
}
