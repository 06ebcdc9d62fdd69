// A tensor allocated on the current stream is written on a pool stream that
// waits for nothing. The allocation reuses the block of the caller's earlier
// tensor, whose fill is still queued on the current stream; that late fill
// overwrites what the pool stream wrote.
#include "../harness.h"

at::Tensor fillOnSide(float V) {
  at::Tensor Out = at::empty({it::kN}, it::opts()); // allocated on the current stream
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard Guard(Side);
  Out.fill_(V); // EXPECT: streamsafe-unsynchronized-access
  return Out;   // the caller synchronizes before reading Out (the harness does)
}

int main(int argc, char **argv) {
  return it::run("fill_on_side_no_wait", "bug", argc, argv, [](float V) {
    {
      at::cuda::sleep(it::spin()); // the caller's earlier work, still queued
      at::Tensor Prev = at::full({it::kN}, -1.0f, it::opts());
    } // Prev dies: same stream, so its block is free at once
    return it::differs(fillOnSide(V), V);
  });
}
