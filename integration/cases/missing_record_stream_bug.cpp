// X is allocated on the current stream and read on a busy side
// stream, then dies without record_stream. Its block goes back to the current
// stream's pool at once; the next allocation there reuses and overwrites it
// before the side stream has read it.
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
    Out = X * 2;                 // EXPECT: streamsafe-missing-record-stream
    // X dies below while the side stream still has to read it.
  }
  at::Tensor Next = at::full({it::kN}, -1.0f, it::opts()); // reuses X's block
  Side.synchronize();
  return Out;
}

int main(int argc, char **argv) {
  return it::run("missing_record_stream", "bug", argc, argv,
                 [](float V) { return it::differs(doubleOnSide(V), 2 * V); });
}
