#include <c10/macros/Macros.h> // declares namespace c10: a LibTorch TU

__global__ void zero(float *p) { p[threadIdx.x] = 0.0f; }

void clear(float *p) { zero<<<1, 32>>>(p); }
