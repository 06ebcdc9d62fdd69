#include <c10/macros/Macros.h> // declares namespace c10: a LibTorch TU
#include <cuda_runtime_api.h>

// One memset on the legacy default stream.
void clear(float *p) { cudaMemsetAsync(p, 0, 128); }
