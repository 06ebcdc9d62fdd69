// An event recorded before the producing work covers none of it: the side
// stream waits on it, the wait completes at once, and the side stream sums A
// before A's producer on the current stream has run.
#include "../harness.h"

float sideSum(float V) {
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent Ready;
  Ready.record(at::cuda::getCurrentCUDAStream());   // too early: A is not produced yet
  at::cuda::sleep(it::spin());                      // earlier work still runs on the current stream
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on the current
  Ready.block(Side);
  at::cuda::CUDAStreamGuard Guard(Side);
  at::Tensor Total = at::sum(A); // EXPECT: streamsafe-unsynchronized-access
  A.record_stream(Side);
  return Total.item<float>();
}

int main(int argc, char **argv) {
  return it::run("event_recorded_before_producer", "bug", argc, argv,
                 [](float V) { return it::differs(sideSum(V), it::kN * double(V)); });
}
