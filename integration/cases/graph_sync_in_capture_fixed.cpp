// The value the host needs is computed on the device and stays there
// (multiplied in as a tensor): nothing waits for the capturing stream, the
// graph is made and its replay matches the eager result.
#include "../graph_harness.h"

it::Outcome capture(float V, at::cuda::CUDAStream Cap, at::Tensor X,
                    at::Tensor Y) {
  at::cuda::CUDAGraph Graph;
  it::sync(); // X and Y are ready
  {
    at::cuda::CUDAStreamGuard OnCap(Cap);
    Graph.capture_begin();
    at::Tensor Scale = X.max();
    Y.copy_(X * Scale);
    Graph.capture_end();
  }
  it::sync();
  Y.zero_();
  it::sync();
  Graph.replay();
  it::sync();
  return {it::differs(Y[0].item<float>(), double(V) * V), "wrong replay"};
}

int main(int argc, char **argv) {
  at::Tensor X = at::zeros({it::kN}, it::opts());
  at::Tensor Y = at::zeros({it::kN}, it::opts());
  return it::runGraph("graph_sync_in_capture", "fixed", argc, argv,
                      [&](float V, at::cuda::CUDAStream Cap) {
                        X.fill_(V);
                        return capture(V, Cap, X, Y);
                      });
}
