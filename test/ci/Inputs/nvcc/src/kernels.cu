#include "myext/common.h"

__global__ void scale(float *p, float s) { p[threadIdx.x] *= s; }

void scale_all(float *p, float s) {
  scale<<<1, myext::kThreads>>>(p, s);
}
