// RUN: %check_streamsafe %s streamsafe-default-stream-launch %t

// Kernel launches in a CUDA extension: every launch must name PyTorch's
// current stream. Each flagged launch has a safe twin below.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAStream.h>

__global__ void scale(float *out, const float *in, int n) {}

void noStream(float *out, const float *in, int n) {
  scale<<<n / 256, 256>>>(out, in, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (no stream argument), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-FIXES: scale<<<n / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(out, in, n);
}

void noStreamWithSharedMemory(float *out, const float *in, int n) {
  scale<<<n / 256, 256, 256 * sizeof(float)>>>(out, in, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (no stream argument), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-FIXES: scale<<<n / 256, 256, 256 * sizeof(float), at::cuda::getCurrentCUDAStream()>>>(out, in, n);
}

void nullStreams(float *out, const float *in, int n) {
  scale<<<1, 256, 0, 0>>>(out, in, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (stream argument is null), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-FIXES: scale<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(out, in, n);
  scale<<<1, 256, 0, nullptr>>>(out, in, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (stream argument is null)
  // CHECK-FIXES: scale<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(out, in, n);
  scale<<<1, 256, 0, NULL>>>(out, in, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (stream argument is null)
  // CHECK-FIXES: scale<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(out, in, n);
  scale<<<1, 256, 0, (cudaStream_t)0>>>(out, in, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (stream argument is null)
  // CHECK-FIXES: scale<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(out, in, n);
}

// Named default streams: reported, not rewritten (the author chose them).
void namedDefaultStreams(float *out, const float *in, int n) {
  scale<<<1, 256, 0, cudaStreamLegacy>>>(out, in, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (stream argument is 'cudaStreamLegacy'), not on PyTorch's current stream
  // CHECK-FIXES: scale<<<1, 256, 0, cudaStreamLegacy>>>(out, in, n);
  scale<<<1, 256, 0, cudaStreamPerThread>>>(out, in, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the per-thread default stream (stream argument is 'cudaStreamPerThread'), not on PyTorch's current stream
  scale<<<1, 256, 0, at::cuda::getDefaultCUDAStream()>>>(out, in, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (stream argument is 'getDefaultCUDAStream()'), not on PyTorch's current stream
  scale<<<1, 256, 0, c10::cuda::getDefaultCUDAStream(0)>>>(out, in, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (stream argument is 'getDefaultCUDAStream()')
  scale<<<1, 256, 0, at::cuda::getDefaultCUDAStream().stream()>>>(out, in, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (stream argument is 'getDefaultCUDAStream()')
}

// Through a local variable that nothing changes after its initialization.
void defaultStreamVariables(float *out, const float *in, int n) {
  auto def = at::cuda::getDefaultCUDAStream();
  scale<<<1, 256, 0, def>>>(out, in, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (stream 'def'), not on PyTorch's current stream
  cudaStream_t raw = def.stream();
  scale<<<1, 256, 0, raw>>>(out, in, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (stream 'raw')
  const cudaStream_t none = nullptr;
  scale<<<1, 256, 0, none>>>(out, in, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (stream 'none')
  // CHECK-FIXES: scale<<<1, 256, 0, none>>>(out, in, n);
}

// ---- Safe twins: nothing is reported below this line. ----

void currentStream(float *out, const float *in, int n) {
  scale<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(out, in, n);
  scale<<<1, 256, 0, c10::cuda::getCurrentCUDAStream(0).stream()>>>(out, in, n);
  auto stream = at::cuda::getCurrentCUDAStream();
  scale<<<1, 256, 0, stream>>>(out, in, n);
  cudaStream_t raw = stream.stream();
  scale<<<1, 256, 0, raw>>>(out, in, n);
}

void streamParameter(float *out, const float *in, int n, cudaStream_t stream,
                     const c10::cuda::CUDAStream &torchStream) {
  scale<<<1, 256, 0, stream>>>(out, in, n);
  scale<<<1, 256, 0, torchStream>>>(out, in, n);
}

void poolStream(float *out, const float *in, int n) {
  auto side = at::cuda::getStreamFromPool();
  scale<<<1, 256, 0, side>>>(out, in, n);
}

// A variable that may change is not judged.
void reassignedVariable(float *out, const float *in, int n, bool useSide) {
  cudaStream_t stream = nullptr;
  if (useSide)
    stream = at::cuda::getStreamFromPool().stream();
  scale<<<1, 256, 0, stream>>>(out, in, n);
  cudaStream_t created = nullptr;
  cudaStreamCreate(&created);
  scale<<<1, 256, 0, created>>>(out, in, n);
}

struct Launcher {
  cudaStream_t stream_;
  void run(float *out, const float *in, int n) {
    scale<<<1, 256, 0, stream_>>>(out, in, n);
  }
};

// Work in the body of the project's own macro is reported at the macro's use
// (default-stream-launch-macros.cu has the notes), without a fix.
#define LAUNCH_SCALE(out, in, n) scale<<<1, 256>>>(out, in, n)
void inMacro(float *out, const float *in, int n) { LAUNCH_SCALE(out, in, n); }
// CHECK-MESSAGES: :[[@LINE-1]]:52: warning: kernel launch runs on the legacy default stream (no stream argument), not on PyTorch's current stream [streamsafe-default-stream-launch]
