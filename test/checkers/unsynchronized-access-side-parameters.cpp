// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t
// RUN: %check_streamsafe -check-suffix=OFF %s streamsafe-unsynchronized-access %t-off \
// RUN:   -- -config="{CheckOptions: {SideStreamParameters: false}}"

// Stream parameters the function itself uses as side streams: entered by
// a guard, or ordered against the current stream by an event. Such a
// parameter is taken to differ from the caller's current stream, unless a
// call in this file passes the current stream for it, it has a default, or
// the function assigns it (the rule of lib/lower/SideParameters.h, as in
// test/python/side-stream-parameters.py). With
// SideStreamParameters: false, a stream parameter is never taken so, and
// nothing here is reported.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

// Y is written on the current stream and read on s with no wait.
at::Tensor scale_on(const at::Tensor &X, c10::cuda::CUDAStream s) {
  at::Tensor Y = X * 2;
  c10::cuda::CUDAStreamGuard guard(s);
  return Y + 1;
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'Y' is read on stream parameter 's' while its write on the caller's current stream may still be pending; nothing makes stream parameter 's' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:30: note: the current stream is set to stream parameter 's' here
  // CHECK-NOTES: :[[@LINE-5]]:18: note: 'Y' is written on the caller's current stream here
  // CHECK-NOTES: :[[@LINE-5]]:30: note: 's' is used as a side stream here, so it is taken to differ from the caller's current stream
}

// The correct twin: s waits for the current stream first.
at::Tensor scale_on_waited(const at::Tensor &X, c10::cuda::CUDAStream s) {
  at::Tensor Y = X * 2;
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  c10::cuda::CUDAStreamGuard guard(s);
  return Y + 1;
}

// A caller in this file passes the current stream: s may be it.
at::Tensor scale_maybe_current(const at::Tensor &X, c10::cuda::CUDAStream s) {
  at::Tensor Y = X * 2;
  c10::cuda::CUDAStreamGuard guard(s);
  return Y + 1;
}
at::Tensor call_on_current(const at::Tensor &X) {
  return scale_maybe_current(X, at::cuda::getCurrentCUDAStream());
}

// The same through a local initialised from the current stream.
at::Tensor scale_maybe_current_local(const at::Tensor &X,
                                     c10::cuda::CUDAStream s) {
  at::Tensor Y = X * 2;
  c10::cuda::CUDAStreamGuard guard(s);
  return Y + 1;
}
at::Tensor call_on_current_local(const at::Tensor &X) {
  auto Current = at::cuda::getCurrentCUDAStream();
  return scale_maybe_current_local(X, Current);
}

// A default argument that is the current stream.
at::Tensor
scale_defaulted(const at::Tensor &X,
                c10::cuda::CUDAStream s = at::cuda::getCurrentCUDAStream()) {
  at::Tensor Y = X * 2;
  c10::cuda::CUDAStreamGuard guard(s);
  return Y + 1;
}

// A default argument that is another stream: a call may still leave it
// out, and the default stream may be the caller's current stream.
at::Tensor
scale_default_stream(const at::Tensor &X,
                     c10::cuda::CUDAStream s = c10::cuda::getDefaultCUDAStream()) {
  at::Tensor Y = X * 2;
  c10::cuda::CUDAStreamGuard guard(s);
  return Y + 1;
}

// Assigned by the function: on one path it is the current stream, and
// nothing says the other path's value differs from it.
at::Tensor scale_rebound(const at::Tensor &X, c10::cuda::CUDAStream s,
                         bool Inline) {
  if (Inline)
    s = at::cuda::getCurrentCUDAStream();
  at::Tensor Y = X * 2;
  c10::cuda::CUDAStreamGuard guard(s);
  return Y + 1;
}

// A helper handed a tensor and the stream to work on: the caller chose both
// and may have ordered the tensor for the stream, so only what the helper
// itself does on the current stream conflicts with s.
at::Tensor double_on(const at::Tensor &X, c10::cuda::CUDAStream s) {
  c10::cuda::CUDAStreamGuard guard(s);
  return X * 2;
}

// A parameter the function never enters nor orders: nothing says it is
// another stream.
at::Tensor merely_passed(const at::Tensor &X, c10::cuda::CUDAStream s) {
  at::Tensor Y = X * 2;
  Y.record_stream(s);
  return Y;
}

// Ordered by an event, not entered: s waits for the current stream, so the
// function takes s for another stream; Y is written after the record, and
// the copy on s may read it before it is written.
void copy_out_early(const at::Tensor &X, void *Dst, c10::cuda::CUDAStream s) {
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  at::Tensor Y = X * 2;
  cudaMemcpyAsync(Dst, Y.data_ptr(), Y.nbytes(), cudaMemcpyDeviceToDevice, s);
  // CHECK-NOTES: :[[@LINE-1]]:24: warning: tensor 'Y' is read on stream parameter 's' while its write on the caller's current stream may still be pending; nothing makes stream parameter 's' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:18: note: 'Y' is written on the caller's current stream here
  // CHECK-NOTES: :[[@LINE-5]]:3: note: 's' is used as a side stream here, so it is taken to differ from the caller's current stream
}

// The correct twin: the record follows the write.
void copy_out(const at::Tensor &X, void *Dst, c10::cuda::CUDAStream s) {
  at::Tensor Y = X * 2;
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  cudaMemcpyAsync(Dst, Y.data_ptr(), Y.nbytes(), cudaMemcpyDeviceToDevice, s);
}

// Recorded on s and waited on by the current stream: s is a side stream
// here too; the current stream reads Y before the wait.
at::Tensor join_late(const at::Tensor &X, c10::cuda::CUDAStream s) {
  at::Tensor Y = at::empty_like(X);
  cudaMemcpyAsync(Y.data_ptr(), X.data_ptr(), X.nbytes(),
                  cudaMemcpyDeviceToDevice, s);
  at::Tensor Z = Y + 1;
  at::cuda::CUDAEvent done;
  done.record(s);
  done.block(at::cuda::getCurrentCUDAStream());
  return Z;
  // CHECK-NOTES: :[[@LINE-7]]:19: warning: tensor 'Y' is written on stream parameter 's' while its allocation on the caller's current stream may still be pending; nothing makes stream parameter 's' wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-9]]:18: note: 'Y' is allocated on the caller's current stream here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: 's' is used as a side stream here, so it is taken to differ from the caller's current stream
  // CHECK-NOTES: :[[@LINE-8]]:18: warning: tensor 'Y' is read on the caller's current stream while its write on stream parameter 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-11]]:19: note: 'Y' is written on stream parameter 's' here
  // CHECK-NOTES: :[[@LINE-7]]:3: note: 's' is used as a side stream here, so it is taken to differ from the caller's current stream
}
