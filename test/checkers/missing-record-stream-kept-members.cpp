// RUN: %check_streamsafe %s streamsafe-missing-record-stream %t

// A method that stores a tensor in its own object (`buf_ = t`) hands it to
// the object's other methods and users, which use it on their current
// stream. Allocated on the object's side stream and never recorded on the
// current stream, its block goes back to the side stream's pool when it
// dies, and new work there may overwrite it while the current stream still
// reads it. Reported at the store when the class gives the evidence (the
// rule is lib/lower/KeptTensors.h, for both languages; the Python twin is
// test/python/objects-kept-tensors.py): no method records anything, one
// uses the member where no other stream is current, none returns it, the
// method waits for nothing before the store, and the next statements do not
// replace it.
#include <ATen/ATen.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

// Wrong: the staged copy is allocated on the stager's stream and kept.
class Stager {
public:
  Stager() : stream_(c10::cuda::getStreamFromPool()) {}

  void stage(const at::Tensor &host) {
    c10::cuda::CUDAStreamGuard guard(stream_);
    buf_ = host.to(at::kCUDA, /*non_blocking=*/true);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'buf_' was allocated on stream member 'stream_' and is kept here in the object for its other methods and users, which use it on the caller's current stream; when its last reference dies the caching allocator may give its memory to new work on stream member 'stream_' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-2]]:12: note: 'buf_' is allocated on stream member 'stream_' here
    // CHECK-NOTES: :[[@LINE-7]]:22: note: 'stream_' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
  }

  at::Tensor scaled() { return buf_ * 2; }

private:
  c10::cuda::CUDAStream stream_;
  at::Tensor buf_;
};

// Right: the class records the kept tensor on the stream that uses it.
class RecordingStager {
public:
  RecordingStager() : stream_(c10::cuda::getStreamFromPool()) {}

  void stage(const at::Tensor &host) {
    c10::cuda::CUDAStreamGuard guard(stream_);
    buf_ = host.to(at::kCUDA, /*non_blocking=*/true);
  }

  at::Tensor scaled() {
    buf_.record_stream(c10::cuda::getCurrentCUDAStream());
    return buf_ * 2;
  }

private:
  c10::cuda::CUDAStream stream_;
  at::Tensor buf_;
};

// Right: the host waits for the caller's stream before the stream
// allocates, so a block freed by earlier users is reused after their work.
class WaitingStager {
public:
  WaitingStager() : stream_(c10::cuda::getStreamFromPool()) {}

  void stage(const at::Tensor &host) {
    c10::cuda::getCurrentCUDAStream().synchronize();
    c10::cuda::CUDAStreamGuard guard(stream_);
    buf_ = host.to(at::kCUDA, /*non_blocking=*/true);
  }

  at::Tensor scaled() { return buf_ * 2; }

private:
  c10::cuda::CUDAStream stream_;
  at::Tensor buf_;
};

// Right: a buffer the class only uses on its own stream.
class CommBuffer {
public:
  CommBuffer() : stream_(c10::cuda::getStreamFromPool()) {}

  void stage(const at::Tensor &host) {
    c10::cuda::CUDAStreamGuard guard(stream_);
    buf_ = host.to(at::kCUDA, /*non_blocking=*/true);
  }

  void halve() {
    c10::cuda::CUDAStreamGuard guard(stream_);
    buf_.mul_(0.5);
  }

private:
  c10::cuda::CUDAStream stream_;
  at::Tensor buf_;
};

// Right: allocated on the caller's current stream.
class CurrentStager {
public:
  void stage(const at::Tensor &host) {
    buf_ = host.to(at::kCUDA, /*non_blocking=*/true);
  }

  at::Tensor scaled() { return buf_ * 2; }

private:
  at::Tensor buf_;
};

// Silent: a method returns the member, so the return is where the tensor is
// handed on. The Python twin reports it there; C++ does not yet carry a
// member's allocation into another method (docs/checks/missing-record-stream.md).
class ReturningStager {
public:
  ReturningStager() : stream_(c10::cuda::getStreamFromPool()) {}

  void stage(const at::Tensor &host) {
    c10::cuda::CUDAStreamGuard guard(stream_);
    buf_ = host.to(at::kCUDA, /*non_blocking=*/true);
  }

  at::Tensor size() { return at::scalar_tensor(buf_.numel()); }
  at::Tensor take() { return buf_; }

private:
  c10::cuda::CUDAStream stream_;
  at::Tensor buf_;
};

// Wrong: only the last of the block's stores hands its tensor on.
class Normalizing {
public:
  Normalizing() : stream_(c10::cuda::getStreamFromPool()) {}

  void stage(const at::Tensor &host) {
    c10::cuda::CUDAStreamGuard guard(stream_);
    batch_ = host.to(at::kCUDA, /*non_blocking=*/true);
    batch_ = batch_.to(at::kFloat);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: tensor 'batch_' was allocated on stream member 'stream_' and is kept here in the object for its other methods and users, which use it on the caller's current stream; when its last reference dies the caching allocator may give its memory to new work on stream member 'stream_' while the caller's current stream is still using it (record it on the caller's current stream first) [streamsafe-missing-record-stream]
    // CHECK-NOTES: :[[@LINE-2]]:14: note: 'batch_' is allocated on stream member 'stream_' here
    // CHECK-NOTES: :[[@LINE-8]]:27: note: 'stream_' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
  }

  at::Tensor mean() { return batch_.mean(); }

private:
  c10::cuda::CUDAStream stream_;
  at::Tensor batch_;
};
