// The pool stream is forked into the capture (it waits on an event recorded
// on the capturing stream) and joined back: its work is in the graph, and
// the replay recomputes Y from the new input.
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
    at::cuda::CUDAEvent Fork;
    Fork.record(Cap);
    Fork.block(Side);
    {
      at::cuda::CUDAStreamGuard OnSide(Side);
      at::mul_out(Y, X, 2);
    }
    at::cuda::CUDAEvent Join;
    Join.record(Side);
    Join.block(Cap);
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
  return it::runGraph("graph_uncaptured_stream", "fixed", argc, argv,
                      [&](float V, at::cuda::CUDAStream Cap) {
                        X.fill_(V);
                        return capture(V, Cap, X, Y, Z);
                      });
}
