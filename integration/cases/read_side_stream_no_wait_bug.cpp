// A is produced on the current stream and read on a side stream
// that does not wait for it. The side stream sums A before it is written.
#include "../harness.h"

float sideSum(float V) {
  at::cuda::sleep(it::spin());                      // earlier work still runs on the current stream
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on the current
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::cuda::CUDAStreamGuard Guard(Side);
  at::Tensor Total = at::sum(A); // EXPECT: streamsafe-unsynchronized-access
  A.record_stream(Side);
  return Total.item<float>();
}

int main(int argc, char **argv) {
  return it::run("read_side_stream_no_wait", "bug", argc, argv,
                 [](float V) { return it::differs(sideSum(V), it::kN * double(V)); });
}
