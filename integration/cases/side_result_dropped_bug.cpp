// R is made on a side stream, joined, and read on the current stream (which
// is still busy); then it is dropped with no record_stream. The caching
// allocator hands its block at once to the side stream's next allocation,
// which overwrites it before the current stream reads it.
#include "../harness.h"

at::Tensor consumeAndDrop(float V) {
  at::cuda::CUDAStream Cur = at::cuda::getCurrentCUDAStream();
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::Tensor Y;
  {
    at::Tensor R;
    {
      at::cuda::CUDAStreamGuard Guard(Side);
      R = at::full({it::kN}, V, it::opts());
    }
    at::cuda::CUDAEvent Done;
    Done.record(Side);
    Done.block(Cur);
    at::cuda::sleep(it::spin()); // the current stream is busy with earlier work
    Y = R.add(0);                // EXPECT: streamsafe-missing-record-stream
    R = at::Tensor();
  }
  at::cuda::CUDAStreamGuard Guard(Side);
  at::Tensor Next = at::full({it::kN}, -1.0f, it::opts()); // reuses R's block
  return Y;
}

int main(int argc, char **argv) {
  return it::run("side_result_dropped", "bug", argc, argv,
                 [](float V) { return it::differs(consumeAndDrop(V), V); });
}
