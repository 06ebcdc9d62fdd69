// RUN: %check_streamsafe %s streamsafe-unrestored-current-stream %t

// A class may split a guard across two methods: Begin() saves the current
// stream in a member and sets another, End() sets the saved one back. The
// stream Begin() leaves set is the section's: it is reported where a caller
// opens the section and does not close it, not inside the methods.

#include <ATen/ATen.h>
#include <c10/cuda/CUDAStream.h>

class Section {
public:
  Section() : Side(at::cuda::getStreamFromPool()) {}
  void Begin() {
    Saved = at::cuda::getCurrentCUDAStream();
    at::cuda::setCurrentCUDAStream(Side);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: the current stream set here is not restored on every path out of 'early_return'; the caller's later work silently runs on it (use a c10::cuda::CUDAStreamGuard to set the stream for a scope) [streamsafe-unrestored-current-stream]
    // CHECK-NOTES: :[[@LINE+18]]:5: note: 'early_return' can return here with the stream still set
  }
  void End() { at::cuda::setCurrentCUDAStream(Saved); }

private:
  c10::cuda::CUDAStream Side;
  c10::cuda::CUDAStream Saved = at::cuda::getDefaultCUDAStream();
};

void balanced(Section &S) {
  S.Begin();
  at::Tensor Y = at::ones({4}, at::kCUDA);
  S.End();
}

void early_return(Section &S, bool Skip) {
  S.Begin();
  if (Skip)
    return;
  at::Tensor Y = at::ones({4}, at::kCUDA);
  S.End();
}

void on_a_local_object() {
  Section S;
  S.Begin();
  at::Tensor Y = at::ones({4}, at::kCUDA);
  S.End();
}

// No method sets `Saved` back: Begin() leaves its stream set for good.
class Leaky {
public:
  Leaky() : Side(at::cuda::getStreamFromPool()) {}
  void Begin() {
    Saved = at::cuda::getCurrentCUDAStream();
    at::cuda::setCurrentCUDAStream(Side);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: the current stream set here is not restored on every path out of 'Begin'; the caller's later work silently runs on it (use a c10::cuda::CUDAStreamGuard to set the stream for a scope) [streamsafe-unrestored-current-stream]
    // CHECK-NOTES: :[[@LINE+1]]:3: note: 'Begin' can return here with the stream still set
  }

private:
  c10::cuda::CUDAStream Side;
  c10::cuda::CUDAStream Saved = at::cuda::getDefaultCUDAStream();
};
