// RUN: %check_streamsafe %s 'streamsafe-*' %t

// Hand-written RAII stream switchers, recognised from their code with no
// option: the constructor saves getCurrentCUDAStream() in a member and sets
// the stream it was given, the destructor sets the saved one back.

#include <ATen/ATen.h>
#include <c10/cuda/CUDAStream.h>

class StreamSwitcher {
public:
  explicit StreamSwitcher(c10::cuda::CUDAStream stream)
      : saved_(at::cuda::getCurrentCUDAStream()) {
    at::cuda::setCurrentCUDAStream(stream);
  }
  ~StreamSwitcher() { at::cuda::setCurrentCUDAStream(saved_); }

private:
  c10::cuda::CUDAStream saved_;
};

// Saved in the body, the stream second.
class DeviceAndStream {
public:
  DeviceAndStream(int device, c10::cuda::CUDAStream stream)
      : saved_(c10::cuda::getDefaultCUDAStream()) {
    (void)device;
    saved_ = c10::cuda::getCurrentCUDAStream();
    c10::cuda::setCurrentCUDAStream(stream);
  }
  ~DeviceAndStream() { c10::cuda::setCurrentCUDAStream(saved_); }

private:
  c10::cuda::CUDAStream saved_;
};

// The destructor forgets to restore: not a guard, its constructor leaves
// the stream set.
class LeakySwitcher {
public:
  explicit LeakySwitcher(c10::cuda::CUDAStream stream)
      : saved_(at::cuda::getCurrentCUDAStream()) {
    at::cuda::setCurrentCUDAStream(stream);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: the current stream set here is not restored on every path out of 'LeakySwitcher'; the caller's later work silently runs on it (use a c10::cuda::CUDAStreamGuard to set the stream for a scope) [streamsafe-unrestored-current-stream]
    // CHECK-NOTES: :[[@LINE+1]]:3: note: 'LeakySwitcher' can return here with the stream still set
  }
  ~LeakySwitcher() {}

private:
  c10::cuda::CUDAStream saved_;
};

// The switcher scopes the side stream like a CUDAStreamGuard: the work
// inside runs on it and the stream is restored at the end of the scope.
at::Tensor uses_the_switcher(const at::Tensor &x) {
  auto side = at::cuda::getStreamFromPool();
  at::Tensor y;
  {
    StreamSwitcher on(side);
    y = x.exp();
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'x' is read on pool stream 'side', but it is only known to be ready on the caller's current stream; nothing makes pool stream 'side' wait for it [streamsafe-unsynchronized-access]
    // CHECK-NOTES: :[[@LINE-3]]:20: note: the current stream is set to pool stream 'side' here
    // CHECK-NOTES: :[[@LINE-8]]:48: note: 'x' is assumed ready on the caller's current stream at function entry
  }
  side.synchronize();
  return y;
}

void uses_the_second_switcher(const at::Tensor &x) {
  DeviceAndStream on(0, at::cuda::getStreamFromPool());
  at::Tensor y = x.exp();
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: tensor 'x' is read on a pool stream, but it is only known to be ready on the caller's current stream; nothing makes a pool stream wait for it [streamsafe-unsynchronized-access]
  // CHECK-NOTES: :[[@LINE-3]]:19: note: the current stream is set to a pool stream here
  // CHECK-NOTES: :[[@LINE-5]]:49: note: 'x' is assumed ready on the caller's current stream at function entry
}
