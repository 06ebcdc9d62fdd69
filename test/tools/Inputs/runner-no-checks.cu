// RUN: true
#include <ATen/ATen.h>
__global__ void fill(float *out) {}
void launch(float *out) { fill<<<1, 32>>>(out); }
