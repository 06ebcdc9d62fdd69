// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// Writes left in flight for the caller (docs/checks/unsynchronized-access.md,
// "Writes the caller cannot wait for"): a function that writes the caller's
// tensor on a stream of its own and returns with the write in flight lets
// the caller's next use, on its current stream, run before it. The caller
// cannot wait for a pool stream the function took. A synchronize or an
// event wait before the return, an event recorded on the stream (handed
// on), and a stream the caller passed in keep it silent, as in
// test/python/left-for-caller.py.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

// Wrong: 'dst' is written on a pool stream, and nothing makes the caller's
// stream wait for it.
void upload(at::Tensor dst, const at::Tensor &src) {
  auto s = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(c10::cuda::getCurrentCUDAStream());
  ready.block(s);
  c10::cuda::CUDAStreamGuard guard(s);
  dst.copy_(src, /*non_blocking=*/true);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: tensor 'dst' is written on pool stream 's', which may still run when 'upload' returns; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:30: note: the current stream is set to pool stream 's' here
  // CHECK-NOTES: :[[@LINE+1]]:1: note: 'upload' returns here; 'dst' outlives the call, and its next use on the caller's current stream may run before the write
}

// Right: the host waits for the stream before the return.
void upload_synced(at::Tensor dst, const at::Tensor &src) {
  auto s = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  ready.record(c10::cuda::getCurrentCUDAStream());
  ready.block(s);
  {
    c10::cuda::CUDAStreamGuard guard(s);
    dst.copy_(src, /*non_blocking=*/true);
  }
  s.synchronize();
}

// Right: the caller's stream waits on an event recorded after the write.
void upload_joined(at::Tensor dst, const at::Tensor &src) {
  auto s = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready, done;
  ready.record(c10::cuda::getCurrentCUDAStream());
  ready.block(s);
  {
    c10::cuda::CUDAStreamGuard guard(s);
    dst.copy_(src, /*non_blocking=*/true);
  }
  done.record(s);
  done.block(c10::cuda::getCurrentCUDAStream());
}

// Right: the caller gets the event recorded after the write.
at::cuda::CUDAEvent upload_async(at::Tensor dst, const at::Tensor &src) {
  auto s = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready, done;
  ready.record(c10::cuda::getCurrentCUDAStream());
  ready.block(s);
  {
    c10::cuda::CUDAStreamGuard guard(s);
    dst.copy_(src, /*non_blocking=*/true);
  }
  done.record(s);
  return done;
}

// Right: the caller chose the stream; it waits for it as it chooses.
void upload_on(at::Tensor dst, const at::Tensor &src,
               c10::cuda::CUDAStream s) {
  at::cuda::CUDAEvent ready;
  ready.record(c10::cuda::getCurrentCUDAStream());
  ready.block(s);
  c10::cuda::CUDAStreamGuard guard(s);
  dst.copy_(src, /*non_blocking=*/true);
}

// Right: a tensor made here, recorded on the stream, dies here.
void scratch(const at::Tensor &src) {
  auto s = c10::cuda::getStreamFromPool();
  at::cuda::CUDAEvent ready;
  at::Tensor tmp = at::empty_like(src);
  ready.record(c10::cuda::getCurrentCUDAStream());
  ready.block(s);
  c10::cuda::CUDAStreamGuard guard(s);
  tmp.copy_(src, /*non_blocking=*/true);
  tmp.record_stream(s);
}
