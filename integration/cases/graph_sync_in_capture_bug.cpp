// The host reads a result (item()) in the middle of a capture: the copy to
// the host waits for the capturing stream, which the runtime refuses
// (cudaErrorStreamCaptureUnsupported) and the capture is invalidated.
#include "../graph_harness.h"

it::Outcome capture(float V, at::cuda::CUDAStream Cap, at::Tensor X,
                    at::Tensor Y) {
  at::cuda::CUDAGraph Graph;
  it::sync(); // X and Y are ready
  {
    at::cuda::CUDAStreamGuard OnCap(Cap);
    Graph.capture_begin();
    at::Tensor Scale = X.max();
    float S = Scale.item<float>(); // EXPECT: streamsafe-graph-capture
    Y.copy_(X * S);
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
  return it::runGraph("graph_sync_in_capture", "bug", argc, argv,
                      [&](float V, at::cuda::CUDAStream Cap) {
                        X.fill_(V);
                        return capture(V, Cap, X, Y);
                      });
}
