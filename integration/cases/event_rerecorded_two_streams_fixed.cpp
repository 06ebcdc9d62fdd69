// A and B are produced on two streams and summed on a third. Fixed: one event
// per producing stream, and the side stream waits on both.
#include "../harness.h"

float sumBothOnSide(float V) {
  at::cuda::sleep(it::spin());                      // earlier work still runs on the current stream
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on the current
  at::cuda::CUDAStream Aux = at::cuda::getStreamFromPool();
  at::Tensor B;
  {
    at::cuda::CUDAStreamGuard Guard(Aux);
    B = at::full({it::kN}, V, it::opts()); // produced on Aux
  }
  at::cuda::CUDAEvent ReadyA, ReadyB;
  ReadyA.record(at::cuda::getCurrentCUDAStream());
  ReadyB.record(Aux);
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  ReadyA.block(Side);
  ReadyB.block(Side);
  at::cuda::CUDAStreamGuard Guard(Side);
  at::Tensor Total = at::sum(A) + at::sum(B);
  A.record_stream(Side);
  B.record_stream(Side);
  return Total.item<float>();
}

int main(int argc, char **argv) {
  return it::run("event_rerecorded_two_streams", "fixed", argc, argv,
                 [](float V) { return it::differs(sumBothOnSide(V), 2 * it::kN * double(V)); });
}
