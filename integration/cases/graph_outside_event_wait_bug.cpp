// A side stream fills In and records an event; the capture on the capturing
// stream then waits on that event, to order the captured read after the
// fill. The record was not captured: a graph cannot depend on work outside
// it, and the runtime refuses the wait (in every capture mode) with
// cudaErrorStreamCaptureIsolation; PyTorch raises it.
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
  Graph.capture_begin();
  Filled.block(Cap); // EXPECT: streamsafe-graph-capture
  at::mul_out(Out, In, 2);
  Graph.capture_end();
  Graph.replay(); // EXPECT: streamsafe-unsynchronized-access
  it::sync();
  return {it::differs(Out, 2 * V), "wrong replay"};
}

int main(int argc, char **argv) {
  at::Tensor In = at::zeros({it::kN}, it::opts());
  at::Tensor Out = at::zeros({it::kN}, it::opts());
  return it::runGraph("graph_outside_event_wait", "bug", argc, argv,
                      [&](float V, at::cuda::CUDAStream Cap) {
                        return step(V, Cap, In, Out);
                      });
}
