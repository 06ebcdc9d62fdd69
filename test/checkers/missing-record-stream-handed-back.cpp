// RUN: %check_streamsafe %s streamsafe-missing-record-stream %t

// A tensor allocated on a stream that outlives the call (a member only
// ever given a fresh stream) and returned to the caller, who uses it on its
// current stream: unless it is recorded there first, the caching allocator
// hands its block back to the member stream's pool when the caller lets go
// of it, and the stream's next work may overwrite it while the caller still
// reads it. The Python twin is test/python/object-fields.py (HandsBack,
// RecordsBack).
#include <ATen/ATen.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

class Prefetcher {
public:
  Prefetcher() : stream_(c10::cuda::getStreamFromPool()) {}

  // Wrong: handed back unrecorded.
  at::Tensor take(const at::Tensor &host) {
    at::Tensor out;
    {
      c10::cuda::CUDAStreamGuard guard(stream_);
      out = host.to(at::kCUDA, /*non_blocking=*/true);
    }
    c10::cuda::getCurrentCUDAStream().synchronize();
    return out;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'out' was allocated on stream member 'stream_' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on stream member 'stream_' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-5]]:13: note: 'out' is allocated on stream member 'stream_' here
    // CHECK-NOTES: :[[@LINE-13]]:26: note: 'stream_' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
  }

  // Right: recorded on the caller's stream first.
  at::Tensor take_recorded(const at::Tensor &host) {
    at::Tensor out;
    {
      c10::cuda::CUDAStreamGuard guard(stream_);
      out = host.to(at::kCUDA, /*non_blocking=*/true);
    }
    stream_.synchronize();
    out.record_stream(c10::cuda::getCurrentCUDAStream());
    return out;
  }

  // Right: the check rules out allocating on the member stream without
  // recording (the edge where `a && b` holds tells both; DeepEP's
  // get_dispatch_layout).
  at::Tensor checked(bool ready, bool async, bool on_side) {
    auto caller = c10::cuda::getCurrentCUDAStream();
    if (on_side) {
      TORCH_CHECK(ready && async);
      c10::cuda::setCurrentCUDAStream(stream_);
    }
    at::Tensor out = at::empty({64}, at::kCUDA);
    if (async && on_side)
      out.record_stream(caller);
    if (on_side)
      c10::cuda::setCurrentCUDAStream(caller);
    return out;
  }

  // Wrong: without the check, `on_side && !async` allocates on the member
  // stream and records nothing.
  at::Tensor unchecked(bool async, bool on_side) {
    auto caller = c10::cuda::getCurrentCUDAStream();
    if (on_side)
      c10::cuda::setCurrentCUDAStream(stream_);
    at::Tensor out = at::empty({64}, at::kCUDA);
    if (async && on_side)
      out.record_stream(caller);
    if (on_side)
      c10::cuda::setCurrentCUDAStream(caller);
    return out;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'out' was allocated on stream member 'stream_' and is handed back here to the caller, which uses it on the caller's current stream; when its last reference dies there the caching allocator may give its memory to new work on stream member 'stream_' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-7]]:22: note: 'out' is allocated on stream member 'stream_' here
    // CHECK-NOTES: :[[@LINE-59]]:26: note: 'stream_' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
    // CHECK-NOTES: :[[@LINE-11]]:9: note: on the path reported, 'on_side' is true
    // CHECK-NOTES: :[[@LINE-9]]:9: note: on the path reported, 'async' is false
  }

private:
  c10::cuda::CUDAStream stream_;
};

// Right: a stream made in the function does not outlive it.
at::Tensor made_here(const at::Tensor &host) {
  auto s = c10::cuda::getStreamFromPool();
  at::Tensor out;
  {
    c10::cuda::CUDAStreamGuard guard(s);
    out = host.to(at::kCUDA, /*non_blocking=*/true);
  }
  s.synchronize();
  return out;
}
