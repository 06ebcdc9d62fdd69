// The fix of graph_outside_event_wait_bug: the capturing stream waits on the
// event before the capture begins, which orders the capture (and the replay
// on the same stream after it) after the fill; the graph holds only the
// read.
#include "../graph_harness.h"

#include <ATen/cuda/CUDAEvent.h>

it::Outcome step(float V, at::cuda::CUDAStream Cap, at::Tensor In,
                 at::Tensor Out) {
  it::sync();
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent Filled;
  {
    at::cuda::CUDAStreamGuard OnSide(Side);
    In.fill_(V);
    Filled.record(Side);
  }
  at::cuda::CUDAGraph Graph;
  at::cuda::CUDAStreamGuard OnCap(Cap);
  Filled.block(Cap);
  Graph.capture_begin();
  at::mul_out(Out, In, 2);
  Graph.capture_end();
  Graph.replay();
  it::sync();
  return {it::differs(Out, 2 * V), "wrong replay"};
}

int main(int argc, char **argv) {
  at::Tensor In = at::zeros({it::kN}, it::opts());
  at::Tensor Out = at::zeros({it::kN}, it::opts());
  return it::runGraph("graph_outside_event_wait", "fixed", argc, argv,
                      [&](float V, at::cuda::CUDAStream Cap) {
                        return step(V, Cap, In, Out);
                      });
}
