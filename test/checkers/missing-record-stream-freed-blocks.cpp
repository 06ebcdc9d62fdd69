// RUN: %check_streamsafe %s streamsafe-missing-record-stream %t

// A freed block is handed out again only to the next allocation on the
// stream it was allocated on, so a free with uses on another stream is
// judged there, or at the exit (docs/checks/missing-record-stream.md,
// "When a free is judged"; one rule in the engine for both languages, the
// Python twin is test/python/data-freed-blocks.py).

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

// Wrong: 'tmp' dies while 'side' may still read it, and the current stream
// allocates before it waits for 'side'.
at::Tensor waitsTooLate(const at::Tensor &x) {
  auto side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready, done;
  {
    at::Tensor tmp = x + 1;
    ready.record(c10::cuda::getCurrentCUDAStream());
    ready.block(side);
    c10::cuda::CUDAStreamGuard guard(side);
    tmp.mul_(2);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'tmp' is used on pool stream 'side' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 'side' is still using it [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-3]]:32: note: the current stream is set to pool stream 'side' here
    // CHECK-NOTES: :[[@LINE-7]]:22: note: 'tmp' is allocated on the caller's current stream here
    // CHECK-NOTES: :[[@LINE+2]]:3: note: the last reference to 'tmp' dies here, with no record_stream on pool stream 'side' and no synchronization with the caller's current stream
    done.record(side);
  }
  at::Tensor out = at::empty_like(x);
  done.block(c10::cuda::getCurrentCUDAStream());
  return out;
}

// Right: the current stream waits for 'side' before its next allocation,
// so the freed block cannot be handed out while 'side' reads it.
at::Tensor waitsFirst(const at::Tensor &x) {
  auto side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready, done;
  {
    at::Tensor tmp = x + 1;
    ready.record(c10::cuda::getCurrentCUDAStream());
    ready.block(side);
    c10::cuda::CUDAStreamGuard guard(side);
    tmp.mul_(2);
    done.record(side);
  }
  done.block(c10::cuda::getCurrentCUDAStream());
  return at::empty_like(x);
}

// Wrong: nothing waits before the function returns; the caller allocates.
void neverWaits(const at::Tensor &x) {
  auto side = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  at::Tensor tmp = x + 1;
  ready.record(c10::cuda::getCurrentCUDAStream());
  ready.block(side);
  c10::cuda::CUDAStreamGuard guard(side);
  tmp.mul_(2);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 'tmp' is used on pool stream 'side' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 'side' is still using it [streamsafe-missing-record-stream]
  // CHECK-NOTES: :[[@LINE-3]]:30: note: the current stream is set to pool stream 'side' here
  // CHECK-NOTES: :[[@LINE-7]]:20: note: 'tmp' is allocated on the caller's current stream here
  // CHECK-NOTES: :[[@LINE+1]]:1: note: the last reference to 'tmp' dies here, with no record_stream on pool stream 'side' and no synchronization with the caller's current stream
}
