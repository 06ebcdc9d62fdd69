// Even without a read dependency, a fresh at::empty on the
// current stream may reuse a block whose previous owner still has work queued
// on that stream. Fixed: the side stream waits for the current stream before
// writing the new tensor.
#include "../harness.h"

at::Tensor fillOnSide(float V) {
  at::Tensor A = at::empty({it::kN}, it::opts()); // allocated on the current
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent Ready;
  Ready.record(at::cuda::getCurrentCUDAStream());
  Ready.block(Side);
  {
    at::cuda::CUDAStreamGuard Guard(Side);
    A.fill_(V);
  }
  at::cuda::CUDAEvent Done; // hand A back to the current stream
  Done.record(Side);
  Done.block(at::cuda::getCurrentCUDAStream());
  return A;
}

int main(int argc, char **argv) {
  return it::run("fresh_alloc_side_write", "fixed", argc, argv, [](float V) {
    {
      at::cuda::sleep(it::spin()); // the caller's earlier work, still queued
      at::Tensor Prev = at::full({it::kN}, -1.0f, it::opts());
    } // Prev dies: same stream, so its block is free at once
    return it::differs(fillOnSide(V), V);
  });
}
