// The fix of graph_replay_unordered_bug: the graph is replayed on the stream
// that filled In (the decode step of a server), so the replay runs after the
// fill.
#include "../graph_harness.h"

bool step(float V, at::Tensor In, at::Tensor Out) {
  at::cuda::CUDAGraph Graph;
  at::cuda::CUDAStream Cap = at::cuda::getStreamFromPool();
  it::sync();
  {
    at::cuda::CUDAStreamGuard OnCap(Cap);
    Graph.capture_begin();
    at::mul_out(Out, In, 2);
    Graph.capture_end();
  }
  it::sync();
  at::cuda::sleep(it::spin()); // the current stream is busy with earlier work
  In.fill_(V);                 // the new input, on the current stream
  Graph.replay();              // after the fill, on the same stream
  it::sync();
  return it::differs(Out, 2 * V);
}

int main(int argc, char **argv) {
  at::Tensor In = at::zeros({it::kN}, it::opts());
  at::Tensor Out = at::zeros({it::kN}, it::opts());
  return it::run("graph_replay_unordered", "fixed", argc, argv,
                 [&](float V) { return step(V, In, Out); });
}
