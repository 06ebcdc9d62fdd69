// RUN: %check_streamsafe %s streamsafe-unsynchronized-access %t

// A stream member of a class template holds, in each instance, what the
// template's code gives it: a member only ever given a fresh pool stream
// differs from the caller's current stream in every instantiation, as in
// a plain class (unsynchronized-access-members.cpp). An explicit
// specialization of the class, or of a method that writes the member, has
// code of its own; a dependent `this->member` write of a derived template
// may write it with anything.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

template <typename T> struct Worker {
  c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();

  at::Tensor run(const at::Tensor &X) {
    at::Tensor Y = X * 2;
    c10::cuda::CUDAStreamGuard guard(side);
    return Y.exp();
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'Y' is read on stream member 'side' while its write on the caller's current stream may still be pending; nothing makes stream member 'side' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-3]]:32: note: the current stream is set to stream member 'side' here
    // CHECK-NOTES: :[[@LINE-5]]:20: note: 'Y' is written on the caller's current stream here
    // CHECK-NOTES: :[[@LINE-9]]:32: note: 'side' is given a fresh stream here, as by every assignment of the class, so it is not the caller's current stream
  }

  // The correct twin: side waits for the current stream first, and the
  // current stream for side before the result is handed back.
  at::Tensor run_waited(const at::Tensor &X) {
    at::Tensor Y = X * 2;
    at::cuda::CUDAEvent ready;
    ready.record();
    ready.block(side);
    {
      c10::cuda::CUDAStreamGuard guard(side);
      Y.mul_(3);
      Y.record_stream(side);
    }
    at::cuda::CUDAEvent done;
    done.record(side);
    done.block(at::cuda::getCurrentCUDAStream());
    return Y;
  }
};

at::Tensor use_worker(const at::Tensor &X) {
  Worker<float> W;
  return W.run(X);
}

at::Tensor use_worker_waited(const at::Tensor &X) {
  Worker<float> W;
  return W.run_waited(X);
}

// An explicit specialization of a method that sets the member: the
// instance's member may be any stream (the caller's current one too).
template <typename T> struct Switchable {
  c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
  void reset() {}
  at::Tensor run(const at::Tensor &X) {
    at::Tensor Y = X * 2;
    c10::cuda::CUDAStreamGuard guard(side);
    return Y.exp();
  }
};
template <> void Switchable<int>::reset() {
  side = c10::cuda::getCurrentCUDAStream();
}

at::Tensor use_switchable(const at::Tensor &X) {
  Switchable<int> S;
  S.reset();
  return S.run(X);
}

// A derived template writes the member through a dependent name.
template <typename T> struct Base {
  c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
  at::Tensor run(const at::Tensor &X) {
    at::Tensor Y = X * 2;
    c10::cuda::CUDAStreamGuard guard(side);
    return Y.exp();
  }
};
template <typename T> struct Derived : Base<T> {
  void share(c10::cuda::CUDAStream s) { this->side = s; }
};

at::Tensor use_derived(const at::Tensor &X) {
  Derived<float> D;
  D.share(c10::cuda::getCurrentCUDAStream());
  return D.run(X);
}
