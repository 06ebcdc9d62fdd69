// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// Methods in sequence on one object (lib/frontend/IRBuilder.cpp,
// sharesObjectState): a function that makes an object of a class of this
// file whose methods use streams runs each method it calls in place, with
// the members as they stand, so that one method can fork and another join.
// A member tensor a method assigns stays assigned for the next one.
// The Python twin is test/python/objects-method-sequence.py.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

class Offloader {
public:
  Offloader() : stream_(c10::cuda::getStreamFromPool()) {}

  // Forks: the copy stream waits for the caller's stream, computes into a
  // member on the copy stream and records an event there.
  void start(const at::Tensor &Src) {
    fork_.record(c10::cuda::getCurrentCUDAStream());
    fork_.block(stream_);
    c10::cuda::CUDAStreamGuard Guard(stream_);
    buf_ = Src * 2;
    ready_.record(stream_);
  }

  // Joins: the caller's stream waits for the event first.
  at::Tensor finish() {
    ready_.block(c10::cuda::getCurrentCUDAStream());
    return buf_;
  }

  // Forgets the join: names no stream at all.
  at::Tensor peek() { return buf_; }

private:
  c10::cuda::CUDAStream stream_;
  at::cuda::CUDAEvent fork_, ready_;
  at::Tensor buf_;
};

// Right: start(), then finish() before the read.
at::Tensor started_and_finished(const at::Tensor &X) {
  Offloader O;
  O.start(X);
  return O.finish() + 1;
}

// Wrong: the buffer is read through peek(), which never waits.
at::Tensor started_and_peeked(const at::Tensor &X) {
  Offloader O;
  O.start(X);
  return O.peek() + 1;
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: tensor 'buf_' is read on the caller's current stream while its write on stream member 'stream_' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-30]]:3: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
  // CHECK-NOTES: :[[@LINE-33]]:5: note: 'buf_' is written on stream member 'stream_' here
  // CHECK-NOTES: :[[@LINE-5]]:3: note: in 'start', called here
  // CHECK-NOTES: :[[@LINE-36]]:32: note: the current stream was set to stream member 'stream_' here
  // CHECK-NOTES: :[[@LINE-44]]:25: note: 'stream_' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
}

// Right: the join by another method, before the read.
at::Tensor peeked_after_finish(const at::Tensor &X) {
  Offloader O;
  O.start(X);
  at::Tensor Done = O.finish();
  return O.peek() + Done;
}
