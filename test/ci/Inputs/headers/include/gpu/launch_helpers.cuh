#pragma once
#include <c10/macros/Macros.h> // declares namespace c10: a LibTorch TU

__global__ void touch(float *p) { p[threadIdx.x] += 1.0f; }

inline void touch_all(float *p) {
  touch<<<1, 64>>>(p);
}
