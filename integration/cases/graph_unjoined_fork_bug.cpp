// A side stream is forked into the capture (it waits on an event recorded on
// the capturing stream) and does work, but the capturing stream never waits
// for it: cudaStreamEndCapture fails with cudaErrorStreamCaptureUnjoined and
// no graph is made.
#include "../graph_harness.h"

it::Outcome capture(float V, at::cuda::CUDAStream Cap, at::Tensor X,
                    at::Tensor Y) {
  at::cuda::CUDAGraph Graph;
  it::sync(); // X and Y are ready
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  {
    at::cuda::CUDAStreamGuard OnCap(Cap);
    Graph.capture_begin();
    at::cuda::CUDAEvent Fork;
    Fork.record(Cap);
    Fork.block(Side);
    {
      at::cuda::CUDAStreamGuard OnSide(Side);
      Y.copy_(X * 2);
    }
    Graph.capture_end(); // EXPECT: streamsafe-graph-capture
  }
  Graph.replay();
  it::sync();
  return {it::differs(Y[0].item<float>(), 2.0 * V), "wrong replay"};
}

int main(int argc, char **argv) {
  at::Tensor X = at::zeros({it::kN}, it::opts());
  at::Tensor Y = at::zeros({it::kN}, it::opts());
  return it::runGraph("graph_unjoined_fork", "bug", argc, argv,
                      [&](float V, at::cuda::CUDAStream Cap) {
                        X.fill_(V);
                        return capture(V, Cap, X, Y);
                      });
}
