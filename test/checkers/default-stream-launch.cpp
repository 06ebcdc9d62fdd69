// RUN: %check_streamsafe %s streamsafe-default-stream-launch %t

// Host C++ (not CUDA) that calls the runtime directly, as many extension
// .cpp files do.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>

void copyOut(const at::Tensor &src, float *host) {
  cudaMemcpyAsync(host, src.data_ptr<float>(), src.nbytes(),
                  cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'cudaMemcpyAsync' runs on the legacy default stream (no stream argument), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-FIXES: cudaMemcpyDeviceToHost, at::cuda::getCurrentCUDAStream());
  cudaMemcpy(host, src.data_ptr<float>(), src.nbytes(), cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' runs on the legacy default stream: it blocks the host
}

void copyOutOnCurrentStream(const at::Tensor &src, float *host) {
  auto stream = at::cuda::getCurrentCUDAStream();
  cudaMemcpyAsync(host, src.data_ptr<float>(), src.nbytes(),
                  cudaMemcpyDeviceToHost, stream);
  stream.synchronize();
}
