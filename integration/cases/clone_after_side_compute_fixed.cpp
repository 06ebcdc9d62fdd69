// B is computed on a side stream, then cloned back on the current
// stream. Fixed: the current stream waits on an event recorded on the side
// stream after B's producer.
#include "../harness.h"

at::Tensor computeThenClone(float V) {
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::Tensor B;
  {
    at::cuda::CUDAStreamGuard Guard(Side);
    at::cuda::sleep(it::spin());           // the side stream is busy with earlier work
    B = at::full({it::kN}, V, it::opts()); // computed on the side stream
  }
  at::cuda::CUDAEvent Done;
  Done.record(Side);
  Done.block(at::cuda::getCurrentCUDAStream());
  at::Tensor C = B.clone();
  B.record_stream(at::cuda::getCurrentCUDAStream());
  return C;
}

int main(int argc, char **argv) {
  return it::run("clone_after_side_compute", "fixed", argc, argv,
                 [](float V) { return it::differs(computeThenClone(V), V); });
}
