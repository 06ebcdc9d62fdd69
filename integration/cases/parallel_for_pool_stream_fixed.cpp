// An intra-op parallel loop runs its chunks on the pool's threads, whose
// current stream is their own default stream. Fixed: each chunk sets the
// producer's stream before it sums A.
// BUILD: openmp
#include "../harness.h"

#include <ATen/Parallel.h>

#include <vector>

bool sumsInParallelLoop(float V) {
  at::cuda::CUDAStream Pool = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard Guard(Pool);
  at::cuda::sleep(it::spin());                      // the pool stream is busy with earlier work
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on Pool
  constexpr int64_t Chunks = 8;
  std::vector<float> Sums(Chunks, 0.0f);
  at::parallel_for(0, Chunks, 1, [&](int64_t Begin, int64_t End) {
    at::cuda::CUDAStreamGuard ChunkGuard(Pool);
    for (int64_t I = Begin; I < End; ++I)
      Sums[I] = at::sum(A).item<float>();
  });
  bool Wrong = false;
  for (float S : Sums)
    Wrong |= it::differs(S, it::kN * double(V));
  return Wrong;
}

int main(int argc, char **argv) {
  return it::run("parallel_for_pool_stream", "fixed", argc, argv,
                 [](float V) { return sumsInParallelLoop(V); });
}
