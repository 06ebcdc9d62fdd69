// RUN: %check_streamsafe %s streamsafe-default-stream-launch %t

// What the check does not see (docs/checks/default-stream-launch.md,
// "Limitations"): it is syntactic within one function. Each case below is a
// real default-stream launch that is NOT reported.

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void k(float *out) {}

// The stream comes from a call that is not followed.
cudaStream_t defaultStream() { return nullptr; }
void throughCall(float *out) { k<<<1, 32, 0, defaultStream()>>>(out); }

// Members are not judged.
struct Op {
  cudaStream_t stream_ = nullptr;
  void run(float *out) { k<<<1, 32, 0, stream_>>>(out); }
};

// Streams set through a handle are not checked yet.
void eventOnDefault(cudaEvent_t e) { cudaEventRecord(e); }
