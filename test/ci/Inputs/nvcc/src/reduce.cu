#include "myext/common.h"

#ifndef MYEXT_FROM_RSP
#error "the options file of this compile command was not read"
#endif
#ifndef CUDA_API_PER_THREAD_DEFAULT_STREAM
#error "--default-stream per-thread was not translated"
#endif

__global__ void sum(const float *in, float *out) { atomicAdd(out, in[threadIdx.x]); }

void reduce(const float *in, float *out) {
  sum<<<1, myext::kThreads>>>(in, out);
}
