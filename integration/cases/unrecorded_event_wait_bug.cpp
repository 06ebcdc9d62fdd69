// The side stream blocks on the event before it is recorded. A
// wait on a never-recorded event is a silent no-op, so the side stream reads A
// before its producer on the current stream has run.
#include "../harness.h"

float sideSum(float V) {
  at::cuda::sleep(it::spin());                      // earlier work still runs on the current stream
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on the current
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  at::cuda::CUDAEvent Ready;
  Ready.block(Side); // EXPECT: streamsafe-unrecorded-event-wait
  Ready.record(at::cuda::getCurrentCUDAStream());
  at::cuda::CUDAStreamGuard Guard(Side);
  at::Tensor Total = at::sum(A); // EXPECT: streamsafe-unsynchronized-access
  A.record_stream(Side);
  return Total.item<float>();
}

int main(int argc, char **argv) {
  return it::run("unrecorded_event_wait", "bug", argc, argv,
                 [](float V) { return it::differs(sideSum(V), it::kN * double(V)); });
}
