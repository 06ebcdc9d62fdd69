// RUN: %check_streamsafe %s streamsafe-default-stream-launch %t
// RUN: %check_streamsafe -check-suffixes=,ALL %s streamsafe-default-stream-launch %t \
// RUN:   -- -config="{CheckOptions: {streamsafe-default-stream-launch.ReportSynchronousRuntimeCalls: all}}"
// RUN: %check_streamsafe -check-suffix=NONE %s streamsafe-default-stream-launch %t \
// RUN:   -- -config="{CheckOptions: {streamsafe-default-stream-launch.ReportSynchronousRuntimeCalls: none}}"

// Synchronous cudaMemcpy/cudaMemset run on the legacy default stream. By
// default (ReportSynchronousRuntimeCalls: tensor) they are reported only
// where they touch memory PyTorch's streams use: a tensor's storage, whose
// block the caching allocator may reuse while work on a non-blocking stream
// is still pending; or after the function issued work on a stream that is
// not a default one. Raw cudaMalloc'd and IPC-opened buffers are not.
// With `none` no synchronous call is reported (CHECK-NONE has no lines:
// that run must be silent).

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void scale(float *out, int n) {}

// H2D into a fresh tensor: its block may come back from the caching
// allocator with a kernel on the current stream still reading it.
at::Tensor upload(const float *host, int64_t n) {
  at::Tensor out = at::empty({n}, at::device(at::kCUDA).dtype(at::kFloat));
  cudaMemcpy(out.data_ptr<float>(), host, n * sizeof(float),
             cudaMemcpyHostToDevice);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'cudaMemcpy' runs on the legacy default stream: it blocks the host but is not ordered with work on PyTorch's non-blocking streams; use 'cudaMemcpyAsync' on the current stream [streamsafe-default-stream-launch]
  return out;
}

// Through a local pointer, pointer arithmetic and a cast.
void clearTail(at::Tensor &t, int64_t from) {
  float *base = t.data_ptr<float>();
  cudaMemset(reinterpret_cast<void *>(base + from), 0,
             (t.numel() - from) * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'cudaMemset' runs on the legacy default stream, which is not ordered with work on PyTorch's non-blocking streams; use 'cudaMemsetAsync' on the current stream [streamsafe-default-stream-launch]
}

// A pointer assigned later, and the untyped data_ptr().
void readBack(const at::Tensor &t, void *host) {
  void *src = nullptr;
  src = t.data_ptr();
  cudaMemcpy(host, src, t.nbytes(), cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' runs on the legacy default stream: it blocks the host
}

// A raw buffer, after work the function issued on the current stream: the
// copy is not ordered with that kernel.
void afterCurrentStreamWork(float *raw, float *host, int n) {
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  scale<<<1, 32, 0, stream>>>(raw, n);
  cudaMemcpy(host, raw, n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' runs on the legacy default stream: it blocks the host
}

// ---- Raw buffers: reported only with ReportSynchronousRuntimeCalls: all.

// One-time setup of a cudaMalloc'd buffer, then a device-wide sync.
float *makeTable(const float *host, int n) {
  float *table = nullptr;
  cudaMalloc(&table, n * sizeof(float));
  cudaMemset(table, 0, n * sizeof(float));
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:3: warning: 'cudaMemset' runs on the legacy default stream
  cudaMemcpy(table, host, n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:3: warning: 'cudaMemcpy' runs on the legacy default stream
  cudaDeviceSynchronize();
  return table;
}

// A peer's buffer opened through IPC.
void *openPeer(cudaIpcMemHandle_t handle, size_t bytes) {
  void *peer = nullptr;
  cudaIpcOpenMemHandle(&peer, handle, cudaIpcMemLazyEnablePeerAccess);
  cudaMemset(peer, 0, bytes);
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:3: warning: 'cudaMemset' runs on the legacy default stream
  return peer;
}

// The host side of a copy is not stream memory: a CPU tensor receiving a
// raw device buffer.
at::Tensor download(const float *raw, int64_t n) {
  at::Tensor host = at::empty({n}, at::kFloat);
  cudaMemcpy(host.data_ptr<float>(), raw, n * sizeof(float),
             cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES-ALL: :[[@LINE-2]]:3: warning: 'cudaMemcpy' runs on the legacy default stream
  return host;
}

// An offset computed from a tensor does not make a raw pointer a tensor's.
void rawWithTensorOffset(float *raw, const at::Tensor &t) {
  cudaMemset(raw + t.numel(), 0, sizeof(float));
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:3: warning: 'cudaMemset' runs on the legacy default stream
}

// Work on the default stream before is no stream work.
void afterLegacyWork(float *raw, float *host, int n) {
  scale<<<1, 32>>>(raw, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launch runs on the legacy default stream (no stream argument), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-MESSAGES-NONE: :[[@LINE-2]]:3: warning: kernel launch runs on the legacy default stream (no stream argument), not on PyTorch's current stream [streamsafe-default-stream-launch]
  // CHECK-FIXES: scale<<<1, 32, 0, at::cuda::getCurrentCUDAStream()>>>(raw, n);
  cudaMemcpy(host, raw, n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:3: warning: 'cudaMemcpy' runs on the legacy default stream
}

// The fallback when no stream is given: the synchronous copy is in the other
// branch of the stream work, so it follows none (exllamav2's q_matrix.cu).
void readGroups(const unsigned short *groups, unsigned short *host, int n,
                cudaStream_t stream) {
  if (stream) {
    cudaMemcpyAsync(host, groups, n * sizeof(unsigned short),
                    cudaMemcpyDeviceToHost, stream);
    cudaDeviceSynchronize();
  } else {
    cudaMemcpy(host, groups, n * sizeof(unsigned short),
               cudaMemcpyDeviceToHost);
    // CHECK-MESSAGES-ALL: :[[@LINE-2]]:5: warning: 'cudaMemcpy' runs on the legacy default stream
  }
  // After the if, the stream work of its first branch may have run.
  cudaMemcpy(host, groups, sizeof(unsigned short), cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemcpy' runs on the legacy default stream: it blocks the host
}
