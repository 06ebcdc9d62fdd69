// The capture begins on a pool stream made current by a guard: the graph is
// made, and its replay recomputes Y from the new input.
#include "../graph_harness.h"

it::Outcome capture(float V, at::Tensor X, at::Tensor Y) {
  at::cuda::CUDAGraph Graph;
  it::sync(); // X and Y are ready
  {
    c10::cuda::CUDAStreamGuard OnSide(c10::cuda::getStreamFromPool());
    Graph.capture_begin();
    at::mul_out(Y, X, 2);
    Graph.capture_end();
  }
  it::sync();
  X.fill_(V + 100);
  it::sync();
  Graph.replay();
  it::sync();
  return {it::differs(Y[0].item<float>(), 2.0 * (V + 100)), "wrong replay"};
}

int main(int argc, char **argv) {
  at::Tensor X = at::zeros({it::kN}, it::opts());
  at::Tensor Y = at::zeros({it::kN}, it::opts());
  return it::runGraph("graph_default_stream_capture", "fixed", argc, argv,
                      [&](float V, at::cuda::CUDAStream) {
                        X.fill_(V);
                        return capture(V, X, Y);
                      });
}
