// R is made on a side stream, joined, and read on the current stream; it is
// recorded on the current stream before it is dropped, so the caching
// allocator keeps its block until the current stream's read is done.
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
    Y = R.add(0);
    R.record_stream(Cur);
    R = at::Tensor();
  }
  at::cuda::CUDAStreamGuard Guard(Side);
  at::Tensor Next = at::full({it::kN}, -1.0f, it::opts()); // must not reuse R's block yet
  return Y;
}

int main(int argc, char **argv) {
  return it::run("side_result_dropped", "fixed", argc, argv,
                 [](float V) { return it::differs(consumeAndDrop(V), V); });
}
