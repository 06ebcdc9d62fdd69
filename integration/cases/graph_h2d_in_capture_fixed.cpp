// The host tensor is copied to the device before the capture begins, into
// a static input the graph reads: nothing waits for the capturing stream,
// the graph is made and its replay matches the eager result.
#include "../graph_harness.h"

it::Outcome capture(float V, at::cuda::CUDAStream Cap, at::Tensor X, at::Tensor Y) {
  at::Tensor Bias = at::full({it::kN}, V, at::TensorOptions().dtype(at::kFloat)); // on the host
  at::Tensor B = Bias.to(at::kCUDA);
  at::cuda::CUDAGraph Graph;
  it::sync(); // X, Y and B are ready
  {
    at::cuda::CUDAStreamGuard OnCap(Cap);
    Graph.capture_begin();
    Y.copy_(X + B);
    Graph.capture_end();
  }
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
  return it::runGraph("graph_h2d_in_capture", "fixed", argc, argv,
                      [&](float V, at::cuda::CUDAStream Cap) {
                        X.fill_(V);
                        return capture(V, Cap, X, Y);
                      });
}
