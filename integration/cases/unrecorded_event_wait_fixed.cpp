// The side stream waits for A's producer through an event. Fixed:
// the event is recorded before the side stream blocks on it.
#include "../harness.h"

float sideSum(float V) {
  at::cuda::sleep(it::spin());                      // earlier work still runs on the current stream
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on the current
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent Ready;
  Ready.record(at::cuda::getCurrentCUDAStream());
  Ready.block(Side);
  at::cuda::CUDAStreamGuard Guard(Side);
  at::Tensor Total = at::sum(A);
  A.record_stream(Side);
  return Total.item<float>();
}

int main(int argc, char **argv) {
  return it::run("unrecorded_event_wait", "fixed", argc, argv,
                 [](float V) { return it::differs(sideSum(V), it::kN * double(V)); });
}
