// RUN: %check_streamsafe %s streamsafe-default-stream-launch %t

// thrust algorithms in a CUDA extension (host-only parse of thrust, CCCL).
// Every CUDA policy without `.on(stream)` and every policy-less call on
// device iterators runs on thrust's default stream, the legacy one. No
// fix-it: which policy (with ATen's ThrustAllocator or not) and which
// headers are the author's choice. Each flagged call has a safe twin below.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/ThrustAllocator.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>

void sortDevice(at::Tensor &t) {
  thrust::device_ptr<float> p(t.data_ptr<float>());
  thrust::sort(thrust::device, p, p + t.numel());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'sort' runs on the legacy default stream (execution policy 'thrust::device'), not on PyTorch's current stream [streamsafe-default-stream-launch]
}

void sortPar(at::Tensor &t) {
  thrust::device_ptr<float> p(t.data_ptr<float>());
  thrust::sort(thrust::cuda::par, p, p + t.numel());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'sort' runs on the legacy default stream (execution policy 'thrust::cuda::par' without '.on(stream)'), not on PyTorch's current stream [streamsafe-default-stream-launch]
}

void sortParNosync(at::Tensor &t) {
  thrust::device_ptr<float> p(t.data_ptr<float>());
  thrust::sort(thrust::cuda::par_nosync, p, p + t.numel());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'sort' runs on the legacy default stream (execution policy 'thrust::cuda::par_nosync' without '.on(stream)'), not on PyTorch's current stream [streamsafe-default-stream-launch]
}

// ATen's allocator routes thrust's temporaries through the caching
// allocator; it does not choose a stream.
float sumWithAllocator(at::Tensor &t) {
  at::cuda::ThrustAllocator allocator;
  thrust::device_ptr<float> p(t.data_ptr<float>());
  return thrust::reduce(thrust::cuda::par(allocator), p, p + t.numel());
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: 'reduce' runs on the legacy default stream (execution policy 'thrust::cuda::par' without '.on(stream)'), not on PyTorch's current stream [streamsafe-default-stream-launch]
}

// A policy kept in a variable: its initializer decides.
void policyVariable(at::Tensor &t) {
  auto policy = thrust::cuda::par;
  thrust::device_ptr<float> p(t.data_ptr<float>());
  thrust::sort(policy, p, p + t.numel());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'sort' runs on the legacy default stream (execution policy 'policy'), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :[[@LINE-4]]:8: note: 'policy' is initialized with 'thrust::cuda::par' without '.on(stream)' here
}

// No policy: thrust takes the system of the iterators.
void noPolicy(at::Tensor &t, thrust::device_vector<int> &v) {
  thrust::device_ptr<float> p(t.data_ptr<float>());
  thrust::sort(p, p + t.numel());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'sort' runs on the legacy default stream (no execution policy, iterators on the device), not on PyTorch's current stream [streamsafe-default-stream-launch]
  thrust::sequence(v.begin(), v.end());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'sequence' runs on the legacy default stream (no execution policy, iterators on the device), not on PyTorch's current stream [streamsafe-default-stream-launch]
}

// `.on(stream)` with a default stream named as such.
void onNullStream(at::Tensor &t) {
  thrust::device_ptr<float> p(t.data_ptr<float>());
  thrust::sort(thrust::cuda::par.on(nullptr), p, p + t.numel());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'sort' runs on the legacy default stream (stream argument is null), not on PyTorch's current stream [streamsafe-default-stream-launch]
  cudaStream_t legacy = at::cuda::getDefaultCUDAStream();
  thrust::sort(thrust::cuda::par_nosync.on(legacy), p, p + t.numel());
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'sort' runs on the legacy default stream (stream 'legacy'), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :[[@LINE-3]]:16: note: 'legacy' is initialized with 'getDefaultCUDAStream()' here
}

// ---- Not reported. ----

void onCurrentStream(at::Tensor &t) {
  thrust::device_ptr<float> p(t.data_ptr<float>());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  thrust::sort(thrust::cuda::par.on(stream), p, p + t.numel());
  thrust::sort(thrust::cuda::par_nosync.on(stream), p, p + t.numel());
  thrust::sort(thrust::cuda::par.on(at::cuda::getCurrentCUDAStream()), p,
               p + t.numel());
}

// ATen's own pattern (aten/src/ATen/native/cuda): the allocator and the
// current stream.
float sumAtenStyle(at::Tensor &t) {
  at::cuda::ThrustAllocator allocator;
  auto stream = at::cuda::getCurrentCUDAStream();
  auto policy = thrust::cuda::par(allocator).on(stream);
  thrust::device_ptr<float> p(t.data_ptr<float>());
  return thrust::reduce(policy, p, p + t.numel());
}

// A policy bound to a const reference (the temporary lives as long).
void policyReference(at::Tensor &t, cudaStream_t given) {
  at::cuda::ThrustAllocator allocator;
  const auto &policy = thrust::cuda::par(allocator).on(given);
  thrust::device_ptr<float> p(t.data_ptr<float>());
  thrust::sort(policy, p, p + t.numel());
}

// A stream the function does not show (a parameter, a pool stream).
void onOtherStreams(at::Tensor &t, cudaStream_t given) {
  thrust::device_ptr<float> p(t.data_ptr<float>());
  thrust::sort(thrust::cuda::par.on(given), p, p + t.numel());
  auto pool = at::cuda::getStreamFromPool();
  thrust::sort(thrust::cuda::par.on(pool), p, p + t.numel());
}

// A policy the function does not show, and one that it changes.
template <typename Policy> void withPolicy(const Policy &policy, float *out) {
  thrust::device_ptr<float> p(out);
  thrust::sort(policy, p, p + 4);
}
void changedPolicy(at::Tensor &t, bool side) {
  auto policy = thrust::cuda::par.on(at::cuda::getCurrentCUDAStream());
  if (side)
    policy = thrust::cuda::par.on(nullptr);
  thrust::device_ptr<float> p(t.data_ptr<float>());
  thrust::sort(policy, p, p + t.numel());
}

// Host policies and host iterators: no CUDA work.
void onHost(std::vector<float> &v, thrust::device_vector<float> &d) {
  thrust::sort(v.begin(), v.end());
  thrust::sort(thrust::host, v.begin(), v.end());
  thrust::sort(thrust::seq, v.begin(), v.end());
  // Helpers that are not algorithms.
  float *raw = thrust::raw_pointer_cast(d.data());
  (void)raw;
}
