// An event must be recorded after the work it is meant to cover. Fixed: the
// event is recorded after A's producer, so the side stream waits for it.
#include "../harness.h"

float sideSum(float V) {
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent Ready;
  at::cuda::sleep(it::spin());                      // earlier work still runs on the current stream
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on the current
  Ready.record(at::cuda::getCurrentCUDAStream());   // after A's producer
  Ready.block(Side);
  at::cuda::CUDAStreamGuard Guard(Side);
  at::Tensor Total = at::sum(A);
  A.record_stream(Side);
  return Total.item<float>();
}

int main(int argc, char **argv) {
  return it::run("event_recorded_before_producer", "fixed", argc, argv,
                 [](float V) { return it::differs(sideSum(V), it::kN * double(V)); });
}
