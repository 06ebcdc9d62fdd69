// A graph captured on its own stream reads the static input In and writes
// the static output Out. The caller fills In on its stream, then replays the
// graph on a pool stream that does not wait for the fill: the replay reads
// In before the fill lands (the capture itself ran nothing).
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
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  {
    at::cuda::CUDAStreamGuard OnSide(Side);
    Graph.replay(); // EXPECT: streamsafe-unsynchronized-access
  }
  it::sync();
  return it::differs(Out, 2 * V);
}

int main(int argc, char **argv) {
  at::Tensor In = at::zeros({it::kN}, it::opts());
  at::Tensor Out = at::zeros({it::kN}, it::opts());
  return it::run("graph_replay_unordered", "bug", argc, argv,
                 [&](float V) { return step(V, In, Out); });
}
