// Write after read: a busy side stream still has to read A when the current
// stream overwrites A in place. Fixed: the current stream waits on an event
// recorded on the side stream after the read.
#include "../harness.h"

float sumThenOverwrite(float V) {
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on the current
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent Ready;
  Ready.record(at::cuda::getCurrentCUDAStream());
  Ready.block(Side);
  at::Tensor Total;
  {
    at::cuda::CUDAStreamGuard Guard(Side);
    at::cuda::sleep(it::spin()); // the side stream is busy with earlier work
    Total = at::sum(A);          // read on the side stream
  }
  at::cuda::CUDAEvent Read;
  Read.record(Side);
  Read.block(at::cuda::getCurrentCUDAStream());
  A.fill_(-1.0f);
  A.record_stream(Side);
  Side.synchronize();
  return Total.item<float>();
}

int main(int argc, char **argv) {
  return it::run("write_after_read", "fixed", argc, argv,
                 [](float V) { return it::differs(sumThenOverwrite(V), it::kN * double(V)); });
}
