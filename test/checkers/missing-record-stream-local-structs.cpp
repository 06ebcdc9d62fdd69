// RUN: %check_streamsafe %s streamsafe-missing-record-stream %t

// A local struct the function uses only through its members is its
// members: each tensor member is bound by the brace initialiser or by
// `h.t = u`, and dies when the struct does, at the end of its scope
// (lib/frontend/LocalRecords.h). A member used on a side stream then owes
// a record_stream there, as a local tensor does.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

struct Holder {
  at::Tensor t;
};

void member_dies_with_the_struct(const at::Tensor &X) {
  auto s = c10::cuda::getStreamFromPool();
  Holder h{at::empty_like(X)};
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  {
    c10::cuda::CUDAStreamGuard guard(s);
    h.t.copy_(X);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 't' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-3]]:32: note: the current stream is set to pool stream 's' here
    // CHECK-NOTES: :[[@LINE-9]]:12: note: 't' is allocated on the caller's current stream here
    // CHECK-NOTES: :[[@LINE+2]]:1: note: the last reference to 't' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream
  }
}

// The correct twin: the member is recorded on the side stream.
void member_recorded(const at::Tensor &X) {
  auto s = c10::cuda::getStreamFromPool();
  Holder h{at::empty_like(X)};
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  {
    c10::cuda::CUDAStreamGuard guard(s);
    h.t.copy_(X);
    h.t.record_stream(s);
  }
}

// Assigned after the declaration, in an inner scope.
void member_assigned(const at::Tensor &X) {
  auto s = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  {
    Holder h;
    h.t = at::empty_like(X);
    ready.record();
    ready.block(s);
    c10::cuda::CUDAStreamGuard guard(s);
    h.t.copy_(X);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 't' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-3]]:32: note: the current stream is set to pool stream 's' here
    // CHECK-NOTES: :[[@LINE-7]]:11: note: 't' is allocated on the caller's current stream here
    // CHECK-NOTES: :[[@LINE+1]]:3: note: the last reference to 't' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream
  }
}

// Handed to other code: the struct may be kept there, and is not followed.
void keep(const Holder &h);
void handed_on(const at::Tensor &X) {
  auto s = c10::cuda::getStreamFromPool();
  Holder h{at::empty_like(X)};
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  {
    c10::cuda::CUDAStreamGuard guard(s);
    h.t.copy_(X);
  }
  keep(h);
}

// Returned: the caller holds the member.
Holder returned(const at::Tensor &X) {
  auto s = c10::cuda::getStreamFromPool();
  Holder h{at::empty_like(X)};
  at::cuda::CUDAEvent ready;
  ready.record();
  ready.block(s);
  {
    c10::cuda::CUDAStreamGuard guard(s);
    h.t.copy_(X);
  }
  at::cuda::CUDAEvent done;
  done.record(s);
  done.block(at::cuda::getCurrentCUDAStream());
  return h;
}
