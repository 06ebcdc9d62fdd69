// Does not compile: the tools must report clang's error, exit non-zero and
// not crash.
#include <ATen/ATen.h>

__global__ void fill(float *out) {}

void run(float *out) { fill<<<1, 32>>>(undeclared); }
