// X is allocated on the current stream and read on a busy side
// stream. Fixed: record_stream keeps its block from being reused until the
// side stream is done with it.
#include "../harness.h"

at::Tensor doubleOnSide(float V) {
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::Tensor Out;
  {
    at::Tensor X = at::full({it::kN}, V, it::opts()); // allocated on current
    at::cuda::CUDAEvent Ready;
    Ready.record(at::cuda::getCurrentCUDAStream());
    at::cuda::CUDAStreamGuard Guard(Side);
    Ready.block(Side);
    at::cuda::sleep(it::spin()); // the side stream is busy with earlier work
    Out = X * 2;
    X.record_stream(Side);
    // X dies below; its block is reused once the side stream is done.
  }
  at::Tensor Next = at::full({it::kN}, -1.0f, it::opts()); // a fresh block
  Side.synchronize();
  return Out;
}

int main(int argc, char **argv) {
  return it::run("missing_record_stream", "fixed", argc, argv,
                 [](float V) { return it::differs(doubleOnSide(V), 2 * V); });
}
