// A kernel launched without a stream during the capture goes to the legacy
// default stream, not to the capturing pool stream (a non-blocking stream):
// it runs once, now, and is not in the graph, so the replay does not
// recompute Y from the new input.
#include "../graph_harness.h"

__global__ void twice(const float *X, float *Y, int64_t N) {
  int64_t I = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (I < N)
    Y[I] = 2 * X[I];
}

it::Outcome capture(float V, at::cuda::CUDAStream Cap, at::Tensor X,
                    at::Tensor Y) {
  at::cuda::CUDAGraph Graph;
  it::sync(); // X and Y are ready
  int Blocks = int((it::kN + 255) / 256);
  {
    at::cuda::CUDAStreamGuard OnCap(Cap);
    Graph.capture_begin();
    twice<<<Blocks, 256>>>(X.data_ptr<float>(), Y.data_ptr<float>(), it::kN); // EXPECT: streamsafe-graph-capture // EXPECT: streamsafe-default-stream-launch
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    Graph.capture_end();
  }
  it::sync();
  X.fill_(V + 100);
  it::sync();
  Graph.replay();
  it::sync();
  return {it::differs(Y[0].item<float>(), 2.0 * (V + 100)),
          "replay left Y as the eager run made it"};
}

int main(int argc, char **argv) {
  at::Tensor X = at::zeros({it::kN}, it::opts());
  at::Tensor Y = at::zeros({it::kN}, it::opts());
  return it::runGraph("graph_legacy_stream", "bug", argc, argv,
                      [&](float V, at::cuda::CUDAStream Cap) {
                        X.fill_(V);
                        return capture(V, Cap, X, Y);
                      });
}
