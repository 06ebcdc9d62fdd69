// ATen work issued during the capture on a pool stream that never joined it
// (no wait on an event of the capturing stream) is not captured; here it
// needs a block from the caching allocator for that stream, whose cudaMalloc
// the global capture mode refuses (cudaErrorStreamCaptureUnsupported, raised
// from the allocator). graph_uncaptured_kernel shows work that allocates
// nothing: it runs once and the replay does not repeat it.
#include "../graph_harness.h"

it::Outcome capture(float V, at::cuda::CUDAStream Cap, at::Tensor X,
                    at::Tensor Y, at::Tensor Z) {
  at::cuda::CUDAGraph Graph;
  it::sync(); // X, Y and Z are ready
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  {
    at::cuda::CUDAStreamGuard OnCap(Cap);
    Graph.capture_begin();
    Z.copy_(X);
    Z.add_(1);
    {
      at::cuda::CUDAStreamGuard OnSide(Side);
      at::mul_out(Y, X, 2); // EXPECT: streamsafe-graph-capture
    }
    Graph.capture_end();
  }
  it::sync();
  // New input, then a replay: the graph must recompute Y and Z from it.
  X.fill_(V + 100);
  it::sync();
  Graph.replay();
  it::sync();
  bool Bad = it::differs(Y[0].item<float>(), 2.0 * (V + 100)) ||
             it::differs(Z[0].item<float>(), V + 101.0);
  return {Bad, "replay left Y as the eager run made it"};
}

int main(int argc, char **argv) {
  at::Tensor X = at::zeros({it::kN}, it::opts());
  at::Tensor Y = at::zeros({it::kN}, it::opts());
  at::Tensor Z = at::zeros({it::kN}, it::opts());
  return it::runGraph("graph_uncaptured_stream", "bug", argc, argv,
                      [&](float V, at::cuda::CUDAStream Cap) {
                        X.fill_(V);
                        return capture(V, Cap, X, Y, Z);
                      });
}
