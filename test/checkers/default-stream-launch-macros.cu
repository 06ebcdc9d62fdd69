// RUN: %check_streamsafe %s streamsafe-default-stream-launch %t -- -- -I%S/Inputs

// Work written in the body of the project's own launch macro is the
// project's code: reported at the macro's use, with a note at the body, and
// without a fix (a fix in the body would change every use). Only macros of
// system headers are skipped.

#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/cuda/CUDAContext.h>
#include "system-launch-macro.h"

template <typename T> __global__ void fill(T *out, int n) {}

#define KERNEL_CALL(k, g, b, smem, stream, ...)                                \
  k<<<g, b, smem, stream>>>(__VA_ARGS__)

void withDefaultStream(at::Tensor &out) {
  KERNEL_CALL(fill<float>, 1, 32, 0, at::cuda::getDefaultCUDAStream(),
              out.data_ptr<float>(), 4);
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: kernel launch runs on the legacy default stream (stream argument is 'getDefaultCUDAStream()'), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :16:4: note: in the expansion of macro 'KERNEL_CALL', written here
}

// The use inside AT_DISPATCH's lambda is reported at the use, not at the
// dispatch macro.
#define RUN_FILL(n) fill<scalar_t><<<1, 32>>>(out.data_ptr<scalar_t>(), n)

void inDispatch(at::Tensor &out) {
  AT_DISPATCH_FLOATING_TYPES(out.scalar_type(), "fill", [&] {
    RUN_FILL(4);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: kernel launch runs on the legacy default stream (no stream argument), not on PyTorch's current stream [streamsafe-default-stream-launch]
    // CHECK-NOTES: :27:21: note: in the expansion of macro 'RUN_FILL', written here
  });
}

// ---- Not reported. ----

// The project's macro given the current stream.
void withCurrentStream(at::Tensor &out) {
  KERNEL_CALL(fill<float>, 1, 32, 0, at::cuda::getCurrentCUDAStream(),
              out.data_ptr<float>(), 4);
}

// A macro of a system header: the library's code, not the user's.
void libraryMacro(at::Tensor &out) {
  LIBRARY_LAUNCH(fill<float>, 1, 32, out.data_ptr<float>(), 4);
}
