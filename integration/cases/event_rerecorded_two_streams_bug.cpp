// One event is recorded on two streams and waited on once. Each record
// replaces the previous one, so the wait covers only the last stream's work:
// the side stream sums A before its producer on the current stream has run.
#include "../harness.h"

float sumBothOnSide(float V) {
  at::cuda::sleep(it::spin());                      // earlier work still runs on the current stream
  at::Tensor A = at::full({it::kN}, V, it::opts()); // produced on the current
  at::cuda::CUDAStream Aux = at::cuda::getStreamFromPool();
  at::Tensor B;
  {
    at::cuda::CUDAStreamGuard Guard(Aux);
    B = at::full({it::kN}, V, it::opts()); // produced on Aux
  }
  at::cuda::CUDAEvent Ready;
  Ready.record(at::cuda::getCurrentCUDAStream()); // A is ready ...
  Ready.record(Aux);                              // ... replaced: only B is covered now
  at::cuda::CUDAStream Side = at::cuda::getStreamFromPool();
  Ready.block(Side);
  at::cuda::CUDAStreamGuard Guard(Side);
  at::Tensor Total = at::sum(A) + at::sum(B); // EXPECT: streamsafe-unsynchronized-access
  A.record_stream(Side);
  B.record_stream(Side);
  return Total.item<float>();
}

int main(int argc, char **argv) {
  return it::run("event_rerecorded_two_streams", "bug", argc, argv,
                 [](float V) { return it::differs(sumBothOnSide(V), 2 * it::kN * double(V)); });
}
