// RUN: %check_streamsafe %s streamsafe-default-stream-launch %t

// Templates are judged as written: work whose stream is a default stream in
// the template itself is reported once, however many instantiations there
// are; a stream that depends on a template parameter is not judged.

#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/cuda/CUDAContext.h>

template <typename T> __global__ void fill(T *out) {}

template <typename T> void launchAll(T *out) {
  fill<T><<<1, 32>>>(out);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (no stream argument), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-FIXES: fill<T><<<1, 32, 0, at::cuda::getCurrentCUDAStream()>>>(out);
  cudaMemsetAsync(out, 0, sizeof(T));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemsetAsync' runs on the legacy default stream (no stream argument)
}
template void launchAll<float>(float *);
template void launchAll<double>(double *);

// Never instantiated: still reported, the launch has no stream.
template <typename T> void neverUsed(T *out) {
  fill<T><<<1, 32>>>(out);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (no stream argument)
}

// The AT_DISPATCH idiom: one lambda, instantiated per dtype.
void dispatched(const at::Tensor &t) {
  AT_DISPATCH_FLOATING_TYPES(t.scalar_type(), "dispatched", [&] {
    fill<scalar_t><<<1, 32>>>(t.data_ptr<scalar_t>());
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: kernel launch runs on the legacy default stream (no stream argument)
  });
}

// ---- Safe twins: nothing is reported below this line. ----

template <typename Stream, typename T> void onGivenStream(Stream s, T *out) {
  fill<T><<<1, 32, 0, s>>>(out);
  cudaMemsetAsync(out, 0, sizeof(T), s);
}
template void onGivenStream<cudaStream_t, float>(cudaStream_t, float *);

template <typename Policy, typename T> void onPolicyStream(T *out) {
  fill<T><<<1, 32, 0, Policy::stream()>>>(out);
}

void dispatchedOnCurrent(const at::Tensor &t) {
  AT_DISPATCH_FLOATING_TYPES(t.scalar_type(), "dispatched", [&] {
    fill<scalar_t><<<1, 32, 0, at::cuda::getCurrentCUDAStream()>>>(
        t.data_ptr<scalar_t>());
  });
}
