// B is computed on a side stream, then cloned back on the current
// stream. clone() runs on the current stream and does not wait for the side
// stream, so it copies B before B is written.
#include "../harness.h"

at::Tensor computeThenClone(float V) {
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::Tensor B;
  {
    at::cuda::CUDAStreamGuard Guard(Side);
    at::cuda::sleep(it::spin());           // the side stream is busy with earlier work
    B = at::full({it::kN}, V, it::opts()); // computed on the side stream
  }
  at::Tensor C = B.clone(); // EXPECT: streamsafe-unsynchronized-access
  B.record_stream(at::cuda::getCurrentCUDAStream());
  return C;
}

int main(int argc, char **argv) {
  return it::run("clone_after_side_compute", "bug", argc, argv,
                 [](float V) { return it::differs(computeThenClone(V), V); });
}
