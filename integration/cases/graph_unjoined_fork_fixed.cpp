// The side stream forked into the capture is joined back: the capturing
// stream waits on an event recorded on it after its work. The graph is made
// and its replay repeats the side stream's work.
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
    at::cuda::CUDAEvent Join;
    Join.record(Side);
    Join.block(Cap);
    Graph.capture_end();
  }
  // Capture recorded the work without running it: the replay runs it.
  it::sync();
  Y.zero_();
  it::sync();
  Graph.replay();
  it::sync();
  return {it::differs(Y[0].item<float>(), 2.0 * V), "wrong replay"};
}

int main(int argc, char **argv) {
  at::Tensor X = at::zeros({it::kN}, it::opts());
  at::Tensor Y = at::zeros({it::kN}, it::opts());
  return it::runGraph("graph_unjoined_fork", "fixed", argc, argv,
                      [&](float V, at::cuda::CUDAStream Cap) {
                        X.fill_(V);
                        return capture(V, Cap, X, Y);
                      });
}
