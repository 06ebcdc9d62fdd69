// A tensor allocated on the current stream is written on a pool stream.
// Fixed: an event recorded after at::empty (not before it: that would cover
// nothing) makes the pool stream wait for the allocating stream.
#include "../harness.h"

at::Tensor fillOnSide(float V) {
  at::Tensor Out = at::empty({it::kN}, it::opts()); // allocated on the current stream
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent Ready;
  Ready.record(); // after at::empty: covers the allocation
  Ready.block(Side);
  at::cuda::CUDAStreamGuard Guard(Side);
  Out.fill_(V);
  return Out; // the caller synchronizes before reading Out (the harness does)
}

int main(int argc, char **argv) {
  return it::run("fill_on_side_no_wait", "fixed", argc, argv, [](float V) {
    {
      at::cuda::sleep(it::spin()); // the caller's earlier work, still queued
      at::Tensor Prev = at::full({it::kN}, -1.0f, it::opts());
    } // Prev dies: same stream, so its block is free at once
    return it::differs(fillOnSide(V), V);
  });
}
