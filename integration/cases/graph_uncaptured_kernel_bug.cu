// A kernel launched during the capture on a pool stream that never joined it
// (no wait on an event of the capturing stream): it allocates nothing, so
// the runtime lets it run, once, now; it is not in the graph, and the replay
// does not recompute Y from the new input.
#include "../graph_harness.h"

__global__ void twice(const float *X, float *Y, int64_t N) {
  int64_t I = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (I < N)
    Y[I] = 2 * X[I];
}

it::Outcome capture(float V, at::cuda::CUDAStream Cap, at::Tensor X,
                    at::Tensor Y, at::Tensor Z) {
  at::cuda::CUDAGraph Graph;
  it::sync(); // X, Y and Z are ready
  int Blocks = int((it::kN + 255) / 256);
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  {
    at::cuda::CUDAStreamGuard OnCap(Cap);
    Graph.capture_begin();
    Z.copy_(X);
    twice<<<Blocks, 256, 0, Side.stream()>>>(X.data_ptr<float>(), Y.data_ptr<float>(), it::kN); // EXPECT: streamsafe-graph-capture
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    Graph.capture_end();
  }
  it::sync();
  X.fill_(V + 100);
  it::sync();
  Graph.replay();
  it::sync();
  bool Bad = it::differs(Y[0].item<float>(), 2.0 * (V + 100)) ||
             it::differs(Z[0].item<float>(), V + 100.0);
  return {Bad, "replay left Y as the eager run made it"};
}

int main(int argc, char **argv) {
  at::Tensor X = at::zeros({it::kN}, it::opts());
  at::Tensor Y = at::zeros({it::kN}, it::opts());
  at::Tensor Z = at::zeros({it::kN}, it::opts());
  return it::runGraph("graph_uncaptured_kernel", "bug", argc, argv,
                      [&](float V, at::cuda::CUDAStream Cap) {
                        X.fill_(V);
                        return capture(V, Cap, X, Y, Z);
                      });
}
