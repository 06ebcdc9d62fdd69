// RUN: %check_streamsafe %s streamsafe-graph-capture %t

// A flag a call gives as written (`false`, a constexpr) decides the
// callee's tests of it where the callee runs in place, if the callee never
// changes it: `scaled(x, false)` makes no synchronize inside a capture. The
// same helper given true, or a flag it changes, keeps both paths; each call
// binds the flag anew (the Python twin:
// test/python/path-conditions-constant-arguments.py).

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

constexpr bool kSyncForTimers = false;

at::Tensor scaled(const at::Tensor &x, bool sync) {
  if (sync)
    c10::cuda::device_synchronize();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'device_synchronize' waits for the whole device while pool stream 'cap' captures into a CUDA graph: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; synchronise after the capture ends [streamsafe-graph-capture]
    // CHECK-NOTES: :[[@LINE+30]]:3: note: the capture begins here, on pool stream 'cap'
    // CHECK-NOTES: :[[@LINE+30]]:18: note: in 'scaled', called here from 'capture_enabled'
  return x * 2;
}

at::Tensor scaled_changed(const at::Tensor &x, bool sync) {
  sync = sync || x.numel() > 4;
  if (sync)
    c10::cuda::device_synchronize();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'device_synchronize' waits for the whole device while pool stream 'cap' captures into a CUDA graph: the runtime refuses it with cudaErrorStreamCaptureUnsupported and invalidates the capture; synchronise after the capture ends [streamsafe-graph-capture]
    // CHECK-NOTES: :[[@LINE+30]]:3: note: the capture begins here, on pool stream 'cap'
    // CHECK-NOTES: :[[@LINE+30]]:18: note: in 'scaled_changed', called here from 'capture_changed'
  return x * 2;
}

// Silent: disabled, nothing synchronizes.
at::Tensor capture_disabled(at::cuda::CUDAGraph &G, const at::Tensor &x) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  at::Tensor y = scaled(x, false);
  at::Tensor z = scaled(y, kSyncForTimers);
  G.capture_end();
  return z;
}

// Wrong: enabled, it synchronizes inside the capture.
at::Tensor capture_enabled(at::cuda::CUDAGraph &G, const at::Tensor &x) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  at::Tensor z = scaled(x, true);
  G.capture_end();
  return z;
}

// Wrong: the helper changes its flag, so `false` decides nothing.
at::Tensor capture_changed(at::cuda::CUDAGraph &G, const at::Tensor &x) {
  auto cap = at::cuda::getStreamFromPool();
  c10::cuda::CUDAStreamGuard on_cap(cap);
  G.capture_begin();
  at::Tensor z = scaled_changed(x, false);
  G.capture_end();
  return z;
}

// Silent: enabled only after the capture; the call inside it is given
// false (the two calls bind the flag anew).
at::Tensor sync_after_capture(at::cuda::CUDAGraph &G, const at::Tensor &x) {
  at::Tensor z;
  {
    auto cap = at::cuda::getStreamFromPool();
    c10::cuda::CUDAStreamGuard on_cap(cap);
    G.capture_begin();
    z = scaled(x, false);
    G.capture_end();
  }
  return scaled(z, true);
}
