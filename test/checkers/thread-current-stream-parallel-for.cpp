// RUN: %check_streamsafe -check-suffix=OMP -no-pch %s streamsafe-thread-current-stream %t-omp -- -- -D_OPENMP=201511 -isystem %S/../shim/openmp
// RUN: %check_streamsafe %s streamsafe-thread-current-stream %t

// at::parallel_for hands its chunks to the intra-op pool's threads only
// where the unit is built with a parallel backend (ATen/Parallel-inl.h:
// under INTRA_OP_PARALLEL, which OpenMP's _OPENMP gives): their current
// stream is then their own default stream. Built without one (the second
// run), the body runs inline on the caller, under its guard: silent.

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

// An intra-op parallel loop runs its body on pool threads too: they do not
// see the caller's guard.
void parallel_for_asks_the_current_stream(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard guard(s);
  at::parallel_for(0, X.size(0), 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      X[i].add_(1);
    // CHECK-NOTES-OMP: :[[@LINE-1]]:7: warning: this work runs on the default stream, not on pool stream 's' that was current where the thread was spawned; the current stream is thread-local [streamsafe-thread-current-stream]
    // CHECK-NOTES-OMP: :[[@LINE-4]]:3: note: the thread starts here on the default stream; pass the stream in and set a stream guard inside the thread
    // CHECK-NOTES-OMP: :[[@LINE-6]]:29: note: the spawning thread's current stream is set to pool stream 's' here
  });
}

// The fix: each chunk sets the stream it is given.
void parallel_for_sets_the_stream(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard guard(s);
  at::parallel_for(0, X.size(0), 1, [&X, s](int64_t begin, int64_t end) {
    at::cuda::CUDAStreamGuard inner(s);
    for (int64_t i = begin; i < end; ++i)
      X[i].add_(1);
  });
}

// A host-only loop under no guard says nothing.
void parallel_for_without_a_guard(const at::Tensor &X) {
  auto s = at::cuda::getStreamFromPool();
  at::parallel_for(0, X.size(0), 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      X[i].add_(1);
  });
  (void)s;
}
