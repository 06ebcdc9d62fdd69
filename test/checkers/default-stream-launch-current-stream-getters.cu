// RUN: %check_streamsafe %s streamsafe-default-stream-launch %t \
// RUN:   -- -config="{CheckOptions: {CurrentStreamGetters: 'mylib::currentStream'}}"
// RUN: %check_streamsafe %s streamsafe-default-stream-launch %t \
// RUN:   -- -config="{CheckOptions: {CurrentStreamFunctions: 'mylib::currentStream'}}"

// The project's getters of the current stream (CurrentStreamGetters, or its
// other name CurrentStreamFunctions) are the current stream: a value stored
// from one and not used gets the note, as for getCurrentCUDAStream().

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void fill(float *out) {}

namespace mylib {
cudaStream_t currentStream();
} // namespace mylib

void fetchedButNotPassed(float *out) {
  cudaStream_t stream = mylib::currentStream();
  fill<<<1, 32>>>(out);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (no stream argument), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-NOTES: :[[@LINE-3]]:16: note: PyTorch's current stream was stored in 'stream' here
  // CHECK-FIXES: fill<<<1, 32, 0, at::cuda::getCurrentCUDAStream()>>>(out);
  (void)stream;
}

// The stable ABI's getter writes the stream through its second argument;
// the variable may change, so the launch is not judged.
extern "C" int32_t aoti_torch_get_current_cuda_stream(int32_t device,
                                                     void **ret_stream);
void stableAbi(float *out) {
  void *stream = nullptr;
  aoti_torch_get_current_cuda_stream(0, &stream);
  fill<<<1, 32, 0, static_cast<cudaStream_t>(stream)>>>(out);
}
